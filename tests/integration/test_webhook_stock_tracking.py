"""A Shopify product the store sells uncounted, through webhooks as Shopify sends them
since API 2024-07 (no ``inventory_management`` on variants) and in any order."""

from __future__ import annotations

from typing import Any

from shared.platform import shopify
from tests.integration.test_webhook_handler import SECRET, _post, _row, deployed  # noqa: F401
from tests.support.platform_payloads import (
    body_of,
    inventory_level,
    shopify_headers,
    shopify_product,
)

STORE = "https://shop.example.com"


def _product(delivery: str, payload: dict[str, Any]) -> Any:
    body = body_of(payload)
    return _post("shopify", body, shopify_headers(SECRET, body, delivery=delivery))


def _level(delivery: str, available: int | None, at: str) -> Any:
    raw = body_of(inventory_level(89, available, updated_at=at))
    topic = "inventory_levels/update"
    return _post("shopify", raw, shopify_headers(SECRET, raw, topic=topic, delivery=delivery))


def _since_2024_07(payload: dict[str, Any]) -> dict[str, Any]:
    for variant in payload["variants"]:
        del variant["inventory_management"]
    return payload


def test_a_2024_07_payload_does_not_say_whether_the_stock_is_tracked() -> None:
    payload = _since_2024_07(shopify_product(7, "ZL-14", stock=4))
    (variant,) = shopify.rest_product(payload, STORE).variants
    # The count is read; whether it is counted is left to what the catalog holds
    assert (variant.inventory, variant.untracked, variant.tracking_said) == (4, False, False)
    payload["variants"][0]["inventory_management"] = None
    (variant,) = shopify.rest_product(payload, STORE).variants
    assert (variant.inventory, variant.untracked, variant.tracking_said) == (None, True, True)


def test_a_price_edit_of_an_uncounted_product_leaves_it_in_stock(deployed: Any) -> None:  # noqa: F811
    # Given a laptop the store sells uncounted: the catalog holds it in stock, no count
    off = shopify_product(7, "ZL-14", stock=0, updated_at="2026-12-02T10:00:00Z")
    off["variants"][0]["inventory_management"] = None
    assert _product("p-1", off)[0] == 200
    assert _row(deployed, "ZL-14")["stockTracked"] is False  # type: ignore[index]
    # When the merchant edits its price: products/update as API 2024-07+ sends it (no
    # inventory_management; an untracked item's inventory_quantity is 0)
    edit = _since_2024_07(
        shopify_product(7, "ZL-14", stock=0, price="849.00", updated_at="2026-12-02T11:00:00Z")
    )
    assert _product("p-2", edit)[1]["status"] == "written"
    # Then a shopper still sees it in stock with no count (before: sold out, stock 0)
    row = _row(deployed, "ZL-14")
    assert row is not None
    assert (row["price"], row["stock"], row["stockTracked"]) == (849.0, 0, False)


def test_a_2024_07_payload_of_a_counted_product_sets_its_count(deployed: Any) -> None:  # noqa: F811
    # Given a counted laptop, 5 units
    assert _product("c-1", shopify_product(9, "ZL-9", stock=5))[0] == 200
    # When a 2024-07+ products/update says 2 units: a shopper sees 2 left
    assert _product("c-2", _since_2024_07(shopify_product(9, "ZL-9", stock=2)))[0] == 200
    row = _row(deployed, "ZL-9")
    assert row is not None and row["stock"] == 2 and "stockTracked" not in row
    # And a first 2024-07+ payload of a product the catalog does not hold is counted
    assert _product("c-3", _since_2024_07(shopify_product(10, "ZL-10", stock=0)))[0] == 200
    row = _row(deployed, "ZL-10")
    assert row is not None and row["stock"] == 0 and "stockTracked" not in row


def test_a_late_level_from_before_tracking_was_turned_off_leaves_it_in_stock(
    deployed: Any,  # noqa: F811
) -> None:
    # 10:00 the laptop is tracked, 5 units
    tracked = shopify_product(8, "ZL-8", stock=5, updated_at="2026-12-02T10:00:00Z")
    assert _product("p-1", tracked)[0] == 200
    assert _level("l-1", 5, "2026-12-02T10:00:00Z")[1]["status"] == "written"
    # 10:02 the merchant turns tracking off: products/update says inventory_management null
    off = shopify_product(8, "ZL-8", stock=0, updated_at="2026-12-02T10:02:00Z")
    off["variants"][0]["inventory_management"] = None
    assert _product("p-2", off)[0] == 200
    # 10:05 Shopify retries a level of 10:01 (the last units sold while it was tracked)
    assert _level("l-2", 0, "2026-12-02T10:01:00Z")[1]["status"] == "stale"
    # Then shoppers still see it in stock with no count (before: stock 0, sold out)
    row = _row(deployed, "ZL-8")
    assert row is not None and (row["stock"], row["stockTracked"]) == (0, False)
    # And a level after 10:02 with a count (tracking on again) counts it
    assert _level("l-3", 4, "2026-12-02T10:06:00Z")[1]["stock"] == 4
    row = _row(deployed, "ZL-8")
    assert row is not None and row["stock"] == 4 and "stockTracked" not in row
