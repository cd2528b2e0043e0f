"""What a store platform's words mean in this catalog: its categories and its options.

Two tables, each declared once, for every platform:

* :data:`DEFAULT_CATEGORIES`: category names (a taxonomy path's segments, a product
  type, a store's own category) and the catalog category each means, or ``None`` for
  what the catalog does not sell (gift cards, accessories, merchandise). The operator
  extends or overrides it with ``--category-map FILE`` (``storechat.catalog.mapping``).
* :data:`SPEC_NAMES`: option and attribute names ("Storage", "RAM", "Operating
  system", "Author") and the catalog spec key each becomes. A value of a spec that
  the search keeps as a number (memory, storage, weight, screen, ...) is converted to
  the number in that spec's unit by the search's own parser, so "1 TB" is
  ``storageGb: 1024`` exactly as the index would read it.

Names are compared without case, punctuation, spacing or plural, and "&" is "and":
``"Mobile & Smart Phones"`` is ``"mobile and smart phone"``, "Phone" is "Phones".

A computer's kind (laptop, desktop, all-in-one, tablet: ``FORM_FACTOR``'s kinds in the
catalog's vocabulary) is read from the same names (:func:`kind_of`), and each kind's names
are also names of its category: "Laptop Computers" is COMPUTERS.
"""

from __future__ import annotations

import html
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from shared.catalog.categories import Category
from shared.catalog.derive import folded, kind_named, kinds
from shared.catalog.specs import AUTHOR, FORM_FACTOR, GENRE, PAGES, SPECS
from shared.search.schema import facet_value

PATH_SEPARATOR = ">"

DEFAULT_CATEGORIES: dict[Category | None, tuple[str, ...]] = {
    Category.COMPUTERS: (
        "Computers", "PCs", "Personal Computers", "Gaming Laptops", "Workstations",
        # and every kind's names (FORM_FACTOR's kinds): laptops, desktops, tablets, ...
    ),
    Category.MOBILE: (
        "Mobile & Smart Phones", "Mobile Phones", "Smartphones", "Smart Phones", "Cell Phones",
        "Cellphones", "Phones", "Mobile", "Mobile Phone", "Telephony",
    ),
    Category.BOOKS: ("Books", "Book", "Print Books", "E-books", "Audiobooks"),
    None: (
        "Gift Cards", "Gift Card", "Gift Certificates", "Accessories", "Electronics Accessories",
        "Computer Accessories", "Computer Components", "Laptop Accessories",
        "Mobile Phone Accessories", "Mobile & Smart Phone Accessories", "Phone Accessories",
        "Phone Cases", "Cases", "Covers", "Cases & Covers", "Screen Protectors", "Bags",
        "Laptop Bags", "Sleeves", "Chargers", "Cables", "Adapters", "Power Banks", "Docks",
        "Docking Stations", "Stands", "Peripherals", "Computer Peripherals", "Keyboards", "Mice",
        "Monitors", "Printers", "Headphones", "Earbuds", "Speakers", "Smartwatches", "Wearables",
        "Memory Cards", "Tablet Accessories", "Book Accessories", "Bookmarks", "Software",
        "Merchandise", "Merch", "Apparel & Accessories", "Clothing", "Toys", "Stationery",
    ),
}  # fmt: skip
"""Each catalog category (``None``: not sold here) with the names that mean it."""

SPEC_NAMES: dict[str, tuple[str, ...]] = {spec.key: spec.names for spec in SPECS if spec.names}
"""Each catalog spec key with the option and attribute names that mean it."""

BRAND_NAMES = ("Brand", "Manufacturer", "Publisher")
"""Attributes that name the brand when the export's own brand column is empty."""

SHELF_NAMES = (
    "Paperback", "Paperbacks", "Softcover", "Hardcover", "Hardback", "Mass Market",
    "Mass Market Paperback", "Trade Paperback", "Large Print", "Ebook", "Kindle", "Audio",
    "Audio Books", "Box Sets", "Boxed Sets", "Bestsellers", "Best Sellers", "Top Sellers",
    "New", "New Arrivals", "New Releases", "New In", "Just In", "Coming Soon", "Pre-order",
    "Preorder", "Sale", "On Sale", "Clearance", "Bargains", "Deals", "Offers", "Featured",
    "Staff Picks", "Recommended", "Popular", "Signed", "Signed Copies", "Used", "Used Books",
    "Second Hand", "Secondhand", "Pre-owned", "Rare", "Collectible", "Gifts", "Gift Ideas",
    "All", "All Books", "Other", "Others", "Misc", "Miscellaneous", "Uncategorized",
    "Uncategorised", "General",
)  # fmt: skip
"""Names a store files books under below its books category that say no genre: a
binding, or a shelf of the shop's own (new, on sale, signed)."""

BRANCH_NAMES = (
    "Author", "Authors", "By Author", "Authors A-Z", "Series", "By Series", "Publisher",
    "Publishers", "By Publisher", "Imprint", "Imprints", "By Imprint", "Language",
    "Languages", "By Language", "Format", "Formats", "By Format", "Age", "Ages", "By Age",
    "Age Range", "Age Group", "By Age Group", "Brand", "Brands", "By Brand",
)  # fmt: skip
"""Names of a branch below books that files them by something other than genre: every
name below "Books > Authors" is an author, below "Books > By Publisher" a publisher."""

_NO_GENRE = re.compile(
    r"""\bseries$
    | ^(?:ages?\s*)?\d+\s*(?:\+|(?:-|\u2013|\u2014|to)\s*\d+)?\s*(?:\+|years?|yrs?|months?|y/?o)?
      (?:\s*old)?\s*\+?$""",
    re.IGNORECASE | re.VERBOSE,
)
"""A name that is a series ("Dune Series") or an age range ("Ages 8-12", "0-3 years",
"Age 5+") and so no genre: the genre is a name above it."""

WHOLE_NUMBERS = frozenset({PAGES.key})
"""Specs that are a count without a unit (the search has no facet for them)."""


def name_key(name: str) -> str:
    """A name compared without case, punctuation, spacing or plural: "Mobile & Smart
    Phones" -> "mobileandsmartphone"."""
    return re.sub(r"[^0-9a-z]", "", "".join(folded(name)))


def _keys(table: Mapping[Any, Iterable[str]]) -> dict[str, Any]:
    return {name_key(name): value for value, names in table.items() for name in names}


def _kind_names() -> dict[Category | None, tuple[str, ...]]:
    names: dict[Category | None, tuple[str, ...]] = {}
    for _, kind in kinds():
        names[kind.category] = (*names.get(kind.category, ()), *kind.words, *kind.also_named)
    return names


_SPEC_BY_NAME: dict[str, str] = _keys(SPEC_NAMES)
_BRAND_KEYS = frozenset(name_key(name) for name in BRAND_NAMES)
_SHELF_KEYS = frozenset(name_key(name) for name in SHELF_NAMES)
_BRANCH_KEYS = frozenset(name_key(name) for name in BRANCH_NAMES)


# -- categories -------------------------------------------------------------------------


@dataclass(frozen=True)
class CategoryMatch:
    path: str
    rule: str | None
    """The name that decided (None: no name of the path is known)."""
    category: str | None
    """The catalog category, or None when the rule says the catalog does not sell it."""


@dataclass(frozen=True)
class Decision:
    category: str | None
    path: str | None
    """The product's category (or type) that decided."""
    reason: str = ""
    """Why there is no category, in words that follow "skipped: "."""


def path_segments(path: str) -> list[str]:
    return [segment.strip() for segment in path.split(PATH_SEPARATOR) if segment.strip()]


class CategoryMap:
    """Names to catalog categories: the operator's entries over the defaults.

    A key is one name ("Laptops") or a path's last segments ("Computers > Laptops").
    A product's path is read from its most specific segment up: the first segment
    some key ends at decides, the longest such key first, so "Electronics >
    Electronics Accessories > Laptop Bags" stops at "Electronics Accessories" (none)
    before it could reach a more general name above.
    """

    def __init__(self, extra: Mapping[str, str | None] | None = None) -> None:
        defaults = {**_keys(_kind_names()), **_keys(DEFAULT_CATEGORIES)}
        self._rules: dict[tuple[str, ...], str | None] = {
            (key,): category for key, category in defaults.items()
        }
        for name, category in (extra or {}).items():
            key = tuple(name_key(segment) for segment in path_segments(name))
            if key:
                self._rules[key] = category
        self._longest = max(len(key) for key in self._rules)

    def _rule_at(self, segments: Sequence[str], end: int) -> tuple[int, str | None] | None:
        """The longest key that ends at ``segments[end - 1]``: its size and category."""
        for size in range(min(end, self._longest), 0, -1):
            key = tuple(segments[end - size : end])
            if key in self._rules:
                return size, self._rules[key]
        return None

    def match(self, path: str) -> CategoryMatch:
        names = path_segments(path)
        segments = [name_key(segment) for segment in names]
        for end in range(len(segments), 0, -1):
            found = self._rule_at(segments, end)
            if found is not None:
                rule = " > ".join(names[end - found[0] : end])
                return CategoryMatch(path, rule, found[1])
            # "Laptop Sleeves", "iPad Cases": a name the table lacks whose last word is
            # something the catalog does not sell is that, before "Computers" above it
            # decides. Not the other way: "Paper Notebooks" is no computer.
            words = folded(names[end - 1])
            last = (words[-1],) if len(words) > 1 else None
            if last in self._rules and self._rules[last] is None:
                return CategoryMatch(path, names[end - 1], None)
        return CategoryMatch(path, None, None)

    def genre(self, paths: Sequence[str]) -> str | None:
        """A book's genre as its category paths file it: the deepest name below the first
        name this map reads as books ("Books > Fiction > Science Fiction" is "Science
        Fiction"; "Livres > Polar" is "Polar" where the operator maps "Livres" to books),
        of the path with the most such names. A name the map itself knows ("Media > Books > Print
        Books") and a shelf that is no genre (a binding, "Bestsellers", "Sale") are none;
        so is a path that files no book. A branch by author, series, publisher, language,
        format, age or brand ("Books > Authors > Frank Herbert") names no genre below it,
        and a series or an age range ("Dune Series", "Ages 8-12") is passed over for the
        name above it. None when no path names one.
        """
        best: list[str] = []
        for path in paths:
            names = path_segments(path)
            if self.match(path).category != Category.BOOKS:
                continue
            segments = [name_key(name) for name in names]
            top = next(
                (
                    end
                    for end in range(1, len(segments) + 1)
                    if (found := self._rule_at(segments, end)) and found[1] == Category.BOOKS
                ),
                len(segments),
            )
            below: list[str] = []
            for name, key in zip(names[top:], segments[top:], strict=True):
                if key in _BRANCH_KEYS:
                    break  # "Books > Authors > Frank Herbert": no genre below it
                if (
                    key
                    and key not in _SHELF_KEYS
                    and self._rule_at([key], 1) is None
                    and not _NO_GENRE.search(" ".join(html.unescape(name).split()))
                ):
                    below.append(name)
            if len(below) > len(best):
                best = below
        return " ".join(html.unescape(best[-1]).split()) if best else None

    def decide(self, paths: Sequence[str]) -> Decision:
        """The catalog category of a product filed under ``paths`` (in order), or why none.

        A path that maps to none (an accessory, a gift card) rules the product out even
        when another maps to a category: a laptop sleeve is often also under "Laptops".
        """
        matches = [self.match(path) for path in paths if path.strip()]
        for found in matches:
            if found.rule is not None and found.category is None:
                return Decision(
                    None, found.path, f"in {found.path!r}, which maps to no catalog category"
                )
        for found in matches:
            if found.category is not None:
                return Decision(found.category, found.path)
        if not matches:
            return Decision(None, None, "no category or type (--category-map cannot place it)")
        named = " or ".join(repr(found.path) for found in matches)
        return Decision(
            None, None, f"in {named}, not one of the catalog's categories (--category-map adds it)"
        )


def kind_of(paths: Sequence[str], category: str) -> str | None:
    """The kind of computer (``FORM_FACTOR``'s value) a product filed under ``paths`` is:
    the most specific name of its first path that names one ("Electronics > Computers >
    Laptops" is a laptop), then its other paths (the product type). None when no name
    says, or the kind is not of ``category``."""
    for path in paths:
        for segment in reversed(path_segments(path)):
            kind = kind_named(FORM_FACTOR, segment)
            if kind is not None:
                return kind.value if kind.category == category else None
    return None


# -- specs ------------------------------------------------------------------------------


def spec_key(name: str) -> str | None:
    """The catalog spec an option or attribute named ``name`` is, if it is one."""
    return _SPEC_BY_NAME.get(name_key(name))


def is_brand(name: str) -> bool:
    return name_key(name) in _BRAND_KEYS


def names_maker(name: str) -> bool:
    """Whether a store's own field or a tag's prefix named ``name`` says who made the
    product: a brand name (Brand, Manufacturer, Publisher) or an author's ("Author",
    "book_author", "Writer")."""
    return is_brand(name) or spec_key(name) == AUTHOR.key


_TAG_FIELD = re.compile(r"([^:_]{2,40}?)\s*(?::\s*(\S.*)|_(\S.*))")


def maker_tag(tag: str) -> tuple[str, str] | None:
    """A tag that names the maker, as an attribute's name and value: "Author: Frank
    Herbert", "Author_Frank Herbert" (the prefix Shopify themes group tags by), "Publisher:
    Ace"; None for any other tag. In either form a maker's name begins with a capital or a
    digit: "brand_new", "brand: new", "Brand: sale" say no brand."""
    match = _TAG_FIELD.fullmatch(tag.strip())
    if match is None or not names_maker(match[1]):
        return None
    value = (match[2] or match[3]).strip()
    if not (value[0].isupper() or value[0].isdigit()):
        return None
    return match[1].strip(), value


def genre_tag(tag: str) -> str | None:
    """The genre a tag names as a field and its value: "Genre: Science Fiction", "Genre_Science
    Fiction" (a Shopify theme's tag group), "Book Genre: Fantasy"; None for any other tag."""
    match = _TAG_FIELD.fullmatch(tag.strip())
    if match is None or spec_key(match[1]) != GENRE.key:
        return None
    return " ".join((match[2] or match[3]).split())


def own_key(name: str) -> str | None:
    """A spec key for an option the catalog does not declare: "Screen Protector" ->
    "screenProtector" (None when the name has no letters to make one of)."""
    words = re.findall(r"[A-Za-z0-9]+", name)
    if not words or not words[0][0].isalpha():
        return None
    key = words[0].lower() + "".join(word[:1].upper() + word[1:].lower() for word in words[1:])
    return key[:64]


def _camel(column: str) -> str:
    head, *rest = column.split("_")
    return head + "".join(word.capitalize() for word in rest)


NUMERIC_SPECS = frozenset(
    key for key in SPEC_NAMES if any(facet_value(key, probe) for probe in ("1", "2000"))
)
"""The specs the search keeps as numbers (its facets), found by asking its own parser."""


def spec_entry(name: str, text: str) -> tuple[str, Any] | None:
    """The spec an option or attribute ``name: text`` becomes, or None when it cannot.

    A catalog spec the search keeps as a number takes the number in that spec's unit
    ("1 TB" -> ``("storageGb", 1024)``), and the key the number's own unit implies
    ("Battery: 18 hours" is ``batteryHours``). A value with no such number, and any
    option the catalog does not declare, stays text under a key made of its name.
    """
    key = spec_key(name)
    if key is not None and key in NUMERIC_SPECS:
        found = facet_value(key, text)
        if found is not None:
            number = found[1]
            return _camel(found[0]), int(number) if number == int(number) else number
        key = None
    elif key is not None and key in WHOLE_NUMBERS:
        digits = re.fullmatch(r"\s*(\d{1,6})\b.*", text)
        if digits:
            return key, int(digits[1])
        key = None
    key = key or own_key(name)
    return (key, text) if key else None
