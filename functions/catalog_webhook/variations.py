"""A WooCommerce variable product and its variations, by webhook.

WooCommerce posts the product's REST resource (``wc/v3/products/<id>``) for a product and
for each of its variations (``product.created`` / ``product.updated`` fire on
``woocommerce_new_product_variation`` and ``woocommerce_update_product_variation`` too):

* the variable product's body lists its variations' ids (``variations``) and holds what
  they share (name, categories, brand, descriptions, attributes), but no variation's
  price or stock;
* a variation's body (``type: variation``, ``parent_id``) holds its own SKU, price, stock,
  options and picture, but not its product's categories or brand.

Each is kept (the sync table: ``woocommerce#parent#<id>``, ``woocommerce#variation#<id>``,
each with the time of its change, an older one writing nothing), and a variation becomes
a catalog product as the CSV import and the sync make it: its product's body with it
(``shared.platform.woocommerce.rest_product``, one mapping). So a variation waits for its
product (its product's webhook, sent whenever the product is saved), and a product's
webhook rewrites every variation kept for it; a variation no longer listed is deleted; a
listed one not kept yet is left as the catalog holds it (a product's body alone never
wipes its variations); a product no longer for sale takes all of its rows with it.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any, Protocol

from shared.platform.payload import items, platform_id
from shared.platform.woocommerce import maker_fields

MAX_HTML = 50_000
"""A description kept longer than this is cut (a kept body must fit a DynamoDB item; the
catalog's description is far shorter)."""
PARENT = (
    "id", "name", "type", "status", "catalog_visibility", "categories", "tags", "brands",
    "short_description", "description", "attributes", "images", "permalink",
    "global_unique_id", "manage_stock", "stock_quantity", "stock_status", "variations",
    "date_modified_gmt", "meta_data",
)  # fmt: skip
VARIATION = (
    "id", "parent_id", "type", "name", "sku", "status", "price", "regular_price",
    "sale_price", "on_sale", "manage_stock", "stock_quantity", "stock_status", "attributes",
    "image", "permalink", "description", "global_unique_id", "date_modified_gmt",
)  # fmt: skip


class VariationStore(Protocol):
    def keep_parent(self, product: str, changed_ms: int, body: str) -> tuple[bool, str | None]:
        """Keep a variable product's body unless a newer one is kept: whether it was kept
        (False when older), and the body kept before (None the first time)."""
        ...

    def parent(self, product: str) -> str | None:
        """A variable product's kept body."""
        ...

    def keep_variation(self, variation: str, changed_ms: int, body: str) -> bool:
        """Keep a variation's body unless a newer one is kept; False when older."""
        ...

    def variations(self, ids: list[str]) -> dict[str, str]:
        """The kept bodies of these variations, by id (those kept)."""
        ...

    def rows_of_variations(self, ids: list[str]) -> list[str]:
        """The catalog rows written for these variations."""
        ...


def kept(payload: Mapping[str, Any], fields: tuple[str, ...]) -> str:
    """What is kept of a body: the fields the mapping reads, descriptions cut."""
    body = {key: payload[key] for key in fields if key in payload}
    if "meta_data" in body:
        # Only the custom fields the mapping reads (the maker's): the rest may be large.
        named = maker_fields(body["meta_data"])
        body["meta_data"] = [{"key": key, "value": value} for key, value in named]
    for key in ("description", "short_description"):
        if isinstance(body.get(key), str):
            body[key] = body[key][:MAX_HTML]
    return json.dumps(body, separators=(",", ":"))


def dropped(before: str | None, now: list[str]) -> list[str]:
    """The variations the product listed before (its previously kept body) and no more."""
    if before is None:
        return []
    return [v for v in listed(json.loads(before)) if v not in set(now)]


def listed(payload: Mapping[str, Any]) -> list[str]:
    """The ids of a variable product's variations, as its body lists them."""
    return [platform_id(v, "variations") for v in items(payload.get("variations"), "variations")]


def parent_id(payload: Mapping[str, Any]) -> str:
    return platform_id(payload.get("parent_id"), "parent_id")


def of_parent(payload: Mapping[str, Any], store: VariationStore) -> list[Mapping[str, Any]]:
    """The kept variations a variable product lists, in its order."""
    ids = listed(payload)
    bodies = store.variations(ids)
    return [json.loads(bodies[v]) for v in ids if v in bodies]
