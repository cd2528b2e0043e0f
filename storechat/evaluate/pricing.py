"""What a question's tokens cost at list prices, from the benchmark's price list.

The prices are declared once, in ``bench/prices.json`` (per 1,000 input, output,
cache-read and cache-write tokens, per model). The offline and replay models have no
price of their own: their token counts are priced as the model they stand in for
(``storechat.offline.cache.DEFAULT_STAND_IN``, Claude Sonnet 4.5), and the report says so.
A model the list does not hold, or a missing list, gives no cost rather than a guess.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from converse.settings import DEFAULT_BEDROCK_MODEL
from storechat.evaluate.questions import REPO_ROOT
from storechat.offline.cache import DEFAULT_STAND_IN

PRICES_PATH = REPO_ROOT / "bench" / "prices.json"

_PER_1K = {
    "inputTokens": "per_1k_input",
    "outputTokens": "per_1k_output",
    "cacheReadInputTokens": "per_1k_cache_read",
    "cacheWriteInputTokens": "per_1k_cache_write",
}


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


def pricing_for(model: str, path: Path = PRICES_PATH) -> Pricing:
    """The prices for ``--model``'s tokens (``offline``, ``replay:PATH``, ``bedrock[:ID]``)."""
    kind, _, given = model.partition(":")
    stand_in = kind in ("offline", "replay")
    model_id = DEFAULT_STAND_IN if stand_in else (given or DEFAULT_BEDROCK_MODEL)
    try:
        prices: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
        listed: dict[str, Any] = prices["models"]
    except (OSError, ValueError, KeyError, TypeError):
        return Pricing(model_id, None, f"no cost: the price list {path} cannot be read")
    entry = _entry(listed, model_id)
    if entry is None:
        return Pricing(model_id, None, f"no cost: {model_id} is not in {path.name}")
    try:
        per_1k = {key: float(entry[field]) for key, field in _PER_1K.items()}
    except (KeyError, TypeError, ValueError):
        return Pricing(model_id, None, f"no cost: {path.name} has no full prices for {model_id}")
    name = str(entry.get("name") or model_id)
    taken = f", taken {prices['taken']}" if prices.get("taken") else ""
    if stand_in:
        note = (
            f"{kind} model: its token counts priced at {name} list prices, the model it "
            f"stands in for ({path.name}{taken})"
        )
    else:
        note = f"{name} list prices ({path.name}{taken})"
    return Pricing(model_id, name, note, per_1k)


def _entry(listed: dict[str, Any], model_id: str) -> dict[str, Any] | None:
    """The list's entry for ``model_id``, also when it is called through an inference
    profile (``us.``, ``eu.``, ``global.`` ... before the model's own id)."""
    for listed_id, entry in listed.items():
        if model_id == listed_id or model_id.endswith("." + listed_id):
            return entry if isinstance(entry, dict) else None
    return None
