"""One rule of "in stock" for every reader of a record: the card's cart link, the search
index and the sync's plan read a product's stock as ``shared.products.stock`` does."""

from __future__ import annotations

from typing import Any

import pytest

from shared.platform.diff import fingerprint
from shared.products import stock
from shared.search.schema import UNCOUNTED_STOCK, document
from shared.store import store_links

RECORDS: list[dict[str, Any]] = [
    {"stock": 3},
    {"stock": 0},
    {"stock": -2},
    {"stock": 2.0},
    {"stock": 0.0},
    {"stock": True},
    {"stock": None},
    {},
    {"stock": 0, "stockTracked": False},
    {"stock": 7, "stockTracked": False},
    {"stock": 4, "stockTracked": True},
]


@pytest.mark.parametrize("record", RECORDS)
def test_the_cart_link_offers_what_the_stock_rule_calls_in_stock(record: dict[str, Any]) -> None:
    # A shopper gets "Add to cart" exactly when the rule says the product can be bought
    # (before: a stock of 2.0, as a JSON catalog may hold it, got no cart link)
    assert store_links.in_stock(record) is stock.in_stock(record)


def test_the_search_index_and_the_plan_read_uncounted_by_the_rule() -> None:
    record = {"productId": "ACC-700", "name": "Charger", "price": 25.0, "category": "COMPUTERS"}
    uncounted = document(record | {"stock": 0, "stockTracked": False})
    assert uncounted is not None and uncounted.stock == UNCOUNTED_STOCK
    counted = document(record | {"stock": 4, "stockTracked": True})
    assert counted is not None and counted.stock == 4
    # What a store team reads of a sync: "not counted", or the count
    assert fingerprint(record | {"stock": 0, "stockTracked": False}).stock == "not counted"
    assert fingerprint(record | {"stock": 4}).stock == 4
