"""The offline model: a deterministic, clearly labelled stand-in for Bedrock.

It runs only on a laptop, through the local runner; no deployed function imports it.
:mod:`storechat.offline.model` states its contract. The package reads in the order a
request flows through it:

* ``vocabulary``: the shop's words (categories, brands, product lines, systems, forms,
  uses, orders, genres), each declared once and read by both turns;
* ``bounds``: the numbers a shopper states (price, RAM, storage, weight, battery,
  screen, camera), read as the search's bounds, said and checked;
* ``scope``: what the store does not do (service questions, kinds and brands it
  does not sell);
* ``names``, ``subjects`` and ``refer``: a product model, a book or a review subject
  named in a clause, and the products an earlier answer showed;
* ``intent``: what one message asks for, and what a follow-up carries over;
* ``plan``: the tool calls a question needs, in one round, and a second for what
  the first did not find;
* ``messages``: reading the request, its tool results and the failures they report;
* ``product``, ``checks``, ``rank`` and ``facts``: products checked against every
  stated constraint, ranked and described;
* ``named``, ``notes`` and ``answer``: the final answer, written from the tools' results;
* ``usage``: the token and prompt-caching approximation;
* ``model``: :class:`OfflineModel`, the Converse request and response around all of it.
"""

from __future__ import annotations

from typing import Any

from storechat.offline.cache import DEFAULT_STAND_IN
from storechat.offline.model import OFFLINE_MODEL_ID, OfflineModel

__all__ = ["OFFLINE_MODEL_ID", "OfflineModel", "OfflineProvider"]


class OfflineProvider:
    """The Converse Lambda's provider interface over :class:`OfflineModel`."""

    label = "offline"

    def __init__(self, stand_in_for: str = DEFAULT_STAND_IN) -> None:
        self._model = OfflineModel(stand_in_for)

    def converse(
        self, request: dict[str, Any], *, timeout_s: float | None = None
    ) -> dict[str, Any]:
        return self._model.converse(request)
