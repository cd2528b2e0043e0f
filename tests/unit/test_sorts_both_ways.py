"""Every spec with a sort, both ways: declared once in SPECS, offered in the catalog
tool's ``sortBy``, obeyed by the search (in stock first, ties cheapest first, products
without the spec last in either direction) and asked for by the offline model as a
shopper words it."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from lookup_inventory.schema import InventoryInput
from registry import tool_specs
from shared.catalog.derive import sorts
from shared.catalog.specs import PRICE_SORT, SPECS
from shared.search import SearchIndex, SearchQuery, build_index
from shared.search.query import SORTS
from storechat.offline import OfflineModel
from tests.support.searched import searched_as
from tests.unit.test_offline_model import inventory
from tests.unit.test_offline_newcomer import CATALOG, answer, ask, product

# One spec value per laptop, in stock or not; "X" is a laptop without the spec. Prices
# make ties tell: B and C share every value, C is the cheaper.
_LAPTOPS = (
    # id, price, stock, value
    ("A", 900.0, 5, 3.0),
    ("B", 800.0, 5, 2.0),
    ("C", 700.0, 5, 2.0),
    ("D", 600.0, 5, 1.0),
    ("X", 500.0, 5, None),
    ("E", 400.0, 0, 4.0),
    ("F", 300.0, 0, None),
)
_BY_SPEC = [(name, column) for name, (column, _) in SORTS.items() if column != "price"]


def _catalog(key: str) -> list[dict[str, Any]]:
    # Values a facet keeps: a year is 2001 to 2004, any other spec 8 to 32.
    def written(value: float) -> float:
        return 2000 + value if key == "year" else value * 8

    return [
        {
            "productId": f"CMP-{pid}",
            "name": f"Test laptop {pid}",
            "brand": "Testbrand",
            "category": "COMPUTERS",
            "price": price,
            "stock": stock,
            "specs": {"formFactor": "laptop"} | ({} if value is None else {key: written(value)}),
        }
        for pid, price, stock, value in _LAPTOPS
    ]


@pytest.fixture(scope="module")
def indexes(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, SearchIndex]]:
    opened: dict[str, SearchIndex] = {}
    for declared in SPECS:
        if declared.sort is not None:
            path = tmp_path_factory.mktemp("sorts") / f"{declared.key}.sqlite"
            build_index(_catalog(declared.key), path)
            opened[declared.column] = SearchIndex.open(path)
    yield opened
    for index in opened.values():
        index.close()


@pytest.mark.parametrize("count_cap", [1000, 2], ids=["one query", "walked in phases"])
@pytest.mark.parametrize(("sort", "column"), _BY_SPEC)
def test_a_spec_sort_orders_in_stock_first_ties_cheapest_first_missing_last(
    indexes: dict[str, SearchIndex], sort: str, column: str, count_cap: int
) -> None:
    # Given laptops with the spec at 3, 2, 2 (the cheaper second), 1 and none in stock,
    # and 4 and none sold out
    biggest_first = SORTS[sort][1]
    # When the catalog is sorted by the spec, either way
    result = indexes[column].search(
        SearchQuery(category="COMPUTERS", sortBy=sort, limit=10), count_cap=count_cap
    )
    # Then the shopper sees the in-stock ones in the spec's order, equal values cheapest
    # first, the one without the spec after them; then the sold-out ones, the same way
    by_value = (
        ["CMP-A", "CMP-C", "CMP-B", "CMP-D"]
        if biggest_first
        else ["CMP-D", "CMP-C", "CMP-B", "CMP-A"]
    )
    assert [hit.productId for hit in result.products] == [*by_value, "CMP-X", "CMP-E", "CMP-F"]
    assert result.ranked_by == sort


def test_every_spec_sort_has_a_reverse_the_other_way_round() -> None:
    # Given the catalog's vocabulary
    for declared in [PRICE_SORT, *(s.sort for s in SPECS if s.sort is not None)]:
        # Then every order has its reverse, on the same column, the other way
        assert declared.reverse is not None, declared.name
        assert SORTS[declared.reverse.name][1] is not declared.biggest_first
        assert SORTS[declared.reverse.name][0] == SORTS[declared.name][0]


def test_a_model_can_ask_for_either_way_through_the_tool_spec() -> None:
    # Given the lookup_inventory tool spec a real model reads
    (lookup,) = [t for t in tool_specs() if t["toolSpec"]["name"] == "lookup_inventory"]
    sort_by = lookup["toolSpec"]["inputSchema"]["json"]["properties"]["sortBy"]
    options = sort_by["enum"]
    # Then it offers every order and its reverse, and its description names each
    assert options == [sort.name for _, sort in sorts()]
    for name in ("weight_desc", "ram_asc", "screen_asc", "oldest", "storage_asc"):
        assert name in options and name in sort_by["description"]


@pytest.mark.parametrize(
    ("sort", "said"),
    [("weight_desc", "heaviest first"), ("oldest", "oldest first"), ("ram_asc", "least RAM")],
)
def test_the_live_trace_says_the_reverse_in_words(sort: str, said: str) -> None:
    step = InventoryInput.model_validate({"category": "COMPUTERS", "sortBy": sort}).step()
    assert said in step


def test_a_reverse_the_tool_does_not_know_is_a_clear_error() -> None:
    with pytest.raises(ValueError, match="sortBy must be one of"):
        SearchQuery(sortBy="heaviest")


# ----------------------------------------------------------------- the offline model


@pytest.mark.parametrize(
    ("question", "category", "sort"),
    [
        ("the heaviest laptop", "COMPUTERS", "weight_desc"),
        ("which laptop is the most heavy?", "COMPUTERS", "weight_desc"),
        ("the phone with the smallest screen", "MOBILE", "screen_asc"),
        ("laptop with the largest screen", "COMPUTERS", "screen"),
        ("which laptop has the least storage?", "COMPUTERS", "storage_asc"),
        ("a laptop with the least RAM", "COMPUTERS", "ram_asc"),
        ("phone with the fewest megapixels", "MOBILE", "camera_asc"),
        ("which phone has the smallest battery?", "MOBILE", "battery_asc"),
        ("what is the oldest book you have?", "BOOKS", "oldest"),
        ("your newest novels", "BOOKS", "newest"),
        ("Welches ist das schwerste Notebook?", "COMPUTERS", "weight_desc"),
        ("¿Cuál es el móvil con la pantalla más pequeña?", "MOBILE", "screen_asc"),
        ("Welches Handy hat den kleinsten Bildschirm?", "MOBILE", "screen_asc"),
        ("quel est le livre le plus ancien ?", "BOOKS", "oldest"),
    ],
)
def test_a_superlative_either_way_asks_the_search_for_that_order(
    question: str, category: str, sort: str
) -> None:
    # When a shopper asks for the most or the least of a spec
    (lookup, *_) = ask(OfflineModel(), question)
    # Then the catalog is asked for that kind, in that order
    read = searched_as(lookup["input"])
    assert read["category"] == category
    assert read["sortBy"] == sort


@pytest.mark.parametrize(
    ("question", "key", "most", "heading"),
    [
        ("the heaviest laptop", "weightKg", True, "(heaviest first)"),
        ("laptop with the least RAM", "ramGb", False, "(least RAM first)"),
        ("the laptop with the smallest screen", "screenInches", False, "(smallest screen first)"),
    ],
)
def test_the_answer_leads_with_the_most_or_least_and_says_the_order(
    tmp_path: Path, question: str, key: str, most: bool, heading: str
) -> None:
    # Given the catalog's laptops with the spec, in a search of their own
    laptops = [
        p
        for p in CATALOG
        if p["category"] == "COMPUTERS"
        and p["specs"].get("formFactor") == "laptop"
        and key in p["specs"]
        and p["stock"] > 0
    ][:6]
    build_index(laptops, tmp_path / "laptops.sqlite")
    index = SearchIndex.open(tmp_path / "laptops.sqlite")
    values = [p["specs"][key] for p in laptops]
    want = max(values) if most else min(values)
    # When the shopper asks, and the catalog answers what the model asked
    (lookup, *_) = ask(OfflineModel(), question)
    ids = [h.productId for h in index.search(SearchQuery.from_input(lookup["input"])).products]
    index.close()
    text, _ = answer(OfflineModel(), question, [inventory(*map(product, ids))])
    # Then the first product named is the one with that extreme, in the catalog's
    # order, and the order is said
    assert heading in text
    first = text[text.index("1. ") :].split("[", 2)[1].split("]")[0]
    assert first == ids[0]
    assert next(p for p in laptops if p["productId"] == first)["specs"][key] == want


# ----------------------------------------------------------------- uses ranked by their spec


@pytest.mark.parametrize(
    ("question", "sort", "phrase"),
    [
        ("I need a laptop for programming", "ram", "for programming"),
        ("a laptop for coding", "ram", "for programming"),
        ("Quiero un portátil para programar", "ram", "for programming"),
        ("a laptop for video editing", "ram", "for video editing"),
        ("a light laptop to travel with", "weight", "for travel"),
    ],
)
def test_a_use_in_plain_words_ranks_by_the_spec_that_matters_for_it(
    tmp_path: Path, question: str, sort: str, phrase: str
) -> None:
    # Given the catalog's first six laptops in stock, in a search of their own
    in_stock = [p for p in CATALOG if p["specs"].get("formFactor") == "laptop" and p["stock"] > 0]
    laptops = in_stock[:6]
    build_index(laptops, tmp_path / "laptops.sqlite")
    index = SearchIndex.open(tmp_path / "laptops.sqlite")
    # When a shopper says what the laptop is for, the model asks the catalog, and the
    # catalog answers what it asked
    (lookup, *_) = ask(OfflineModel(), question)
    read = searched_as(lookup["input"])
    assert read.get("sortBy", read.get("favours")) == sort
    query = SearchQuery.from_input(lookup["input"], limit=6)
    ids = [hit.productId for hit in index.search(query).products]
    index.close()
    text, _ = answer(OfflineModel(), question, [inventory(*map(product, ids))])
    # Then the answer names the use and leads with the laptop that has the most (or
    # least) of the use's main spec: the catalog's order, kept
    assert phrase in text
    column, biggest_first = SORTS[sort]
    key = next(s.key for s in SPECS if s.column == column)
    values = [p["specs"][key] for p in laptops]
    first = text[text.index("1. ") :].split("[", 2)[1].split("]")[0]
    assert first == ids[0]
    assert product(first)["specs"][key] == (max(values) if biggest_first else min(values))
