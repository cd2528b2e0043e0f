"""What the store carries, read from the listing of the catalog being served, and the
shop's words: categories, systems, uses and orders, each declared once for the reading
of a message and the writing of an answer.

Every brand, line, title, author and genre the model knows is the catalog's own, so a
catalog imported a moment ago is understood at once. A product line is the word after
its brand in a name ("Dell **XPS** 13"), or a name's first word when it does not start
with its brand ("**Alienware** m16"). Each request reads its own :class:`Store`
(:func:`serving`, a context variable for concurrent requests); without one, the bundled
catalog's.
"""

from __future__ import annotations

import functools
import re
import threading
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable, Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from itertools import islice
from typing import Any, Final

import registry
from shared.catalog.categories import Category
from shared.catalog.derive import kinds
from shared.catalog.spec import Spec
from shared.catalog.specs import (
    AUTHOR,
    FORM_FACTOR,
    GENRE,
    PRICE_SORT,
    SPECS,
)
from shared.search.intents import INTENTS, STOP_WORDS
from shared.search.listing import Listing
from shared.search.series import name_words
from shared.search.words import fold, kinds_in, parse, parser_words

BOOKS: Final[str] = Category.BOOKS
_WORD = re.compile(r"[^\W_]+(?:['.\-][^\W_]+)*")
_CAMEL = re.compile(r"(?<=[a-z])(?=[A-Z])")


@dataclass(frozen=True)
class Title:
    """A product's name as the catalog writes it, its category and (if it says) brand."""

    name: str
    category: str
    brand: str | None


def _brand_pattern(brand: str) -> str:
    # "HarperCollins" is also written "Harper Collins", "OnePlus" "One Plus"; "Penguin
    # Books" is "Penguin" to most.
    first, _, rest = brand.strip().partition(" ")
    parts = [re.escape(p) for p in _CAMEL.split(first) if p]
    pattern = r"\s?".join(parts)
    if not rest:
        return pattern
    tail = r"\s+" + r"\s+".join(re.escape(w) for w in rest.split())
    shortened = len(first) > 3 and first.casefold() not in parser_words()
    return pattern + (f"(?:{tail})?" if shortened else tail)


def _only_kind(word: str) -> bool:
    """Whether the search reads ``word`` as a kind of product and nothing more."""
    meant = parse(word)
    return bool(meant.category or meant.forms) and not meant.groups


def _words(text: str) -> list[str]:
    return [w.casefold() for w in _WORD.findall(text)]


def _says(folded: str, words: str, shortest: int = 0) -> bool:
    """Whether ``folded`` (lower-case words, one space apart) holds ``words`` whole, which
    have at least ``shortest`` characters."""
    return len(words) >= shortest and bool(re.search(rf"(?<!\w){re.escape(words)}(?!\w)", folded))


class Store:
    """The brands, lines, titles, authors and genres of one catalog."""

    def __init__(
        self,
        brands: Mapping[str, Iterable[str]],
        titles: Iterable[Title],
        authors: Iterable[str] = (),
        genres: Iterable[str] = (),
        kinds: Iterable[str] = (),
    ) -> None:
        """``kinds``: the catalog's form factors ("laptop", "tablet")."""
        self.brand_categories: dict[str, frozenset[str]] = {
            brand: frozenset(categories) for brand, categories in brands.items()
        }
        self.titles: tuple[Title, ...] = tuple(titles)
        self.authors: tuple[str, ...] = tuple(authors)
        self.genres: tuple[str, ...] = tuple(dict.fromkeys(g.casefold() for g in genres))
        self.publishers = frozenset(
            b for b, cats in self.brand_categories.items() if cats == {BOOKS}
        )
        ordered = sorted(self.brand_categories, key=len, reverse=True)
        self._brand_res = [
            (brand, re.compile(rf"(?<![^\W_]){_brand_pattern(brand)}(?![^\W_])", re.I))
            for brand in ordered
        ]
        self.lines = self._lines()
        said = (*self.brand_categories, *self.authors, *self.genres, *(t.name for t in self.titles))
        self._known = frozenset(self.lines).union(*map(_words, said))
        self._book_names = self._named_books()
        self._name_words = [(t, frozenset(name_words(t.name, brackets=True))) for t in self.titles]
        self._sold = frozenset(fold(k) for k in kinds) | frozenset(
            fold(word) for t in self.titles if t.category != BOOKS for word in _words(t.name)
        )

    def _lines(self) -> dict[str, tuple[str | None, str]]:
        """Each product line (a lower-case word): its brand (None when several make it) and
        the category most of its products are in."""
        brands: dict[str, set[str | None]] = defaultdict(set)
        categories: dict[str, Counter[str]] = defaultdict(Counter)
        for title in self.titles:
            if title.category == BOOKS:
                continue
            words = _words(title.name)
            brand_words = _words(title.brand) if title.brand else []
            rest = words[len(brand_words) :] if words[: len(brand_words)] == brand_words else words
            if rest and rest[0].isalpha() and len(rest[0]) > 1:
                brands[rest[0]].add(title.brand)
                categories[rest[0]][title.category] += 1
        ignored = STOP_WORDS | frozenset(b.casefold() for b in self.brand_categories)
        # "Framework Laptop 13": "laptop" names a kind, not a line ("iPhone" does both).
        ignored |= frozenset(w for w in brands if _only_kind(w))
        kept = {
            line: (
                next(iter(owners)) if len(owners) == 1 else None,
                categories[line].most_common(1)[0][0],
            )
            for line, owners in brands.items()
            if line not in ignored
        }
        # "Honor Magic 6": "magic" alone asks for books, as the search reads it.
        return {line: kept[line] for line in kept if parse(line).category in (None, kept[line][1])}

    def _named_books(self) -> re.Pattern[str] | None:
        """The words of names of other things than books with "book" in them ("MacBook",
        "Galaxy Book4"), which must not read as a request for books."""
        phrases: set[str] = set()
        for title in self.titles:
            if title.category == BOOKS:
                continue
            words = _words(title.name)
            for i, word in enumerate(words):
                if "book" in word and word.rstrip("0123456789") not in ("book", "books"):
                    phrases.add(re.escape(word.rstrip("0123456789")))
                elif word.startswith("book") and i:
                    phrases.add(re.escape(words[i - 1]) + r"\s*book")
        if not phrases:
            return None
        return re.compile(r"(?<![^\W_])(?:" + "|".join(sorted(phrases)) + r")\w*", re.I)

    def unbooked(self, text: str) -> str:
        """``text`` with such names as "a computer" (see :meth:`_named_books`)."""
        return self._book_names.sub(" computer ", text) if self._book_names else text

    def brands_in(self, text: str) -> list[str]:
        """The catalog's brands ``text`` names, longest names first."""
        found: list[str] = []
        for brand, pattern in self._brand_res:
            if pattern.search(text) and not any(brand.casefold() in f.casefold() for f in found):
                found.append(brand)
        return found

    def unbranded(self, text: str) -> str:
        """``text`` without the brands it names and the lines one brand makes, each said as
        the form the search reads in it ("Samsung Galaxy phones": "phones", "MacBooks":
        "laptop"; "Chromebooks" stay)."""
        for _, pattern in self._brand_res:
            text = pattern.sub(" ", text)

        def unlined(word: re.Match[str]) -> str:
            said = word[0].casefold()
            brand, _ = self.lines.get(said) or self.lines.get(said.removesuffix("s")) or (None, "")
            return f" {' '.join(parse(said).forms[:1])} " if brand else word[0]

        return re.sub(r"[^\W_]+", unlined, text)

    def has_name(self, phrase: str, *, books: bool = True, category: str | None = None) -> bool:
        """Whether a product's name (not a book's, unless ``books``; of ``category``, if
        given) has every word of ``phrase``, as the catalog search asks it."""
        return self.titled(phrase, books=books, category=category) is not None

    def titled(
        self, phrase: str, *, books: bool = True, category: str | None = None
    ) -> Title | None:
        """The first product whose name has every word of ``phrase``."""
        return next(
            (
                t
                for t in self._having(phrase)
                if (books or t.category != BOOKS) and category in (None, t.category)
            ),
            None,
        )

    def _having(self, phrase: str) -> Iterator[Title]:
        """The products whose names have every word of ``phrase``, in the catalog's order."""
        wanted = set(name_words(phrase, brackets=True))
        return (t for t, words in self._name_words if wanted and wanted <= words)

    def names_with(self, word: str, most: int) -> list[tuple[str, str | None]]:
        """The names and brands of the first ``most`` products whose names have ``word``."""
        return [(t.name, t.brand) for t in islice(self._having(word), most)]

    def kinds_named(self, word: str) -> frozenset[str]:
        """The categories of the products, books aside, with ``word`` in their names."""
        return frozenset(t.category for t in self._having(word)) - {BOOKS}

    def is_brand(self, word: str) -> bool:
        return any(pattern.fullmatch(word) for _, pattern in self._brand_res)

    def sells(self, phrase: str) -> bool:
        """Whether a word of ``phrase`` is a form factor of the catalog's or in the name of
        a product of it that is not a book ("tablets", "iPad")."""
        return any(fold(w) in self._sold for w in _words(phrase) if w not in STOP_WORDS)

    def knows(self, word: str) -> bool:
        """Whether ``word`` is a brand's, a line's, a title's, an author's or a genre's."""
        return word.casefold() in self._known

    def titles_in(self, text: str, category: str | None = None) -> list[Title]:
        """The catalog's titles ``text`` names in full, longest first ("Circe",
        "Harry Potter and the Deathly Hallows"); a title of one short word must be
        written with its capital, so that "dune" in a sentence is not read as one."""
        folded = " ".join(_words(text))
        found: list[Title] = []
        for title in sorted(self.titles, key=lambda t: len(t.name), reverse=True):
            if category and title.category != category:
                continue
            words = " ".join(_words(title.name))
            if not _says(folded, words, 4):
                continue
            if " " not in words and title.name not in text:
                continue
            if not any(words in " ".join(_words(f.name)) for f in found):
                found.append(title)
        return found

    def unnamed(self, text: str) -> str:
        """``text`` without the names of the products it names in full, books aside: a
        product named (or by its id, read as its name) is no wish for the specs its name
        says ("Galaxy A15 - 128 GB / Blue Black" asks for no 128 GB)."""
        for title in self.titles_in(text):
            if title.category != BOOKS:
                words = r"[\W_]+".join(re.escape(w) for w in _WORD.findall(title.name))
                text = re.sub(rf"(?<![^\W_]){words}(?![^\W_])", " ", text, flags=re.I)
        return text

    def authors_in(self, text: str) -> list[str]:
        """The authors ``text`` names, by full name or by a surname of four letters or more."""
        folded = " ".join(_words(text))
        said = ((author, _words(author)) for author in self.authors)
        return [
            author
            for author, names in said
            if names and (_says(folded, " ".join(names)) or _says(folded, names[-1], 4))
        ]

    @classmethod
    def of_listing(cls, listing: Listing) -> Store:
        brands: dict[str, set[str]] = defaultdict(set)
        titles: list[Title] = []
        for category in listing.categories():
            carried = sorted(listing.brands(category), key=len, reverse=True)
            for brand in carried:
                brands[brand].add(category)
            for name in listing.titles(category):
                owner = next(
                    (b for b in carried if name.casefold().startswith(b.casefold() + " ")), None
                )
                titles.append(Title(name, category, owner))
        kinds = (kind for found in listing.kinds().values() for kind in found)
        return cls(brands, titles, listing.authors(), listing.genres(), kinds)

    @classmethod
    def of_products(cls, products: Iterable[Mapping[str, Any]]) -> Store:
        brands: dict[str, set[str]] = defaultdict(set)
        titles, authors, genres, kinds = [], [], [], []
        for product in products:
            brands[str(product["brand"])].add(str(product["category"]))
            titles.append(Title(str(product["name"]), str(product["category"]), product["brand"]))
            specs = product.get("specs") or {}
            authors += [str(specs[AUTHOR.key])] if specs.get(AUTHOR.key) else []
            genres += [str(specs[GENRE.key])] if specs.get(GENRE.key) else []
            kinds += [str(specs[FORM_FACTOR.key])] if specs.get(FORM_FACTOR.key) else []
        return cls(brands, titles, dict.fromkeys(authors), genres, kinds)


@functools.lru_cache(maxsize=4)
def store_of(listing: Listing) -> Store:
    """The store one snapshot's listing describes, built once per snapshot."""
    return Store.of_listing(listing)


_BUNDLED_LOCK = threading.Lock()


@functools.cache
def _bundled() -> Store:
    from shared.products.catalog_data import load_catalog

    with _BUNDLED_LOCK:
        return Store.of_products(load_catalog())


_SERVING: ContextVar[Store | None] = ContextVar("storechat_offline_store", default=None)


def store() -> Store:
    """The store the current request is served from."""
    return _SERVING.get() or _bundled()


@contextmanager
def serving(source: Callable[[], Store] | None) -> Iterator[None]:
    """Serve the request being answered from ``source``'s store (the bundled one if None)."""
    token = _SERVING.set(source() if source else None)
    try:
        yield
    finally:
        _SERVING.reset(token)


COMPUTERS: Final[str] = Category.COMPUTERS
MOBILE: Final[str] = Category.MOBILE

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


# Each use the search reads (``Intent.use``), as an answer names it, in the order a
# message naming several is read by: "a light laptop for school" is a student's, "photo
# editing" editing.
USE_PHRASE: Final = {
    "student": "for a student",
    "gaming": "for gaming",
    "editing": "for video editing",
    "programming": "for programming",
    "photos": "for photos",
    "travel": "for travel",
    "work": "for work",
    "basic": "for everyday use",
}


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
