"""Whom the dev server answers: the store's pages and its own, and nobody else's
(issue 29: a page on another site made it run questions; issue 30: the widget's pages)."""

from __future__ import annotations

import http.client
import json
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import boto3
import pytest

from shared.api.vocabulary import ORIGIN_NOT_ALLOWED, REQUEST_REJECTED
from storechat.local import LocalStorechat
from storechat.local.runner import REGION
from storechat.server import make_server, running
from tests.support.store import store_file

STORE_PAGE = "http://127.0.0.1:47999"
QUESTION = {"message": "A light Windows laptop under $900"}


@dataclass
class Reply:
    status: int
    headers: http.client.HTTPMessage
    body: bytes

    def json(self) -> Any:
        return json.loads(self.body)


@dataclass
class Server:
    local: LocalStorechat
    port: int

    def send(
        self, method: str, path: str, headers: dict[str, str], body: str | None = None
    ) -> Reply:
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=60)
        try:
            # http.client writes its own Host unless one is given
            connection.putrequest(method, path, skip_host="Host" in headers)
            for name, value in {**headers, "Content-Length": str(len(body or ""))}.items():
                connection.putheader(name, value)
            connection.endheaders(body.encode() if body else None)
            response = connection.getresponse()
            return Reply(response.status, response.headers, response.read())
        finally:
            connection.close()

    def questions_run(self) -> int:
        sfn = boto3.client("stepfunctions", region_name=REGION)
        arn = self.local.state_machine_arn
        return len(sfn.list_executions(stateMachineArn=arn)["executions"])


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    # Given a store whose pages are on another port of this machine
    store = store_file(tmp_path_factory.mktemp("store"), allowedOrigins=[STORE_PAGE])
    with LocalStorechat(store=store) as local, running(make_server(local, "127.0.0.1", 0)) as s:
        yield Server(local, int(s.server_address[1]))


def test_a_text_plain_post_from_another_site_runs_no_question(server: Server) -> None:
    # Given a page on another site that posts a question without a preflight
    before = server.questions_run()
    reply = server.send(
        "POST",
        "/query",
        {"Origin": "https://evil.example", "Content-Type": "text/plain"},
        json.dumps(QUESTION),
    )

    # Then it is refused, readable by nobody (no CORS header), and nothing ran
    assert reply.status == 403
    assert reply.json()["error"] == ORIGIN_NOT_ALLOWED.code
    assert "https://evil.example" in reply.json()["message"]
    assert "Access-Control-Allow-Origin" not in reply.headers
    assert server.questions_run() == before


def test_a_browsers_cross_site_request_without_an_origin_is_refused_too(server: Server) -> None:
    before = server.questions_run()
    reply = server.send("POST", "/query", {"Sec-Fetch-Site": "cross-site"}, json.dumps(QUESTION))
    assert reply.status == 403 and reply.json()["error"] == ORIGIN_NOT_ALLOWED.code
    assert server.questions_run() == before


@pytest.mark.parametrize("host", ["evil.example", "evil.example:{port}", "127.0.0.1:1"])
def test_a_request_for_another_host_gets_nothing(server: Server, host: str) -> None:
    # Given a site whose name resolves to this machine (DNS rebinding) posting a question
    before = server.questions_run()
    for path in ("/query", "/config.json", "/"):
        reply = server.send(
            "POST" if path == "/query" else "GET",
            path,
            {"Host": host.format(port=server.port), "Content-Type": "application/json"},
            json.dumps(QUESTION) if path == "/query" else None,
        )
        # Then neither the API nor a file is served, and nothing ran
        assert reply.status == 421, path
        assert reply.json()["error"] == REQUEST_REJECTED.code
    assert server.questions_run() == before


def test_the_stores_page_gets_its_preflight_and_its_answer(server: Server) -> None:
    # When the widget on the store's page asks first whether it may post JSON
    preflight = server.send(
        "OPTIONS",
        "/query",
        {
            "Origin": STORE_PAGE,
            "Access-Control-Request-Method": "POST",
            "Access-Control-Request-Headers": "content-type",
        },
    )

    # Then it may, and only it
    assert preflight.status == 204
    assert preflight.headers["Access-Control-Allow-Origin"] == STORE_PAGE
    assert "POST" in preflight.headers["Access-Control-Allow-Methods"]
    assert preflight.headers["Access-Control-Allow-Headers"] == "Content-Type"
    assert preflight.headers["Vary"] == "Origin"

    # And its question is answered, readable by its page
    reply = server.send(
        "POST",
        "/query",
        {"Origin": STORE_PAGE, "Content-Type": "application/json"},
        json.dumps(QUESTION),
    )
    assert reply.status == 200 and reply.json()["products"]
    assert reply.headers["Access-Control-Allow-Origin"] == STORE_PAGE


def test_a_preflight_from_another_site_is_refused(server: Server) -> None:
    reply = server.send(
        "OPTIONS",
        "/query",
        {"Origin": "http://127.0.0.1:1", "Access-Control-Request-Method": "POST"},
    )
    assert reply.status == 403 and reply.json()["error"] == ORIGIN_NOT_ALLOWED.code
    assert "Access-Control-Allow-Origin" not in reply.headers


def test_the_hosted_page_on_the_servers_own_origin_is_answered(server: Server) -> None:
    for own in (f"http://127.0.0.1:{server.port}", f"http://localhost:{server.port}"):
        reply = server.send(
            "POST",
            "/query",
            {"Origin": own, "Content-Type": "application/json"},
            json.dumps({"message": "Books by Madeline Miller"}),
        )
        assert reply.status == 200, own


def test_the_live_trace_is_readable_by_the_stores_page_and_no_other(server: Server) -> None:
    path = f"/query/{'a' * 32}/steps"
    allowed = server.send("GET", path, {"Origin": STORE_PAGE})
    assert allowed.status == 200 and allowed.json() == {"steps": []}
    assert allowed.headers["Access-Control-Allow-Origin"] == STORE_PAGE
    other = server.send("GET", path, {"Origin": "https://evil.example"})
    assert other.status == 403 and "Access-Control-Allow-Origin" not in other.headers


def test_the_chats_files_load_into_any_page_and_say_the_stores_name(server: Server) -> None:
    # Given the widget on any page (it says itself where it may not answer)
    for path in ("/widget.js", "/launcher.js", "/chat.css", "/config.json", "/names.json"):
        reply = server.send("GET", path, {"Origin": "https://elsewhere.example"})
        # Then its files are public
        assert reply.status == 200, path
        assert reply.headers["Access-Control-Allow-Origin"] == "*", path
    store = server.send("GET", "/config.json", {}).json()["store"]
    assert store["name"] == server.local.store.settings.name
    assert store["allowedOrigins"] == [STORE_PAGE]
    assert store["colors"]["onAccent"] in ("#ffffff", "#111418")
