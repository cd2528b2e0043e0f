"""From a catalog record to what the index holds: searchable text and numeric facets.

A record has ``productId``, ``name``, ``brand``, ``category``, ``price``,
``stock``, ``description`` and ``specs``; what ``specs`` holds depends on the
category and on who wrote the record. Specs that carry a quantity the shopper
filters or sorts on (memory, storage, weight, battery, screen, camera, year)
become numbers in one unit each, whatever the record wrote: ``16``, ``"16GB"``
and ``"16 GB"`` under ``ramGb`` or ``ram``; ``1.4``, ``"1.4 kg"`` and
``"1400 g"`` for a weight; ``"14-inch"``; ``"48 MP"``. Every spec, known or not,
is also text, so a search for ``"oled"`` or ``"tensor g4"`` finds it.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from shared.catalog.categories import INDEX_WORDS
from shared.catalog.derive import faceted, kind_named
from shared.catalog.specs import FORM_FACTOR, GPU, OS
from shared.products.stock import counted


@dataclass(frozen=True)
class Facet:
    """A quantity kept as a number in one unit: a column of the ``products`` table."""

    column: str
    unit: str
    low: float  # values outside [low, high] are typos or placeholders, not specs
    high: float
    written: str
    """The unit as the indexed text writes it ("GB", "hours")."""
    words: tuple[str, ...]
    """Words that make another key mean it (``shared.catalog.specs.Facet.words``)."""


FACETS: tuple[Facet, ...] = tuple(
    Facet(s.column, s.facet.unit, s.facet.low, s.facet.high, s.facet.written, s.facet.words)
    for s in faceted()
    if s.facet is not None
)
FACET_BY_COLUMN = {facet.column: facet for facet in FACETS}

# Spec keys (lower case, letters and digits only) -> (facet column, the unit the
# key implies when the value is a bare number): each spec's own key, in its facet's
# unit, and the other keys it lists. Keys not listed here are matched by the words
# they contain (below), with the facet's own unit.
_KEYS: dict[str, tuple[str, str]] = {
    key: (s.column, unit)
    for s in faceted()
    if s.facet
    for key, unit in {
        re.sub(r"[^a-z0-9]", "", s.key.casefold()): s.facet.unit,
        **s.facet.keys,
    }.items()
}
# Words inside other keys: "ram", "memory", "storage", "ssd", "weight", "screen"... The
# first facet to list a word owns it; another listing it too takes the values written
# in its own unit ("battery": "5000 mAh" is a capacity, "battery": "18 hours" a duration).
_KEY_WORDS: dict[str, str] = {}
for _facet in FACETS:
    for _word in _facet.words:
        _KEY_WORDS.setdefault(_word, _facet.column)

# unit as written -> (canonical unit, factor to it)
_UNITS: dict[str, tuple[str, float]] = {
    written: (s.facet.unit, factor)
    for s in faceted()
    if s.facet
    for written, factor in s.facet.units.items()
}
_QUANTITY = re.compile(
    r"(?P<number>\d+(?:[.,]\d+)*)(?P<gap>\s*-?\s*)(?P<unit>[a-z]+|\"|″)?", re.IGNORECASE
)

# Letters glued to digits ("16GB", "48MP", "Fold6", "S24", "RTX4070") are split in
# every indexed text and in every query, so that "16GB", "16 GB" and "16gb" all meet
# as the phrase "16 gb", and "fold" finds the "Galaxy Z Fold6".
_GLUED = re.compile(r"(?<=[^\W\d_])(?=\d)|(?<=\d)(?=[^\W\d_])")

# A discrete graphics card, as opposed to graphics built into the processor.
_DEDICATED_GPU = re.compile(r"\b(rtx|gtx|geforce|quadro|radeon\s+rx|arc\s+a\d)", re.IGNORECASE)

CATEGORY_WORDS: dict[str, str] = {str(category): words for category, words in INDEX_WORDS.items()}
_FORM_WORDS: dict[str, str] = {
    kind.value: kind.indexed for kind in (FORM_FACTOR.kinds.values if FORM_FACTOR.kinds else ())
}
_BOOL_LABELS = {"fiveg": "5G", "touchscreen": "touchscreen", "backlit": "backlit keyboard"}


def filter_token(kind: str, value: str) -> str:
    """A word that stands for a filter value in the FTS5 index: ``("cat", "MOBILE")`` ->
    ``"zcatmobile"``. Letters and digits only, so the tokenizer keeps it whole; values
    that differ only in other characters share a token, which is fine: the token
    narrows the search, the SQL filter decides."""
    return "z" + kind + re.sub(r"[^a-z0-9]", "", value.casefold())


_PLUS = re.compile(r"(?<=[^\W_])\+")
"""A plus that ends a model's name ("Galaxy S24+"), which shoppers write as a word too
("S24 Plus"): the name is indexed with the word, and a search without it still finds it."""


def split_glued(text: str) -> str:
    return _GLUED.sub(" ", text)


def key_of(name: str) -> str:
    """A spec key compared without case or punctuation: ``"RAM (GB)"`` -> ``"ramgb"``."""
    return re.sub(r"[^a-z0-9]", "", name.casefold())


def _number(text: str) -> float | None:
    # "1,400" is a thousands separator; "1,4" a decimal comma.
    if re.fullmatch(r"\d{1,3}(?:,\d{3})+(?:\.\d+)?", text):
        text = text.replace(",", "")
    else:
        text = text.replace(",", ".")
    try:
        value = float(text)
    except ValueError:  # "1.2.3"
        return None
    return value if math.isfinite(value) else None


def parse_quantity(value: Any) -> tuple[float, str | None] | None:
    """A number and the unit written with it, if any: ``"1.4 kg"`` -> ``(1.4, "kg")``."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int | float):
        return (float(value), None) if math.isfinite(value) else None
    if not isinstance(value, str):
        return None
    match = _QUANTITY.search(value[:200])
    if match is None:
        return None
    number = _number(match["number"])
    if number is None:
        return None
    unit = (match["unit"] or "").casefold()
    if unit in _UNITS:
        return number, unit
    if unit and not match["gap"]:
        return None  # "4K", "120Hz": a number glued to a unit we do not know is not ours
    return number, None


def _facet_for_key(key: str) -> tuple[str, str] | None:
    if key in _KEYS:
        return _KEYS[key]
    for word, column in _KEY_WORDS.items():
        if word in key:
            return column, FACET_BY_COLUMN[column].unit
    return None


def _sibling(facet: Facet, unit: str) -> Facet:
    """The facet a value written in ``unit`` belongs to: ``facet``, or one sharing a
    word with it in that unit ("battery": "5000 mAh" is a capacity, not hours)."""
    canonical = _UNITS[unit][0] if unit in _UNITS else facet.unit
    if canonical == facet.unit:
        return facet
    for other in FACETS:
        if other.unit == canonical and set(other.words) & set(facet.words):
            return other
    return facet


def facet_value(name: str, value: Any) -> tuple[str, float] | None:
    """The facet a spec sets and its value in the facet's unit, or None (text only)."""
    found = _facet_for_key(key_of(name))
    if found is None:
        return None
    column, key_unit = found
    quantity = parse_quantity(value)
    if quantity is None:
        return None
    number, written = quantity
    unit = written or key_unit
    facet = _sibling(FACET_BY_COLUMN[column], unit)
    if facet.unit:
        canonical, factor = _UNITS.get(unit, (facet.unit, 1.0))
        if canonical != facet.unit:
            return None  # "weight": "15 inches" is not a weight
        number *= factor
    if not facet.low <= number <= facet.high:
        return None  # includes 0: desktops list no battery and no screen as 0
    return facet.column, round(number, 4)


@dataclass(frozen=True)
class Document:
    """One product as the index stores it."""

    product_id: str
    category: str
    name: str
    name_text: str
    """The name as the index searches it: letters and digits apart ("Galaxy Z Fold 6")."""
    brand: str
    price: float | None
    stock: int
    facets: dict[str, float]
    os: str | None
    form_factor: str | None
    dedicated_gpu: bool
    description: str
    spec_text: str
    tags: str
    """Words the index adds (the category's, the kind's) and the product's own tags."""
    filters: str
    """:func:`filter_token` words for category and brand."""
    specs: Mapping[str, Any]
    """The record's specs as it wrote them (for the listing of the catalog's words)."""
    compare_at_price: float | None = None
    """The price before a sale: on sale when above the price."""


def _words(name: str) -> str:
    # "formFactor" -> "form factor", "batteryMah" -> "battery mah"
    return re.sub(r"(?<=[a-z0-9])(?=[A-Z])", " ", name).replace("_", " ").strip()


def _spec_text(name: str, value: Any, facet: tuple[str, float] | None) -> str:
    if facet is not None:
        column, number = facet
        meta = FACET_BY_COLUMN[column]
        if not meta.unit:
            return f"{number:g}"
        # The number and its unit ("16 GB", "1.2 kg", "48 MP"), without the facet's name:
        # "battery" or "camera" on every phone would make those words match everything.
        return f"{number:g} {meta.written}"
    if isinstance(value, bool):
        return _BOOL_LABELS.get(key_of(name), _words(name)) if value else ""
    if isinstance(value, str | int | float):
        return str(value)
    if isinstance(value, list | tuple):
        return " ".join(_spec_text(name, v, None) for v in value[:50])
    return ""


def _price(value: Any) -> float | None:
    quantity = parse_quantity(value)
    return quantity[0] if quantity is not None and quantity[0] >= 0 else None


UNCOUNTED_STOCK = 2_147_483_647
"""The index's stock of a product the store sells without counting it (``"stockTracked":
false``): above 0, so the in-stock filter and order take it as they take any product in
stock, at no cost per query and with the index's columns as they were. It is never a
count: the catalog tool reads it back as uncounted (``lookup_inventory.records``)."""


def _stock(record: Mapping[str, Any]) -> int:
    if not counted(record):
        return UNCOUNTED_STOCK
    quantity = parse_quantity(record.get("stock"))
    return min(int(quantity[0]), UNCOUNTED_STOCK - 1) if quantity is not None else 0


def _form(value: Any) -> str | None:
    """The kind a record's ``formFactor`` names, as the filter compares it: a kind's own
    value for any of its names ("Notebook", "Laptops"), else the text, lower case."""
    if not isinstance(value, str) or not value.strip():
        return None
    kind = kind_named(FORM_FACTOR, value)
    return kind.value if kind is not None else value.strip().casefold()


def document(record: Mapping[str, Any]) -> Document | None:
    """The indexed form of ``record``, or None when it has no usable ``productId``."""
    product_id = record.get("productId")
    if not isinstance(product_id, str) or not product_id.strip():
        return None
    specs = record.get("specs")
    specs = specs if isinstance(specs, Mapping) else {}
    facets: dict[str, float] = {}
    texts: list[str] = []
    for name, value in specs.items():
        found = facet_value(str(name), value)
        if found is not None:
            facets.setdefault(*found)
        texts.append(_spec_text(str(name), value, found))
    os_name = specs.get(OS.key)
    form = specs.get(FORM_FACTOR.key)
    gpu = " ".join(str(v) for k, v in specs.items() if key_of(str(k)) in (GPU.key, "graphics"))
    category = str(record.get("category") or "").strip().upper()
    form_key = _form(form)
    dedicated = bool(_DEDICATED_GPU.search(gpu))
    tags = [CATEGORY_WORDS.get(category, ""), _FORM_WORDS.get(form_key or "", "")]
    if dedicated:
        tags.append("dedicated graphics card")
    own = record.get("tags")
    if isinstance(own, list):
        tags += [split_glued(str(tag)) for tag in own[:50] if isinstance(tag, str)]
    brand = str(record.get("brand") or "")
    name = str(record.get("name") or "")
    stock = _stock(record)
    filters = [filter_token("cat", category), filter_token("brand", brand)]
    return Document(
        product_id=product_id.strip(),
        category=category,
        name=name,
        name_text=split_glued(_PLUS.sub(" plus", name)),
        brand=brand,
        price=_price(record.get("price")),
        stock=stock,
        facets=facets,
        os=os_name.strip() if isinstance(os_name, str) and os_name.strip() else None,
        form_factor=form_key,
        dedicated_gpu=dedicated,
        description=split_glued(str(record.get("description") or "")),
        spec_text=split_glued(" ".join(t for t in texts if t)),
        tags=" ".join(t for t in tags if t),
        filters=" ".join(filters),
        specs=specs,
        compare_at_price=_price(record.get("compareAtPrice")),
    )
