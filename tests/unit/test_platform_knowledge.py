"""What a platform knows about a product, as the search, the catalog tool and the fact
check use it: the kind of computer, a sale, tags, a weight said as people say it, and the
product's page."""

from __future__ import annotations

import copy
import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from pydantic import ValidationError

from compose_response.facts import check_facts
from lookup_inventory.logic import run
from shared.api.contract import ToolUse
from shared.platform.mapping import CategoryMap, kind_of
from shared.products.catalog_data import load_catalog
from shared.products.catalog_table import CatalogRead
from shared.products.ledger import products_of
from shared.products.product import Product
from shared.products.table import shown_products
from shared.products.weight import for_model, shown
from shared.search import (
    SearchIndex,
    SearchQuery,
    SnapshotUnreadable,
    build_index,
    validate_snapshot,
)
from storechat.catalog.rows import ValidRow, read_rows
from storechat.settings import SettingsError, read_settings

SAMPLE = load_catalog()
BY_ID = {p["productId"]: p for p in SAMPLE}
LAPTOP_KINDS = {"laptop", "2-in-1"}
MAC_MINI = "CMP-015"  # formFactor desktop, 1.18 kg


def _with(product_id: str, **changes: Any) -> dict[str, Any]:
    return {**copy.deepcopy(BY_ID[product_id]), **changes}


ON_SALE = _with("CMP-023", compareAtPrice=399.0)  # HP 14 Laptop, $349
NO_LONGER = _with("CMP-008", compareAtPrice=599.0)  # Dell Inspiron 14: $749, above 599
TAGGED = _with("CMP-032", tags=["back to school", "gaming"])  # Acer Aspire 5
NAMED = _with("CMP-039", specs={**BY_ID["CMP-039"]["specs"], "formFactor": "Notebook"})
CHANGED = {p["productId"]: p for p in (ON_SALE, NO_LONGER, TAGGED, NAMED)}
CATALOG = [CHANGED.get(p["productId"], p) for p in SAMPLE]


@pytest.fixture(scope="module")
def index(tmp_path_factory: pytest.TempPathFactory) -> Iterator[SearchIndex]:
    path = tmp_path_factory.mktemp("knowledge") / "catalog.sqlite"
    build_index(CATALOG, path)
    opened = SearchIndex.open(path)
    yield opened
    opened.close()


def _search(index: SearchIndex, **fields: Any) -> list[str]:
    return [hit.productId for hit in index.search(SearchQuery.from_input(fields)).products]


class _Table:
    def products_by_id(self, ids: Any, *, deadline_s: float | None) -> CatalogRead:
        by_id = {p["productId"]: copy.deepcopy(p) for p in CATALOG}
        return CatalogRead([by_id[i] for i in ids if i in by_id])


def _tool(index: SearchIndex, tool_input: dict[str, Any], **kw: Any) -> dict[str, Any]:
    use = ToolUse(toolUseId="t1", name="lookup_inventory", input=tool_input)
    out = run(use, index=lambda: index, source=_Table(), max_results=8, **kw).dump()
    told: dict[str, Any] = out["toolResult"]["content"][0]["json"]
    return {**told, "products": shown_products(told["products"])}


# -- the kind of computer ------------------------------------------------------------------


def test_a_search_for_laptops_in_the_bundled_sample_never_shows_a_desktop(
    index: SearchIndex,
) -> None:
    # Given the bundled sample, whose computers each say their kind
    declared = {p["specs"].get("formFactor") for p in SAMPLE if p["category"] == "COMPUTERS"}
    assert None not in declared

    # When a shopper's words ask for laptops, Then only laptops (and 2-in-1s) come back
    laptops = _search(index, keywords="light laptop", limit=40)
    assert laptops and MAC_MINI not in laptops
    kinds = {CHANGED.get(pid, BY_ID[pid])["specs"]["formFactor"] for pid in laptops}
    assert kinds <= LAPTOP_KINDS | {"Notebook"}
    # And a desktop when they ask for one
    desktops = _search(index, keywords="desktop", limit=40)
    assert MAC_MINI in desktops
    assert {BY_ID[pid]["specs"]["formFactor"] for pid in desktops} <= {"desktop", "all-in-one"}


def test_a_records_own_word_for_its_kind_is_that_kind(index: SearchIndex) -> None:
    # Given a laptop whose record says "Notebook", When laptops are asked for, Then it is one
    assert NAMED["productId"] in _search(index, keywords="laptop", limit=40)


def test_the_model_filters_on_the_kind_of_computer(index: SearchIndex) -> None:
    told = _tool(index, {"formFactor": "desktop", "limit": 12})
    shown = [p["productId"] for p in told["products"]]
    assert MAC_MINI in shown
    assert {BY_ID[pid]["specs"]["formFactor"] for pid in shown} <= {"desktop", "all-in-one"}
    # the Mac mini is said to be a desktop, so no one calls it a light laptop
    mini = next(p for p in told["products"] if p["productId"] == MAC_MINI)
    assert mini["specs"]["formFactor"] == "desktop"


@pytest.mark.parametrize(
    ("name", "category", "kind"),
    [
        ("Electronics > Computers > Laptops", "COMPUTERS", "laptop"),
        ("Laptop Computers", "COMPUTERS", "laptop"),
        ("Laptop", "COMPUTERS", "laptop"),
        ("Notebooks", "COMPUTERS", "laptop"),
        ("Computers > Gaming Notebooks", "COMPUTERS", "laptop"),
        ("Chromebooks", "COMPUTERS", "laptop"),
        ("Electronics > Computers > Desktop Computers", "COMPUTERS", "desktop"),
        ("Desktops", "COMPUTERS", "desktop"),
        ("Mini PCs", "COMPUTERS", "desktop"),
        ("All-in-One Computers", "COMPUTERS", "all-in-one"),
        ("Electronics > Computers > Tablet Computers", "COMPUTERS", "tablet"),
        ("2-in-1 Laptops", "COMPUTERS", "2-in-1"),
        ("Electronics > Computers", "COMPUTERS", None),
        ("Cell Phones", "MOBILE", None),
        ("Cell Phone", "MOBILE", None),
        ("Phone", "MOBILE", None),
        ("Phones", "MOBILE", None),
        ("Computers > Laptop Sleeves", None, None),
        ("Phone Case", None, None),
        ("Office Supplies > Paper Notebooks", None, None),
    ],
)
def test_a_platforms_category_or_type_names_the_category_and_kind_singular_or_plural(
    name: str, category: str | None, kind: str | None
) -> None:
    decision = CategoryMap().decide([name])
    assert decision.category == category
    assert kind_of([name], decision.category or "") == kind


def test_an_attribute_that_names_the_kind_is_read_in_the_kinds_own_word(tmp_path: Path) -> None:
    # Given a Shopify product under "Computers" whose metafield says "Notebook"
    path = tmp_path / "products_export.csv"
    path.write_text(
        "Handle,Title,Vendor,Product Category,Type,Variant SKU,Variant Price,"
        "Form factor (product.metafields.custom.form_factor)\n"
        "nw-14,Northwind 14,Northwind,Electronics > Computers,Computer,NW-14,499.00,Notebook\n",
        encoding="utf-8",
    )
    (row,) = list(read_rows(path, "shopify"))
    # Then its kind is a laptop, which a search for laptops filters on
    assert isinstance(row, ValidRow) and isinstance(row.row, Product)
    assert row.row.specs["formFactor"] == "laptop"


# -- a sale --------------------------------------------------------------------------------


def test_on_sale_finds_only_products_whose_price_before_a_sale_is_higher(
    index: SearchIndex,
) -> None:
    # "on sale", "discounted": a filter; "for sale" (sold here) is not
    assert _search(index, keywords="laptops on sale") == ["CMP-023"]
    assert _search(index, keywords="discounted computers") == ["CMP-023"]
    assert len(_search(index, keywords="laptops for sale", limit=20)) > 1
    result = index.search(SearchQuery(keywords="laptops on sale"))
    assert result.understood["onSale"] is True


def test_a_kind_with_nothing_on_sale_is_that_kind_told_none_is_on_sale(
    index: SearchIndex,
) -> None:
    # Given a store with one laptop on sale and no phone on sale
    result = index.search(SearchQuery(keywords="phones on sale"))
    # When the shopper asks for phones on sale, Then they get phones, not something else
    # on sale nor whatever the store sells, and are told the discount was dropped
    assert result.products and all(p.category == "MOBILE" for p in result.products)
    assert result.relaxed == ["onSale"] and result.understood["category"] == "MOBILE"
    assert "onSale" not in result.understood
    told = _tool(index, {"keywords": "phones on sale"})
    assert told["relaxed"] == (
        "Nothing matched all of that, so I dropped: on sale (none is on sale now: say so)."
    )
    # while a search that did not ask for a sale never says it dropped one
    assert index.search(SearchQuery(keywords="phones with 1TB storage")).relaxed != ["onSale"]


def test_the_model_is_told_a_product_is_on_sale_and_by_how_much(index: SearchIndex) -> None:
    told = _tool(index, {"keywords": "laptops on sale"})
    (laptop,) = told["products"]
    assert laptop["price"] == 349.0
    assert laptop["sale"] == {"was": 399.0, "off": "13%"}
    # a compare-at price below today's says no sale
    dell = _tool(index, {"productIds": ["CMP-008"]})["products"][0]
    assert "sale" not in dell


# -- tags ----------------------------------------------------------------------------------


def test_a_tag_is_a_word_the_search_finds(index: SearchIndex) -> None:
    # The Acer Aspire 5's own words say nothing of games; its "gaming" tag does
    assert "gaming" not in (TAGGED["name"] + TAGGED["description"]).lower()
    assert "CMP-032" in _search(index, keywords="gaming laptop", limit=12)
    assert _search(index, keywords="back to school")[0] == "CMP-032"


# -- weights, as people say them -----------------------------------------------------------


def test_a_weight_is_said_rounded_in_the_stores_unit() -> None:
    assert shown(1.1793, "kg") == "1.18 kg" and shown(1.2, "kg") == "1.2 kg"
    assert shown(1.1793, "lb") == "2.6 lb"
    assert shown(0.17, "kg", light=True) == "170 g" and shown(0.17, "lb", light=True) == "6 oz"
    specs = {"weightKg": 1.1793, "weightG": 198, "ramGb": 16}
    assert for_model(specs, "kg") == {"weightKg": 1.18, "weightG": 198, "ramGb": 16}
    assert for_model(specs, "lb") == {"weightLb": 2.6, "weightOz": 7, "ramGb": 16}


def test_the_model_reads_a_weight_rounded_in_the_stores_unit(index: SearchIndex) -> None:
    told = _tool(index, {"productIds": [MAC_MINI]})
    assert told["products"][0]["specs"]["weightKg"] == 1.18
    pounds = _tool(index, {"productIds": [MAC_MINI]}, weight_unit="lb")
    assert pounds["products"][0]["specs"]["weightLb"] == 2.6
    assert "weightKg" not in pounds["products"][0]["specs"]


def test_a_corrected_weight_is_said_as_people_say_it() -> None:
    record = _with("CMP-015", specs={**BY_ID[MAC_MINI]["specs"], "weightKg": 1.1793})
    ledger = {r.productId: r for r in products_of([record])}
    answer, (fixed,) = check_facts("The Mac mini [CMP-015] weighs 2 kg.", ledger)
    assert answer == "The Mac mini [CMP-015] weighs 1.18 kg." and fixed.record == "1.18 kg"
    in_pounds = check_facts("The Mac mini [CMP-015] weighs 5 lb.", ledger, weight_unit="lb")
    assert in_pounds[0] == "The Mac mini [CMP-015] weighs 2.6 lb."
    assert in_pounds[1][0].record == "2.6 lb"


def test_an_old_price_of_a_product_not_on_sale_is_checked_against_its_one_price() -> None:
    ledger = {r.productId: r for r in products_of([BY_ID["CMP-023"]])}
    answer, (fixed,) = check_facts("The HP 14 [CMP-023] was $399.", ledger)
    assert answer == "The HP 14 [CMP-023] was $349." and fixed.field == "price"


# -- the product's record ------------------------------------------------------------------


def test_a_products_page_is_a_web_address_and_nothing_a_page_could_run() -> None:
    base = {**BY_ID["CMP-023"]}
    assert Product.model_validate({**base, "url": "https://shop.example/p/hp-14"}).url
    for bad in ("javascript:alert(1)", "data:text/html,x", "shop.example/p", "https://a b"):
        with pytest.raises(ValidationError, match=r"must be an http:// or https:// web address"):
            Product.model_validate({**base, "url": bad})
    with pytest.raises(ValidationError, match=r"at most 60 characters"):
        Product.model_validate({**base, "tags": ["x" * 61]})


def test_a_snapshot_built_without_the_price_before_a_sale_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "old.sqlite"
    build_index(SAMPLE[:5], path)
    db = sqlite3.connect(path)
    db.execute("ALTER TABLE products DROP COLUMN compare_at_price")
    db.commit()
    db.close()
    with pytest.raises(SnapshotUnreadable, match=r"built without the columns compare_at_price"):
        validate_snapshot(path)


def test_the_stores_address_comes_from_store_url_checked() -> None:
    assert (
        read_settings({"STORE_URL": " https://shop.example/ "}).store_url == "https://shop.example"
    )
    assert read_settings({}).store_url is None
    with pytest.raises(SettingsError, match=r"STORE_URL='shop\.example': the store's address"):
        read_settings({"STORE_URL": "shop.example"})
