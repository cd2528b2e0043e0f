"""A kind of product the sample store lacks is a kind another store may sell.

The offline model tells a shopper "we don't carry tablets" only where the catalog has
none: a store whose own catalog has a tablet (its kind, or its name) gets it offered,
through the real loop, the search going first as deployed.
"""

from __future__ import annotations

from typing import Any

import pytest

from shared.products.catalog_data import load_catalog
from storechat.local import LocalStorechat

TABLET = {
    "productId": "TAB-001",
    "name": "Apple iPad Air 11-inch (M2)",
    "brand": "Apple",
    "category": "COMPUTERS",
    "price": 599.0,
    "stock": 12,
    "specs": {"formFactor": "tablet", "os": "iPadOS 17", "storageGb": 128, "screenInches": 11},
    "description": "The iPad Air with the M2 chip and an 11-inch Liquid Retina display.",
}


def answer(catalog: list[dict[str, Any]], question: str) -> dict[str, Any]:
    with LocalStorechat(catalog=catalog) as local:
        result = local.ask(question, None, with_history=False)
    assert result.status == "SUCCEEDED" and result.body is not None, result.cause
    return result.body


@pytest.mark.parametrize(
    "question", ["Do you sell tablets?", "Do you have an iPad?", "I want a tablet"]
)
def test_a_kind_the_sample_lacks_is_offered_by_a_store_that_sells_it(question: str) -> None:
    # Given a store whose own catalog has a tablet, the kind the sample store lacks
    # When a shopper asks for one, by its kind or by its name
    body = answer([*load_catalog(), TABLET], question)
    # Then it is offered, and never said to be a kind the store does not carry
    assert "don't carry" not in body["answer"], body["answer"]
    assert "[TAB-001]" in body["answer"]
    assert body["products"][0]["productId"] == "TAB-001"


def test_the_sample_store_still_says_it_has_no_tablets() -> None:
    body = answer(load_catalog(), "Do you have an iPad?")
    assert body["answer"].startswith("Sorry, we don't carry tablets."), body["answer"]


def test_a_kind_the_store_sells_is_named_as_the_shopper_named_it() -> None:
    # Given a store whose own catalog has a tablet
    # When a shopper asks for tablets under a budget
    body = answer([*load_catalog(), TABLET], "Which tablets do you have under $700?")
    # Then the answer names them as tablets, not as computers
    assert body["answer"].startswith("Our tablets under $700:"), body["answer"]
    assert "[TAB-001]" in body["answer"]


def test_a_kind_inside_another_is_named_as_asked() -> None:
    # When a shopper of the sample store asks for a 2-in-1, which is a kind of laptop
    body = answer(load_catalog(), "a 2-in-1 under $1500")
    # Then the answer names 2-in-1s, and recommends only 2-in-1s
    assert body["answer"].startswith("Our 2-in-1s under $1,500:"), body["answer"]
    assert {p["specs"].get("formFactor") for p in body["products"]} == {"2-in-1"}
