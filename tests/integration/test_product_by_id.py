"""A product asked for by its id, in the shopper's words, through the whole local loop
with the offline model, whichever goes first: the model or the search on the words."""

from __future__ import annotations

from typing import Any

import pytest

from shared.products.catalog_data import load_catalog
from storechat.local import LocalStorechat

CATALOG = {p["productId"]: p for p in load_catalog()}


def ask(local: LocalStorechat, question: str) -> dict[str, Any]:
    result = local.ask(question, None, with_history=False)
    assert result.status == "SUCCEEDED" and result.body is not None, result.cause
    return result.body


def shown(body: dict[str, Any]) -> list[str]:
    return [p["productId"] for p in body["products"]]


@pytest.mark.parametrize("search_first", [False, True])
def test_a_product_asked_by_its_id_is_the_answer_and_an_id_the_store_lacks_is_said_so(
    search_first: bool,
) -> None:
    with LocalStorechat(search_first=search_first) as system:
        # Given a shopper who copies a product's id, in another case
        found = ask(system, "is cmp-001 in stock?")
        # And one who writes an id of the store's shape that no product has
        lacked = ask(system, "what's the price of CMP-999?")

    # Then the product of that id is the answer, with its price
    assert shown(found)[:1] == ["CMP-001"]
    assert f"${CATALOG['CMP-001']['price']:,.0f}" in found["answer"]
    assert found["outcome"] == "answered" and found["corrections"] == []
    # And the shopper is told the store has no such product, shown none
    assert lacked["answer"].startswith("Sorry, we don't carry CMP-999.")
    assert shown(lacked) == []
