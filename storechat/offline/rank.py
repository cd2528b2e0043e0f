"""Products from a catalog search: parsed, filtered by the shopper's limits and ranked."""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Final

from storechat.offline.messages import plain
from storechat.offline.vocabulary import BOOKS


def to_number(value: Any) -> float | None:
    """A number from a tool's JSON ("$1,299" reads as 1299); booleans and infinities are not."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int | float):
        number = float(value)
    elif isinstance(value, str):
        try:
            number = float(value.replace("$", "").replace(",", "").strip())
        except ValueError:
            return None
    else:
        return None
    return number if math.isfinite(number) else None


@dataclass(frozen=True)
class Product:
    """One catalog item as the answer reads it, with its place in the tool's list."""

    product_id: str
    name: str
    category: str
    price: float | None
    stock: float | None
    specs: dict[str, Any]
    position: int

    @classmethod
    def parse(cls, raw: Any, position: int) -> Product | None:
        if not isinstance(raw, dict):
            return None
        pid = raw.get("productId")
        # An id that compose_response could not read back is never cited.
        if not isinstance(pid, str) or not re.fullmatch(r"[A-Za-z0-9_-]{1,64}", pid):
            return None
        specs = raw.get("specs")
        return cls(
            product_id=pid,
            name=plain(raw.get("name") or pid, 60),
            category=str(raw.get("category") or ""),
            price=to_number(raw.get("price")),
            stock=to_number(raw.get("stock")),
            specs=specs if isinstance(specs, dict) else {},
            position=position,
        )

    def spec(self, key: str) -> float | None:
        value = to_number(self.specs.get(key))
        # Desktops report 0 hours of battery: that means "none", not "worst".
        return value if value is not None and value > 0 else None

    def text(self, key: str) -> str:
        value = self.specs.get(key)
        return plain(value, 50) if isinstance(value, str | int | float) else ""

    @property
    def in_stock(self) -> bool:
        return self.stock is None or self.stock > 0


def portable(p: Product) -> bool:
    return p.text("formFactor").lower() not in {"desktop", "all-in-one", "tower", "mini pc"}


def _weight_kg(p: Product) -> float | None:
    # A desktop's weight says nothing about carrying it: it never wins "lightest".
    if not portable(p):
        return None
    kg = p.spec("weightKg")
    grams = p.spec("weightG")
    return kg if kg is not None else (grams / 1000 if grams is not None else None)


def _battery(p: Product) -> float | None:
    hours = p.spec("batteryHours")
    return hours if hours is not None else p.spec("batteryMah")


def _gpu_tier(p: Product) -> float | None:
    gpu = p.text("gpu").lower()
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


def _pro_os(p: Product) -> float | None:
    system = p.text("os").lower()
    return (1.0 if " pro" in system or "macos" in system else 0.0) if system else None


FEATURES: Final[dict[str, Callable[[Product], float | None]]] = {
    "price": lambda p: p.price,
    "weight": _weight_kg,
    "battery": _battery,
    "ram": lambda p: p.spec("ramGb"),
    "storage": lambda p: p.spec("storageGb"),
    "screen": lambda p: p.spec("screenInches"),
    "camera": lambda p: p.spec("cameraMp"),
    "gpu": _gpu_tier,
    "pro_os": _pro_os,
}
LOWER_IS_BETTER: Final = frozenset({"price", "weight"})
_USE_WEIGHTS: Final[dict[str | None, dict[str, float]]] = {
    "student": {"price": 3, "weight": 2, "battery": 2, "ram": 1},
    "gaming": {"gpu": 4, "ram": 2, "screen": 1, "price": 0.5},
    "travel": {"weight": 3, "battery": 3, "price": 1},
    "work": {"ram": 3, "pro_os": 2, "battery": 1, "storage": 1, "price": 0.5},
    None: {"price": 1, "ram": 1, "battery": 1, "weight": 0.5, "storage": 0.5},
}
SORT_FEATURE: Final = {"performance": "gpu"}


def _normalised(feature: str, products: list[Product]) -> dict[str, float]:
    """Each product's value as a share of the best one (0..1, 1 best); missing is 0.

    Ratios rather than min-max: 1.38 kg against 1.46 kg is a small difference
    and should weigh as one.
    """
    getter = FEATURES[feature]
    values = {p.product_id: v for p in products if (v := getter(p)) is not None and v >= 0}
    if not values:
        return {}
    if feature in LOWER_IS_BETTER:
        low = min(values.values())
        return {pid: low / v if v > 0 else 1.0 for pid, v in values.items()}
    high = max(values.values())
    return {pid: v / high if high > 0 else 1.0 for pid, v in values.items()}


@dataclass(frozen=True)
class Constraints:
    """What one catalog search's results are filtered and ranked by."""

    category: str | None
    systems: tuple[str, ...]
    max_price: float | None
    use: str | None
    sort_by: str | None
    cheap: bool
    brand: str | None = None
    product_name: str | None = None


def _runs(system: str, product: Product) -> bool:
    value = product.text("os").lower().replace(" ", "")
    if system == "macos":
        return "macos" in value or "osx" in value
    if system == "ios":
        return value.startswith("ios")
    return system in value


def _weights(c: Constraints) -> dict[str, float]:
    if c.category == BOOKS:
        weights = {"price": 1.0} if c.cheap or c.sort_by == "price" else {}
    else:
        weights = dict(_USE_WEIGHTS.get(c.use, _USE_WEIGHTS[None]))
    if c.cheap:
        weights["price"] = weights.get("price", 0) + 2
    return weights


def rank(products: list[Product], c: Constraints) -> list[Product]:
    """Best first: the asked-for order, then the use's weighted score, then tool order."""
    weights = _weights(c)
    scaled = {feature: _normalised(feature, products) for feature in weights}
    sort_feature = SORT_FEATURE.get(c.sort_by or "", c.sort_by)
    sort_scaled = _normalised(sort_feature, products) if sort_feature in FEATURES else {}

    def score(p: Product) -> float:
        total = sum(w * scaled[f].get(p.product_id, 0.0) for f, w in weights.items())
        ram = p.spec("ramGb")
        if c.use == "student" and ram is not None and ram < 8:
            total -= 2
        if c.use in ("student", "travel") and not portable(p):
            total -= 3
        return total

    def key(p: Product) -> tuple[float, float, int]:
        primary = sort_scaled.get(p.product_id, -1.0) if sort_scaled else 0.0
        return (-primary, -score(p), p.position)

    return sorted(products, key=key)


@dataclass(frozen=True)
class Sifted:
    fits: list[Product]
    out_of_stock: list[Product]
    wrong_os: int
    over_budget: int


def sift(products: list[Product], c: Constraints) -> Sifted:
    fits, out, wrong_os, over = [], [], 0, 0
    for product in products:
        if (
            c.systems
            and product.category != BOOKS
            and not any(_runs(s, product) for s in c.systems)
        ):
            wrong_os += 1
        elif c.max_price is not None and (product.price is None or product.price > c.max_price):
            over += 1
        elif not product.in_stock:
            out.append(product)
        else:
            fits.append(product)
    return Sifted(fits, out, wrong_os, over)
