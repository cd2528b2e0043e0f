"""A Bedrock-shaped Converse endpoint on 127.0.0.1, for the real provider code.

Point boto3 at it with ``AWS_ENDPOINT_URL_BEDROCK_RUNTIME`` (or an
``endpoint_url``); it answers ``POST /model/{modelId}/converse`` with the next
scripted response, written as Bedrock writes it on the wire (binary fields in
base64) or a scripted error (429, 503, ...), and keeps every request body as it
arrives, so a test can read what boto3 really sent and count how often.
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Iterable
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from types import TracebackType
from typing import Any, Self


@dataclass(frozen=True)
class Refusal:
    """An error Bedrock answers a request with instead of a reply, as it writes it on the
    wire: the HTTP status, the error code in ``x-amzn-ErrorType`` and a message."""

    status: int
    code: str
    message: str = "refused by the stand-in"


THROTTLED = Refusal(429, "ThrottlingException", "Too many requests, please wait.")
UNAVAILABLE = Refusal(503, "ServiceUnavailableException", "Service unavailable.")


class FakeBedrock:
    """``responses`` are answered in order, a reply or a :class:`Refusal` each. ``delay_s``
    holds every answer back; ``delays_s`` holds back each one by its own (the first
    request's, the second's, ...; past its end, ``delay_s``)."""

    def __init__(
        self,
        responses: Iterable[dict[str, Any] | Refusal],
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

    def _arrived(self, body: dict[str, Any]) -> None:
        # Counted as it arrives: a caller that stops waiting has still sent it.
        with self._lock:
            self.requests.append(body)

    def _next(self) -> Refusal | dict[str, Any]:
        with self._lock:
            if not self._responses:
                return Refusal(400, "ValidationException", "no more scripted responses")
            return self._responses.pop(0)


def _handler(fake: FakeBedrock) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            length = int(self.headers.get("Content-Length") or 0)
            fake._arrived(json.loads(self.rfile.read(length) or b"{}"))
            delay = fake.delay_for()
            if delay:
                time.sleep(delay)
            answer = fake._next()
            refused = answer if isinstance(answer, Refusal) else None
            data = json.dumps({"message": refused.message} if refused else answer).encode()
            try:
                self.send_response(refused.status if refused else 200)
                self.send_header("Content-Type", "application/json")
                if refused:
                    self.send_header("x-amzn-ErrorType", refused.code)
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)
            except (BrokenPipeError, ConnectionResetError):
                pass  # the client gave up waiting, as a slow-model test wants it to

        def log_message(self, format: str, *args: Any) -> None:
            pass

    return Handler
