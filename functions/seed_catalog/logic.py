"""Seed the catalog table with the bundled catalog, as a custom resource's event handler.

The CDK Provider framework calls :func:`handle` on Create, Update and Delete.
Create and Update put every bundled product by ``productId``, so running it twice
leaves the table as running it once; Delete does nothing (the table's own
removal policy decides what happens to the data). A failure raises, and the
framework turns that into a failed deployment that CloudFormation rolls back.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable
from decimal import Decimal
from typing import Annotated, Any, Literal, Protocol

from pydantic import BaseModel, ConfigDict, Field

from shared.products.table_names import CATALOG_PARTITION_KEY


class SeedProperties(BaseModel):
    model_config = ConfigDict(extra="ignore")

    TableName: Annotated[str, Field(min_length=3, max_length=255)]
    CatalogVersion: str | None = None
    """A hash of the bundled catalog, so that a changed catalog triggers an Update."""


class SeedEvent(BaseModel):
    """The part of a CloudFormation custom resource event this handler reads."""

    model_config = ConfigDict(extra="ignore")

    RequestType: Literal["Create", "Update", "Delete"]
    ResourceProperties: SeedProperties
    PhysicalResourceId: str | None = None


class SeedResult(BaseModel):
    PhysicalResourceId: str
    Data: dict[str, str] = {}


class CatalogTable(Protocol):
    """The slice of a boto3 ``Table`` resource the seeder uses."""

    def batch_writer(self, overwrite_by_pkeys: list[str] | None = None) -> Any: ...


class InvalidCatalog(ValueError):
    """The bundled catalog has a record the table cannot take."""


def to_item(product: dict[str, Any]) -> dict[str, Any]:
    """A product as a DynamoDB item: numbers become Decimal, as boto3 requires."""
    item: dict[str, Any] = json.loads(json.dumps(product), parse_float=Decimal)
    return item


def seed(table: CatalogTable, products: Iterable[dict[str, Any]]) -> int:
    """Put every product by its ``productId``; returns how many were written."""
    items = [to_item(product) for product in products]
    for index, item in enumerate(items):
        key = item.get(CATALOG_PARTITION_KEY)
        if not isinstance(key, str) or not key:
            raise InvalidCatalog(f"product #{index} has no string {CATALOG_PARTITION_KEY}")
    # overwrite_by_pkeys keeps the last of two records with one productId instead of
    # failing the whole batch with a duplicate-key ValidationException.
    with table.batch_writer(overwrite_by_pkeys=[CATALOG_PARTITION_KEY]) as batch:
        for item in items:
            batch.put_item(Item=item)
    return len({item[CATALOG_PARTITION_KEY] for item in items})


def physical_id(table_name: str) -> str:
    # Tied to the table: a replaced table gets a new id, so CloudFormation seeds it.
    return f"seed-catalog:{table_name}"


def handle(
    event: SeedEvent,
    *,
    table_factory: Callable[[str], CatalogTable],
    load_products: Callable[[], list[dict[str, Any]]],
) -> SeedResult:
    table_name = event.ResourceProperties.TableName
    if event.RequestType == "Delete":
        return SeedResult(PhysicalResourceId=event.PhysicalResourceId or physical_id(table_name))
    count = seed(table_factory(table_name), load_products())
    return SeedResult(PhysicalResourceId=physical_id(table_name), Data={"Products": str(count)})
