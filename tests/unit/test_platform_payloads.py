"""One mapping: a product read from a CSV export, a webhook's body and an Admin API page
becomes the same catalog product; payloads that are not the platform's are refused."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from catalog_webhook.logic import mapped
from shared.platform import shopify, woocommerce
from shared.platform.payload import PayloadError
from shared.platform.rows import ReadOptions
from storechat.catalog.rows import ValidRow, read_rows
from tests.support.fake_admin_api import shopify_node
from tests.support.platform_payloads import shopify_product, woocommerce_product

STORE = "https://shop.example.com"
OPTIONS = ReadOptions(store_url=STORE)

CSV = """Handle,Title,Body (HTML),Vendor,Type,Tags,Published,Option1 Name,Option1 Value,\
Variant SKU,Variant Inventory Tracker,Variant Inventory Qty,Variant Price,Variant Compare At Price,\
Image Src,Status
zephyr-laptop-14,Zephyr Laptop 14,<p>The Zephyr Laptop 14: a <strong>light</strong> laptop for \
school.</p>,Zephyr,Laptops,"school, light",TRUE,Title,Default Title,ZL-14,shopify,5,899.00,999.00,\
https://cdn.shopify.com/s/files/zephyr-laptop-14.jpg,active
"""


def _without_ids(product: dict[str, Any]) -> dict[str, Any]:
    # Shopify's CSV export has no platform ids (its webhooks and API do), so no ?variant=
    return {k: v for k, v in product.items() if not k.startswith("platform") and k != "url"}


def test_a_csv_row_a_webhook_and_an_api_node_become_the_same_product(tmp_path: Path) -> None:
    # Given one product as Shopify's CSV export, a webhook's body and a GraphQL node
    export = tmp_path / "products.csv"
    export.write_text(CSV, encoding="utf-8")
    (from_csv,) = [r.row for r in read_rows(export, "shopify", OPTIONS) if isinstance(r, ValidRow)]
    payload = shopify_product(7, "ZL-14", price="899.00", compare_at="999.00", stock=5)
    node = shopify_node(7, "ZL-14", title="Zephyr Laptop 14", price="899.00", compare_at="999.00")
    node["descriptionHtml"] = payload["body_html"]
    node["tags"] = ["school", "light"]
    node["media"]["nodes"][0]["preview"]["image"]["url"] = payload["images"][0]["src"]

    # When each is mapped
    (from_webhook,), _, _ = mapped(shopify.rest_product(payload, STORE), OPTIONS)
    (from_api,), _, _ = mapped(shopify.graphql_product(node, STORE), OPTIONS)

    # Then they are one catalog product, and the webhook and the API add the ids and the page
    assert _without_ids(from_webhook.model_dump()) == _without_ids(from_csv.model_dump())
    assert from_api.model_dump() == from_webhook.model_dump()
    assert from_webhook.url == f"{STORE}/products/zephyr-laptop-14?variant=71"
    assert (from_webhook.platformProductId, from_webhook.platformVariantId) == ("7", "71")
    assert (from_webhook.price, from_webhook.compareAtPrice) == (899, 999)


def test_drafts_and_categories_the_catalog_does_not_sell_are_skipped() -> None:
    draft = shopify.rest_product(shopify_product(1, "D-1", status="draft"), STORE)
    case = shopify.rest_product(shopify_product(2, "C-1", product_type="Phone Cases"), STORE)
    for product, reason in ((draft, "a draft"), (case, "maps to no catalog category")):
        products, kept, notes = mapped(product, OPTIONS)
        assert (products, kept) == ([], [])
        assert reason in notes[0]


def test_a_woocommerce_sale_is_the_price_and_the_regular_price_the_one_before() -> None:
    payload = woocommerce_product(5, "ZP-8", regular="499.00", sale="449.00", stock=0)
    (product,), _, _ = mapped(woocommerce.rest_product(payload, STORE), OPTIONS)
    assert (product.price, product.compareAtPrice, product.stock) == (449, 499, 0)
    assert product.brand == "Zephyr" and product.category == "MOBILE"
    assert product.url == payload["permalink"]


def test_a_variant_without_a_price_keeps_its_row_and_says_why() -> None:
    payload = shopify_product(3, "NP-1", price="")
    products, kept, notes = mapped(shopify.rest_product(payload, STORE), OPTIONS)
    assert (products, kept) == ([], ["NP-1"])
    assert "every variant needs a price" in " ".join(notes)


@pytest.mark.parametrize(
    ("payload", "said"),
    [
        ([1, 2], "not a JSON object"),
        ({"title": "x"}, "id is missing"),
        ({"id": {"nested": 1}}, "id is not an id"),
        ({"id": 1, "variants": "many"}, "variants is not a list"),
        ({"id": 1, "title": ["a"]}, "title is not text"),
        ({"id": "1; DROP TABLE"}, "is not an id"),
    ],
)
def test_a_body_that_is_not_a_shopify_product_is_refused(payload: Any, said: str) -> None:
    with pytest.raises(PayloadError, match=said):
        shopify.rest_product(payload, STORE)


def test_a_woocommerce_book_with_no_brand_is_its_authors_by_webhook_as_by_export() -> None:
    # Given a book's REST body with no brand: the author in a custom field (meta_data), as
    # the export's "Meta: book_author" column, beside ACF's own "_book_author" (its key)
    payload = woocommerce_product(9, "NEUROMANCER-PB", name="Neuromancer", category="Books")
    payload["brands"] = []
    payload["meta_data"] = [
        {"id": 1, "key": "_book_author", "value": "field_65a1f0c2d3e4b"},
        {"id": 2, "key": "book_author", "value": "William Gibson"},
        {"id": 3, "key": "_yoast_wpseo_focuskw", "value": ["not", "text"]},
    ]

    (book,), kept, _ = mapped(woocommerce.rest_product(payload, STORE), OPTIONS)

    assert kept == [] and book.category == "BOOKS"
    assert (book.brand, book.specs["author"]) == ("William Gibson", "William Gibson")


def test_a_phone_with_no_brand_by_webhook_keeps_its_row_and_says_why_once() -> None:
    payload = woocommerce_product(10, "ZP-9")
    payload["brands"] = []
    products, kept, notes = mapped(woocommerce.rest_product(payload, STORE), OPTIONS)
    assert (products, kept) == ([], ["ZP-9"])
    said = [note for note in notes if "brand" in note]
    # (it said "ZP-9: row is empty, ..." and then "ZP-9: brand is required")
    assert said == [
        "ZP-9: brand is empty, and no attribute or tag (Brand, Manufacturer, Publisher) names a "
        "brand"
    ]
