"""Writing the catalog table as an import writes it, from a Lambda.

A product is put by ``productId`` in DynamoDB's typed form (numbers as Decimal, as
DynamoDB keeps them), and deleted by its key, 25 requests a ``BatchWriteItem`` (the most
it takes); what DynamoDB hands back unprocessed is sent again after a growing pause. The
table's stream then reaches the indexer as an import's writes do. The webhook function
and the scheduled sync write through here.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Iterable, Iterator
from decimal import Decimal
from typing import Any

from boto3.dynamodb.types import TypeDeserializer, TypeSerializer
from pydantic import ValidationError

from shared.products.catalog_table import plain
from shared.products.product import Product
from shared.products.table_names import CATALOG_PARTITION_KEY

BATCH = 25
"""BatchWriteItem takes at most 25 requests."""
MAX_ATTEMPTS = 5

_serializer = TypeSerializer()
_deserializer = TypeDeserializer()


class CatalogWriteError(RuntimeError):
    """DynamoDB kept some writes unprocessed after every retry."""


def to_item(product: dict[str, Any]) -> dict[str, Any]:
    """A product in DynamoDB's typed form."""
    values: dict[str, Any] = json.loads(json.dumps(product), parse_float=Decimal)
    return {key: _serializer.serialize(value) for key, value in values.items()}


def from_item(item: dict[str, Any]) -> dict[str, Any]:
    """A typed item as the product it is, dumped as an import dumps it (so the two
    compare equal when nothing changed); an item that is no valid product, as it is."""
    record = {key: plain(_deserializer.deserialize(value)) for key, value in item.items()}
    try:
        return Product.model_validate(record, strict=True).model_dump()
    except ValidationError:
        return record


def put(product: Product) -> dict[str, Any]:
    return {"PutRequest": {"Item": to_item(product.model_dump())}}


def delete(product_id: str) -> dict[str, Any]:
    return {"DeleteRequest": {"Key": {CATALOG_PARTITION_KEY: {"S": product_id}}}}


def write(
    client: Any,
    table: str,
    requests: Iterable[dict[str, Any]],
    *,
    sleep: Callable[[float], None] = time.sleep,
) -> int:
    """Send ``requests`` (:func:`put`, :func:`delete`) in batches; returns how many batches.

    Raises :class:`CatalogWriteError` when a batch stays unprocessed after retries.
    """
    batches = 0
    for batch in _batches(requests):
        batches += 1
        pending = batch
        for attempt in range(MAX_ATTEMPTS):
            answer = client.batch_write_item(RequestItems={table: pending})
            pending = answer.get("UnprocessedItems", {}).get(table, [])
            if not pending:
                break
            sleep(0.05 * 2**attempt)
        if pending:
            raise CatalogWriteError(f"{len(pending)} catalog writes were not processed; retried")
    return batches


def _batches(requests: Iterable[dict[str, Any]]) -> Iterator[list[dict[str, Any]]]:
    batch: list[dict[str, Any]] = []
    for request in requests:
        batch.append(request)
        if len(batch) == BATCH:
            yield batch
            batch = []
    if batch:
        yield batch


def scan_items(client: Any, table: str, **request: Any) -> Iterator[dict[str, Any]]:
    """Every item of ``table`` (a paginated Scan with ``request``'s projection or filter)."""
    request = {"TableName": table, **request}
    while True:
        page = client.scan(**request)
        yield from page.get("Items", [])
        if "LastEvaluatedKey" not in page:
            return
        request["ExclusiveStartKey"] = page["LastEvaluatedKey"]
