"""What a product's specs say against the others': the features that highlights and
comparisons read. The products' order is the catalog tool's: it sorts by what was asked."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Final

from shared.catalog.specs import (
    BATTERY_HOURS,
    BATTERY_MAH,
    CAMERA_MP,
    GPU,
    RAM_GB,
    SCREEN_INCHES,
    STORAGE_GB,
    WEIGHT_KG,
    YEAR,
)
from storechat.offline.product import Listed, portable
from storechat.offline.vocabulary import by_sort


def _weight_kg(p: Listed) -> float | None:
    # A desktop's weight says nothing about carrying it: it never wins "lightest".
    if not portable(p):
        return None
    return p.amount(WEIGHT_KG)


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


FEATURES: Final[dict[str, Callable[[Listed], float | None]]] = {
    "price": lambda p: p.price,
    "weight": _weight_kg,
    "battery": _battery,
    "ram": lambda p: p.spec(RAM_GB.key),
    "storage": lambda p: p.spec(STORAGE_GB.key),
    "screen": lambda p: p.spec(SCREEN_INCHES.key),
    "camera": lambda p: p.spec(CAMERA_MP.key),
    YEAR.key: lambda p: p.spec(YEAR.key),
    GPU.key: _gpu_tier,
}
LOWER_IS_BETTER: Final = frozenset({"price", "weight"})
SORT_FEATURE: Final = {by_sort(YEAR): YEAR.key}
"""The feature an order ranks by, where it is not the order's own name."""
