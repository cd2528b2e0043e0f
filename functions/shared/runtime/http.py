"""A small JSON-over-HTTP adapter for the tools that call public APIs.

It turns every way a call can go wrong (timeout, refused connection, 429, 5xx,
a body that is not JSON) into :class:`~shared.runtime.errors.UpstreamError` with a
``kind`` the tool can explain to the model. The timeout is what the Lambda has
left minus a margin, so the tool answers before Step Functions gives up on it.

urllib's own timeout bounds each socket operation, not the call: a server that
sends a byte every second would keep ``read()`` going for as long as it likes.
So the body is read in chunks against one deadline for the whole call.
"""

from __future__ import annotations

import gzip
import json
import socket
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Mapping
from typing import Any, Protocol

from shared.runtime.errors import FailureKind, UpstreamError

USER_AGENT = "storechat/0.1 (shopping assistant; +https://github.com/storechat/storechat)"
MAX_BODY_BYTES = 2_000_000
CHUNK_BYTES = 16 * 1024


class RemainingTime(Protocol):
    def get_remaining_time_in_millis(self) -> int: ...


MARGIN_S = 0.5
"""What a tool keeps of its time to answer after its HTTP call gives up."""


def timeout_from(
    context: RemainingTime | None, *, cap_s: float, margin_s: float = MARGIN_S
) -> float:
    """Seconds an HTTP call may take: the Lambda's time left less ``margin_s``, capped."""
    if context is None:
        return cap_s
    left = context.get_remaining_time_in_millis() / 1000 - margin_s
    return max(0.2, min(cap_s, left))


Opener = Callable[..., Any]


def get_json(
    url: str,
    *,
    headers: Mapping[str, str] | None = None,
    timeout_s: float,
    opener: Opener = urllib.request.urlopen,
) -> Any:
    """GET ``url`` and decode its JSON body, or raise :class:`UpstreamError`. ``headers``
    add to (or replace) the storechat User-Agent and ``Accept: application/json``."""
    request = urllib.request.Request(
        url, headers={"User-Agent": USER_AGENT, "Accept": "application/json", **(headers or {})}
    )
    deadline = time.monotonic() + timeout_s
    try:
        with opener(request, timeout=timeout_s) as response:
            raw = _read_body(response, deadline, timeout_s)
            encoding = response.headers.get("Content-Encoding", "")
    except urllib.error.HTTPError as exc:
        kind = (
            FailureKind.RATE_LIMITED
            if exc.code == 429
            else (FailureKind.UNAVAILABLE if exc.code >= 500 else FailureKind.HTTP_ERROR)
        )
        raise UpstreamError(kind, f"HTTP {exc.code}") from exc
    except TimeoutError as exc:
        raise UpstreamError(FailureKind.TIMEOUT, f"no answer within {timeout_s:.1f}s") from exc
    except urllib.error.URLError as exc:
        if isinstance(exc.reason, (TimeoutError, socket.timeout)):
            raise UpstreamError(FailureKind.TIMEOUT, f"no answer within {timeout_s:.1f}s") from exc
        raise UpstreamError(FailureKind.UNREACHABLE, str(exc.reason)) from exc
    except OSError as exc:
        raise UpstreamError(FailureKind.UNREACHABLE, str(exc)) from exc
    try:
        if encoding == "gzip":
            raw = gzip.decompress(raw)
        return json.loads(raw.decode("utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise UpstreamError(FailureKind.MALFORMED, "response body is not JSON") from exc


def get_json_list(
    url: str,
    *,
    at: tuple[str, ...],
    limit: int,
    headers: Mapping[str, str] | None = None,
    timeout_s: float,
    opener: Opener = urllib.request.urlopen,
) -> list[dict[str, Any]]:
    """The first ``limit`` objects in the list at the keys ``at`` of ``url``'s JSON
    (``("web", "results")`` is ``body["web"]["results"]``); raises :class:`UpstreamError`,
    ``malformed`` when there is no such list. An item that is not an object is left out."""
    found = get_json(url, headers=headers, timeout_s=timeout_s, opener=opener)
    for key in at:
        found = found.get(key) if isinstance(found, dict) else None
    if not isinstance(found, list):
        raise UpstreamError(FailureKind.MALFORMED, f"response has no {'.'.join(at)} list")
    return [item for item in found if isinstance(item, dict)][:limit]


def _read_body(response: Any, deadline: float, timeout_s: float) -> bytes:
    """The body, read in chunks until EOF; :class:`UpstreamError` past ``deadline`` or the cap.

    ``read1`` returns whatever has arrived (at most one socket read), where
    ``read(n)`` would wait for all ``n`` bytes however slowly they come.
    """
    read = getattr(response, "read1", None) or response.read
    chunks: list[bytes] = []
    size = 0
    while True:
        left = deadline - time.monotonic()
        if left <= 0:
            raise UpstreamError(FailureKind.TIMEOUT, f"no complete answer within {timeout_s:.1f}s")
        _narrow_socket_timeout(response, left)
        chunk = read(CHUNK_BYTES)
        if not chunk:
            return b"".join(chunks)
        size += len(chunk)
        if size > MAX_BODY_BYTES:
            raise UpstreamError(FailureKind.MALFORMED, "response body too large")
        chunks.append(chunk)


def _narrow_socket_timeout(response: Any, seconds: float) -> None:
    """Let one socket read wait only for what is left of the deadline, where reachable.

    Without this a server that stalls just before the deadline would hold the call
    for one more full per-operation timeout. Best effort: a response that is not
    backed by a plain socket keeps the timeout it was opened with.
    """
    sock = getattr(getattr(getattr(response, "fp", None), "raw", None), "_sock", None)
    if isinstance(sock, socket.socket):
        sock.settimeout(max(seconds, 0.01))
