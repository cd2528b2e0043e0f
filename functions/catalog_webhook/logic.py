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
error for days). A WooCommerce variable product and its variations arrive as separate
bodies, and are put together as ``variations.py`` says; a variation whose product is not
known yet is kept and answered 200 ``pending``.
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

from catalog_webhook import inventory, variations
from shared.api.vocabulary import INVALID_REQUEST, NOT_FOUND, error_body
from shared.platform import shopify, woocommerce
from shared.platform.payload import PayloadError, platform_id, timestamp_ms
from shared.platform.product import PlatformProduct, catalog_rows
from shared.platform.rows import Raw, ReadOptions, SkippedRow, duplicate_id, validated
from shared.products.product import Product

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
    sweep: bool = False
    """Delete every row of the platform product the catalog holds, however it arrived
    (found by a scan): a variable product no longer for sale."""
    gone: list[str] = field(default_factory=list)
    """Rows to delete besides those the key held: variations their product no longer lists."""
    unsaid: list[str] = field(default_factory=list)
    """Ids of rows whose payload does not say whether the store counts their stock
    (Shopify's since API 2024-07): a row the catalog holds uncounted stays uncounted,
    with the count it holds."""


class NotWritten(Exception):
    """A delivery that writes nothing to the catalog: ``status`` and why."""

    def __init__(self, status: str, reason: str) -> None:
        super().__init__(reason)
        self.status = status
        self.reason = reason


@dataclass(frozen=True)
class Written:
    written: list[str]
    deleted: list[str]


class SyncStore(inventory.InventoryStore, variations.VariationStore, Protocol):
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
        level_change = inventory.apply(level, store)
        store.remember(delivery_id, delivery.received_ms)
        return Answer(200, inventory.answer_body(level, level_change))
    try:
        change, notes = _change(delivery, action, options, store)
    except PayloadError as exc:
        return Answer(400, INVALID_REQUEST.body(f"not a {platform.name} product: {exc}"))
    except NotWritten as not_written:
        store.remember(delivery_id, delivery.received_ms)
        return Answer(200, {"status": not_written.status, "reason": not_written.reason})
    if change is None:
        store.remember(delivery_id, delivery.received_ms)
        return Answer(200, {"status": "ignored", "reason": "; ".join(notes)})
    written = store.apply(change)
    if written is None:
        store.remember(delivery_id, delivery.received_ms)
        return Answer(200, {"status": "stale", "reason": STALE})
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
    delivery: Delivery, action: Action, options: ReadOptions, store: SyncStore
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
        changed = timestamp_ms(
            payload.get("date_modified_gmt"), "date_modified_gmt", utc_without_zone=True
        )
        what = woocommerce.kind(payload)
        if what == "variable":
            return _variable(key, product_id, changed, payload, options, store)
        if what == "variation":
            return _variation(product_id, changed, payload, options, store)
        product = woocommerce.rest_product(payload, options.store_url)
    products, kept, notes = mapped(product, options)
    unsaid = {v.platform_id for v in product.variants if not v.tracking_said and v.platform_id}
    return Change(
        key,
        changed,
        products,
        kept,
        platform_product_id=product_id,
        unsaid=[p.productId for p in products if p.platformVariantId in unsaid],
    ), notes


STALE = "the catalog holds a newer change of this product"


def _variable(
    key: str,
    product_id: str,
    changed: int,
    payload: Mapping[str, Any],
    options: ReadOptions,
    store: SyncStore,
) -> tuple[Change | None, list[str]]:
    """A variable product's body: kept, and its kept variations written with it."""
    listed = variations.listed(payload)
    newer, before = store.keep_parent(
        product_id, changed, variations.kept(payload, variations.PARENT)
    )
    if not newer:
        raise NotWritten("stale", STALE)
    dropped = variations.dropped(before, listed)
    # A dropped variation's rows are under its own key, or under this one's when it was
    # written with its product: both are deleted.
    gone = store.rows_of_variations(dropped)
    known = variations.of_parent(payload, store)
    if not known and not dropped:
        # Its body alone never wipes its variations: they are written as they arrive.
        raise NotWritten(
            "pending",
            f"none of the {len(listed)} variations of product {product_id} is known here yet: "
            "each is written with this product when its own webhook arrives (WooCommerce "
            "sends one whenever a variation is saved), or by the scheduled pull",
        )
    product = woocommerce.rest_product(payload, options.store_url, known)
    products, kept, notes = mapped(product, options)
    return Change(
        key,
        changed,
        products,
        kept,
        platform_product_id=product_id,
        sweep=bool(known) and not products and not kept,
        gone=gone,
    ), notes


def _variation(
    variation_id: str,
    changed: int,
    payload: Mapping[str, Any],
    options: ReadOptions,
    store: SyncStore,
) -> tuple[Change | None, list[str]]:
    """A variation's body: kept, and written with its product's kept body."""
    parent_id = variations.parent_id(payload)
    body = variations.kept(payload, variations.VARIATION)
    if not store.keep_variation(variation_id, changed, body):
        raise NotWritten("stale", STALE)
    parent = store.parent(parent_id)
    if parent is None:
        raise NotWritten(
            "pending",
            f"variation {variation_id} of product {parent_id} is kept: its product is not "
            "known here yet, and it is written when its product's webhook arrives (sent "
            "whenever the product is saved) or by the scheduled pull",
        )
    product = woocommerce.rest_product(json.loads(parent), options.store_url, [payload])
    products, kept, notes = mapped(product, options)
    # Ordered and tracked as a product of its own: a new SKU replaces its old row.
    return Change(
        f"woocommerce#{variation_id}", changed, products, kept, platform_product_id=parent_id
    ), notes


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
