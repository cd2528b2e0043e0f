"""A product asked for by its id in the shopper's words, for every model: a store's own
ids of any shape ("2004001", "FAIRPHONEFIVE", "21KC0001US", "CMP-001") find their product
first, in any case; an id written as the store writes its ids that no product has is said
not carried; amounts, model numbers and words of the names are no ids."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from shared.products.catalog_data import load_catalog
from shared.search import SearchIndex, SearchQuery, SearchResult, build_index

# The bundled catalog, with a few products under ids a store writes itself.
OWN_IDS = {
    "CMP-005": "2004001",  # digits only
    "MOB-012": "FAIRPHONEFIVE",  # no digit
    "CMP-010": "21KC0001US",  # a maker's part number
    "CMP-011": "10000",  # a number that is also an amount
}
CATALOG = [{**p, "productId": OWN_IDS.get(p["productId"], p["productId"])} for p in load_catalog()]
NAMES = {p["productId"]: p["name"] for p in CATALOG}


@pytest.fixture(scope="module")
def index(tmp_path_factory: pytest.TempPathFactory) -> Iterator[SearchIndex]:
    path = tmp_path_factory.mktemp("ids") / "catalog.sqlite"
    build_index(CATALOG, path)
    opened = SearchIndex.open(path)
    yield opened
    opened.close()


def search(index: SearchIndex, keywords: str, **fields: Any) -> SearchResult:
    return index.search(SearchQuery(keywords=keywords, limit=5, **fields))


@pytest.mark.parametrize(
    ("words", "product_id"),
    [
        ("is 2004001 in stock?", "2004001"),
        ("do you have FAIRPHONEFIVE?", "FAIRPHONEFIVE"),
        ("price of 21kc0001us", "21KC0001US"),
        ("what's the price of CMP-001?", "CMP-001"),
        ("is cmp-002 still available", "CMP-002"),
        ("[BK-003] please", "BK-003"),
    ],
)
def test_an_id_in_the_words_finds_its_product_first_and_names_it(
    index: SearchIndex, words: str, product_id: str
) -> None:
    found = search(index, words)
    assert found.product_ids[:1] == [product_id]
    # The model is told which product the words named, by its name.
    assert found.understood["named"][0] == NAMES[product_id]
    assert found.not_carried == []


def test_an_id_and_a_name_find_both_in_the_order_said(index: SearchIndex) -> None:
    found = search(index, "compare CMP-001 with the Galaxy S24 Ultra")
    assert found.product_ids[0] == "CMP-001"
    assert "Samsung Galaxy S24 Ultra" in [hit.name for hit in found.products[1:3]]
    assert found.understood["named"][:2] == [NAMES["CMP-001"], "Galaxy S24 Ultra"]


def test_an_id_written_as_the_stores_ids_that_no_product_has_is_not_carried(
    index: SearchIndex,
) -> None:
    found = search(index, "what's the price of CMP-999?")
    assert found.not_carried == ["CMP-999"]
    assert found.products == []
    # An id cited as a model cites is the citation check's to answer, not a shopper's word.
    assert "CMP-999" not in search(index, "tell me about [CMP-999]").not_carried
    # A word of the same shape the store's ids do not start with is no id of the store's.
    assert "X-T5" not in search(index, "do you have the X-T5 camera").not_carried


@pytest.mark.parametrize(
    ("words", "not_found"),
    [
        ("a laptop under 10000", "10000"),  # an amount, though a product's id is 10000
        ("a phone with 16GB", "10000"),
        ("is the Pixel 8a in stock?", "10000"),
    ],
)
def test_amounts_and_model_numbers_are_no_ids(
    index: SearchIndex, words: str, not_found: str
) -> None:
    found = search(index, words)
    assert not_found not in found.product_ids[:1]
    assert found.not_carried == []
    named = found.understood.get("named") or []
    assert NAMES[not_found] not in named


def test_a_model_number_of_a_name_finds_the_product_by_its_name_not_an_id(
    index: SearchIndex,
) -> None:
    found = search(index, "is the Pixel 8a in stock?")
    assert found.understood["named"] == ["Pixel 8a"]
    assert found.products[0].name == "Google Pixel 8a"


@pytest.mark.parametrize(
    "words",
    ["Do you have ISBN 9781408855652?", "isbn 978-1408855652", "is 978-1-4088-5565-2 in stock"],
)
def test_a_code_one_products_specs_hold_names_it(index: SearchIndex, words: str) -> None:
    # Given a bookshop's ISBN, held in a book's specs, not its id; with its label or hyphens
    found = search(index, words)
    # Then the book is found and named, as by its id
    assert found.product_ids[:1] == ["BK-001"]
    assert found.understood["named"] == [NAMES["BK-001"]]
