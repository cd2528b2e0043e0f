"""A stand-in for the store platforms' Admin APIs on 127.0.0.1, in their documented shapes.

* Shopify: ``POST /admin/api/<version>/graphql.json`` answers the ``products`` query with
  ``data.products.nodes`` and ``pageInfo {hasNextPage endCursor}``, ``first`` products a
  page after the ``after`` cursor; ``X-Shopify-Access-Token`` must be the token.
* WooCommerce: ``GET /wp-json/wc/v3/products?page=&per_page=`` with ``X-WP-Total`` and
  ``X-WP-TotalPages``, and ``/products/<id>/variations``; HTTP Basic with key and secret.

``faults`` is a script of answers given before the real one, in order, each consumed
once: ``(429, {"Retry-After": "0"}, b"")``, ``(503, {}, b"")``, a body that is not JSON.
``requests`` records every request's path.
"""

from __future__ import annotations

import base64
import json
import re
import threading
from collections import deque
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from types import TracebackType
from typing import Any, Self
from urllib.parse import parse_qs, urlsplit

Fault = tuple[int, dict[str, str], bytes]


class FakeAdminApi:
    def __init__(
        self,
        *,
        shopify_products: list[dict[str, Any]] | None = None,
        woocommerce_products: list[dict[str, Any]] | None = None,
        woocommerce_variations: dict[int, list[dict[str, Any]]] | None = None,
        token: str = "shpat_test",
        key: str = "ck_test",
        secret: str = "cs_test",
    ) -> None:
        self.shopify_products = shopify_products or []
        self.woocommerce_products = woocommerce_products or []
        self.woocommerce_variations = woocommerce_variations or {}
        self.token, self.key, self.secret = token, key, secret
        self.faults: deque[Fault] = deque()
        self.requests: list[str] = []
        self._lock = threading.Lock()
        self._server: ThreadingHTTPServer | None = None

    @property
    def url(self) -> str:
        assert self._server is not None
        return f"http://127.0.0.1:{self._server.server_address[1]}"

    def __enter__(self) -> Self:
        api = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args: Any) -> None:
                pass

            def do_GET(self) -> None:
                api._answer(self)

            def do_POST(self) -> None:
                api._answer(self)

        self._server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        threading.Thread(target=self._server.serve_forever, daemon=True).start()
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        assert self._server is not None
        self._server.shutdown()
        self._server.server_close()

    # -- answering ----------------------------------------------------------------------------

    def _answer(self, handler: BaseHTTPRequestHandler) -> None:
        length = int(handler.headers.get("Content-Length") or 0)
        body = handler.rfile.read(length) if length else b""
        with self._lock:
            self.requests.append(handler.path)
            fault = self.faults.popleft() if self.faults else None
        if fault is not None:
            self._send(handler, *fault)
            return
        parts = urlsplit(handler.path)
        if parts.path.endswith("/graphql.json") and handler.command == "POST":
            self._shopify(handler, body)
        elif parts.path.startswith("/wp-json/wc/v3/products") and handler.command == "GET":
            self._woocommerce(handler, parts.path, parse_qs(parts.query))
        else:
            self._send(handler, 404, {}, b'{"errors": "Not Found"}')

    def _shopify(self, handler: BaseHTTPRequestHandler, body: bytes) -> None:
        if handler.headers.get("X-Shopify-Access-Token") != self.token:
            self._send(handler, 401, {}, b'{"errors": "[API] Invalid API key or access token"}')
            return
        request = json.loads(body)
        variables = request.get("variables") or {}
        first, after = int(variables.get("first", 50)), variables.get("after")
        start = int(after) if after else 0
        nodes = self.shopify_products[start : start + first]
        end = start + len(nodes)
        page = {
            "data": {
                "products": {
                    "pageInfo": {
                        "hasNextPage": end < len(self.shopify_products),
                        "endCursor": str(end) if nodes else None,
                    },
                    "nodes": nodes,
                }
            },
            "extensions": {"cost": {"requestedQueryCost": 52, "actualQueryCost": 12}},
        }
        self._send(handler, 200, {}, json.dumps(page).encode())

    def _woocommerce(
        self, handler: BaseHTTPRequestHandler, path: str, query: dict[str, list[str]]
    ) -> None:
        expected = base64.b64encode(f"{self.key}:{self.secret}".encode()).decode()
        if handler.headers.get("Authorization") != f"Basic {expected}":
            message = b'{"code": "woocommerce_rest_cannot_view", "data": {"status": 401}}'
            self._send(handler, 401, {}, message)
            return
        match = re.fullmatch(r"/wp-json/wc/v3/products(?:/(\d+)/variations)?", path)
        if match is None:
            self._send(handler, 404, {}, b'{"code": "rest_no_route"}')
            return
        items = (
            self.woocommerce_variations.get(int(match[1]), [])
            if match[1]
            else self.woocommerce_products
        )
        page = int(query.get("page", ["1"])[0])
        per_page = min(int(query.get("per_page", ["10"])[0]), 100)
        chosen = items[(page - 1) * per_page : page * per_page]
        pages = max(1, -(-len(items) // per_page))
        headers = {"X-WP-Total": str(len(items)), "X-WP-TotalPages": str(pages)}
        self._send(handler, 200, headers, json.dumps(chosen).encode())

    @staticmethod
    def _send(
        handler: BaseHTTPRequestHandler, status: int, headers: dict[str, str], body: bytes
    ) -> None:
        handler.send_response(status)
        handler.send_header("Content-Type", "application/json")
        handler.send_header("Content-Length", str(len(body)))
        for name, value in headers.items():
            handler.send_header(name, value)
        handler.end_headers()
        handler.wfile.write(body)


def shopify_node(
    product_id: int,
    sku: str,
    *,
    title: str,
    price: str,
    product_type: str = "Laptops",
    stock: int = 5,
    compare_at: str | None = None,
    status: str = "ACTIVE",
) -> dict[str, Any]:
    """A ``Product`` node as the GraphQL Admin API's ``products`` query returns it."""
    handle = title.lower().replace(" ", "-")
    return {
        "id": f"gid://shopify/Product/{product_id}",
        "legacyResourceId": str(product_id),
        "title": title,
        "handle": handle,
        "vendor": "Zephyr",
        "productType": product_type,
        "tags": ["school"],
        "status": status,
        "descriptionHtml": f"<p>{title}.</p>",
        "publishedAt": "2026-01-01T00:00:00Z",
        "updatedAt": "2026-12-01T00:00:00Z",
        "category": None,
        "media": {
            "nodes": [{"preview": {"image": {"url": f"https://cdn.shopify.com/{handle}.jpg"}}}]
        },
        "variants": {
            "nodes": [
                {
                    "id": f"gid://shopify/ProductVariant/{product_id}1",
                    "legacyResourceId": f"{product_id}1",
                    "sku": sku,
                    "price": price,
                    "compareAtPrice": compare_at,
                    "barcode": None,
                    "inventoryQuantity": stock,
                    "selectedOptions": [{"name": "Title", "value": "Default Title"}],
                    "image": None,
                    "inventoryItem": {
                        "id": f"gid://shopify/InventoryItem/{product_id}9",
                        "legacyResourceId": f"{product_id}9",
                        "tracked": True,
                    },
                }
            ]
        },
    }
