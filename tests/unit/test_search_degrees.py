"""How much or how often a shopper says something is done ("my dad reads a lot", "on it
all the time") is no word to search: it neither narrows the products nor is said to
have matched nothing; but a phrase that stands in a product's name is searched."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from shared.products.catalog_data import load_catalog
from shared.search import SearchIndex, SearchQuery, SearchResult, build_index
from shared.search.words import degrees_said

CATALOG = load_catalog()

LOTS_OF_LOVE = {
    "productId": "BK-900",
    "name": "Lots of Love",
    "brand": "Penguin Books",
    "category": "BOOKS",
    "price": 9.99,
    "stock": 3,
    "specs": {"author": "A. Writer", "year": 2001},
    "description": "Letters between two friends.",
}

EVERY_DAY = {
    "productId": "BK-901",
    "name": "Every Day",
    "brand": "Penguin Books",
    "category": "BOOKS",
    "price": 10.99,
    "stock": 3,
    "specs": {"author": "D. Levithan", "year": 2012},
    "description": "A novel of waking up in another body each morning.",
}


def _open(products: list[dict[str, Any]], path: Path) -> SearchIndex:
    build_index(products, path)
    return SearchIndex.open(path)


@pytest.fixture(scope="module")
def index(tmp_path_factory: pytest.TempPathFactory) -> Iterator[SearchIndex]:
    opened = _open(CATALOG, tmp_path_factory.mktemp("degrees") / "catalog.sqlite")
    yield opened
    opened.close()


@pytest.fixture(scope="module")
def titled(tmp_path_factory: pytest.TempPathFactory) -> Iterator[SearchIndex]:
    products = [*CATALOG, EVERY_DAY, LOTS_OF_LOVE]
    opened = _open(products, tmp_path_factory.mktemp("titled") / "catalog.sqlite")
    yield opened
    opened.close()


def search(index: SearchIndex, keywords: str) -> SearchResult:
    return index.search(SearchQuery(keywords=keywords, limit=5))


@pytest.mark.parametrize(
    ("words", "category"),
    [
        ("something for my dad who reads a lot", "BOOKS"),
        ("a book for my mum, she reads lots", "BOOKS"),
        ("a laptop for my son, he is on it all the time", "COMPUTERS"),
        ("a phone I use heavily every day", "MOBILE"),
        ("a laptop I travel with constantly", "COMPUTERS"),
        ("a book for my dad, he reads a whole bunch", "BOOKS"),
    ],
)
def test_a_degree_said_is_no_word_to_search(index: SearchIndex, words: str, category: str) -> None:
    # Given the sample store
    # When the shopper says how much or how often the product is used
    result = search(index, words)
    # Then the kind's products are found without letting any words go ("Nothing in the
    # catalog matched 'lot'" was the answer), and no such word is searched or unknown
    assert result.products
    assert result.understood.get("category") == category
    assert "keywords" not in result.relaxed
    said = {"lot", "lots", "time", "heavily", "every", "day", "constantly", "bunch", "whole"}
    assert not said & set(result.understood.get("searched") or [])
    assert not said & set(result.unknown)


@pytest.mark.parametrize(
    ("words", "found"),
    [("do you have Lots of Love?", "BK-900"), ("is Every Day in stock?", "BK-901")],
)
def test_a_degree_in_a_product_name_is_searched(
    titled: SearchIndex, words: str, found: str
) -> None:
    # Given a store with a book titled with such a phrase
    # When the shopper asks for it by name
    result = search(titled, words)
    # Then that book is found first
    assert result.product_ids[:1] == [found]


@pytest.mark.parametrize(
    ("words", "said"),
    [
        ("a phone with a lot of storage", []),  # a quantity, which the phrase table reads
        ("a laptop for everyday use", []),
        ("my son games all the time, every day", ["all the time", "every day"]),
        ("she reads A LOT", ["A LOT"]),
    ],
)
def test_degrees_said(words: str, said: list[str]) -> None:
    assert degrees_said(words) == said


@pytest.mark.parametrize(
    "words",
    [
        "I travel a lot",
        "I travel every day",
        "I travel constantly",
        "I game a lot",
        "I game every day",
        "I game all the time",
    ],
)
def test_a_use_said_with_a_degree_keeps_its_reading(index: SearchIndex, words: str) -> None:
    # Given a use said with how much or how often it is done ("I travel a lot")
    result = search(index, words)
    # Then the use keeps what it meant ("travel": the light laptops, not the lightest
    # product of any kind, a phone), and only the degree is no word to search
    said = {"lot", "lots", "time", "every", "day", "constantly", "all"}
    assert not said & set(result.understood.get("searched") or [])
    assert not said & set(result.unknown)
    assert result.products
    assert {hit.category for hit in result.products} == {"COMPUTERS"}
    assert words.split()[1] in (result.understood.get("searched") or [])


def test_travel_said_with_a_degree_is_the_light_laptops(index: SearchIndex) -> None:
    # "I travel a lot" was the light laptops, the XPS 13 first, before the degree was cut
    for words in ("I travel a lot", "I travel every day"):
        result = search(index, words)
        assert result.product_ids[:1] == ["CMP-007"]
        assert result.understood.get("favours") == "weight"


@pytest.mark.parametrize(
    ("words", "category"),
    [("I read a lot", "BOOKS"), ("I read every day", "BOOKS"), ("she reads tons", "BOOKS")],
)
def test_reading_said_with_a_degree_is_books(index: SearchIndex, words: str, category: str) -> None:
    result = search(index, words)
    assert result.understood.get("category") == category
    assert result.products
    assert "keywords" not in result.relaxed
