"""What the shopper stated, whether a product meets it, and how a product is described.

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

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Final

from shared.catalog.spec import Spec
from shared.catalog.specs import (
    AUTHOR,
    BATTERY_HOURS,
    BATTERY_MAH,
    CAMERA_MP,
    CHIP,
    CPU,
    FORM_FACTOR,
    FORMAT,
    GPU,
    OS,
    PRICE_SORT,
    RAM_GB,
    SCREEN_INCHES,
    SPECS,
    STORAGE_GB,
    WEIGHT_KG,
    YEAR,
)
from storechat.offline.product import Listed, money, portable
from storechat.offline.store import (
    BOOKS,
    COMPUTERS,
    MOBILE,
    OS_LABEL,
    REVERSED,
    SORT_PHRASE,
    by_sort,
    form_heads,
)

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


# The facts a recommendation shows, by what the shopper wants the product for: a
# computer's, then a phone's (None: what the kind shows for any other use).
_USE_FACTS: Final[tuple[tuple[str | None, tuple[str, ...], tuple[str, ...] | None], ...]] = (
    ("student", ("weight", "battery", "ram"), ("storage", "battery", "screen")),
    ("gaming", (GPU.key, "ram", CPU.key), (CHIP.key, "ram", "battery")),
    ("travel", ("weight", "battery", "ram"), ("weight", "battery", "camera")),
    ("work", ("ram", CPU.key, "battery"), ("ram", "storage", "battery")),
    ("editing", ("ram", GPU.key, "storage"), ("ram", "storage", "camera")),
    ("programming", ("ram", CPU.key, "storage"), None),
    ("photos", ("ram", "screen", "weight"), ("camera", "storage", "battery")),
    (None, ("ram", "weight", "battery"), ("storage", "camera", "battery")),
)
_FACT_ORDER: Final[dict[str, dict[str | None, tuple[str, ...]]]] = {
    COMPUTERS: {use: shown for use, shown, _ in _USE_FACTS},
    MOBILE: {use: shown for use, _, shown in _USE_FACTS if shown},
    BOOKS: {None: (AUTHOR.key, FORMAT.key, YEAR.key)},
}


_WEIGHTS: Final = ((WEIGHT_KG.key, "kg"), ("weightLb", "lb"), ("weightG", "g"), ("weightOz", "oz"))
"""The keys a result gives a weight under, in the store's unit (``shared.products.weight``)."""


def _weight_fact(p: Listed) -> str | None:
    weights = (f"{v:g} {unit}" for key, unit in _WEIGHTS if (v := p.spec(key)) is not None)
    return next(weights, None) if portable(p) else None


def _battery_fact(p: Listed) -> str | None:
    if (hours := p.spec(BATTERY_HOURS.key)) is not None:
        return f"{hours:g} h battery"
    mah = p.spec(BATTERY_MAH.key)
    return f"{mah:g} mAh battery" if mah is not None else None


def _measured(spec: Spec) -> Callable[[Listed], str | None]:
    writes = MEASURES[spec.key].writes
    return lambda p: writes(value) if (value := p.spec(spec.key)) is not None else None


_FACT_MAKERS: Final[dict[str, Callable[[Listed], str | None]]] = {
    "weight": _weight_fact,
    "battery": _battery_fact,
    "ram": _measured(RAM_GB),
    "storage": _measured(STORAGE_GB),
    "screen": _measured(SCREEN_INCHES),
    "camera": _measured(CAMERA_MP),
    GPU.key: lambda p: re.sub(r"^NVIDIA GeForce |\s+Laptop GPU$", "", p.text(GPU.key)) or None,
    AUTHOR.key: lambda p: f"by {p.text(AUTHOR.key)}" if p.text(AUTHOR.key) else None,
}


def _fact(p: Listed, name: str) -> str | None:
    """One spec as the shopper reads it ("1.2 kg"), or None when it is missing."""
    if name in _FACT_MAKERS:
        return _FACT_MAKERS[name](p)
    return p.text(name) or None  # a text spec by its key: the CPU, chip, OS, format, year


def product_facts(p: Listed, first: list[str], limit: int = 4, use: str | None = None) -> list[str]:
    """Up to ``limit`` facts of ``p``, ``first`` first, then those its kind shows for ``use``."""
    orders = _FACT_ORDER.get(p.category, _FACT_ORDER[COMPUTERS])
    order = [*first, *orders.get(use, orders[None])]
    return [f for name in dict.fromkeys(order) if (f := _fact(p, name))][:limit]


def facts_of(p: Listed, c: Constraints) -> list[str]:
    """The facts a recommendation shows: what the shopper limited first, then the order
    asked ("heaviest" shows the weight too), then what the use needs, then the price."""
    orders = _FACT_ORDER.get(p.category, _FACT_ORDER[COMPUTERS])
    needed = orders.get(c.use, orders[None])
    forwards = (REVERSED.get(asked or "", asked) for asked in (c.sort_by, c.favours))
    asked = [f for f in forwards if f and f in FEATURES and f not in needed]
    facts = product_facts(p, [*asked_first(c, p.category), *asked], use=c.use)
    return [*facts, priced(p)] if p.price is not None else facts


def asked_first(c: Constraints, category: str | None) -> tuple[str, ...]:
    """The facts the shopper asked about, to say first: the system, then each limited (the
    feature its measure's order ranks by; not the price, which every recommendation shows)."""
    system = (OS.key,) if c.systems and category != BOOKS else ()
    limited = (MEASURES[MEASURE_OF[f]] for f in c.bounds)
    return (*system, *(SORT_FEATURE.get(m.sort, m.sort) for m in limited if m.name != PRICE))


def priced(p: Listed) -> str:
    """The product's price, and the price before its sale where the tool says it is on
    sale: "$999 (on sale, was $1,199)"."""
    price = money(p.price) if p.price is not None else ""
    return f"{price} (on sale, was {money(p.was)})" if p.was is not None and price else price


_SUPERLATIVES: Final = (
    ("price", "cheapest"),
    ("weight", "lightest"),
    ("battery", "longest battery"),
    (GPU.key, "strongest graphics"),
    ("ram", "most RAM"),
    ("camera", "best camera"),
)
_RELEVANT_SUPERLATIVES: Final[dict[str | None, frozenset[str]]] = {
    "student": frozenset({"price", "weight", "battery"}),
    "gaming": frozenset({GPU.key, "ram"}),
    "travel": frozenset({"weight", "battery"}),
    "work": frozenset({"ram", "battery"}),
    "editing": frozenset({"ram", GPU.key}),
    "programming": frozenset({"ram", "battery"}),
    "photos": frozenset({"camera"}),
    None: frozenset({"price", "weight", "battery"}),
}


def highlights(p: Listed, candidates: list[Listed], c: Constraints) -> str:
    if len(candidates) < 2 or p.category == BOOKS:
        return ""
    relevant = {*_RELEVANT_SUPERLATIVES.get(c.use, _RELEVANT_SUPERLATIVES[None]), c.sort_by}
    # "not the cheapest": the cheapest left is not called so
    refused = {SORT_PHRASE.get(order, "").removesuffix(" first") for order in c.refused}
    best = []
    for feature, label in _SUPERLATIVES:
        if label in refused:
            continue
        getter = FEATURES[feature]
        values = [v for q in candidates if (v := getter(q)) is not None]
        mine = getter(p)
        if feature not in relevant or mine is None or len(values) < 2:
            continue
        target = min(values) if feature in LOWER_IS_BETTER else max(values)
        if mine == target and values.count(target) == 1:
            best.append(label)
    return " and ".join(best[:2]) + " here; " if best else ""
