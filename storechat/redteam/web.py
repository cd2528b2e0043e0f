"""The web as an attacker writes it: Brave Search and Open Library on 127.0.0.1.

:class:`HostileWeb` answers the reviews tool's Brave request
(``GET /res/v1/web/search``: ``{"web": {"results": [...]}}``) and the book tool's Open
Library request (``GET /search.json``: ``{"docs": [...]}``) with whatever it is told to
serve, whatever the query, so the real tools (their cleaning, caps, marking and
screening) carry a red-team case's text to the model. :meth:`HostileWeb.environment` is
what points a local system's tools at it.
"""

from __future__ import annotations

import json
import threading
import urllib.parse
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from types import TracebackType
from typing import Any, Self

BRAVE_PATH = "/res/v1/web/search"
OPEN_LIBRARY_PATH = "/search.json"


class HostileWeb:
    """Serves :meth:`serve`'s reviews and books until the ``with`` block ends."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._reviews: list[Any] = []
        self._books: list[Any] = []
        self._server: ThreadingHTTPServer | None = None

    def serve(self, reviews: list[Any], books: list[Any]) -> None:
        """What every search answers from now on: Brave's results, Open Library's docs."""
        with self._lock:
            self._reviews, self._books = list(reviews), list(books)

    def body(self, path: str) -> dict[str, Any] | None:
        with self._lock:
            if path == BRAVE_PATH:
                return {"web": {"results": self._reviews}}
            if path == OPEN_LIBRARY_PATH:
                return {"docs": self._books}
        return None

    @property
    def base_url(self) -> str:
        if self._server is None:
            raise RuntimeError("HostileWeb is not running")
        host, port = self._server.server_address[:2]
        return f"http://{host!s}:{port}"

    def environment(self) -> dict[str, str]:
        """The tools' variables that send them here (the reviews tool needs some key)."""
        return {
            "BRAVE_API_KEY": "red-team",
            "BRAVE_BASE_URL": self.base_url,
            "OPENLIBRARY_BASE_URL": self.base_url,
        }

    def __enter__(self) -> Self:
        self._server = ThreadingHTTPServer(("127.0.0.1", 0), _handler(self))
        self._server.daemon_threads = True
        threading.Thread(target=self._server.serve_forever, args=(0.05,), daemon=True).start()
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
            self._server = None


def _handler(web: HostileWeb) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            body = web.body(urllib.parse.urlsplit(self.path).path)
            data = json.dumps(body if body is not None else {"error": "no such route"}).encode()
            self.send_response(200 if body is not None else 404)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def log_message(self, format: str, *args: Any) -> None:
            return None

    return Handler
