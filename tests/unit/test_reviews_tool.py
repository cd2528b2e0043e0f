"""The get_computer_reviews tool, against a fake Brave Search on 127.0.0.1."""

from __future__ import annotations

import functools
import json
import logging
import socket
import sys
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

import pytest
from aws_lambda_powertools.utilities import parameters

from get_computer_reviews import brave, keys, logic
from get_computer_reviews.handler import lambda_handler
from get_computer_reviews.settings import Settings, get_settings
from shared.api.contract import Ledger, ToolOutput, ToolUse
from shared.runtime.errors import UpstreamError
from shared.runtime.http import USER_AGENT
from shared.runtime.observability import logger, metrics
from shared.runtime.tool_errors import failed_in_words
from shared.text.sanitize import has_control_characters
from tests.support.fake_http import FakeHttpServer
from tests.support.quoted import as_read

SEARCH_PATH = "/res/v1/web/search"
KEY = "brv-SECRET-key-7f3a9c"


# -- helpers -------------------------------------------------------------------


def brave_body(count: int) -> dict[str, Any]:
    return {
        "type": "search",
        "web": {
            "results": [
                {
                    "title": f"Review {i}",
                    "url": f"https://example.com/review-{i}",
                    "description": f"Verdict number {i}.",
                    "age": "2 days ago",
                    "profile": {"name": "Example"},
                    "meta_url": {"hostname": "example.com"},
                }
                for i in range(count)
            ]
        },
    }


def tool_use(input: dict[str, Any]) -> ToolUse:
    return ToolUse.model_validate(
        {"toolUseId": "tu-reviews-1", "name": "get_computer_reviews", "input": input}
    )


def run_tool(
    server: FakeHttpServer,
    input: dict[str, Any],
    *,
    key: str | None = KEY,
    timeout_s: float = 2.0,
) -> ToolOutput:
    return logic.run(
        tool_use(input),
        key_source=lambda: key,
        search=functools.partial(brave.search_reviews, base_url=server.base_url),
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
    function_name: str = "storechat-get-computer-reviews"
    memory_limit_in_mb: int = 256
    invoked_function_arn: str = (
        "arn:aws:lambda:eu-west-1:123456789012:function:storechat-get-computer-reviews"
    )
    aws_request_id: str = "req-reviews-1"

    def get_remaining_time_in_millis(self) -> int:
        return self.remaining_ms


@pytest.fixture
def server() -> Iterator[FakeHttpServer]:
    with FakeHttpServer() as srv:
        yield srv


class CurrentStderr:
    """Writes to whatever ``sys.stderr`` is at the moment of the write."""

    def write(self, text: str) -> int:
        return sys.stderr.write(text)

    def flush(self) -> None:
        sys.stderr.flush()


@pytest.fixture
def stderr_logs(capsys: pytest.CaptureFixture[str]) -> Iterator[Callable[[], str]]:
    # The Logger bound sys.stderr at import, long before capsys swapped in its
    # own stream (which pytest also replaces between test phases), so route it
    # through the live sys.stderr, and log everything so a leak at any level shows.
    handler = logger.registered_handler
    assert isinstance(handler, logging.StreamHandler)
    previous_stream = handler.setStream(CurrentStderr())
    previous_level = logger.log_level
    logger.setLevel("DEBUG")
    yield lambda: capsys.readouterr().err
    logger.setLevel(previous_level)
    if previous_stream is not None:
        handler.setStream(previous_stream)


@pytest.fixture
def lambda_env(monkeypatch: pytest.MonkeyPatch, server: FakeHttpServer) -> Iterator[None]:
    monkeypatch.setenv("POWERTOOLS_TRACE_DISABLED", "true")
    monkeypatch.setenv("POWERTOOLS_METRICS_NAMESPACE", "Storechat")
    monkeypatch.setenv("POWERTOOLS_METRICS_DISABLED", "true")
    monkeypatch.setenv("BRAVE_BASE_URL", server.base_url)
    monkeypatch.setenv("BRAVE_API_KEY", KEY)
    monkeypatch.delenv("BRAVE_API_KEY_SECRET_ARN", raising=False)
    monkeypatch.delenv("TOOL_HTTP_TIMEOUT_S", raising=False)
    get_settings.cache_clear()
    yield
    get_settings.cache_clear()
    # Disabled metrics are never flushed, so they would pile up across tests.
    metrics.clear_metrics()


def event(input: dict[str, Any]) -> dict[str, Any]:
    return {
        "toolUse": {"toolUseId": "tu-reviews-1", "name": "get_computer_reviews", "input": input},
        "executionId": "arn:aws:states:eu-west-1:123456789012:express:storechat:exec-1",
    }


# -- success -------------------------------------------------------------------


def test_success_keeps_the_top_five_results_with_exact_fields(server: FakeHttpServer) -> None:
    # Given Brave answers with seven results carrying extra fields
    server.route(SEARCH_PATH, body=brave_body(7))

    # When the model asks for reviews (with stray whitespace around the query)
    output = run_tool(server, {"query": "  Dell XPS 13  "})

    # Then the search keeps the first five, trimmed to title/url/description
    expected = [
        {
            "title": f"Review {i}",
            "url": f"https://example.com/review-{i}",
            "description": f"Verdict number {i}.",
        }
        for i in range(5)
    ]
    searched = brave.search_reviews(
        "Dell XPS 13", api_key=KEY, timeout_s=2.0, base_url=server.base_url
    )
    assert searched == expected
    assert output.tool_result["status"] == "success"
    assert output.tool_result["toolUseId"] == "tu-reviews-1"
    # And the model reads each one's title, site and verdict, not the whole link
    told = [
        {"title": f"Review {i}", "site": "example.com", "description": f"Verdict number {i}."}
        for i in range(5)
    ]
    assert for_model(output) == {"query": "Dell XPS 13", "results": told}
    # And the ledger keeps no review: the response shows products, a review reaches the
    # shopper in the model's words
    assert output.ledger == Ledger()
    # And the trace line says what happened
    assert output.trace.tool == "get_computer_reviews"
    assert output.trace.status == "success"
    assert output.trace.summary == "5 reviews for 'Dell XPS 13'"
    assert output.trace.input == {"query": "  Dell XPS 13  "}
    assert 0 <= output.trace.ms < 2000


def test_fewer_results_and_none_are_still_success(server: FakeHttpServer) -> None:
    # Given Brave finds a single result
    server.route(SEARCH_PATH, body=brave_body(1))
    # When / Then the summary uses the singular
    assert run_tool(server, {"query": "ThinkPad X1"}).trace.summary == "1 review for 'ThinkPad X1'"

    # Given Brave finds nothing
    server.route(SEARCH_PATH, body=brave_body(0))
    # When the model asks
    output = run_tool(server, {"query": "ThinkPad X1"})
    # Then that is a successful, empty answer
    assert output.tool_result["status"] == "success"
    assert for_model(output) == {"query": "ThinkPad X1", "results": []}
    assert output.trace.summary == "no reviews found for 'ThinkPad X1'"


def test_request_carries_query_count_key_and_identifying_user_agent(
    server: FakeHttpServer,
) -> None:
    # Given a working Brave
    server.route(SEARCH_PATH, body=brave_body(5))

    # When the tool searches for a query with characters that need encoding
    run_tool(server, {"query": "Dell XPS 13 & 15"})

    # Then exactly one GET went to the web search path with the expected params
    [request] = server.requests
    assert request.method == "GET"
    assert request.path == SEARCH_PATH
    assert request.query == {"q": ["Dell XPS 13 & 15 review"], "count": ["5"]}
    # And the headers identify storechat and carry the subscription key
    assert request.header("X-Subscription-Token") == KEY
    assert request.header("User-Agent") == USER_AGENT
    assert "storechat" in (request.header("User-Agent") or "")
    assert request.header("Accept") == "application/json"
    assert request.header("Accept-Encoding") == "gzip"


def test_gzip_encoded_answer_is_decoded(server: FakeHttpServer) -> None:
    # Given Brave compresses its answer, as it does when asked for gzip
    server.route(SEARCH_PATH, body=brave_body(2), gzip=True)

    # When the tool searches
    output = run_tool(server, {"query": "MacBook Air"})

    # Then the results are read normally
    assert output.tool_result["status"] == "success"
    assert [r["title"] for r in for_model(output)["results"]] == ["Review 0", "Review 1"]


# -- invalid input -------------------------------------------------------------


@pytest.mark.parametrize(
    ("input", "problem"),
    [
        ({}, "query: Field required"),
        ({"query": "x"}, "query: String should have at least 2 characters"),
        ({"query": "   x   "}, "query: String should have at least 2 characters"),
        ({"query": "y" * 201}, "query: String should have at most 200 characters"),
        ({"query": 42}, "query: Input should be a valid string"),
        ({"query": "Dell XPS", "limit": 3}, "limit: Extra inputs are not permitted"),
    ],
    ids=["missing", "too-short", "short-after-strip", "too-long", "not-a-string", "extra-field"],
)
def test_invalid_input_is_an_error_result_naming_the_problem(
    server: FakeHttpServer, input: dict[str, Any], problem: str
) -> None:
    # Given a working Brave
    server.route(SEARCH_PATH, body=brave_body(5))

    # When the model calls the tool with bad arguments
    output = run_tool(server, input)

    # Then it gets an error result that names the problem
    assert output.tool_result["status"] == "error"
    result = for_model(output)
    assert result["kind"] == "invalid_input"
    assert result["error"] == f"Invalid input for get_computer_reviews: {problem}"
    assert output.trace.status == "error"
    assert problem in output.trace.summary
    # And Brave was never asked
    assert server.requests == []


# -- configuration ---------------------------------------------------------------


@pytest.mark.parametrize("key", [None, ""])
def test_missing_key_is_not_configured_and_makes_no_request(
    server: FakeHttpServer, key: str | None
) -> None:
    # Given no Brave key is configured
    server.route(SEARCH_PATH, body=brave_body(5))

    # When the model asks for reviews
    output = run_tool(server, {"query": "Dell XPS 13"}, key=key)

    # Then it is told to answer from the catalog only
    assert output.tool_result["status"] == "error"
    assert for_model(output) == {
        "error": "Review search is not configured for this store; answer from the catalog only.",
        "kind": "not_configured",
    }
    assert output.trace.summary == "review search is not configured"
    # And no HTTP request was made
    assert server.requests == []


def test_key_source_prefers_the_secret_and_caches_it_for_five_minutes(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Given both a secret ARN and a local key are configured
    calls: list[tuple[str, int]] = []

    def fake_get_secret(name: str, *, max_age: int) -> str:
        calls.append((name, max_age))
        return f"  {KEY}\n"

    monkeypatch.setattr(parameters, "get_secret", fake_get_secret)
    arn = "arn:aws:secretsmanager:eu-west-1:123456789012:secret:brave-AbCdEf"
    settings = Settings.model_validate(
        {"BRAVE_API_KEY_SECRET_ARN": arn, "BRAVE_API_KEY": "local-only"}
    )

    # When the key is read
    key = keys.get_brave_key(settings)

    # Then it comes from Secrets Manager via Powertools, with a 300s cache
    assert key == KEY
    assert calls == [(arn, 300)]


def test_key_source_falls_back_to_the_environment_then_to_none() -> None:
    # Given / When / Then a local key is used when there is no ARN
    assert keys.get_brave_key(Settings.model_validate({"BRAVE_API_KEY": KEY})) == KEY
    # And blank values count as not configured
    blank = Settings.model_validate({"BRAVE_API_KEY": "", "BRAVE_API_KEY_SECRET_ARN": " "})
    assert keys.get_brave_key(blank) is None
    assert keys.get_brave_key(Settings.model_validate({})) is None


def test_settings_defaults_and_secret_masking() -> None:
    # Given an environment with only the key
    settings = Settings.model_validate({"BRAVE_API_KEY": KEY, "UNRELATED": "x"})
    # Then the defaults apply and the key does not show in the repr
    assert settings.brave_base_url == "https://api.search.brave.com"
    assert settings.http_timeout_s == 4.0
    assert settings.brave_api_key_secret_arn is None
    assert KEY not in repr(settings)


def test_unreadable_secret_is_an_error_result_without_details(
    monkeypatch: pytest.MonkeyPatch, server: FakeHttpServer
) -> None:
    # Given Secrets Manager refuses to hand over the key
    def failing_get_secret(name: str, *, max_age: int) -> str:
        raise parameters.GetParameterError(f"AccessDenied reading {name}")

    monkeypatch.setattr(parameters, "get_secret", failing_get_secret)
    settings = Settings.model_validate({"BRAVE_API_KEY_SECRET_ARN": "arn:aws:secret:brave"})

    # When the model asks for reviews
    output = logic.run(
        tool_use({"query": "Dell XPS 13"}),
        key_source=functools.partial(keys.get_brave_key, settings),
        search=functools.partial(brave.search_reviews, base_url=server.base_url),
        timeout_s=1.0,
    )

    # Then it gets an error result, not an exception, and Brave is not called
    assert output.tool_result["status"] == "error"
    assert for_model(output)["kind"] == "secret_unavailable"
    assert "unavailable right now" in for_model(output)["error"]
    assert server.requests == []


# -- upstream failures -------------------------------------------------------------


@pytest.mark.parametrize(
    ("status", "kind", "sentence"),
    [
        (
            429,
            "rate_limited",
            "The review service is rate limiting requests (HTTP 429); "
            "reviews are unavailable right now.",
        ),
        (500, "unavailable", "The review service is failing (HTTP 500); "),
        (503, "unavailable", "The review service is failing (HTTP 503); "),
        (401, "http_error", "The review service refused the request (HTTP 401); "),
    ],
)
def test_http_errors_become_error_results(
    server: FakeHttpServer, status: int, kind: str, sentence: str
) -> None:
    # Given Brave answers with an HTTP error
    server.route(SEARCH_PATH, status=status, body={"error": "nope"})

    # When the model asks for reviews
    output = run_tool(server, {"query": "Dell XPS 13"})

    # Then it gets an error result of the right kind with a sentence it can relay
    assert output.tool_result["status"] == "error"
    result = for_model(output)
    assert result["kind"] == kind
    assert result["error"].startswith(sentence)
    assert result["error"].endswith("reviews are unavailable right now.")
    assert output.trace.status == "error"
    # "How I found this" says it in words ("was too busy to answer"), not the error's code
    assert failed_in_words(kind) in output.trace.summary and kind not in output.trace.summary
    assert output.ledger == Ledger()


@pytest.mark.parametrize(
    "body",
    [
        b"<html><body>Bad gateway</body></html>",
        b"\xff\xfe\x00garbage",
        {"web": {}},
        {"web": {"results": "none"}},
        {"results": []},
        [1, 2, 3],
    ],
    ids=["html", "binary", "no-results", "results-not-list", "no-web", "top-level-list"],
)
def test_unreadable_body_is_malformed(server: FakeHttpServer, body: Any) -> None:
    # Given Brave answers 200 with a body that is not a search result
    server.route(SEARCH_PATH, body=body)

    # When the model asks for reviews
    output = run_tool(server, {"query": "Dell XPS 13"})

    # Then it gets a malformed error result
    assert output.tool_result["status"] == "error"
    assert for_model(output)["kind"] == "malformed"
    assert "could not be read" in for_model(output)["error"]


def test_slow_server_times_out_within_the_budget(server: FakeHttpServer) -> None:
    # Given Brave takes far longer than the tool may wait
    server.route(SEARCH_PATH, body=brave_body(5), delay_s=10)
    timeout_s = 0.5

    # When the model asks for reviews
    started = time.perf_counter()
    output = run_tool(server, {"query": "Dell XPS 13"}, timeout_s=timeout_s)
    elapsed = time.perf_counter() - started

    # Then a timeout error comes back, long before the server would have answered
    assert elapsed < 5  # gave up long before the 10 s server (a bound, not a speed claim)
    assert for_model(output)["kind"] == "timeout"
    assert "did not answer in time" in for_model(output)["error"]
    assert output.trace.ms >= int(timeout_s * 1000) - 50


def test_unreachable_server_is_an_error_result() -> None:
    # Given nothing listens on the configured port
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]

    # When the model asks for reviews
    output = logic.run(
        tool_use({"query": "Dell XPS 13"}),
        key_source=lambda: KEY,
        search=functools.partial(brave.search_reviews, base_url=f"http://127.0.0.1:{port}"),
        timeout_s=1.0,
    )

    # Then it gets an unreachable error result
    assert for_model(output)["kind"] == "unreachable"
    assert for_model(output)["error"] == (
        "The review service could not be reached; reviews are unavailable right now."
    )


# -- hostile content ---------------------------------------------------------------


def test_control_characters_are_stripped_and_long_text_capped(server: FakeHttpServer) -> None:
    # Given a result stuffed with terminal escapes, bidi overrides and filler
    server.route(
        SEARCH_PATH,
        body={
            "web": {
                "results": [
                    {
                        "title": "\x1b[31mBest\x1b[0m laptop\u202e " + "T" * 1000,
                        "url": "https://example.com/" + "u" * 1000,
                        "description": "Great\x00 battery\u200b\x07 " + "filler " * 5000,
                    },
                    {"title": None, "url": 7, "description": ["not", "text"]},
                    "not-an-object",
                ]
            }
        },
    )

    # When the model asks for reviews
    output = run_tool(server, {"query": "Dell XPS 13"})

    # Then no control characters survive and every field respects its cap
    first, odd = for_model(output)["results"]
    for field_name, cap in (("title", 160), ("site", 300), ("description", 240)):
        assert not has_control_characters(first[field_name])
        assert len(first[field_name]) <= cap
    (kept, _) = brave.search_reviews(
        "Dell XPS 13", api_key=KEY, timeout_s=2.0, base_url=server.base_url
    )
    assert len(kept["url"]) <= 300 and len(kept["description"]) <= 400
    assert first["title"].startswith("[31mBest[0m laptop ")
    assert first["description"].startswith("Great battery filler")
    assert first["description"].endswith("…")
    # And fields of the wrong type are blanked rather than failing the answer
    assert odd == {"title": "", "site": "", "description": ""}


# -- secrecy ---------------------------------------------------------------------


@pytest.mark.parametrize("status", [200, 429, 500])
def test_key_never_appears_in_the_tool_output(server: FakeHttpServer, status: int) -> None:
    # Given Brave answers, successfully or not
    server.route(SEARCH_PATH, status=status, body=brave_body(5))

    # When the model asks for reviews
    output = run_tool(server, {"query": "Dell XPS 13"})

    # Then the key was sent to Brave but appears nowhere in what the tool returns
    assert server.requests[0].header("X-Subscription-Token") == KEY
    assert KEY not in json.dumps(output.dump())


# -- Lambda handler ------------------------------------------------------------------


@pytest.mark.usefixtures("lambda_env")
def test_handler_answers_with_a_tool_output_and_keeps_the_key_out_of_logs(
    server: FakeHttpServer,
    stderr_logs: Callable[[], str],
    caplog: pytest.LogCaptureFixture,
) -> None:
    # Given Brave is up and the key comes from the environment
    server.route(SEARCH_PATH, body=brave_body(6))

    # When Step Functions invokes the Lambda
    result = lambda_handler(event({"query": "Dell XPS 13"}), FakeLambdaContext())

    # Then it returns the ToolOutput shape with five results
    assert set(result) == {"toolResult", "ledger", "trace"}
    assert result["toolResult"]["toolUseId"] == "tu-reviews-1"
    assert result["toolResult"]["status"] == "success"
    assert len(result["toolResult"]["content"][0]["json"]["results"]) == 5
    assert result["ledger"] == {"products": []}
    assert result["trace"]["summary"] == "5 reviews for 'Dell XPS 13'"
    # And the key from the environment was sent to Brave
    assert server.requests[0].header("X-Subscription-Token") == KEY
    # And the log line carries the execution id but never the key
    logs = stderr_logs()
    assert "tool finished" in logs
    assert "exec-1" in logs
    assert KEY not in logs
    assert "tool finished" in caplog.text
    assert KEY not in caplog.text
    assert KEY not in json.dumps(result)


@pytest.mark.usefixtures("lambda_env")
def test_handler_bounds_the_http_timeout_by_the_time_the_lambda_has_left(
    server: FakeHttpServer,
) -> None:
    # Given Brave hangs and the Lambda has only 1.2s left (so 0.7s after the margin)
    server.route(SEARCH_PATH, body=brave_body(5), delay_s=10)

    # When Step Functions invokes the Lambda
    started = time.perf_counter()
    result = lambda_handler(event({"query": "Dell XPS 13"}), FakeLambdaContext(remaining_ms=1200))
    elapsed = time.perf_counter() - started

    # Then the tool gives up in time and says so
    assert result["toolResult"]["status"] == "error"
    assert result["toolResult"]["content"][0]["json"]["kind"] == "timeout"
    assert elapsed < 5  # gave up long before the 10 s server (a bound, not a speed claim)


@pytest.mark.usefixtures("lambda_env")
def test_handler_without_a_key_is_not_configured(
    monkeypatch: pytest.MonkeyPatch, server: FakeHttpServer
) -> None:
    # Given the stack has no Brave key at all
    monkeypatch.delenv("BRAVE_API_KEY")
    get_settings.cache_clear()
    server.route(SEARCH_PATH, body=brave_body(5))

    # When Step Functions invokes the Lambda
    result = lambda_handler(event({"query": "Dell XPS 13"}), FakeLambdaContext())

    # Then the model is told to use the catalog, and Brave is not called
    assert result["toolResult"]["content"][0]["json"]["kind"] == "not_configured"
    assert server.requests == []


def test_upstream_error_never_quotes_the_key(server: FakeHttpServer) -> None:
    # Given Brave rejects the request
    server.route(SEARCH_PATH, status=403, body={"error": "bad token"})

    # When the adapter is called directly
    with pytest.raises(UpstreamError) as caught:
        brave.search_reviews("Dell", api_key=KEY, base_url=server.base_url, timeout_s=1.0)

    # Then the exception is explicit about the failure but silent about the key
    assert caught.value.kind == "http_error"
    assert KEY not in str(caught.value)
