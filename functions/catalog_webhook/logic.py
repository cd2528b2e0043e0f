"""A store platform's product webhook, verified, and written to the catalog.

``POST /webhooks/shopify`` takes ``products/create``, ``products/update``,
``products/delete`` and ``inventory_levels/update`` (``inventory.py``);
``POST /webhooks/woocommerce`` takes ``product.created``, ``product.updated``,
``product.restored`` and ``product.deleted``. The same code answers
them deployed (``handler.py``, behind API Gateway) and locally (``storechat serve``).

In order, a delivery is:

1. refused with 404 when no secret is configured for its platform (nothing can be
   verified); WooCommerce's ping when a webhook is created (``webhook_id=N``, unsigned)
   gets 200 and writes nothing;
2. verified: the base64 HMAC-SHA256 of the raw body with the platform's secret, compared
   in constant time with ``X-Shopify-Hmac-Sha256`` / ``X-WC-Webhook-Signature``; a
   missing or wrong signature is 401 and writes nothing;
3. answered 200 ``duplicate`` when its delivery id (``X-Shopify-Webhook-Id``,
   ``X-WC-Webhook-Delivery-ID``) was written before: at-least-once delivery writes once;
4. read: a body that is not the platform's product JSON is 400, nothing written;
5. ordered: the product's ``updated_at`` (WooCommerce: ``date_modified_gmt``; a deletion:
   when it was triggered, else when it arrived) must not be older than the last change
   written for that product, else 200 ``stale`` and nothing written;
6. written: each variant the mapping (``shared.platform``) makes a catalog product is put
   in the catalog table, and the product's other rows (variants gone, or the whole
   product deleted, made a draft, or moved to a category the catalog does not sell) are
   deleted. A variant the mapping cannot read (no price) keeps its row as it was.

A topic it does not handle is answered 200 ``ignored`` (the platform would retry an
error for days). A WooCommerce variable product's body lists only its variations' ids:
those are read by the sync (``storechat catalog sync``), and the body is 200 ``ignored``.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Literal, Protocol

from catalog_webhook import inventory
from shared.platform import shopify, woocommerce
from shared.platform.payload import PayloadError, platform_id, timestamp_ms
from shared.platform.product import PlatformProduct, catalog_rows
from shared.platform.rows import Raw, ReadOptions, SkippedRow, duplicate_id, validated
from shared.product import Product
from shared.vocabulary import INVALID_REQUEST, NOT_FOUND, error_body

Action = Literal["upsert", "delete", "inventory"]
UNAUTHORIZED = "unauthorized"
"""The error code of a delivery whose signature does not match."""
MAX_BODY_BYTES = 4 * 1024 * 1024
"""A product's JSON, thousands of variants included, is far below this."""
_PING = re.compile(rb"webhook_id=\d{1,20}")


@dataclass(frozen=True)
class Platform:
    """What one platform's deliveries carry, by header (as the platform writes them;
    compared without case)."""

    name: str
    signature: str
    topic: str
    delivery_ids: tuple[str, ...]
    triggered_at: str | None
    topics: Mapping[str, Action]


SHOPIFY = Platform(
    "shopify",
    signature="X-Shopify-Hmac-Sha256",
    topic="X-Shopify-Topic",
    delivery_ids=("X-Shopify-Webhook-Id", "X-Shopify-Event-Id"),
    triggered_at="X-Shopify-Triggered-At",
    topics={
        "products/create": "upsert",
        "products/update": "upsert",
        "products/delete": "delete",
        inventory.TOPIC: "inventory",
    },
)
WOOCOMMERCE = Platform(
    "woocommerce",
    signature="X-WC-Webhook-Signature",
    topic="X-WC-Webhook-Topic",
    delivery_ids=("X-WC-Webhook-Delivery-ID",),
    triggered_at=None,
    topics={
        "product.created": "upsert",
        "product.updated": "upsert",
        "product.restored": "upsert",
        "product.deleted": "delete",
    },
)
PLATFORMS: dict[str, Platform] = {p.name: p for p in (SHOPIFY, WOOCOMMERCE)}
"""Each platform by the last segment of its route, ``/webhooks/<name>``."""


@dataclass(frozen=True)
class Delivery:
    platform: Platform
    headers: Mapping[str, str]
    """Header names in lower case."""
    body: bytes
    received_ms: int

    def header(self, name: str) -> str:
        return self.headers.get(name.lower(), "").strip()


@dataclass(frozen=True)
class Answer:
    status: int
    body: dict[str, Any]


@dataclass(frozen=True)
class Change:
    """What a delivery writes for one platform product."""

    key: str
    """``<platform>#<the platform's product id>``: where its last change is remembered."""
    changed_ms: int
    products: list[Product] = field(default_factory=list)
    kept: list[str] = field(default_factory=list)
    """Ids of rows left as they are (a variant that could not be read this time)."""
    deleted: bool = False
    platform_product_id: str = ""


@dataclass(frozen=True)
class Written:
    written: list[str]
    deleted: list[str]


class SyncStore(inventory.InventoryStore, Protocol):
    """Where deliveries and the catalog are (``store.py``: the catalog table and the
    sync table)."""

    def seen(self, delivery: str) -> bool:
        """Whether this delivery was written before."""
        ...

    def remember(self, delivery: str, now_ms: int) -> None: ...

    def apply(self, change: Change) -> Written | None:
        """Write ``change`` unless a newer one of its product was written: None then."""
        ...


def lower_headers(headers: Mapping[str, str] | None) -> dict[str, str]:
    return {str(k).lower(): str(v) for k, v in (headers or {}).items() if v is not None}


def signature(secret: str, body: bytes) -> str:
    """The base64 HMAC-SHA256 of ``body``: what both platforms send."""
    digest = hmac.new(secret.encode("utf-8"), body, hashlib.sha256).digest()
    return base64.b64encode(digest).decode("ascii")


def receive(
    delivery: Delivery, secret: str | None, store: SyncStore, options: ReadOptions
) -> Answer:
    platform = delivery.platform
    if not secret:
        return Answer(
            404,
            NOT_FOUND.body(f"{platform.name} webhooks are not enabled here: no secret is set"),
        )
    topic = delivery.header(platform.topic)
    if platform is WOOCOMMERCE and not topic and _PING.fullmatch(delivery.body.strip()):
        return Answer(200, {"status": "ping"})
    given = delivery.header(platform.signature)
    if not given or not hmac.compare_digest(
        given.encode("utf-8", "replace"), signature(secret, delivery.body).encode("ascii")
    ):
        return Answer(
            401,
            error_body(
                UNAUTHORIZED,
                f"the {platform.signature} header is missing or does not match the body "
                "signed with the webhook's secret; nothing was written",
            ),
        )
    action = platform.topics.get(topic)
    if action is None:
        return Answer(200, {"status": "ignored", "reason": f"topic {topic!r} is not handled"})
    delivery_id = _delivery_id(delivery)
    if store.seen(delivery_id):
        return Answer(200, {"status": "duplicate", "delivery": delivery_id})
    if action == "inventory":
        try:
            level = inventory.level_of(_json(delivery.body))
        except PayloadError as exc:
            return Answer(400, INVALID_REQUEST.body(f"not a Shopify inventory level: {exc}"))
        change = inventory.apply(level, store)
        store.remember(delivery_id, delivery.received_ms)
        return Answer(200, inventory.answer_body(level, change))
    try:
        change, notes = _change(delivery, action, options)
    except PayloadError as exc:
        return Answer(400, INVALID_REQUEST.body(f"not a {platform.name} product: {exc}"))
    if change is None:
        store.remember(delivery_id, delivery.received_ms)
        return Answer(200, {"status": "ignored", "reason": "; ".join(notes)})
    written = store.apply(change)
    if written is None:
        store.remember(delivery_id, delivery.received_ms)
        return Answer(
            200,
            {"status": "stale", "reason": "the catalog holds a newer change of this product"},
        )
    store.remember(delivery_id, delivery.received_ms)
    body: dict[str, Any] = {
        "status": "written",
        "written": written.written,
        "deleted": written.deleted,
    }
    if notes:
        body["notes"] = notes
    return Answer(200, body)


def _delivery_id(delivery: Delivery) -> str:
    for name in delivery.platform.delivery_ids:
        value = delivery.header(name)
        if value:
            return f"{delivery.platform.name}#{value[:200]}"
    # No id: the same body twice is the same delivery.
    return f"{delivery.platform.name}#sha256:{hashlib.sha256(delivery.body).hexdigest()}"


def _json(body: bytes) -> Any:
    if len(body) > MAX_BODY_BYTES:
        raise PayloadError(f"the body is larger than {MAX_BODY_BYTES:,} bytes")
    try:
        return json.loads(body.decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise PayloadError("the body is not JSON") from exc


def _change(
    delivery: Delivery, action: Action, options: ReadOptions
) -> tuple[Change | None, list[str]]:
    """What the delivery writes, or None and why it writes nothing."""
    platform = delivery.platform
    payload = _json(delivery.body)
    if not isinstance(payload, Mapping):
        raise PayloadError("the body is not a JSON object")
    product_id = platform_id(payload.get("id"), "id")
    key = f"{platform.name}#{product_id}"
    if action == "delete":
        return Change(key, _deleted_at(delivery), deleted=True, platform_product_id=product_id), []
    if platform is SHOPIFY:
        product = shopify.rest_product(payload, options.store_url)
        changed = timestamp_ms(payload.get("updated_at"), "updated_at")
    else:
        what = woocommerce.kind(payload)
        if what in ("variable", "variation"):
            return None, [
                f"a WooCommerce {what}'s webhook does not carry its variations' prices and "
                "stock; `storechat catalog sync --from woocommerce` reads them"
            ]
        product = woocommerce.rest_product(payload, options.store_url)
        changed = timestamp_ms(
            payload.get("date_modified_gmt"), "date_modified_gmt", utc_without_zone=True
        )
    products, kept, notes = mapped(product, options)
    return Change(key, changed, products, kept, platform_product_id=product_id), notes


def mapped(
    product: PlatformProduct, options: ReadOptions
) -> tuple[list[Product], list[str], list[str]]:
    """The catalog products ``product`` becomes, the ids of variants that cannot be read
    (their rows stay as they are), and what the operator should know."""
    products: list[Product] = []
    kept: list[str] = []
    notes: list[str] = []
    seen: set[str] = set()
    for raw in catalog_rows(product, options):
        if isinstance(raw, SkippedRow):
            notes.append(f"not in the catalog: {raw.reason}")
            continue
        row, problems = validated(raw, options)
        wanted = _wanted_id(raw)
        if not isinstance(row, Product):
            if wanted:
                kept.append(wanted)
            notes.extend(
                f"{wanted or 'a variant'}: {p.field or 'row'} {p.message}" for p in problems
            )
            continue
        if row.productId in seen and raw.variant:
            # The platform allows one SKU on two variants: as the CSV import does.
            row = row.model_copy(update={"productId": duplicate_id(row.productId, raw.variant)})
        if row.productId in seen:
            notes.append(f"{row.productId}: another variant has the same id; written once")
            continue
        seen.add(row.productId)
        products.append(row)
    return products, kept, notes


def _wanted_id(raw: Raw) -> str:
    value = raw.data.get("productId") if raw.data else None
    return value if isinstance(value, str) else ""


def _deleted_at(delivery: Delivery) -> int:
    name = delivery.platform.triggered_at
    if name and delivery.header(name):
        try:
            return timestamp_ms(delivery.header(name), name)
        except PayloadError:
            pass
    return delivery.received_ms
