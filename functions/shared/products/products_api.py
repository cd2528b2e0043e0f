"""The store's existing Products API, read whole: a source of truth the catalog indexer can
rebuild the search snapshot from, beside the catalog table (:mod:`shared.products.catalog_table`).

The API has no read by id, so the catalog tool never reads it: with this source it shows
the snapshot's records. A failure becomes :class:`~shared.runtime.errors.CatalogUnavailable`.
"""

from __future__ import annotations

import time
import urllib.parse
from collections.abc import Callable

from shared.products.catalog_table import CatalogRead, time_left
from shared.runtime.errors import CatalogUnavailable, FailureKind, UpstreamError
from shared.runtime.http import get_json


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
            body = get_json(f"{self._base_url}/products{query}", timeout_s=timeout_s)
        except UpstreamError as exc:
            raise CatalogUnavailable(exc.kind, f"products API: {exc.detail}") from exc
        items = body.get("products", body) if isinstance(body, dict) else body
        if not isinstance(items, list):
            raise CatalogUnavailable(FailureKind.MALFORMED, "products API did not return a list")
        return CatalogRead([item for item in items if isinstance(item, dict)])
