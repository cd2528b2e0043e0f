"""The deployed webhook function on moto: API Gateway's proxy event in, the catalog table
and the sync table written as the stack's function writes them, the secret read from
Secrets Manager."""

from __future__ import annotations

import base64
import json
from collections.abc import Iterator
from typing import Any

import boto3
import pytest
from aws_lambda_powertools.utilities import parameters
from boto3.dynamodb.types import TypeDeserializer
from moto import mock_aws

import registry
from catalog_webhook import handler, settings
from shared.config.environment import overriding
from shared.products.catalog_table import plain
from shared.products.table_names import CATALOG_INVENTORY_INDEX, CATALOG_INVENTORY_ITEM
from storechat.local.lambdas import FakeContext
from tests.support.platform_payloads import (
    body_of,
    inventory_level,
    shopify_headers,
    shopify_product,
    woocommerce_headers,
    woocommerce_product,
)

REGION = "us-east-1"
CATALOG = "catalog"
SYNC = "catalog-sync"
SECRET = "shpss_test_secret"


@pytest.fixture
def deployed(monkeypatch: pytest.MonkeyPatch) -> Iterator[Any]:
    for name in ("AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY"):
        monkeypatch.setenv(name, "testing")
    monkeypatch.setenv("AWS_DEFAULT_REGION", REGION)
    with mock_aws():
        dynamodb = boto3.client("dynamodb", region_name=REGION)
        for name, key in ((CATALOG, "productId"), (SYNC, "key")):
            # The catalog's inventory index, as infra/data.py deploys it
            index = {
                "GlobalSecondaryIndexes": [
                    {
                        "IndexName": CATALOG_INVENTORY_INDEX,
                        "KeySchema": [{"AttributeName": CATALOG_INVENTORY_ITEM, "KeyType": "HASH"}],
                        "Projection": {"ProjectionType": "KEYS_ONLY"},
                    }
                ]
            }
            item = [{"AttributeName": CATALOG_INVENTORY_ITEM, "AttributeType": "S"}]
            dynamodb.create_table(
                TableName=name,
                BillingMode="PAY_PER_REQUEST",
                AttributeDefinitions=[
                    {"AttributeName": key, "AttributeType": "S"},
                    *(item if name == CATALOG else []),
                ],
                KeySchema=[{"AttributeName": key, "KeyType": "HASH"}],
                **(index if name == CATALOG else {}),
            )
        secrets = boto3.client("secretsmanager", region_name=REGION)
        shopify = secrets.create_secret(Name="shopify-webhook", SecretString=SECRET)["ARN"]
        # As the stack creates it: blank until the operator puts WooCommerce's.
        woo = secrets.create_secret(Name="woo-webhook", SecretString=" ")["ARN"]
        variables = {
            "AWS_REGION": REGION,
            "CATALOG_TABLE_NAME": CATALOG,
            "SYNC_TABLE_NAME": SYNC,
            "SHOPIFY_WEBHOOK_SECRET_ARN": shopify,
            "WOOCOMMERCE_WEBHOOK_SECRET_ARN": woo,
            "STORE_URL": "https://shop.example.com",
        }
        with overriding(variables):
            _cold()
            yield dynamodb
            _cold()


def _cold() -> None:
    settings.get_settings.cache_clear()
    handler._store.cache_clear()
    parameters.clear_caches()


def _post(platform: str, body: bytes, headers: dict[str, str], *, b64: bool = False) -> Any:
    event = {
        "resource": "/webhooks/{platform}",
        "path": f"/webhooks/{platform}",
        "httpMethod": "POST",
        "pathParameters": {"platform": platform},
        "headers": headers,
        "body": base64.b64encode(body).decode() if b64 else body.decode(),
        "isBase64Encoded": b64,
    }
    answer = handler.lambda_handler(event, FakeContext(registry.CATALOG_WEBHOOK))
    assert answer["headers"]["Content-Type"] == "application/json"
    return answer["statusCode"], json.loads(answer["body"])


def _row(dynamodb: Any, product_id: str) -> dict[str, Any] | None:
    item = dynamodb.get_item(TableName=CATALOG, Key={"productId": {"S": product_id}})
    if "Item" not in item:
        return None
    return {key: plain(TypeDeserializer().deserialize(v)) for key, v in item["Item"].items()}


def test_a_signed_product_is_written_to_the_catalog_table(deployed: Any) -> None:
    # Given a Shopify product with two variants, posted as API Gateway passes it (base64)
    variants = [
        {
            "id": 71,
            "sku": "ZA-128",
            "price": "899.00",
            "option1": "128 GB",
            "inventory_quantity": 4,
        },
        {
            "id": 72,
            "sku": "ZA-256",
            "price": "999.00",
            "option1": "256 GB",
            "inventory_quantity": 0,
        },
    ]
    payload = shopify_product(7, "", title="Zephyr Aero", variants=variants)
    payload["options"] = [{"name": "Storage", "position": 1, "values": ["128 GB", "256 GB"]}]
    body = body_of(payload)

    # When it arrives signed with the secret in Secrets Manager
    status, answer = _post("shopify", body, shopify_headers(SECRET, body), b64=True)

    # Then each variant is a product in the table, with its price, stock, page and ids
    assert (status, answer["written"]) == (200, ["ZA-128", "ZA-256"])
    row = _row(deployed, "ZA-256")
    assert row is not None
    assert row["name"] == "Zephyr Aero - 256 GB"
    assert (row["price"], row["stock"]) == (999, 0)
    assert row["url"] == "https://shop.example.com/products/zephyr-aero?variant=72"
    assert (row["platformProductId"], row["platformVariantId"]) == ("7", "72")
    assert row["specs"]["storageGb"] == 256

    # And a later update without a variant deletes that variant's row
    later = {**payload, "variants": variants[:1], "updated_at": "2026-12-02T10:00:00Z"}
    body = body_of(later)
    status, answer = _post("shopify", body, shopify_headers(SECRET, body, delivery="d-2"))
    assert (status, answer["deleted"]) == (200, ["ZA-256"])
    assert _row(deployed, "ZA-256") is None and _row(deployed, "ZA-128") is not None


def test_a_bad_signature_gets_401_and_nothing_is_written(deployed: Any) -> None:
    body = body_of(shopify_product(8, "ZB-1"))
    headers = shopify_headers("a-guess", body)

    status, answer = _post("shopify", body, headers)

    assert (status, answer["error"]) == (401, "unauthorized")
    assert _row(deployed, "ZB-1") is None
    assert deployed.scan(TableName=SYNC)["Items"] == []


def test_a_platform_whose_secret_is_blank_refuses_every_delivery(deployed: Any) -> None:
    # Given the WooCommerce secret as the stack leaves it (blank, not set by the operator)
    body = body_of(woocommerce_product(9, "WB-1"))

    # When a delivery arrives, whatever it is signed with
    status, answer = _post("woocommerce", body, woocommerce_headers(" ", body))

    # Then the route is not enabled, and nothing is written
    assert (status, answer["error"]) == (404, "not_found")
    assert _row(deployed, "WB-1") is None


def test_replays_and_late_updates_write_nothing(deployed: Any) -> None:
    newer = body_of(shopify_product(10, "ZC-1", price="500.00", updated_at="2026-12-01T12:00:00Z"))
    older = body_of(shopify_product(10, "ZC-1", price="450.00", updated_at="2026-12-01T11:00:00Z"))
    assert _post("shopify", newer, shopify_headers(SECRET, newer, delivery="n"))[0] == 200

    replay = _post("shopify", newer, shopify_headers(SECRET, newer, delivery="n"))
    late = _post("shopify", older, shopify_headers(SECRET, older, delivery="o"))

    assert replay == (200, {"status": "duplicate", "delivery": "shopify#n"})
    assert late[1]["status"] == "stale"
    row = _row(deployed, "ZC-1")
    assert row is not None and row["price"] == 500


def test_a_product_imported_before_is_deleted_by_its_platform_id(deployed: Any) -> None:
    # Given rows the sync table does not know (a sync from the Admin API wrote them)
    for sku in ("ZD-1", "ZD-2"):
        deployed.put_item(
            TableName=CATALOG,
            Item={"productId": {"S": sku}, "platformProductId": {"S": "11"}, "name": {"S": sku}},
        )
    body = b'{"id": 11}'

    status, answer = _post(
        "shopify", body, shopify_headers(SECRET, body, topic="products/delete", delivery="x")
    )

    assert (status, sorted(answer["deleted"])) == (200, ["ZD-1", "ZD-2"])
    assert _row(deployed, "ZD-1") is None and _row(deployed, "ZD-2") is None


def test_an_unknown_platform_is_404(deployed: Any) -> None:
    status, answer = _post("magento", b"{}", {})
    assert (status, answer["error"]) == (404, "not_found")


def test_an_inventory_level_sets_the_stock_summed_over_locations(deployed: Any) -> None:
    # Given a Shopify laptop (its variant's inventory item is 89) in the table
    body = body_of(shopify_product(8, "ZL-8", stock=10))
    assert _post("shopify", body, shopify_headers(SECRET, body, delivery="p-8"))[0] == 200
    assert _row(deployed, "ZL-8")["platformInventoryItemId"] == "89"  # type: ignore[index]

    def level(delivery: str, location: int, available: int, at: str) -> tuple[int, Any]:
        raw = body_of(inventory_level(89, available, location_id=location, updated_at=at))
        topic = "inventory_levels/update"
        return _post("shopify", raw, shopify_headers(SECRET, raw, topic=topic, delivery=delivery))

    # When two locations report 6 and 1, then the first 4, then a late level from before
    level("i-1", 1, 6, "2026-12-02T10:00:00Z")
    level("i-2", 2, 1, "2026-12-02T10:00:00Z")
    status, answer = level("i-3", 1, 4, "2026-12-02T11:00:00Z")
    late = level("i-4", 1, 50, "2026-12-02T09:00:00Z")

    # Then the stock is the sum of each location's last level, and the late one is stale
    assert (status, answer["stock"], answer["written"]) == (200, 5, ["ZL-8"])
    assert late[0] == 200 and late[1]["status"] == "stale"
    assert _row(deployed, "ZL-8")["stock"] == 5  # type: ignore[index]
    # And an item of no catalog product writes nothing
    status, answer = level("i-5", 1, 9, "2026-12-02T12:00:00Z")
    assert (status, answer["status"]) == (200, "written")
    raw = body_of(inventory_level(999, 3))
    headers = shopify_headers(SECRET, raw, topic="inventory_levels/update", delivery="i-6")
    assert _post("shopify", raw, headers)[1]["status"] == "ignored"
    assert "shopify#inventory#999" not in str(deployed.scan(TableName=SYNC)["Items"])


def test_an_untracked_shopify_product_is_in_stock_until_a_level_counts_it(deployed: Any) -> None:
    # Given a Shopify laptop whose inventory is not tracked (inventory_management null)
    payload = shopify_product(8, "ZL-8", stock=0)
    payload["variants"][0]["inventory_management"] = None
    body = body_of(payload)
    assert _post("shopify", body, shopify_headers(SECRET, body, delivery="u-8"))[0] == 200
    # Then the table holds it in stock with no count (before: stock 0, out of stock)
    row = _row(deployed, "ZL-8")
    assert row is not None and (row["stock"], row["stockTracked"]) == (0, False)

    def level(delivery: str, available: int | None) -> Any:
        raw = body_of(inventory_level(89, available, updated_at="2026-12-02T10:00:00Z"))
        topic = "inventory_levels/update"
        return _post("shopify", raw, shopify_headers(SECRET, raw, topic=topic, delivery=delivery))

    # When an inventory level of the untracked item says nothing (available null)
    assert level("u-1", None)[1]["status"] == "ignored"
    assert _row(deployed, "ZL-8")["stockTracked"] is False  # type: ignore[index]
    # And then one with a count (the store now tracks it): the count stands
    assert level("u-2", 3)[1]["stock"] == 3
    row = _row(deployed, "ZL-8")
    assert row is not None and row["stock"] == 3 and "stockTracked" not in row
