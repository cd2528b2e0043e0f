"""A price said against a product the store carries is a limit at that product's price,
whatever words say it ("cheaper than", "less than ... costs") and whether its name is a
number ("a book cheaper than 1984"); an amount stays an amount, and a name the store does
not carry sets no limit."""

from __future__ import annotations

import copy
from collections.abc import Iterator
from pathlib import Path

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
