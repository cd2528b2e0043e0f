"""What a model's tokens cost: Bedrock's list prices, declared once.

``shared/data/model_prices.json`` holds, per model, the US dollars per 1,000 input,
output, cache-read and cache-write tokens. Everything that puts a price on tokens
reads it here: the CDK stack (the state machine's daily spend counter and the alarm
at 80 % of the budget), the local runner (the same budget, with the offline model's
tokens priced as the model it stands in for), ``storechat eval`` and the bench.

No AWS imports: the CDK app, the local package and the bench all read it.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

PRICE_LIST_PATH: Final = Path(__file__).parents[1] / "data" / "model_prices.json"

USAGE_PRICE_FIELDS: Final[dict[str, str]] = {
    "inputTokens": "per_1k_input",
    "outputTokens": "per_1k_output",
    "cacheReadInputTokens": "per_1k_cache_read",
    "cacheWriteInputTokens": "per_1k_cache_write",
}
"""Each token count of a Converse ``usage`` (and of the state machine's), and its price."""
OUTPUT_TOKENS: Final = "outputTokens"
"""The one count of a ``usage`` that is the model's reply; the others are what it read."""

GLOBAL_PROFILE_PREFIX: Final = "global."
"""The list holds the global profile's prices (and the model's own, in-Region id's); a
geographic profile (``us.``, ``eu.``, ...) adds the model's ``regional_premium_percent``."""


class PriceListError(ValueError):
    """The price list cannot be read, or does not price a model fully; the message says which."""


@dataclass(frozen=True)
class TokenPrices:
    """One model's list prices, by ``usage`` key, in US dollars per 1,000 tokens."""

    model_id: str
    name: str
    per_1k: Mapping[str, float]

    def cost_usd(self, usage: Mapping[str, Any]) -> float:
        """What ``usage`` (a Converse ``usage`` block) costs at these prices."""
        return sum(float(usage.get(key) or 0) / 1000 * price for key, price in self.per_1k.items())

    def per_million_usd(self) -> dict[str, float]:
        """US dollars per million tokens, by ``usage`` key: tokens times these are
        micro-dollars, which is how the state machine counts a day's spend."""
        return {key: round(price * 1000, 9) for key, price in self.per_1k.items()}

    def dearest_input_per_million_usd(self) -> float:
        """The highest price an input token can be billed at: read plainly, read from the
        prompt cache or written to it (the model decides which, after the call)."""
        per_million = self.per_million_usd()
        return max(per_million[key] for key in USAGE_PRICE_FIELDS if key != OUTPUT_TOKENS)


@functools.cache
def _read(path: Path) -> dict[str, Any]:
    try:
        listed: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise PriceListError(f"the price list {path} cannot be read ({exc})") from exc
    if not isinstance(listed.get("models"), dict):
        raise PriceListError(f'the price list {path} has no "models" table')
    return listed


def price_list(path: Path = PRICE_LIST_PATH) -> dict[str, Any]:
    """The whole list: its date and source, and ``models`` by foundation model id."""
    return _read(path)


def token_prices(model_id: str, path: Path = PRICE_LIST_PATH) -> TokenPrices:
    """The prices of ``model_id`` as it is called: through a cross-Region inference
    profile (``us.``, ``eu.``, ``global.`` ... before the model's own id) or not. The
    list holds the global profile's prices; a geographic profile adds the model's
    ``regional_premium_percent``, so the spend counter counts what Bedrock bills.

    Raises :class:`PriceListError` when the list does not price every kind of token of it.
    """
    models: dict[str, Any] = price_list(path)["models"]
    listed_id = next(
        (known for known in models if model_id == known or model_id.endswith("." + known)), None
    )
    if listed_id is None:
        raise PriceListError(f"{model_id} is not in {path.name}")
    entry = models[listed_id]
    try:
        per_1k = {key: float(entry[field]) for key, field in USAGE_PRICE_FIELDS.items()}
    except (KeyError, TypeError, ValueError) as exc:
        raise PriceListError(f"{path.name} has no full prices for {model_id} ({exc})") from exc
    if any(price < 0 for price in per_1k.values()):
        raise PriceListError(f"{path.name} has a negative price for {model_id}")
    name = str(entry.get("name") or listed_id)
    try:
        premium = float(entry.get("regional_premium_percent") or 0)
    except (TypeError, ValueError) as exc:
        raise PriceListError(f"{path.name}: premium of {model_id} ({exc})") from exc
    if premium < 0:
        raise PriceListError(f"{path.name} has a negative premium for {model_id}")
    profile = model_id[: -len(listed_id)]
    if premium and profile and profile != GLOBAL_PROFILE_PREFIX:
        per_1k = {key: round(price * (1 + premium / 100), 12) for key, price in per_1k.items()}
        name = f"{name} ({profile.rstrip('.')} profile, +{premium:g} %)"
    return TokenPrices(listed_id, name, per_1k)
