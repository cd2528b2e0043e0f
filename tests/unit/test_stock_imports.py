"""What an import makes of stock a store does not count, as a store team sees it in the
catalog and in the import's notes."""

from __future__ import annotations

import argparse
import csv
from pathlib import Path

from shared.platform.rows import DEFAULT_MAX_PRICE
from storechat.catalog.importing import read_options
from storechat.catalog.rows import ValidRow, read_rows
from tests.unit.test_uncounted_stock import (
    OPTIONS,
    SHOPIFY_CSV,
    WOO_HEADER,
    _csv_products,
    _woo_row,
)

SHOPIFY_BY_LOCATION = """Handle,Title,Vendor,Type,Published,Option1 Name,Option1 Value,\
Variant SKU,Variant Inventory Tracker,Inventory Available: Main Street Store,\
Inventory Available: Warehouse,Variant Inventory Policy,Variant Price,Status
zephyr-14,Zephyr Laptop 14,Zephyr,Laptops,TRUE,Title,Default Title,ZL-14,,0,0,deny,699.00,active
zephyr-16,Zephyr Laptop 16,Zephyr,Laptops,TRUE,Title,Default Title,ZL-16,shopify,3,1,deny,999,active
kite-13,Kite Laptop 13,Kite,Laptops,TRUE,Title,Default Title,KL-13,shopify,0,0,deny,649.00,active
"""


def test_a_shopify_export_by_location_with_an_empty_tracker_imports_in_stock(
    tmp_path: Path,
) -> None:
    # An export with a column per location: the untracked laptop's 0 / 0 is no count, and
    # shoppers see it in stock with no number (before: stock 0, out of stock)
    path = tmp_path / "products_export.csv"
    path.write_text(SHOPIFY_BY_LOCATION, encoding="utf-8")
    found = _csv_products(path, "shopify", OPTIONS)
    stocks = {pid: (r.row.stock, r.row.stockTracked) for pid, r in found.items()}
    assert stocks == {"ZL-14": (0, False), "ZL-16": (4, True), "KL-13": (0, True)}
    assert any("stock not counted by the store" in note for note in found["ZL-14"].notes)


def test_default_stock_0_imports_an_untracked_variant_sold_out(tmp_path: Path) -> None:
    # A store team that wants uncounted products shown sold out passes --default-stock 0:
    # shoppers see ZL-14 out of stock (before: 0 was taken for "not given", in stock)
    path = tmp_path / "products_export.csv"
    path.write_text(SHOPIFY_CSV, encoding="utf-8")
    args = argparse.Namespace(
        default_stock=0, category_map=None, store_url=None, max_price=DEFAULT_MAX_PRICE
    )
    options = read_options(args, "shopify", "https://shop.example.com")
    found = _csv_products(path, "shopify", options)
    assert (found["ZL-14"].row.stock, found["ZL-14"].row.stockTracked) == (0, True)
    assert any("imported with stock 0, the count --default-stock gave" in n
               for n in found["ZL-14"].notes)  # fmt: skip
    # Left out, it is in stock with no count
    args.default_stock = None
    options = read_options(args, "shopify", "https://shop.example.com")
    found = _csv_products(path, "shopify", options)
    assert (found["ZL-14"].row.stock, found["ZL-14"].row.stockTracked) == (0, False)


def test_a_woocommerce_row_on_backorder_is_noted_with_its_status(tmp_path: Path) -> None:
    # A store team reads why the laptop on backorder is sold out: its status, not "no
    # stock status" (before: "no stock count and no stock status in the export")
    path = tmp_path / "wc.csv"
    laptop = {"Categories": "Computers > Laptops", "Brands": "Acme", "Regular price": "999"}
    row = _woo_row(ID="4", SKU="LAP-BO", Name="Acme 16", **{"In stock?": "backorder"}, **laptop)
    with path.open("w", encoding="utf-8", newline="") as out:
        writer = csv.DictWriter(out, fieldnames=WOO_HEADER)
        writer.writeheader()
        writer.writerow(row)
    found = _csv_products(path, "woocommerce", OPTIONS)
    assert (found["LAP-BO"].row.stock, found["LAP-BO"].row.stockTracked) == (0, True)
    notes = " ".join(found["LAP-BO"].notes)
    assert "the stock status 'backorder' (on backorder)" in notes
    assert "no stock status" not in notes


OWN_CSV = """productId,name,brand,category,price,stock,stockTracked,description
OWN-1,Own Laptop A,Own,COMPUTERS,500,0,false,A laptop sold uncounted
OWN-5,Own Laptop E,Own,COMPUTERS,900,4,true,Counted
OWN-6,Own Laptop F,Own,COMPUTERS,950,,false,Sold uncounted and no stock cell
OWN-7,Own Laptop G,Own,COMPUTERS,990,,,Counted and no stock cell
"""


def test_the_own_csv_takes_an_uncounted_product_with_no_stock_cell(tmp_path: Path) -> None:
    # The docs say a product sold uncounted has no count: its row may leave stock empty,
    # and shoppers see it in stock (before: "line 4, stock: is required", not imported)
    path = tmp_path / "catalog.csv"
    path.write_text(OWN_CSV, encoding="utf-8")
    found = _csv_products(path, "csv", OPTIONS)
    stocks = {pid: (r.row.stock, r.row.stockTracked) for pid, r in found.items()}
    assert stocks == {"OWN-1": (0, False), "OWN-5": (4, True), "OWN-6": (0, False)}
    # A counted product still needs its count
    problems = [r for r in read_rows(path, "csv", OPTIONS) if not isinstance(r, ValidRow)]
    assert "stock" in str(problems) and "OWN-7" not in found
