"""The JSON-over-HTTP adapter: one deadline for the whole call, and a cap on the body."""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest

from shared.runtime.errors import UpstreamError
from shared.runtime.http import MAX_BODY_BYTES, get_json
from tests.support.fake_http import FakeHttpServer

GENEROUS_S = 5.0
"""A bound far above the timeout under test, so a slow machine cannot fail it."""


@contextmanager
def trickling_server(*, chunked: bool, every_s: float = 0.05) -> Iterator[str]:
    """A server that answers 200 at once, then sends its body one byte per ``every_s``.

    Every socket read succeeds well within urllib's per-operation timeout, so only a
    deadline for the whole call can stop the client. Yields the base URL.
    """
    stopping = threading.Event()

    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def do_GET(self) -> None:
            try:
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                if chunked:
                    self.send_header("Transfer-Encoding", "chunked")
                else:
                    self.send_header("Content-Length", "100000")
                self.end_headers()
                self.wfile.write(b"1\r\n[\r\n" if chunked else b"[")
                self.wfile.flush()
                while not stopping.wait(every_s):
                    self.wfile.write(b"1\r\n1\r\n" if chunked else b" ")
                    self.wfile.flush()
            except (BrokenPipeError, ConnectionResetError):
                pass  # the client gave up, as it should

        def log_message(self, format: str, *args: Any) -> None:
            return

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    thread = threading.Thread(target=server.serve_forever, args=(0.02,), daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        stopping.set()
        server.shutdown()
        server.server_close()
        thread.join(timeout=5)


@pytest.mark.parametrize("chunked", [False, True], ids=["content-length", "chunked"])
def test_a_server_that_trickles_its_body_times_out_at_the_deadline(chunked: bool) -> None:
    # Given an API that starts answering at once but sends a byte every 50 ms
    with trickling_server(chunked=chunked) as base_url:
        started = time.monotonic()
        # When a tool calls it with a 0.5 s timeout
        with pytest.raises(UpstreamError) as caught:
            get_json(f"{base_url}/slow", headers={}, timeout_s=0.5)
        elapsed = time.monotonic() - started
    # Then the tool gets a timeout it can explain to the model, not a hung call
    assert caught.value.kind == "timeout"
    assert elapsed < GENEROUS_S


def test_a_body_larger_than_the_cap_is_refused() -> None:
    # Given an API that answers with more than the adapter will hold in memory
    with FakeHttpServer() as server:
        server.route("/big", body=b"[" + b" " * MAX_BODY_BYTES + b"]")
        # When a tool calls it
        with pytest.raises(UpstreamError) as caught:
            get_json(f"{server.base_url}/big", headers={}, timeout_s=5)
    # Then the answer is refused as malformed
    assert caught.value.kind == "malformed" and "too large" in caught.value.detail


def test_a_body_of_many_chunks_up_to_the_cap_is_read_whole() -> None:
    # Given an API whose JSON body is exactly the cap, and one that gzips a large body
    at_cap = json.dumps("a" * (MAX_BODY_BYTES - 2)).encode()
    assert len(at_cap) == MAX_BODY_BYTES
    records = [{"id": n, "name": f"product {n}"} for n in range(5_000)]
    with FakeHttpServer() as server:
        server.route("/at-cap", body=at_cap)
        server.route("/gzip", body={"records": records}, gzip=True)
        # When a tool reads them
        text = get_json(f"{server.base_url}/at-cap", headers={}, timeout_s=5)
        body = get_json(f"{server.base_url}/gzip", headers={}, timeout_s=5)
    # Then every byte arrived and decoded
    assert len(text) == MAX_BODY_BYTES - 2
    assert body == {"records": records}


def test_a_server_that_never_answers_times_out() -> None:
    # Given an API that takes longer than the tool may wait before sending anything
    with FakeHttpServer() as server:
        server.route("/stall", body={"late": True}, delay_s=30)
        started = time.monotonic()
        # When a tool calls it with a 0.3 s timeout
        with pytest.raises(UpstreamError) as caught:
            get_json(f"{server.base_url}/stall", headers={}, timeout_s=0.3)
        elapsed = time.monotonic() - started
    # Then it is a timeout, promptly
    assert caught.value.kind == "timeout" and elapsed < GENEROUS_S
