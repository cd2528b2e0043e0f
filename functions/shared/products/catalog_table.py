"""Product records read by id from the catalog table, the source of truth.

The search index finds and ranks products; the records shown are read here, by
id, at the time of the answer, so a price or a stock level is never quoted from
a snapshot: by ``lookup_inventory`` for what it found, and by ``compose_response``
for products an answer cites from earlier turns of the conversation. A failure of
the table becomes :class:`~shared.runtime.errors.CatalogUnavailable`.

A read may be cut short to answer in time: keys DynamoDB leaves unprocessed are
asked once more only while more than :data:`STOP_RETRYING_S` is left before the
caller's deadline, and :attr:`CatalogRead.complete` says whether every key was read.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from decimal import Decimal
from typing import Any, Protocol

import boto3
from boto3.dynamodb.types import TypeDeserializer
from botocore.config import Config
from botocore.exceptions import BotoCoreError, ClientError

from shared.runtime.errors import CatalogUnavailable, FailureKind

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


def plain(value: Any) -> Any:
    """DynamoDB hands numbers back as Decimal; the rest of the system speaks JSON."""
    if isinstance(value, Decimal):
        return int(value) if value == value.to_integral_value() else float(value)
    if isinstance(value, list):
        return [plain(v) for v in value]
    if isinstance(value, set | frozenset):  # string and number sets
        return sorted((plain(v) for v in value), key=str)
    if isinstance(value, dict):
        return {k: plain(v) for k, v in value.items()}
    return value


def time_left(deadline_s: float | None, clock: Callable[[], float]) -> float:
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
        config: Config = CLIENT_CONFIG,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self._table_name = table_name
        self._client = client
        self._region = region
        self._config = config
        self._client_lock = threading.Lock()
        self._clock = clock
        self._deserialize = TypeDeserializer().deserialize

    def _dynamodb(self) -> Any:
        if self._client is None:
            with self._client_lock:
                if self._client is None:
                    self._client = boto3.client(
                        "dynamodb", region_name=self._region, config=self._config
                    )
        return self._client

    def _record(self, item: dict[str, Any]) -> Product:
        return {k: plain(self._deserialize(v)) for k, v in item.items()}

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
                if attempt == 0 and time_left(deadline_s, self._clock) < STOP_RETRYING_S:
                    break
        return CatalogRead(found, complete=False)


@contextmanager
def unavailable_on_failure() -> Iterator[None]:
    """Turn a botocore failure inside the block into :class:`CatalogUnavailable`."""
    try:
        yield
    except ClientError as exc:
        code = exc.response.get("Error", {}).get("Code", "error")
        raise CatalogUnavailable(FailureKind.UNAVAILABLE, f"catalog table: {code}") from exc
    except BotoCoreError as exc:
        raise CatalogUnavailable(FailureKind.UNAVAILABLE, "catalog table: network") from exc
