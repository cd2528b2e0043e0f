"""A Shopify product as its webhooks and its Admin API describe it, as a
:class:`~shared.platform.product.PlatformProduct`.

Two shapes of one product: a webhook's body is the product's REST resource (``id``,
``body_html``, ``product_type``, ``tags`` as one comma-separated string, ``variants``
with ``option1``..``option3``, prices as strings); the GraphQL Admin API's ``Product``
node (``legacyResourceId``, ``descriptionHtml``, ``productType``, ``tags`` as a list,
``variants.nodes`` with ``selectedOptions``). Each is read into the one platform shape,
so that what a product becomes is decided once (``catalog_rows``), as for the CSV
export. A payload that is not a product (not an object, no id, a list where an object
belongs) raises :class:`~shared.platform.payload.PayloadError`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any
from urllib.parse import quote

from shared.platform.payload import (
    PayloadError,
    amount,
    field_text,
    items,
    object_at,
    platform_id,
    units_of,
)
from shared.platform.product import PlatformProduct, PlatformVariant

NOT_SOLD_STATUS = {
    "draft": "a draft",
    "archived": "archived",
    "unlisted": "unlisted (not shown in the store)",
}
DEFAULT_OPTION = ("title", "default title")
"""Shopify's option name and value for a product without variants."""
MAX_OPTIONS = 3


def product_page(store: str | None, handle: str, variant_id: str = "") -> str:
    """A Shopify product's page on ``store`` (``https://SHOP``), with ``?variant=`` when
    the variant's id is known; empty without a store address."""
    if not store or not handle:
        return ""
    page = f"{store.rstrip('/')}/products/{quote(handle, safe='')}"
    return f"{page}?variant={quote(variant_id, safe='')}" if variant_id else page


def _not_sold(status: str, published: bool) -> str:
    status = status.casefold()
    if status in NOT_SOLD_STATUS:
        return f"{NOT_SOLD_STATUS[status]} (status: {status})"
    if not published:
        return "not published on the online store"
    return ""


def _tags(value: Any) -> tuple[str, ...]:
    if isinstance(value, str):
        return tuple(tag.strip() for tag in value.split(",") if tag.strip())
    return tuple(str(tag).strip() for tag in items(value, "tags") if str(tag).strip())


def _chosen(pairs: list[tuple[str, str]]) -> tuple[tuple[str, str], ...]:
    return tuple(
        (name, value)
        for name, value in pairs
        if value and (name.casefold(), value.casefold()) != DEFAULT_OPTION
    )


def rest_product(payload: Any, store_url: str | None) -> PlatformProduct:
    """A ``products/create`` or ``products/update`` webhook's body."""
    if not isinstance(payload, Mapping):
        raise PayloadError("the body is not a JSON object (a Shopify product)")
    product_id = platform_id(payload.get("id"), "id")
    handle = field_text(payload, "handle")
    option_names = [
        field_text(option, "name") for option in items(payload.get("options"), "options")
    ]
    images = {
        platform_id(image.get("id"), "images.id", required=False): field_text(image, "src")
        for image in items(payload.get("images"), "images")
    }
    category = object_at(payload, "category")
    variants = []
    for variant in items(payload.get("variants"), "variants"):
        variant_id = platform_id(variant.get("id"), "variants.id", required=False)
        values = [field_text(variant, f"option{number}") for number in range(1, MAX_OPTIONS + 1)]
        names = option_names + [f"Option{n}" for n in range(len(option_names) + 1, 4)]
        chosen = _chosen(list(zip(names, values, strict=False)))
        # ``inventory_management`` null says the stock is not tracked. Payloads since API
        # 2024-07 leave the field out and say nothing of tracking (``inventory_quantity``
        # of an untracked item is 0): the count is read, and a writer that holds the
        # product keeps whether it is counted (``tracking_said``).
        said = "inventory_management" in variant
        tracked = not said or variant.get("inventory_management") is not None
        variants.append(
            _variant(
                variant,
                variant_id=variant_id,
                handle=handle,
                chosen=chosen,
                price_key="price",
                compare_key="compare_at_price",
                inventory=units_of(variant.get("inventory_quantity")) if tracked else None,
                untracked=not tracked,
                tracking_said=said,
                image=images.get(
                    platform_id(variant.get("image_id"), "image_id", required=False), ""
                ),
                store_url=store_url,
                inventory_item_id=platform_id(
                    variant.get("inventory_item_id"), "inventory_item_id", required=False
                ),
            )
        )
    image = object_at(payload, "image")
    ordered = [src for src in images.values() if src]
    if not ordered and image:
        ordered = [field_text(image, "src")]
    return PlatformProduct(
        title=field_text(payload, "title"),
        vendor=field_text(payload, "vendor"),
        categories=(
            field_text(category, "full_name") if category else "",
            field_text(payload, "product_type"),
        ),
        tags=_tags(payload.get("tags")),
        description=(field_text(payload, "body_html"),),
        images=tuple(ordered),
        handle=handle,
        platform_id=product_id,
        url=product_page(store_url, handle),
        not_sold=_not_sold(
            field_text(payload, "status") or "active", payload.get("published_at") is not None
        ),
        variants=tuple(variants),
    )


def graphql_product(node: Any, store_url: str | None) -> PlatformProduct:
    """A ``Product`` node of the GraphQL Admin API's ``products`` query (see
    :data:`PRODUCTS_QUERY`)."""
    if not isinstance(node, Mapping):
        raise PayloadError("a product node is not a JSON object")
    product_id = platform_id(node.get("legacyResourceId") or node.get("id"), "id")
    handle = field_text(node, "handle")
    category = object_at(node, "category")
    media = [
        field_text(object_at(object_at(item, "preview") or {}, "image") or {}, "url")
        for item in items(object_at(node, "media", {}).get("nodes"), "media.nodes")
    ]
    variants = []
    variant_nodes = object_at(node, "variants", {}).get("nodes")
    for variant in items(variant_nodes, "variants.nodes"):
        variant_id = platform_id(
            variant.get("legacyResourceId") or variant.get("id"), "variants.id", required=False
        )
        pairs = [
            (field_text(option, "name"), field_text(option, "value"))
            for option in items(variant.get("selectedOptions"), "selectedOptions")
        ]
        item = object_at(variant, "inventoryItem")
        tracked = item is None or item.get("tracked") is not False
        variants.append(
            _variant(
                variant,
                variant_id=variant_id,
                handle=handle,
                chosen=_chosen(pairs),
                price_key="price",
                compare_key="compareAtPrice",
                inventory=units_of(variant.get("inventoryQuantity")) if tracked else None,
                untracked=not tracked,
                image=field_text(object_at(variant, "image") or {}, "url"),
                store_url=store_url,
                inventory_item_id=platform_id(
                    (item or {}).get("legacyResourceId") or (item or {}).get("id"),
                    "inventoryItem.id",
                    required=False,
                ),
            )
        )
    return PlatformProduct(
        title=field_text(node, "title"),
        vendor=field_text(node, "vendor"),
        categories=(
            field_text(category, "fullName") if category else "",
            field_text(node, "productType"),
        ),
        tags=_tags(node.get("tags")),
        description=(field_text(node, "descriptionHtml"),),
        images=tuple(url for url in media if url),
        handle=handle,
        platform_id=product_id,
        url=product_page(store_url, handle),
        not_sold=_not_sold(
            field_text(node, "status") or "ACTIVE", node.get("publishedAt") is not None
        ),
        variants=tuple(variants),
    )


def _variant(
    variant: Mapping[str, Any],
    *,
    variant_id: str,
    handle: str,
    chosen: tuple[tuple[str, str], ...],
    price_key: str,
    compare_key: str,
    inventory: int | None,
    image: str,
    store_url: str | None,
    inventory_item_id: str = "",
    untracked: bool = False,
    tracking_said: bool = True,
) -> PlatformVariant:
    problems: list[tuple[str, str]] = []
    prices: dict[str, float | None] = {}
    for key, name in ((price_key, "price"), (compare_key, "compareAtPrice")):
        try:
            prices[name] = amount(variant.get(key))
        except ValueError as exc:
            prices[name] = None
            problems.append((name, str(exc)))
    return PlatformVariant(
        sku=field_text(variant, "sku"),
        fallback_id="-".join([handle, *(value for _, value in chosen)]) if handle else "",
        options=chosen,
        price=prices["price"],
        compare_at_price=prices["compareAtPrice"],
        inventory=inventory,
        untracked=untracked,
        tracking_said=tracking_said,
        image=image,
        barcode=field_text(variant, "barcode"),
        platform_id=variant_id,
        inventory_item_id=inventory_item_id,
        url=product_page(store_url, handle, variant_id),
        problems=tuple(problems),
    )


PRODUCTS_QUERY = """
query Products($first: Int!, $after: String) {
  products(first: $first, after: $after) {
    pageInfo { hasNextPage endCursor }
    nodes {
      id legacyResourceId title handle vendor productType tags status descriptionHtml
      publishedAt updatedAt
      category { fullName }
      media(first: 10) { nodes { preview { image { url } } } }
      variants(first: 100) {
        nodes {
          id legacyResourceId sku price compareAtPrice barcode inventoryQuantity
          selectedOptions { name value }
          image { url }
          inventoryItem { id legacyResourceId tracked }
        }
      }
    }
  }
}
"""
"""The GraphQL Admin API query the sync pages through (``$after``: the last page's
``endCursor``). A product's first 100 variants are read: Shopify's long-standing
limit, which stores with more variants per product exceed only by opting in."""
