"""Whether a product is in stock: the one rule every reader of a record uses.

A record's ``stock`` is the units the store counts. A store may sell a product without
counting it (WooCommerce's "Manage stock?" off with "In stock", Shopify's inventory not
tracked): its record says ``"stockTracked": false``, and it is in stock, with no count a
shopper may be told. A record without the field (every catalog written before it) is
counted. No AWS or pydantic imports: the search and the page's tools read it per product.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

TRACKED: Final = "stockTracked"
"""The record's field that says whether the store counts the product's stock."""
UNCOUNTED_NOTE: Final = "in stock (the store does not count it)"
"""What a check or a log says of an uncounted product's stock."""


def counted(record: Mapping[str, Any]) -> bool:
    """Whether the store counts ``record``'s stock: true unless it says it does not."""
    return record.get(TRACKED) is not False


def stock_count(record: Mapping[str, Any]) -> float | None:
    """The units ``record`` says the store has; None when uncounted or not a number."""
    stock = record.get("stock")
    if not counted(record) or isinstance(stock, bool) or not isinstance(stock, int | float):
        return None
    return stock


def in_stock(record: Mapping[str, Any]) -> bool:
    """Whether ``record``'s product can be bought now: a count above 0, or not counted."""
    if not counted(record):
        return True
    count = stock_count(record)
    return count is not None and count > 0


def sold_out(record: Mapping[str, Any]) -> bool:
    """Whether the record says the product cannot be bought now: a count of none (not a
    stock the record does not give, nor one the store does not count)."""
    count = stock_count(record)
    return count is not None and count <= 0
