"""One SKU on several variants: Shopify and WooCommerce allow it, so the export imports.

The first row with the SKU keeps it; each later one gets an id of its own, the SKU, ``~``
and a hash of what the platform tells the variants apart by (Shopify: the handle and the
options; WooCommerce: the row's ID), the same on every import. The import notes each.
"""

from __future__ import annotations

import csv
from pathlib import Path

from shared.products.product import Product
from storechat.catalog.rows import BadRow, Format, ValidRow, read_rows

EXPORTS = Path(__file__).resolve().parents[1] / "support" / "exports"
SHOPIFY_HEADER = next(csv.reader((EXPORTS / "shopify_products.csv").open(encoding="utf-8")))
WOO_HEADER = next(csv.reader((EXPORTS / "woocommerce_products.csv").open(encoding="utf-8")))


def export(path: Path, header: list[str], rows: list[dict[str, str]]) -> Path:
    with path.open("w", encoding="utf-8", newline="") as file:
        writer = csv.writer(file)
        writer.writerow(header)
        writer.writerows([[row.get(name, "") for name in header] for row in rows])
    return path


def shopify_book(handle: str, sku: str, price: str, **cells: str) -> dict[str, str]:
    return {
        "Handle": handle,
        "Title": handle.replace("-", " ").title(),
        "Vendor": "Red Rocket Press",
        "Product Category": "Media > Books > Print Books",
        "Published": "TRUE",
        "Status": "active",
        "Variant SKU": sku,
        "Variant Price": price,
        "Variant Inventory Qty": "3",
        **cells,
    }


def imported(path: Path, fmt: Format) -> list[tuple[str, str, tuple[str, ...]]]:
    rows = list(read_rows(path, fmt))
    assert not [row for row in rows if isinstance(row, BadRow)], rows
    return [
        (row.row.productId, row.row.name, row.notes)
        for row in rows
        if isinstance(row, ValidRow) and isinstance(row.row, Product)
    ]


def test_a_shopify_export_with_one_sku_on_several_variants_imports_every_one(
    tmp_path: Path,
) -> None:
    # Given a Shopify export in which two formats of one book, and another book, share a SKU
    path = export(
        tmp_path / "products.csv",
        SHOPIFY_HEADER,
        [
            shopify_book(
                "the-martian", "100201", "9.99", **{"Option1 Name": "Format",
                                                     "Option1 Value": "Paperback"}
            ),
            {"Handle": "the-martian", "Option1 Value": "Hardcover", "Variant SKU": "100201",
             "Variant Price": "24.99", "Variant Inventory Qty": "2"},
            shopify_book("artemis", "100201", "11.99"),
        ],
    )  # fmt: skip
    # When it is read for import
    products = imported(path, "shopify")
    # Then every variant is a product, each with an id of its own
    ids = [pid for pid, _, _ in products]
    assert ids[0] == "100201" and len(set(ids)) == 3
    assert all(pid.startswith("100201~") for pid in ids[1:])
    # And each later one is noted, with the line that has the SKU and its new id
    assert f"SKU '100201' is also on line 2: imported as '{ids[1]}'" in products[1][2]
    assert f"SKU '100201' is also on line 2: imported as '{ids[2]}'" in products[2][2]
    assert not any("SKU" in note for note in products[0][2])
    # And the same export read again gives the same ids
    assert [pid for pid, _, _ in imported(path, "shopify")] == ids


def test_a_duplicate_keeps_its_id_when_other_products_come_and_go(tmp_path: Path) -> None:
    first = [
        shopify_book("the-martian", "100201", "9.99"),
        shopify_book("artemis", "100201", "11.99"),
    ]
    later = [shopify_book("dune", "DUNE-1", "10.99"), *first]
    before = imported(export(tmp_path / "a.csv", SHOPIFY_HEADER, first), "shopify")
    after = imported(export(tmp_path / "b.csv", SHOPIFY_HEADER, later), "shopify")
    assert {name: pid for pid, name, _ in before} == {
        name: pid for pid, name, _ in after if name != "Dune"
    }


def test_a_woocommerce_export_with_one_sku_twice_imports_both(tmp_path: Path) -> None:
    rows = [
        {"ID": str(number), "Type": "simple", "SKU": "BK-WEIR", "Name": name, "Published": "1",
         "Visibility in catalog": "visible", "In stock?": "1", "Stock": "4",
         "Regular price": price, "Categories": "Books", "Brands": "Red Rocket Press"}
        for number, name, price in ((201, "The Martian", "9.99"), (202, "Artemis", "11.99"))
    ]  # fmt: skip
    products = imported(export(tmp_path / "woo.csv", WOO_HEADER, rows), "woocommerce")
    assert products[0][0] == "BK-WEIR"
    assert products[1][0].startswith("BK-WEIR~")
    assert f"SKU 'BK-WEIR' is also on line 2: imported as '{products[1][0]}'" in products[1][2]


def test_in_the_catalogs_own_format_an_id_twice_is_still_a_mistake(tmp_path: Path) -> None:
    path = tmp_path / "own.csv"
    path.write_text(
        "productId,name,brand,category,price,description,stock\n"
        "100201,The Martian,Crown,BOOKS,9.99,A novel.,3\n"
        "100201,Artemis,Crown,BOOKS,11.99,A novel.,3\n",
        encoding="utf-8",
    )
    rows = list(read_rows(path, "csv"))
    assert [str(p) for row in rows if isinstance(row, BadRow) for p in row.problems] == [
        "line 3, productId: 100201 is already on line 2"
    ]
