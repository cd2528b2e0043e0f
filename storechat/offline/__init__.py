"""The offline model: a deterministic, clearly labelled stand-in for Bedrock.

It runs only on a laptop, through the local runner; no deployed function imports it.
:mod:`storechat.offline.model` states its contract. The package reads in the order a
request flows through it:

* ``vocabulary``: the shop's words (categories, brands, product lines, systems, uses,
  orders, genres), each declared once and read by both turns;
* ``names`` and ``subjects``: a product model, a book or a review subject named in a clause;
* ``intent``: what one message asks for, and what a follow-up carries over;
* ``plan``: turn 1, the tool calls an intent needs;
* ``messages``: reading the request, its tool results and the failures they report;
* ``rank`` and ``facts``: products filtered, ranked and described;
* ``answer``: turn 2, the answer written from the tools' results;
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
