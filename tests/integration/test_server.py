"""The dev server over HTTP: the page, the contract of POST /query, and the status mapping."""

from __future__ import annotations

import http.client
import io
import json
import socket
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import boto3
import pytest

from converse.handler import use_provider
from converse.providers import Provider
from converse.scripted import ScriptedModel
from shared.api.query import MAX_BODY_BYTES, openapi
from shared.api.vocabulary import (
    CONVERSATION_FAILED,
    METHOD_NOT_ALLOWED,
    NOT_FOUND,
    REQUEST_REJECTED,
    TIMEOUT,
    page_names,
)
from shared.products.catalog_data import load_catalog
from storechat import server as dev_server
from storechat.local import LocalStorechat
from storechat.local.runner import REGION
from storechat.server import make_server, running
from tests.integration.converse_fixtures import asks_for_tools, lookup, replies
from tests.support.store import SAMPLE

DEMO_QUESTION = "What Windows PC do you have which is best for a high school student?"
CATALOG = {p["productId"]: p for p in load_catalog()}


@dataclass
class Response:
    status: int
    headers: http.client.HTTPMessage
    raw: bytes

    def json(self) -> Any:
        assert self.headers.get_content_type() == "application/json", self.headers
        return json.loads(self.raw)


@dataclass
class Served:
    local: LocalStorechat
    host: str
    port: int

    def request(
        self,
        method: str,
        path: str,
        body: bytes | str | None = None,
        headers: dict[str, str] | None = None,
    ) -> Response:
        connection = http.client.HTTPConnection(self.host, self.port, timeout=60)
        try:
            connection.request(method, path, body=body, headers=headers or {})
            response = connection.getresponse()
            return Response(response.status, response.headers, response.read())
        finally:
            connection.close()

    def query(self, body: Any, content_type: str = "application/json") -> Response:
        raw = body if isinstance(body, bytes | str) else json.dumps(body)
        return self.request("POST", "/query", raw, {"Content-Type": content_type})


@pytest.fixture(scope="module")
def served() -> Iterator[Served]:
    """The offline model behind the dev server on 127.0.0.1, port 0, for this module's tests."""
    with LocalStorechat() as local, running(make_server(local, "127.0.0.1", 0)) as server:
        host, port = server.server_address[:2]
        yield Served(local, str(host), int(port))


@pytest.fixture
def use_model() -> Iterator[Callable[[Provider], None]]:
    """Swap the Converse Lambda's model for one test (the real handler, another provider).

    One local system serves the whole module: moto is process-wide, so a second
    LocalStorechat could not run beside it.
    """
    yield use_provider
    use_provider(None)  # the next call builds the configured (offline) model again


def wait_until_idle(local: LocalStorechat, timeout_s: float = 10) -> None:
    sfn = boto3.client("stepfunctions", region_name=REGION)
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        # Every generation of the state machine (storechat.local.generations)
        machines = [m["stateMachineArn"] for m in sfn.list_state_machines()["stateMachines"]]
        in_flight = [
            e
            for arn in machines
            for e in sfn.list_executions(stateMachineArn=arn, statusFilter="RUNNING")["executions"]
        ]
        if not in_flight:
            return
        time.sleep(0.05)


# -- POST /query ------------------------------------------------------------------------


def test_a_question_gets_200_with_an_answer_and_real_catalog_products(served: Served) -> None:
    # When the shopper's question is posted
    response = served.query({"message": DEMO_QUESTION})

    # Then the body is the assistant's answer, citing real catalog records
    assert response.status == 200
    assert response.headers["Cache-Control"] == "no-store"
    body = response.json()
    assert body["outcome"] == "answered"
    assert body["products"]
    for product in body["products"]:
        assert product == CATALOG[product["productId"]]
        assert f"[{product['productId']}]" in body["answer"]
    assert [line["tool"] for line in body["trace"]] == ["lookup_inventory"]
    assert body["historySaved"] is True


def test_a_follow_up_with_the_session_id_continues_the_conversation(served: Served) -> None:
    # Given a first answer about Windows computers
    first = served.query({"message": DEMO_QUESTION}).json()

    # When a follow-up that names no category is sent with its session id
    # (as text/plain, the content type of a fetch that skips the CORS preflight)
    response = served.query(
        {"message": "Which of those is the lightest?", "sessionId": first["sessionId"]},
        content_type="text/plain",
    )

    # Then it continues the same session, still about computers
    assert response.status == 200
    body = response.json()
    assert body["sessionId"] == first["sessionId"]
    assert body["products"]
    assert {p["category"] for p in body["products"]} == {"COMPUTERS"}


BAD_BODIES = {
    "empty message": ({"message": ""}, "message: must not be empty"),
    "whitespace": ({"message": " \n\t "}, "message must not be empty or only whitespace"),
    "2001 characters": ({"message": "x" * 2001}, "message: at most 2000 characters"),
    "not JSON": (b"message=hello", "request body is not valid JSON"),
    "empty body": (b"", "request body is not valid JSON"),
    "not an object": (b'["hello"]', "request body must be a JSON object"),
    "no message": ({}, "message: required"),
    "message is a number": ({"message": 42}, "message: Input should be a valid string"),
    "sessionId is a number": (
        {"message": "hi", "sessionId": 7},
        "sessionId: Input should be a valid string",
    ),
    "extra field": ({"message": "hi", "admin": True}, "admin: unknown field"),
    "control characters": (
        {"message": "hi\u0007there"},
        "message must not contain control characters",
    ),
    "bad sessionId": (
        {"message": "hi", "sessionId": "../../etc"},
        "sessionId: not a valid session id",
    ),
    "huge body": (
        {"message": "x" * MAX_BODY_BYTES},
        f"request body is larger than {MAX_BODY_BYTES} bytes",
    ),
}


@pytest.mark.parametrize(("body", "reason"), BAD_BODIES.values(), ids=BAD_BODIES.keys())
def test_a_body_that_breaks_the_contract_gets_400_with_a_readable_message(
    served: Served, body: Any, reason: str
) -> None:
    # When the body breaks the contract
    response = served.query(body)

    # Then the answer is 400 with the reason, in the one error shape
    assert response.status == 400
    body = response.json()
    assert body["error"] == "invalid_request"
    assert reason in body["message"]


def test_an_oversized_body_is_refused_before_it_is_read(served: Served) -> None:
    # Given a request that announces a body larger than the limit and sends none of it
    with socket.create_connection((served.host, served.port), timeout=10) as sock:
        sock.sendall(
            b"POST /query HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n"
            + f"Content-Length: {100 * MAX_BODY_BYTES}\r\n\r\n".encode()
        )
        # When the server answers (a server that waited for the body would time out here)
        reply = sock.makefile("rb").read()

    # Then it is a 400 that closes the connection
    head, _, body = reply.partition(b"\r\n\r\n")
    assert head.startswith(b"HTTP/1.1 400 ")
    assert b"Connection: close" in head
    assert json.loads(body)["message"] == f"request body is larger than {MAX_BODY_BYTES} bytes"


def test_a_failed_execution_gets_502(
    served: Served, use_model: Callable[[Provider], None], tmp_path: Path
) -> None:
    # Given a replay model that runs out of responses after asking for one tool
    replay = tmp_path / "replay.json"
    replay.write_text(json.dumps([asks_for_tools(lookup())]), encoding="utf-8")
    use_model(ScriptedModel.from_file(replay))

    # When a question is posted
    response = served.query({"message": "A laptop, please"})

    # Then the execution failed (ReplayExhausted) and the server says so as the deployed
    # API does, without internals
    assert response.status == 502
    assert response.json() == CONVERSATION_FAILED.body()


class HeldModel:
    """Answers "Hello!" once released: a model call slower than the API waits."""

    label = "held"

    def __init__(self) -> None:
        self.release = threading.Event()

    def converse(
        self, request: dict[str, Any], *, timeout_s: float | None = None
    ) -> dict[str, Any]:
        self.release.wait(timeout=10)
        return replies("Hello!")


def test_an_execution_that_outlives_the_api_timeout_gets_504(
    served: Served, use_model: Callable[[Provider], None], monkeypatch: pytest.MonkeyPatch
) -> None:
    # Given a model call that takes longer than the API waits
    monkeypatch.setattr(dev_server, "ASK_TIMEOUT_S", 0.3)
    model = HeldModel()
    use_model(model)

    # When a question is posted
    response = served.query({"message": "Hello"})

    # Then the API answers 504 in the one error shape, with the deployed API's code
    assert response.status == 504
    assert response.json() == TIMEOUT.body()

    # (and the execution is let finish before the model is swapped back)
    model.release.set()
    wait_until_idle(served.local)


# -- the page and the other routes ---------------------------------------------------------


@pytest.mark.parametrize(
    ("path", "content_type", "snippet"),
    [
        ("/", "text/html", b'<script type="module" src="./page.js">'),
        ("/index.html", "text/html", b'<div class="page" id="app">'),
        ("/chat.js", "text/javascript", b"textContent"),
        ("/widget.js", "text/javascript", b"document.currentScript"),
        ("/chat.css", "text/css", b":focus-visible"),
        ("/widget.css", "text/css", b":host"),
    ],
)
def test_the_page_is_served_from_web(
    served: Served, path: str, content_type: str, snippet: bytes
) -> None:
    response = served.request("GET", path)

    assert response.status == 200
    assert response.headers.get_content_type() == content_type
    assert response.headers["Cache-Control"] == "no-store"
    assert snippet in response.raw


def test_every_module_of_the_page_is_served_as_javascript(served: Served) -> None:
    # Given the page's script modules (a browser refuses a module of another type)
    modules = sorted(path.name for path in dev_server.WEB_DIR.glob("*.js"))
    assert {"page.js", "widget.js", "launcher.js"} <= set(modules)
    for name in modules:
        # When the browser imports one, Then it gets the file as JavaScript
        response = served.request("GET", f"/{name}")
        assert response.status == 200, name
        assert response.headers.get_content_type() == "text/javascript", name
        assert response.raw == (dev_server.WEB_DIR / name).read_bytes(), name


def test_config_points_the_page_at_its_own_origin(served: Served) -> None:
    response = served.request("GET", "/config.json")

    assert response.status == 200
    assert response.json()["apiUrl"] == ""
    assert response.json()["currency"] == "USD"  # STORE_CURRENCY unset


def test_the_page_gets_the_names_and_their_words_from_the_contract(served: Served) -> None:
    response = served.request("GET", "/names.json")

    assert response.status == 200
    assert response.json() == page_names()


def test_the_openapi_document_is_the_shared_contract(served: Served) -> None:
    response = served.request("GET", "/openapi.json")

    assert response.status == 200
    assert response.json() == openapi()


@pytest.mark.parametrize(
    "path",
    [
        "/../pyproject.toml",
        "/%2e%2e/pyproject.toml",
        "/..%2fpyproject.toml",
        "/%2e%2e%2f%2e%2e%2fetc%2fpasswd",
        "/web/../../pyproject.toml",
        "/..\\pyproject.toml",
        "//etc/passwd",
        "/%00index.html",
        "/.git/config",
    ],
)
def test_a_path_outside_the_page_is_refused(served: Served, path: str) -> None:
    response = served.request("GET", path)

    assert response.status == 404
    assert response.json()["error"] == "not_found"
    assert b"[project]" not in response.raw and b"root:" not in response.raw


def test_an_unknown_path_gets_a_json_404(served: Served) -> None:
    response = served.request("GET", "/nope")

    assert response.status == 404
    assert response.json() == {"error": "not_found", "message": "no such path: /nope"}


@pytest.mark.parametrize(
    ("method", "path", "allow"),
    [
        ("GET", "/query", "POST, OPTIONS"),
        ("PUT", "/query", "POST, OPTIONS"),
        ("POST", "/", "GET, HEAD"),
        ("DELETE", "/config.json", "GET, HEAD"),
        ("POST", "/chat.js", "GET, HEAD"),
        ("PATCH", "/names.json", "GET, HEAD"),
        ("OPTIONS", "/chat.js", "GET, HEAD"),
        ("BREW", "/query", "POST, OPTIONS"),
        ("get", "/", "GET, HEAD"),
    ],
)
def test_a_wrong_method_gets_a_json_405(served: Served, method: str, path: str, allow: str) -> None:
    response = served.request(method, path, body=b"{}" if method != "GET" else None)

    assert response.status == 405
    assert response.headers["Allow"] == allow
    assert response.json() == METHOD_NOT_ALLOWED.body(f"{method} is not allowed on {path}")


def test_the_server_listens_only_on_the_host_it_was_given(served: Served) -> None:
    # Given a server bound to 127.0.0.1: another address of this machine must not reach it
    with pytest.raises(OSError):
        socket.create_connection(("127.0.0.2", served.port), timeout=2).close()

    assert served.request("GET", "/config.json").status == 200


# -- requests http.server refuses itself --------------------------------------------------


class NoAssistant:
    """Enough of the local system for requests that never reach it."""

    model = "offline"
    store = SAMPLE  # whose pages the server answers

    def ask(self, *args: Any, **kwargs: Any) -> Any:
        raise AssertionError("a refused request must not reach the assistant")


@dataclass
class Reply:
    status_line: str
    headers: dict[str, str]
    body: bytes

    def json(self) -> Any:
        assert self.headers["content-type"] == "application/json; charset=utf-8", self.headers
        return json.loads(self.body)


def exchange(address: tuple[str, int], raw: bytes) -> list[Reply]:
    """Send ``raw`` as is, and read every reply until the server closes the connection."""
    with socket.create_connection(address, timeout=10) as sock:
        sock.sendall(raw)
        sock.shutdown(socket.SHUT_WR)
        received = sock.makefile("rb").read()
    replies = []
    while received:
        head, separator, rest = received.partition(b"\r\n\r\n")
        assert separator, f"a reply without a header block: {received[:200]!r}"
        status_line, *lines = head.decode("latin-1").split("\r\n")
        headers = {
            name.strip().lower(): value.strip()
            for name, value in (line.split(":", 1) for line in lines)
        }
        length = int(headers["content-length"])
        replies.append(Reply(status_line, headers, rest[:length]))
        received = rest[length:]
    return replies


@pytest.fixture(scope="module")
def bare() -> Iterator[tuple[tuple[str, int], io.StringIO]]:
    """The dev server without a state machine, and its access log."""
    log = io.StringIO()
    with running(make_server(NoAssistant(), "127.0.0.1", 0, access_log=log)) as server:
        host, port = server.server_address[:2]
        yield (str(host), int(port)), log


REFUSED_REQUESTS = {
    "no method or target": (b"GARBAGE\r\n\r\n", 400, "Bad request syntax ('GARBAGE')"),
    "HTTP/2.0": (b"GET / HTTP/2.0\r\n\r\n", 505, "Invalid HTTP version (2.0)"),
    "HEAD in HTTP/2.0": (b"HEAD / HTTP/2.0\r\n\r\n", 505, "Invalid HTTP version (2.0)"),
    "HTTP/0.9": (b"GET /\r\n\r\n", 505, "HTTP/0.9 is not supported"),
    "HTTP/0.9 POST": (b"POST /query\r\n\r\n", 400, "Bad HTTP/0.9 request type ('POST')"),
    "a version that is not one": (
        b"GET / HTTP/1.x\r\n\r\n",
        400,
        "Bad request version ('HTTP/1.x')",
    ),
    "four words": (b"GET / HTTP/1.1 more\r\n\r\n", 400, "Bad request version ('more')"),
    "a target that is no URL": (
        b"GET http://[::1 HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n",
        400,
        "the request target is not a URL",
    ),
    "too many headers": (
        b"GET / HTTP/1.1\r\n" + b"X-Many: yes\r\n" * 120 + b"\r\n",
        431,
        "Too many headers",
    ),
}


@pytest.mark.parametrize(
    ("raw", "status", "message"), REFUSED_REQUESTS.values(), ids=REFUSED_REQUESTS.keys()
)
def test_a_request_the_server_cannot_parse_gets_a_json_refusal(
    bare: tuple[tuple[str, int], io.StringIO], raw: bytes, status: int, message: str
) -> None:
    # When a request line or header block http.server cannot take arrives
    address, _ = bare
    replies = exchange(address, raw)

    # Then it is answered once, in HTTP/1.1, as JSON in the one error shape, and closed
    assert len(replies) == 1
    reply = replies[0]
    assert reply.status_line.startswith(f"HTTP/1.1 {status} ")
    assert reply.headers["connection"] == "close"
    body = reply.json()
    assert body["error"] == REQUEST_REJECTED.code
    assert body["message"].startswith(message)


def test_an_unknown_method_gets_a_json_405_and_the_connection_goes_on(
    bare: tuple[tuple[str, int], io.StringIO],
) -> None:
    # Given a method HTTP does not know, then another request on the same connection
    address, _ = bare
    replies = exchange(
        address,
        b"BREW /query HTTP/1.1\r\nHost: localhost\r\n\r\n"
        b"GET /names.json HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n",
    )

    # Then the first gets a JSON 405 saying what /query takes, and the second is served
    assert [reply.status_line for reply in replies] == [
        "HTTP/1.1 405 Method Not Allowed",
        "HTTP/1.1 200 OK",
    ]
    assert replies[0].headers["allow"] == "POST, OPTIONS"
    assert replies[0].json() == METHOD_NOT_ALLOWED.body("BREW is not allowed on /query")
    assert replies[1].json() == page_names()


def test_a_file_name_longer_than_the_file_system_allows_is_a_json_404(
    bare: tuple[tuple[str, int], io.StringIO],
) -> None:
    address, _ = bare
    name = "a" * 300
    (reply,) = exchange(
        address, f"GET /{name} HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n".encode()
    )

    assert reply.status_line == "HTTP/1.1 404 Not Found"
    assert reply.json() == NOT_FOUND.body(f"no such path: /{name}")


def test_refused_requests_are_logged_with_what_came_escaped(
    bare: tuple[tuple[str, int], io.StringIO],
) -> None:
    # Given a request line with a terminal escape in it
    address, log = bare
    exchange(address, b"\x1b[31mRED\r\n\r\n")

    # Then the access log shows it escaped, with its status
    assert "- '\\x1b[31mRED' 400 " in log.getvalue()
