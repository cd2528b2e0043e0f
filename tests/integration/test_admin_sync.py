"""``storechat catalog sync`` against stand-ins of Shopify's and WooCommerce's Admin APIs on
127.0.0.1: it pages, waits out throttling and server errors, refuses bad data, and adds,
updates and deletes what its dry run said."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.support.catalog_cli import home, storechat  # noqa: F401 (fixtures)
from tests.support.fake_admin_api import FakeAdminApi, shopify_node
from tests.support.platform_payloads import woocommerce_product

STORE = "https://shop.example.com"


@pytest.fixture(autouse=True)
def credentials(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SHOPIFY_ADMIN_TOKEN", "shpat_test")
    monkeypatch.setenv("WOOCOMMERCE_CONSUMER_KEY", "ck_test")
    monkeypatch.setenv("WOOCOMMERCE_CONSUMER_SECRET", "cs_test")


def _laptops(count: int) -> list[dict[str, Any]]:
    return [
        shopify_node(1000 + n, f"ZL-{n:03d}", title=f"Zephyr Laptop {n}", price=f"{500 + n}.00")
        for n in range(count)
    ]


def _catalog(home: Path) -> dict[str, dict[str, Any]]:  # noqa: F811
    lines = (home / "catalog.jsonl").read_text(encoding="utf-8").splitlines()
    return {p["productId"]: p for p in map(json.loads, lines)}


def _sync(storechat: Any, api: FakeAdminApi, *extra: str) -> Any:  # noqa: F811
    return storechat(
        "catalog", "sync", "--from", "shopify", "--api-url", api.url, "--store-url", STORE, *extra
    )


def test_a_shopify_sync_adds_updates_and_deletes_what_its_dry_run_said(
    storechat: Any,  # noqa: F811
    home: Path,  # noqa: F811
) -> None:
    # Given a store of 120 laptops (three pages of the API), synced once
    products = _laptops(120)
    with FakeAdminApi(shopify_products=products) as api:
        first = _sync(storechat, api)
        assert first.code == 0, first.err
        assert len([p for p in _catalog(home) if p.startswith("ZL-")]) == 120
        assert sum("graphql.json" in path for path in api.requests) == 3

        # When one laptop's price changes, one is deleted and one is added in the store
        products[0] = shopify_node(1000, "ZL-000", title="Zephyr Laptop 0", price="450.00")
        del products[1]
        products.append(shopify_node(2000, "ZL-NEW", title="Zephyr Laptop New", price="999.00"))
        dry = _sync(storechat, api, "--dry-run")

        # Then the dry run says so, and writes nothing
        assert dry.code == 0, dry.err
        assert "1 to add, 1 to update, 118 unchanged, 1 to delete" in dry.out
        assert "add     ZL-NEW  Zephyr Laptop New" in dry.out
        assert "update  ZL-000  Zephyr Laptop 0: price 500.00 -> 450.00" in dry.out
        assert "delete  ZL-001  Zephyr Laptop 1" in dry.out
        assert _catalog(home)["ZL-000"]["price"] == 500

        # And the sync does exactly that
        done = _sync(storechat, api)
    assert done.code == 0, done.err
    catalog = _catalog(home)
    assert catalog["ZL-000"]["price"] == 450
    assert "ZL-001" not in catalog
    assert catalog["ZL-NEW"]["url"] == f"{STORE}/products/zephyr-laptop-new?variant=20001"
    assert catalog["ZL-NEW"]["platformProductId"] == "2000"


def test_throttling_and_server_errors_are_waited_out(
    storechat: Any,  # noqa: F811
    home: Path,  # noqa: F811
) -> None:
    with FakeAdminApi(shopify_products=_laptops(3)) as api:
        # Given the API throttles the first request and fails the next one
        api.faults.extend(
            [
                (429, {"Retry-After": "0"}, b'{"errors": "Exceeded 2 calls per second"}'),
                (502, {}, b"<html>Bad Gateway</html>"),
            ]
        )
        run = _sync(storechat, api)

    # Then the sync asked again and read every product
    assert run.code == 0, run.err
    assert len(api.requests) == 3
    assert {"ZL-000", "ZL-001", "ZL-002"} <= set(_catalog(home))


def test_an_api_that_keeps_failing_or_answers_bad_data_changes_nothing(
    storechat: Any,  # noqa: F811
    home: Path,  # noqa: F811
) -> None:
    with FakeAdminApi(shopify_products=_laptops(3)) as api:
        # An answer that is not JSON
        api.faults.append((200, {}, b"<html>a login page</html>"))
        not_json = _sync(storechat, api)
        # JSON without the products
        api.faults.append((200, {}, b'{"data": {"shop": {}}}'))
        no_products = _sync(storechat, api)
        # A token the store refuses
        api.token = "another"
        refused = _sync(storechat, api)

    for run, said in (
        (not_json, "not JSON"),
        (no_products, "without data.products.nodes"),
        (refused, "refused the credentials (HTTP 401)"),
    ):
        assert run.code == 2, run.out
        assert said in run.err and "nothing was changed" in run.err.lower()
    assert not (home / "catalog.jsonl").exists()


def test_a_product_the_mapping_cannot_read_stops_the_sync_unless_skipped(
    storechat: Any,  # noqa: F811
    home: Path,  # noqa: F811
) -> None:
    products = _laptops(2)
    products[1]["variants"]["nodes"][0]["price"] = "twelve dollars"
    with FakeAdminApi(shopify_products=products) as api:
        stopped = _sync(storechat, api)
        skipped = _sync(storechat, api, "--skip-invalid")

    assert stopped.code == 2
    assert "'twelve dollars' is not a price" in stopped.err
    assert skipped.code == 0, skipped.err
    assert "ZL-000" in _catalog(home) and "ZL-001" not in _catalog(home)


def test_a_woocommerce_sync_reads_pages_and_variations(
    storechat: Any,  # noqa: F811
    home: Path,  # noqa: F811
) -> None:
    # Given 150 simple phones (two pages) and a variable phone with two variations
    phones = [
        woocommerce_product(100 + n, f"ZP-{n:03d}", name=f"Zephyr Phone {n}") for n in range(150)
    ]
    variable = woocommerce_product(900, "ZP-VAR", name="Zephyr Fold", kind="variable")
    variable["attributes"] = [
        {"id": 1, "name": "Storage", "variation": True, "options": ["128 GB", "256 GB"]},
        {"id": 2, "name": "Operating system", "variation": False, "options": ["Android 15"]},
    ]
    variations = [
        {
            "id": 901 + n,
            "sku": f"ZP-FOLD-{size}",
            "price": price,
            "regular_price": price,
            "sale_price": "",
            "on_sale": False,
            "manage_stock": True,
            "stock_quantity": 2,
            "stock_status": "instock",
            "attributes": [{"id": 1, "name": "Storage", "option": f"{size} GB"}],
            "image": {"src": "https://shop.example.com/fold.jpg"},
            "permalink": f"{STORE}/product/zephyr-fold/?attribute_storage={size}",
        }
        for n, (size, price) in enumerate((("128", "1499.00"), ("256", "1599.00")))
    ]
    with FakeAdminApi(
        woocommerce_products=[*phones, variable], woocommerce_variations={900: variations}
    ) as api:
        run = storechat(
            "catalog", "sync", "--from", "woocommerce", "--api-url", api.url, "--store-url", STORE
        )

    # Then every phone and each variation is a product; the variable product itself is not
    assert run.code == 0, run.err
    catalog = _catalog(home)
    assert {f"ZP-{n:03d}" for n in range(150)} <= set(catalog)
    fold = catalog["ZP-FOLD-256"]
    assert fold["name"] == "Zephyr Fold - 256 GB" and fold["price"] == 1599
    assert fold["specs"]["storageGb"] == 256
    assert (fold["platformProductId"], fold["platformVariantId"]) == ("900", "902")
    assert "ZP-VAR" not in catalog
