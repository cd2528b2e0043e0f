"""Fresh product records from the catalog table, the source of truth, and the store's
Products API.

The search index finds and ranks products; the records shown are read here, by
id, at the time of the answer, so a price or a stock level is never quoted from
a snapshot. A failure of the table becomes
:class:`~shared.errors.CatalogUnavailable`, so the tool can tell the model the
catalog is down instead of crashing the turn.

A read may be cut short to answer in time: keys DynamoDB leaves unprocessed are
asked once more only while more than :data:`STOP_RETRYING_S` is left before the
caller's deadline, and :attr:`CatalogRead.complete` says whether every key was read.

The Products API has no read by id: the tool shows the snapshot's records then, and
only the indexer reads the API (:class:`HttpCatalog`), whole.
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

STOP_RETRYING_S = 0.8
"""Do not ask for unprocessed keys again with less than this left: filtering and
answering the model still have to fit before the Lambda's own timeout."""

MAX_KEYS = 100
"""BatchGetItem takes at most 100 keys per request."""

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
    """Reads products by id from the catalog table (BatchGetItem).

    It talks through a low-level DynamoDB client, which (unlike a boto3 resource) is
    safe to share between the threads the local runner runs tool calls on. The
    client is built on first use, under a lock, so that importing the handler reads
    no configuration and concurrent first calls build exactly one. Without ``region``
    boto3 looks in ``os.environ``, as it does in Lambda.
    """

    def __init__(
        self,
        table_name: str,
        *,
        client: Any = None,
        region: str | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self._table_name = table_name
        self._client = client
        self._region = region
        self._client_lock = threading.Lock()
        self._clock = clock
        self._deserialize = TypeDeserializer().deserialize

    def _dynamodb(self) -> Any:
        if self._client is None:
            with self._client_lock:
                if self._client is None:
                    self._client = boto3.client(
                        "dynamodb", region_name=self._region, config=CLIENT_CONFIG
                    )
        return self._client

    def _record(self, item: dict[str, Any]) -> Product:
        return {k: _plain(self._deserialize(v)) for k, v in item.items()}

    def products_by_id(self, ids: Sequence[str], *, deadline_s: float | None = None) -> CatalogRead:
        """BatchGetItem on the table; keys DynamoDB leaves unprocessed are asked once more."""
        wanted = list(dict.fromkeys(ids))
        if len(wanted) > MAX_KEYS:
            raise ValueError(f"at most {MAX_KEYS} ids per read, got {len(wanted)}")
        if not wanted:
            return CatalogRead([])
        keys = [{"productId": {"S": pid}} for pid in wanted]
        found: list[Product] = []
        with unavailable_on_failure():
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
                if attempt == 0 and _time_left(deadline_s, self._clock) < STOP_RETRYING_S:
                    break
        return CatalogRead(found, complete=False)


@contextmanager
def unavailable_on_failure() -> Iterator[None]:
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
        """Every product (of ``category`` if given)."""
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
