"""The offline model: a deterministic, clearly labelled stand-in for Bedrock.

It runs only on a laptop, through the local runner; no deployed function imports it.
:mod:`storechat.offline.model` states its contract. The package reads in the order a
request flows through it:

* ``store``: what the store carries (brands, product lines, titles, authors, genres),
  read from the listing of the catalog being served, never from a list in the code;
* ``vocabulary``: the shopper's words for categories, systems, forms, uses and orders,
  each declared once and read by both turns;
* ``bounds``: the numbers a shopper states (the price and each spec with a bound), read
  through the specs' phrases as the search reads them, said and checked; ``money``
  writes amounts in the store's currency;
* ``scope``: what the store does not do (a question about the store itself, read with
  the search first's words for one; kinds it does not sell, read with the search's
  table); a brand or a thing the catalog does not have is the catalog tool's to say
  (``notCarried``);
* ``names``, ``subjects`` and ``refer``: a product model, a book or a review subject
  named in a clause, and the products an earlier answer showed;
* ``intent``: what one message asks for, and what a follow-up carries over;
* ``plan``: the tool calls a question needs, in one round, and a second for what
  the first did not find;
* ``messages``: reading the tool results and the failures they report (a conversation's
  blocks, the shopper's words and the tools on offer are read by ``converse.conversation``,
  as the Converse function and the red team's model read them);
* ``given``: a catalog search the loop ran before the first call, taken as the plan's
  lookup when it serves it;
* ``product``, ``checks``, ``rank`` and ``facts``: products checked against every
  stated constraint and described, in the catalog tool's order;
* ``named``, ``notes`` and ``answer``: the final answer, written from the tools' results;
* ``replies``: the model's own words, for a turn that needs no tool;
* the token and prompt-caching approximation, and the reply in Converse's shape, are
  ``converse.metering``'s, beside the Converse code;
* ``model``: :class:`OfflineModel`, the Converse request and response around all of it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from converse.metering import DEFAULT_STAND_IN
from shared.products.currency import DEFAULT_CURRENCY
from shared.runtime.errors import CatalogUnavailable
from storechat.offline.model import OFFLINE_MODEL_ID, OfflineModel
from storechat.offline.money import priced_in
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
            # No snapshot to read: the model knows no brand, and the catalog tool says why.
            return Store({}, ())

    def converse(
        self, request: dict[str, Any], *, timeout_s: float | None = None
    ) -> dict[str, Any]:
        with priced_in(self._currency):
            return self._model.converse(request)
