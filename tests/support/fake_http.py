"""A real HTTP server on 127.0.0.1 that tests script route by route.

Tools are tested through the same ``urllib`` path they use in production, so
timeouts, status codes, gzip and header handling are exercised for real; only
the far end is fake. Use it as a context manager::

    with FakeHttpServer() as server:
        server.route("/search.json", body={"docs": []})
        search_books("dune", base_url=server.base_url, timeout_s=1.0)
        assert server.requests[0].query["q"] == ["dune"]

Unregistered paths answer 404. A route's ``delay_s`` is cut short when the
server stops, so a slow-server test does not slow the suite down.
"""

from __future__ import annotations

import gzip as gzip_module
import json
import threading
import urllib.parse
from collections.abc import Mapping
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from types import TracebackType
from typing import Any, Self


@dataclass(frozen=True)
class Route:
    status: int = 200
    body: bytes = b""
    delay_s: float = 0.0
    headers: Mapping[str, str] = field(default_factory=dict)
    gzip: bool = False


@dataclass(frozen=True)
class RecordedRequest:
    method: str
    path: str
    query: dict[str, list[str]]
    headers: dict[str, str]

    def header(self, name: str) -> str | None:
        """A request header by case-insensitive name."""
        wanted = name.lower()
        return next((v for k, v in self.headers.items() if k.lower() == wanted), None)


class FakeHttpServer:
    def __init__(self) -> None:
        self._routes: dict[str, Route] = {}
        self._requests: list[RecordedRequest] = []
        self._lock = threading.Lock()
        self._stopping = threading.Event()
        self._server: ThreadingHTTPServer | None = None
        self._thread: threading.Thread | None = None

    # -- lifecycle ---------------------------------------------------------

    def start(self) -> Self:
        server = ThreadingHTTPServer(("127.0.0.1", 0), _make_handler(self))
        server.daemon_threads = True
        self._server = server
        # A short poll keeps shutdown() quick; the default 0.5s adds up over a suite.
        self._thread = threading.Thread(
            target=server.serve_forever, args=(0.02,), name="fake-http", daemon=True
        )
        self._thread.start()
        return self

    def stop(self) -> None:
        self._stopping.set()
        if self._server is not None:
            self._server.shutdown()
            self._server.server_close()
            self._server = None
        if self._thread is not None:
            self._thread.join(timeout=5)
            self._thread = None

    def __enter__(self) -> Self:
        return self.start()

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.stop()

    @property
    def base_url(self) -> str:
        if self._server is None:
            raise RuntimeError("FakeHttpServer is not running")
        host, port = self._server.server_address[:2]
        return f"http://{host!s}:{port}"

    # -- scripting ---------------------------------------------------------

    def route(
        self,
        path: str,
        *,
        status: int = 200,
        body: bytes | str | Any = b"",
        delay_s: float = 0.0,
        headers: Mapping[str, str] | None = None,
        gzip: bool = False,
    ) -> None:
        """Answer GETs to ``path`` (query string ignored) with this response.

        ``body`` may be raw bytes, text, or any other value, which is sent as
        JSON with a JSON content type unless ``headers`` says otherwise.
        """
        response_headers = dict(headers or {})
        if isinstance(body, bytes):
            raw = body
        elif isinstance(body, str):
            raw = body.encode("utf-8")
        else:
            raw = json.dumps(body).encode("utf-8")
            response_headers.setdefault("Content-Type", "application/json")
        with self._lock:
            self._routes[path] = Route(status, raw, delay_s, response_headers, gzip)

    @property
    def requests(self) -> list[RecordedRequest]:
        with self._lock:
            return list(self._requests)

    # -- used by the request handler --------------------------------------

    def _record(self, request: RecordedRequest) -> Route | None:
        with self._lock:
            self._requests.append(request)
            return self._routes.get(request.path)

    def _wait(self, seconds: float) -> bool:
        """Sleep ``seconds`` unless the server stops first; True if it stopped."""
        return self._stopping.wait(seconds)


def _make_handler(owner: FakeHttpServer) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def do_POST(self) -> None:
            # A POST's body is read and dropped: the fakes answer by path alone.
            self.rfile.read(int(self.headers.get("Content-Length") or 0))
            self._answer("POST")

        def do_GET(self) -> None:
            self._answer("GET")

        def do_OPTIONS(self) -> None:
            self._answer("OPTIONS")

        def _answer(self, method: str) -> None:
            parsed = urllib.parse.urlsplit(self.path)
            route = owner._record(
                RecordedRequest(
                    method=method,
                    path=parsed.path,
                    query=urllib.parse.parse_qs(parsed.query, keep_blank_values=True),
                    headers=dict(self.headers.items()),
                )
            )
            if route is None:
                route = Route(404, b'{"error": "no such route"}', 0.0, {})
            if route.delay_s and owner._wait(route.delay_s):
                return
            body = gzip_module.compress(route.body) if route.gzip else route.body
            try:
                self.send_response(route.status)
                for name, value in route.headers.items():
                    self.send_header(name, value)
                if route.gzip:
                    self.send_header("Content-Encoding", "gzip")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)
            except (BrokenPipeError, ConnectionResetError):
                # The client gave up (a timeout test); nothing is listening.
                pass

        def log_message(self, format: str, *args: Any) -> None:
            # Tests assert on captured stderr; request lines there would be noise.
            return

    return Handler
