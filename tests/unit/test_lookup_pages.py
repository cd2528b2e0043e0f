"""More than four products when the shopper asks for many: ``limit`` and ``offset``."""

from __future__ import annotations

import copy
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import pytest

import registry
from bench.catalog_gen import synthetic_catalog
from lookup_inventory.logic import MAX_LEDGER_BYTES, run
from lookup_inventory.schema import DEFAULT_PAGE, MAX_OFFSET, MAX_PAGE
from shared.api.contract import MAX_RESULT_BYTES, ToolUse, result_size
from shared.products.catalog_data import load_catalog
from shared.products.catalog_table import CatalogRead
from shared.products.product import MAX_IMAGE_URL
from shared.products.table import shown_products
from shared.search import SearchIndex, build_index
from shared.search.query import MAX_LIMIT

CATALOG = load_catalog()
COMPUTERS = [p for p in CATALOG if p["category"] == "COMPUTERS"]


class Table:
    def __init__(self, products: list[dict[str, Any]]) -> None:
        self.records = {p["productId"]: copy.deepcopy(p) for p in products}

    def products_by_id(self, ids: Sequence[str], *, deadline_s: float | None) -> CatalogRead:
        return CatalogRead([copy.deepcopy(self.records[i]) for i in ids if i in self.records])


@pytest.fixture(scope="module")
def index(tmp_path_factory: pytest.TempPathFactory) -> Iterator[SearchIndex]:
    path = tmp_path_factory.mktemp("pages") / "catalog.sqlite"
    build_index(CATALOG, path)
    opened = SearchIndex.open(path)
    yield opened
    opened.close()


def ask(index: SearchIndex, tool_input: dict[str, Any], table: Table | None = None) -> Any:
    use = ToolUse(toolUseId="tooluse_pages", name="lookup_inventory", input=tool_input)
    source = table or Table(CATALOG)
    return run(use, index=lambda: index, source=source, max_results=DEFAULT_PAGE).dump()


def told(out: dict[str, Any]) -> dict[str, Any]:
    seen: dict[str, Any] = out["toolResult"]["content"][0]["json"]
    # The products are a table (shared.products.table): read here as one object each.
    return {**seen, "products": shown_products(seen["products"])} if "products" in seen else seen


def ids(out: dict[str, Any]) -> list[str]:
    return [p["productId"] for p in told(out)["products"]]


def test_the_default_page_is_four_with_summaries_and_says_where_the_next_starts(
    index: SearchIndex,
) -> None:
    seen = told(ask(index, {"category": "COMPUTERS"}))
    assert seen["shown"] == DEFAULT_PAGE == len(seen["products"])
    assert all("summary" in p for p in seen["products"])
    assert seen["count"] == len(COMPUTERS)
    assert seen["nextOffset"] == DEFAULT_PAGE
    assert f"offset {DEFAULT_PAGE}" in seen["note"]


def test_a_larger_page_shows_twelve_without_summaries_within_the_same_budget(
    index: SearchIndex,
) -> None:
    # Given a model comparing all the store's laptops
    out = ask(index, {"category": "COMPUTERS", "keywords": "laptop", "limit": MAX_PAGE})
    seen = told(out)
    # Then it reads twelve compact records, and the ledger has the same twelve in full
    assert seen["shown"] == MAX_PAGE == len(seen["products"])
    assert all("summary" not in p and p["specs"] and p["price"] for p in seen["products"])
    assert [p["productId"] for p in out["ledger"]["products"]] == ids(out)
    assert result_size(seen) <= MAX_RESULT_BYTES


def test_pages_walk_every_match_once_in_rank_order(index: SearchIndex) -> None:
    for order in ({}, {"sortBy": "price"}, {"keywords": "laptop for students"}):
        # Given a search paged through with the offsets the tool hands back
        walked: list[str] = []
        offset: int | None = 0
        while offset is not None:
            page = {"category": "COMPUTERS", **order, "limit": 8, "offset": offset}
            seen = told(ask(index, page))
            walked += [p["productId"] for p in seen["products"]]
            offset = seen.get("nextOffset")
        # Then every match was shown, none twice, in the order of one long page
        assert len(walked) == len(set(walked)) == seen["count"], order
        whole = ids(ask(index, {"category": "COMPUTERS", **order, "limit": MAX_PAGE}))
        assert walked[:MAX_PAGE] == whole, order


def test_an_offset_past_the_last_match_shows_nothing_and_says_so(index: SearchIndex) -> None:
    seen = told(ask(index, {"category": "COMPUTERS", "offset": 80}))
    assert seen["products"] == [] and "nextOffset" not in seen
    assert f"there are {len(COMPUTERS)} matches" in seen["note"]


@pytest.mark.parametrize(
    ("tool_input", "complaint"),
    [
        ({"limit": MAX_PAGE + 1}, "limit"),
        ({"limit": 0}, "limit"),
        ({"offset": -1}, "offset"),
        ({"offset": MAX_OFFSET + 1}, "offset"),
    ],
)
def test_a_page_out_of_bounds_is_refused_with_the_reason(
    index: SearchIndex, tool_input: dict[str, Any], complaint: str
) -> None:
    out = ask(index, tool_input)
    assert out["toolResult"]["status"] == "error"
    assert complaint in told(out)["error"]


def test_the_deepest_page_still_fits_what_the_index_ranks() -> None:
    # The schema cannot import the search engine (the Converse function reads it): the
    # two bounds are held together here
    assert MAX_OFFSET + MAX_PAGE <= MAX_LIMIT


def test_the_model_is_told_when_to_ask_for_more_and_how_to_page() -> None:
    spec = next(s for s in registry.tool_specs() if s["toolSpec"]["name"] == "lookup_inventory")
    properties = spec["toolSpec"]["inputSchema"]["json"]["properties"]
    assert (
        properties["limit"]["maximum"] == MAX_PAGE
        and "compare many" in (properties["limit"]["description"])
    )
    assert "nextOffset" in properties["offset"]["description"]
    assert "nextOffset" in spec["toolSpec"]["description"]


def test_twelve_of_a_large_catalogs_records_fit_the_result_budget(tmp_path: Path) -> None:
    products = synthetic_catalog(3000)
    built = SearchIndex.open(build_index(products, tmp_path / "big.sqlite").path)
    try:
        for category in ("COMPUTERS", "MOBILE", "BOOKS"):
            seen = told(ask(built, {"category": category, "limit": MAX_PAGE}, Table(products)))
            assert seen["shown"] == MAX_PAGE, category
            assert result_size(seen) <= MAX_RESULT_BYTES
    finally:
        built.close()


def test_a_page_of_the_largest_records_stops_at_the_ledgers_budget_and_pages_on(
    tmp_path: Path,
) -> None:
    # Given products that each hold the longest picture address a product may have
    products = copy.deepcopy(COMPUTERS)
    for product in products:
        address = f"https://cdn.example.com/{product['productId']}.jpg?v="
        product["imageUrl"] = address + "9" * (MAX_IMAGE_URL - len(address))
    built = SearchIndex.open(build_index(products, tmp_path / "pictures.sqlite").path)
    try:
        # When the model asks for a page of twelve
        out = ask(built, {"category": "COMPUTERS", "limit": MAX_PAGE}, Table(products))
    finally:
        built.close()
    # Then it sees as many as the ledger can carry, and where the next page starts
    seen = told(out)
    assert 1 <= seen["shown"] < MAX_PAGE and seen["nextOffset"] == seen["shown"]
    assert result_size(out["ledger"]["products"]) <= MAX_LEDGER_BYTES
    assert [p["productId"] for p in out["ledger"]["products"]] == ids(out)
    assert all(len(p["imageUrl"]) == MAX_IMAGE_URL for p in out["ledger"]["products"])
