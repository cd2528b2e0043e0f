"""The get_book_info tool, against a fake Open Library on 127.0.0.1."""

from __future__ import annotations

import functools
import json
import logging
import sys
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

import pytest

from get_book_info import logic, openlibrary
from get_book_info.handler import lambda_handler
from get_book_info.settings import Settings, get_settings
from shared.api.contract import Ledger, ToolOutput, ToolUse
from shared.runtime.http import USER_AGENT
from shared.runtime.observability import logger, metrics
from shared.runtime.tool_errors import failed_in_words
from shared.text.sanitize import has_control_characters
from tests.support.fake_http import FakeHttpServer
from tests.support.quoted import as_read

SEARCH_PATH = "/search.json"
EXPECTED_FIELDS = (
    "key,title,author_name,first_publish_year,ratings_average,ratings_count,"
    "subject,isbn,number_of_pages_median"
)


# -- helpers -------------------------------------------------------------------


def ol_doc(i: int) -> dict[str, Any]:
    return {
        "key": f"/works/OL{i}W",
        "title": f"Book {i}",
        "author_name": ["Ann Author", "Bob Writer", "Cy Coauthor", "Di Fourth"],
        "first_publish_year": 1965 + i,
        "ratings_average": 4.123456,
        "ratings_count": 1000 + i,
        "subject": ["Science fiction", "Deserts", "Politics", "Ecology", "Religion", "Spice"],
        "isbn": ["0441172717", "978-0-441-17271-9", "9780340960196"],
        "number_of_pages_median": 412,
    }


def ol_body(count: int) -> dict[str, Any]:
    return {"numFound": count, "start": 0, "docs": [ol_doc(i) for i in range(count)]}


def expected_book(i: int) -> dict[str, Any]:
    return {
        "title": f"Book {i}",
        "authors": ["Ann Author", "Bob Writer", "Cy Coauthor"],
        "year": 1965 + i,
        "avgRating": 4.12,
        "ratingsCount": 1000 + i,
        "subjects": ["Science fiction", "Deserts", "Politics", "Ecology", "Religion"],
        "isbn": "9780441172719",
        "pages": 412,
    }


def tool_use(input: dict[str, Any]) -> ToolUse:
    return ToolUse.model_validate(
        {"toolUseId": "tu-books-1", "name": "get_book_info", "input": input}
    )


def run_tool(
    server: FakeHttpServer, input: dict[str, Any], *, timeout_s: float = 2.0
) -> ToolOutput:
    return logic.run(
        tool_use(input),
        search=functools.partial(openlibrary.search_books, base_url=server.base_url),
        timeout_s=timeout_s,
    )


def for_model(output: ToolOutput) -> dict[str, Any]:
    """What the model reads, its web text taken out of the quotes (checked) it reads it in."""
    content = output.tool_result["content"]
    assert len(content) == 1
    body: dict[str, Any] = content[0]["json"]
    return as_read(body) if output.tool_result["status"] == "success" else body


@dataclass
class FakeLambdaContext:
    remaining_ms: int = 10_000
    function_name: str = "storechat-get-book-info"
    memory_limit_in_mb: int = 256
    invoked_function_arn: str = (
        "arn:aws:lambda:eu-west-1:123456789012:function:storechat-get-book-info"
    )
    aws_request_id: str = "req-books-1"

    def get_remaining_time_in_millis(self) -> int:
        return self.remaining_ms


class CurrentStderr:
    """Writes to whatever ``sys.stderr`` is at the moment of the write."""

    def write(self, text: str) -> int:
        return sys.stderr.write(text)

    def flush(self) -> None:
        sys.stderr.flush()


@pytest.fixture
def server() -> Iterator[FakeHttpServer]:
    with FakeHttpServer() as srv:
        yield srv


@pytest.fixture
def stderr_logs(capsys: pytest.CaptureFixture[str]) -> Iterator[Callable[[], str]]:
    # The Logger is shared by the whole process: route it through the live sys.stderr
    # (capsys swaps it, and pytest replaces it between test phases), and log at INFO,
    # a deployed function's default, whatever level code run earlier left it at.
    handler = logger.registered_handler
    assert isinstance(handler, logging.StreamHandler)
    previous_stream = handler.setStream(CurrentStderr())
    previous_level = logger.log_level
    logger.setLevel("INFO")
    yield lambda: capsys.readouterr().err
    logger.setLevel(previous_level)
    if previous_stream is not None:
        handler.setStream(previous_stream)


@pytest.fixture
def lambda_env(monkeypatch: pytest.MonkeyPatch, server: FakeHttpServer) -> Iterator[None]:
    monkeypatch.setenv("POWERTOOLS_TRACE_DISABLED", "true")
    monkeypatch.setenv("POWERTOOLS_METRICS_NAMESPACE", "Storechat")
    monkeypatch.setenv("POWERTOOLS_METRICS_DISABLED", "true")
    monkeypatch.setenv("OPENLIBRARY_BASE_URL", server.base_url)
    monkeypatch.delenv("TOOL_HTTP_TIMEOUT_S", raising=False)
    get_settings.cache_clear()
    yield
    get_settings.cache_clear()
    # Disabled metrics are never flushed, so they would pile up across tests.
    metrics.clear_metrics()


def event(input: dict[str, Any]) -> dict[str, Any]:
    return {
        "toolUse": {"toolUseId": "tu-books-1", "name": "get_book_info", "input": input},
        "executionId": "arn:aws:states:eu-west-1:123456789012:express:storechat:exec-2",
    }


# -- success -------------------------------------------------------------------


def test_success_keeps_the_top_three_docs_with_exact_fields(server: FakeHttpServer) -> None:
    # Given Open Library answers with five full docs
    server.route(SEARCH_PATH, body=ol_body(5))

    # When the model asks about a book (with stray whitespace)
    output = run_tool(server, {"query": "  Dune  "})

    # Then the model gets the first three, trimmed to the documented fields
    expected = [expected_book(i) for i in range(3)]
    assert output.tool_result["status"] == "success"
    assert output.tool_result["toolUseId"] == "tu-books-1"
    assert for_model(output) == {"query": "Dune", "results": expected}
    # And the ledger keeps no book: the response shows products, a book reaches the
    # shopper in the model's words
    assert output.ledger == Ledger()
    # And the trace line says what happened
    assert output.trace.tool == "get_book_info"
    assert output.trace.status == "success"
    assert output.trace.summary == "3 books for 'Dune'"
    assert output.trace.input == {"query": "  Dune  "}
    assert 0 <= output.trace.ms < 2000


def test_sparse_docs_get_nulls_and_empty_lists(server: FakeHttpServer) -> None:
    # Given a doc with only a title, and one with oddly typed fields
    server.route(
        SEARCH_PATH,
        body={
            "docs": [
                {"title": "Obscure Pamphlet"},
                {
                    "title": 12,
                    "author_name": "not a list",
                    "first_publish_year": "1999",
                    "ratings_average": True,
                    "ratings_count": None,
                    "subject": [1, "Poetry", ""],
                    "isbn": ["0441172717", "12345"],
                    "number_of_pages_median": 3.5,
                },
                "not-a-doc",
            ]
        },
    )

    # When the model asks
    output = run_tool(server, {"query": "pamphlet"})

    # Then missing or mistyped values become null / empty rather than errors
    assert for_model(output)["results"] == [
        {
            "title": "Obscure Pamphlet",
            "authors": [],
            "year": None,
            "avgRating": None,
            "ratingsCount": None,
            "subjects": [],
            "isbn": None,
            "pages": None,
        },
        {
            "title": "",
            "authors": [],
            "year": None,
            "avgRating": None,
            "ratingsCount": None,
            "subjects": ["Poetry"],
            "isbn": None,
            "pages": None,
        },
    ]
    assert output.trace.summary == "2 books for 'pamphlet'"


def test_zero_docs_is_a_successful_empty_answer(server: FakeHttpServer) -> None:
    # Given Open Library finds nothing
    server.route(SEARCH_PATH, body={"numFound": 0, "docs": []})

    # When the model asks
    output = run_tool(server, {"query": "xyzzy plugh"})

    # Then it is a success with no results
    assert output.tool_result["status"] == "success"
    assert for_model(output) == {"query": "xyzzy plugh", "results": []}
    assert output.ledger == Ledger()
    assert output.trace.summary == "no books found for 'xyzzy plugh'"


def test_request_carries_query_limit_fields_and_identifying_user_agent(
    server: FakeHttpServer,
) -> None:
    # Given a working Open Library
    server.route(SEARCH_PATH, body=ol_body(1))

    # When the tool searches for a query that needs encoding
    run_tool(server, {"query": "Dune & Children of Dune"})

    # Then exactly one GET went to /search.json with the expected params
    [request] = server.requests
    assert request.method == "GET"
    assert request.path == SEARCH_PATH
    assert request.query == {
        "q": ["Dune & Children of Dune"],
        "limit": ["3"],
        "fields": [EXPECTED_FIELDS],
    }
    # And the User-Agent identifies storechat, as Open Library asks of clients
    assert request.header("User-Agent") == USER_AGENT
    assert "storechat" in (request.header("User-Agent") or "")
    assert request.header("Accept") == "application/json"


# -- invalid input -------------------------------------------------------------


@pytest.mark.parametrize(
    ("input", "problem"),
    [
        ({}, "query: Field required"),
        ({"query": "x"}, "query: String should have at least 2 characters"),
        ({"query": "   x   "}, "query: String should have at least 2 characters"),
        ({"query": "y" * 201}, "query: String should have at most 200 characters"),
        ({"query": ["Dune"]}, "query: Input should be a valid string"),
        ({"query": "Dune", "author": "Herbert"}, "author: Extra inputs are not permitted"),
    ],
    ids=["missing", "too-short", "short-after-strip", "too-long", "not-a-string", "extra-field"],
)
def test_invalid_input_is_an_error_result_naming_the_problem(
    server: FakeHttpServer, input: dict[str, Any], problem: str
) -> None:
    # Given a working Open Library
    server.route(SEARCH_PATH, body=ol_body(3))

    # When the model calls the tool with bad arguments
    output = run_tool(server, input)

    # Then it gets an error result that names the problem
    assert output.tool_result["status"] == "error"
    result = for_model(output)
    assert result["kind"] == "invalid_input"
    assert result["error"] == f"Invalid input for get_book_info: {problem}"
    assert problem in output.trace.summary
    # And Open Library was never asked
    assert server.requests == []


# -- upstream failures -------------------------------------------------------------


@pytest.mark.parametrize(
    ("status", "kind", "sentence"),
    [
        (
            429,
            "rate_limited",
            "The book information service is rate limiting requests (HTTP 429); "
            "book details are unavailable right now.",
        ),
        (500, "unavailable", "The book information service is failing (HTTP 500); "),
        (502, "unavailable", "The book information service is failing (HTTP 502); "),
        (404, "http_error", "The book information service refused the request (HTTP 404); "),
    ],
)
def test_http_errors_become_error_results(
    server: FakeHttpServer, status: int, kind: str, sentence: str
) -> None:
    # Given Open Library answers with an HTTP error
    server.route(SEARCH_PATH, status=status, body={"error": "nope"})

    # When the model asks about a book
    output = run_tool(server, {"query": "Dune"})

    # Then it gets an error result of the right kind with a sentence it can relay
    assert output.tool_result["status"] == "error"
    result = for_model(output)
    assert result["kind"] == kind
    assert result["error"].startswith(sentence)
    assert result["error"].endswith("book details are unavailable right now.")
    assert output.trace.status == "error"
    # "How I found this" says it in words ("was too busy to answer"), not the error's code
    assert failed_in_words(kind) in output.trace.summary and kind not in output.trace.summary
    assert output.ledger == Ledger()


@pytest.mark.parametrize(
    "body",
    [
        b"<html>Service Unavailable</html>",
        b"\x1f\x8b not really gzip",
        {"numFound": 3},
        {"docs": {"0": "not a list"}},
        "just a string",
    ],
    ids=["html", "binary", "no-docs", "docs-not-list", "json-string"],
)
def test_unreadable_body_is_malformed(server: FakeHttpServer, body: Any) -> None:
    # Given Open Library answers 200 with a body that is not a search result
    if isinstance(body, str):
        body = json.dumps(body)
    server.route(SEARCH_PATH, body=body)

    # When the model asks about a book
    output = run_tool(server, {"query": "Dune"})

    # Then it gets a malformed error result
    assert output.tool_result["status"] == "error"
    assert for_model(output)["kind"] == "malformed"
    assert "could not be read" in for_model(output)["error"]


def test_slow_server_times_out_within_the_budget(server: FakeHttpServer) -> None:
    # Given Open Library takes far longer than the tool may wait
    server.route(SEARCH_PATH, body=ol_body(3), delay_s=10)
    timeout_s = 0.5

    # When the model asks about a book
    started = time.perf_counter()
    output = run_tool(server, {"query": "Dune"}, timeout_s=timeout_s)
    elapsed = time.perf_counter() - started

    # Then a timeout error comes back, long before the server would have answered
    assert elapsed < 5  # gave up long before the 10 s server (a bound, not a speed claim)
    assert for_model(output)["kind"] == "timeout"
    assert "did not answer in time" in for_model(output)["error"]
    assert output.trace.ms >= int(timeout_s * 1000) - 50


# -- hostile content ---------------------------------------------------------------


def test_control_characters_are_stripped_and_long_text_capped(server: FakeHttpServer) -> None:
    # Given a doc whose text carries escapes, bidi overrides and filler
    doc = ol_doc(0) | {
        "title": "Dune\x1b]0;pwned\x07 " + "T" * 5000,
        "author_name": ["Frank\u202e Herbert\x00", "A" * 500],
        "subject": ["Sci\u200bence\x08 fiction", "S" * 500],
    }
    server.route(SEARCH_PATH, body={"docs": [doc]})

    # When the model asks about a book
    output = run_tool(server, {"query": "Dune"})

    # Then no control characters survive and each string respects its cap
    [book] = for_model(output)["results"]
    strings = [book["title"], *book["authors"], *book["subjects"]]
    assert not any(has_control_characters(text) for text in strings)
    assert book["title"].startswith("Dune]0;pwned T")
    assert len(book["title"]) <= 200
    assert book["authors"][0] == "Frank Herbert"
    assert all(len(author) <= 100 for author in book["authors"])
    assert book["subjects"][0] == "Science fiction"
    assert len(book["subjects"][1]) == 60
    assert book["subjects"][1].endswith("…")


def test_non_finite_rating_is_dropped(server: FakeHttpServer) -> None:
    # Given a rating that JSON parsers accept but JSON writers cannot emit
    server.route(SEARCH_PATH, body=b'{"docs": [{"title": "Odd", "ratings_average": NaN}]}')

    # When the model asks
    output = run_tool(server, {"query": "odd"})

    # Then the rating is null and the result serialises as strict JSON
    assert for_model(output)["results"][0]["avgRating"] is None
    json.dumps(output.dump(), allow_nan=False)


# -- Lambda handler ------------------------------------------------------------------


@pytest.mark.usefixtures("lambda_env")
def test_handler_answers_with_a_tool_output(
    server: FakeHttpServer, stderr_logs: Callable[[], str]
) -> None:
    # Given Open Library is up
    server.route(SEARCH_PATH, body=ol_body(4))

    # When Step Functions invokes the Lambda
    result = lambda_handler(event({"query": "Dune"}), FakeLambdaContext())

    # Then it returns the ToolOutput shape with three results
    assert set(result) == {"toolResult", "ledger", "trace"}
    assert result["toolResult"]["toolUseId"] == "tu-books-1"
    assert result["toolResult"]["status"] == "success"
    assert as_read(result["toolResult"]["content"][0]["json"])["results"] == [
        expected_book(i) for i in range(3)
    ]
    assert result["ledger"] == {"products": []}
    assert result["trace"]["summary"] == "3 books for 'Dune'"
    # And the request went to the configured base URL
    assert [r.path for r in server.requests] == [SEARCH_PATH]
    # And one log line carries the execution id as correlation id
    logs = stderr_logs()
    assert "tool finished" in logs
    assert "exec-2" in logs


@pytest.mark.usefixtures("lambda_env")
def test_handler_turns_invalid_input_into_an_error_result(server: FakeHttpServer) -> None:
    # Given a working Open Library
    server.route(SEARCH_PATH, body=ol_body(3))

    # When the model's call has an unknown argument
    result = lambda_handler(event({"query": "Dune", "page": 2}), FakeLambdaContext())

    # Then the Lambda still answers normally, with an error result
    assert result["toolResult"]["status"] == "error"
    assert result["toolResult"]["content"][0]["json"]["kind"] == "invalid_input"
    assert server.requests == []


def test_settings_defaults() -> None:
    # Given an environment without book settings
    settings = Settings.model_validate({"UNRELATED": "x"})
    # Then the public Open Library and the default timeout apply
    assert settings.openlibrary_base_url == "https://openlibrary.org"
    assert settings.http_timeout_s == 4.0
    assert Settings.model_validate({"TOOL_HTTP_TIMEOUT_S": "2.5"}).http_timeout_s == 2.5
