"""The catalog table as the sync reads and writes it (a low-level DynamoDB client)."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable
from typing import Any

from shared.platform.diff import Fingerprint, fingerprint
from shared.products import catalog_writes
from shared.products.catalog_writes import delete, from_item, put, scan_items
from shared.products.product import Product


class DynamoCatalogTable:
    def __init__(
        self, client: Any, table: str, *, sleep: Callable[[float], None] = time.sleep
    ) -> None:
        self._client = client
        self._table = table
        self._sleep = sleep

    def fingerprints(self) -> dict[str, Fingerprint]:
        held = {}
        for item in scan_items(self._client, self._table):
            record = from_item(item)
            held[str(record.get("productId"))] = fingerprint(record)
        return held

    def write(self, products: Iterable[Product], deletions: Iterable[str]) -> None:
        # Products first: a write that stops half way has deleted nothing yet.
        requests = [*(put(p) for p in products), *(delete(pid) for pid in deletions)]
        catalog_writes.write(self._client, self._table, requests, sleep=self._sleep)
