"""The chat page's Content-Security-Policy, declared once for the dev server and the stack.

The page runs its own script and style only, talks to its own origin and the API, and
shows product pictures from the image hosts its environment names (``image_hosts`` in
``cdk.json``; locally ``storechat serve --image-host``) and from no other: a catalog
record cannot make the page fetch from anywhere else.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from urllib.parse import urlsplit

LOCAL_HOSTS = frozenset({"localhost", "127.0.0.1", "::1"})
_HOST = re.compile(r"[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*")


def image_host(value: str) -> str:
    """An image host as a CSP source: ``https://cdn.shopify.com``, ``https://*.wp.com``.

    Only an origin (scheme, host, optional port; a leading ``*.`` for every subdomain),
    https except on this machine. Raises ``ValueError`` saying what a host looks like.
    """
    text = value.strip().rstrip("/")
    parts = urlsplit(text)
    example = "an origin such as https://cdn.shopify.com or https://*.example.com"
    try:
        port = parts.port
    except ValueError:
        raise ValueError(f"{value!r} is not {example}") from None
    wildcard = parts.netloc.startswith("*.")
    host = (parts.hostname or "").lower().removeprefix("*.")
    if (
        parts.scheme not in ("https", "http")
        or not host
        or parts.path
        or parts.query
        or parts.fragment
        or "@" in parts.netloc
        or not (_HOST.fullmatch(host) or host in LOCAL_HOSTS)
    ):
        raise ValueError(f"{value!r} is not {example}")
    if wildcard and "." not in host:
        raise ValueError(f"{value!r} names every host of a top-level domain")
    if parts.scheme == "http" and host not in LOCAL_HOSTS:
        raise ValueError(f"{value!r}: only this machine (localhost) may use http")
    shown = f"[{host}]" if ":" in host else host
    return f"{parts.scheme}://{'*.' if wildcard else ''}{shown}{f':{port}' if port else ''}"


def content_security_policy(*, images: Sequence[str] = (), connect: Sequence[str] = ()) -> str:
    """The page's policy: its own files, ``connect`` (the API) and ``images`` besides."""

    own = "'self'"
    img = " ".join(dict.fromkeys((own, "data:", *images)))
    api = " ".join(dict.fromkeys((own, *connect)))
    return "; ".join(
        (
            "default-src 'self'",
            "script-src 'self'",
            "style-src 'self'",
            f"img-src {img}",
            f"connect-src {api}",
            "base-uri 'none'",
            "form-action 'none'",
            "frame-ancestors 'none'",
        )
    )


def allowed(url: str, hosts: Sequence[str]) -> bool:
    """Whether a picture at ``url`` is one the policy with these image ``hosts`` lets load."""
    parts = urlsplit(url)
    try:
        port = parts.port
    except ValueError:
        return False
    host = (parts.hostname or "").lower()
    for source in hosts:
        allowed_parts = urlsplit(source)
        pattern = (allowed_parts.hostname or "").lower()
        same_host = host == pattern or (
            source.split("://", 1)[-1].startswith("*.") and host.endswith(f".{pattern[2:]}")
        )
        if same_host and parts.scheme == allowed_parts.scheme and port == allowed_parts.port:
            return True
    return False
