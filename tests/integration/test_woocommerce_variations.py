"""WooCommerce variable products by webhook, through the deployed function on moto: a
variation and its product arrive as separate bodies, in any order, and become the catalog
products the CSV import and the sync make; a product's body alone wipes nothing."""

from __future__ import annotations

from typing import Any

from shared.products.catalog_writes import put
from shared.products.product import Product
from tests.integration.test_webhook_handler import _post, _row, deployed  # noqa: F401
from tests.support.platform_payloads import (
    body_of,
    woocommerce_headers,
    woocommerce_variable,
    woocommerce_variation,
)

WOO = "wc_secret"
FOLD, V128, V256 = 900, 901, 902


def _woo(payload: dict[str, Any], delivery: str) -> tuple[int, Any]:
    raw = body_of(payload)
    return _post("woocommerce", raw, woocommerce_headers(WOO, raw, delivery=delivery))


def _secret(deployed: Any) -> None:  # noqa: F811
    import boto3

    secrets = boto3.client("secretsmanager", region_name="us-east-1")
    (woo,) = [s["ARN"] for s in secrets.list_secrets()["SecretList"] if s["Name"] == "woo-webhook"]
    secrets.put_secret_value(SecretId=woo, SecretString=WOO)
    from aws_lambda_powertools.utilities import parameters

    parameters.clear_caches()


def test_a_variation_waits_for_its_product_then_both_are_written(deployed: Any) -> None:  # noqa: F811
    _secret(deployed)
    # Given a variation whose product is not known yet
    small = woocommerce_variation(V128, FOLD, "ZF-128", "128 GB", price="1499.00", stock=2)
    status, answer = _woo(small, "v-1")
    assert (status, answer["status"]) == (200, "pending")
    assert "variation 901 of product 900 is kept" in answer["reason"]
    assert _row(deployed, "ZF-128") is None

    # When the variable product arrives, listing both variations
    status, answer = _woo(woocommerce_variable(FOLD, [V128, V256]), "p-1")

    # Then the variation it knows is a product, with the product's category and brand
    assert (status, answer["written"]) == (200, ["ZF-128"])
    row = _row(deployed, "ZF-128")
    assert row is not None
    assert (row["name"], row["brand"], row["category"]) == (
        "Zephyr Fold - 128 GB",
        "Zephyr",
        "MOBILE",
    )
    assert (row["price"], row["stock"], row["specs"]["storageGb"]) == (1499, 2, 128)
    assert (row["platformProductId"], row["platformVariantId"]) == ("900", "901")

    # And the other variation is written when its own webhook arrives
    large = woocommerce_variation(V256, FOLD, "ZF-256", "256 GB", price="1599.00", stock=0)
    status, answer = _woo(large, "v-2")
    assert (status, answer["written"]) == (200, ["ZF-256"])
    assert _row(deployed, "ZF-256")["price"] == 1599  # type: ignore[index]


def test_a_variation_change_writes_that_variation_and_an_older_one_nothing(deployed: Any) -> None:  # noqa: F811
    _secret(deployed)
    _woo(woocommerce_variable(FOLD, [V128, V256]), "p-1")
    _woo(woocommerce_variation(V128, FOLD, "ZF-128", "128 GB"), "v-1")
    _woo(woocommerce_variation(V256, FOLD, "ZF-256", "256 GB", price="1599.00"), "v-2")

    # When the small one goes on sale at 16:00, and a change from 14:00 arrives late
    newer = woocommerce_variation(
        V128, FOLD, "ZF-128", "128 GB", price="1399.00", modified_gmt="2026-12-01T16:00:00"
    )
    newer.update(regular_price="1499.00", sale_price="1399.00", on_sale=True)
    older = woocommerce_variation(
        V128, FOLD, "ZF-128", "128 GB", price="999.00", modified_gmt="2026-12-01T14:00:00"
    )
    status, answer = _woo(newer, "v-3")
    late = _woo(older, "v-4")

    # Then the sale is the price, the late one is stale, the other variation unchanged
    assert (status, answer["written"]) == (200, ["ZF-128"])
    assert late[1]["status"] == "stale"
    row = _row(deployed, "ZF-128")
    assert row is not None and (row["price"], row["compareAtPrice"]) == (1399, 1499)
    assert _row(deployed, "ZF-256")["price"] == 1599  # type: ignore[index]


def test_a_products_body_alone_never_wipes_its_variations(deployed: Any) -> None:  # noqa: F811
    _secret(deployed)
    # Given the fold's variations in the catalog from an import (no webhook seen yet)
    for sku, storage in (("ZF-128", "128"), ("ZF-256", "256")):
        imported = Product(
            productId=sku,
            name=f"Zephyr Fold - {storage} GB",
            brand="Zephyr",
            category="MOBILE",
            price=1499,
            description="A folding phone.",
            stock=3,
            platformProductId="900",
        )
        deployed.put_item(TableName="catalog", Item=put(imported)["PutRequest"]["Item"])

    # When the variable product's body arrives without any variation's data
    status, answer = _woo(woocommerce_variable(FOLD, [V128, V256]), "p-1")

    # Then it is kept for its variations, and the catalog's rows stay as they were
    assert (status, answer["status"]) == (200, "pending")
    assert "none of the 2 variations of product 900 is known here yet" in answer["reason"]
    assert _row(deployed, "ZF-128")["stock"] == 3  # type: ignore[index]
    assert _row(deployed, "ZF-256") is not None


def test_a_variation_dropped_or_a_product_unpublished_leaves_the_catalog(deployed: Any) -> None:  # noqa: F811
    _secret(deployed)
    _woo(woocommerce_variable(FOLD, [V128, V256]), "p-1")
    _woo(woocommerce_variation(V128, FOLD, "ZF-128", "128 GB"), "v-1")
    _woo(woocommerce_variation(V256, FOLD, "ZF-256", "256 GB"), "v-2")

    # When the product is saved with one variation removed, and a new summary
    later = woocommerce_variable(FOLD, [V256], modified_gmt="2026-12-02T09:00:00")
    later["short_description"] = "<p>Now with a hinge tested for ten years.</p>"
    status, answer = _woo(later, "p-2")

    # Then the removed variation is deleted, and the other says what its product now says
    assert (status, answer["written"], answer["deleted"]) == (200, ["ZF-256"], ["ZF-128"])
    row = _row(deployed, "ZF-256")
    assert row is not None and "a hinge tested for ten years" in row["description"]

    # And when the product is made a draft, every row of it goes
    draft = woocommerce_variable(FOLD, [V256], modified_gmt="2026-12-02T10:00:00", status="draft")
    status, answer = _woo(draft, "p-3")
    assert (status, answer["deleted"]) == (200, ["ZF-256"])
    assert _row(deployed, "ZF-256") is None


def test_a_variation_written_with_its_product_goes_when_the_product_drops_it(
    deployed: Any,  # noqa: F811
) -> None:
    _secret(deployed)
    # Given a variation that arrived before its product, and was written with it
    assert _woo(woocommerce_variation(V128, FOLD, "ZF-128", "128 GB"), "v-1")[1]["status"] == (
        "pending"
    )
    assert _woo(woocommerce_variable(FOLD, [V128, V256]), "p-1")[1]["written"] == ["ZF-128"]

    # When the product is saved without it (none of its other variations sent yet)
    later = woocommerce_variable(FOLD, [V256], modified_gmt="2026-12-02T09:00:00")
    status, answer = _woo(later, "p-2")

    # Then its row is deleted
    assert (status, answer["deleted"]) == (200, ["ZF-128"])
    assert _row(deployed, "ZF-128") is None


def test_a_variable_books_author_in_a_custom_field_is_its_maker_when_a_variation_comes_later(
    deployed: Any,  # noqa: F811
) -> None:
    _secret(deployed)
    # Given a variable book with no brand, its author only in a custom field (meta_data)
    # among a plugin's own, and no variation known yet
    dune = woocommerce_variable(950, [951], name="Dune")
    dune["categories"] = [{"id": 4, "name": "Books", "slug": "books"}]
    dune["brands"] = []
    dune["attributes"] = [{"id": 3, "name": "Format", "variation": True, "options": ["Paperback"]}]
    dune["meta_data"] = [
        {"id": 1, "key": "_edit_lock", "value": "1764600000:1"},
        {"id": 2, "key": "book_author", "value": "Frank Herbert"},
    ]
    status, _ = _woo(dune, "p-dune")
    assert status == 200

    # When its variation arrives alone, written with the product's body kept for it
    paperback = woocommerce_variation(951, 950, "DUNE-PB", "Paperback", price="10.99")
    paperback["name"] = "Dune - Paperback"
    paperback["attributes"] = [{"id": 3, "name": "Format", "option": "Paperback"}]
    status, answer = _woo(paperback, "v-dune")

    # Then it is the author's book, as the export's "Meta: book_author" column makes it
    assert (status, answer["written"]) == (200, ["DUNE-PB"])
    row = _row(deployed, "DUNE-PB")
    assert row is not None
    assert (row["brand"], row["specs"]["author"], row["category"]) == (
        "Frank Herbert",
        "Frank Herbert",
        "BOOKS",
    )
