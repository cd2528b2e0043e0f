"""The catalog tool with a store's own SKUs: what the model reads, and what it asks for again.

An id that cannot be cited safely (spaces, brackets, very long) reaches the model as its
handle; the model asks for it again by that handle, or writes an id in another case. The
shopper's view of the call ("How I found this", the live trace) never shows a handle.
"""

from __future__ import annotations

import copy
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import pytest

from lookup_inventory.logic import run
from lookup_inventory.schema import InventoryInput
from shared.api.contract import ToolUse
from shared.products.catalog_table import CatalogRead
from shared.products.citing import handle
from shared.products.table import shown_products
from shared.search import SearchIndex, build_index
from shared.search import ids as search_ids

SPACED = "FW 13 I5 16/512"
LONG = "SKU-" + "y" * 200
RECORDS = [
    {"productId": pid, "name": name, "brand": "Framework", "category": "COMPUTERS",
     "price": price, "stock": 4, "description": f"The {name}.", "specs": {}}
    for pid, name, price in (
        (SPACED, "Framework Laptop 13", 1049.0),
        (LONG, "Framework Laptop 16", 1399.0),
        ("100201", "Framework Chromebook", 999.0),
        ("fw-dock.usb-c", "Framework Desktop", 1099.0),
    )
]  # fmt: skip


class Table:
    def __init__(self, products: list[dict[str, Any]]) -> None:
        self.records = {p["productId"]: copy.deepcopy(p) for p in products}
        self.asked: list[list[str]] = []

    def products_by_id(self, ids: Sequence[str], *, deadline_s: float | None) -> CatalogRead:
        self.asked.append(list(ids))
        return CatalogRead([copy.deepcopy(self.records[i]) for i in ids if i in self.records])


@pytest.fixture(scope="module")
def index(tmp_path_factory: pytest.TempPathFactory) -> Iterator[SearchIndex]:
    path = tmp_path_factory.mktemp("any-id") / "catalog.sqlite"
    build_index(RECORDS, path)
    opened = SearchIndex.open(path)
    yield opened
    opened.close()


def ask(index: SearchIndex, tool_input: dict[str, Any], table: Table | None = None) -> Any:
    use = ToolUse(toolUseId="t1", name="lookup_inventory", input=tool_input)
    return run(use, index=lambda: index, source=table or Table(RECORDS), max_results=8).dump()


def model_reads(out: dict[str, Any]) -> list[str]:
    return [
        p["productId"] for p in shown_products(out["toolResult"]["content"][0]["json"]["products"])
    ]


def test_the_model_reads_a_handle_for_an_id_it_could_not_cite_safely(index: SearchIndex) -> None:
    out = ask(index, {"brandId": "Framework", "sortBy": "price"})
    assert model_reads(out) == ["100201", handle(SPACED), "fw-dock.usb-c", handle(LONG)]
    # And the ledger, which the response is built from, keeps each product's own id
    assert [p["productId"] for p in out["ledger"]["products"]] == [
        "100201", SPACED, "fw-dock.usb-c", LONG,
    ]  # fmt: skip


@pytest.mark.parametrize(
    ("asked", "found"),
    [
        (handle(SPACED), SPACED),
        (handle(SPACED).lower(), SPACED),
        (handle(LONG), LONG),
        (SPACED, SPACED),
        ("fw 13 i5 16/512", SPACED),
        ("FW-DOCK.USB-C", "fw-dock.usb-c"),
        ("100201", "100201"),
    ],
)
def test_a_product_is_found_again_as_the_model_writes_it(
    index: SearchIndex, asked: str, found: str
) -> None:
    # When the model asks for a product by its handle, its id, or its id in another case
    table = Table(RECORDS)
    out = ask(index, {"productIds": [asked]}, table)
    # Then the tool reads that product, by its id, and shows it
    assert table.asked == [[found]]
    assert [p["productId"] for p in out["ledger"]["products"]] == [found]
    # And "How I found this" names the product by its id, never by the handle asked for
    assert out["trace"]["input"] == {"productIds": [found]}
    assert found in out["trace"]["summary"] and handle(found) not in out["trace"]["summary"]


def test_an_id_nobody_has_is_not_found_and_said_so(index: SearchIndex) -> None:
    out = ask(index, {"productIds": [handle("no such product"), "FW 13 I5 32/1T"]})
    told = out["toolResult"]["content"][0]["json"]
    assert shown_products(told["products"]) == []
    assert told["notFound"] == [handle("no such product"), "FW 13 I5 32/1T"]


def test_the_live_trace_names_ids_and_counts_products_asked_for_by_handle() -> None:
    line = InventoryInput(productIds=["100201", handle(SPACED), handle(LONG)]).step()
    assert line == "Looking up 100201 and 2 more products in the catalog"
    assert InventoryInput(productIds=[handle(SPACED)]).step() == (
        "Looking up a product in the catalog"
    )


def test_two_ids_with_one_handle_find_neither_by_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Given a catalog in which two ids share a handle (1 in 50,000 for 200,000 such ids)
    monkeypatch.setattr(search_ids, "handle", lambda pid: "P-AAAAAAAAAA")
    build_index(RECORDS, tmp_path / "clash.sqlite")
    clash = SearchIndex.open(tmp_path / "clash.sqlite")
    try:
        # Then the handle finds nothing rather than the wrong product; the ids still do
        assert clash.resolve(["P-AAAAAAAAAA", SPACED]) == {SPACED: SPACED}
    finally:
        clash.close()
