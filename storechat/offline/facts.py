"""How one recommended product is described: its specs in words, and what it is best at
against the others (the products' order is the catalog tool's: it sorts by what was asked)."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Final

from shared.catalog.spec import Spec
from shared.catalog.specs import (
    AUTHOR,
    BATTERY_HOURS,
    BATTERY_MAH,
    CAMERA_MP,
    CHIP,
    CPU,
    FORMAT,
    GPU,
    OS,
    RAM_GB,
    SCREEN_INCHES,
    STORAGE_GB,
    WEIGHT_KG,
    YEAR,
)
from storechat.offline.checks import MEASURE_OF, MEASURES, PRICE, Constraints, money
from storechat.offline.product import Listed, portable
from storechat.offline.vocabulary import BOOKS, COMPUTERS, MOBILE, REVERSED, SORT_PHRASE, by_sort


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
