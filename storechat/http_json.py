"""The HTTP/1.1 manners of the dev server: JSON for every refusal, bodies read with care.

:class:`JsonRequestHandler` is ``http.server``'s request handler with what the dev
server's routes (``storechat.server``) rely on:

* every response is JSON in the contract's error shape when it is a refusal, including
  http.server's own (a malformed request line, HTTP/0.9 or 2.0, headers too large),
  which it would otherwise answer with an HTML page or no status line at all;
* a request body is read only within ``shared.api.query.MAX_BODY_BYTES`` and its
  ``Content-Length``; one that stops arriving gets a 408, one that ends early a 400;
* a refusal sent before the body was read closes the connection, but only after
  reading and dropping what the client still sends, for a while (:meth:`_linger`): a
  socket closed with unread input answers with a reset, and a client still writing its
  body would lose the answer it has not read yet;
* a client that goes away mid-request is a line in the log, not a traceback.
"""

from __future__ import annotations

import json
import socket
import time
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler
from typing import Any, Protocol
from urllib.parse import urlsplit

from shared.api.query import MAX_BODY_BYTES
from shared.api.vocabulary import INVALID_REQUEST, REQUEST_REJECTED, ApiError

READ_TIMEOUT_S = 30
LINGER_S = 10
"""The longest a refused request's unread body is read and dropped before closing."""
LINGER_IDLE_S = 2
"""A client that sends nothing for this long while it is being drained is left."""
MAX_DRAIN_BYTES = 64 * 1024 * 1024
"""Cheap to read on any link the dev server is used over; a larger body is cut off."""
GONE = (ConnectionError, TimeoutError)
"""How a client that went away (or stopped sending) shows up on the socket."""
MAX_ECHO_CHARS = 200
"""How much of a refused request line a refusal's message repeats."""


class LogsLines(Protocol):
    def log_line(self, line: str) -> None: ...


class JsonRequestHandler(BaseHTTPRequestHandler):
    """A request handler whose subclass routes requests in :meth:`_dispatch`."""

    server: LogsLines  # type: ignore[assignment]
    protocol_version = "HTTP/1.1"
    server_version = "storechat-dev"
    timeout = READ_TIMEOUT_S

    # Per request; set again by parse_request before each one on a kept-alive connection.
    _started: float | None = None
    _body_read = False
    _responded = False

    def _dispatch(self, method: str) -> None:
        raise NotImplementedError

    def parse_request(self) -> bool:
        """Read the request line and headers; answer here whatever no ``do_*`` method will.

        http.server answers a method without a ``do_*`` method with an HTML 501; a
        method this server does not serve is a 405 (or 404) like any other.
        """
        self._started = time.perf_counter()
        self._body_read = False
        self._responded = False
        if not super().parse_request():
            return False  # send_error has answered
        if self.request_version == "HTTP/0.9":
            # A request line without a version: http.server would answer with no status line.
            self.send_error(HTTPStatus.HTTP_VERSION_NOT_SUPPORTED, "HTTP/0.9 is not supported")
            return False
        if not hasattr(self, f"do_{self.command}"):
            self._dispatch(self.command)
            return False
        return True

    def handle_expect_100(self) -> bool:
        # A body over the limit is refused when the request arrives: no "100 Continue"
        # invites the client to send it first.
        if self._declared_length() > self.body_limit():
            return True
        return super().handle_expect_100()

    def body_limit(self) -> int:
        """The largest request body this request's route takes."""
        return MAX_BODY_BYTES

    def _declared_length(self) -> int:
        try:
            return int(self.headers.get("Content-Length") or "0")
        except ValueError:
            return 0

    def _read_body(self) -> bytes | None:
        """The request body, or ``None`` after answering 400 (or 408 for a body that
        stopped arriving)."""
        if self.headers.get("Transfer-Encoding"):
            self._send_json(
                HTTPStatus.BAD_REQUEST,
                INVALID_REQUEST.body("send the request body with a Content-Length header"),
            )
            return None
        length_header = self.headers.get("Content-Length") or "0"
        try:
            length = int(length_header)
            if length < 0:
                raise ValueError(length_header)
        except ValueError:
            self._send_json(
                HTTPStatus.BAD_REQUEST, INVALID_REQUEST.body("Content-Length is not a valid length")
            )
            return None
        if length > self.body_limit():
            self._send_json(
                HTTPStatus.BAD_REQUEST,
                INVALID_REQUEST.body(f"request body is larger than {self.body_limit()} bytes"),
            )
            return None
        try:
            raw = self.rfile.read(length)
        except TimeoutError:
            self.close_connection = True
            self._send_json(
                HTTPStatus.REQUEST_TIMEOUT,
                REQUEST_REJECTED.body(f"the request body did not arrive within {self.timeout} s"),
            )
            return None
        self._body_read = True
        if len(raw) < length:
            self.close_connection = True
            self._send_json(
                HTTPStatus.BAD_REQUEST,
                INVALID_REQUEST.body("the request body ended before its Content-Length"),
            )
            return None
        return raw

    def send_error(self, code: int, message: str | None = None, explain: str | None = None) -> None:
        """Answer http.server's own refusals in the contract's JSON, not its HTML page.

        It refuses before it has routed the request: a malformed request line, an HTTP
        version it does not speak, a request line or headers too long. ``self.path``
        and the headers may not be set yet, and the connection cannot be trusted after.
        """
        status = HTTPStatus(code)
        if getattr(self, "request_version", "") == "HTTP/0.9":
            # The version was never read: without this, http.server sends no status line.
            self.request_version = self.protocol_version
        self.close_connection = True
        text = (message or status.phrase)[:MAX_ECHO_CHARS]
        self._send_json(status, REQUEST_REJECTED.body(text))
        # What is left of a request line or headers too long is still on its way.
        self._linger()

    def _send_api_error(self, error: ApiError) -> None:
        self._send_json(HTTPStatus(error.status or HTTPStatus.INTERNAL_SERVER_ERROR), error.body())

    def _send_json(
        self, status: HTTPStatus, body: Any, extra_headers: dict[str, str] | None = None
    ) -> None:
        payload = json.dumps(body, ensure_ascii=False).encode("utf-8")
        self._send(status, payload, "application/json; charset=utf-8", extra_headers or {})

    def _send(
        self, status: HTTPStatus, payload: bytes, content_type: str, extra_headers: dict[str, str]
    ) -> None:
        # A body we did not read would be parsed as the next request on this connection.
        unread = not self._body_read and (
            self._header("Content-Length") not in (None, "", "0")
            or bool(self._header("Transfer-Encoding"))
        )
        if unread:
            self.close_connection = True
        self._responded = True
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(payload)))
        self.send_header("Cache-Control", "no-store")
        self.send_header("X-Content-Type-Options", "nosniff")
        self.send_header("Referrer-Policy", "no-referrer")
        for name, value in extra_headers.items():
            self.send_header(name, value)
        if self.close_connection:
            self.send_header("Connection", "close")
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(payload)
        if unread:
            self._linger()

    def _linger(self) -> None:
        """After the answer, read and drop what the client still sends, then let it close.

        Closing a socket with unread input makes the kernel answer with a reset, which
        can reach a client still writing its body before it has read the answer. Half
        closing first (FIN) tells a client that reads to the end that it has it all;
        the rest is drained until the client closes, stops sending for a moment, or
        sends more than is cheap to read.
        """
        self.close_connection = True
        try:
            self.wfile.flush()
            self.connection.shutdown(socket.SHUT_WR)
        except OSError:
            return
        deadline = time.monotonic() + LINGER_S
        drained = 0
        try:
            while drained < MAX_DRAIN_BYTES:
                left = deadline - time.monotonic()
                if left <= 0:
                    break
                self.connection.settimeout(min(left, LINGER_IDLE_S))
                chunk = self.rfile.read1(64 * 1024)
                if not chunk:
                    break
                drained += len(chunk)
        except (OSError, ValueError):  # a reset, a timeout, or a closed file: done either way
            pass

    def _header(self, name: str) -> str | None:
        # A request refused at its request line has no headers (or the previous request's).
        headers = getattr(self, "headers", None) if self.command else None
        return None if headers is None else headers.get(name)

    def version_string(self) -> str:
        return self.server_version

    def log_request(self, code: int | str = "-", size: int | str = "-") -> None:
        now = time.perf_counter()
        elapsed = int((now - (self._started or now)) * 1000)
        self.server.log_line(f"{self.command or '-'} {self._log_target()} {code} {elapsed} ms")

    def _log_target(self) -> str:
        if not self.command:  # refused at the request line: show what came, escaped
            return ascii(getattr(self, "requestline", ""))[:MAX_ECHO_CHARS]
        try:
            return urlsplit(self.path).path
        except ValueError:
            return ascii(self.path)[:MAX_ECHO_CHARS]

    def log_message(self, format: str, *args: Any) -> None:
        # http.server's own errors (bad request lines, timeouts) go to the same log.
        self.server.log_line(f"  {format % args}")
