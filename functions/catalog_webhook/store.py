"""The catalog table and the sync table, as the webhook writes them.

The catalog table is written as ``storechat catalog import`` writes it (a product by
``productId``, typed as DynamoDB keeps numbers), so its stream reaches the indexer as an
import's does: a change to what is searched republishes the snapshot, a change of price
or stock alone (read fresh) does not.

The sync table holds, under ``key``:

* ``delivery#<platform>#<id>``: a delivery written, kept :data:`DELIVERY_TTL_S` (the
  platforms retry for hours, not days), so a redelivery writes nothing;
* ``shopify#inventory#<inventory item id>``: the item's last level at each location
  (``location#<id>``: ``available`` and ``at``, milliseconds), each set with a condition
  (not older than what is held), summed into the product's stock; and ``untrackedAt``,
  when a product webhook last said the item is not tracked: a level older than that
  writes nothing;
* ``woocommerce#parent#<id>``, ``woocommerce#variation#<id>``: a variable product's and a
  variation's last body (``variations.py``), each kept with its time, on the same condition;
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

import time
from collections.abc import Iterator
from typing import Any

from boto3.dynamodb.types import TypeDeserializer
from botocore.exceptions import ClientError

from catalog_webhook.inventory import Level
from catalog_webhook.logic import Change, Written
from shared.products import catalog_writes
from shared.products.catalog_writes import delete, put, scan_items
from shared.products.product import Product
from shared.products.stock import TRACKED
from shared.products.table_names import (
    CATALOG_INVENTORY_INDEX,
    CATALOG_INVENTORY_ITEM,
    CATALOG_PARTITION_KEY,
)

SYNC_KEY = "key"
DELIVERY_TTL_S = 3 * 24 * 3600
LOCATION_PREFIX = "location#"
UNTRACKED_AT = "untrackedAt"
"""On ``shopify#inventory#<item>``: when a product webhook last said the item is not
tracked (milliseconds)."""
MAX_KEYS = 100
"""BatchGetItem takes at most 100 keys."""
MAX_ATTEMPTS = 5

_deserializer = TypeDeserializer()


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
        else:
            held = []
        if change.sweep or (change.deleted and old is None):
            woocommerce = change.key.startswith("woocommerce#")
            held += self._rows_of(change.platform_product_id, variations=woocommerce)
        # Else its first webhook: the rows it names are written; a variant it no longer
        # has is left to the next full sync (a scan per first update would read the
        # whole table).
        gone = sorted((set(held) | set(change.gone)) - set(rows) - set(change.kept))
        products = self._held_tracking(change.products, change.unsaid)
        requests = [put(product) for product in products] + [delete(pid) for pid in gone]
        catalog_writes.write(self._client, self._catalog, requests, sleep=self._sleep)
        if change.key.startswith("shopify#"):
            for product in products:
                item = product.platformInventoryItemId
                if item and not product.stockTracked and product.productId not in change.unsaid:
                    self._untracked(item, change.changed_ms)
        return Written(rows, gone)

    def _untracked(self, item: str, changed_ms: int) -> None:
        """Keep when a product webhook said ``item`` is not tracked: a level older than
        that (a retry, a late delivery) no longer makes its product counted."""
        try:
            self._client.update_item(
                TableName=self._sync,
                Key={SYNC_KEY: {"S": f"shopify#inventory#{item}"}},
                UpdateExpression="SET #untracked = :at",
                ConditionExpression="attribute_not_exists(#untracked) OR #untracked <= :at",
                ExpressionAttributeNames={"#untracked": UNTRACKED_AT},
                ExpressionAttributeValues={":at": {"N": str(changed_ms)}},
            )
        except ClientError as exc:
            if exc.response.get("Error", {}).get("Code") != "ConditionalCheckFailedException":
                raise

    def _held_tracking(self, products: list[Product], unsaid: list[str]) -> list[Product]:
        """``products``, each of ``unsaid`` that the catalog holds uncounted kept
        uncounted with the count it holds (its payload says nothing of tracking)."""
        if not unsaid:
            return products
        held = self._get(
            unsaid,
            table=self._catalog,
            key=CATALOG_PARTITION_KEY,
            projection=f"{CATALOG_PARTITION_KEY}, stock, {TRACKED}",
        )
        kept = []
        for product in products:
            item = held.get(product.productId, {})
            if product.productId in unsaid and item.get(TRACKED, {}).get("BOOL") is False:
                stock = int(_deserializer.deserialize(item.get("stock", {"N": "0"})))
                product = product.model_copy(update={"stock": stock, TRACKED: False})
            kept.append(product)
        return kept

    def products_of_item(self, item: str) -> list[str]:
        request: dict[str, Any] = {
            "TableName": self._catalog,
            "IndexName": CATALOG_INVENTORY_INDEX,
            "KeyConditionExpression": "#item = :item",
            "ExpressionAttributeNames": {"#item": CATALOG_INVENTORY_ITEM},
            "ExpressionAttributeValues": {":item": {"S": item}},
        }
        found: list[str] = []
        while True:
            page = self._client.query(**request)
            found += [entry[CATALOG_PARTITION_KEY]["S"] for entry in page.get("Items", [])]
            if "LastEvaluatedKey" not in page:
                return sorted(found)
            request["ExclusiveStartKey"] = page["LastEvaluatedKey"]

    def set_level(self, level: Level) -> int | None:
        try:
            answer = self._client.update_item(
                TableName=self._sync,
                Key={SYNC_KEY: {"S": f"shopify#inventory#{level.item}"}},
                UpdateExpression="SET #location = :level",
                # Equal passes: a redelivery after a failed write writes again. A level
                # older than the product webhook that said the item is not tracked is
                # from before: it does not count the product again.
                ConditionExpression=(
                    "(attribute_not_exists(#location) OR #location.#at <= :at) AND "
                    "(attribute_not_exists(#untracked) OR #untracked <= :at)"
                ),
                ExpressionAttributeNames={
                    "#location": f"{LOCATION_PREFIX}{level.location}",
                    "#at": "at",
                    "#untracked": UNTRACKED_AT,
                },
                ExpressionAttributeValues={
                    ":at": {"N": str(level.changed_ms)},
                    ":level": {
                        "M": {
                            "available": {"N": str(level.available or 0)},
                            "at": {"N": str(level.changed_ms)},
                        }
                    },
                },
                ReturnValues="ALL_NEW",
            )
        except ClientError as exc:
            if exc.response.get("Error", {}).get("Code") == "ConditionalCheckFailedException":
                return None
            raise
        held = answer.get("Attributes", {})
        return sum(
            int(value["M"]["available"]["N"])
            for name, value in held.items()
            if name.startswith(LOCATION_PREFIX)
        )

    def set_stock(self, products: list[str], stock: int) -> list[str]:
        written = []
        for product_id in products:
            try:
                self._client.update_item(
                    TableName=self._catalog,
                    Key={CATALOG_PARTITION_KEY: {"S": product_id}},
                    # A level with a count says Shopify tracks the item now: the count stands.
                    UpdateExpression="SET stock = :stock REMOVE stockTracked",
                    # A product deleted meanwhile is not brought back as a stock count.
                    ConditionExpression="attribute_exists(#key)",
                    ExpressionAttributeNames={"#key": CATALOG_PARTITION_KEY},
                    ExpressionAttributeValues={":stock": {"N": str(stock)}},
                )
            except ClientError as exc:
                if exc.response.get("Error", {}).get("Code") != "ConditionalCheckFailedException":
                    raise
                continue
            written.append(product_id)
        return written

    def _rows_of(self, platform_product_id: str, *, variations: bool) -> Iterator[str]:
        """The catalog's rows of a platform product the sync table does not know (with
        ``variations``: or of a WooCommerce variation, whose id is a post id as its
        product's is)."""
        if not platform_product_id:
            return
        matches = "platformProductId = :id" + (" OR platformVariantId = :id" if variations else "")
        for item in scan_items(
            self._client,
            self._catalog,
            ProjectionExpression=CATALOG_PARTITION_KEY,
            FilterExpression=matches,
            ExpressionAttributeValues={":id": {"S": platform_product_id}},
        ):
            yield item[CATALOG_PARTITION_KEY]["S"]

    # -- a WooCommerce variable product and its variations (variations.py) ----------------

    def keep_parent(self, product: str, changed_ms: int, body: str) -> tuple[bool, str | None]:
        return self._keep(f"woocommerce#parent#{product}", changed_ms, body)

    def keep_variation(self, variation: str, changed_ms: int, body: str) -> bool:
        return self._keep(f"woocommerce#variation#{variation}", changed_ms, body)[0]

    def rows_of_variations(self, ids: list[str]) -> list[str]:
        items = self._get([f"woocommerce#{v}" for v in ids])
        return [
            str(_deserializer.deserialize(row))
            for item in items.values()
            for row in item.get("rows", {}).get("L", [])
        ]

    def parent(self, product: str) -> str | None:
        answer = self._client.get_item(
            TableName=self._sync,
            Key={SYNC_KEY: {"S": f"woocommerce#parent#{product}"}},
            ConsistentRead=True,
        )
        return answer.get("Item", {}).get("body", {}).get("S")

    def variations(self, ids: list[str]) -> dict[str, str]:
        items = self._get([f"woocommerce#variation#{v}" for v in ids])
        return {key.rsplit("#", 1)[-1]: item["body"]["S"] for key, item in items.items()}

    def _get(
        self, keys: list[str], *, table: str = "", key: str = SYNC_KEY, projection: str = ""
    ) -> dict[str, dict[str, Any]]:
        """The sync table's (or ``table``'s, keyed by ``key``) items of these keys (those
        there), by key."""
        table = table or self._sync
        found: dict[str, dict[str, Any]] = {}
        unique = list(dict.fromkeys(keys))
        for start in range(0, len(unique), MAX_KEYS):
            chosen = [{key: {"S": value}} for value in unique[start : start + MAX_KEYS]]
            request: dict[str, Any] = {"Keys": chosen, "ConsistentRead": True}
            if projection:
                request["ProjectionExpression"] = projection
            pending: dict[str, Any] = {table: request}
            for attempt in range(MAX_ATTEMPTS):
                answer = self._client.batch_get_item(RequestItems=pending)
                for item in answer.get("Responses", {}).get(table, []):
                    found[item[key]["S"]] = item
                pending = answer.get("UnprocessedKeys") or {}
                if not pending:
                    break
                self._sleep(0.05 * 2**attempt)
        return found

    def _keep(self, key: str, changed_ms: int, body: str) -> tuple[bool, str | None]:
        try:
            answer = self._client.update_item(
                TableName=self._sync,
                Key={SYNC_KEY: {"S": key}},
                UpdateExpression="SET changedAt = :at, #body = :body",
                ConditionExpression="attribute_not_exists(changedAt) OR changedAt <= :at",
                ExpressionAttributeNames={"#body": "body"},
                ExpressionAttributeValues={
                    ":at": {"N": str(changed_ms)},
                    ":body": {"S": body},
                },
                ReturnValues="ALL_OLD",
            )
        except ClientError as exc:
            if exc.response.get("Error", {}).get("Code") == "ConditionalCheckFailedException":
                return False, None
            raise
        return True, answer.get("Attributes", {}).get("body", {}).get("S")
