"""A Bedrock-shaped Converse endpoint on 127.0.0.1, for the real provider code.

Point boto3 at it with ``AWS_ENDPOINT_URL_BEDROCK_RUNTIME`` (or an
``endpoint_url``); it answers ``POST /model/{modelId}/converse`` with the next
scripted response, written as Bedrock writes it on the wire (binary fields in
base64), and keeps every request body so a test can read what boto3 really sent.
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Iterable
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from types import TracebackType
from typing import Any, Self


class FakeBedrock:
    """``delay_s`` holds every answer back; ``delays_s`` holds back each one by its own
    (the first request's, the second's, ...; past its end, ``delay_s``)."""

    def __init__(
        self,
        responses: Iterable[dict[str, Any]],
        *,
        delay_s: float = 0.0,
        delays_s: Iterable[float] = (),
    ) -> None:
        self._responses = list(responses)
        self.delay_s = delay_s
        self._delays = list(delays_s)
        self.requests: list[dict[str, Any]] = []
        self._lock = threading.Lock()
        self._server: ThreadingHTTPServer | None = None

    @property
    def base_url(self) -> str:
        assert self._server is not None, "start the server first"
        host, port = self._server.server_address[:2]
        return f"http://{host!s}:{port}"

    def __enter__(self) -> Self:
        self._server = ThreadingHTTPServer(("127.0.0.1", 0), _handler(self))
        self._server.daemon_threads = True
        threading.Thread(target=self._server.serve_forever, args=(0.02,), daemon=True).start()
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        if self._server is not None:
            self._server.shutdown()
            self._server.server_close()

    def delay_for(self) -> float:
        """How long to hold back the request being answered now."""
        with self._lock:
            return self._delays.pop(0) if self._delays else self.delay_s

    def _next(self, body: dict[str, Any]) -> tuple[int, dict[str, Any]]:
        with self._lock:
            self.requests.append(body)
            if not self._responses:
                return 400, {"message": "the stand-in has no more scripted responses"}
            return 200, self._responses.pop(0)


def _handler(fake: FakeBedrock) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            length = int(self.headers.get("Content-Length") or 0)
            body = json.loads(self.rfile.read(length) or b"{}")
            delay = fake.delay_for()
            if delay:
                time.sleep(delay)
            status, answer = fake._next(body)
            data = json.dumps(answer).encode()
            try:
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                if status != 200:
                    self.send_header("x-amzn-ErrorType", "ValidationException")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)
            except (BrokenPipeError, ConnectionResetError):
                pass  # the client gave up waiting, as a slow-model test wants it to

        def log_message(self, format: str, *args: Any) -> None:
            pass

    return Handler
