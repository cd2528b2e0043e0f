"""Whom the dev server answers: requests to its own address, from its own pages and the
store's.

A page on any site can make a browser send a request to ``127.0.0.1``: a form or a
``text/plain`` ``fetch`` needs no preflight, and with ``--model bedrock`` each question
spends the developer's money. So the dev server answers the API's routes only for a
page on its own origin or one the store allows (the store's ``allowedOrigins``, where
the widget runs), as the deployed API's CORS does, and answers nothing at all to a
request whose ``Host`` is not one of its own names (a site whose DNS name points at
this machine, DNS rebinding). Requests without an ``Origin`` (curl, the CLI's tests) are
not from a page and are answered.
"""

from __future__ import annotations

import ipaddress
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Protocol
from urllib.parse import urlsplit

from shared.store.settings import LOOPBACK_HOSTS

WILDCARD_HOSTS = frozenset({"0.0.0.0", "::", ""})


class Headers(Protocol):
    def get(self, name: str) -> str | None: ...


def _split(authority: str) -> tuple[str, int | None] | None:
    """``host[:port]`` as (lower-case host without brackets, port), or None if malformed."""
    try:
        parts = urlsplit(f"//{authority}")
        return (parts.hostname or "").lower(), parts.port
    except ValueError:
        return None


def _is_ip(host: str) -> bool:
    try:
        ipaddress.ip_address(host)
    except ValueError:
        return False
    return True


@dataclass(frozen=True)
class Origins:
    """The server's own names (bound ``host`` and ``port``) and the store's origins."""

    host: str
    port: int
    allowed: frozenset[str]

    @classmethod
    def of(cls, host: str, port: int, allowed: Iterable[str]) -> Origins:
        return cls(host.lower().strip("[]"), port, frozenset(o.lower() for o in allowed))

    def _own_host(self, host: str) -> bool:
        if self.host in WILDCARD_HOSTS:
            # Bound to every address: any address of this machine, written as one.
            return host == "localhost" or _is_ip(host)
        if self.host in LOOPBACK_HOSTS:
            return host in LOOPBACK_HOSTS
        return host == self.host

    def is_own(self, authority: str | None) -> bool:
        """Whether a ``Host`` header names this server (its port, when it gives one: the
        name is what a rebinding site cannot fake)."""
        split = _split(authority or "")
        if split is None or not split[0]:
            return False
        host, port = split
        return self._own_host(host) and port in (None, self.port)

    def allows(self, origin: str) -> bool:
        """Whether a page on ``origin`` may call the API: this server's own, or the store's."""
        if origin.lower() in self.allowed:
            return True
        parts = urlsplit(origin)
        split = _split(parts.netloc)
        # An origin always names its port unless it is the scheme's own (80).
        return (
            parts.scheme == "http"
            and split is not None
            and self._own_host(split[0])
            and (split[1] or 80) == self.port
        )

    def refuses(self, headers: Headers) -> str | None:
        """Why a request to the API with these headers is refused, or None."""
        origin = headers.get("Origin")
        if origin is not None:
            return None if self.allows(origin) else f"a page on {origin} may not call this API"
        # A browser sends Origin with every cross-origin POST; without one, a request the
        # browser itself calls cross-site is still not a page of ours.
        if headers.get("Sec-Fetch-Site") in ("cross-site", "same-site"):
            return "a page on another site may not call this API"
        return None
