"""The offline model: a deterministic, clearly labelled stand-in for Bedrock.

It runs only on a laptop, through the local runner; no deployed function imports it.
:mod:`storechat.offline.model` states its contract. In the order a request flows:
``store`` (what the store carries, the shopper's words); ``product`` (a product, a
model's name, money); ``intent`` (what a message asks and points at); ``plan``
(the tool calls); ``messages``/``given`` (the tool results); ``checks``, ``answer`` and
``notes`` (the answer); ``model``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from converse.metering import DEFAULT_STAND_IN
from shared.products.currency import DEFAULT_CURRENCY
from shared.runtime.errors import CatalogUnavailable
from storechat.offline.model import OFFLINE_MODEL_ID, OfflineModel
from storechat.offline.product import priced_in
from storechat.offline.store import Listing, Store, store_of

__all__ = ["OFFLINE_MODEL_ID", "OfflineModel", "OfflineProvider"]


class OfflineProvider:
    """The Converse Lambda's provider interface over :class:`OfflineModel`."""

    label = "offline"

    def __init__(
        self,
        stand_in_for: str = DEFAULT_STAND_IN,
        listing: Callable[[], Listing] | None = None,
        currency: str = DEFAULT_CURRENCY,
    ) -> None:
        """``listing``: the listing of the snapshot the catalog tool searches right now;
        ``currency``: the store's (``STORE_CURRENCY``), which the answers write amounts in."""
        self._listing = listing
        self._currency = currency
        self._model = OfflineModel(stand_in_for, self._store if listing else None)

    def _store(self) -> Store:
        assert self._listing is not None
        try:
            return store_of(self._listing())
        except CatalogUnavailable:
            # No snapshot: the model knows no brand, and the catalog tool says why.
            return Store({}, ())

    def converse(
        self, request: dict[str, Any], *, timeout_s: float | None = None
    ) -> dict[str, Any]:
        with priced_in(self._currency):
            return self._model.converse(request)
