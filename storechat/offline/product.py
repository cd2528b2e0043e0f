"""One catalog product as the answer reads it from a ``lookup_inventory`` result."""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from typing import Any

from pydantic import ValidationError

from shared.catalog.spec import Spec
from shared.catalog.specs import FORM_FACTOR
from shared.products.ledger import LedgerProduct
from storechat.offline.messages import plain


def to_number(value: Any) -> float | None:
    """A number from a tool's JSON ("$1,299" reads as 1299); booleans and infinities are not."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int | float):
        number = float(value)
    elif isinstance(value, str):
        try:
            number = float(value.replace("$", "").replace(",", "").strip())
        except ValueError:
            return None
    else:
        return None
    return number if math.isfinite(number) else None


@dataclass(frozen=True)
class Listed:
    """One product of a catalog tool's result, at its place in the list: the ledger's own
    record (:class:`~shared.products.ledger.LedgerProduct`), read as an answer quotes it.

    The tool's products are parsed by the one model the response checks the answer
    against, so a record the ledger refuses (no name, a price in words) is one this model
    never recommends either: the response would take the citation out."""

    record: LedgerProduct
    position: int
    category: str
    """The record's, else the one the search named, which the tool then leaves out."""
    was: float | None = None
    """The price before a sale, where the tool says the product is on sale (``sale``)."""

    @classmethod
    def parse(cls, raw: Any, position: int, category: str = "") -> Listed | None:
        try:
            record = LedgerProduct.model_validate(raw)
        except ValidationError:
            return None
        sale = raw.get("sale") if isinstance(raw, dict) else None
        was = to_number(sale.get("was")) if isinstance(sale, dict) else None
        price = to_number(record.price)
        was = was if was is not None and price is not None and was > price else None
        return cls(record, position, record.category or category, was)

    @property
    def product_id(self) -> str:
        return self.record.productId

    @property
    def name(self) -> str:
        return plain(self.record.name, 60)

    @property
    def brand(self) -> str:
        return plain(self.record.brand or "", 40)

    @property
    def price(self) -> float | None:
        return to_number(self.record.price)

    @property
    def stock(self) -> float | None:
        return to_number(self.record.stock)

    @property
    def specs(self) -> dict[str, Any]:
        return self.record.specs or {}

    def spec(self, key: str) -> float | None:
        value = to_number(self.specs.get(key))
        # Desktops report 0 hours of battery: that means "none", not "worst".
        return value if value is not None and value > 0 else None

    def text(self, key: str) -> str:
        value = self.specs.get(key)
        return plain(value, 50) if isinstance(value, str | int | float) else ""

    @property
    def in_stock(self) -> bool:
        return self.stock is None or self.stock > 0

    def amount(self, declared: Spec) -> float | None:
        """The spec's value in its facet's unit: under its key, else under another key
        that means it, in that key's unit (``weightG``: grams)."""
        value = self.spec(declared.key)
        if value is not None or declared.facet is None:
            return value
        for key in self.specs:
            unit = declared.facet.keys.get(re.sub(r"[^a-z0-9]", "", key.lower()))
            if unit is not None and (other := self.spec(key)) is not None:
                return round(other * declared.facet.units.get(unit, 1.0), 6)
        return None


def portable(p: Listed) -> bool:
    return p.text(FORM_FACTOR.key).lower() not in {"desktop", "all-in-one", "tower", "mini pc"}
