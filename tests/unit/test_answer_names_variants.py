"""A store's variant products do not lend their options or amounts to another product.

A Shopify or WooCommerce store names a variant "<title> - <option>, <option>", so "128 GB",
"Blue" or "Mint" are in its name. What the shopper reads is the answer's text and its
corrections, given a ledger of such products and a model's answer.
"""

from __future__ import annotations

from typing import Any

import pytest

from compose_response.logic import ComposeInput, ResponseBody, compose
from compose_response.names import ProductNames, amount
from shared.products.ledger import products_of

MOTO: dict[str, Any] = {
    "productId": "MOTO G 5G 2024",
    "name": "Motorola moto g 5G (2024)",
    "brand": "Motorola",
    "category": "MOBILE",
    "price": 199.99,
    "stock": 12,
    "specs": {"storageGb": 128, "batteryMah": 5000},
}
IPHONE: dict[str, Any] = {
    "productId": "iphone15-128-black",
    "name": "Apple iPhone 15 - 128 GB, Black",
    "brand": "Apple",
    "category": "MOBILE",
    "price": 729.0,
    "stock": 4,
    "specs": {"storageGb": 128, "color": "Black"},
}
GALAXY_BLUE: dict[str, Any] = {
    "productId": "SM-S721U/128/BLUE",
    "name": "Samsung Galaxy S24 FE - 128 GB / Blue",
    "brand": "Samsung",
    "category": "MOBILE",
    "price": 599.0,
    "stock": 7,
    "specs": {"storageGb": 128, "color": "Blue"},
}
GALAXY_MINT: dict[str, Any] = {
    "productId": "wc-1033",
    "name": "Samsung Galaxy S24 FE - 256 GB, Mint",
    "brand": "Samsung",
    "category": "MOBILE",
    "price": 709.0,
    "stock": 2,
    "specs": {"storageGb": 256, "color": "Mint"},
}
LEDGER = [MOTO, IPHONE, GALAXY_BLUE, GALAXY_MINT]


def shown(answer: str, ledger: list[dict[str, Any]] = LEDGER) -> ResponseBody:
    return compose(
        ComposeInput(sessionId="s-1", outcome="answered", answer=answer, products=ledger)
    )


@pytest.mark.parametrize(
    "answer",
    [
        "Motorola moto g 5G (2024) [MOTO G 5G 2024]: 128 GB storage, 5000 mAh battery, $199.99.",
        "The Motorola moto g 5G (2024) [MOTO G 5G 2024] has 128GB of storage for $199.99.",
        "Motorola moto g 5G (2024) [MOTO G 5G 2024]: GB for GB the cheapest, at $199.99.",
        "Motorola moto g 5G (2024) [MOTO G 5G 2024]: in Mint or Black, 128 GB, $199.99.",
    ],
)
@pytest.mark.parametrize(
    "ledger",
    [LEDGER, [MOTO, IPHONE], [MOTO, GALAXY_MINT]],
    ids=["all", "iphone", "galaxy-mint"],
)
def test_a_true_price_beside_a_variant_whose_name_holds_the_same_amount_stays(
    answer: str, ledger: list[dict[str, Any]]
) -> None:
    # Given a cheap phone stated at its true price, in a sentence that says "128 GB" (or a
    # colour), and variants named "Apple iPhone 15 - 128 GB, Black" and "... - 256 GB, Mint"
    body = shown(answer, ledger)
    # Then the shopper reads the answer as written: no other product's price replaces it
    assert body.answer == answer
    assert body.corrections == []


@pytest.mark.parametrize(
    ("said", "now", "product_id"),
    [
        (
            "The Apple iPhone 15 has 128 GB storage for $199.99.",
            "The Apple iPhone 15 has 128 GB storage for $729.00.",
            "iphone15-128-black",
        ),
        (
            "The Galaxy S24 FE - 256 GB, Mint is just $199.",
            "The Galaxy S24 FE - 256 GB, Mint is just $709.",
            "wc-1033",
        ),
    ],
)
def test_a_variant_named_by_its_title_with_a_wrong_price_is_still_corrected(
    said: str, now: str, product_id: str
) -> None:
    # Given an answer that names a variant by its title (no id), at another price
    body = shown(said)
    # Then the shopper reads the catalog's price, marked as corrected
    assert body.answer == now
    assert [c.productId for c in body.corrections] == [product_id]


@pytest.mark.parametrize(
    "words",
    ["128 GB", "GB", "128GB", "256GB", "1TB", "6.1-inch", "13-inch", "5000 mAh", "16/512", "4K"],
)
def test_amounts_and_units_name_no_product(words: str) -> None:
    # Given products whose names hold amounts and units, and a text made only of them
    names = ProductNames(
        products_of([*LEDGER, {**IPHONE, "productId": "x", "name": "X 6.1-inch 4K 16/512 1TB"}])
    )
    # Then it names nothing
    assert names.find(f"It has {words} and more.") == []


@pytest.mark.parametrize("word", ["Mint", "Blue", "Black"])
def test_a_variants_option_alone_names_no_product(word: str) -> None:
    # Given variants whose options (after " - ") are colours, and an answer saying one
    names = ProductNames(products_of(LEDGER))
    # Then the colour alone names none of them
    assert names.find(f"I'd pick the {word} one.") == []


def test_a_title_with_a_dash_that_is_not_options_still_names_its_product() -> None:
    # Given a product whose name has " - " before words that are no option of it
    sony = {**MOTO, "productId": "SONY", "name": "Sony - WH-1000XM5 Headphones", "brand": "Sony"}
    names = ProductNames(products_of([sony]))
    # Then those words still name it
    assert [f.product_id for f in names.find("The WH-1000XM5 is great.")] == ["SONY"]


@pytest.mark.parametrize(
    ("word", "is_amount"),
    [
        ("128", True),
        ("gb", True),
        ("128gb", True),
        ("6.1-inch", True),
        ("mah", True),
        ("1080p", True),
        ("g14", False),
        ("s24", False),
        ("2a", False),
        ("14-ep0000", False),
        ("11th", False),
    ],
)
def test_what_is_an_amount(word: str, is_amount: bool) -> None:
    assert amount(word) is is_amount


PIXEL_9_PRO_XL: dict[str, Any] = {
    **MOTO,
    "productId": "MOB-017",
    "name": "Google Pixel 9 Pro XL",
    "brand": "Google",
    "price": 1099.0,
}


@pytest.mark.parametrize(
    "said",
    ["The Pixel 10 Pro XL is great.", "the pixel 10 pro xl is great.", "The Pixel 10 XL is great."],
)
def test_the_end_of_another_models_name_names_no_product(said: str) -> None:
    # Given the Pixel 9 Pro XL, and an answer naming a Pixel 10 whose name ends as its does
    names = ProductNames(products_of([PIXEL_9_PRO_XL]))
    # Then "Pro XL" (or "XL") after "Pixel 10" does not name the Pixel 9 Pro XL (before, it
    # did: its card showed, and "It is in stock." after it was read as its stock)
    assert names.find(said) == []


@pytest.mark.parametrize(
    ("said", "found"),
    [
        ("The Pixel 9 Pro XL is great.", "Pixel 9 Pro XL"),
        ("The 2024 Pixel 9 Pro XL is great.", "Pixel 9 Pro XL"),
        ("Buy 2 Pixel 9 Pro XL phones.", "Pixel 9 Pro XL"),
    ],
)
def test_a_name_after_a_number_of_no_name_still_names_its_product(said: str, found: str) -> None:
    names = ProductNames(products_of([PIXEL_9_PRO_XL]))
    assert [said[f.start : f.end] for f in names.find(said)] == [found]
