"""Products in the store platforms' documented JSON shapes, and their webhook deliveries.

Shopify's webhook body is the product's REST resource (prices as strings, ``tags`` one
comma-separated string, ``option1``..``option3``); its GraphQL Admin API node has
``legacyResourceId``, ``descriptionHtml``, ``variants.nodes``. WooCommerce's webhook body
and REST API product are one shape (``regular_price``, ``sale_price``, ``on_sale``,
``stock_quantity``, ``date_modified_gmt``). Deliveries are signed as the platforms sign
them: the base64 HMAC-SHA256 of the raw body with the webhook's secret.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
from typing import Any


def sign(secret: str, body: bytes) -> str:
    return base64.b64encode(hmac.new(secret.encode(), body, hashlib.sha256).digest()).decode()


def shopify_product(
    product_id: int,
    sku: str,
    *,
    title: str = "Zephyr Laptop 14",
    price: str = "999.00",
    compare_at: str | None = None,
    stock: int = 5,
    updated_at: str = "2026-12-01T10:00:00-05:00",
    product_type: str = "Laptops",
    status: str = "active",
    handle: str | None = None,
    variants: list[dict[str, Any]] | None = None,
) -> dict[str, Any]:
    handle = handle or title.lower().replace(" ", "-")
    return {
        "id": product_id,
        "title": title,
        "body_html": f"<p>The {title}: a <strong>light</strong> laptop for school.</p>",
        "vendor": "Zephyr",
        "product_type": product_type,
        "created_at": "2026-01-01T00:00:00-05:00",
        "handle": handle,
        "updated_at": updated_at,
        "published_at": "2026-01-01T00:00:00-05:00",
        "status": status,
        "tags": "school, light",
        "admin_graphql_api_id": f"gid://shopify/Product/{product_id}",
        "options": [{"name": "Title", "position": 1, "values": ["Default Title"]}],
        "variants": variants
        or [
            {
                "id": product_id * 10 + 1,
                "product_id": product_id,
                "title": "Default Title",
                "price": price,
                "compare_at_price": compare_at,
                "sku": sku,
                "position": 1,
                "option1": "Default Title",
                "option2": None,
                "option3": None,
                "barcode": None,
                "inventory_quantity": stock,
                "inventory_item_id": product_id * 10 + 9,
                "inventory_management": "shopify",
                "updated_at": updated_at,
            }
        ],
        "images": [{"id": 1, "src": f"https://cdn.shopify.com/s/files/{handle}.jpg"}],
    }


def inventory_level(
    inventory_item_id: int,
    available: int | None,
    *,
    location_id: int = 655441491,
    updated_at: str = "2026-12-02T10:00:00-05:00",
) -> dict[str, Any]:
    """An ``inventory_levels/update`` webhook's body: one item's level at one location."""
    return {
        "inventory_item_id": inventory_item_id,
        "location_id": location_id,
        "available": available,
        "updated_at": updated_at,
        "admin_graphql_api_id": (
            f"gid://shopify/InventoryLevel/{location_id}?inventory_item_id={inventory_item_id}"
        ),
    }


def woocommerce_product(
    product_id: int,
    sku: str,
    *,
    name: str = "Zephyr Phone 8",
    regular: str = "499.00",
    sale: str = "",
    stock: int = 7,
    modified_gmt: str = "2026-12-01T15:00:00",
    category: str = "Smartphones",
    kind: str = "simple",
    status: str = "publish",
) -> dict[str, Any]:
    return {
        "id": product_id,
        "name": name,
        "slug": name.lower().replace(" ", "-"),
        "permalink": f"https://shop.example.com/product/{name.lower().replace(' ', '-')}/",
        "date_modified_gmt": modified_gmt,
        "type": kind,
        "status": status,
        "catalog_visibility": "visible",
        "description": f"<p>{name}, a phone with a long battery life.</p>",
        "short_description": "",
        "sku": sku,
        "price": sale or regular,
        "regular_price": regular,
        "sale_price": sale,
        "on_sale": bool(sale),
        "manage_stock": True,
        "stock_quantity": stock,
        "stock_status": "instock" if stock else "outofstock",
        "categories": [{"id": 9, "name": category, "slug": category.lower()}],
        "tags": [{"id": 3, "name": "5G", "slug": "5g"}],
        "brands": [{"id": 2, "name": "Zephyr", "slug": "zephyr"}],
        "images": [{"id": 5, "src": "https://shop.example.com/wp-content/uploads/phone.jpg"}],
        "attributes": [],
        "variations": [],
    }


def woocommerce_variable(
    product_id: int,
    variation_ids: list[int],
    *,
    name: str = "Zephyr Fold",
    modified_gmt: str = "2026-12-01T15:00:00",
    status: str = "publish",
) -> dict[str, Any]:
    """A variable product's body: what its variations share, their ids, no price of theirs."""
    payload = woocommerce_product(
        product_id, "", name=name, kind="variable", modified_gmt=modified_gmt, status=status
    )
    payload["attributes"] = [
        {"id": 1, "name": "Storage", "variation": True, "options": ["128 GB", "256 GB"]},
        {"id": 2, "name": "Operating system", "variation": False, "options": ["Android 15"]},
    ]
    payload["variations"] = variation_ids
    return payload


def woocommerce_variation(
    variation_id: int,
    parent_id: int,
    sku: str,
    storage: str,
    *,
    price: str = "1499.00",
    stock: int = 2,
    modified_gmt: str = "2026-12-01T15:00:00",
    status: str = "publish",
) -> dict[str, Any]:
    """A variation's body, as ``wc/v3/products/<variation id>`` answers (``type``
    ``variation``, ``parent_id``): its own SKU, price, stock and option."""
    return {
        "id": variation_id,
        "parent_id": parent_id,
        "type": "variation",
        "name": f"Zephyr Fold - {storage}",
        "sku": sku,
        "status": status,
        "date_modified_gmt": modified_gmt,
        "price": price,
        "regular_price": price,
        "sale_price": "",
        "on_sale": False,
        "manage_stock": True,
        "stock_quantity": stock,
        "stock_status": "instock" if stock else "outofstock",
        "categories": [],
        "attributes": [{"id": 1, "name": "Storage", "option": storage}],
        "image": {"src": "https://shop.example.com/wp-content/uploads/fold.jpg"},
        "permalink": (
            "https://shop.example.com/product/zephyr-fold/"
            f"?attribute_storage={storage.lower().replace(' ', '-')}"
        ),
    }


def shopify_headers(
    secret: str, body: bytes, topic: str = "products/update", delivery: str = "d-1"
) -> dict[str, str]:
    return {
        "Content-Type": "application/json",
        "X-Shopify-Topic": topic,
        "X-Shopify-Hmac-Sha256": sign(secret, body),
        "X-Shopify-Webhook-Id": delivery,
        "X-Shopify-Shop-Domain": "zephyr.myshopify.com",
    }


def woocommerce_headers(
    secret: str, body: bytes, topic: str = "product.updated", delivery: str = "w-1"
) -> dict[str, str]:
    return {
        "Content-Type": "application/json",
        "X-WC-Webhook-Topic": topic,
        "X-WC-Webhook-Signature": sign(secret, body),
        "X-WC-Webhook-Delivery-ID": delivery,
        "X-WC-Webhook-Source": "https://shop.example.com/",
    }


def body_of(payload: Any) -> bytes:
    return json.dumps(payload).encode()
