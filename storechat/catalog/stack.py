"""A deployed stack's catalog table, found through the stack's outputs.

``--stack NAME`` reads the CloudFormation stack's ``CatalogTableName`` output with the
user's own AWS credentials (profile, environment or SSO, as the AWS CLI would). Imports
write with ``BatchWriteItem``, 25 requests a call (the most DynamoDB takes); whatever
DynamoDB hands back unprocessed, or refuses for throttling, is sent again after a
growing, jittered pause. Export and stats read with a paginated ``Scan``.
"""

from __future__ import annotations

import json
import random
import time
from collections.abc import Callable, Iterable, Iterator
from dataclasses import KW_ONLY, dataclass
from decimal import Decimal
from itertools import islice
from typing import Any, Final, TextIO

import boto3
from boto3.dynamodb.types import TypeDeserializer, TypeSerializer
from botocore.config import Config
from botocore.exceptions import BotoCoreError, ClientError, NoCredentialsError, NoRegionError
from pydantic import ValidationError

from shared.products.catalog_data import load_catalog
from shared.products.product import Product, ProductDeletion
from shared.products.table_names import CATALOG_PARTITION_KEY
from storechat.catalog.errors import StackNotReady, StoreUnavailable
from storechat.catalog.progress import Progress
from storechat.catalog.store import Applied, Row, is_sample, sample_names

CATALOG_TABLE_OUTPUT: Final = "CatalogTableName"
"""The stack output naming the catalog table (``infra.names.Outputs``; a test keeps them equal)."""

BATCH_SIZE: Final = 25
THROTTLED: Final = frozenset(
    {"ThrottlingException", "ProvisionedThroughputExceededException", "RequestLimitExceeded"}
)
MAX_ATTEMPTS: Final = 10
"""Tries per batch before the import stops; with the pauses below, about half a minute."""

# The SDK's own retries cover a dropped connection; throttling is handled here, where
# UnprocessedItems (which the SDK never retries) gets the same patience.
_CLIENT_CONFIG = Config(retries={"mode": "standard", "max_attempts": 3})
_serializer = TypeSerializer()
_deserializer = TypeDeserializer()


def connect(stack: str, *, region: str | None = None, profile: str | None = None) -> StackCatalog:
    """The catalog of the deployed stack ``stack``, with the user's AWS credentials."""
    try:
        session = boto3.Session(profile_name=profile, region_name=region)
        cloudformation = session.client("cloudformation", config=_CLIENT_CONFIG)
        dynamodb = session.client("dynamodb", config=_CLIENT_CONFIG)
    except NoRegionError as exc:
        raise StackNotReady("no AWS region: pass --region or set AWS_REGION") from exc
    except BotoCoreError as exc:  # e.g. a profile that does not exist
        raise StackNotReady(f"cannot use your AWS configuration: {exc}") from exc
    table = catalog_table_name(cloudformation, stack)
    return StackCatalog(dynamodb, table, stack)


def catalog_table_name(cloudformation: Any, stack: str) -> str:
    """The stack's ``CatalogTableName`` output."""
    region = cloudformation.meta.region_name
    try:
        described = cloudformation.describe_stacks(StackName=stack)
    except NoCredentialsError as exc:
        raise StackNotReady(
            "no AWS credentials: sign in (aws sso login, or a profile with --profile) first"
        ) from exc
    except ClientError as exc:
        message = exc.response.get("Error", {}).get("Message", str(exc))
        if "does not exist" in message:
            raise StackNotReady(f"stack {stack!r} not found in {region}") from exc
        raise StackNotReady(f"cannot read stack {stack!r}: {message}") from exc
    except BotoCoreError as exc:
        raise StackNotReady(f"cannot read stack {stack!r}: {exc}") from exc
    for output in described["Stacks"][0].get("Outputs", []):
        if output.get("OutputKey") == CATALOG_TABLE_OUTPUT:
            return str(output["OutputValue"])
    raise StackNotReady(
        f"stack {stack!r} has no {CATALOG_TABLE_OUTPUT} output: is it a storechat stack?"
    )


@dataclass
class StackCatalog:
    """One deployed catalog table. ``sleep`` is injectable so tests need not wait; a batch
    is tried ``max_attempts`` times, pausing from ``first_pause`` up to ``longest_pause``
    seconds between tries."""

    dynamodb: Any
    table: str
    stack: str
    _: KW_ONLY
    sleep: Callable[[float], None] = time.sleep
    max_attempts: int = MAX_ATTEMPTS
    first_pause: float = 0.05
    longest_pause: float = 5.0

    @property
    def description(self) -> str:
        return f"stack {self.stack} (table {self.table})"

    # -- reading ------------------------------------------------------------------------

    def products(self) -> Iterator[dict[str, Any]]:
        for item in self._scan():
            yield _normalised(from_item(item))

    def product_ids(self) -> Iterator[str]:
        for item in self._scan(
            ProjectionExpression="#k", ExpressionAttributeNames={"#k": CATALOG_PARTITION_KEY}
        ):
            yield str(from_item(item)[CATALOG_PARTITION_KEY])

    def categories(self) -> Iterator[dict[str, Any]]:
        """Only each product's category: all that stats needs, so the scan stays small."""
        projection = {"ProjectionExpression": "#c", "ExpressionAttributeNames": {"#c": "category"}}
        for item in self._scan(**projection):
            yield from_item(item)

    def sample_products(self) -> list[str]:
        """Read by key, 100 ids a call (BatchGetItem's most): a table of any size is
        asked only about the sample's ids."""
        sample = sample_names()
        ids = sorted(sample)
        found: list[str] = []
        for start in range(0, len(ids), 100):
            pending: dict[str, Any] = {
                self.table: {
                    "Keys": [
                        {CATALOG_PARTITION_KEY: {"S": key}} for key in ids[start : start + 100]
                    ],
                    "ProjectionExpression": "#k, #n",
                    "ExpressionAttributeNames": {"#k": CATALOG_PARTITION_KEY, "#n": "name"},
                }
            }
            for attempt in range(1, self.max_attempts + 1):
                try:
                    response = self.dynamodb.batch_get_item(RequestItems=pending)
                except (ClientError, BotoCoreError) as exc:
                    raise StoreUnavailable(f"cannot read table {self.table}: {exc}") from exc
                items = response.get("Responses", {}).get(self.table, [])
                found += [
                    str(p[CATALOG_PARTITION_KEY])
                    for p in map(from_item, items)
                    if is_sample(p, sample)
                ]
                pending = response.get("UnprocessedKeys") or {}
                if not pending:
                    break
                if attempt < self.max_attempts:
                    self.sleep(self._pause(attempt))
            else:
                raise StoreUnavailable(f"DynamoDB kept {self.table}'s keys unread; try again")
        return sorted(found)

    def _scan(self, **extra: Any) -> Iterator[dict[str, Any]]:
        try:
            for page in self.dynamodb.get_paginator("scan").paginate(TableName=self.table, **extra):
                yield from page.get("Items", [])
        except (ClientError, BotoCoreError) as exc:
            raise StoreUnavailable(f"cannot read table {self.table}: {exc}") from exc

    # -- writing ------------------------------------------------------------------------

    def apply(self, rows: Iterable[Row], progress: Progress) -> Applied:
        applied = Applied()
        iterator = iter(rows)
        while batch := list(islice(iterator, BATCH_SIZE)):
            try:
                self._write_batch([_request(row) for row in batch])
            except StoreUnavailable as exc:
                done = applied.written + applied.deleted
                raise StoreUnavailable(
                    f"{exc}. {done:,} rows before this batch were written and stay; importing "
                    "the same file again is safe (it writes by productId)"
                ) from exc
            for row in batch:
                if isinstance(row, ProductDeletion):
                    applied.deleted += 1
                else:
                    applied.written += 1
            applied.batches += 1
            progress.advance(len(batch))
        return applied

    def _write_batch(self, requests: list[dict[str, Any]]) -> None:
        pending = requests
        for attempt in range(1, self.max_attempts + 1):
            try:
                response = self.dynamodb.batch_write_item(RequestItems={self.table: pending})
            except ClientError as exc:
                code = exc.response.get("Error", {}).get("Code", "")
                if code not in THROTTLED:
                    raise StoreUnavailable(f"cannot write to table {self.table}: {exc}") from exc
            except BotoCoreError as exc:
                raise StoreUnavailable(f"cannot write to table {self.table}: {exc}") from exc
            else:
                pending = response.get("UnprocessedItems", {}).get(self.table, [])
                if not pending:
                    return
            if attempt < self.max_attempts:
                self.sleep(self._pause(attempt))
        raise StoreUnavailable(
            f"DynamoDB is still throttling writes to {self.table} after {self.max_attempts} "
            f"tries ({len(pending)} rows of one batch not written)"
        )

    def _pause(self, attempt: int) -> float:
        # "Full jitter": many writers backing off together should not retry together.
        ceiling = min(self.longest_pause, self.first_pause * 2 ** (attempt - 1))
        return random.uniform(ceiling / 2, ceiling)

    def reset(self, stream: TextIO) -> str:
        sample = load_catalog()
        keep = {product[CATALOG_PARTITION_KEY] for product in sample}
        extra = sorted(set(self.product_ids()) - keep)
        rows: list[Row] = [ProductDeletion(productId=product_id) for product_id in extra]
        rows += [Product.model_validate(product) for product in sample]
        progress = Progress(f"resetting {self.table}", len(rows), stream)
        applied = self.apply(rows, progress)
        progress.finish()
        return (
            f"{self.description} holds the bundled sample again: {applied.written:,} products "
            f"written, {applied.deleted:,} others deleted"
        )


def _request(row: Row) -> dict[str, Any]:
    if isinstance(row, ProductDeletion):
        return {"DeleteRequest": {"Key": {CATALOG_PARTITION_KEY: {"S": row.productId}}}}
    return {"PutRequest": {"Item": to_item(row.model_dump())}}


def to_item(product: dict[str, Any]) -> dict[str, Any]:
    """A product in DynamoDB's typed form; numbers go as Decimal, as DynamoDB keeps them."""
    plain: dict[str, Any] = json.loads(json.dumps(product), parse_float=Decimal)
    return {key: _serializer.serialize(value) for key, value in plain.items()}


def from_item(item: dict[str, Any]) -> dict[str, Any]:
    """A typed DynamoDB item as plain JSON values (Decimal back to int or float)."""
    return {key: _plain(_deserializer.deserialize(value)) for key, value in item.items()}


def _plain(value: Any) -> Any:
    if isinstance(value, Decimal):
        return int(value) if value == value.to_integral_value() else float(value)
    if isinstance(value, dict):
        return {key: _plain(inner) for key, inner in value.items()}
    if isinstance(value, list | set):
        return [_plain(inner) for inner in value]
    return value


def _normalised(item: dict[str, Any]) -> dict[str, Any]:
    # DynamoDB keeps 999.0 as 999 and returns attributes in no order: a valid product
    # is exported as the model writes it, anything else as it is, in the catalog's order.
    try:
        return Product.model_validate(item, strict=True).model_dump()
    except ValidationError:
        pass
    ordered = {key: item[key] for key in Product.model_fields if key in item}
    ordered.update((key, value) for key, value in item.items() if key not in ordered)
    return ordered
