"""The source of truth the snapshot is rebuilt from: the catalog table, or the Products API.

Both read the whole catalog and raise :class:`~shared.runtime.errors.CatalogUnavailable` when
they cannot, so a failed read fails the rebuild and the last good snapshot stays
published.

The table is read with a parallel, strongly consistent Scan: a rebuild started by a
stream batch then sees at least every write that batch reports (a stream record
exists only once its write is committed), so no change is left out of the snapshot
it started.
"""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from decimal import Decimal
from typing import Any, Protocol

from boto3.dynamodb.types import TypeDeserializer
from botocore.config import Config

from shared.products.catalog_table import unavailable_on_failure
from shared.products.products_api import HttpCatalog
from shared.runtime.errors import CatalogUnavailable, FailureKind

Product = dict[str, Any]

SCAN_CLIENT_CONFIG = Config(
    connect_timeout=5,
    read_timeout=30,
    retries={"mode": "standard", "max_attempts": 8},
)
"""Patient: a background rebuild would rather wait out throttling than fail and retry whole."""


class CatalogReader(Protocol):
    def read_all(self) -> list[Product]:
        """Every product of the catalog, or :class:`CatalogUnavailable`."""
        ...


def plain(value: Any) -> Any:
    """A DynamoDB value as JSON would have it: Decimal as int or float, sets as sorted lists."""
    if isinstance(value, Decimal):
        return int(value) if value == value.to_integral_value() else float(value)
    if isinstance(value, list):
        return [plain(v) for v in value]
    if isinstance(value, set | frozenset):
        return sorted((plain(v) for v in value), key=str)
    if isinstance(value, dict):
        return {k: plain(v) for k, v in value.items()}
    return value


class TableReader:
    """A parallel Scan of the catalog table, ``segments`` segments on as many threads.

    ``client`` is a low-level DynamoDB client (thread-safe, unlike a boto3 resource).
    """

    def __init__(self, client: Any, table_name: str, *, segments: int = 4) -> None:
        self._client = client
        self._table_name = table_name
        self._segments = segments
        self._deserialize = TypeDeserializer().deserialize

    def read_all(self) -> list[Product]:
        with unavailable_on_failure(), ThreadPoolExecutor(max_workers=self._segments) as pool:
            parts = list(pool.map(self._segment, range(self._segments)))
        return [product for part in parts for product in part]

    def _segment(self, segment: int) -> list[Product]:
        paginator = self._client.get_paginator("scan")
        pages = paginator.paginate(
            TableName=self._table_name,
            Segment=segment,
            TotalSegments=self._segments,
            ConsistentRead=True,
        )
        return [
            {k: plain(self._deserialize(v)) for k, v in item.items()}
            for page in pages
            for item in page.get("Items", [])
        ]


class ProductsApiReader:
    """The store's Products API, through the catalog tool's own adapter."""

    def __init__(self, base_url: str, timeout_s: float) -> None:
        self._api = HttpCatalog(base_url, timeout_s)

    def read_all(self) -> list[Product]:
        read = self._api.products(None, deadline_s=None)
        if not read.complete:
            raise CatalogUnavailable(FailureKind.INCOMPLETE, "products API: the read was cut short")
        return read.products
