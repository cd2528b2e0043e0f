"""The local dev server: the chat page and ``POST /query`` on one origin.

Requests are validated with ``shared.api.query`` and answered by one
:class:`~storechat.local.LocalStorechat` that lives as long as the server, and
execution statuses map to HTTP statuses as the deployed API maps them, with the
error codes of ``shared.api.vocabulary``. ``POST /query/{turnId}/feedback`` answers from
the deployed function's own code (``record_feedback.logic``):

=====================  =====  =======================
execution              HTTP   body
=====================  =====  =======================
SUCCEEDED              200    the response body
FAILED, ABORTED        502    ``conversation_failed``
TIMED_OUT (or no end)  504    ``timeout``
=====================  =====  =======================

A body that breaks the contract gets 400 ``invalid_request`` with the reason a
shopper can read. The API's routes answer only pages of this server's own origin or
the store's (``storechat.origins``), with CORS headers for those, preflight included;
a page elsewhere gets 403 ``origin_not_allowed``, and a request whose ``Host`` is not
this server 421 ``request_rejected``. The chat's files (the page, the widget and its
modules, ``config.json``) may be read from any origin: the widget runs on the store's.
Every other refusal is the same JSON shape: 404 ``not_found``,
405 ``method_not_allowed`` with ``Allow`` (any method, even one HTTP does not know),
and ``request_rejected`` with http.server's own status for a request it cannot
parse (a malformed request line, HTTP/0.9 or 2.0, headers too large).

How it speaks HTTP (JSON refusals, bodies, closing without a reset, clients that go
away) is ``storechat.http_json``'s; this module routes.
"""

from __future__ import annotations

import re
import socket
import sys
import threading
import traceback
from collections.abc import Iterator
from contextlib import contextmanager
from http import HTTPStatus
from http.server import ThreadingHTTPServer
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO
from urllib.parse import unquote, urlsplit

from catalog_webhook.logic import MAX_BODY_BYTES as WEBHOOK_MAX_BODY_BYTES
from shared.api.page_policy import content_security_policy
from shared.api.query import RequestRejected, openapi, parse_query
from shared.api.vocabulary import (
    CONVERSATION_FAILED,
    GATEWAY_ERROR,
    INVALID_REQUEST,
    METHOD_NOT_ALLOWED,
    NOT_FOUND,
    ORIGIN_NOT_ALLOWED,
    PAGE_NAMES_FILE,
    REQUEST_REJECTED,
    TIMEOUT,
    page_names,
)
from shared.config.time_budget import API_LIMIT_S, CLIENT_WAIT_MS
from shared.store.settings import StoreFile, page_settings
from shared.trace.steps import MALFORMED_TURN_ID
from storechat import static_files
from storechat.admission import FairGate
from storechat.http_json import GONE, JsonRequestHandler
from storechat.origins import Origins

if TYPE_CHECKING:
    # The server is typed against the runner itself (a test may hand it a stand-in with
    # the methods it calls), so ``ask``'s signature is declared once, in the runner.
    from storechat.local import LocalStorechat

WEB_DIR = Path(__file__).resolve().parent.parent / "web"
ASK_TIMEOUT_S = API_LIMIT_S
MAX_RUNNING_EXECUTIONS = 2
"""Executions run at once; the rest wait their turn, first come first served.

The local engine is CPU-bound Python: on a laptop, twenty executions sharing two
cores all finish late, and the slowest pass the API's limit. Admitting a few at a
time, like a Lambda concurrency limit, keeps each one fast and the queue fair.
"""
"""API Gateway gives an integration ``API_LIMIT_S``; the dev server waits no longer."""


class StorechatHTTPServer(ThreadingHTTPServer):
    """A threading HTTP server that holds the running local system."""

    daemon_threads = True
    # The standard library's backlog of 5 refuses connections when a crowd arrives at
    # once; the admission queue, not the kernel, is what should make them wait.
    request_queue_size = 128

    def __init__(
        self,
        address: tuple[str, int],
        local: LocalStorechat,
        web_dir: Path,
        access_log: TextIO | None,
        max_running: int = MAX_RUNNING_EXECUTIONS,
        image_hosts: tuple[str, ...] = (),
    ) -> None:
        if ":" in address[0]:
            self.address_family = socket.AF_INET6
        self.local = local
        # Locally the API is the page's own origin; pictures come from the hosts given.
        self.page_csp = content_security_policy(images=image_hosts)
        self.admission = FairGate(max_running)
        self.web_dir = web_dir.resolve()
        self.access_log = access_log
        self._log_lock = threading.Lock()
        super().__init__(address, StorechatHandler)
        self.origins = Origins.of(
            str(self.server_address[0]),
            int(self.server_address[1]),
            local.store.settings.allowedOrigins,
        )

    @property
    def url(self) -> str:
        host, port = str(self.server_address[0]), int(self.server_address[1])
        shown = f"[{host}]" if ":" in host else host
        return f"http://{shown}:{port}/"

    def log_line(self, line: str) -> None:
        if self.access_log is not None:
            with self._log_lock:
                print(line, file=self.access_log, flush=True)

    def handle_error(self, request: Any, client_address: Any) -> None:
        """A client that hangs up while http.server reads its request line is news of a
        line, not a traceback; anything else is a bug, reported with its traceback."""
        if isinstance(sys.exc_info()[1], GONE):
            self.log_line(f"  client {client_address[0]} went away")
            return
        super().handle_error(request, client_address)


class StorechatHandler(JsonRequestHandler):
    server: StorechatHTTPServer

    _STEPS = re.compile(r"^/query/([^/]*)/steps$")
    """``GET /query/{turnId}/steps``: the live trace of a running question."""
    _WEBHOOK = re.compile(r"^/webhooks/([a-z]+)$")
    """``POST /webhooks/{platform}``: a store platform's product webhook."""
    _FEEDBACK = re.compile(r"^/query/([^/]*)/feedback$")
    """``POST /query/{turnId}/feedback``: a rating of an answer, or a click on its products."""
    _ROUTES: dict[str, tuple[str, ...]] = {
        "/query": ("POST", "OPTIONS"),
        "/config.json": ("GET", "HEAD"),
        f"/{PAGE_NAMES_FILE}": ("GET", "HEAD"),
        "/openapi.json": ("GET", "HEAD"),
    }

    # -- dispatch ---------------------------------------------------------------------------

    def do_GET(self) -> None:
        self._dispatch("GET")

    def do_HEAD(self) -> None:
        self._dispatch("HEAD")

    def do_POST(self) -> None:
        self._dispatch("POST")

    def do_OPTIONS(self) -> None:
        self._dispatch("OPTIONS")

    def parse_request(self) -> bool:
        self._cors = {}  # a kept-alive connection's next request starts with none
        return super().parse_request()

    # Per request: the CORS headers its answer carries (none until the route says so).
    _cors: dict[str, str] = {}

    def _send(
        self, status: HTTPStatus, payload: bytes, content_type: str, extra_headers: dict[str, str]
    ) -> None:
        super()._send(status, payload, content_type, {**self._cors, **extra_headers})

    def _dispatch(self, method: str) -> None:
        try:
            self._route(method)
        except GONE as exc:  # nobody left to answer
            self.close_connection = True
            self.server.log_line(f"  client went away ({type(exc).__name__})")
        except Exception:  # the client gets JSON, the developer the traceback
            self.server.log_line(f"  request crashed: {traceback.format_exc()}")
            self.close_connection = True
            if not self._responded:
                self._send_json(HTTPStatus.INTERNAL_SERVER_ERROR, GATEWAY_ERROR.body())

    def _route(self, method: str) -> None:
        self._cors = {}
        try:
            path = urlsplit(self.path).path
        except ValueError:
            self._send_json(
                HTTPStatus.BAD_REQUEST, REQUEST_REJECTED.body("the request target is not a URL")
            )
            return
        if not self.server.origins.is_own(self.headers.get("Host")):
            self._send_json(
                HTTPStatus.MISDIRECTED_REQUEST,
                REQUEST_REJECTED.body(f"this server is not {self.headers.get('Host')!r}"),
            )
            return
        steps = self._STEPS.match(path)
        feedback = self._FEEDBACK.match(path)
        webhook = self._WEBHOOK.match(path)
        api = path == "/query" or steps or feedback
        static = None if path in self._ROUTES or api or webhook else self._static_file(path)
        allowed = self._ROUTES.get(path) or (
            ("GET", "HEAD", "OPTIONS")
            if steps
            else ("POST", "OPTIONS")
            if feedback
            else ("GET", "HEAD")
            if static
            else None
        )
        if webhook:
            allowed = ("POST",)
        elif api:
            if not self._api_origin(method, allowed or ()):
                return
        elif allowed:
            # The chat's files are public: the widget loads them into the store's pages.
            self._cors = {"Access-Control-Allow-Origin": "*"}
        if allowed is None:
            self._send_json(HTTPStatus.NOT_FOUND, NOT_FOUND.body(f"no such path: {path}"))
        elif method not in allowed:
            self._send_json(
                HTTPStatus.METHOD_NOT_ALLOWED,
                METHOD_NOT_ALLOWED.body(f"{method} is not allowed on {path}"),
                extra_headers={"Allow": ", ".join(allowed)},
            )
        elif method == "OPTIONS":
            self._send(HTTPStatus.NO_CONTENT, b"", "text/plain; charset=utf-8", {})
        elif path == "/query":
            self._query()
        elif webhook:
            self._webhook(webhook.group(1))
        elif steps:
            self._steps(unquote(steps.group(1)))
        elif feedback:
            raw = self._read_body()
            if raw is not None:
                self._send_json(*self.server.local.feedback(unquote(feedback.group(1)), raw))
        elif path == "/config.json":
            # "model" is local only: the page shows a badge for the offline model.
            local = self.server.local
            config = {
                "apiUrl": "",
                "currency": local.store_currency,
                "weightUnit": local.store_weight_unit,
                "store": page_settings(local.store.settings),
                "requestTimeoutMs": CLIENT_WAIT_MS,
            }
            self._send_json(HTTPStatus.OK, {**config, "model": local.model.split(":", 1)[0]})
        elif path == f"/{PAGE_NAMES_FILE}":
            self._send_json(HTTPStatus.OK, page_names())
        elif path == "/openapi.json":
            self._send_json(HTTPStatus.OK, openapi())
        elif static is not None:
            self._send_file(static)

    def _api_origin(self, method: str, allowed: tuple[str, ...]) -> bool:
        """Whether the API answers this request's page (``storechat.origins``); if not, the
        403 is sent. An allowed page's answer (and its preflight) carries CORS headers."""
        refused = self.server.origins.refuses(self.headers)
        if refused:
            self._send_json(HTTPStatus.FORBIDDEN, ORIGIN_NOT_ALLOWED.body(refused))
            return False
        origin = self.headers.get("Origin")
        if origin is not None:
            self._cors = {"Access-Control-Allow-Origin": origin, "Vary": "Origin"}
            if method == "OPTIONS":
                self._cors |= {
                    "Access-Control-Allow-Methods": ", ".join(allowed),
                    "Access-Control-Allow-Headers": "Content-Type",
                    "Access-Control-Max-Age": "3600",
                }
        return True

    # -- POST /query ------------------------------------------------------------------------

    def _query(self) -> None:
        raw = self._read_body()
        if raw is None:
            return
        try:
            request = parse_query(raw)
        except RequestRejected as exc:
            self._send_json(HTTPStatus.BAD_REQUEST, INVALID_REQUEST.body(str(exc)))
            return
        try:
            with self.server.admission:
                result = self.server.local.ask(
                    request.message,
                    request.sessionId,
                    timeout_s=ASK_TIMEOUT_S,
                    with_history=False,
                    turn_id=request.turnId,
                )
        except TimeoutError as exc:
            self._log_failure("timed out", str(exc))
            self._send_api_error(TIMEOUT)
            return
        except Exception:  # the shopper gets JSON, the developer the traceback
            self._log_failure("crashed", traceback.format_exc())
            self._send_api_error(CONVERSATION_FAILED)
            return
        if result.status == "SUCCEEDED" and isinstance(result.body, dict):
            self._send_json(HTTPStatus.OK, result.body)
        elif result.status == "TIMED_OUT":
            self._log_failure(result.status, f"{result.error}: {result.cause}")
            self._send_api_error(TIMEOUT)
        else:
            self._log_failure(result.status, f"{result.error}: {result.cause}")
            self._send_api_error(CONVERSATION_FAILED)

    # -- POST /webhooks/{platform} -----------------------------------------------------------

    def body_limit(self) -> int:
        try:
            webhook = self._WEBHOOK.match(urlsplit(self.path).path)
        except ValueError:
            return super().body_limit()
        return WEBHOOK_MAX_BODY_BYTES if webhook else super().body_limit()

    def _webhook(self, platform: str) -> None:
        """The deployed function's answer from the same code (``storechat.local.webhooks``)."""
        raw = self._read_body()
        if raw is None:
            return
        webhooks = self.server.local.webhooks
        if webhooks is None:
            self._send_json(HTTPStatus.NOT_FOUND, NOT_FOUND.body("webhooks are not running"))
            return
        answer = webhooks.receive(platform, dict(self.headers.items()), raw)
        self.server.log_line(f"  webhook {platform}: {answer.status} {answer.body}")
        self._send_json(HTTPStatus(answer.status), answer.body)

    # -- GET /query/{turnId}/steps ----------------------------------------------------------

    def _steps(self, turn_id: str) -> None:
        """The deployed route's answer from the same read: 200 with the turn's live steps
        (none for a wrong, expired or not yet written id alike), 400 for a malformed id."""
        body = self.server.local.steps(turn_id)
        if body is None:
            self._send_json(HTTPStatus.BAD_REQUEST, INVALID_REQUEST.body(MALFORMED_TURN_ID))
            return
        self._send(HTTPStatus.OK, body.encode("utf-8"), "application/json; charset=utf-8", {})

    def _log_failure(self, what: str, detail: str) -> None:
        self.server.log_line(f"  execution {what}: {detail}")

    # -- static files -----------------------------------------------------------------------

    def _static_file(self, path: str) -> Path | None:
        """The file under ``web/`` that ``path`` names, or ``None`` (never one outside it)."""
        return static_files.find(self.server.web_dir, path)

    def _send_file(self, file: Path) -> None:
        content_type = static_files.content_type(file)
        csp = {"Content-Security-Policy": self.server.page_csp}
        headers = csp if file.suffix == ".html" else {}
        self._send(HTTPStatus.OK, file.read_bytes(), content_type, headers)


def make_server(
    local: LocalStorechat,
    host: str = "127.0.0.1",
    port: int = 8000,
    *,
    web_dir: Path = WEB_DIR,
    access_log: TextIO | None = None,
    image_hosts: tuple[str, ...] = (),
) -> StorechatHTTPServer:
    """Bind (only) to ``host:port``; port 0 picks a free port, see ``server.url``.

    ``image_hosts`` (``shared.api.page_policy.image_host`` sources) are where the page may
    load product pictures from.
    """
    return StorechatHTTPServer((host, port), local, web_dir, access_log, image_hosts=image_hosts)


@contextmanager
def running(server: StorechatHTTPServer) -> Iterator[StorechatHTTPServer]:
    """Serve on a background thread for the duration of the block (tests, notebooks)."""
    thread = threading.Thread(target=server.serve_forever, name="storechat-server", daemon=True)
    thread.start()
    try:
        yield server
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=10)


def serve(
    host: str = "127.0.0.1",
    port: int = 8000,
    model: str = "offline",
    data_dir: Path | None = None,
    log_level: str = "ERROR",
    catalog: list[dict[str, Any]] | None = None,
    image_hosts: tuple[str, ...] = (),
    daily_budget_usd: float | None = None,
    store: StoreFile | None = None,
    webhook_secrets: dict[str, str] | None = None,
    store_url: str | None = None,
    search_first: bool = True,
) -> int:
    """Run the dev server until Ctrl-C. Returns the process exit code.

    ``catalog`` is the store's own (``storechat catalog import``); None is the sample.
    ``daily_budget_usd`` is the day's model budget (None: no budget). ``store`` is the
    store's settings (``--store FILE``); None is the sample store's.
    ``webhook_secrets``: each platform's webhook secret (``POST /webhooks/<platform>``);
    ``store_url``: the store's address, which webhook products link to (the store's by default).
    ``search_first``: the catalog search on the shopper's words before the first model call.
    """
    from storechat.local import LocalStorechat

    with LocalStorechat(
        model=model,
        catalog=catalog,
        data_dir=data_dir,
        log_level=log_level,
        daily_budget_usd=daily_budget_usd,
        store=store,
        webhook_secrets=webhook_secrets,
        store_url=store_url,
        search_first=search_first,
    ) as local:
        try:
            server = make_server(local, host, port, access_log=sys.stderr, image_hosts=image_hosts)
        except OSError as exc:
            print(f"error: cannot listen on {host}:{port}: {exc.strerror or exc}", file=sys.stderr)
            return 1
        print(f"storechat serving {server.url} (model: {model}) — Ctrl-C to stop", flush=True)
        print(
            f"  {local.store.settings.name}'s pages can show the chat with "
            f'<script src="{server.url}widget.js" async></script>',
            flush=True,
        )
        for platform in sorted(webhook_secrets or {}):
            print(f"  {platform} webhooks: POST {server.url}webhooks/{platform}", flush=True)
        try:
            server.serve_forever()
        except KeyboardInterrupt:
            print("\nstopped", file=sys.stderr)
        finally:
            server.server_close()
    return 0
