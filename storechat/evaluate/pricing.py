"""What a question's tokens cost at list prices, from the one price list.

The prices are declared once, in ``shared.config.pricing`` (per 1,000 input, output,
cache-read and cache-write tokens, per model). The offline and replay models have no
price of their own: their token counts are priced as the model they stand in for
(``converse.metering.DEFAULT_STAND_IN``, Claude Sonnet 4.5), and the report says so.
A model the list does not hold, or a missing list, gives no cost rather than a guess.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from shared.config.pricing import PRICE_LIST_PATH, PriceListError, price_list, token_prices
from storechat.local.environment import priced_model


@dataclass(frozen=True)
class Pricing:
    """The list prices one run's tokens are charged at, and what the report says of them."""

    model_id: str | None
    name: str | None
    note: str
    per_1k: dict[str, float] | None = None

    def cost(self, usage: dict[str, Any]) -> float | None:
        if self.per_1k is None:
            return None
        return sum(float(usage.get(key) or 0) / 1000 * price for key, price in self.per_1k.items())

    def as_json(self) -> dict[str, Any]:
        return {"modelId": self.model_id, "name": self.name, "note": self.note}


def pricing_for(model: str, path: Path = PRICE_LIST_PATH) -> Pricing:
    """The prices for ``--model``'s tokens (``offline``, ``replay:PATH``, ``bedrock[:ID]``)."""
    model_id, stand_in = priced_model(model)
    try:
        prices = token_prices(model_id, path)
        taken_on = price_list(path).get("taken")
    except PriceListError as exc:
        return Pricing(model_id, None, f"no cost: {exc}")
    taken = f", taken {taken_on}" if taken_on else ""
    if stand_in:
        kind = model.partition(":")[0]
        note = (
            f"{kind} model: its token counts priced at {prices.name} list prices, the model it "
            f"stands in for ({path.name}{taken})"
        )
    else:
        note = f"{prices.name} list prices ({path.name}{taken})"
    return Pricing(model_id, prices.name, note, dict(prices.per_1k))
