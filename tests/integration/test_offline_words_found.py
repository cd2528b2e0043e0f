"""A store's own catalog has products no kind names ("cookbooks", tagged so): asked
"any cookbooks?", the offline model shows what the catalog search found for those
words, in either mode, instead of asking back whether the shopper wants a computer, a
phone or a book. Words the catalog has nothing for, greetings and thanks are answered
as before.
"""

from __future__ import annotations

from typing import Any

import pytest

from storechat.local import LocalStorechat

ASK_BACK = "I'm not sure what you're looking for."

COOKBOOK: dict[str, Any] = {
    "productId": "9781607748915",
    "name": "Café Cooking: 100 Recipes",
    "brand": "Ten Speed",
    "category": "BOOKS",
    "price": 30.0,
    "stock": 4,
    "description": "Recipes from Parisian cafés.",
    "specs": {"author": "Claire Dupont"},
    "tags": ["cookbook", "cooking"],
}
NOVEL: dict[str, Any] = {
    "productId": "BK-1",
    "name": "The Quiet Harbour",
    "brand": "Northwind Press",
    "category": "BOOKS",
    "price": 12.0,
    "stock": 6,
    "description": "A novel of a fishing town.",
    "specs": {"author": "Ann Lowe"},
    "tags": ["fiction"],
}
LAPTOP: dict[str, Any] = {
    "productId": "LT-1",
    "name": "Aero 14 Laptop",
    "brand": "Aero",
    "category": "COMPUTERS",
    "price": 899.0,
    "stock": 3,
    "description": "14-inch laptop, 16 GB memory, Windows 11.",
    "specs": {"formFactor": "laptop", "storageGb": 512},
    "tags": ["windows"],
}
CATALOG = [COOKBOOK, NOVEL, LAPTOP]


def answered(search_first: bool, *questions: str) -> list[tuple[str, list[str]]]:
    """Each question's answer text and the products it shows."""
    out = []
    with LocalStorechat(catalog=CATALOG, search_first=search_first) as local:
        for question in questions:
            result = local.ask(question, None, with_history=False)
            assert result.status == "SUCCEEDED" and result.body is not None, result.cause
            body = result.body
            out.append((body["answer"], [p["productId"] for p in body["products"]]))
    return out


@pytest.mark.parametrize("search_first", [True, False])
def test_words_the_catalog_finds_are_answered_with_what_it_found(search_first: bool) -> None:
    # Given a store whose one cookbook is a book tagged "cookbook", beside a novel and a laptop
    # When a shopper asks for cookbooks, then for kayaks, then says hi and thanks
    (cook, cook_shown), (kayak, _), (hi, hi_shown), (thanks, _) = answered(
        search_first, "any cookbooks?", "any kayaks?", "hi", "thanks"
    )

    # Then the cookbook is shown as what the store has for "cookbooks", not a question back
    assert cook.startswith("What we have for “cookbooks”:\n1. Café Cooking: 100 Recipes"), cook
    assert ASK_BACK not in cook
    assert cook_shown == ["9781607748915"]
    # and words the catalog has nothing for are still not answered with products
    assert "Café Cooking" not in kayak and "Aero" not in kayak, kayak
    # and a greeting or thanks is no search
    assert hi.startswith("Hi! I'm the store's shopping assistant."), hi
    assert hi_shown == []
    assert thanks.startswith("You're welcome!"), thanks
