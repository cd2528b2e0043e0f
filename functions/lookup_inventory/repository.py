"""Where the catalog comes from: the catalog table, or the store's Products API.

Both sources answer the same two questions (everything, or one category) and
turn their failures into :class:`~shared.errors.CatalogUnavailable`, so the
tool can tell the model the catalog is down instead of crashing the turn.
"""

from __future__ import annotations

import urllib.parse
from decimal import Decimal
from typing import Any, Protocol

from botocore.exceptions import BotoCoreError, ClientError

from shared.errors import CatalogUnavailable, UpstreamError
from shared.http import get_json

Product = dict[str, Any]


class CatalogSource(Protocol):
    def products(self, category: str | None) -> list[Product]: ...


def _plain(value: Any) -> Any:
    """DynamoDB hands numbers back as Decimal; the rest of the system speaks JSON."""
    if isinstance(value, Decimal):
        return int(value) if value == value.to_integral_value() else float(value)
    if isinstance(value, list):
        return [_plain(v) for v in value]
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    return value


class DynamoCatalog:
    """Reads the catalog table: Query on the category index, Scan only without a category."""

    def __init__(self, table: Any, category_index: str) -> None:
        self._table = table
        self._index = category_index

    def products(self, category: str | None) -> list[Product]:
        kwargs: dict[str, Any] = {}
        if category:
            kwargs = {
                "IndexName": self._index,
                "KeyConditionExpression": "category = :c",
                "ExpressionAttributeValues": {":c": category},
            }
        items: list[Product] = []
        try:
            while True:
                page = self._table.query(**kwargs) if category else self._table.scan(**kwargs)
                items.extend(_plain(item) for item in page.get("Items", []))
                if "LastEvaluatedKey" not in page:
                    return items
                kwargs["ExclusiveStartKey"] = page["LastEvaluatedKey"]
        except (ClientError, BotoCoreError) as exc:
            code = exc.response["Error"]["Code"] if isinstance(exc, ClientError) else "network"
            raise CatalogUnavailable("unavailable", f"catalog table: {code}") from exc


class HttpCatalog:
    """Reads the store's existing Products API: ``GET {base}/products?category=...``."""

    def __init__(self, base_url: str, timeout_s: float) -> None:
        self._base_url = base_url.rstrip("/")
        self._timeout_s = timeout_s

    def products(self, category: str | None) -> list[Product]:
        query = f"?{urllib.parse.urlencode({'category': category})}" if category else ""
        try:
            body = get_json(
                f"{self._base_url}/products{query}",
                headers={"Accept": "application/json"},
                timeout_s=self._timeout_s,
            )
        except UpstreamError as exc:
            raise CatalogUnavailable(exc.kind, f"products API: {exc.detail}") from exc
        items = body.get("products", body) if isinstance(body, dict) else body
        if not isinstance(items, list):
            raise CatalogUnavailable("malformed", "products API did not return a list")
        return [item for item in items if isinstance(item, dict)]
