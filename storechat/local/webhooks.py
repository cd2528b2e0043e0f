"""The platforms' webhooks in a local system: the deployed function's own code, on moto.

``storechat serve`` hands ``POST /webhooks/<platform>`` here. The delivery is verified,
ordered and written by ``catalog_webhook.logic`` into the local catalog table and sync
table, as the deployed function writes its tables; then what the deployed stream does is
done in place: the search snapshot is republished from the table (which changes nothing
when only a price or a stock changed), and the change is kept in the local catalog file
(``$STORECHAT_HOME/catalog.jsonl``), so the next ``serve`` or ``ask`` starts from it.

The secrets come from ``SHOPIFY_WEBHOOK_SECRET`` and ``WOOCOMMERCE_WEBHOOK_SECRET``; a
platform without one is answered 404. Deliveries are handled one at a time (the deployed
function's reserved concurrency is 1 for the same reason: a change and its order).
"""

from __future__ import annotations

import io
import threading
import time
from collections.abc import Callable, Iterable, Mapping
from typing import Any

from boto3.dynamodb.types import TypeDeserializer

from catalog_webhook.logic import PLATFORMS, Answer, Delivery, lower_headers, receive
from catalog_webhook.store import DynamoSyncStore
from shared.api.vocabulary import NOT_FOUND
from shared.platform.rows import ReadOptions
from shared.products.catalog_table import plain
from shared.products.product import Product, ProductDeletion
from storechat.local import index
from storechat.local.aws import CATALOG_TABLE, SYNC_TABLE
from storechat.local.table_files import TableFile
from storechat.settings import WEBHOOK_SECRET_VARIABLES

CatalogChanged = Callable[[Iterable[Product | ProductDeletion]], None]


class LocalWebhooks:
    def __init__(
        self,
        dynamodb: Any,
        s3: Any,
        *,
        secrets: Mapping[str, str],
        store_url: str | None = None,
        on_change: CatalogChanged | None = None,
        saved: TableFile | None = None,
    ) -> None:
        self._dynamodb = dynamodb
        self._s3 = s3
        self._secrets = dict(secrets)
        self._options = ReadOptions(store_url=store_url)
        self._on_change = on_change
        self._saved = saved
        self._store = DynamoSyncStore(dynamodb, CATALOG_TABLE, SYNC_TABLE)
        self._lock = threading.Lock()

    def receive(self, platform_name: str, headers: Mapping[str, str], body: bytes) -> Answer:
        platform = PLATFORMS.get(platform_name)
        if platform is None:
            return Answer(404, NOT_FOUND.body(f"no webhooks for {platform_name!r}"))
        secret = self._secrets.get(platform.name)
        if not secret:
            variable = WEBHOOK_SECRET_VARIABLES[platform.name]
            return Answer(
                404,
                NOT_FOUND.body(
                    f"{platform.name} webhooks are not enabled: set {variable} to the "
                    "webhook's secret and start storechat serve again"
                ),
            )
        delivery = Delivery(platform, lower_headers(headers), body, int(time.time() * 1000))
        with self._lock:
            answer = receive(delivery, secret, self._store, self._options)
            if answer.body.get("status") == "written":
                self._written(answer.body)
            if self._saved is not None and answer.status == 200:
                self._saved.save()
        return answer

    def _written(self, body: Mapping[str, Any]) -> None:
        products = list(self._catalog())
        index.seed_index(self._s3, index.INDEX_BUCKET, products)
        if self._on_change is not None:
            by_id = {product["productId"]: product for product in products}
            rows: list[Product | ProductDeletion] = [
                Product.model_validate(by_id[pid]) for pid in body["written"] if pid in by_id
            ]
            rows += [ProductDeletion(productId=pid) for pid in body["deleted"]]
            self._on_change(rows)

    def _catalog(self) -> Iterable[dict[str, Any]]:
        deserialize = TypeDeserializer().deserialize
        for page in self._dynamodb.get_paginator("scan").paginate(TableName=CATALOG_TABLE):
            for item in page["Items"]:
                yield {key: plain(deserialize(value)) for key, value in item.items()}


def local_catalog_writer(home: Any) -> CatalogChanged:
    """Keep each change in the local catalog file under ``home``, as an import does."""
    from storechat.catalog.local_store import LocalCatalog
    from storechat.catalog.progress import Progress

    def write(rows: Iterable[Product | ProductDeletion]) -> None:
        LocalCatalog(home).apply(rows, Progress("webhook", None, io.StringIO()))

    return write
