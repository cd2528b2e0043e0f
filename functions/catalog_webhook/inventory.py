"""Shopify's ``inventory_levels/update``: one inventory item's stock at one location.

Its body names the inventory item (``inventory_item_id``), the location
(``location_id``), the units there now (``available``; null when the item is not tracked)
and when they changed (``updated_at``). A variant's inventory item reaches the catalog
record (``platformInventoryItemId``) with the variant (its products/create|update webhook,
the sync), and the record is found by it (the table's inventory index).

Each location's last level is kept apart (the sync table: ``shopify#inventory#<item>``,
one attribute per location), so that one location's update changes its own share and
the record's stock is the sum over the locations the catalog has heard of. A level older
than the one held for that location (``updated_at``) changes nothing. An item no catalog
product has (one the catalog does not sell, or not synced yet) writes nothing. An item not
tracked (``available`` null) writes nothing either: its product stays as its product
webhook left it, in stock with no count (``"stockTracked": false``); a level with a count
makes the product counted again, unless it is older than the product webhook that said
the item is not tracked (a retry or a late delivery from before): that one is stale.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal, Protocol

from shared.platform.payload import PayloadError, platform_id, timestamp_ms, units_of

TOPIC = "inventory_levels/update"


@dataclass(frozen=True)
class Level:
    item: str
    location: str
    available: int | None
    """Units at the location (below 0 is 0); None when the item is not tracked."""
    changed_ms: int


@dataclass(frozen=True)
class LevelChange:
    status: Literal["written", "unknown", "untracked", "stale"]
    products: list[str]
    stock: int | None = None


class InventoryStore(Protocol):
    def products_of_item(self, item: str) -> list[str]:
        """The catalog products whose variant has this inventory item."""
        ...

    def set_level(self, level: Level) -> int | None:
        """Keep ``level`` unless a newer one of its location is held; the sum of the item's
        levels over its locations, or None when ``level`` is older."""
        ...

    def set_stock(self, products: list[str], stock: int) -> list[str]:
        """Set the products' stock; the ids of those that still exist."""
        ...


def level_of(payload: Any) -> Level:
    """The body of an ``inventory_levels/update``; :class:`PayloadError` when it is not."""
    if not isinstance(payload, Mapping):
        raise PayloadError("the body is not a JSON object (an inventory level)")
    available = payload.get("available")
    counted = units_of(available)
    if available is not None and counted is None:
        raise PayloadError("available is not a number of units")
    return Level(
        item=platform_id(payload.get("inventory_item_id"), "inventory_item_id"),
        location=platform_id(payload.get("location_id"), "location_id"),
        available=counted,
        changed_ms=timestamp_ms(payload.get("updated_at"), "updated_at"),
    )


def apply(level: Level, store: InventoryStore) -> LevelChange:
    products = store.products_of_item(level.item)
    if not products:
        return LevelChange("unknown", [])
    if level.available is None:
        return LevelChange("untracked", products)
    total = store.set_level(level)
    if total is None:
        return LevelChange("stale", products)
    return LevelChange("written", store.set_stock(products, total), total)


def answer_body(level: Level, change: LevelChange) -> dict[str, Any]:
    """What the delivery is answered (always 200: the platform would retry an error)."""
    where = f"inventory item {level.item} at location {level.location}"
    if change.status == "unknown":
        return {
            "status": "ignored",
            "reason": f"inventory item {level.item} is no catalog product's (one the catalog "
            "does not sell, or not synced yet): nothing was written",
        }
    if change.status == "untracked":
        return {"status": "ignored", "reason": f"{where} is not tracked: nothing was written"}
    if change.status == "stale":
        return {
            "status": "stale",
            "reason": f"the catalog holds a newer level of {where}, or a newer product "
            "webhook said the item is not tracked",
        }
    return {"status": "written", "written": change.products, "deleted": [], "stock": change.stock}
