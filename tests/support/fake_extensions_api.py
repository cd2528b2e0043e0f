"""Lambda's Extensions API on 127.0.0.1, driven by a test one invocation at a time.

``register`` answers with an identifier; ``event/next`` blocks until the test calls
:meth:`FakeExtensionsApi.invoke`, which hands the waiting extension an ``INVOKE``
event, as Lambda does when a request arrives. Every call is logged in order, with
what the test marks in between (:meth:`mark`), so a test can say what happened
before and after the extension asked for its next event.
"""

from __future__ import annotations

import json
import queue
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from types import TracebackType
from typing import Any, Self

IDENTIFIER = "ext-0123456789"


class FakeExtensionsApi:
    def __init__(self, *, refuse: bool = False) -> None:
        self.refuse = refuse
        self.log: list[str] = []
        self.registered: list[dict[str, Any]] = []
        self._events: queue.Queue[dict[str, Any]] = queue.Queue()
        self._waiting = threading.Condition()
        self._nexts = 0
        api = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
                if self.path != "/2020-01-01/extension/register" or api.refuse:
                    self._answer(403, {"errorType": "Extension.Forbidden"})
                    return
                api.registered.append(
                    {"name": self.headers.get("Lambda-Extension-Name"), **json.loads(body)}
                )
                api.mark("register")
                self._answer(200, {"functionName": "lookup"}, IDENTIFIER)

            def do_GET(self) -> None:
                if self.headers.get("Lambda-Extension-Identifier") != IDENTIFIER:
                    self._answer(403, {"errorType": "Extension.Unknown"})
                    return
                api.mark("next")
                with api._waiting:
                    api._nexts += 1
                    api._waiting.notify_all()
                # After the test, a waiting extension stays waiting, as a frozen one would.
                self._answer(200, api._events.get())

            def _answer(self, status: int, body: dict[str, Any], ident: str = "") -> None:
                data = json.dumps(body).encode()
                self.send_response(status)
                if ident:
                    self.send_header("Lambda-Extension-Identifier", ident)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def log_message(self, format: str, *args: Any) -> None:
                return None

        self._server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._server.daemon_threads = True
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)

    @property
    def address(self) -> str:
        """What Lambda puts in ``AWS_LAMBDA_RUNTIME_API``: host and port."""
        host, port = self._server.server_address[:2]
        return f"{host}:{port}"

    def mark(self, what: str) -> None:
        self.log.append(what)

    def invoke(self, timeout_ms: int = 5000) -> None:
        """Hand the extension the next ``INVOKE`` event (as a request arrives)."""
        deadline_ms = int(time.time() * 1000) + timeout_ms
        self._events.put({"eventType": "INVOKE", "deadlineMs": deadline_ms, "requestId": "r"})

    def wait_for_next(self, count: int, timeout_s: float = 10.0) -> bool:
        """Wait until the extension has asked for its ``count``-th event."""
        with self._waiting:
            return self._waiting.wait_for(lambda: self._nexts >= count, timeout_s)

    def __enter__(self) -> Self:
        self._thread.start()
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self._server.shutdown()
        self._server.server_close()
