"""The catalog table and the sync table, as the webhook writes them.

The catalog table is written as ``storechat catalog import`` writes it (a product by
``productId``, typed as DynamoDB keeps numbers), so its stream reaches the indexer as an
import's does: a change to what is searched republishes the snapshot, a change of price
or stock alone (read fresh) does not.

The sync table holds, under ``key``:

* ``delivery#<platform>#<id>``: a delivery written, kept :data:`DELIVERY_TTL_S` (the
  platforms retry for hours, not days), so a redelivery writes nothing;
* ``<platform>#<product id>``: the time of the last change written for that product
  (``changedAt``, milliseconds), whether it was a deletion, and the ids of its rows.
  The time is set with a condition (not older than what is held), so a change that
  arrives after a newer one writes nothing, and a deletion is remembered so that a late
  update cannot bring the product back.

A product whose rows the sync table does not know (imported from a file, or synced from
the Admin API) is found by its ``platformProductId`` in the catalog table (a scan) when it
is deleted: deletions are rare, updates are not.
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from decimal import Decimal
from typing import Any

from boto3.dynamodb.types import TypeDeserializer, TypeSerializer
from botocore.exceptions import ClientError

from catalog_webhook.logic import Change, Written

PARTITION_KEY = "productId"
SYNC_KEY = "key"
DELIVERY_TTL_S = 3 * 24 * 3600
BATCH = 25
"""BatchWriteItem takes at most 25 requests."""
MAX_ATTEMPTS = 5

_serializer = TypeSerializer()
_deserializer = TypeDeserializer()


def to_item(product: dict[str, Any]) -> dict[str, Any]:
    """A product in DynamoDB's typed form; numbers go as Decimal, as DynamoDB keeps them."""
    plain: dict[str, Any] = json.loads(json.dumps(product), parse_float=Decimal)
    return {key: _serializer.serialize(value) for key, value in plain.items()}


class DynamoSyncStore:
    """:class:`~catalog_webhook.logic.SyncStore` on DynamoDB (a low-level client)."""

    def __init__(
        self, client: Any, catalog_table: str, sync_table: str, *, sleep: Any = time.sleep
    ) -> None:
        self._client = client
        self._catalog = catalog_table
        self._sync = sync_table
        self._sleep = sleep

    def seen(self, delivery: str) -> bool:
        answer = self._client.get_item(
            TableName=self._sync,
            Key={SYNC_KEY: {"S": f"delivery#{delivery}"}},
            ConsistentRead=True,
        )
        return "Item" in answer

    def remember(self, delivery: str, now_ms: int) -> None:
        expires = now_ms // 1000 + DELIVERY_TTL_S
        self._client.put_item(
            TableName=self._sync,
            Item={SYNC_KEY: {"S": f"delivery#{delivery}"}, "expiresAt": {"N": str(expires)}},
        )

    def apply(self, change: Change) -> Written | None:
        rows = [product.productId for product in change.products]
        try:
            answer = self._client.update_item(
                TableName=self._sync,
                Key={SYNC_KEY: {"S": change.key}},
                UpdateExpression="SET changedAt = :at, deleted = :deleted, #rows = :rows",
                # Equal passes: a redelivery after a failed write writes again.
                ConditionExpression="attribute_not_exists(changedAt) OR changedAt <= :at",
                ExpressionAttributeNames={"#rows": "rows"},
                ExpressionAttributeValues={
                    ":at": {"N": str(change.changed_ms)},
                    ":deleted": {"BOOL": change.deleted},
                    ":rows": {"L": [{"S": row} for row in [*rows, *change.kept]]},
                },
                ReturnValues="ALL_OLD",
            )
        except ClientError as exc:
            if exc.response.get("Error", {}).get("Code") == "ConditionalCheckFailedException":
                return None
            raise
        old = answer.get("Attributes")
        if old is not None:
            held = [str(_deserializer.deserialize(v)) for v in old.get("rows", {}).get("L", [])]
        elif change.deleted:
            held = list(self._rows_of(change.platform_product_id))
        else:
            # Its first webhook: the rows it names are written; a variant it no longer
            # has is left to the next full sync (a scan per first update would read the
            # whole table).
            held = []
        gone = sorted(set(held) - set(rows) - set(change.kept))
        requests = [{"PutRequest": {"Item": to_item(p.model_dump())}} for p in change.products]
        requests += [{"DeleteRequest": {"Key": {PARTITION_KEY: {"S": pid}}}} for pid in gone]
        for start in range(0, len(requests), BATCH):
            self._write(requests[start : start + BATCH])
        return Written(rows, gone)

    def _rows_of(self, platform_product_id: str) -> Iterator[str]:
        """The catalog's rows of a platform product the sync table does not know."""
        if not platform_product_id:
            return
        request: dict[str, Any] = {
            "TableName": self._catalog,
            "ProjectionExpression": PARTITION_KEY,
            "FilterExpression": "platformProductId = :id",
            "ExpressionAttributeValues": {":id": {"S": platform_product_id}},
        }
        while True:
            page = self._client.scan(**request)
            for item in page.get("Items", []):
                yield item[PARTITION_KEY]["S"]
            if "LastEvaluatedKey" not in page:
                return
            request["ExclusiveStartKey"] = page["LastEvaluatedKey"]

    def _write(self, requests: list[dict[str, Any]]) -> None:
        pending = requests
        for attempt in range(MAX_ATTEMPTS):
            answer = self._client.batch_write_item(RequestItems={self._catalog: pending})
            pending = answer.get("UnprocessedItems", {}).get(self._catalog, [])
            if not pending:
                return
            self._sleep(0.05 * 2**attempt)
        raise RuntimeError(f"{len(pending)} catalog writes were not processed; retried")
