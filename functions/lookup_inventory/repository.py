"""Fresh product records from the catalog table, the source of truth, and the store's
Products API.

The table is read by id (:mod:`shared.catalog_table`, which the response builder reads
too); a failure of it becomes :class:`~shared.errors.CatalogUnavailable`, so the tool
can tell the model the catalog is down instead of crashing the turn.

The Products API has no read by id: the tool shows the snapshot's records then, and
only the indexer reads the API (:class:`HttpCatalog`), whole.
"""

from __future__ import annotations

import time
import urllib.parse
from collections.abc import Callable

from shared.catalog_table import (
    CLIENT_CONFIG,
    MAX_KEYS,
    STOP_RETRYING_S,
    CatalogRead,
    CatalogSource,
    DynamoCatalog,
    Product,
    time_left,
    unavailable_on_failure,
)
from shared.errors import CatalogUnavailable, UpstreamError
from shared.http import get_json

__all__ = [
    "CLIENT_CONFIG",
    "MAX_KEYS",
    "STOP_RETRYING_S",
    "CatalogRead",
    "CatalogSource",
    "DynamoCatalog",
    "HttpCatalog",
    "Product",
    "unavailable_on_failure",
]


class HttpCatalog:
    """Reads the store's existing Products API: ``GET {base}/products?category=...``.

    The API answers in one response, so a read is complete or fails; the deadline
    only shortens the HTTP timeout.
    """

    def __init__(
        self, base_url: str, timeout_s: float, *, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self._base_url = base_url.rstrip("/")
        self._timeout_s = timeout_s
        self._clock = clock

    def products(self, category: str | None, *, deadline_s: float | None = None) -> CatalogRead:
        """Every product (of ``category`` if given)."""
        query = f"?{urllib.parse.urlencode({'category': category})}" if category else ""
        timeout_s = max(0.2, min(self._timeout_s, time_left(deadline_s, self._clock)))
        try:
            body = get_json(
                f"{self._base_url}/products{query}",
                headers={"Accept": "application/json"},
                timeout_s=timeout_s,
            )
        except UpstreamError as exc:
            raise CatalogUnavailable(exc.kind, f"products API: {exc.detail}") from exc
        items = body.get("products", body) if isinstance(body, dict) else body
        if not isinstance(items, list):
            raise CatalogUnavailable("malformed", "products API did not return a list")
        return CatalogRead([item for item in items if isinstance(item, dict)])
