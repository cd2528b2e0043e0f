"""What each reader of the catalog's vocabulary takes from it: the filter bounds, the
phrases, the facets, the sorts both ways, the checked facts and the page's chips, all
derived from :data:`shared.catalog.specs.SPECS`.

They read the table as it is when called (``specs.SPECS``), so a spec added to it (the
docs/architecture.md's "Add a spec", ``tests/integration/test_add_a_spec.py``) reaches every reader.
"""

from __future__ import annotations

import functools
import re
from typing import Any

from shared.catalog import specs
from shared.catalog.categories import Category
from shared.catalog.spec import Bound, Kind, Kinds, Phrase, Sort, Spec

WORD = re.compile(r"[^\W_]+(?:['\-][^\W_]+)*")
"""A word of a shopper's or a platform's text: letters and digits, joined by ' or -."""


def spec(key: str) -> Spec:
    """The spec declared under ``key``; ``KeyError`` for any other."""
    for declared in specs.SPECS:
        if declared.key == key:
            return declared
    raise KeyError(key)


def bounds() -> list[tuple[Spec, Bound]]:
    """Every filter bound, in table order."""
    return [(s, b) for s in specs.SPECS for b in s.bounds]


def phrases() -> list[tuple[Spec, Phrase]]:
    """Every spec's phrases, in table order: the order a search's words are read in."""
    return [(s, p) for s in specs.SPECS for p in s.phrases]


def faceted() -> list[Spec]:
    """The specs the search keeps as numbers, in table order."""
    return [s for s in specs.SPECS if s.facet is not None]


def _ordered() -> list[tuple[str, Sort]]:
    """Every order with its column, as :func:`sorts` lists them, ties included."""
    primary = sorted(
        ((s.column, s.sort) for s in specs.SPECS if s.sort is not None),
        key=lambda pair: pair[1].biggest_first,
    )
    reverses = [(column, sort.reverse) for column, sort in primary if sort.reverse is not None]
    return [*(("price", sort) for sort in specs.PRICE_SORT.both()), *primary, *reverses]


def sorts() -> list[tuple[str, Sort]]:
    """Every ``sortBy`` with the column it orders by: the price's both ways, then the
    specs' ascending ones, then their biggest-first ones, then the specs' reverses,
    each in table order. A name seen again orders the ties of its first
    (:func:`tie_sorts`)."""
    named: dict[str, tuple[str, Sort]] = {}
    for column, sort in _ordered():
        named.setdefault(sort.name, (column, sort))
    return list(named.values())


def tie_sorts() -> list[tuple[str, Sort]]:
    """The second spec of a sort name with its column: what orders the first's ties."""
    first = {sort.name: column for column, sort in sorts()}
    return [(column, sort) for column, sort in _ordered() if first[sort.name] != column]


def facts(kind: str | None = None) -> list[Spec]:
    """The specs the answer is checked for (of one kind), in table order."""
    return [s for s in specs.SPECS if s.fact is not None and kind in (None, s.fact.kind)]


def page_chips() -> dict[str, list[dict[str, Any]]]:
    """The chips of each category's cards, in the order a card shows them, as the page
    reads them from ``names.json``: each category's value (``Category.COMPUTERS``'s, ...)
    to ``[{"spec": "ramGb", "label": "{} GB RAM", "format": "number"}, ...]``."""
    chips: dict[str, list[tuple[int, dict[str, Any]]]] = {str(c): [] for c in Category}
    for declared in specs.SPECS:
        for chip in declared.chips:
            shown = {"spec": declared.key, "label": chip.label, "format": chip.format}
            chips[str(chip.category)].append((chip.place, shown))
    return {
        category: [shown for _, shown in sorted(found, key=lambda chip: chip[0])]
        for category, found in chips.items()
    }


def fold(token: str) -> str:
    """A word compared without case, possessive or plural: ``"Laptops"`` -> ``"laptop"``."""
    word = token.casefold().removesuffix("'s")
    if len(word) > 4 and word.endswith("ies"):
        return word[:-3] + "y"
    if len(word) > 4 and word.endswith(("sses", "xes", "ches", "shes")):
        return word[:-2]  # glasses, boxes, watches; but cases, houses lose their "s" alone
    if len(word) > 3 and word.endswith("s") and not word.endswith(("ss", "us", "is")):
        return word[:-1]
    return word


@functools.lru_cache(maxsize=4096)
def folded(text: str) -> tuple[str, ...]:
    """``text``'s words, folded: "Laptop Computers" -> ``("laptop", "computer")``.

    Cached: an import reads the same few category names on every product."""
    return tuple(fold(word) for word in WORD.findall(text.replace("&", " and ")))


def kinds() -> list[tuple[Spec, Kind]]:
    """Every kind of every spec that has them, in table order."""
    return [(s, k) for s in specs.SPECS if s.kinds is not None for k in s.kinds.values]


def sorted_on(order: str | None) -> tuple[Spec, ...]:
    """The specs a ``sortBy`` ranks by, either way ("weight_desc": the weight); none for a
    price, which every product has."""
    return tuple(
        s
        for s in specs.SPECS
        if s.sort is not None and order in (s.sort.name, s.sort.reverse and s.sort.reverse.name)
    )


def kind_named(spec: Spec, text: str) -> Kind | None:
    """The kind of ``spec`` that ``text`` names: a platform's category or product type
    ("Laptops", "Desktop Computers", "Gaming Notebooks"), a record's own word, singular
    or plural. The whole name decides first; else its last word ("Gaming Laptops")."""
    said = folded(text)
    if not said or spec.kinds is None:
        return None
    names = _kind_names(spec.kinds)
    return names.get(said) or names.get(said[-1:])


@functools.lru_cache(maxsize=16)
def _kind_names(kinds: Kinds) -> dict[tuple[str, ...], Kind]:
    # Keyed by the declaration itself, so a spec declared later has its own table.
    return {
        folded(name): kind
        for kind in kinds.values
        for name in (kind.value, *kind.words, *kind.also_named)
    }


def includes(spec: Spec, value: str) -> tuple[str, ...]:
    """The kinds a search for ``value`` finds: itself and the kinds it includes."""
    for kind in spec.kinds.values if spec.kinds else ():
        if kind.value == value:
            return (kind.value, *kind.includes)
    return (value,)
