"""Where the catalog comes from: the catalog table, or the store's Products API.

Both sources answer the same questions (everything, one category, or a few
products by id) and turn their failures into
:class:`~shared.errors.CatalogUnavailable`, so the tool can tell the model the
catalog is down instead of crashing the turn.

A read may be cut short to answer in time: a source pages through a large
catalog only while more than :data:`STOP_PAGING_S` is left before the caller's
deadline, and says in :attr:`CatalogRead.complete` whether it read everything.
"""

from __future__ import annotations

import threading
import time
import urllib.parse
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from decimal import Decimal
from typing import Any, Protocol

import boto3
from boto3.dynamodb.types import TypeDeserializer
from botocore.config import Config
from botocore.exceptions import BotoCoreError, ClientError

from shared.errors import CatalogUnavailable, UpstreamError
from shared.http import get_json

Product = dict[str, Any]

STOP_PAGING_S = 0.8
"""Do not ask for another page with less than this left: filtering, ranking and
answering the model still have to fit before the Lambda's own timeout."""

CLIENT_CONFIG = Config(
    connect_timeout=1,
    read_timeout=2,
    retries={"mode": "standard", "max_attempts": 2},
)
"""Fail fast: a tool that waits on a slow table longer than this misses its own deadline."""


@dataclass(frozen=True)
class CatalogRead:
    """Products read from a source; ``complete`` is False when the read was cut short."""

    products: list[Product]
    complete: bool = True


class CatalogSource(Protocol):
    def products(self, category: str | None, *, deadline_s: float | None) -> CatalogRead:
        """Every product (of ``category`` if given), read until ``deadline_s`` (monotonic)."""
        ...

    def products_by_id(self, ids: Sequence[str], *, deadline_s: float | None) -> CatalogRead:
        """The products with these ids that exist; ``complete`` is False if some went unread."""
        ...


def _plain(value: Any) -> Any:
    """DynamoDB hands numbers back as Decimal; the rest of the system speaks JSON."""
    if isinstance(value, Decimal):
        return int(value) if value == value.to_integral_value() else float(value)
    if isinstance(value, list):
        return [_plain(v) for v in value]
    if isinstance(value, set | frozenset):  # string and number sets
        return sorted((_plain(v) for v in value), key=str)
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    return value


def _time_left(deadline_s: float | None, clock: Callable[[], float]) -> float:
    return float("inf") if deadline_s is None else deadline_s - clock()


class DynamoCatalog:
    """Reads the catalog table: Query on the category index, Scan only without a category.

    It talks through a low-level DynamoDB client, which (unlike a boto3 resource) is
    safe to share between the threads the local runner runs tool calls on. The
    client is built on first use, under a lock, so that importing the handler reads
    no configuration and concurrent first calls build exactly one.
    """

    def __init__(
        self,
        table_name: str,
        category_index: str,
        *,
        client: Any = None,
        page_size: int | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self._table_name = table_name
        self._index = category_index
        self._client = client
        self._client_lock = threading.Lock()
        self._page_size = page_size
        self._clock = clock
        self._deserialize = TypeDeserializer().deserialize

    def _dynamodb(self) -> Any:
        if self._client is None:
            with self._client_lock:
                if self._client is None:
                    self._client = boto3.client("dynamodb", config=CLIENT_CONFIG)
        return self._client

    def _record(self, item: dict[str, Any]) -> Product:
        return {k: _plain(self._deserialize(v)) for k, v in item.items()}

    def products(self, category: str | None, *, deadline_s: float | None = None) -> CatalogRead:
        kwargs: dict[str, Any] = {"TableName": self._table_name}
        if self._page_size:
            kwargs["Limit"] = self._page_size
        if category:
            kwargs |= {
                "IndexName": self._index,
                "KeyConditionExpression": "category = :c",
                "ExpressionAttributeValues": {":c": {"S": category}},
            }
        items: list[Product] = []
        with _unavailable_on_failure():
            client = self._dynamodb()
            while True:
                page = client.query(**kwargs) if category else client.scan(**kwargs)
                items.extend(self._record(item) for item in page.get("Items", []))
                if "LastEvaluatedKey" not in page:
                    return CatalogRead(items)
                if _time_left(deadline_s, self._clock) < STOP_PAGING_S:
                    return CatalogRead(items, complete=False)
                kwargs["ExclusiveStartKey"] = page["LastEvaluatedKey"]

    def products_by_id(self, ids: Sequence[str], *, deadline_s: float | None = None) -> CatalogRead:
        """BatchGetItem on the table; keys DynamoDB leaves unprocessed are asked once more."""
        keys = [{"productId": {"S": pid}} for pid in dict.fromkeys(ids)]
        if not keys:
            return CatalogRead([])
        found: list[Product] = []
        with _unavailable_on_failure():
            client = self._dynamodb()
            request: dict[str, Any] = {self._table_name: {"Keys": keys}}
            for attempt in range(2):
                answer = client.batch_get_item(RequestItems=request)
                found.extend(
                    self._record(item)
                    for item in answer.get("Responses", {}).get(self._table_name, [])
                )
                request = answer.get("UnprocessedKeys") or {}
                if not request:
                    return CatalogRead(found)
                if attempt == 0 and _time_left(deadline_s, self._clock) < STOP_PAGING_S:
                    break
        return CatalogRead(found, complete=False)


@contextmanager
def _unavailable_on_failure() -> Iterator[None]:
    """Turn a botocore failure inside the block into :class:`CatalogUnavailable`."""
    try:
        yield
    except ClientError as exc:
        code = exc.response.get("Error", {}).get("Code", "error")
        raise CatalogUnavailable("unavailable", f"catalog table: {code}") from exc
    except BotoCoreError as exc:
        raise CatalogUnavailable("unavailable", "catalog table: network") from exc


class HttpCatalog:
    """Reads the store's existing Products API: ``GET {base}/products?category=...``.

    The API answers in one response, so a read is complete or fails; the deadline
    only shortens the HTTP timeout.
    """

    def __init__(
        self, base_url: str, timeout_s: float, *, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self._base_url = base_url.rstrip("/")
        self._timeout_s = timeout_s
        self._clock = clock

    def products(self, category: str | None, *, deadline_s: float | None = None) -> CatalogRead:
        query = f"?{urllib.parse.urlencode({'category': category})}" if category else ""
        timeout_s = max(0.2, min(self._timeout_s, _time_left(deadline_s, self._clock)))
        try:
            body = get_json(
                f"{self._base_url}/products{query}",
                headers={"Accept": "application/json"},
                timeout_s=timeout_s,
            )
        except UpstreamError as exc:
            raise CatalogUnavailable(exc.kind, f"products API: {exc.detail}") from exc
        items = body.get("products", body) if isinstance(body, dict) else body
        if not isinstance(items, list):
            raise CatalogUnavailable("malformed", "products API did not return a list")
        return CatalogRead([item for item in items if isinstance(item, dict)])

    def products_by_id(self, ids: Sequence[str], *, deadline_s: float | None = None) -> CatalogRead:
        """The API has no lookup by id: read everything and keep the asked ones."""
        wanted = set(ids)
        everything = self.products(None, deadline_s=deadline_s)
        return CatalogRead([p for p in everything.products if p.get("productId") in wanted])
