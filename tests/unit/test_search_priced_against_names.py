"""A price said against a product the store carries is a limit at that product's price,
whatever words say it ("cheaper than", "less than ... costs") and whether its name is a
number ("a book cheaper than 1984"); an amount stays an amount, and a name the store does
not carry sets no limit."""

from __future__ import annotations

import copy
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from shared.products.catalog_data import load_catalog
from shared.search import SearchIndex, SearchQuery, SearchResult, build_index

CATALOG = load_catalog()
BY_ID = {p["productId"]: p for p in CATALOG}
NINETEEN_84 = next(p for p in CATALOG if p["name"] == "Nineteen Eighty-Four")


def _open(products: list[dict[str, object]], path: Path) -> SearchIndex:
    build_index(products, path)
    return SearchIndex.open(path)


@pytest.fixture(scope="module")
def index(tmp_path_factory: pytest.TempPathFactory) -> Iterator[SearchIndex]:
    opened = _open(CATALOG, tmp_path_factory.mktemp("against") / "catalog.sqlite")
    yield opened
    opened.close()


@pytest.fixture(scope="module")
def in_digits(tmp_path_factory: pytest.TempPathFactory) -> Iterator[SearchIndex]:
    """A store whose catalog writes the title in digits: "1984"."""
    products = copy.deepcopy(CATALOG)
    for product in products:
        if product["productId"] == NINETEEN_84["productId"]:
            product["name"] = "1984"
    opened = _open(products, tmp_path_factory.mktemp("digits") / "catalog.sqlite")
    yield opened
    opened.close()


def search(index: SearchIndex, keywords: str) -> SearchResult:
    return index.search(SearchQuery(keywords=keywords, limit=20))


@pytest.mark.parametrize(
    "words",
    [
        "a book cheaper than 1984",
        "any books cheaper than 1984?",
        "a book for less than 1984 costs",
        "a novel that costs less than 1984",
    ],
)
def test_a_number_that_is_a_title_the_store_carries_is_that_book(
    index: SearchIndex, in_digits: SearchIndex, words: str
) -> None:
    # "a book cheaper than 1984" was books under $1,984: every book, 1984 among them
    price = NINETEEN_84["price"]
    for store in (index, in_digits):  # the title in words, then in digits
        result = search(store, words)
        assert result.understood["maxPrice"] == round(price - 0.01, 2), words
        assert result.products, words
        assert all(h.price is not None and h.price < price for h in result.products), words
        assert NINETEEN_84["productId"] not in result.product_ids
        assert {BY_ID[h.productId]["category"] for h in result.products} == {"BOOKS"}


@pytest.mark.parametrize(
    ("words", "bound", "value"),
    [
        ("a laptop that costs less than the XPS 13", "maxPrice", 1298.99),
        ("a phone for less than the iPhone 15 costs", "maxPrice", 698.99),
        ("something for less than what the Pixel 9 costs", "maxPrice", 798.99),
        ("anything more expensive than 1984", "minPrice", NINETEEN_84["price"] + 0.01),
    ],
)
def test_less_than_a_product_costs_is_a_limit_at_its_price(
    index: SearchIndex, words: str, bound: str, value: float
) -> None:
    # "a laptop that costs less than the XPS 13" showed the XPS 13 itself, at no limit
    result = search(index, words)
    assert result.understood[bound] == round(value, 2), words
    prices = [h.price for h in result.products if h.price is not None]
    assert prices and all(p <= value if bound == "maxPrice" else p >= value for p in prices)


@pytest.mark.parametrize(
    ("words", "amount"),
    [
        ("a phone cheaper than $500", 500),
        ("a laptop under 800", 800),
        ("a laptop cheaper than 800", 800),
        ("a phone for less than 500", 500),
        ("a phone that costs less than 500 dollars", 500),
        ("a book cheaper than 1984 dollars", 1984),
        ("a book cheaper than $1984", 1984),
        ("a book cheaper than 2001", 2001),  # no title of the store's
    ],
)
def test_an_amount_stays_an_amount(index: SearchIndex, words: str, amount: float) -> None:
    assert search(index, words).understood["maxPrice"] == amount, words


def test_weighing_less_than_a_product_is_no_price(index: SearchIndex) -> None:
    result = search(index, "a laptop that weighs less than the MacBook Air")
    assert "maxPrice" not in result.understood
    assert "minPrice" not in result.understood


@pytest.mark.parametrize(
    ("words", "lacked"),
    [
        ("a book cheaper than Dune", "Dune"),
        ("a phone cheaper than the Nokia 3310", "Nokia 3310"),
    ],
)
def test_a_name_the_store_does_not_carry_sets_no_limit_and_is_said_not_carried(
    index: SearchIndex, words: str, lacked: str
) -> None:
    # No price is invented for it, and the model is told the store does not carry it
    result = search(index, words)
    assert "maxPrice" not in result.understood
    assert lacked in result.not_carried


# ------------------------------------------------------------ a name of several variants


def _variant(product: dict[str, Any], name: str, product_id: str, price: float) -> dict[str, Any]:
    return {**product, "productId": product_id, "name": name, "price": price}


BOOK = next(p for p in CATALOG if p["category"] == "BOOKS")
HOBBIT = next(p for p in CATALOG if p["name"] == "The Hobbit")
DUNE = {
    **BOOK,
    "brand": "Ace",
    "description": "On the desert planet Arrakis, Paul Atreides and the spice.",
    "specs": {**BOOK["specs"], "author": "Frank Herbert", "genre": "Science Fiction"},
}
IPAD = {
    "brand": "Apple",
    "category": "COMPUTERS",
    "stock": 5,
    "description": "A 10.9-inch tablet with the A14 chip and all-day battery.",
    "specs": {"formFactor": "tablet", "os": "iPadOS", "screenInches": 10.9},
}
VARIANTS = [
    # A store's own export: each variant a product, named "<title> - <options>"
    _variant(DUNE, "Dune - Paperback", "DUNE-PB", 9.99),
    _variant(DUNE, "Dune - Hardcover", "DUNE-HC", 24.99),
    _variant(HOBBIT, "The Hobbit - Paperback", "HOB-PB", 10.99),
    _variant(HOBBIT, "The Hobbit - Hardcover", "HOB-HC", 21.99),
    _variant(NINETEEN_84, "1984 - Paperback", "1984-PB", 9.99),
    _variant(NINETEEN_84, "1984 - Hardcover", "1984-HC", 19.99),
    _variant(IPAD, "iPad - 64 GB / Blue", "IPAD-64", 349.0),
    _variant(IPAD, "iPad - 256 GB", "IPAD-256", 499.0),
    _variant(IPAD, "iPad mini - 128 GB", "IPAD-MINI", 299.0),
    # The same model's variants, their options of more words or fewer
    _variant(IPAD, "iPad Pro - 256 GB / Space Black", "IPAD-PRO-256", 999.0),
    _variant(IPAD, "iPad Pro - 1 TB", "IPAD-PRO-1TB", 1599.0),
]
VARIANT_IDS = {
    "Dune": {"DUNE-PB", "DUNE-HC"},
    "The Hobbit": {"HOB-PB", "HOB-HC"},
    "1984": {"1984-PB", "1984-HC"},
    "the iPad": {"IPAD-64", "IPAD-256"},
    "the iPad Pro": {"IPAD-PRO-256", "IPAD-PRO-1TB"},
}


@pytest.fixture(scope="module")
def variants(tmp_path_factory: pytest.TempPathFactory) -> Iterator[SearchIndex]:
    """The sample store, its Hobbit and Nineteen Eighty-Four sold as variants, with Dune
    and iPads in variants too."""
    replaced = {HOBBIT["productId"], NINETEEN_84["productId"]}
    products = [p for p in CATALOG if p["productId"] not in replaced] + VARIANTS
    opened = _open(products, tmp_path_factory.mktemp("variants") / "catalog.sqlite")
    yield opened
    opened.close()


@pytest.mark.parametrize(
    ("words", "name", "kind", "bound", "value"),
    [
        ("a book cheaper than Dune", "Dune", "BOOKS", "maxPrice", 9.98),
        ("anything cheaper than Dune?", "Dune", "BOOKS", "maxPrice", 9.98),
        ("a book that costs less than The Hobbit", "The Hobbit", "BOOKS", "maxPrice", 10.98),
        ("a book cheaper than 1984", "1984", "BOOKS", "maxPrice", 9.98),
        ("something cheaper than the iPad", "the iPad", "COMPUTERS", "maxPrice", 348.99),
        ("something more expensive than the iPad", "the iPad", "COMPUTERS", "minPrice", 499.01),
        ("anything cheaper than the iPad Pro?", "the iPad Pro", "COMPUTERS", "maxPrice", 998.99),
    ],
)
def test_a_name_of_several_variants_is_a_limit_past_all_of_them(
    variants: SearchIndex, words: str, name: str, kind: str, bound: str, value: float
) -> None:
    # Given a store that sells a title or a model as several products, one per option
    # When a shopper asks for something priced against it by its name alone
    result = search(variants, words)
    # Then the limit is below the cheapest of them (or above the dearest), read as the
    # limit and the kind, as for one product; before, "a book cheaper than Dune" set no
    # limit and listed both Dunes, and "cheaper than the iPad Pro" was under the 1 TB's
    # price alone (its options have the fewest words), so the 256 GB Pro stood among them
    assert result.understood == {"category": kind, bound: value}, words
    assert not result.relaxed and not result.not_carried, words
    prices = [h.price for h in result.products if h.price is not None]
    assert prices and all(p <= value if bound == "maxPrice" else p >= value for p in prices)
    # And none of the products the name is stands among those found
    assert not VARIANT_IDS[name] & set(result.product_ids), words


def test_a_variants_name_is_theirs_not_a_lines(variants: SearchIndex) -> None:
    # Given iPads of three models: the iPad in two variants, the iPad mini and the iPad Pro
    # When a shopper asks for a tablet cheaper than the iPad
    result = search(variants, "a tablet cheaper than the iPad")
    # Then the iPad mini, cheaper than either iPad, is found: the name is the iPad's
    # variants, not every iPad
    assert result.understood["maxPrice"] == 348.99
    assert "IPAD-MINI" in result.product_ids


@pytest.mark.parametrize(
    ("words", "amount"),
    [
        ("a book cheaper than 2001", 2001),  # no title of the store's
        ("a book cheaper than $1984", 1984),
        ("a book cheaper than 1984 dollars", 1984),
    ],
)
def test_beside_variants_an_amount_stays_an_amount(
    variants: SearchIndex, words: str, amount: float
) -> None:
    assert search(variants, words).understood["maxPrice"] == amount, words


@pytest.mark.parametrize(
    ("words", "lacked"),
    [("a book cheaper than Neuromancer", "Neuromancer"), ("a book cheaper than Apple", None)],
)
def test_beside_variants_a_name_not_carried_sets_no_limit(
    variants: SearchIndex, words: str, lacked: str | None
) -> None:
    # A maker's name is no product's, whatever products are named after it ("Apple iPad")
    result = search(variants, words)
    assert "maxPrice" not in result.understood
    assert lacked is None or lacked in result.not_carried
