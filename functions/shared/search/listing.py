"""What the store carries, in the catalog's own words, listed by the snapshot.

Built with the snapshot (:func:`build_listing`), so that a catalog is described the
moment it is indexed, whatever it holds: its categories, its brands, and the values
of every spec (authors, genres, operating systems, form factors, memory sizes...),
each with the number of products that have it, per category. Values are grouped
without regard to case ("macOS" and "MacOS" are one, spelt as most products spell
it); a list-valued spec counts each of its items. A spec whose values are nearly all
different (:data:`IDENTIFIER_SHARE`) is an identifier (ISBNs, barcodes), not a
vocabulary: its values are not kept, only how many there are. Titles are the products'
names, read from the products table.

:class:`Listing` reads it back: a few indexed rows per call, nothing loaded at open.
A format 1 snapshot has no listing (:attr:`Listing.available` is False).
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from shared.catalog.specs import AUTHOR, GENRE, OS
from shared.search.schema import Document, key_of

MIN_LISTED = 100
"""A spec with at most this many distinct values is always listed."""
IDENTIFIER_SHARE = 0.9
"""A spec with more distinct values than this share of its products (and over
:data:`MIN_LISTED`) is an identifier: an ISBN, a barcode, a model number."""
MAX_VALUE_CHARS = 200
BRAND = "brand"
"""The field of brands (spec fields are spec keys, folded by :func:`key_of`)."""

# The spec keys (folded) that name a book's author, its genre or subject, and a device's
# operating system, as catalogs write them.
AUTHOR_FIELDS = (AUTHOR.key, "authors", "writer")
GENRE_FIELDS = (GENRE.key, "genres", "subject", "subjects")
OS_FIELDS = (OS.key, "operatingsystem")
KIND_FIELDS = ("formfactor",)

LISTING_SCHEMA = """
CREATE TABLE listing (
    field TEXT NOT NULL,
    category TEXT NOT NULL,
    value NOT NULL,
    products INTEGER NOT NULL,
    PRIMARY KEY (field, category, value)
) WITHOUT ROWID;
CREATE TABLE listing_fields (
    field TEXT NOT NULL,
    category TEXT NOT NULL,
    name TEXT NOT NULL,
    products INTEGER NOT NULL,
    distinct_values INTEGER NOT NULL,
    listed INTEGER NOT NULL,
    PRIMARY KEY (field, category)
) WITHOUT ROWID;
"""

Value = str | int | float


def _values(value: Any) -> Iterator[Value]:
    """The listable values of one spec: a scalar, or each scalar of a list."""
    if isinstance(value, bool):
        yield "yes" if value else "no"
    elif isinstance(value, int | float):
        if math.isfinite(value):
            yield value
    elif isinstance(value, str):
        text = " ".join(value.split())[:MAX_VALUE_CHARS]
        if text:
            yield text
    elif isinstance(value, list | tuple):
        for item in value[:50]:
            if not isinstance(item, list | tuple):
                yield from _values(item)


def _group(value: Value) -> Value:
    return value.casefold() if isinstance(value, str) else value


@dataclass
class _Field:
    names: Counter[str] = field(default_factory=Counter)
    """The key's spellings: ``{"author": 25, "Author": 1}``."""
    products: int = 0
    values: dict[Value, dict[Value, int]] = field(default_factory=dict)
    """Each value (grouped without case) and its spellings, with their products."""


_SCALARS = (str, int, float, bool)


def _fields(docs: Sequence[Document]) -> dict[tuple[str, str], _Field]:
    """Every (field, category) of ``docs``: its key spellings, products and values.

    The products are counted by (category, key as written, value as written) first: a
    catalog repeats both, so the folding and grouping run once per distinct value.
    """
    written: Counter[tuple[str, str | None, Any]] = Counter()
    for doc in docs:
        category = doc.category
        written[(category, None, doc.brand)] += 1
        for name, value in doc.specs.items():
            kind = type(value)
            if kind is list or kind is tuple:
                value = tuple(dict.fromkeys(v for v in value[:50] if type(v) in _SCALARS))
            elif kind not in _SCALARS:
                continue
            written[(category, name, value)] += 1
    fields: dict[tuple[str, str], _Field] = {}
    keys: dict[str, str] = {}
    for (category, spec, as_written), products in written.items():
        found = list(dict.fromkeys(_values(as_written)))
        key = BRAND if spec is None else keys.setdefault(spec, key_of(str(spec)))
        if not key or not found:
            continue
        entry = fields.setdefault((key, category), _Field())
        entry.names[str(spec or BRAND)] += products
        entry.products += products
        for item in found:
            spellings = entry.values.setdefault(_group(item), {})
            spellings[item] = spellings.get(item, 0) + products
    return fields


def _most_common(spellings: dict[Value, int]) -> Value:
    return max(spellings.items(), key=lambda kv: kv[1])[0]


def build_listing(db: Any, docs: Sequence[Document]) -> int:
    """Fill ``listing`` and ``listing_fields`` (of :data:`LISTING_SCHEMA`) from ``docs``;
    the number of values listed."""
    listed = 0
    for (key, category), entry in _fields(docs).items():
        distinct = len(entry.values)
        keep = distinct <= MIN_LISTED or distinct < IDENTIFIER_SHARE * entry.products
        name = entry.names.most_common(1)[0][0]
        db.execute(
            "INSERT INTO listing_fields VALUES (?, ?, ?, ?, ?, ?)",
            (key, category, name, entry.products, len(entry.values), int(keep)),
        )
        if not keep:
            continue
        db.executemany(
            "INSERT INTO listing VALUES (?, ?, ?, ?)",
            (
                (key, category, _most_common(spellings), sum(spellings.values()))
                for spellings in entry.values.values()
            ),
        )
        listed += len(entry.values)
    return listed


@dataclass(frozen=True)
class Field:
    """A field of the catalog: ``brand`` or a spec, in one category or all of them."""

    field: str
    """``brand``, or the spec key folded: ``author``, ``ramgb``, ``formfactor``."""
    name: str
    """The key as the catalog writes it most often: ``author``, ``ramGb``."""
    products: int
    distinct_values: int
    """Of every category when the field is asked for all of them; of an identifier not
    listed, the sum of each category's."""
    listed: bool
    """False for identifiers (ISBNs...): too many values to list."""


class Listing:
    """The catalog's words of one snapshot; ``connection`` gives the calling thread's."""

    def __init__(self, connection: Callable[[], Any], *, available: bool) -> None:
        self._connection = connection
        self.available = available

    def categories(self) -> dict[str, int]:
        """Every category and how many products it has."""
        rows = self._connection().execute(
            "SELECT category, products FROM category_facets WHERE facet = '*' ORDER BY category"
        )
        return {str(category): int(count) for category, count in rows}

    def brands(self, category: str | None = None) -> dict[str, int]:
        return self.values(BRAND, category)

    def authors(self) -> dict[str, int]:
        return self._merged(AUTHOR_FIELDS, None)

    def genres(self) -> dict[str, int]:
        return self._merged(GENRE_FIELDS, None)

    def operating_systems(self, category: str | None = None) -> dict[str, int]:
        return self._merged(OS_FIELDS, category)

    def kinds(self) -> dict[str, dict[str, int]]:
        """Each category and the kinds (form factors) of its products, if its specs say."""
        return {category: self._merged(KIND_FIELDS, category) for category in self.categories()}

    def titles(self, category: str | None = None) -> list[str]:
        """The products' names, sorted (every product: the one listing as long as the
        catalog)."""
        where, params = ("WHERE category = ?", [category]) if category else ("", [])
        rows = self._connection().execute(
            f"SELECT DISTINCT name FROM products {where} ORDER BY name", params
        )
        return [str(name) for (name,) in rows]

    def fields(self, category: str | None = None) -> list[Field]:
        """The fields of ``category`` (every category, merged, when None), most used first."""
        if not self.available:
            return []
        where, params = ("WHERE category = ?", [category]) if category else ("", [])
        merged: dict[str, list[Any]] = {}
        for key, name, products, distinct, listed in self._connection().execute(
            "SELECT field, name, products, distinct_values, listed FROM listing_fields"
            f" {where} ORDER BY products DESC, field",
            params,
        ):
            entry = merged.setdefault(str(key), [str(name), 0, 0, True])
            entry[1] += int(products)
            entry[2] += int(distinct)
            entry[3] = entry[3] and bool(listed)
        if category is None:
            # A value in two categories ("Apple") is one value of the catalog.
            seen: dict[str, set[Value]] = {}
            for key, value in self._connection().execute("SELECT field, value FROM listing"):
                seen.setdefault(str(key), set()).add(_group(value))
            for key, entry in merged.items():
                if entry[3]:
                    entry[2] = len(seen.get(key, ()))
        return sorted(
            (Field(key, *values) for key, values in merged.items()),
            key=lambda f: (-f.products, f.field),
        )

    def values(self, field: str, category: str | None = None) -> dict[str, int]:
        """The values of ``field`` (``brand``, or a spec key as any catalog writes it:
        ``"RAM GB"`` is ``ramgb``) with the products that have each, most common first."""
        return self._merged((key_of(field),), category)

    def _merged(self, fields: Sequence[str], category: str | None) -> dict[str, int]:
        if not self.available:
            return {}
        where = f"field IN ({', '.join('?' * len(fields))})"
        params: list[Any] = list(fields)
        if category:
            where += " AND category = ?"
            params.append(category)
        counts: Counter[Value] = Counter()
        spelling: dict[Value, Counter[Value]] = {}
        for value, products in self._connection().execute(
            f"SELECT value, products FROM listing WHERE {where}", params
        ):
            counts[_group(value)] += int(products)
            spelling.setdefault(_group(value), Counter())[value] += int(products)
        ordered = sorted(counts.items(), key=lambda kv: (-kv[1], str(kv[0])))
        return {_text(spelling[key].most_common(1)[0][0]): count for key, count in ordered}

    def summary(self, *, top: int = 20) -> dict[str, Any]:
        """The listing at a glance: categories, kinds, brands, authors, genres, operating
        systems (the ``top`` most common of each) and every field with its size."""
        return {
            "categories": self.categories(),
            "kinds": self.kinds(),
            "brands": _first(self.brands(), top),
            "authors": _first(self.authors(), top),
            "genres": _first(self.genres(), top),
            "operatingSystems": _first(self.operating_systems(), top),
            "fields": {
                f.name: {"products": f.products, "values": f.distinct_values, "listed": f.listed}
                for f in self.fields()
            },
        }


def _text(value: Value) -> str:
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


def _first(counts: Mapping[str, int], top: int) -> dict[str, int]:
    return dict(list(counts.items())[:top])
