"""The specs a product's own title and description state, for a store that writes them
there and nowhere else: "6.5-inch phone with a 50 MP camera, 128 GB storage and a 5000
mAh battery" is a 6.5-inch screen, 50 MP, 128 GB and 5,000 mAh.

They are read as the catalog search reads a shopper's amounts
(:func:`shared.search.amounts.take_amounts`, through the specs' phrases of
:data:`shared.catalog.specs.SPECS`), each spec once, and only where the export's own
options, attributes and metafields give none: a spec the store set is never replaced. An
amount the phrases do not tie to a spec ("up to 18 hours", "charges in 30 minutes") is
not read.
"""

from __future__ import annotations

from typing import Any

from shared.catalog.derive import bounds
from shared.search.amounts import take_amounts

_A_CLASS = 0.5
"""A bound pair wider than this is a whole class ("a 14-inch screen": 14 to 14.99)."""


def _value(low: float | None, high: float | None) -> float | None:
    if low is not None and high is not None:
        return low if high - low > _A_CLASS else round((low + high) / 2, 2)
    return low if low is not None else high


def said_specs(*texts: str) -> dict[str, int | float]:
    """Each spec with a filter bound that ``texts`` state, by its key: ``{"ramGb": 16}``."""
    found: dict[str, float] = {}
    for text in texts:
        take_amounts(text.casefold(), found)
    specs: dict[str, int | float] = {}
    pairs: dict[str, dict[bool, float]] = {}
    for spec, bound in bounds():
        if bound.name in found:
            pairs.setdefault(spec.key, {})[bound.at_least] = found[bound.name]
    for key, pair in pairs.items():
        value = _value(pair.get(True), pair.get(False))
        if value is not None and value > 0:
            specs[key] = int(value) if float(value).is_integer() else value
    return specs


def with_said_specs(data: dict[str, Any], max_specs: int) -> list[str]:
    """``data`` (a product's fields) with the specs its name and description state that its
    ``specs`` lack, as many as ``max_specs`` allows; the keys added."""
    specs: dict[str, Any] = data.setdefault("specs", {})
    texts = [str(data.get(field) or "") for field in ("name", "description")]
    added = []
    for key, value in said_specs(*texts).items():
        if key not in specs and len(specs) < max_specs:
            specs[key] = value
            added.append(key)
    return added
