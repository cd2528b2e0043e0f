"""The numbers a shopper states, as ``lookup_inventory``'s bounds: read, said and checked.

Each measure is a spec with filter bounds (``shared.catalog.specs``), and the price:
:data:`MEASURES` holds the tool fields it fills, which way a bare amount goes ("16GB RAM"
is a least, "2 kg" a most, "15-inch" a size class), the product's value and how an
answer writes it. The amounts are read as the search reads them, by each spec's
phrases, in table order, each followed by the few ways a conversation writes it that
a search's words do not (:data:`SAID`: "RAM: 16GB", "5000 mAh"), and then amounts with
nothing but their unit and the price (:data:`ALONE`: "2 TB", "2 kg", "$800"); a match is
blanked out, so "512GB SSD" is storage before a bare "GB" can be read as memory. A
direction word before or after the amount ("at least", "under", "or more", "max")
decides its way. A spec added to the table with a bound and a phrase is read, said
and checked here with no edit.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Final

from shared.catalog.spec import Spec
from shared.catalog.specs import (
    BATTERY_HOURS,
    BATTERY_MAH,
    PRICE_SORT,
    RAM_GB,
    SCREEN_INCHES,
    SPECS,
    STORAGE_GB,
    WEIGHT_KG,
)
from storechat.offline.money import money
from storechat.offline.product import Product

_I = re.IGNORECASE
PRICE: Final = "price"
"""The measure of the price, which is no spec."""


@dataclass(frozen=True)
class Measure:
    """One thing a shopper can put a number on."""

    name: str
    """The spec's key, or :data:`PRICE`."""
    label: str
    least: str | None
    most: str | None
    """The tool fields for its lower and upper bound."""
    bare: str
    """Which way an amount with no direction word goes: "least", "most" or "class"."""
    value: Callable[[Product], float | None]
    writes: Callable[[float], str]
    """An amount as an answer writes it: "16 GB RAM", "$800", "1.2 kg", "13 h battery"."""
    sort: str
    """The ``sortBy`` that orders by it, best first."""
    units: Mapping[str, float]
    """How an amount writes its unit, with the factor to the measure's ("tb": 1024)."""


def _storage(gb: float) -> str:
    return f"{gb / 1024:g} TB storage" if gb >= 1024 else f"{gb:g} GB storage"


def _weight(kg: float) -> str:
    return f"{kg * 1000:g} g" if kg < 0.5 else f"{kg:g} kg"


# How an answer writes the amounts whose eval unit ("GB storage", "inch screen") a
# shopper would not read as written: the rest are the number and the eval unit.
_WRITES: Final[dict[str, Callable[[float], str]]] = {
    STORAGE_GB.key: _storage,
    WEIGHT_KG.key: _weight,
    BATTERY_MAH.key: lambda v: f"{v:g} mAh",
    SCREEN_INCHES.key: lambda v: f"{v:g}-inch screen",
}


def _measure(spec: Spec) -> Measure:
    least = next((b for b in spec.bounds if b.at_least), None)
    most = next((b for b in spec.bounds if not b.at_least), None)
    unit = (least or most or spec.bounds[0]).eval_unit
    return Measure(
        spec.key,
        spec.label,
        least.name if least else None,
        most.name if most else None,
        "class" if least and most else "least" if least else "most",
        lambda p: p.amount(spec),
        _WRITES.get(spec.key, lambda v: f"{v:g} {unit}"),
        spec.sort.name if spec.sort else PRICE_SORT.name,
        spec.facet.units if spec.facet else {},
    )


_PRICE_MEASURE: Final = Measure(
    PRICE, PRICE, "minPrice", "maxPrice", "most", lambda p: p.price, money, PRICE_SORT.name,
    {"k": 1000.0},
)  # fmt: skip
MEASURES: Final[dict[str, Measure]] = {
    PRICE: _PRICE_MEASURE,
    **{spec.key: _measure(spec) for spec in SPECS if spec.bounds},
}
MEASURE_OF: Final = {f: name for name, m in MEASURES.items() for f in (m.least, m.most) if f}
"""The measure each tool field bounds."""


# -- reading them -----------------------------------------------------------------------------

_N = r"(\d+(?:\.\d+)?)"
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
_PRICE = rf"{_N}\s*(k\b)?{_NOT_A_UNIT}"
_INNER = rf"(?:of\s+|:\s*)?(?:{_BEFORE.replace('P<before>', 'P<inner>')})?"
_HOURS = r"(?:hours?|hrs?|h)\b"

# The ways a conversation writes an amount beyond a search's phrases, as those are: a
# regular expression whose first unnamed group is the number and second, when there is
# one, its unit. SAID is read right after the spec's own phrases, ALONE once every
# spec's are: an amount with nothing but its unit, and the price.
SAID: Final[tuple[tuple[str, str], ...]] = (
    (RAM_GB.key, rf"\b(?:ram|memory)\s*{_INNER}{_N}\s*gb\b"),
    (STORAGE_GB.key, rf"\b(?:storage|ssd)\s*{_INNER}{_N}\s*(gb|tb)\b"),
    (BATTERY_HOURS.key, rf"{_N}\s*\+?\s*{_HOURS}\s*(?:of\s+)?battery(?:\s+life)?"),
    (
        BATTERY_HOURS.key,
        rf"\bbattery(?:\s+life)?\s*(?:that lasts\s+|lasting\s+)?{_INNER}{_N}\s*{_HOURS}",
    ),
    (BATTERY_MAH.key, rf"{_N}\s*mah\b"),
    (SCREEN_INCHES.key, rf"\b(?:screen|display)\s*{_INNER}{_N}\s*-?\s*(?:inch(?:es)?\b|\")"),
)
ALONE: Final[tuple[tuple[str, str], ...]] = (
    (STORAGE_GB.key, rf"{_N}\s*(tb)\b"),
    # A bare GB amount: memory comes in tens of GB, storage in hundreds.
    (STORAGE_GB.key, r"([1-9]\d{2,})\s*gb\b"),
    (RAM_GB.key, rf"{_N}\s*gb\b"),
    (WEIGHT_KG.key, rf"{_N}\s*(kg|kilos?|kilograms?|lbs?|pounds?|grams?|g)\b"),
    (PRICE, rf"[$£€]\s*{_PRICE}"),
    (PRICE, rf"{_PRICE}\s*(?:dollars?|bucks|usd)\b"),
    # A bare number is a price only after a word that says so: "under 800", not "XPS 13".
    (PRICE, rf"\b(?P<inner>{_LEAST}|{_MOST})\s*:?\s*(?:of\s+)?{_PRICE}(?![\w.])"),
)


@dataclass(frozen=True)
class _Reading:
    measure: Measure
    pattern: re.Pattern[str]
    bare: str
    number: int
    unit: int | None
    """The groups of the number and its unit."""


def _reading(name: str, said: str, bare: str | None = None) -> _Reading:
    pattern = re.compile(rf"(?:{_BEFORE})?{said}(?:{_AFTER})?", _I)
    named = set(pattern.groupindex.values())
    number, *unit = (g for g in range(1, pattern.groups + 1) if g not in named)
    measure = MEASURES[name]
    return _Reading(measure, pattern, bare or measure.bare, number, unit[0] if unit else None)


def _readings() -> tuple[_Reading, ...]:
    """Each spec's phrases and then what :data:`SAID` adds for it, in table order, then
    :data:`ALONE`."""
    phrased = {spec.key: [(spec.key, p.pattern, p.way) for p in spec.phrases] for spec in SPECS}
    said = [
        reading
        for name in MEASURES
        for reading in (*phrased.get(name, ()), *((k, p, None) for k, p in SAID if k == name))
    ]
    return tuple(_reading(*reading) for reading in (*said, *((k, p, None) for k, p in ALONE)))


_READINGS: Final = _readings()
_RANGE = re.compile(
    r"(?:\bbetween\s*[$£€]?|[$£€])\s*(?P<a>\d+(?:\.\d+)?)\s*(?P<ak>k\b)?\s*(?:and|-|\u2013|to)\s*"
    r"[$£€]?\s*(?P<b>\d+(?:\.\d+)?)\s*(?P<bk>k\b)?(?!\s*(?:gb|tb|kg|mp|mah|inch|\"|h\b|hours?))",
    _I,
)


def _factor(units: Mapping[str, float], unit: str) -> float | None:
    """The factor of ``unit`` as written ("pound" for "pounds"); None for one the measure
    does not name, which is its own unit ("kilos")."""
    for spelling in (unit, unit.removesuffix("s"), unit + "s"):
        if spelling in units:
            return units[spelling]
    return None


def _amount(reading: _Reading, match: re.Match[str]) -> float | None:
    """The amount in the measure's unit, or None where the words are not that measure."""
    amount = float(match[reading.number])
    unit = (match[reading.unit] or "").lower() if reading.unit else ""
    if reading.measure.name == WEIGHT_KG.key:
        if unit.startswith("g") and amount < 50:
            return None  # "5G" is a network, not 5 grams
        if unit.startswith(("lb", "pound")) and amount > 20:
            return None  # "500 pounds" is money
    factor = _factor(reading.measure.units, unit) if unit else None
    return amount if factor is None or factor == 1 else round(amount * factor, 3)


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
    for reading in _READINGS:

        def take(match: re.Match[str], reading: _Reading = reading) -> str:
            amount = _amount(reading, match)
            if amount is None or amount <= 0:
                return match.group()
            if reading.measure.name == PRICE and (match["before"] or "").lower() in (
                "around",
                "about",
            ):
                amount = round(amount * 1.15, 2)  # "around $800": a little over is fine
            _store(reading.measure, amount, _direction(match, reading.bare), found)
            return " "

        text = reading.pattern.sub(take, text)
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
    """The measure or constraint missed: a measure's name (a spec's key, ``RAM_GB.key``,
    or :data:`PRICE`), the operating system's spec key (``OS.key``), "brand" or "form"."""


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
