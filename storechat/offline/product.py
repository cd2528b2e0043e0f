"""One catalog product as the answer reads it from a ``lookup_inventory`` result; the
product models a shopper names; amounts of money in the store's currency."""

from __future__ import annotations

import math
import re
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from typing import Any

from pydantic import ValidationError

from shared.catalog.spec import Spec
from shared.catalog.specs import FORM_FACTOR
from shared.products.currency import DEFAULT_CURRENCY, amount
from shared.products.ledger import LedgerProduct
from shared.search.named import Named, line_words, named_in
from shared.search.series import name_words
from storechat.offline.messages import plain
from storechat.offline.store import COMPUTERS, MOBILE, store


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
        # None for a product the store sells uncounted: in stock, with no count to quote.
        return None if self.record.uncounted else to_number(self.record.stock)

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


_PRICED_IN: ContextVar[str] = ContextVar("storechat_offline_currency", default=DEFAULT_CURRENCY)


@contextmanager
def priced_in(currency: str) -> Iterator[None]:
    """Write the amounts of the request being answered in ``currency`` (ISO 4217)."""
    token = _PRICED_IN.set(currency)
    try:
        yield
    finally:
        _PRICED_IN.reset(token)


def money(value: float) -> str:
    """``value`` in the store's currency, as a budget is said: "$800", "€1,299.50",
    "CHF 800" (``shared.products.currency.amount``)."""
    return amount(value, _PRICED_IN.get(), whole=True)


@dataclass(frozen=True)
class ModelName:
    """A specific product the shopper named, such as "Dell XPS 13"."""

    text: str
    brand: str | None
    category: str
    """Its kind; "" when the store's words cannot tell ("the Nokia 3310")."""

    @property
    def full_name(self) -> str:
        if self.brand and not self.text.casefold().startswith(self.brand.casefold()):
            return f"{self.brand} {self.text}"
        return self.text


def find_models(text: str) -> list[ModelName]:
    """Every product model named in ``text``, in order, the store's or not ("the iPhone
    14"), each with the brand and kind of the products of its name, else of its line."""
    return [_model(each) for each in _named_in(text)]


def models_carried(text: str) -> list[str]:
    """The names of the store's own models in ``text``, as the search reads them."""
    return [each.said for each in _named_in(text) if each.carried]


def _named_in(text: str) -> list[Named]:
    shop = store()
    return named_in(text, shop.has_name, shop.is_brand, shop.knows, names_with=shop.names_with)


def _model(named: Named) -> ModelName:
    shop = store()
    title = shop.titled(named.said)
    if title is not None:
        return ModelName(named.said, title.brand, title.category)
    if not named.line:
        return ModelName(named.said, None, "")  # a name the store has no word of
    # A model the store lacks of a line it carries: the line's brand and most usual kind.
    words = line_words(named.said)
    line = next((shop.lines[w] for w in words if w in shop.lines), None)
    title = shop.titled(" ".join(sorted(words)))
    brand = next((b for b in shop.brand_categories if b.casefold() in words), None)
    brand = brand or (line[0] if line else title.brand if title else None)
    kind = line[1] if line else title.category if title else ""
    # "Galaxy Book3" is a laptop of a line of phones, "ROG Phone 7" a phone of gaming laptops.
    said = [w.casefold() for w in named.said.split()[1:]]
    if any(w.startswith("book") for w in said):
        kind = COMPUTERS
    elif "phone" in said:
        kind = MOBILE
    return ModelName(named.said, brand, kind)


# -- a catalog name against the one the shopper wrote -------------------------------------


def extra_words(asked: ModelName, name: str) -> int | None:
    """How many words ``name`` has beyond the asked model's; None if it lacks one of them.

    A part number in brackets must match when the shopper wrote one ("Zenbook 14 OLED
    (UX3405)"), and is no extra word when they did not ("HP 14 Laptop")."""
    brand = (asked.brand or "").casefold()

    def words(text: str, *, brackets: bool = False) -> list[str]:
        return [t for t in name_words(text, brackets=brackets) if t != brand]

    if any(t not in words(name, brackets=True) for t in words(asked.text, brackets=True)):
        return None
    return len(words(name)) - len(words(asked.text))


def matches(model: ModelName, products: list[Listed]) -> list[Listed]:
    """The products that are ``model``: every word of its name, the fewest words besides."""
    scored = [(extra, p) for p in products if (extra := extra_words(model, p.name)) is not None]
    fewest = min((extra for extra, _ in scored), default=0)
    return [p for extra, p in scored if extra == fewest]
