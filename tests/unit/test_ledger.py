"""The ledger is typed: the records a tool found are products, parsed once where they
enter compose_response, and shown to the shopper as the tool returned them."""

from __future__ import annotations

import json
from typing import Any

from compose_response.logic import ComposeInput, compose
from shared.api.contract import Ledger
from shared.products.catalog_data import load_catalog
from shared.products.ledger import LedgerProduct, products_of

SNAPSHOT_RECORD: dict[str, Any] = {
    # What the search snapshot holds of a product: no description, no picture.
    "productId": "CMP-023",
    "name": "HP 14",
    "brand": "HP",
    "category": "COMPUTERS",
    "price": 349,
    "stock": 52,
    "specs": {"ramGb": 8, "weightKg": 1.4, "os": "Windows 11 Home", "touch": False},
}


def answer(text: str, products: list[Any]) -> dict[str, Any]:
    body = compose(
        ComposeInput(sessionId="s-1", outcome="answered", answer=text, products=products)
    )
    return body.model_dump()


def test_a_record_leaves_as_the_tool_returned_it() -> None:
    # Given a record without a description and a whole-number price, and one from the
    # bundled catalog with a store's own extra field
    bundled = {**load_catalog()[0], "warehouse": "north"}
    # When an answer cites both
    out = answer(
        f"The HP 14 [CMP-023] and the {bundled['name']} [{bundled['productId']}].",
        [SNAPSHOT_RECORD, bundled],
    )
    # Then the shopper's cards are those records, byte for byte: the price still 349
    assert json.dumps(out["products"]) == json.dumps([SNAPSHOT_RECORD, bundled])
    assert '"price": 349,' in json.dumps(out["products"][0])


def test_every_product_of_the_bundled_catalog_is_a_ledger_product() -> None:
    records = load_catalog()
    assert [p.model_dump() for p in products_of(records)] == records


def test_a_record_that_is_not_a_product_is_left_out_and_cannot_be_cited() -> None:
    # Given a ledger whose second record has a price that is not a number
    odd = {"productId": "CMP-900", "name": "Mystery laptop", "price": "cheap"}
    # When the answer recommends both
    out = answer(
        "The HP 14 [CMP-023] is light. The Mystery laptop [CMP-900] is a bargain.",
        [SNAPSHOT_RECORD, odd],
    )
    # Then the shopper reads only the sentence about the real product, sees its card alone,
    # and the other citation is reported as one no tool vouched for
    assert out["answer"] == "The HP 14 [CMP-023] is light."
    assert [p["productId"] for p in out["products"]] == ["CMP-023"]
    assert out["unverifiedCitations"] == ["CMP-900"]


def test_what_is_not_a_product_is_refused() -> None:
    refused = [
        "CMP-1",  # not a record at all
        {"name": "No id"},
        {"productId": "bad\u200bid", "name": "An invisible character in the id"},
        {"productId": "  ", "name": "No id but spaces"},
        {"productId": "x" * 256, "name": "An id longer than a SKU may be"},
        {"productId": "CMP-1"},  # no name
        {"productId": "CMP-1", "name": "Negative", "price": -5},
        {"productId": "CMP-1", "name": "True price", "price": True},
        {"productId": "CMP-1", "name": "Sold", "stock": 1.5},
        {"productId": "CMP-1", "name": "Toys", "category": "TOYS"},
        {"productId": "CMP-1", "name": "Specs", "specs": ["ramGb", 8]},
        {"productId": "CMP-1", "name": "Picture", "imageUrl": "javascript:alert(1)"},
    ]
    assert products_of(refused) == []


def test_a_tool_keeps_only_products_in_its_ledger() -> None:
    # Given a tool whose records hold one that is not a product
    ledger = Ledger(products=[SNAPSHOT_RECORD, {"productId": "CMP-2", "name": ""}])
    # Then the ledger it hands the state machine holds the product alone, unchanged
    assert [p.model_dump() for p in ledger.products] == [SNAPSHOT_RECORD]
    assert isinstance(ledger.products[0], LedgerProduct)
