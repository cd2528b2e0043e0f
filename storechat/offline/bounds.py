"""The numbers a shopper states, as ``lookup_inventory``'s bounds: said and checked.

The search reads them (:mod:`shared.search.amounts`, the one reading every model's
search shares); here each measure is a spec with filter bounds (``shared.catalog.specs``),
and the price: :data:`MEASURES` holds the tool fields it fills, which way a bare amount
goes ("16GB RAM" is a least, "2 kg" a most, "15-inch" a size class), the product's value
and how an answer writes it. A spec added to the table with a bound and a phrase is
said and checked here with no edit.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Final

from shared.catalog.spec import Spec
from shared.catalog.specs import (
    BATTERY_MAH,
    PRICE_SORT,
    SCREEN_INCHES,
    SPECS,
    STORAGE_GB,
    WEIGHT_KG,
)
from storechat.offline.money import money
from storechat.offline.product import Listed

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
    value: Callable[[Listed], float | None]
    writes: Callable[[float], str]
    """An amount as an answer writes it: "16 GB RAM", "$800", "1.2 kg", "13 h battery"."""
    sort: str
    """The ``sortBy`` that orders by it, best first."""


# How an answer writes the amounts whose eval unit ("GB storage", "inch screen") a
# shopper would not read as written: the rest are the number and the eval unit.
_WRITES: Final[dict[str, Callable[[float], str]]] = {
    STORAGE_GB.key: lambda v: f"{v / 1024:g} TB storage" if v >= 1024 else f"{v:g} GB storage",
    WEIGHT_KG.key: lambda v: f"{v * 1000:g} g" if v < 0.5 else f"{v:g} kg",
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
    )


MEASURES: Final[dict[str, Measure]] = {
    PRICE: Measure(
        PRICE, PRICE, "minPrice", "maxPrice", "most", lambda p: p.price, money, PRICE_SORT.name
    ),
    **{spec.key: _measure(spec) for spec in SPECS if spec.bounds},
}
MEASURE_OF: Final = {f: name for name, m in MEASURES.items() for f in (m.least, m.most) if f}
"""The measure each tool field bounds."""


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
    """How a product falls short of one stated limit, said with the limit."""

    says: str
    what: str = ""
    """The measure or constraint missed: a measure's name (a spec's key, ``RAM_GB.key``,
    or :data:`PRICE`), the operating system's spec key (``OS.key``), "brand" or "form"."""


def misses(product: Listed, bounds: dict[str, float]) -> list[Miss]:
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
            found.append(Miss(f"no {measure.label} listed (you asked for {wanted})", name))
            continue
        limit = low if low is not None and value < low else high if high is not None else None
        if limit is None or (limit == high and value <= limit):
            continue
        if wanted.startswith("a "):
            found.append(Miss(f"{measure.writes(value)}, not {wanted[2:]}", name))
        else:
            found.append(Miss(f"{measure.writes(value)} (you asked for {wanted})", name))
    return found
