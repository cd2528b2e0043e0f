"""A store's id with a space in it ("XPS 13/16/512", "AB 1234 C") is one product's id when
a shopper writes it: the search finds that product, and does not read the id's words as
models it does not carry ("Sorry, we don't carry the Dell XPS 16")."""

from __future__ import annotations

import copy
from collections.abc import Iterator
from pathlib import Path

import pytest

from shared.products.catalog_data import load_catalog
from shared.search import SearchIndex, SearchQuery, build_index

CATALOG = load_catalog()
XPS = {
    **copy.deepcopy(next(p for p in CATALOG if p["category"] == "COMPUTERS")),
    "productId": "XPS 13/16/512",
    "name": "Dell XPS 13 (9340) - 16GB / 512GB / Platinum",
    "brand": "Dell",
}
XPS_BIG = {**XPS, "productId": "XPS 13/32/1T", "name": "Dell XPS 13 (9340) - 32GB / 1TB"}
BOOK = {
    **copy.deepcopy(next(p for p in CATALOG if p["category"] == "BOOKS")),
    "productId": "BK 0042 PB",
    "name": "The Left Hand of Darkness - Paperback",
}


@pytest.fixture(scope="module")
def index(tmp_path_factory: pytest.TempPathFactory) -> Iterator[SearchIndex]:
    path = tmp_path_factory.mktemp("spaced") / "catalog.sqlite"
    build_index([*CATALOG, XPS, XPS_BIG, BOOK], path)
    opened = SearchIndex.open(path)
    yield opened
    opened.close()


@pytest.mark.parametrize(
    ("words", "product"),
    [
        ("Do you have XPS 13/16/512?", XPS),
        ("is xps 13/32/1t in stock", XPS_BIG),
        ("How much is BK 0042 PB?", BOOK),
        ("BK 0042 PB", BOOK),
    ],
)
def test_an_id_with_spaces_is_that_product(
    index: SearchIndex, words: str, product: dict[str, object]
) -> None:
    # When a shopper writes a product's id as the store does, spaces and all
    result = index.search(SearchQuery(keywords=words, limit=10))
    # Then that product is the one found, and nothing is said not to be carried
    # (before: "XPS 16" and "XPS 512" were models the store does not carry)
    assert [hit.productId for hit in result.products] == [product["productId"]]
    assert result.not_carried == []
    assert result.understood["named"] == [product["name"]]


def test_an_id_with_spaces_beside_a_name_finds_both(index: SearchIndex) -> None:
    result = index.search(
        SearchQuery(keywords="compare XPS 13/16/512 with the MacBook Air", limit=10)
    )
    ids = [hit.productId for hit in result.products]
    assert ids[0] == "XPS 13/16/512"
    assert any("MacBook Air" in hit.name for hit in result.products[1:])
    assert result.not_carried == []


def test_words_that_only_start_an_id_with_spaces_are_searched_as_words(
    index: SearchIndex,
) -> None:
    # "XPS 13" is a model's name, not the id "XPS 13/16/512": both XPS 13s are found
    result = index.search(SearchQuery(keywords="Do you have the XPS 13?", limit=10))
    assert {"XPS 13/16/512", "XPS 13/32/1T"} <= {hit.productId for hit in result.products}


def test_a_catalog_whose_ids_have_no_spaces_tries_no_runs_of_words(
    tmp_path: Path,
) -> None:
    build_index(CATALOG, tmp_path / "plain.sqlite")
    plain = SearchIndex.open(tmp_path / "plain.sqlite")
    try:
        assert plain.spelled_ids is False
        result = plain.search(SearchQuery(keywords="Do you have CMP-001?", limit=5))
        assert [hit.productId for hit in result.products] == ["CMP-001"]
    finally:
        plain.close()


CABLE = {
    **copy.deepcopy(next(p for p in CATALOG if p["category"] == "MOBILE")),
    "productId": "USB C",
    "name": "USB-C to USB-C Cable 1 m",
}
PINK = {
    **copy.deepcopy(next(p for p in CATALOG if p["name"].startswith("Apple iPhone"))),
    "productId": "IPHONE 15 PINK",
    "name": "Apple iPhone 15 128 GB Pink",
}


@pytest.fixture(scope="module")
def worded(tmp_path_factory: pytest.TempPathFactory) -> Iterator[SearchIndex]:
    """A store whose ids are plain words a shopper writes for other things."""
    path = tmp_path_factory.mktemp("worded") / "catalog.sqlite"
    build_index([*CATALOG, CABLE, PINK], path)
    opened = SearchIndex.open(path)
    yield opened
    opened.close()


@pytest.mark.parametrize(
    ("words", "not_this"),
    [("a laptop with usb c", "USB C"), ("any iphone 15 pink or blue", "IPHONE 15 PINK")],
)
def test_plain_words_that_spell_an_id_are_searched_as_words(
    worded: SearchIndex, words: str, not_this: str
) -> None:
    # When a shopper's plain words happen to spell an id of the store ("USB C")
    result = worded.search(SearchQuery(keywords=words, limit=10))
    # Then they are read as words (laptops with USB-C; iPhones), not as that product alone
    ids = [hit.productId for hit in result.products]
    assert ids and ids != [not_this]
    assert result.understood.get("named", []) != [
        next(p["name"] for p in (CABLE, PINK) if p["productId"] == not_this)
    ]
