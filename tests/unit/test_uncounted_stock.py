"""A product the store sells without counting its stock ("available, count not tracked"):
WooCommerce's "Manage stock?" off with "In stock?" 1, Shopify's inventory not tracked.

Before, such a product was imported with stock 0 (or the import's --default-stock), so a
shopper was told it was out of stock, or a count the store never gave. Now it is in stock
with no count, wherever "in stock" is decided: the import, webhooks and sync, the search's
in-stock filter, the catalog tool's records, the answer check and the stored record.
"""

from __future__ import annotations

import copy
import csv
import sqlite3
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import pytest

from catalog_webhook.logic import mapped
from compose_response.logic import ComposeInput, compose
from lookup_inventory.logic import run
from lookup_inventory.records import SnapshotRecords, compact
from shared.api.contract import ToolUse
from shared.platform import shopify, woocommerce
from shared.platform.diff import fingerprint, plan
from shared.platform.rows import ReadOptions
from shared.products.catalog_data import load_catalog
from shared.products.catalog_table import CatalogRead
from shared.products.product import Product
from shared.products.stock import counted, in_stock, sold_out
from shared.products.table import shown_products
from shared.search import FORMAT_VERSION, SearchIndex, SearchQuery, build_index, snapshot
from shared.search.errors import SnapshotUnreadable
from shared.search.snapshot import SnapshotFile, open_snapshot, validate_snapshot
from storechat.catalog.rows import ValidRow, read_rows
from tests.support.fake_admin_api import shopify_node
from tests.support.platform_payloads import shopify_product, woocommerce_product

WOOCOMMERCE = Path(__file__).parents[1] / "support" / "exports" / "woocommerce_products.csv"

# -- the answer check ---------------------------------------------------------------------------

CHARGER: dict[str, Any] = {
    "productId": "ACC-700",
    "name": "Anker Nano USB-C Charger 30W",
    "brand": "Anker",
    "category": "COMPUTERS",
    "price": 25.0,
    "stock": 0,
    "stockTracked": False,
    "specs": {},
}
AFTER = " Ask me anything else."


def _shown(answer: str) -> Any:
    return compose(
        ComposeInput(sessionId="s-1", outcome="answered", answer=answer, products=[CHARGER])
    )


def test_an_uncounted_product_said_to_be_in_stock_stands() -> None:
    # The shopper reads "in stock": true of a product the store sells uncounted.
    said = "The Anker Nano USB-C Charger 30W [ACC-700] is in stock."
    body = _shown(said + AFTER)
    assert body.answer == said + AFTER
    assert body.corrections == []


def test_a_made_up_count_of_an_uncounted_product_is_cut() -> None:
    # The store never said how many: "only 3 left" and "5 in stock" are counts no record
    # holds, so the shopper does not read them; "it is in stock" beside them stays.
    in_stock_said = "The Anker Nano USB-C Charger 30W [ACC-700] is in stock."
    for count in (
        " Only 3 left of the Anker Nano USB-C Charger 30W [ACC-700].",
        " The Anker Nano USB-C Charger 30W [ACC-700] has 5 in stock.",
    ):
        body = _shown(in_stock_said + count + AFTER)
        assert body.answer == in_stock_said + AFTER, count
        assert [(c.productId, c.field, c.dropped) for c in body.corrections] == [
            ("ACC-700", "stock", True)
        ]
        assert body.corrections[0].record.startswith("in stock (no count")


def test_an_uncounted_product_said_to_be_sold_out_is_corrected() -> None:
    said = "The Anker Nano USB-C Charger 30W [ACC-700] is out of stock."
    body = _shown(said + AFTER)
    assert "out of stock" not in body.answer
    assert [(c.productId, c.field) for c in body.corrections] == [("ACC-700", "stock")]


# -- the stored record ---------------------------------------------------------------------------

OLD_RECORD: dict[str, Any] = {
    "productId": "CMP-001",
    "name": "Lenovo ThinkPad X1 Carbon",
    "brand": "Lenovo",
    "category": "COMPUTERS",
    "price": 1399.0,
    "description": "A light business laptop.",
    "stock": 0,
}


def test_a_record_written_before_the_field_loads_as_counted() -> None:
    # A catalog stored before: its sold-out laptop is still sold out, and stored as before.
    product = Product.model_validate(OLD_RECORD)
    assert product.stockTracked is True
    dumped = product.model_dump()
    assert "stockTracked" not in dumped
    assert counted(dumped) and sold_out(dumped) and not in_stock(dumped)
    uncounted = Product.model_validate(OLD_RECORD | {"stockTracked": False}).model_dump()
    assert uncounted["stockTracked"] is False
    assert in_stock(uncounted) and not sold_out(uncounted)


# -- webhooks and sync: one mapping ---------------------------------------------------------------

STORE = "https://shop.example.com"
OPTIONS = ReadOptions(store_url=STORE)


def _stock_of(product: Any, options: ReadOptions = OPTIONS) -> tuple[int, bool]:
    (mapped_product,), _, _ = mapped(product, options)
    return mapped_product.stock, mapped_product.stockTracked


def test_shopify_rest_and_graphql_untracked_variants_are_in_stock_without_a_count() -> None:
    # A Shopify webhook's (or REST page's) variant with inventory_management null, and an
    # Admin API node whose inventoryItem is not tracked: the shopper is told it is in
    # stock, with no number; before, it was out of stock (stock 0).
    rest = shopify_product(7, "ZL-14", stock=0)
    rest["variants"][0]["inventory_management"] = None
    assert _stock_of(shopify.rest_product(rest, STORE)) == (0, False)
    node = shopify_node(7, "ZL-14", title="Zephyr Laptop 14", price="899.00", stock=0)
    node["variants"]["nodes"][0]["inventoryItem"]["tracked"] = False
    assert _stock_of(shopify.graphql_product(node, STORE)) == (0, False)
    # Counted ones keep their count, a sold-out one stays sold out.
    assert _stock_of(shopify.rest_product(shopify_product(8, "ZL-15", stock=4), STORE)) == (
        4,
        True,
    )
    assert _stock_of(shopify.rest_product(shopify_product(9, "ZL-16", stock=0), STORE)) == (
        0,
        True,
    )


def test_a_woocommerce_webhook_with_stock_not_managed_is_in_stock_without_a_count() -> None:
    # WooCommerce's default: "Manage stock?" off, stock_status instock, no quantity.
    body = woocommerce_product(5, "ZP-8", stock=3) | {
        "manage_stock": False,
        "stock_quantity": None,
        "stock_status": "instock",
    }
    assert _stock_of(woocommerce.rest_product(body, STORE)) == (0, False)
    # Sold out stays sold out; a managed count stays the count.
    sold = body | {"stock_status": "outofstock"}
    assert _stock_of(woocommerce.rest_product(sold, STORE)) == (0, True)
    managed = woocommerce_product(5, "ZP-8", stock=3)
    assert _stock_of(woocommerce.rest_product(managed, STORE)) == (3, True)
    # A store team that wants a count for such products still gets --default-stock's.
    with_default = ReadOptions(store_url=STORE, default_stock=5)
    assert _stock_of(woocommerce.rest_product(body, STORE), with_default) == (5, True)


# -- the search's in-stock filter and the catalog tool ------------------------------------------

IMAC = "CMP-014"
"""The bundled catalog's iMac 24: stock 0. Here its store sells it uncounted."""


@pytest.fixture(scope="module")
def uncounted_catalog() -> list[dict[str, Any]]:
    catalog = copy.deepcopy(load_catalog())
    for product in catalog:
        if product["productId"] == IMAC:
            assert product["stock"] == 0
            product["stockTracked"] = False
    return catalog


@pytest.fixture(scope="module")
def index(
    tmp_path_factory: pytest.TempPathFactory, uncounted_catalog: list[dict[str, Any]]
) -> Iterator[SearchIndex]:
    path = tmp_path_factory.mktemp("uncounted") / "catalog.sqlite"
    build_index(uncounted_catalog, path)
    opened = SearchIndex.open(path)
    yield opened
    opened.close()


class _Table:
    def __init__(self, products: list[dict[str, Any]]) -> None:
        self.records = {p["productId"]: copy.deepcopy(p) for p in products}

    def products_by_id(self, ids: Sequence[str], *, deadline_s: float | None) -> CatalogRead:
        return CatalogRead([copy.deepcopy(self.records[i]) for i in ids if i in self.records])


def test_the_in_stock_filter_and_order_take_an_uncounted_product(index: SearchIndex) -> None:
    # "a desktop in stock": the iMac, sold uncounted, is among them (before: left out).
    found = index.search(SearchQuery(category="COMPUTERS", inStockOnly=True, limit=100))
    assert IMAC in [hit.productId for hit in found.products]
    # Sorted by price, it stands with the products in stock, not after the sold-out ones.
    ranked = index.search(SearchQuery(category="COMPUTERS", sortBy="price", limit=100)).products
    sold = [i for i, hit in enumerate(ranked) if hit.stock <= 0]
    assert sold and [hit.productId for hit in ranked].index(IMAC) < sold[0]


def _ask(index: SearchIndex, catalog: Any, tool_input: dict[str, Any]) -> dict[str, Any]:
    use = ToolUse(toolUseId="t1", name="lookup_inventory", input=tool_input)
    return run(use, index=lambda: index, source=catalog, max_results=8).dump()


def test_the_catalog_tool_says_in_stock_with_no_count(
    index: SearchIndex, uncounted_catalog: list[dict[str, Any]]
) -> None:
    # "is the iMac 24 in stock?": the model reads no count and stockTracked false, the
    # response's record keeps the field (the card says "In stock"), and no "nearest in
    # stock instead" is offered for a product that is in stock.
    out = _ask(index, _Table(uncounted_catalog), {"productName": "Apple iMac 24"})
    seen = out["toolResult"]["content"][0]["json"]
    (imac,) = [p for p in shown_products(seen["products"]) if p["productId"] == IMAC]
    assert imac.get("stock") is None and imac["stockTracked"] is False
    assert "inStockInstead" not in seen
    (record,) = [p for p in out["ledger"]["products"] if p["productId"] == IMAC]
    assert (record["stock"], record["stockTracked"]) == (0, False)
    # "an iMac in stock": in stock only, read fresh from the table, it is still there.
    stocked = _ask(index, _Table(uncounted_catalog), {"keywords": "imac", "inStockOnly": True})
    shown = shown_products(stocked["toolResult"]["content"][0]["json"]["products"])
    assert IMAC in [p["productId"] for p in shown]


def test_a_catalog_without_a_read_by_id_reads_the_snapshots_uncounted_stock(
    index: SearchIndex,
) -> None:
    # A store's Products API with no read by id: the records come from the snapshot, which
    # holds no count for the iMac, and it is still in stock with no number.
    (record,) = SnapshotRecords(index).products_by_id([IMAC], deadline_s=None).products
    assert (record["stock"], record["stockTracked"]) == (0, False)
    assert in_stock(record)
    assert compact(record)["stock"] is None and compact(record)["stockTracked"] is False


# -- the store team's own exports -----------------------------------------------------------------

WOO_HEADER = next(csv.reader(WOOCOMMERCE.open(encoding="utf-8")))


def _woo_row(**cells: str) -> dict[str, str]:
    row = dict.fromkeys(WOO_HEADER, "")
    row |= {"Type": "simple", "Published": "1", "Visibility in catalog": "visible"}
    return row | cells


def _csv_products(path: Path, fmt: Any, options: ReadOptions) -> dict[str, Any]:
    return {
        r.row.productId: r
        for r in read_rows(path, fmt, options)
        if isinstance(r, ValidRow) and isinstance(r.row, Product)
    }


def test_a_woocommerce_export_with_stock_not_managed_imports_in_stock_without_a_count(
    tmp_path: Path,
) -> None:
    # A store's WooCommerce export: "Manage stock?" off (WooCommerce's default) writes
    # In stock? 1 and an empty Stock. Before, the shopper was told it was out of stock.
    path = tmp_path / "wc.csv"
    laptop = {"Categories": "Computers > Laptops", "Brands": "Aero", "Regular price": "849"}
    rows = [
        _woo_row(ID="1", SKU="UNCOUNTED", Name="Aero 14", **{"In stock?": "1"}, **laptop),
        _woo_row(ID="2", SKU="COUNTED", Name="Aero 15", **{"In stock?": "1", "Stock": "4"},
                 **laptop),
        _woo_row(ID="3", SKU="SOLD-OUT", Name="Aero 16", **{"In stock?": "0"}, **laptop),
    ]  # fmt: skip
    with path.open("w", encoding="utf-8", newline="") as out:
        writer = csv.DictWriter(out, fieldnames=WOO_HEADER)
        writer.writeheader()
        writer.writerows(rows)
    found = _csv_products(path, "woocommerce", OPTIONS)
    stocks = {pid: (r.row.stock, r.row.stockTracked) for pid, r in found.items()}
    assert stocks == {"UNCOUNTED": (0, False), "COUNTED": (4, True), "SOLD-OUT": (0, True)}
    assert any("imported as in stock with no count" in note for note in found["UNCOUNTED"].notes)
    # --default-stock N still gives such a product the count N, and the note says so.
    counted_rows = _csv_products(path, "woocommerce", ReadOptions(store_url=STORE, default_stock=3))
    assert (counted_rows["UNCOUNTED"].row.stock, counted_rows["UNCOUNTED"].row.stockTracked) == (
        3,
        True,
    )
    assert any("--default-stock gave" in note for note in counted_rows["UNCOUNTED"].notes)


SHOPIFY_CSV = """Handle,Title,Vendor,Type,Published,Option1 Name,Option1 Value,Variant SKU,\
Variant Inventory Tracker,Variant Inventory Qty,Variant Price,Status
zephyr-14,Zephyr Laptop 14,Zephyr,Laptops,TRUE,Title,Default Title,ZL-14,,0,699.00,active
zephyr-16,Zephyr Laptop 16,Zephyr,Laptops,TRUE,Title,Default Title,ZL-16,shopify,3,1199.00,active
kite-13,Kite Laptop 13,Kite,Laptops,TRUE,Title,Default Title,KL-13,shopify,0,649.00,active
"""


def test_a_shopify_export_with_an_empty_inventory_tracker_imports_in_stock_without_a_count(
    tmp_path: Path,
) -> None:
    # Shopify sells a variant whose inventory it does not track whatever its count: the
    # shopper is told it is in stock, never its quantity column's 0.
    path = tmp_path / "products_export.csv"
    path.write_text(SHOPIFY_CSV, encoding="utf-8")
    found = _csv_products(path, "shopify", OPTIONS)
    stocks = {pid: (r.row.stock, r.row.stockTracked) for pid, r in found.items()}
    assert stocks == {"ZL-14": (0, False), "ZL-16": (3, True), "KL-13": (0, True)}


def test_a_snapshot_of_the_format_before_is_still_read(
    tmp_path: Path, uncounted_catalog: list[dict[str, Any]], monkeypatch: pytest.MonkeyPatch
) -> None:
    # A store whose snapshot was built before (format 4, same columns) keeps its search,
    # read as a function reads it (checked, then opened), until the indexer, seeing the
    # new format number, builds the next one: shoppers still find the iMac in stock.
    path = tmp_path / "old.sqlite"
    build_index(uncounted_catalog, path)
    with sqlite3.connect(path) as db:
        db.execute("UPDATE snapshot_meta SET format_version = 4")
    meta = validate_snapshot(path)
    assert (meta.format_version, FORMAT_VERSION) == (4, 5)
    opened = open_snapshot(SnapshotFile(version=meta.version, path=path))
    try:
        found = opened.search(SearchQuery(category="COMPUTERS", inStockOnly=True, limit=100))
        assert IMAC in [hit.productId for hit in found.products]
    finally:
        opened.close()
    # The check reads the format: one this code could not read is refused, not served.
    monkeypatch.setattr(snapshot, "READABLE_FORMATS", frozenset({FORMAT_VERSION}))
    with pytest.raises(SnapshotUnreadable, match="format 4"):
        open_snapshot(SnapshotFile(version=meta.version, path=path))


def test_the_syncs_plan_says_a_count_became_uncounted() -> None:
    # What a store team reads of an import or sync that changes it: "stock 4 -> not counted".
    counted_before = Product.model_validate(OLD_RECORD | {"stock": 4}).model_dump()
    held = {OLD_RECORD["productId"]: fingerprint(counted_before)}
    now = Product.model_validate(OLD_RECORD | {"stockTracked": False})
    changed = plan(held, [now], replace=False, keep=set())
    assert [what for _, what in changed.updated] == [
        "Lenovo ThinkPad X1 Carbon: stock 4 -> not counted"
    ]
