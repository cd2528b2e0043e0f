"""What a product shown must be: the product constraints of ``expect``, and its rank.

:func:`product_faults` says why a product breaks ``expect``'s product constraints
(category, brand, os, specIncludes, the numeric bounds of :data:`BOUNDS`, inStock, and
"among the previous turn's"). :func:`first_ranked` says whether the first product shown
has the highest (``firstMost``) or lowest (``firstLeast``) value of a field among the
catalog's products that meet those constraints: "the most expensive laptop" is judged
against the catalog the run answered from, not a product id written down once.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from shared.catalog.derive import bounds as spec_bounds
from shared.catalog.specs import OS, WEIGHT_KG, YEAR
from shared.products.stock import in_stock
from storechat.evaluate.questions import Expect


@dataclass(frozen=True)
class Bound:
    """A numeric product constraint: ``spec`` at least (or at most) the expected value."""

    spec: str
    at_least: bool
    unit: str


BOUNDS: dict[str, Bound] = {
    "minPrice": Bound("price", True, "$"),
    "maxPrice": Bound("price", False, "$"),
    **{
        bound.name: Bound(spec.key, bound.at_least, bound.eval_unit)
        for spec, bound in spec_bounds()
    },
}
"""Every numeric key of :class:`Expect`, with the product field it bounds. The fields
bounded are also the ones ``firstMost``/``firstLeast`` rank by."""
UNITS: dict[str, Bound] = {bound.spec: bound for bound in BOUNDS.values()}


def product_faults(product: dict[str, Any], expect: Expect, previous: set[str] | None) -> list[str]:
    """Why ``product`` breaks the product constraints of ``expect`` (empty: it does not)."""
    pid = product.get("productId", "?")
    specs = product.get("specs") or {}
    faults: list[str] = []
    if expect.category and product.get("category") != expect.category:
        faults.append(f"{pid} is in {product.get('category')}, not {expect.category}")
    if expect.brand and str(product.get("brand", "")).casefold() != expect.brand.casefold():
        faults.append(f"{pid} is by {product.get('brand')}, not {expect.brand}")
    if expect.os and expect.os.casefold() not in str(specs.get(OS.key, "")).casefold():
        faults.append(f"{pid} runs {specs.get('os') or 'no stated system'}, not {expect.os}")
    for key, wanted in (expect.specIncludes or {}).items():
        value = specs.get(key)
        texts = value if isinstance(value, list) else [] if value is None else [value]
        if not any(wanted.casefold() in str(text).casefold() for text in texts):
            said = f"{key} {value!r}" if texts else f"no {key}"
            faults.append(f"{pid} has {said} (wanted one with {wanted!r})")
    for key, bound in BOUNDS.items():
        wanted = getattr(expect, key)
        if wanted is None:
            continue
        value = field_value(product, bound.spec)
        if value is None:
            faults.append(f"{pid} has no {bound.spec} (wanted {_limit(bound, wanted)})")
        elif (value < wanted) if bound.at_least else (value > wanted):
            faults.append(f"{pid} {_amount(bound, value)} (wanted {_limit(bound, wanted)})")
    if expect.inStock and not in_stock(product):
        faults.append(f"{pid} is out of stock")
    if previous is not None and pid not in previous:
        faults.append(f"{pid} was not among the previous turn's products")
    return faults


def first_ranked(
    expect: Expect, shown: Sequence[dict[str, Any]], catalog: Sequence[dict[str, Any]]
) -> tuple[str, bool, str]:
    """The ranking check's name, whether it holds, and what it saw when it does not."""
    most = expect.firstMost is not None
    key = expect.firstMost or expect.firstLeast or ""
    bound = UNITS[key]
    name = f"first product has the {'highest' if most else 'lowest'} {key}"
    ranked = [
        (value, str(p.get("productId")))
        for p in catalog
        if (value := field_value(p, key)) is not None and not product_faults(p, expect, None)
    ]
    if not ranked:
        return name, False, "no product of the catalog meets the constraints"
    if not shown:
        return name, False, "no products shown"
    best = (max if most else min)(value for value, _ in ranked)
    got = field_value(shown[0], key)
    if got is not None and math.isclose(got, best):
        return name, True, ""
    leaders = ", ".join(pid for value, pid in ranked if math.isclose(value, best))
    return (
        name,
        False,
        (
            f"{shown[0].get('productId')} has {'none' if got is None else _amount(bound, got)}; "
            f"{leaders} {_amount(bound, best)}"
        ),
    )


def field_value(product: dict[str, Any], key: str) -> float | None:
    if key == "price":
        return _number(product.get("price"))
    specs = product.get("specs") or {}
    value = _number(specs.get(key))
    if value is None and key == WEIGHT_KG.key and _number(specs.get("weightG")) is not None:
        return float(specs["weightG"]) / 1000  # phones are weighed in grams
    return value


def _number(value: Any) -> float | None:
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    return float(value)


def _amount(bound: Bound, value: float) -> str:
    if bound.unit == "$":
        return f"${value:,.2f}"
    return f"year {value:g}" if bound.spec == YEAR.key else f"{value:g} {bound.unit}"


def _limit(bound: Bound, value: float) -> str:
    return ("≥ " if bound.at_least else "≤ ") + _amount(bound, value)
