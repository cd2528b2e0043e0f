"""The shop's words: categories, systems, uses and orders, each declared once for the
reading of a message and the writing of an answer.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Final

import registry
from shared.catalog.categories import Category
from shared.catalog.derive import kinds
from shared.catalog.spec import Spec
from shared.catalog.specs import CAMERA_MP, PRICE_SORT, RAM_GB, SPECS, WEIGHT_KG
from shared.search.intents import INTENTS
from shared.search.words import kinds_in, parse
from storechat.offline.store import store

COMPUTERS: Final[str] = Category.COMPUTERS
MOBILE: Final[str] = Category.MOBILE
BOOKS: Final[str] = Category.BOOKS

# The tools by the names the registry gives them, as the request offers them.
LOOKUP: Final = registry.INVENTORY_TOOL.name
REVIEWS: Final = registry.REVIEWS_TOOL.name
BOOK_INFO: Final = registry.BOOK_TOOL.name
POLICIES: Final = registry.POLICIES_TOOL.name

_I = re.IGNORECASE


def word_set(words: str) -> frozenset[str]:
    return frozenset(words.split())


def said_as(*phrases: str) -> re.Pattern[str]:
    """Any of ``phrases`` (regular expressions) standing as whole words, in any case."""
    return re.compile(r"\b(?:" + "|".join(phrases) + r")\b", _I)


def unique(values: Iterable[str]) -> tuple[str, ...]:
    return tuple(dict.fromkeys(values))


# Each system: what a shopper writes, the category it runs on, and how an answer spells it.
_SYSTEMS: Final[tuple[tuple[str, str, str, str], ...]] = (
    ("windows", r"\bwindows\b", COMPUTERS, "Windows"),
    ("macos", r"\b(?:mac ?os|os ?x|macs?|macbooks?|imacs?)\b", COMPUTERS, "macOS"),
    ("chromeos", r"\b(?:chrome ?os|chromebooks?)\b", COMPUTERS, "ChromeOS"),
    ("android", r"\bandroid\b", MOBILE, "Android"),
    ("ios", r"\b(?:ios|iphones?)\b", MOBILE, "iOS"),
)
_OS_RES: Final = tuple((name, re.compile(pattern, _I)) for name, pattern, _, _ in _SYSTEMS)
OS_CATEGORY: Final = {name: category for name, _, category, _ in _SYSTEMS}
OS_LABEL: Final = {name: label for name, _, _, label in _SYSTEMS}

# Each kind of product by its ``formFactor`` value: how an answer names such products.
FORM_PLURAL: Final = {kind.value: kind.plural for _, kind in kinds()}
_INCLUDES: Final = {kind.value: kind.includes for _, kind in kinds()}


def form_heads(forms: Iterable[str]) -> list[str]:
    """The kinds among ``forms`` without those they take in ("laptop" takes in 2-in-1s)."""
    forms = list(forms)
    return [f for f in forms if not any(f in _INCLUDES.get(g, ()) for g in forms if g != f)]


def by_sort(declared: Spec) -> str:
    """The ``sortBy`` that orders by ``declared``, which has one."""
    assert declared.sort is not None, declared.key
    return declared.sort.name


# Each use the search reads (``Intent.use``), as an answer names it, and the ``sortBy`` of
# the spec that matters most for it, in the order a message naming several is read by:
# "a light laptop for school" is a student's, "photo editing" editing.
_USES: Final = (
    ("student", "for a student", None),
    ("gaming", "for gaming", by_sort(RAM_GB)),
    ("editing", "for video editing", by_sort(RAM_GB)),
    ("programming", "for programming", by_sort(RAM_GB)),
    ("photos", "for photos", by_sort(CAMERA_MP)),
    ("travel", "for travel", by_sort(WEIGHT_KG)),
    ("work", "for work", by_sort(RAM_GB)),
    ("basic", "for everyday use", PRICE_SORT.name),
)
USE_PHRASE: Final = {use: phrase for use, phrase, _ in _USES}
USE_SORT: Final = {use: sort for use, _, sort in _USES if sort}


def use_in(text: str) -> str | None:
    """What ``text`` wants a product for, as the catalog search reads it."""
    uses = parse(text).uses
    return next((use for use in USE_PHRASE if use in uses), None)


# Each order a shopper can ask for, as the catalog tool has it (shared.catalog.specs), and
# how an answer announces it. Their reverses are read last, so that a reverse's words never
# take a question from an order read before.
_BY_SPEC: Final = tuple(dict.fromkeys(s.sort for s in SPECS if s.sort is not None))
_SORTS: Final = (
    *PRICE_SORT.both(),
    *_BY_SPEC,
    *(s.reverse for s in _BY_SPEC if s.reverse is not None),
)
SORT_PHRASE: Final = {s.name: s.step for s in _SORTS}
REVERSED: Final = {s.reverse.name: s.name for s in _BY_SPEC if s.reverse is not None}
"""Each spec's reverse order by the order it reverses: ``{"weight_desc": "weight", ...}``."""


# Genres: the catalog's own, and the words the search's phrase table reads as a genre.
_GENRE_PHRASES: Final = tuple(
    sorted(
        {p for i in INTENTS if i.category == BOOKS and i.terms for p in i.phrases},
        key=len,
        reverse=True,
    )
)


def genres_in(text: str) -> list[str]:
    """The genres ``text`` asks for, as search words: "classics" -> "classic"."""
    found: list[str] = []
    for genre in (*store().genres, *_GENRE_PHRASES):
        said = re.search(rf"(?<![\w-]){re.escape(genre)}s?(?![\w-])", text, _I)
        if said and not any(genre in f for f in found):
            found.append(genre)
    return found


def _kinds(text: str) -> list[tuple[str, tuple[str, ...]]]:
    """The kinds of product ``text`` names, as the search reads them, that the store sells."""
    return [(c, forms) for c, forms in kinds_in(text) if not forms or store().sells(forms[0])]


def _lines_in(text: str) -> list[tuple[str | None, str]]:
    """The brand and kind of each product line ``text`` names ("MacBooks")."""
    lines, words = store().lines, re.findall(r"[^\W_]+", text.casefold())
    return [line for w in words if (line := lines.get(w) or lines.get(w.removesuffix("s")))]


def categories_in(text: str) -> list[str]:
    masked = store().unbooked(text)
    found = [category for category, _ in _kinds(masked)]
    found += [kind for _, kind in _lines_in(masked)]
    return [category for category in Category if category in found]


def forms_in(text: str) -> list[str]:
    """The ``formFactor`` values of the kinds of computer ``text`` names."""
    kinds_said = _kinds(text)
    return list(unique(f for category, forms in kinds_said if category == COMPUTERS for f in forms))


def systems_in(text: str) -> list[str]:
    return [name for name, pattern in _OS_RES if pattern.search(text)]


def line_brands_in(text: str) -> list[str]:
    """The brands of the product lines ``text`` names that one brand makes ("a MacBook")."""
    return list(unique(brand for brand, _ in _lines_in(text) if brand))


def review_words(brand: str | None, phones: bool, gaming: bool) -> str:
    """A brand's kind asked of the review service: "Asus gaming laptop", "Samsung phone"."""
    noun = "phone" if phones else "laptop"
    return " ".join(part for part in (brand, "gaming" if gaming else None, noun) if part)


def only_order(phrase: str) -> bool:
    """Whether ``phrase`` says an order and nothing else ("the oldest")."""
    said = parse(phrase)
    return bool(said.sort and not (said.groups or said.category))
