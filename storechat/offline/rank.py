"""Products from a catalog search, ranked: the asked-for order, then what the use needs."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Final

from shared.catalog.specs import (
    BATTERY_HOURS,
    BATTERY_MAH,
    CAMERA_MP,
    GPU,
    OS,
    RAM_GB,
    SCREEN_INCHES,
    STORAGE_GB,
    YEAR,
)
from storechat.offline.checks import Constraints
from storechat.offline.product import Listed, portable
from storechat.offline.vocabulary import BOOKS, PERFORMANCE, REVERSED, by_sort


def _weight_kg(p: Listed) -> float | None:
    # A desktop's weight says nothing about carrying it: it never wins "lightest".
    if not portable(p):
        return None
    return p.weight_kg


def _battery(p: Listed) -> float | None:
    hours = p.spec(BATTERY_HOURS.key)
    return hours if hours is not None else p.spec(BATTERY_MAH.key)


def _gpu_tier(p: Listed) -> float | None:
    gpu = p.text(GPU.key).lower()
    if not gpu:
        return None
    rtx = re.search(r"rtx\s*(\d{4})", gpu)
    if rtx:
        return 0.7 + 0.3 * min(int(rtx.group(1)) % 100, 90) / 90
    if "rtx" in gpu or re.search(r"\brx\s*\d", gpu):
        return 0.7
    if "gtx" in gpu or "arc" in gpu:
        return 0.4
    return 0.1


def _pro_os(p: Listed) -> float | None:
    system = p.text(OS.key).lower()
    return (1.0 if " pro" in system or "macos" in system else 0.0) if system else None


FEATURES: Final[dict[str, Callable[[Listed], float | None]]] = {
    "price": lambda p: p.price,
    "weight": _weight_kg,
    "battery": _battery,
    "ram": lambda p: p.spec(RAM_GB.key),
    "storage": lambda p: p.spec(STORAGE_GB.key),
    "screen": lambda p: p.spec(SCREEN_INCHES.key),
    "camera": lambda p: p.spec(CAMERA_MP.key),
    YEAR.key: lambda p: p.spec(YEAR.key),
    "price_high": lambda p: p.price,
    GPU.key: _gpu_tier,
    "pro_os": _pro_os,
}
LOWER_IS_BETTER: Final = frozenset({"price", "weight"})
_USE_WEIGHTS: Final[dict[str | None, dict[str, float]]] = {
    "student": {"price": 3, "weight": 2, "battery": 2, "ram": 1},
    "gaming": {GPU.key: 4, "ram": 2, "screen": 1, "price": 0.5},
    "travel": {"weight": 3, "battery": 3, "price": 1},
    "work": {"ram": 3, "pro_os": 2, "battery": 1, "storage": 1, "price": 0.5},
    "editing": {"ram": 3, GPU.key: 2, "storage": 1, "price": 0.5},
    "programming": {"ram": 3, "storage": 1, "battery": 1, "price": 0.5},
    "photos": {"camera": 4, "storage": 1},
    "basic": {"price": 3, "battery": 1, "weight": 0.5},
    None: {"price": 1, "ram": 1, "battery": 1, "weight": 0.5, "storage": 0.5},
}
SORT_FEATURE: Final = {
    # No spec measures power, so the catalog tool has no such order: this model ranks
    # by the graphics itself.
    PERFORMANCE.name: GPU.key,
    "price_desc": "price_high",
    by_sort(YEAR): YEAR.key,
}
"""The feature an order ranks by, where it is not the order's own name."""


def sort_feature(sort_by: str | None) -> tuple[str | None, bool]:
    """The feature an order ranks by, and whether its lowest value comes first: a
    reverse order ("weight_desc") ranks by its forward one's feature the other way."""
    forward = REVERSED.get(sort_by or "", sort_by)
    feature = SORT_FEATURE.get(forward or "", forward)
    return feature, (feature in LOWER_IS_BETTER) != (forward != sort_by)


def _normalised(
    feature: str, products: list[Listed], lowest_first: bool | None = None
) -> dict[str, float]:
    """Each product's value as a share of the best one (0..1, 1 best); missing is 0.
    The best is the lowest for a feature where lower is better, unless ``lowest_first``
    says otherwise.

    Ratios rather than min-max: 1.38 kg against 1.46 kg is a small difference
    and should weigh as one.
    """
    getter = FEATURES[feature]
    values = {p.product_id: v for p in products if (v := getter(p)) is not None and v >= 0}
    if not values:
        return {}
    if lowest_first is None:
        lowest_first = feature in LOWER_IS_BETTER
    if lowest_first:
        low = min(values.values())
        return {pid: low / v if v > 0 else 1.0 for pid, v in values.items()}
    high = max(values.values())
    return {pid: v / high if high > 0 else 1.0 for pid, v in values.items()}


def _weights(c: Constraints) -> dict[str, float]:
    if c.category == BOOKS:
        weights = {"price": 1.0} if c.cheap or c.sort_by == "price" else {}
    else:
        weights = dict(_USE_WEIGHTS.get(c.use, _USE_WEIGHTS[None]))
    if c.cheap:
        weights["price"] = weights.get("price", 0) + 2
    return weights


def rank(products: list[Listed], c: Constraints) -> list[Listed]:
    """Best first: the asked-for order, then the use's weighted score, then tool order."""
    weights = _weights(c)
    scaled = {feature: _normalised(feature, products) for feature in weights}
    feature, lowest_first = sort_feature(c.sort_by)
    sort_scaled = _normalised(feature, products, lowest_first) if feature in FEATURES else {}

    def score(p: Listed) -> float:
        total = sum(w * scaled[f].get(p.product_id, 0.0) for f, w in weights.items())
        ram = p.spec(RAM_GB.key)
        if c.use == "student" and ram is not None and ram < 8:
            total -= 2
        if c.use in ("student", "travel") and not portable(p):
            total -= 3
        return total

    def key(p: Listed) -> tuple[float, float, int]:
        primary = sort_scaled.get(p.product_id, -1.0) if sort_scaled else 0.0
        return (-primary, -score(p), p.position)

    return sorted(products, key=key)
