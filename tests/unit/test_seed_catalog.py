"""The catalog seeding custom resource, against a moto DynamoDB table shaped like the real one."""

from __future__ import annotations

import importlib
from collections.abc import Iterator
from decimal import Decimal
from types import ModuleType
from typing import Any

import boto3
import pytest
from moto import mock_aws

from infra import names
from shared.products.catalog_data import load_catalog

REGION = "us-east-1"
TABLE = "storechat-catalog-test"


@pytest.fixture(scope="module")
def seeding() -> Iterator[ModuleType]:
    # functions/ is the Lambda code root; seed_catalog is not among the packages the
    # editable install maps, so put the root on the path for this module only.
    with pytest.MonkeyPatch.context() as patch:
        patch.syspath_prepend(str(names.FUNCTIONS_DIR))
        yield importlib.import_module("seed_catalog.logic")


@pytest.fixture
def table() -> Iterator[Any]:
    with mock_aws():
        dynamodb = boto3.resource("dynamodb", region_name=REGION)
        created = dynamodb.create_table(
            TableName=TABLE,
            BillingMode="PAY_PER_REQUEST",
            AttributeDefinitions=[
                {"AttributeName": names.CATALOG_PARTITION_KEY, "AttributeType": "S"},
            ],
            KeySchema=[{"AttributeName": names.CATALOG_PARTITION_KEY, "KeyType": "HASH"}],
        )
        yield created


def _event(request_type: str, physical_id: str | None = None) -> dict[str, Any]:
    event: dict[str, Any] = {
        "RequestType": request_type,
        "ServiceToken": "arn:aws:lambda:us-east-1:123456789012:function:provider",
        "ResourceType": "Custom::CatalogSeed",
        "LogicalResourceId": "CatalogSeed",
        "ResourceProperties": {
            "ServiceToken": "arn:aws:lambda:us-east-1:123456789012:function:provider",
            "TableName": TABLE,
            "CatalogVersion": "abc123",
        },
    }
    if physical_id:
        event["PhysicalResourceId"] = physical_id
    return event


def _run(
    seeding: ModuleType,
    table: Any,
    event: dict[str, Any],
    products: list[dict[str, Any]] | None = None,
) -> Any:
    return seeding.handle(
        seeding.SeedEvent.model_validate(event),
        table_factory=lambda name: boto3.resource("dynamodb", region_name=REGION).Table(name),
        load_products=(lambda: products) if products is not None else load_catalog,
    )


def _all_items(table: Any) -> list[dict[str, Any]]:
    items: list[dict[str, Any]] = []
    kwargs: dict[str, Any] = {}
    while True:
        page = table.scan(**kwargs)
        items.extend(page["Items"])
        if "LastEvaluatedKey" not in page:
            return items
        kwargs["ExclusiveStartKey"] = page["LastEvaluatedKey"]


def test_create_loads_every_bundled_product(seeding: ModuleType, table: Any) -> None:
    # Given an empty catalog table
    catalog = load_catalog()

    # When CloudFormation creates the seed resource
    result = _run(seeding, table, _event("Create"))

    # Then every bundled product is in the table, numbers and nested specs intact
    items = {item["productId"]: item for item in _all_items(table)}
    assert set(items) == {p["productId"] for p in catalog}
    assert result.Data == {"Products": str(len(catalog))}
    assert result.PhysicalResourceId == f"seed-catalog:{TABLE}"
    sample = catalog[0]
    assert items[sample["productId"]]["price"] == Decimal(str(sample["price"]))
    assert items[sample["productId"]]["specs"].keys() == sample["specs"].keys()


def test_each_seeded_product_keeps_its_category(seeding: ModuleType, table: Any) -> None:
    # Given a seeded table
    _run(seeding, table, _event("Create"))

    # When the catalog's books are read back (search runs on the snapshot, which reads
    # the whole table: there is no category index to query)
    books = [item for item in table.scan()["Items"] if item["category"] == "BOOKS"]

    # Then they are exactly the bundled books
    assert {b["productId"] for b in books} == {
        p["productId"] for p in load_catalog() if p["category"] == "BOOKS"
    }


def test_seeding_twice_leaves_the_table_as_seeding_once(seeding: ModuleType, table: Any) -> None:
    # Given a table seeded once
    _run(seeding, table, _event("Create"))
    first = sorted(_all_items(table), key=lambda item: item["productId"])

    # When a stack update runs the seed again
    result = _run(seeding, table, _event("Update", f"seed-catalog:{TABLE}"))

    # Then nothing is duplicated or changed, and the resource keeps its id
    assert sorted(_all_items(table), key=lambda item: item["productId"]) == first
    assert result.PhysicalResourceId == f"seed-catalog:{TABLE}"


def test_update_writes_a_changed_product(seeding: ModuleType, table: Any) -> None:
    # Given a seeded table and a new catalog where one product's price changed
    _run(seeding, table, _event("Create"))
    changed = load_catalog()
    changed[0]["price"] = 1234.5

    # When the stack is updated with that catalog
    _run(seeding, table, _event("Update", f"seed-catalog:{TABLE}"), changed)

    # Then the table holds the new price
    item = table.get_item(Key={"productId": changed[0]["productId"]})["Item"]
    assert item["price"] == Decimal("1234.5")


def test_delete_leaves_the_data_alone(seeding: ModuleType, table: Any) -> None:
    # Given a seeded table
    _run(seeding, table, _event("Create"))
    before = len(_all_items(table))

    # When CloudFormation deletes the seed resource
    result = _run(seeding, table, _event("Delete", f"seed-catalog:{TABLE}"))

    # Then no item is removed and the physical id is echoed back
    assert len(_all_items(table)) == before
    assert result.PhysicalResourceId == f"seed-catalog:{TABLE}"


def test_a_product_without_an_id_fails_the_deploy_before_writing(
    seeding: ModuleType, table: Any
) -> None:
    # Given a catalog with a record that has no productId
    broken = [*load_catalog()[:2], {"name": "no id", "category": "BOOKS"}]

    # When the seed runs, then it raises (the framework reports FAILED) and writes nothing
    with pytest.raises(seeding.InvalidCatalog, match="productId"):
        _run(seeding, table, _event("Create"), broken)
    assert _all_items(table) == []


def test_duplicate_ids_keep_the_last_record(seeding: ModuleType, table: Any) -> None:
    # Given two records with one productId
    first, second = dict(load_catalog()[0]), dict(load_catalog()[0])
    second["name"] = "renamed"

    # When the seed runs
    result = _run(seeding, table, _event("Create"), [first, second])

    # Then the batch does not fail and the later record wins
    assert result.Data == {"Products": "1"}
    assert table.get_item(Key={"productId": first["productId"]})["Item"]["name"] == "renamed"


def test_an_unknown_request_type_is_rejected(seeding: ModuleType) -> None:
    with pytest.raises(ValueError, match="RequestType"):
        seeding.SeedEvent.model_validate(_event("Replace"))
