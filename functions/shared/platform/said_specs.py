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

import re
from typing import Any, Final

from shared.catalog.categories import Category
from shared.catalog.derive import bounds
from shared.catalog.specs import CAMERA_MP, RAM_GB
from shared.search.amounts import take_amounts

_A_CLASS = 0.5
"""A bound pair wider than this is a whole class ("a 14-inch screen": 14 to 14.99)."""


def _value(low: float | None, high: float | None) -> float | None:
    if low is not None and high is not None:
        return low if high - low > _A_CLASS else round((low + high) / 2, 2)
    return low if low is not None else high


_FITS_OTHERS: Final = re.compile(
    r"\b(?:fits?|compatible|compatibility|designed\s+for|works\s+with|sleeve|case|cover|"
    r"protector|charger|cable|adapter|stand|dock|holder|bag|backpack|power\s*bank|"
    r"memory\s+card|micro\s?sd|sd\s+card|holds?|cloud)\b",
    re.IGNORECASE,
)
"""Words of a text whose amounts may be another thing's: an accessory's ("fits 13-16 inch
laptops", "power bank")."""
_COMES_WITH: Final = re.compile(r"\b(?:includes?|included|bundled?)\b", re.IGNORECASE)
"""Words of a clause whose amounts are what comes with the product ("includes 50GB
iCloud"); the text's other clauses are the product's own ("10.9-inch tablet, 6 GB RAM,
S Pen included")."""
_SENTENCE_END: Final = re.compile(r"(?<=[!?.])\s+|\n+")
_CLAUSE_END: Final = re.compile(r"(?<=[,;:])\s+")


def _own_clauses(text: str) -> str:
    """``text`` without what it says comes with the product: the clause that says so, and
    where that clause opens its sentence or a list (":"), the rest of the sentence
    ("Includes: keyboard, mouse, 512GB drive"; "16GB RAM, bundled with a trial, 1.2 kg"
    keeps the weight)."""
    kept = []
    for sentence in _SENTENCE_END.split(text):
        clauses = _CLAUSE_END.split(sentence)
        for at, clause in enumerate(clauses):
            if not _COMES_WITH.search(clause):
                kept.append(clause)
            elif at == 0 or clause.rstrip().endswith(":"):
                break
    return " ".join(kept)


_RAM_SAID: Final = re.compile(
    r"(\d+)\s*gb\s+(?:of\s+)?(?:unified\s+)?(?:lp)?(?:ddr\d\w*\s+)?(?:ram|memory)\b",
    re.IGNORECASE,
)
"""RAM said as such ("16GB RAM", "8 GB of unified memory"): a bare "64GB" may be storage."""
_CAMERAS: Final = re.compile(r"(\d+(?:\.\d+)?)\s*(?:mp|megapixels?)\b", re.IGNORECASE)


def _plain_numbers(text: str) -> str:
    """``text`` with a decimal comma as a point ("1,41 kg") and no thousands separator
    before a unit that counts ("5.000 mAh", "1,240 g")."""
    text = re.sub(r"(\d)[.,](\d{3})(?=\s*(?:mah|g\b|gb\b|mb\b))", r"\1\2", text, flags=re.I)
    return re.sub(r"(\d),(\d{1,2})(?!\d)", r"\1.\2", text)


def said_specs(*texts: str) -> dict[str, int | float]:
    """Each spec with a filter bound that ``texts`` state, by its key: ``{"ramGb": 16}``;
    none from a text that speaks of other things it fits or comes with."""
    if any(_FITS_OTHERS.search(text) for text in texts):
        return {}
    texts = tuple(_plain_numbers(_own_clauses(text)) for text in texts)
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
    said_ram = [int(m[1]) for text in texts for m in _RAM_SAID.finditer(text)]
    specs.pop(RAM_GB.key, None)  # "64GB" alone: storage as often as RAM, "8GB GDDR6" graphics'
    if said_ram:
        specs[RAM_GB.key] = max(said_ram)
    cameras = [float(m[1]) for text in texts for m in _CAMERAS.finditer(text)]
    if CAMERA_MP.key in specs and cameras:
        best = max(cameras)  # the main camera, not the selfie one said first
        specs[CAMERA_MP.key] = int(best) if best.is_integer() else best
    return specs


def with_said_specs(data: dict[str, Any], max_specs: int) -> list[str]:
    """``data`` (a product's fields) with the specs its name and description state that its
    ``specs`` lack, as many as ``max_specs`` allows; the keys added."""
    specs: dict[str, Any] = data.setdefault("specs", {})
    if data.get("category") == Category.BOOKS:
        return []  # a book's numbers are its story's
    texts = [str(data.get(field) or "") for field in ("name", "description")]
    added = []
    for key, value in said_specs(*texts).items():
        if key not in specs and len(specs) < max_specs:
            specs[key] = value
            added.append(key)
    return added
