"""What the shopper stated, and whether a product meets it.

The numbers a shopper states are ``lookup_inventory``'s bounds (the search reads them:
:mod:`shared.search.amounts`); here each measure is a spec with filter bounds
(``shared.catalog.specs``), and the price: :data:`MEASURES` holds the tool fields it fills,
which way a bare amount goes ("16GB RAM" is a least, "2 kg" a most, "15-inch" a size class),
the product's value and how an answer writes it. A spec added to the table with a bound and
a phrase is said and checked here with no edit.

Every explicit constraint is checked on the products a tool returned, whatever the tool was
asked: a search may have dropped the shopper's words or the price limit to find anything,
and an operating system is only a search word. A product that breaks one is never
recommended; the nearest are offered instead, each with what differs.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Final

from shared.catalog.spec import Spec
from shared.catalog.specs import (
    BATTERY_MAH,
    FORM_FACTOR,
    OS,
    PRICE_SORT,
    SCREEN_INCHES,
    SPECS,
    STORAGE_GB,
    WEIGHT_KG,
)
from storechat.offline.money import money
from storechat.offline.product import Listed
from storechat.offline.vocabulary import BOOKS, OS_LABEL, form_heads

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


# -- a search's constraints -----------------------------------------------------------------

NEAREST_SHOWN = 2


@dataclass(frozen=True)
class Constraints:
    """What one catalog search's results are filtered and ranked by."""

    category: str | None
    systems: tuple[str, ...]
    use: str | None
    sort_by: str | None
    favours: str | None = None
    """The order the search ranked toward, not by ("a big screen": screen)."""
    brand: str | None = None
    product_name: str | None = None
    forms: tuple[str, ...] = ()
    bounds: dict[str, float] = field(default_factory=dict)
    cheaper_than: float | None = None
    """A "cheaper ones" follow-up: the price the products shown before started at."""
    on_sale: bool = False
    """The search kept only products on sale."""
    without: tuple[str, ...] = ()
    """What the search left out as the shopper wrote it ("Dell", "a Chromebook")."""
    refused: tuple[str, ...] = ()
    """The orders whose first the search left out ("not the cheapest": ``price``)."""


def runs(system: str, product: Listed) -> bool:
    value = product.text(OS.key).lower().replace(" ", "")
    if system == "macos":
        return "macos" in value or "osx" in value
    if system == "ios":
        return value.startswith("ios")
    return system in value


def shortfalls(product: Listed, c: Constraints) -> list[Miss]:
    """Each stated constraint ``product`` breaks, said as the answer says it."""
    found: list[Miss] = []
    if c.brand and c.brand.casefold() not in product.brand.casefold():
        found.append(Miss(f"by {product.brand or 'another brand'}, not {c.brand}", "brand"))
    if (
        c.systems
        and product.text(OS.key)  # none listed: the search found the system in its text
        and product.category != BOOKS
        and not any(runs(s, product) for s in c.systems)
    ):
        runs_on = next((name for s, name in OS_LABEL.items() if runs(s, product)), "another system")
        wanted = "/".join(OS_LABEL[s] for s in c.systems)
        found.append(Miss(f"runs {runs_on}, not {wanted}", OS.key))
    factor = product.text(FORM_FACTOR.key).lower()
    if c.forms and factor and factor not in c.forms:
        article = "an" if factor[0] in "aeiou" else "a"
        wanted = " or ".join(form_heads(c.forms))
        found.append(Miss(f"{article} {factor}, not a {wanted}", "form"))
    bounds = dict(c.bounds)
    if c.cheaper_than is not None:
        bounds.pop("maxPrice", None)
        if product.price is None or product.price >= c.cheaper_than:
            found.append(Miss("not cheaper", "price"))
    return found + misses(product, bounds)


@dataclass(frozen=True)
class Sifted:
    fits: list[Listed]
    out_of_stock: list[Listed]
    wrong_os: int
    near: list[tuple[Listed, list[Miss]]]
    """In-stock products that break a constraint, in the catalog tool's order (a search
    gives the nearest to limits none meets first)."""


def sift(products: list[Listed], c: Constraints) -> Sifted:
    fits, out, near = [], [], []
    wrong_os = 0
    for product in products:
        missed = shortfalls(product, c)
        if any(m.what == OS.key for m in missed):
            wrong_os += 1
        if missed and product.in_stock:
            near.append((product, missed))
        elif not missed and product.in_stock:
            fits.append(product)
        elif not missed:
            out.append(product)
    return Sifted(fits, out, wrong_os, near)
