"""The numbers a shopper states, as ``lookup_inventory``'s bounds: read, said and checked.

Each measure (price, RAM, storage, weight, battery, screen, camera) is declared once
in :data:`MEASURES`: the tool fields it fills, which way a bare amount goes ("16GB
RAM" is a least, "2 kg" a most, "15-inch" a size class), the product's value and how
an answer writes it. :data:`READINGS` lists how shoppers write each, in the order
they are read: a match is blanked out, so "512GB SSD" is storage before a bare "GB"
can be read as memory. A direction word before or after the amount ("at least",
"under", "or more", "max") decides its way.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Final

from shared.catalog.specs import (
    BATTERY_HOURS,
    BATTERY_MAH,
    CAMERA_MP,
    RAM_GB,
    SCREEN_INCHES,
    STORAGE_GB,
)
from storechat.offline.product import Product

_I = re.IGNORECASE


@dataclass(frozen=True)
class Measure:
    """One thing a shopper can put a number on."""

    label: str
    least: str | None
    most: str | None
    """The tool fields for its lower and upper bound."""
    bare: str
    """Which way an amount with no direction word goes: "least", "most" or "class"."""
    value: Callable[[Product], float | None]
    writes: Callable[[float], str]
    """An amount as an answer writes it: "16 GB RAM", "$800", "1.2 kg", "13 h battery"."""


def money(value: float) -> str:
    return f"${value:,.0f}" if float(value).is_integer() else f"${value:,.2f}"


def _storage(gb: float) -> str:
    return f"{gb / 1024:g} TB storage" if gb >= 1024 else f"{gb:g} GB storage"


def _weight(kg: float) -> str:
    return f"{kg * 1000:g} g" if kg < 0.5 else f"{kg:g} kg"


def _spec(key: str) -> Callable[[Product], float | None]:
    return lambda p: p.spec(key)


MEASURES: Final[dict[str, Measure]] = {
    "price": Measure("price", "minPrice", "maxPrice", "most", lambda p: p.price, money),
    "ram": Measure("RAM", "minRamGb", None, "least", _spec(RAM_GB.key), lambda v: f"{v:g} GB RAM"),
    "storage": Measure("storage", "minStorageGb", None, "least", _spec(STORAGE_GB.key), _storage),
    "weight": Measure("weight", None, "maxWeightKg", "most", lambda p: p.weight_kg, _weight),
    "battery": Measure(
        "battery life",
        "minBatteryHours",
        None,
        "least",
        _spec(BATTERY_HOURS.key),
        lambda v: f"{v:g} h battery",
    ),
    "mah": Measure(
        "battery size",
        "minBatteryMah",
        None,
        "least",
        _spec(BATTERY_MAH.key),
        lambda v: f"{v:g} mAh",
    ),
    "screen": Measure(
        "screen size",
        "minScreenInches",
        "maxScreenInches",
        "class",
        _spec(SCREEN_INCHES.key),
        lambda v: f"{v:g}-inch screen",
    ),
    "camera": Measure(
        "camera", "minCameraMp", None, "least", _spec(CAMERA_MP.key), lambda v: f"{v:g} MP camera"
    ),
}
MEASURE_OF: Final = {f: name for name, m in MEASURES.items() for f in (m.least, m.most) if f}
"""The measure each tool field bounds."""


# -- reading them -----------------------------------------------------------------------------

_N = r"(?P<n>\d+(?:\.\d+)?)"
_LEAST = (
    r"at least|over|above|more than|greater than|bigger than|larger than|longer than|"
    r"no less than|min(?:imum)?|from|starting at|>=?"
)
_MOST = (
    r"under|below|less than|at most|max(?:imum)?|up to|no more than|not more than|within|"
    r"lighter than|smaller than|cheaper than|for less than|<=?|budget(?: is| of)?|"
    r"spend(?:ing)?(?: up to)?|around|about"
)
_BEFORE = rf"(?:\b|(?=[<>]))(?P<before>{_LEAST}|{_MOST})\s*:?\s*(?:of\s+)?"
_AFTER = (
    r"\s*(?P<after>\+|or (?:more|higher|bigger|larger|above|over|less|lower|smaller|under|below)"
    r"|and (?:up|above)|max\b|min\b|tops\b)"
)
_LEAST_AFTER = re.compile(r"\+|more|higher|bigger|larger|above|over|up|min", _I)
_NOT_A_UNIT = r"(?!\s*(?:gb|tb|kg|g\b|lbs?|mp|mah|inch|\"|h\b|hours?|hrs?|%|-inch|mm|cm))"
_PRICE = rf"{_N}\s*(?P<k>k\b)?{_NOT_A_UNIT}"
_INNER = rf"(?:of\s+|:\s*)?(?:{_BEFORE.replace('P<before>', 'P<inner>')})?"


def _grams(m: re.Match[str]) -> float | None:
    unit, amount = m["u"].lower(), float(m["n"])
    if unit.startswith("g"):
        return amount / 1000 if amount >= 50 else None  # "5G" is a network, not 5 grams
    if unit.startswith(("lb", "pound")):
        return round(amount * 0.4536, 2) if amount <= 20 else None  # "500 pounds" is money
    return amount


def _amount(m: re.Match[str]) -> float:
    unit = (m.groupdict().get("u") or "").strip().lower()
    return float(m["n"]) * (1000 if m.groupdict().get("k") else 1024 if unit == "tb" else 1)


_Scale = Callable[[re.Match[str]], float | None]

READINGS: Final[tuple[tuple[str, str, _Scale], ...]] = (
    ("ram", rf"{_N}\s*gb\s*(?:of\s+)?(?:ram|memory)\b", _amount),
    ("ram", rf"\b(?:ram|memory)\s*{_INNER}{_N}\s*gb\b", _amount),
    ("storage", rf"{_N}\s*(?P<u>gb|tb)\s*(?:of\s+)?(?:storage|ssd|space|drive|disk)\b", _amount),
    ("storage", rf"\b(?:storage|ssd)\s*{_INNER}{_N}\s*(?P<u>gb|tb)\b", _amount),
    ("storage", rf"{_N}\s*(?P<u>tb)\b", _amount),
    # A bare GB amount: memory comes in tens of GB, storage in hundreds.
    ("storage", r"(?P<n>[1-9]\d{2,})\s*gb\b", _amount),
    ("ram", rf"{_N}\s*gb\b", _amount),
    ("weight", rf"{_N}\s*(?P<u>kg|kilos?|kilograms?|lbs?|pounds?|grams?|g)\b", _grams),
    ("battery", rf"{_N}\s*\+?\s*(?:hours?|hrs?|h)\b\s*(?:of\s+)?battery(?:\s+life)?", _amount),
    (
        "battery",
        rf"\bbattery(?:\s+life)?\s*(?:that lasts\s+|lasting\s+)?{_INNER}{_N}\s*(?:hours?|hrs?|h)\b",
        _amount,
    ),
    ("mah", rf"{_N}\s*mah\b", _amount),
    ("camera", rf"{_N}\s*(?:mp|megapixels?)\b", _amount),
    ("screen", rf"\b(?:screen|display)\s*{_INNER}{_N}\s*-?\s*(?:inch(?:es)?\b|\")", _amount),
    ("screen", rf"{_N}\s*-?\s*(?:inch(?:es)?\b|\"|″)", _amount),
    ("price", rf"[$£€]\s*{_PRICE}", _amount),
    ("price", rf"{_PRICE}\s*(?:dollars?|bucks|usd)\b", _amount),
    # A bare number is a price only after a word that says so: "under 800", not "XPS 13".
    ("price", rf"\b(?P<inner>{_LEAST}|{_MOST})\s*:?\s*(?:of\s+)?{_PRICE}(?![\w.])", _amount),
)
_COMPILED: Final = tuple(
    (name, re.compile(rf"(?:{_BEFORE})?{pattern}(?:{_AFTER})?", _I), scale)
    for name, pattern, scale in READINGS
)
_RANGE = re.compile(
    r"(?:\bbetween\s*[$£€]?|[$£€])\s*(?P<a>\d+(?:\.\d+)?)\s*(?P<ak>k\b)?\s*(?:and|-|\u2013|to)\s*"
    r"[$£€]?\s*(?P<b>\d+(?:\.\d+)?)\s*(?P<bk>k\b)?(?!\s*(?:gb|tb|kg|mp|mah|inch|\"|h\b|hours?))",
    _I,
)


def _direction(match: re.Match[str], bare: str) -> str:
    if before := match["before"] or match.groupdict().get("inner"):
        return "least" if re.fullmatch(_LEAST, before, _I) else "most"
    if after := match["after"]:
        return "least" if _LEAST_AFTER.search(after) else "most"
    return bare


def _store(measure: Measure, amount: float, way: str, found: dict[str, float]) -> None:
    if way == "class" and measure.least and measure.most:
        whole = float(amount).is_integer()
        found[measure.least] = amount if whole else round(amount - 0.05, 2)
        found[measure.most] = amount + 0.99 if whole else round(amount + 0.05, 2)
        return
    field = (measure.least if way == "least" else measure.most) or measure.least or measure.most
    if field:
        found[field] = amount


def bounds_in(text: str) -> dict[str, float]:
    """The bounds ``text`` states, by tool field: ``{"minRamGb": 16, "maxPrice": 1000}``."""
    found: dict[str, float] = {}

    def price_range(m: re.Match[str]) -> str:
        low = float(m["a"]) * (1000 if m["ak"] else 1)
        high = float(m["b"]) * (1000 if m["bk"] else 1)
        found["minPrice"], found["maxPrice"] = min(low, high), max(low, high)
        return " "

    text = _RANGE.sub(price_range, text, count=1)
    for name, pattern, scale in _COMPILED:

        def take(match: re.Match[str], name: str = name, scale: _Scale = scale) -> str:
            amount = scale(match)
            if amount is None or amount <= 0:
                return match.group()
            if name == "price" and (match["before"] or "").lower() in ("around", "about"):
                amount = round(amount * 1.15, 2)  # "around $800": a little over is fine
            _store(MEASURES[name], amount, _direction(match, MEASURES[name].bare), found)
            return " "

        text = pattern.sub(take, text)
    return found


# -- saying and checking them -----------------------------------------------------------------


def _phrase(measure: Measure, low: float | None, high: float | None) -> str:
    if low is not None and high is not None:
        if measure.bare == "class" and round(high - low, 2) in (0.99, 0.1):
            return f"a {measure.writes(low if high - low > 0.5 else round(low + 0.05, 2))}"
        return f"between {measure.writes(low)} and {measure.writes(high)}"
    if low is not None:
        return f"at least {measure.writes(low)}"
    return f"under {measure.writes(high or 0)}"


def describe(bounds: dict[str, float]) -> list[str]:
    """Each measure's bounds as an answer says them: "at least 16 GB RAM", "under $800"."""
    return [
        _phrase(m, bounds.get(m.least or ""), bounds.get(m.most or ""))
        for m in MEASURES.values()
        if bounds.get(m.least or "") is not None or bounds.get(m.most or "") is not None
    ]


@dataclass(frozen=True)
class Miss:
    """How a product falls short of one stated limit, and by how much (a share of the
    limit; 1 for a constraint that is not a number, such as the operating system)."""

    says: str
    gap: float
    what: str = ""
    """The measure or constraint missed: "ram", "price", "os", "brand", "form"."""


def misses(product: Product, bounds: dict[str, float]) -> list[Miss]:
    """Every measure of ``bounds`` that ``product`` does not meet, said with the limit.

    The limit follows "not", "at least" or "under", words that keep the fact check
    from reading it as the product's own value.
    """
    found = []
    for name, measure in MEASURES.items():
        low, high = bounds.get(measure.least or ""), bounds.get(measure.most or "")
        if low is None and high is None:
            continue
        value = measure.value(product)
        wanted = _phrase(measure, low, high)
        if value is None:
            found.append(Miss(f"no {measure.label} listed (you asked for {wanted})", 1.0, name))
            continue
        limit = low if low is not None and value < low else high if high is not None else None
        if limit is None or (limit == high and value <= limit):
            continue
        gap = abs(value - limit) / limit
        if wanted.startswith("a "):
            found.append(Miss(f"{measure.writes(value)}, not {wanted[2:]}", gap, name))
        else:
            found.append(Miss(f"{measure.writes(value)} (you asked for {wanted})", gap, name))
    return found
