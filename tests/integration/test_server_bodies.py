"""The dev server and request bodies it will not take, over real sockets: every client
gets its JSON answer, and a client that goes away costs a log line, not a traceback."""

from __future__ import annotations

import http.client
import io
import json
import socket
import struct
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import pytest

from shared.api.query import MAX_BODY_BYTES
from shared.api.vocabulary import INVALID_REQUEST, METHOD_NOT_ALLOWED, NOT_FOUND, REQUEST_REJECTED
from storechat.server import StorechatHandler, make_server, running
from tests.integration.test_server import NoAssistant

TWO_MB = 2 * 1024 * 1024
BIG_BODY = b'{"message": "' + b"x" * TWO_MB + b'"}'
TOO_LARGE = f"request body is larger than {MAX_BODY_BYTES} bytes"
ROUNDS = 25


@dataclass
class Bare:
    address: tuple[str, int]
    log: io.StringIO


@pytest.fixture(scope="module")
def bare() -> Iterator[Bare]:
    log = io.StringIO()
    with running(make_server(NoAssistant(), "127.0.0.1", 0, access_log=log)) as server:
        host, port = server.server_address[:2]
        yield Bare((str(host), int(port)), log)


def post(address: tuple[str, int], path: str, body: bytes, **headers: str) -> tuple[int, Any]:
    """What http.client (as most clients do) gets: it sends the whole body, then reads."""
    connection = http.client.HTTPConnection(*address, timeout=30)
    try:
        connection.request("POST", path, body=body, headers=headers)
        response = connection.getresponse()
        return response.status, json.loads(response.read())
    finally:
        connection.close()


def raw_exchange(address: tuple[str, int], head: bytes, body: bytes) -> bytes:
    """Send the head and then the body with sendall, as fast as the socket takes it, and
    read the whole reply until the server closes."""
    with socket.create_connection(address, timeout=30) as sock:
        received = bytearray()

        def read() -> None:
            while chunk := sock.recv(65536):
                received.extend(chunk)

        reader = threading.Thread(target=read)
        reader.start()
        sock.sendall(head + body)
        sock.shutdown(socket.SHUT_WR)
        reader.join(timeout=30)
        return bytes(received)


def test_a_2_mb_body_always_gets_its_json_400_and_never_a_reset(bare: Bare) -> None:
    # When a client sends a 2 MB body to POST /query, again and again
    answers = [post(bare.address, "/query", BIG_BODY, **{"Content-Type": "application/json"})]
    answers += [post(bare.address, "/query", BIG_BODY) for _ in range(ROUNDS - 1)]

    # Then every one of them reads the 400 (no broken pipe, no connection reset)
    assert answers == [(400, INVALID_REQUEST.body(TOO_LARGE))] * ROUNDS


def test_a_client_that_writes_its_whole_body_before_reading_gets_the_400(bare: Bare) -> None:
    for _ in range(ROUNDS):
        reply = raw_exchange(
            bare.address,
            b"POST /query HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n"
            + f"Content-Length: {len(BIG_BODY)}\r\n\r\n".encode(),
            BIG_BODY,
        )
        head, _, body = reply.partition(b"\r\n\r\n")
        assert head.startswith(b"HTTP/1.1 400 ") and b"Connection: close" in head
        assert json.loads(body) == INVALID_REQUEST.body(TOO_LARGE)


@pytest.mark.parametrize(
    ("path", "status", "expected"),
    [
        ("/nowhere", 404, NOT_FOUND.body("no such path: /nowhere")),
        ("/config.json", 405, METHOD_NOT_ALLOWED.body("POST is not allowed on /config.json")),
    ],
)
def test_a_big_body_sent_where_none_is_taken_gets_that_paths_json_refusal(
    bare: Bare, path: str, status: int, expected: dict[str, str]
) -> None:
    for _ in range(5):
        assert post(bare.address, path, BIG_BODY) == (status, expected)


def test_an_oversized_body_announced_with_expect_is_refused_without_inviting_it(
    bare: Bare,
) -> None:
    # Given a client that asks before sending its body
    with socket.create_connection(bare.address, timeout=10) as sock:
        sock.sendall(
            b"POST /query HTTP/1.1\r\nHost: localhost\r\nExpect: 100-continue\r\n"
            + f"Content-Length: {TWO_MB}\r\n\r\n".encode()
        )
        reply = sock.makefile("rb").read()

    # Then the first thing it hears is the refusal, not "100 Continue"
    assert reply.startswith(b"HTTP/1.1 400 ")
    assert b"100 Continue" not in reply
    assert json.loads(reply.partition(b"\r\n\r\n")[2]) == INVALID_REQUEST.body(TOO_LARGE)


def test_a_body_that_ends_before_its_length_is_a_400(bare: Bare) -> None:
    reply = raw_exchange(
        bare.address,
        b"POST /query HTTP/1.1\r\nHost: localhost\r\nContent-Length: 1000\r\n\r\n",
        b'{"message": ',
    )
    assert reply.startswith(b"HTTP/1.1 400 ")
    assert json.loads(reply.partition(b"\r\n\r\n")[2]) == INVALID_REQUEST.body(
        "the request body ended before its Content-Length"
    )


def test_a_body_that_stops_arriving_is_a_408(bare: Bare, monkeypatch: pytest.MonkeyPatch) -> None:
    # Given a server that waits one second for the rest of a body
    monkeypatch.setattr(StorechatHandler, "timeout", 1)
    with socket.create_connection(bare.address, timeout=10) as sock:
        sock.sendall(b"POST /query HTTP/1.1\r\nHost: localhost\r\nContent-Length: 100\r\n\r\n{")
        reply = sock.makefile("rb").read()
    assert reply.startswith(b"HTTP/1.1 408 ")
    assert json.loads(reply.partition(b"\r\n\r\n")[2]) == REQUEST_REJECTED.body(
        "the request body did not arrive within 1 s"
    )


def _reset(sock: socket.socket) -> None:
    """Close with a TCP reset instead of a FIN, as a crashed or killed client does."""
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
    sock.close()


@pytest.mark.parametrize("how", ["close", "reset"])
@pytest.mark.parametrize(
    "sent",
    [
        b"POST /query HTTP/1.1\r\nHost: localhost\r\nContent-Length: 5000\r\n\r\n" + b"x" * 100,
        b"POST /query HTTP/1.1\r\nHost: localhost\r\nContent-Length: "
        + str(TWO_MB).encode()
        + b"\r\n\r\n",
        b"POST /query HTTP/1.1\r\nHost: localhost\r\nContent-Le",
        b"GET /index.ht",
    ],
    ids=["mid-body", "oversized, before its body", "mid-headers", "mid-request-line"],
)
def test_a_client_that_goes_away_mid_request_costs_a_log_line_not_a_traceback(
    bare: Bare, capfd: pytest.CaptureFixture[str], sent: bytes, how: str
) -> None:
    # When a client sends part of a request and hangs up (or crashes)
    before = len(bare.log.getvalue())
    sock = socket.create_connection(bare.address, timeout=10)
    sock.sendall(sent)
    time.sleep(0.2)
    if how == "reset":
        _reset(sock)
    else:
        sock.close()
    time.sleep(0.5)

    # Then nothing prints a traceback, in the server's log or on the terminal
    logged = bare.log.getvalue()[before:]
    assert "Traceback" not in logged
    assert "Traceback" not in capfd.readouterr().err
    # And the server goes on serving
    connection = http.client.HTTPConnection(*bare.address, timeout=10)
    connection.request("GET", "/names.json")
    assert connection.getresponse().status == 200
    connection.close()
