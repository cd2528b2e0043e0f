"""A product line the shopper names ("MacBook", "iMac", "Chromebook"): the search finds
that line, of the kind the catalog's vocabulary says it is, and fills its results with
no product of another line that only matches the shopper's other words."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from shared.products.catalog_data import load_catalog
from shared.search import SearchIndex, SearchQuery, build_index

CATALOG = load_catalog()
BY_ID = {p["productId"]: p for p in CATALOG}


@pytest.fixture(scope="module")
def index(tmp_path_factory: pytest.TempPathFactory) -> Iterator[SearchIndex]:
    path = tmp_path_factory.mktemp("lines") / "catalog.sqlite"
    build_index(CATALOG, path)
    opened = SearchIndex.open(path)
    yield opened
    opened.close()


def names(index: SearchIndex, keywords: str) -> tuple[list[str], Any]:
    result = index.search(SearchQuery(keywords=keywords, limit=10))
    return [BY_ID[hit.productId]["name"] for hit in result.products], result


def test_a_macbook_question_finds_macbooks_only(index: SearchIndex) -> None:
    # Given a catalog with MacBooks, an iMac, a Mac mini and light laptops of other brands
    # When a shopper asks which MacBook is best for travel
    found, result = names(index, "Which MacBook is best for travel?")

    # Then they see MacBooks, lightest leaning first: no Mac mini, no light Dell
    assert found == [
        "Apple MacBook Air 13 (M3)",
        "Apple MacBook Air 15 (M3)",
        "Apple MacBook Pro 14 (M3 Pro)",
    ]
    assert result.understood["formFactor"] == ["laptop", "2-in-1"]
    assert result.understood["favours"] == "weight"
    assert result.count == 3


def test_an_imac_is_an_all_in_one_and_a_mac_is_any_mac(index: SearchIndex) -> None:
    imac, read = names(index, "an iMac")
    assert imac == ["Apple iMac 24 (M3)"]
    assert read.understood["formFactor"] == ["all-in-one"]

    macs, any_mac = names(index, "a mac")
    assert "formFactor" not in any_mac.understood
    assert {"Apple Mac mini (M2)", "Apple iMac 24 (M3)", "Apple MacBook Air 13 (M3)"} <= set(macs)


def test_a_chromebook_question_is_filled_with_chromebooks_only(index: SearchIndex) -> None:
    # "for my child" matches other laptops' blurbs; the shopper asked for a Chromebook
    found, result = names(index, "I need a Chromebook for my child.")
    chromebooks = [p for p in CATALOG if "Chromebook" in p["name"]]
    assert sorted(found) == sorted(p["name"] for p in chromebooks)
    assert result.count == len(chromebooks)


def test_the_result_says_which_line_every_product_found_is_of(index: SearchIndex) -> None:
    # The search tells the model that its other words only ranked the line's products
    _, result = names(index, "Which MacBook is best for travel?")
    assert result.understood["line"] == ["macbook"]
    assert result.understood["searched"] == ["macbook", "travel"]
    _, result = names(index, "A light laptop for travel")
    assert "line" not in result.understood


def test_two_lines_named_find_the_products_of_either(index: SearchIndex) -> None:
    # Given a catalog with no product that is both an iPhone and an Android phone
    # When a shopper names both lines
    found, result = names(index, "iPhone or Android phone?")

    # Then the products of either are found, nothing dropped
    assert result.relaxed == []
    assert result.understood["line"] == ["iphone", "android"]
    systems = {BY_ID[hit.productId]["specs"]["os"].split()[0] for hit in result.products}
    assert found and systems <= {"iOS", "Android"}
