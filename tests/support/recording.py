"""A model provider that keeps a copy of every Converse request it is given."""

from __future__ import annotations

import copy
from typing import Any


class Recording:
    """Wraps a provider; ``requests`` holds each request as the provider received it."""

    label = "replay"

    def __init__(self, inner: Any) -> None:
        self.inner = inner
        self.requests: list[dict[str, Any]] = []

    def converse(self, request: dict[str, Any], *, timeout_s: float | None = None) -> Any:
        self.requests.append(copy.deepcopy(request))
        return self.inner.converse(request, timeout_s=timeout_s)
