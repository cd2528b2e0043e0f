"""A small JSON-over-HTTP adapter for the tools that call public APIs.

It turns every way a call can go wrong (timeout, refused connection, 429, 5xx,
a body that is not JSON) into :class:`~shared.errors.UpstreamError` with a
``kind`` the tool can explain to the model. The timeout is what the Lambda has
left minus a margin, so the tool answers before Step Functions gives up on it.
"""

from __future__ import annotations

import gzip
import json
import socket
import urllib.error
import urllib.request
from collections.abc import Callable, Mapping
from typing import Any, Protocol

from shared.errors import UpstreamError

USER_AGENT = "storechat/0.1 (shopping assistant; +https://github.com/storechat/storechat)"
MAX_BODY_BYTES = 2_000_000


class RemainingTime(Protocol):
    def get_remaining_time_in_millis(self) -> int: ...


def timeout_from(context: RemainingTime | None, *, cap_s: float, margin_s: float = 0.5) -> float:
    """Seconds an HTTP call may take: the Lambda's time left less ``margin_s``, capped."""
    if context is None:
        return cap_s
    left = context.get_remaining_time_in_millis() / 1000 - margin_s
    return max(0.2, min(cap_s, left))


Opener = Callable[..., Any]


def get_json(
    url: str,
    *,
    headers: Mapping[str, str],
    timeout_s: float,
    opener: Opener = urllib.request.urlopen,
) -> Any:
    """GET ``url`` and decode its JSON body, or raise :class:`UpstreamError`."""
    request = urllib.request.Request(url, headers={"User-Agent": USER_AGENT, **headers})
    try:
        with opener(request, timeout=timeout_s) as response:
            raw = response.read(MAX_BODY_BYTES + 1)
            encoding = response.headers.get("Content-Encoding", "")
    except urllib.error.HTTPError as exc:
        kind = (
            "rate_limited"
            if exc.code == 429
            else ("unavailable" if exc.code >= 500 else "http_error")
        )
        raise UpstreamError(kind, f"HTTP {exc.code}") from exc
    except TimeoutError as exc:
        raise UpstreamError("timeout", f"no answer within {timeout_s:.1f}s") from exc
    except urllib.error.URLError as exc:
        if isinstance(exc.reason, (TimeoutError, socket.timeout)):
            raise UpstreamError("timeout", f"no answer within {timeout_s:.1f}s") from exc
        raise UpstreamError("unreachable", str(exc.reason)) from exc
    except OSError as exc:
        raise UpstreamError("unreachable", str(exc)) from exc
    if len(raw) > MAX_BODY_BYTES:
        raise UpstreamError("malformed", "response body too large")
    try:
        if encoding == "gzip":
            raw = gzip.decompress(raw)
        return json.loads(raw.decode("utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise UpstreamError("malformed", "response body is not JSON") from exc
