"""Reading every product from a store platform's Admin API, page by page.

* Shopify: the GraphQL Admin API (``POST /admin/api/<version>/graphql.json`` with the
  ``X-Shopify-Access-Token`` header), ``products`` paged by cursor (``pageInfo.endCursor``).
* WooCommerce: the REST API (``GET /wp-json/wc/v3/products``, ``page`` and ``per_page``,
  ``X-WP-TotalPages``), with a variable product's variations from
  ``/products/<id>/variations``; HTTP Basic with the consumer key and secret.

Each product is read into the platforms' one shape (``shared.platform``), the same the
webhooks use. ``storechat catalog sync`` and the scheduled ``catalog_sync`` function read
through here alike. A throttled request (HTTP 429, or Shopify's GraphQL ``THROTTLED``) waits
for ``Retry-After`` (or a growing pause) and is asked again; so is a server error (5xx)
or a dropped connection, up to :data:`MAX_ATTEMPTS` tries. A refused token, an answer
that is not the API's JSON, or a server that keeps failing stops the read with
:class:`AdminApiError`: nothing is written from a partial read.
"""

from __future__ import annotations

import base64
import dataclasses
import json
import time
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

from shared.platform import shopify, woocommerce
from shared.platform.payload import PayloadError
from shared.platform.product import PlatformProduct, catalog_rows
from shared.platform.rows import Raw, ReadOptions, Row, RowProblem, SkippedRow, checked_rows

SHOPIFY_API_VERSION = "2025-01"
SHOPIFY_PAGE = 50
WOOCOMMERCE_PAGE = 100
"""The largest page WooCommerce serves."""
MAX_ATTEMPTS = 6
LONGEST_WAIT_S = 60.0
TIMEOUT_S = 30.0
MAX_PAGES = 100_000
"""A guard against an API that pages forever (the same cursor again and again)."""


class AdminApiError(Exception):
    """The API could not be read; the message says why and what to do. Nothing is written."""


@dataclass
class Http:
    """GETs and POSTs of JSON with the retries of the module docstring."""

    headers: Mapping[str, str]
    sleep: Callable[[float], None] = time.sleep
    timeout_s: float = TIMEOUT_S
    requests: int = field(default=0)

    def call(self, url: str, body: Any | None = None) -> tuple[Any, Mapping[str, str]]:
        data = json.dumps(body).encode() if body is not None else None
        wait = 1.0
        for attempt in range(1, MAX_ATTEMPTS + 1):
            request = urllib.request.Request(
                url,
                data=data,
                method="POST" if data is not None else "GET",
                headers={"Accept": "application/json", **self.headers}
                | ({"Content-Type": "application/json"} if data is not None else {}),
            )
            self.requests += 1
            try:
                with urllib.request.urlopen(request, timeout=self.timeout_s) as response:
                    raw = response.read()
                    return _json(raw, url), dict(response.headers.items())
            except urllib.error.HTTPError as exc:
                if exc.code in (401, 403):
                    raise AdminApiError(
                        f"{_where(url)} refused the credentials (HTTP {exc.code}): check the "
                        "token or key and its access to products; nothing was changed"
                    ) from None
                if exc.code != 429 and exc.code < 500:
                    raise AdminApiError(
                        f"{_where(url)} answered HTTP {exc.code}; nothing was changed"
                    ) from None
                pause = _retry_after(exc.headers.get("Retry-After"), wait)
                reason = f"HTTP {exc.code}"
            except (urllib.error.URLError, TimeoutError, ConnectionError) as exc:
                pause, reason = wait, f"no answer ({getattr(exc, 'reason', exc)})"
            if attempt == MAX_ATTEMPTS:
                raise AdminApiError(
                    f"{_where(url)} still failed after {MAX_ATTEMPTS} tries ({reason}); "
                    "nothing was changed: run the sync again later"
                )
            self.sleep(pause)
            wait = min(wait * 2, LONGEST_WAIT_S)
        raise AssertionError("unreachable")


def _where(url: str) -> str:
    parts = urllib.parse.urlsplit(url)
    return f"{parts.scheme}://{parts.netloc}{parts.path}"


def _json(raw: bytes, url: str) -> Any:
    try:
        return json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError):
        raise AdminApiError(
            f"{_where(url)} answered something that is not JSON; is it the store's API? "
            "Nothing was changed"
        ) from None


def _retry_after(value: str | None, default: float) -> float:
    try:
        return min(max(float(value or ""), 0.0), LONGEST_WAIT_S)
    except ValueError:
        return default


@dataclass(frozen=True)
class Read:
    """One product read, or why it could not be (its position in the listing)."""

    position: int
    product: PlatformProduct | None
    problem: str = ""


def pulled_rows(reads: Iterator[Read], options: ReadOptions) -> Iterator[Row]:
    """Every product read as catalog rows, validated as an import validates a file's, each
    variant numbered in the order the API lists them (a problem names that number as an
    import names a file's line)."""
    return checked_rows(_numbered(reads, options), options, platform=True)


def _numbered(reads: Iterator[Read], options: ReadOptions) -> Iterator[Raw | SkippedRow]:
    number = 0
    for read in reads:
        if read.product is None:
            number += 1
            problem = RowProblem(number, "", f"product {read.position}: {read.problem}")
            yield Raw(number, None, (problem,))
            continue
        variants = []
        for variant in read.product.variants:
            number += 1
            variants.append(dataclasses.replace(variant, line=number))
        lines = tuple(v.line for v in variants) or (number + 1,)
        number = max(number, lines[-1])
        product = dataclasses.replace(read.product, variants=tuple(variants), lines=lines)
        yield from catalog_rows(product, options)


def shopify_products(
    shop: str, token: str, store_url: str | None, *, http: Http | None = None
) -> Iterator[Read]:
    """Every product of the shop (``https://SHOP.myshopify.com``), in the API's order."""
    http = http or Http({"X-Shopify-Access-Token": token})
    url = f"{shop.rstrip('/')}/admin/api/{SHOPIFY_API_VERSION}/graphql.json"
    cursor: str | None = None
    position = 0
    for _ in range(MAX_PAGES):
        variables = {"first": SHOPIFY_PAGE, "after": cursor}
        answer, _headers = http.call(url, {"query": shopify.PRODUCTS_QUERY, "variables": variables})
        if _throttled(answer):
            http.sleep(_graphql_wait(answer))
            continue
        page = _products_page(answer, url)
        for node in page["nodes"]:
            position += 1
            try:
                yield Read(position, shopify.graphql_product(node, store_url))
            except PayloadError as exc:
                yield Read(position, None, str(exc))
        info = page.get("pageInfo") or {}
        if not info.get("hasNextPage"):
            return
        next_cursor = info.get("endCursor")
        if not isinstance(next_cursor, str) or not next_cursor or next_cursor == cursor:
            raise AdminApiError(f"{_where(url)} says there is a next page but gives no new cursor")
        cursor = next_cursor
    raise AdminApiError(f"{_where(url)} gave more than {MAX_PAGES:,} pages")


def _throttled(answer: Any) -> bool:
    errors = answer.get("errors") if isinstance(answer, Mapping) else None
    return isinstance(errors, list) and any(
        isinstance(e, Mapping) and (e.get("extensions") or {}).get("code") == "THROTTLED"
        for e in errors
    )


def _graphql_wait(answer: Mapping[str, Any]) -> float:
    """How long until the query's cost is available again (Shopify's leaky bucket)."""
    cost = (answer.get("extensions") or {}).get("cost") or {}
    status = cost.get("throttleStatus") or {}
    try:
        missing = float(cost.get("requestedQueryCost", 0)) - float(status["currentlyAvailable"])
        return min(max(missing / float(status["restoreRate"]), 1.0), LONGEST_WAIT_S)
    except (KeyError, TypeError, ValueError, ZeroDivisionError):
        return 2.0


def _products_page(answer: Any, url: str) -> Mapping[str, Any]:
    if isinstance(answer, Mapping) and answer.get("errors"):
        first = answer["errors"][0] if isinstance(answer["errors"], list) else answer["errors"]
        message = first.get("message") if isinstance(first, Mapping) else str(first)
        raise AdminApiError(f"{_where(url)} refused the query: {str(message)[:200]}")
    data = answer.get("data") if isinstance(answer, Mapping) else None
    page = data.get("products") if isinstance(data, Mapping) else None
    if not isinstance(page, Mapping) or not isinstance(page.get("nodes"), list):
        raise AdminApiError(
            f"{_where(url)} answered without data.products.nodes: not Shopify's GraphQL "
            "Admin API? Nothing was changed"
        )
    return page


def woocommerce_products(
    site: str, key: str, secret: str, store_url: str | None, *, http: Http | None = None
) -> Iterator[Read]:
    """Every product of the WooCommerce store at ``site``, with its variations."""
    basic = base64.b64encode(f"{key}:{secret}".encode()).decode()
    http = http or Http({"Authorization": f"Basic {basic}"})
    base = f"{site.rstrip('/')}/wp-json/wc/v3/products"
    position = 0
    for page in range(1, MAX_PAGES + 1):
        products, headers = http.call(f"{base}?page={page}&per_page={WOOCOMMERCE_PAGE}")
        if not isinstance(products, list):
            raise AdminApiError(
                f"{_where(base)} answered something that is not a list of products: not "
                "WooCommerce's REST API (wc/v3)? Nothing was changed"
            )
        for payload in products:
            position += 1
            try:
                variations = None
                if isinstance(payload, Mapping) and woocommerce.kind(payload) == "variable":
                    variations = list(_variations(http, base, payload.get("id")))
                yield Read(position, woocommerce.rest_product(payload, store_url, variations))
            except PayloadError as exc:
                yield Read(position, None, str(exc))
        if _last_page(products, headers, page):
            return
    raise AdminApiError(f"{_where(base)} gave more than {MAX_PAGES:,} pages")


def _variations(http: Http, base: str, product_id: Any) -> Iterator[Any]:
    if not isinstance(product_id, int | str) or not str(product_id).isdigit():
        raise PayloadError("id is not a product id")
    for page in range(1, MAX_PAGES + 1):
        url = f"{base}/{product_id}/variations?page={page}&per_page={WOOCOMMERCE_PAGE}"
        items, headers = http.call(url)
        if not isinstance(items, list):
            raise PayloadError(f"the variations of product {product_id} are not a list")
        yield from items
        if _last_page(items, headers, page):
            return


def _last_page(items: list[Any], headers: Mapping[str, str], page: int) -> bool:
    """Whether ``page`` was the last: ``X-WP-TotalPages`` says so, or (without it) the
    page was not full."""
    for name, value in headers.items():
        if name.lower() == "x-wp-totalpages" and value.strip().isdigit():
            return page >= int(value) or not items
    return len(items) < WOOCOMMERCE_PAGE
