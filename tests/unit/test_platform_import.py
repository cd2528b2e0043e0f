"""Shopify and WooCommerce product exports, read as the catalog's products.

The samples in ``tests/support/exports/`` are written as each platform's admin exports
them (every column, in the platform's order): variants, a draft, a gift card, an
accessory, HTML descriptions and pictures.
"""

from __future__ import annotations

import csv
import json
from datetime import date
from pathlib import Path
from typing import Any

import pytest

from catalog_webhook.logic import mapped
from shared.platform import shopify
from shared.platform.draft import product_id
from shared.platform.html_text import html_to_text
from shared.platform.mapping import CategoryMap, maker_tag, spec_entry
from shared.products.product import Product
from storechat.catalog.errors import CatalogFileError
from storechat.catalog.mapping import load_category_map
from storechat.catalog.rows import (
    BadRow,
    Format,
    ReadOptions,
    Row,
    SkippedRow,
    ValidRow,
    read_rows,
)
from tests.support.fake_admin_api import shopify_node
from tests.support.platform_payloads import shopify_product

EXPORTS = Path(__file__).resolve().parents[1] / "support" / "exports"
SHOPIFY = EXPORTS / "shopify_products.csv"
WOOCOMMERCE = EXPORTS / "woocommerce_products.csv"
BOOKS_SHOPIFY = EXPORTS / "shopify_books.csv"
BOOKS_WOOCOMMERCE = EXPORTS / "woocommerce_books.csv"
TODAY = ReadOptions(today=date(2026, 12, 1))

# Shopify's 2024 export names the same columns differently.
SHOPIFY_2024_NAMES = {
    "Handle": "URL handle",
    "Body (HTML)": "Description",
    "Product Category": "Product category",
    "Published": "Published on online store",
    "Option1 Name": "Option1 name",
    "Option1 Value": "Option1 value",
    "Option2 Name": "Option2 name",
    "Option2 Value": "Option2 value",
    "Option3 Name": "Option3 name",
    "Option3 Value": "Option3 value",
    "Variant SKU": "SKU",
    "Variant Barcode": "Barcode",
    "Variant Inventory Tracker": "Inventory tracker",
    "Variant Inventory Qty": "Inventory quantity",
    "Variant Inventory Policy": "Continue selling when out of stock",
    "Variant Price": "Price",
    "Variant Compare At Price": "Compare-at price",
    "Image Src": "Product image URL",
    "Variant Image": "Variant image URL",
    "Gift Card": "Gift card",
}


def _read(path: Path, fmt: Format, options: ReadOptions = TODAY) -> list[Row]:
    return list(read_rows(path, fmt, options))


def _products(rows: list[Row]) -> dict[str, dict[str, Any]]:
    return {
        row.row.productId: row.row.model_dump()
        for row in rows
        if isinstance(row, ValidRow) and isinstance(row.row, Product)
    }


def _skipped(rows: list[Row]) -> dict[tuple[int, ...], str]:
    return {row.lines: row.reason for row in rows if isinstance(row, SkippedRow)}


def _problems(rows: list[Row]) -> list[str]:
    return [str(p) for row in rows if isinstance(row, BadRow) for p in row.problems]


def _write_csv(path: Path, header: list[str], rows: list[list[str]]) -> Path:
    with path.open("w", encoding="utf-8", newline="") as out:
        writer = csv.writer(out)
        writer.writerow(header)
        writer.writerows(rows)
    return path


# -- HTML descriptions ----------------------------------------------------------------------


def test_html_becomes_text_a_shopper_reads_with_lists_kept_apart() -> None:
    html = (
        "<h2>Light&nbsp;&amp; fast</h2><p>A <strong>14-inch</strong> laptop.</p>"
        "<ul><li>16 GB RAM</li><li><p>1 TB SSD</p></li></ul><ol><li>Quiet</li><li>Cool</li></ol>"
        "<script>track()</script><style>p{}</style><p>Caf&eacute; &lt;not a tag&gt;</p>"
    )
    assert html_to_text(html, 4000) == (
        "Light & fast\nA 14-inch laptop.\n• 16 GB RAM\n• 1 TB SSD\n1. Quiet\n2. Cool\n"
        "Café <not a tag>"
    )


def test_plain_text_keeps_its_line_breaks_and_a_long_text_is_cut() -> None:
    assert html_to_text("First line\nSecond line", 100) == "First line\nSecond line"
    assert html_to_text("<p>" + "word " * 50 + "</p>", 20) == "word word word word…"


# -- Shopify --------------------------------------------------------------------------------


def test_each_shopify_variant_is_a_product_with_its_own_price_stock_and_specs() -> None:
    # Given Shopify's export of a phone in two storage sizes, When it is read,
    # Then each size is a product named by its options, priced and stocked as its row
    # says, with the storage as a number the search can filter on.
    products = _products(_read(SHOPIFY, "shopify"))
    small, large = products["GA05843-US"], products["GA05844-US"]
    assert (small["name"], small["price"], small["stock"]) == (
        "Google Pixel 9 - 128 GB / Obsidian",
        799.0,
        14,
    )
    assert (large["name"], large["price"], large["stock"]) == (
        "Google Pixel 9 - 256 GB / Obsidian",
        899.0,
        3,
    )
    # and the screen and camera its description states ("a 6.3-inch Actua display & a 50 MP
    # main camera"), which no option gives
    assert large["specs"] == {
        "storageGb": 256, "color": "Obsidian", "os": "Android 14", "screenInches": 6.3,
        "cameraMp": 50,
    }  # fmt: skip
    assert large["category"] == "MOBILE" and large["brand"] == "Google"
    # The product's own fields, from its first row only, are every variant's.
    assert (
        large["description"]
        == small["description"]
        == (
            "Google's Pixel 9 with the Tensor G4 chip, a 6.3-inch Actua display & a 50 MP main "
            "camera.\n• 7 years of OS & security updates\n• Add Me \u2013 be in the group photo"
        )
    )
    assert large["imageUrl"].endswith("/pixel-9-obsidian.jpg?v=1723456789")


def test_shopify_options_that_are_catalog_specs_take_the_catalogs_units() -> None:
    laptops = _products(_read(SHOPIFY, "shopify"))
    assert laptops["UX3405MA-32-1T"]["specs"] == {
        "ramGb": 32,
        "storageGb": 1024,
        "os": "Windows 11 Home",
        "formFactor": "laptop",  # its category, "Electronics > Computers > Laptops"
        # its description's "A 14-inch 3K OLED ultrabook that weighs 1.2 kg"
        "screenInches": 14,
        "weightKg": 1.2,
    }
    assert laptops["UX3405MA-32-1T"]["stock"] == 0
    assert laptops["UX3405MA-32-1T"]["category"] == "COMPUTERS"


def test_a_shopify_book_takes_its_author_from_a_metafield_and_its_isbn_from_the_barcode() -> None:
    rows = _read(SHOPIFY, "shopify")
    book = _products(rows)["circe-madeline-miller"]  # no SKU: the handle is its id
    assert book["category"] == "BOOKS" and book["brand"] == "Bloomsbury"
    assert book["specs"] == {"author": "Madeline Miller", "isbn": "9781526610176"}
    assert book["description"] == (
        "In the house of Helios, god of the sun, a daughter is born…\nPaperback, 400 pages."
    )
    # Its inventory is not tracked: Shopify sells it whatever the count, so a shopper is
    # told it is in stock with no number (before: out of stock), and the team is told why.
    (valid,) = [r for r in rows if isinstance(r, ValidRow) and r.row.productId == book["productId"]]
    assert (book["stock"], book["stockTracked"]) == (0, False)
    assert valid.notes and "stock not counted by the store" in valid.notes[0]


def test_shopify_drafts_archived_gift_cards_and_accessories_are_skipped_by_line() -> None:
    assert _skipped(_read(SHOPIFY, "shopify")) == {
        (12, 13): "a gift card",
        (14,): "a draft (Status: draft)",
        (15,): "in 'Electronics > Electronics Accessories > Power > Chargers', which maps to "
        "no catalog category",
        (16,): "archived (Status: archived)",
    }


def test_shopifys_2024_header_reads_the_same_products(tmp_path: Path) -> None:
    # Given the same export with the column names Shopify's newer export uses,
    # When it is read, Then the products are exactly those of the classic header.
    with SHOPIFY.open(encoding="utf-8", newline="") as source:
        header, *rows = list(csv.reader(source))
    renamed = _write_csv(
        tmp_path / "products_export.csv", [SHOPIFY_2024_NAMES.get(h, h) for h in header], rows
    )
    assert _products(_read(renamed, "shopify")) == _products(_read(SHOPIFY, "shopify"))


def test_a_file_that_is_not_a_shopify_export_says_which_columns_it_lacks(tmp_path: Path) -> None:
    path = _write_csv(tmp_path / "x.csv", ["productId", "name"], [["A1", "x"]])
    with pytest.raises(CatalogFileError, match=r"not a Shopify product export.*Handle or URL"):
        _read(path, "shopify")


def test_a_handle_whose_rows_are_apart_is_a_bad_row(tmp_path: Path) -> None:
    header = ["Handle", "Title", "Vendor", "Type", "Variant SKU", "Variant Price"]
    path = _write_csv(
        tmp_path / "x.csv",
        header,
        [
            ["a", "Laptop A", "Acer", "Laptop", "A-1", "500"],
            ["b", "Laptop B", "Acer", "Laptop", "B-1", "600"],
            ["a", "", "", "", "A-2", "550"],
        ],
    )
    assert _problems(_read(path, "shopify")) == [
        "line 4, Handle: handle 'a' is also on line 2: a product's rows must be together, as "
        "Shopify exports them"
    ]


# -- WooCommerce ----------------------------------------------------------------------------


def test_each_woocommerce_variation_is_a_product_that_takes_the_rest_from_its_parent() -> None:
    products = _products(_read(WOOCOMMERCE, "woocommerce"))
    small, large = products["SM-S921-128"], products["SM-S921-256"]
    # Its own: name, price (the sale price, within its dates), stock, option.
    assert (small["name"], small["price"], small["stock"]) == (
        "Samsung Galaxy S24 - 128 GB, Onyx Black",
        749.0,
        12,
    )
    assert (large["price"], large["stock"]) == (859.0, 0)
    assert large["specs"] == {
        "os": "Android 14", "storageGb": 256, "color": "Onyx Black",
        # 'A compact 6.2" flagship', "a 50 MP camera & a 4,000 mAh battery"
        "screenInches": 6.2, "cameraMp": 50, "batteryMah": 4000,
    }  # fmt: skip
    # Its parent's: category, brand, description (short first), picture.
    assert large["category"] == "MOBILE" and large["brand"] == "Samsung"
    assert large["description"] == (
        'A compact 6.2" flagship with Galaxy AI.\nThe Galaxy S24 puts a 50 MP camera & a '
        "4,000 mAh battery in a small body.\n• Snapdragon 8 Gen 3 for Galaxy\n• 7 years of updates"
    )
    assert large["imageUrl"] == "https://shop.example.com/wp-content/uploads/2025/09/galaxy-s24.jpg"


def test_a_sale_that_has_ended_leaves_the_regular_price() -> None:
    laptop = _products(_read(WOOCOMMERCE, "woocommerce"))["82XQ00BNUS"]
    assert laptop["price"] == 449.0  # its sale ended on 2025-09-30
    summer = ReadOptions(today=date(2025, 9, 1))
    assert _products(_read(WOOCOMMERCE, "woocommerce", summer))["82XQ00BNUS"]["price"] == 399.0


def test_woocommerce_cells_read_as_the_store_wrote_them() -> None:
    products = _products(_read(WOOCOMMERCE, "woocommerce"))
    laptop, book = products["82XQ00BNUS"], products["wc-120"]
    # The exporter's apostrophe before a leading "-" is gone; "\n" is a line break.
    assert laptop["description"].startswith("- Back-to-school price -\nA 15.6-inch")
    assert laptop["specs"] == {
        "ramGb": 8,
        "storageGb": 512,
        "os": "Windows 11 Home",
        "formFactor": "laptop",  # its category, "Computers > Laptops"
        "screenInches": 15.6,  # its description's "A 15.6-inch Windows laptop"
    }
    # A price with a decimal comma; no SKU, so the id is the row's ID; the GTIN is the ISBN.
    assert book["price"] == 9.99
    assert book["specs"] == {
        "author": "Madeline Miller",
        "pages": 416,
        "format": "Paperback",
        "isbn": "9781408891384",
        "genre": "Historical",  # its category, "Books > Fiction > Historical"
    }


def test_woocommerce_drafts_private_grouped_gift_cards_and_accessories_are_skipped() -> None:
    assert _skipped(_read(WOOCOMMERCE, "woocommerce")) == {
        (7,): "in 'Gift Cards', which maps to no catalog category",
        (8,): "a draft (Published: -1)",
        (9,): "private (Published: 0)",
        (10,): "in 'Computers > Accessories', which maps to no catalog category",
        (11,): "a grouped product (its products have rows of their own)",
    }


def test_a_variation_whose_parent_is_missing_is_a_bad_row(tmp_path: Path) -> None:
    header = ["ID", "Type", "SKU", "Name", "Published", "Regular price", "Parent", "Brands"]
    path = _write_csv(
        tmp_path / "x.csv", header, [["7", "variation", "V-1", "Phone - Red", "1", "9", "id:6", ""]]
    )
    assert _problems(_read(path, "woocommerce")) == [
        "line 2, Parent: its Parent 'id:6' is not a variable product in this file"
    ]


# -- a product's maker -----------------------------------------------------------------------

NO_AUTHOR_NOTE = (
    "a book with no brand or publisher in the export: its author is its brand (a Publisher "
    "attribute or metafield gives the publisher instead)"
)


def _makers(rows: list[Row]) -> dict[str, tuple[str, Any]]:
    return {pid: (p["brand"], p["specs"].get("author")) for pid, p in _products(rows).items()}


def test_a_woocommerce_book_shop_that_fills_no_brands_is_imported_by_author_or_publisher() -> None:
    # Given a book shop's WooCommerce export whose Brands column is empty but for one book,
    # with the author in an attribute, a custom field (Meta: book_author), or a tag
    rows = _read(BOOKS_WOOCOMMERCE, "woocommerce")

    # When it is read, Then every book is imported: its publisher is its maker where the
    # export names one, else its author, as the catalog's own books are their publisher's
    assert _problems(rows) == []
    assert _makers(rows) == {
        "DUNE-PB": ("Frank Herbert", "Frank Herbert"),  # the parent's Author attribute
        "DUNE-HC": ("Frank Herbert", "Frank Herbert"),
        "wc-290": ("Terry Pratchett, Neil Gaiman", ["Terry Pratchett", "Neil Gaiman"]),
        "9780393081084": ("W. W. Norton", "J. Kenji López-Alt"),  # a Publisher attribute
        "NEUROMANCER-PB": ("William Gibson", "William Gibson"),  # Meta: book_author
        "HAIL-MARY-PB": ("Andy Weir", "Andy Weir"),  # the tag "Author: Andy Weir"
        "9781408891384": ("Bloomsbury", "Madeline Miller"),  # Brands, where filled
    }
    # and the team is told once which rows took their author for a brand
    noted = {row.line for row in rows if isinstance(row, ValidRow) and NO_AUTHOR_NOTE in row.notes}
    assert noted == {3, 4, 5, 7, 8}
    # ACF's own _book_author (the field's key) is never read as an author
    assert "field_" not in json.dumps(_products(rows))
    assert _skipped(rows) == {
        (10,): "in 'Book Accessories > Bookmarks', which maps to no catalog category"
    }


def test_a_shopify_book_shop_with_no_vendor_is_imported_by_author_or_publisher() -> None:
    # Given a Shopify export of books with an empty Vendor: the author in a metafield or an
    # "Author_" tag, the publisher in a metafield, and one book whose vendor is filled in
    rows = _read(BOOKS_SHOPIFY, "shopify")

    assert _problems(rows) == []
    assert _makers(rows) == {
        "CIRCE-PB": ("Madeline Miller", "Madeline Miller"),
        "DUNE-PB": ("Frank Herbert", "Frank Herbert"),
        "DUNE-HC": ("Frank Herbert", "Frank Herbert"),
        "HOBBIT-PB": ("HarperCollins", "J.R.R. Tolkien"),
        "PIRANESI-PB": ("Bloomsbury", "Susanna Clarke"),
    }


WOO_HEADER = ["ID", "Type", "SKU", "Name", "Published", "Description", "In stock?", "Stock"]
WOO_HEADER += ["Regular price", "Categories", "Tags", "Brands", "Attribute 1 name"]
WOO_HEADER += ["Attribute 1 value(s)"]


def _woo(tmp_path: Path, *rows: list[str], header: list[str] = WOO_HEADER) -> list[Row]:
    return _read(_write_csv(tmp_path / "x.csv", header, list(rows)), "woocommerce")


@pytest.mark.parametrize(
    ("tags", "attribute", "value"),
    [
        ("", "Brand", "Lenovo"),
        ("", "Manufacturer", "Lenovo"),
        ("business, Brand: Lenovo", "", ""),
        ("Brand_Lenovo", "Color", "Black"),
    ],
)
def test_a_brand_attribute_or_tag_stands_in_for_an_empty_brands_column(
    tmp_path: Path, tags: str, attribute: str, value: str
) -> None:
    laptop = ["5", "simple", "L-1", "ThinkPad E14", "1", "A laptop.", "1", "3", "500", "Laptops"]
    rows = _woo(tmp_path, [*laptop, tags, "", attribute, value])
    assert _problems(rows) == []
    assert _products(rows)["L-1"]["brand"] == "Lenovo"


def test_a_computer_or_phone_with_no_brand_anywhere_is_a_bad_row_that_says_where_to_put_one(
    tmp_path: Path,
) -> None:
    # A computer or a phone always has a maker, and shoppers ask by it: its absence is a gap
    # in the export, reported by line (the import writes nothing, or with --skip-invalid
    # keeps the product as it was), not a product imported without one
    laptop = ["5", "simple", "L-1", "Laptop", "1", "A laptop.", "1", "3", "500", "Laptops"]
    assert _problems(_woo(tmp_path, [*laptop, "school", "", "Color", "Black"])) == [
        "line 2, Brands: is empty, and no attribute or tag (Brand, Manufacturer, Publisher) "
        "names a brand"
    ]
    # an export with no Brands column at all (WooCommerce before 9.6, no brands plugin)
    without = [name for name in WOO_HEADER if name != "Brands"]
    assert _problems(_woo(tmp_path, [*laptop, "", "", ""], header=without)) == [
        "line 2, brand: the export has no brand column, and no attribute or tag (Brand, "
        "Manufacturer, Publisher) names a brand"
    ]
    # a book with neither a publisher nor an author
    book = ["6", "simple", "B-1", "Anthology", "1", "Stories.", "1", "3", "12", "Books"]
    assert _problems(_woo(tmp_path, [*book, "", "", "Format", "Paperback"])) == [
        "line 2, Brands: is empty, and no attribute or tag (Brand, Manufacturer, Publisher, "
        "Author) names the book's maker"
    ]


@pytest.mark.parametrize(
    ("tag", "said"),
    [
        ("Author: Frank Herbert", ("Author", "Frank Herbert")),
        ("Author_Frank Herbert", ("Author", "Frank Herbert")),  # a theme's tag group
        ("Book Author: Andy Weir", ("Book Author", "Andy Weir")),
        ("Publisher_Ace", ("Publisher", "Ace")),
        ("brand_new", None),  # a condition, not the brand "new"
        ("brand: new", None),  # the same, written with a colon
        ("Brand: sale", None),
        ("Brand: 3M", ("Brand", "3M")),
        ("Color: Red", None),  # no maker
        ("science fiction", None),
    ],
)
def test_a_tag_names_the_maker_only_as_a_field_and_its_value(
    tag: str, said: tuple[str, str] | None
) -> None:
    assert maker_tag(tag) == said


def test_an_author_names_only_a_books_maker_and_a_brand_column_always_wins(tmp_path: Path) -> None:
    # A phone with an "Author" attribute is no book: that is no brand
    phone = ["7", "simple", "P-1", "Phone", "1", "A phone.", "1", "3", "300", "Phones"]
    assert _problems(_woo(tmp_path, [*phone, "", "", "Author", "Someone"]))
    # A book whose Brands column is filled keeps it, over a Publisher attribute and its author
    book = ["8", "simple", "B-2", "Circe", "1", "A novel.", "1", "3", "11", "Books"]
    rows = _woo(tmp_path, [*book, "Author: Madeline Miller", "Bloomsbury", "Publisher", "Penguin"])
    assert _makers(rows) == {"B-2": ("Bloomsbury", "Madeline Miller")}


@pytest.mark.parametrize("tag", ["brand: new", "Brand: sale", "brand_new"])
def test_a_condition_tag_is_no_brand_and_a_laptop_with_no_other_stays_a_bad_row(
    tmp_path: Path, tag: str
) -> None:
    # A laptop tagged "brand: new" (new, not used) with an empty Brands column is not
    # imported as made by "new": the row is reported, saying where to name its maker
    laptop = ["5", "simple", "L-1", "Laptop", "1", "A laptop.", "1", "3", "500", "Laptops"]
    rows = _woo(tmp_path, [*laptop, f"school, {tag}", "", "Color", "Black"])
    assert _products(rows) == {}
    assert _problems(rows) == [
        "line 2, Brands: is empty, and no attribute or tag (Brand, Manufacturer, Publisher) "
        "names a brand"
    ]


def test_an_author_tag_attribute_or_field_is_read_only_for_a_book(tmp_path: Path) -> None:
    # A phone tagged "Author: Staff Pick", or with an Author attribute or custom field, is
    # shown with no author: only a book has one
    header = [*WOO_HEADER, "Meta: book_author"]
    phone = ["7", "simple", "P-1", "Phone", "1", "A phone.", "1", "3", "300", "Phones"]
    rows = _woo(
        tmp_path,
        [*phone, "Author: Staff Pick", "Apple", "Color", "Black", ""],
        [*phone[:2], "P-2", *phone[3:], "", "Apple", "Author", "Staff", ""],
        [*phone[:2], "P-3", *phone[3:], "", "Apple", "Color", "Black", "Staff"],
        header=header,
    )
    assert _problems(rows) == []
    assert _makers(rows) == {"P-1": ("Apple", None), "P-2": ("Apple", None), "P-3": ("Apple", None)}
    # a book's author tag is still read
    book = ["8", "simple", "B-2", "Circe", "1", "A novel.", "1", "3", "11", "Books"]
    rows = _woo(tmp_path, [*book, "Author: Madeline Miller", "", "Format", "Paperback", ""])
    assert _makers(rows) == {"B-2": ("Madeline Miller", "Madeline Miller")}


# -- a book's genre from its category path --------------------------------------------------

GENRE_NOTE = "a book's genre read from its category path"


def _genres(rows: list[Row]) -> dict[str, Any]:
    return {pid: p["specs"].get("genre") for pid, p in _products(rows).items()}


def test_a_woocommerce_book_shop_files_each_books_genre_in_its_category_path() -> None:
    # Given a book shop's export with no Genre attribute: each book is filed under "Books >
    # Fiction > Science Fiction", "Books > Cooking", ...
    rows = _read(BOOKS_WOOCOMMERCE, "woocommerce")

    # When it is read, Then each book's genre is the deepest name under "Books", so that a
    # shopper asking for a sold-out book is offered one of the same genre in stock
    assert _genres(rows) == {
        "DUNE-PB": "Science Fiction",
        "DUNE-HC": "Science Fiction",
        "wc-290": "Fantasy",
        "9780393081084": "Cooking",
        "NEUROMANCER-PB": "Science Fiction",
        "HAIL-MARY-PB": "Science Fiction",
        "9781408891384": "Historical",
    }
    # and the team is told which rows took it from there, and how to check them
    noted = {
        row.line
        for row in rows
        if isinstance(row, ValidRow) and any(GENRE_NOTE in note for note in row.notes)
    }
    assert noted == {3, 4, 5, 6, 7, 8, 9}


@pytest.mark.parametrize(
    ("paths", "genre"),
    [
        (["Books > Fiction > Science Fiction"], "Science Fiction"),
        (["Books > Fiction > Science Fiction > Cyberpunk"], "Cyberpunk"),  # any depth
        (["Shop > Books > Crime & Thrillers"], "Crime & Thrillers"),  # "Books" below the top
        (["Books > Sci-Fi &amp; Fantasy"], "Sci-Fi & Fantasy"),  # as WooCommerce escapes it
        (["Media > Books > Print Books > Poetry"], "Poetry"),
        (["Books > Science Fiction > Paperbacks"], "Science Fiction"),  # a binding is none
        (["Books > Bestsellers", "Books > Fiction > Fantasy"], "Fantasy"),  # nor a shelf
        # WooCommerce lists a book's parent categories too: the deepest path decides
        (["Books", "Books > Fiction", "Books > Fiction > Science Fiction"], "Science Fiction"),
        # a branch by author, series, publisher, language, format, age or brand is no genre
        # ("Dune" is not the genre of Dune): the path that names one decides
        (
            ["Books > Fiction > Science Fiction", "Books > Authors > Frank Herbert > Dune"],
            "Science Fiction",
        ),
        (
            ["Books > Authors > Frank Herbert > Dune", "Books > Fiction > Science Fiction"],
            "Science Fiction",
        ),
        (["Books > Horror", "Books > By Author > Stephen King"], "Horror"),
        (["Books > Authors > Stephen King"], None),
        (["Books > By Publisher > Penguin"], None),
        (["Books > Series > Discworld"], None),
        (["Books > Imprint > Tor"], None),
        (["Books > Languages > French"], None),
        (["Books > Formats > Graphic Novels"], None),
        (["Books > Brand > Marvel"], None),
        (["Books > Fantasy > By Author > Tolkien"], "Fantasy"),  # the genre above stays
        # a series or an age range is passed over for the name above it
        (["Books > Fiction > Science Fiction > Dune Series"], "Science Fiction"),
        (["Books > Children's > Ages 8-12"], "Children's"),
        (["Books > Children's > 0-3 years"], "Children's"),
        (["Books > Picture Books > Age 5+"], "Picture Books"),
        (["Books"], None),
        (["Media > Books > Print Books"], None),  # Shopify's taxonomy: a format, no genre
        (["Books > New Arrivals"], None),
        (["Book Accessories > Bookmarks"], None),
        (["Electronics > Computers > Laptops > Gaming"], None),  # no book
        (["Electronics > Phones > Android"], None),
    ],
)
def test_a_books_genre_is_the_deepest_name_below_its_books_category(
    paths: list[str], genre: str | None
) -> None:
    assert CategoryMap().genre(paths) == genre


def test_a_stores_own_name_for_books_in_its_category_map_files_genres_too(tmp_path: Path) -> None:
    # Given a French shop whose books are under "Livres", mapped to books by the operator
    path = tmp_path / "map.json"
    path.write_text(json.dumps({"Livres": "BOOKS"}), encoding="utf-8")
    mapping = load_category_map(path)
    # Then "Livres > Romans > Policier" is a crime novel's genre, "Policier"
    assert mapping.genre(["Livres > Romans > Policier"]) == "Policier"
    assert CategoryMap().genre(["Livres > Romans > Policier"]) is None  # not books without it


GENRE_HEADER = [*WOO_HEADER, "Attribute 2 name", "Attribute 2 value(s)"]
SCIFI = ["9", "simple", "B-9", "Neuromancer", "1", "A novel.", "1", "0", "9.99"]


@pytest.mark.parametrize(
    ("tags", "attribute", "value", "genre"),
    [
        ("", "", "", "Science Fiction"),  # the path's
        ("cyberpunk", "Genre", "Cyberpunk", "Cyberpunk"),  # a Genre attribute stays
        ("", "Book Genre", "Cyberpunk", "Cyberpunk"),  # under the store's own name too
        ("classic, Genre: Cyberpunk", "", "", "Cyberpunk"),  # a tag that names it
        ("Genre_Cyberpunk", "", "", "Cyberpunk"),  # a theme's tag group
        ("Genre: Space Opera", "Genre", "Cyberpunk", "Cyberpunk"),  # the attribute first
    ],
)
def test_a_genre_the_export_gives_is_never_replaced_by_the_category_path(
    tmp_path: Path, tags: str, attribute: str, value: str, genre: str
) -> None:
    book = [*SCIFI, "Books > Fiction > Science Fiction", tags, "", "Author", "William Gibson"]
    rows = _woo(tmp_path, [*book, attribute, value], header=GENRE_HEADER)
    assert _genres(rows) == {"B-9": genre}
    (row,) = [r for r in rows if isinstance(r, ValidRow)]
    assert any(GENRE_NOTE in note for note in row.notes) == (genre == "Science Fiction")


def test_a_phone_or_a_computer_takes_no_genre_from_its_path_or_tags(tmp_path: Path) -> None:
    # A phone under "Phones > Gaming Phones" or tagged "Genre: Gaming" is shown with no genre:
    # only a book has one
    phone = ["7", "simple", "P-1", "Phone", "1", "A phone.", "1", "3", "300"]
    laptop = ["8", "simple", "L-1", "Laptop", "1", "A laptop.", "1", "3", "900"]
    rows = _woo(
        tmp_path,
        [*phone, "Electronics > Phones > Rugged", "Genre: Gaming", "Apple", "Color", "Black"],
        [*laptop, "Computers > Laptops > Business", "", "Lenovo", "Color", "Black"],
    )
    assert _problems(rows) == []
    assert _genres(rows) == {"P-1": None, "L-1": None}


def _shopify_books(tmp_path: Path, tags: dict[str, str], types: dict[str, str]) -> list[Row]:
    """The Shopify book shop's export with some products' tags and types replaced."""
    with BOOKS_SHOPIFY.open(encoding="utf-8", newline="") as source:
        header, *rows = list(csv.reader(source))
    at = {name: header.index(name) for name in ("Handle", "Tags", "Type")}
    for row in rows:
        if row[at["Type"]]:  # a product's first row
            row[at["Tags"]] = tags.get(row[at["Handle"]], row[at["Tags"]])
            row[at["Type"]] = types.get(row[at["Handle"]], row[at["Type"]])
    return _read(_write_csv(tmp_path / "books.csv", header, rows), "shopify")


def test_a_shopify_books_genre_is_read_from_a_genre_tag_or_its_type_path(tmp_path: Path) -> None:
    # Given Shopify books in "Media > Books > Print Books" (no genre in it): Dune tagged
    # "Genre: Science Fiction", The Hobbit's type "Books > Fantasy", Circe's "Genre_Myth"
    rows = _shopify_books(
        tmp_path,
        tags={
            "dune": "Author_Frank Herbert, Genre: Science Fiction",
            "circe-madeline-miller": "Genre_Myth",
        },
        types={"the-hobbit": "Books > Fantasy"},
    )
    # Then each has that genre, and a book that says none has none
    assert _problems(rows) == []
    assert _genres(rows) == {
        "CIRCE-PB": "Myth",
        "DUNE-PB": "Science Fiction",
        "DUNE-HC": "Science Fiction",
        "HOBBIT-PB": "Fantasy",
        "PIRANESI-PB": None,
    }


def test_a_webhook_and_an_api_page_read_a_books_genre_as_the_export_does() -> None:
    # Given a Shopify book whose type is "Books > Fiction > Science Fiction", as a webhook's
    # body and an Admin API node, and one tagged "Genre: Fantasy"
    path = "Books > Fiction > Science Fiction"
    payload = shopify_product(31, "NEURO-1", title="Neuromancer", product_type=path)
    payload["tags"] = "Author: William Gibson"
    node = shopify_node(31, "NEURO-1", title="Neuromancer", price="9.99")
    node |= {"productType": "Books", "tags": ["Author: William Gibson", "Genre: Fantasy"]}
    options = ReadOptions(store_url="https://shop.example.com")

    # When each is mapped, Then the book has the genre, as the CSV import reads it
    (from_webhook,), _, _ = mapped(shopify.rest_product(payload, options.store_url), options)
    (from_api,), _, _ = mapped(shopify.graphql_product(node, options.store_url), options)
    assert from_webhook.specs["genre"] == "Science Fiction"
    assert from_api.specs["genre"] == "Fantasy"
    assert from_webhook.specs["author"] == "William Gibson"


# -- categories and specs -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("path", "category"),
    [
        ("Electronics > Computers > Laptops", "COMPUTERS"),
        ("Electronics > Computers > Desktop Computers", "COMPUTERS"),
        ("Electronics > Communications > Telephony > Mobile & Smart Phones", "MOBILE"),
        ("Media > Books > Print Books", "BOOKS"),
        ("Books > Fiction > Fantasy", "BOOKS"),  # a store's own sub-categories
        ("Phones > Cases", None),
        ("Electronics > Electronics Accessories > Computer Accessories > Laptop Bags", None),
        ("Home & Garden > Kitchen", None),
    ],
)
def test_the_default_table_places_a_category_by_its_most_specific_known_name(
    path: str, category: str | None
) -> None:
    assert CategoryMap().decide([path]).category == category


def test_a_category_map_file_adds_and_overrides_names(tmp_path: Path) -> None:
    # Given a map that sells tablets as computers and no longer sells phones' "Mobile",
    # When products are placed, Then the file's entries decide over the defaults.
    path = tmp_path / "map.json"
    path.write_text(
        json.dumps({"Tablet Computers": "computers", "Mobile": None, "Deals > Laptops": "BOOKS"}),
        encoding="utf-8",
    )
    mapping = load_category_map(path)
    assert mapping.decide(["Electronics > Computers > Tablet Computers"]).category == "COMPUTERS"
    assert mapping.decide(["Mobile"]).category is None
    assert mapping.decide(["Deals > Laptops"]).category == "BOOKS"  # the longer name wins
    assert mapping.decide(["Laptops"]).category == "COMPUTERS"


def test_a_product_also_in_an_accessory_category_is_not_imported() -> None:
    decision = CategoryMap().decide(["Laptops", "Accessories"])
    assert decision.category is None and "'Accessories'" in decision.reason


def test_a_bad_category_map_names_the_entry_and_the_categories(tmp_path: Path) -> None:
    path = tmp_path / "map.json"
    path.write_text('{"Tablets": "TABLETS"}', encoding="utf-8")
    with pytest.raises(CatalogFileError, match="'Tablets' maps to 'TABLETS'; use one of BOOKS"):
        load_category_map(path)
    path.write_text('{"Tablets": ', encoding="utf-8")
    with pytest.raises(CatalogFileError, match="line 1: not valid JSON"):
        load_category_map(path)


@pytest.mark.parametrize(
    ("name", "value", "spec"),
    [
        ("Storage", "1TB", ("storageGb", 1024)),
        ("Capacity", "256 GB", ("storageGb", 256)),
        ("RAM", "16GB", ("ramGb", 16)),
        ("Screen Size", '6.1"', ("screenInches", 6.1)),
        ("Weight", "170 g", ("weightKg", 0.17)),
        ("Battery", "18 hours", ("batteryHours", 18)),
        ("Battery", "5000 mAh", ("batteryMah", 5000)),
        ("Pages", "352 pages", ("pages", 352)),
        ("Operating System", "Windows 11 Home", ("os", "Windows 11 Home")),
        ("Author", "Madeline Miller", ("author", "Madeline Miller")),
        ("Storage", "Plenty", ("storage", "Plenty")),  # no number: text, under its own name
        ("Screen Protector", "Included", ("screenProtector", "Included")),
    ],
)
def test_an_option_becomes_the_catalog_spec_it_names(
    name: str, value: str, spec: tuple[str, Any]
) -> None:
    assert spec_entry(name, value) == spec


def test_an_id_is_the_sku_as_the_store_writes_it_and_a_long_one_stays_unique() -> None:
    # A SKU is an id whatever it holds: only the spaces at its ends go.
    for sku in ("MLK03LL/A", "100201", "BK-THE-MARTIAN-PA", "bk.martian pb", "#4411", "///"):
        assert product_id(f"  {sku} ") == sku
    long_a, long_b = product_id("x" * 300 + "a"), product_id("x" * 300 + "b")
    assert long_a and long_b and long_a != long_b
    assert len(long_a) == 255 and long_a == product_id("x" * 300 + "a")
    assert product_id("   ") is None
