"""Through ``storechat serve``: Shopify's ``inventory_levels/update`` (a location's stock
change shows on the next answer's card, summed over the store's locations; an older,
repeated or unknown one changes nothing) and a WooCommerce variation by webhook."""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import pytest

from storechat.local import LocalStorechat
from storechat.server import make_server, running
from tests.integration.test_webhooks_served import SAMPLE, SHOPIFY_SECRET, WOO_SECRET, Served
from tests.support.platform_payloads import (
    body_of,
    inventory_level,
    shopify_headers,
    shopify_product,
    woocommerce_headers,
    woocommerce_variable,
    woocommerce_variation,
)

LEVELS = "inventory_levels/update"
WAREHOUSE, SHOP = 655441491, 655441492


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    home = tmp_path_factory.mktemp("home")
    with (
        LocalStorechat(
            data_dir=home,
            webhook_secrets={"shopify": SHOPIFY_SECRET, "woocommerce": WOO_SECRET},
            store_url="https://shop.example.com",
            env={"CATALOG_INDEX_CHECK_S": "0"},
        ) as local,
        running(make_server(local, "127.0.0.1", 0)) as server,
    ):
        yield Served(local, int(server.server_address[1]), home)


def _post(served: Served, payload: dict[str, Any], delivery: str, topic: str) -> tuple[int, Any]:
    body = body_of(payload)
    headers = shopify_headers(SHOPIFY_SECRET, body, topic=topic, delivery=delivery)
    return served.post("/webhooks/shopify", body, headers)


def test_a_stock_change_by_webhook_shows_on_the_next_answers_card(served: Served) -> None:
    # Given a laptop Shopify has sent with its variant's inventory item (8002 -> item 80029)
    product = SAMPLE["CMP-007"]
    question = f"How much is the {product['name']}?"
    payload = shopify_product(8002, "CMP-007", title=product["name"], price="500.00", stock=9)
    payload["vendor"] = product["brand"]
    status, body = _post(served, payload, "p-8002", "products/update")
    assert (status, body["written"]) == (200, ["CMP-007"])
    assert served.catalog_file()["CMP-007"]["platformInventoryItemId"] == "80029"

    # When the warehouse reports 2 left and the shop 3
    for delivery, location, available in (("l-1", WAREHOUSE, 2), ("l-2", SHOP, 3)):
        level = inventory_level(80029, available, location_id=location)
        status, body = _post(served, level, delivery, LEVELS)
        assert status == 200 and body["status"] == "written"

    # Then the shopper's next answer shows 5, the sum over the two locations
    assert body == {"status": "written", "written": ["CMP-007"], "deleted": [], "stock": 5}
    card = served.card(question, "CMP-007")
    assert card is not None and card["stock"] == 5

    # And when the shop sells out, only its share changes: 2 are left in the warehouse
    sold = inventory_level(80029, 0, location_id=SHOP, updated_at="2026-12-02T11:00:00-05:00")
    status, body = _post(served, sold, "l-3", LEVELS)
    assert (status, body["stock"]) == (200, 2)
    assert served.card(question, "CMP-007")["stock"] == 2
    assert served.catalog_file()["CMP-007"]["stock"] == 2


def test_an_older_or_repeated_level_changes_nothing(served: Served) -> None:
    # Given a laptop with 4 at the warehouse, reported at 10:00
    product = SAMPLE["CMP-008"]
    payload = shopify_product(8003, "CMP-008", title=product["name"], price="700.00")
    payload["vendor"] = product["brand"]
    _post(served, payload, "p-8003", "products/update")
    level = inventory_level(80039, 4, location_id=WAREHOUSE, updated_at="2026-12-02T10:00:00Z")
    assert _post(served, level, "o-1", LEVELS)[1]["stock"] == 4

    # When a level from 09:00 arrives late, and the 10:00 one is delivered again
    older = inventory_level(80039, 9, location_id=WAREHOUSE, updated_at="2026-12-02T09:00:00Z")
    late = _post(served, older, "o-0", LEVELS)
    again = _post(served, {**level, "available": 7}, "o-1", LEVELS)

    # Then both are answered 200 and the stock stays 4
    assert late[0] == 200 and late[1]["status"] == "stale"
    assert "newer level of inventory item 80039" in late[1]["reason"]
    assert again == (200, {"status": "duplicate", "delivery": "shopify#o-1"})
    card = served.card(f"How much is the {product['name']}?", "CMP-008")
    assert card is not None and card["stock"] == 4


def test_an_unknown_inventory_item_is_answered_200_and_writes_nothing(served: Served) -> None:
    before = served.catalog_file()
    status, body = _post(served, inventory_level(123456789, 50), "u-1", LEVELS)
    assert status == 200 and body["status"] == "ignored"
    assert "inventory item 123456789 is no catalog product's" in body["reason"]
    assert "nothing was written" in body["reason"]
    assert served.catalog_file() == before


@pytest.mark.parametrize(
    ("payload", "said"),
    [
        ({"inventory_item_id": 80029, "location_id": WAREHOUSE, "available": 3}, "updated_at"),
        ({"location_id": WAREHOUSE, "available": 3, "updated_at": "2026-12-02T10:00:00Z"}, "id"),
        ({**inventory_level(80029, 1), "available": "many"}, "available is not a number"),
    ],
)
def test_a_malformed_level_gets_400_json(
    served: Served, payload: dict[str, Any], said: str
) -> None:
    status, body = _post(served, payload, f"bad-{said}", LEVELS)
    assert status == 400
    assert said in body["message"] and "not a Shopify inventory level" in body["message"]


def test_a_woocommerce_variation_by_webhook_is_a_product_shoppers_find(served: Served) -> None:
    def woo(payload: dict[str, Any], delivery: str) -> tuple[int, Any]:
        raw = body_of(payload)
        return served.post(
            "/webhooks/woocommerce", raw, woocommerce_headers(WOO_SECRET, raw, delivery=delivery)
        )

    # Given the store saves a variable phone: its body, then each variation's
    assert woo(woocommerce_variable(900, [901, 902]), "wp-1")[1]["status"] == "pending"
    for delivery, (vid, sku, storage, price) in (
        ("wv-1", (901, "ZF-128", "128 GB", "1499.00")),
        ("wv-2", (902, "ZF-256", "256 GB", "1599.00")),
    ):
        status, body = woo(woocommerce_variation(vid, 900, sku, storage, price=price), delivery)
        assert (status, body["written"]) == (200, [sku])

    # When a shopper asks for it (the catalog tool loads the new search snapshot it finds
    # after the answer it was found for, as deployed)
    card = None
    for _ in range(20):
        card = served.card("How much is the Zephyr Fold - 256 GB?", "ZF-256")
        if card is not None:
            break
        time.sleep(0.2)

    # Then the variation is a product with its own price and its product's category
    assert card is not None
    assert (card["price"], card["category"], card["brand"]) == (1599, "MOBILE", "Zephyr")
    assert (card["platformProductId"], card["platformVariantId"]) == ("900", "902")
    assert served.catalog_file()["ZF-128"]["price"] == 1499
