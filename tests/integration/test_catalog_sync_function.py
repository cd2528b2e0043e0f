"""The scheduled sync function on moto, reading stand-ins of Shopify's and WooCommerce's
Admin APIs on 127.0.0.1: the token from Secrets Manager, every page read, and the catalog
table written with what its dry run said; the shrink guard deletes nothing."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from typing import Any

import boto3
import pytest
from aws_lambda_powertools.utilities import parameters
from moto import mock_aws

import registry
from catalog_sync import handler, settings
from shared.config.environment import overriding
from shared.products.catalog_writes import from_item, put
from shared.products.product import Product
from shared.runtime.observability import metrics
from storechat.local.lambdas import FakeContext
from tests.support.fake_admin_api import FakeAdminApi, shopify_node
from tests.support.platform_payloads import woocommerce_product

REGION = "us-east-1"
CATALOG = "catalog"
STORE = "https://shop.example.com"
SCHEDULED = {"source": "aws.events", "detail-type": "Scheduled Event", "detail": {}}

Deploy = Callable[..., Any]


@pytest.fixture
def deploy(monkeypatch: pytest.MonkeyPatch) -> Iterator[Deploy]:
    """A catalog table and the sync's secret on moto; ``deploy(api, platform, secret)``
    sets the function's environment as the stack does and returns the DynamoDB client."""
    for name in ("AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY"):
        monkeypatch.setenv(name, "testing")
    monkeypatch.setenv("AWS_DEFAULT_REGION", REGION)
    monkeypatch.setattr(metrics, "namespace", "Storechat/test")
    with mock_aws():
        dynamodb = boto3.client("dynamodb", region_name=REGION)
        dynamodb.create_table(
            TableName=CATALOG,
            BillingMode="PAY_PER_REQUEST",
            AttributeDefinitions=[{"AttributeName": "productId", "AttributeType": "S"}],
            KeySchema=[{"AttributeName": "productId", "KeyType": "HASH"}],
        )
        secrets = boto3.client("secretsmanager", region_name=REGION)
        overrides: list[Any] = []

        def made(
            api: FakeAdminApi, platform: str = "shopify", secret: str = "shpat_test", **extra: str
        ) -> Any:
            arn = secrets.create_secret(Name=f"sync-{len(overrides)}", SecretString=secret)["ARN"]
            variables = {
                "AWS_REGION": REGION,
                "CATALOG_TABLE_NAME": CATALOG,
                "SYNC_PLATFORM": platform,
                "SYNC_API_URL": api.url,
                "ADMIN_API_SECRET_ARN": arn,
                "STORE_URL": STORE,
                **extra,
            }
            override = overriding(variables)
            override.__enter__()
            overrides.append(override)
            _cold()
            return dynamodb

        yield made
        for override in reversed(overrides):
            override.__exit__(None, None, None)
        _cold()


def _cold() -> None:
    settings.get_settings.cache_clear()
    handler._table.cache_clear()
    parameters.clear_caches()


def _run(event: dict[str, Any] = SCHEDULED) -> dict[str, Any]:
    answer: dict[str, Any] = handler.lambda_handler(event, FakeContext(registry.CATALOG_SYNC))
    return answer


def _catalog(dynamodb: Any) -> dict[str, dict[str, Any]]:
    items = dynamodb.scan(TableName=CATALOG)["Items"]
    return {record["productId"]: record for record in map(from_item, items)}


def _laptops(count: int) -> list[dict[str, Any]]:
    return [
        shopify_node(1000 + n, f"ZL-{n:03d}", title=f"Zephyr Laptop {n}", price=f"{500 + n}.00")
        for n in range(count)
    ]


def test_a_scheduled_pull_adds_updates_and_deletes_what_its_dry_run_said(
    deploy: Deploy,
) -> None:
    # Given a store of 120 laptops (three pages of the GraphQL API), pulled once
    products = _laptops(120)
    with FakeAdminApi(shopify_products=products) as api:
        dynamodb = deploy(api)
        first = _run()
        catalog = _catalog(dynamodb)
        assert first["added"] == 120 and first["deleted"] == 0
        assert len(catalog) == 120
        assert sum("graphql.json" in path for path in api.requests) == 3
        assert catalog["ZL-007"]["url"] == f"{STORE}/products/zephyr-laptop-7?variant=10071"

        # When one laptop's price changes, one is deleted and one added in the store
        products[0] = shopify_node(1000, "ZL-000", title="Zephyr Laptop 0", price="450.00")
        del products[1]
        products.append(shopify_node(2000, "ZL-NEW", title="Zephyr Laptop New", price="999.00"))
        dry = _run({"dryRun": True})

        # Then the dry run says so and writes nothing
        assert (dry["added"], dry["updated"], dry["deleted"], dry["unchanged"]) == (1, 1, 1, 118)
        assert (dry["addedIds"], dry["updatedIds"], dry["deletedIds"]) == (
            ["ZL-NEW"],
            ["ZL-000"],
            ["ZL-001"],
        )
        assert _catalog(dynamodb)["ZL-000"]["price"] == 500

        # And the scheduled run does exactly that
        done = _run()
    assert {k: done[k] for k in ("addedIds", "updatedIds", "deletedIds")} == {
        k: dry[k] for k in ("addedIds", "updatedIds", "deletedIds")
    }
    catalog = _catalog(dynamodb)
    assert catalog["ZL-000"]["price"] == 450
    assert "ZL-001" not in catalog
    assert catalog["ZL-NEW"]["platformProductId"] == "2000"
    assert len(catalog) == 120


def _metrics(printed: str) -> dict[str, float]:
    """The EMF metrics the function printed (what CloudWatch records), by name."""
    found: dict[str, float] = {}
    for line in printed.splitlines():
        if line.startswith("{") and '"_aws"' in line:
            record = json.loads(line)
            for metric in record["_aws"]["CloudWatchMetrics"][0]["Metrics"]:
                value = record[metric["Name"]]
                found[metric["Name"]] = sum(value) if isinstance(value, list) else value
    return found


def test_a_pull_that_would_empty_the_catalog_deletes_nothing_unless_allowed(
    deploy: Deploy, capsys: pytest.CaptureFixture[str]
) -> None:
    # Given a catalog of 40 laptops and an API that now lists only 12 of them, one repriced
    with FakeAdminApi(shopify_products=_laptops(40)) as api:
        dynamodb = deploy(api)
        _run()
        api.shopify_products = _laptops(12)
        api.shopify_products[0]["variants"]["nodes"][0]["price"] = "399.00"
        capsys.readouterr()
        refused = _run()
        printed = capsys.readouterr()

        # Then nothing is deleted, the run says why, and the repricing is still written
        catalog = _catalog(dynamodb)
        assert len(catalog) == 40
        assert refused["deleted"] == 0
        assert "would delete 28 of the catalog's 40 products" in refused["deletionsRefused"]
        assert catalog["ZL-000"]["price"] == 399
        # And its metrics and its log line say so
        assert _metrics(printed.out)["CatalogSyncDeletionsRefused"] == 1
        assert _metrics(printed.out)["CatalogSyncDeleted"] == 0
        assert "catalog sync deleted nothing" in printed.err

        # When the environment's block allows it, the same pull deletes them
        dynamodb = deploy(api, ALLOW_SHRINK="true")
        allowed = _run()
    assert allowed["deleted"] == 28 and allowed["deletionsRefused"] is None
    assert sorted(_catalog(dynamodb)) == [f"ZL-{n:03d}" for n in range(12)]


def test_the_bundled_sample_is_not_the_stores_own_and_unreadable_products_are_kept(
    deploy: Deploy,
) -> None:
    # Given a catalog seeded with two sample products and a store product the API now
    # lists with a price that is not a price
    from shared.products.catalog_data import load_catalog

    sample = [Product.model_validate(p) for p in load_catalog()[:2]]
    laptops = _laptops(3)
    with FakeAdminApi(shopify_products=laptops) as api:
        dynamodb = deploy(api)
        _run()
        for product in sample:
            dynamodb.put_item(TableName=CATALOG, Item=put(product)["PutRequest"]["Item"])
        laptops[2]["variants"]["nodes"][0]["price"] = "twelve dollars"
        outcome = _run()

    # Then the sample goes (a full pull keeps only the store's), the unreadable product stays
    catalog = _catalog(dynamodb)
    assert not {p.productId for p in sample} & set(catalog)
    assert catalog["ZL-002"]["price"] == 502
    assert outcome["invalid"] == 1
    assert "'twelve dollars' is not a price" in outcome["problems"][0]


def test_a_woocommerce_pull_reads_pages_and_variations(deploy: Deploy) -> None:
    # Given 120 simple phones (two pages) and a variable phone with 2 variations
    phones = [woocommerce_product(100 + n, f"ZP-{n:03d}", name=f"Phone {n}") for n in range(120)]
    fold = woocommerce_product(900, "ZP-FOLD", name="Zephyr Fold", kind="variable")
    fold["attributes"] = [{"id": 1, "name": "Storage", "variation": True, "options": ["1", "2"]}]
    variations = [
        {
            "id": 901 + n,
            "sku": f"ZP-FOLD-{n}",
            "price": f"{1500 + n}.00",
            "regular_price": f"{1500 + n}.00",
            "manage_stock": True,
            "stock_quantity": 2,
            "attributes": [{"id": 1, "name": "Storage", "option": f"{128 * (n + 1)} GB"}],
        }
        for n in range(2)
    ]
    with FakeAdminApi(
        woocommerce_products=[*phones, fold], woocommerce_variations={900: variations}
    ) as api:
        dynamodb = deploy(api, platform="woocommerce", secret="ck_test:cs_test")
        outcome = _run()

    # Then every phone and each variation is a product
    catalog = _catalog(dynamodb)
    assert outcome["added"] == 122 and len(catalog) == 122
    assert catalog["ZP-FOLD-1"]["name"] == "Zephyr Fold - 256 GB"
    assert (catalog["ZP-FOLD-1"]["platformProductId"], catalog["ZP-FOLD-1"]["price"]) == (
        "900",
        1501,
    )
    assert any("/products/900/variations" in path for path in api.requests)


@pytest.mark.parametrize(
    ("platform", "secret", "said"),
    [
        ("shopify", " ", "the Admin API secret is blank"),
        ("woocommerce", "ck_only", "is not 'consumer_key:consumer_secret'"),
    ],
)
def test_a_blank_secret_fails_the_run_and_writes_nothing(
    deploy: Deploy, platform: str, secret: str, said: str
) -> None:
    with FakeAdminApi(shopify_products=_laptops(2)) as api:
        dynamodb = deploy(api, platform=platform, secret=secret)
        with pytest.raises(handler.SyncNotConfigured, match=said):
            _run()
        assert api.requests == []
    assert _catalog(dynamodb) == {}


def test_a_refused_token_fails_the_run_and_changes_nothing(deploy: Deploy) -> None:
    with FakeAdminApi(shopify_products=_laptops(2)) as api:
        dynamodb = deploy(api)
        _run()
        api.token = "rotated"
        from shared.platform.admin_api import AdminApiError

        with pytest.raises(AdminApiError, match=r"refused the credentials \(HTTP 401\)"):
            _run()
    assert sorted(_catalog(dynamodb)) == ["ZL-000", "ZL-001"]
