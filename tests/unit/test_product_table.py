"""The catalog's products as the model reads them: one table, each field named once."""

from __future__ import annotations

import json
from typing import Any

import pytest

from lookup_inventory.records import compact
from shared.products.catalog_data import load_catalog
from shared.products.table import as_table, shown_products

CATALOG = load_catalog()


def _size(value: Any) -> int:
    return len(json.dumps(value, ensure_ascii=False, separators=(",", ":")))


def test_products_become_one_table_that_reads_back_as_the_same_products() -> None:
    # Given four laptops and a book, as the catalog tool shows them to a model
    products = [compact(p) for p in CATALOG if p["category"] == "COMPUTERS"][:4]
    products.append(next(compact(p) for p in CATALOG if p["category"] == "BOOKS"))
    # When they are written as a table
    table = as_table(products)
    # Then each field is named once, the id first, the specs between stock and summary
    columns = table["columns"]
    assert columns[0] == "productId" and len(columns) == len(set(columns))
    assert columns.index("stock") < columns.index("weightKg") < columns.index("summary")
    assert len(table["rows"]) == 5 and all(len(row) == len(columns) for row in table["rows"])
    # and a spec a product lacks (a laptop's author) is null in its row
    author = columns.index("author")
    assert table["rows"][0][author] is None and table["rows"][4][author]
    # and read back, they are the products shown, in order, specs and all
    assert shown_products(table) == products


def test_a_table_is_far_smaller_than_the_same_products_as_objects() -> None:
    products = [compact(p) for p in CATALOG if p["category"] == "COMPUTERS"][:4]
    assert _size(as_table(products)) < 0.8 * _size(products)


def test_a_spec_named_like_a_field_keeps_its_own_column() -> None:
    # Given a store whose products carry a spec called "price" and one called "spec.x"
    products = [
        {"productId": "A1", "name": "A", "price": 5, "specs": {"price": "per pack", "spec.x": 1}},
        {"productId": "B2", "name": "B", "price": 7, "specs": {}},
    ]
    table = as_table(products)
    assert table["columns"] == ["productId", "name", "price", "spec.price", "spec.spec.x"]
    assert shown_products(table) == products


def test_a_value_every_product_shares_is_said_once() -> None:
    # Given three Apple phones, as the catalog tool shows them
    phones = [compact(p) for p in CATALOG if p["category"] == "MOBILE" and p["brand"] == "Apple"][
        :3
    ]
    assert len(phones) == 3
    table = as_table(phones)
    # Then what all three have (their brand, their system) is said once, not in the rows
    assert table["same"]["brand"] == "Apple" and table["same"]["os"].startswith("iOS")
    assert not set(table["same"]) & set(table["columns"])
    assert table["columns"][0] == "productId" and "productId" not in table["same"]
    # and read back, every product has them again, in its fields and specs
    assert shown_products(table) == phones


def test_only_what_every_row_holds_alike_is_said_once() -> None:
    products = [
        {"productId": "A1", "name": "A", "stock": 1, "specs": {"touch": True, "x": None}},
        {"productId": "B2", "name": "B", "stock": True, "specs": {"touch": True}},
    ]
    table = as_table(products)
    # true is not 1, and a null says nothing: only the shared spec goes
    assert table["same"] == {"touch": True}
    assert table["columns"] == ["productId", "name", "stock", "x"]
    # one product alone shares nothing with another: its table says everything in its row
    assert "same" not in as_table(products[:1])
    # the same read back from a store's own tool, whose "same" names a column too: the row wins
    own = {"columns": ["productId", "stock"], "rows": [["A1", 3]], "same": {"stock": 9, "n": 1}}
    assert shown_products(own) == [{"productId": "A1", "stock": 3, "specs": {"n": 1}}]


def test_no_products_are_an_empty_table() -> None:
    assert as_table([]) == {"columns": [], "rows": []}
    assert shown_products(as_table([])) == []


def test_a_list_of_products_reads_as_it_is() -> None:
    # A store's own tool, or a scripted test, may still answer with one object each
    listed = [{"productId": "X", "name": "x"}, "not a product"]
    assert shown_products(listed) == [{"productId": "X", "name": "x"}]


@pytest.mark.parametrize(
    "value",
    [
        None,
        "CMP-001",
        {"columns": ["productId"]},
        {"columns": "productId", "rows": [["A"]]},
        {"columns": ["productId", "name"], "rows": [["A"], "B", None]},
    ],
)
def test_what_is_not_a_table_of_products_reads_as_none(value: Any) -> None:
    # A row whose cells do not match the columns is skipped, never misread
    assert shown_products(value) == []
