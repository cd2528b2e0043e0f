"""The books nearest one the shopper named that is out of stock: by the same author,
else in the same genre, else on the same subject.

The model knows a book only from what the catalog tool said of it in round 1 (its
author, genre and the first words of its description), so the search for its nearest
is planned from that record, as a real model would read it, and the answer orders
what the search found; nothing here knows any catalog's authors or genres.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Final

from shared.catalog.categories import Category
from shared.catalog.specs import AUTHOR, GENRE
from shared.search.intents import STOP_WORDS
from shared.search.words import fold, parser_words
from storechat.offline.messages import ToolOutcome
from storechat.offline.names import ModelName, matches
from storechat.offline.product import Product

SEARCHED: Final = 8
"""How many in-stock books the search brings back: enough that a book by the same
author or in the same genre is among them when the catalog has one."""
MAX_KEYWORDS: Final = 120
"""The catalog tool's limit on the length of its keywords."""
SUBJECT: Final = "subject"
"""What the nearest books share when no author or genre is: words of the description."""
_WORD = re.compile(r"[^\W\d_]{4,}")


def _subject_words(book: Product, summary: str) -> list[str]:
    """The words of the description that say what the book is about: no stop words,
    no word the search reads as a kind or a limit, nothing its author or genre says."""
    said = {fold(w) for w in _WORD.findall(f"{book.text(AUTHOR.key)} {book.text(GENRE.key)}")}
    common = STOP_WORDS | parser_words() | said
    words = [w.casefold() for w in _WORD.findall(summary)]
    return list(dict.fromkeys(w for w in words if fold(w) not in common))


def alike_search(book: Product, summary: str) -> dict[str, Any] | None:
    """A catalog search for the books in stock nearest ``book``: its author, genre and
    subject as keywords (ranked, not all required); None when the record says nothing
    to search by."""
    words = [book.text(AUTHOR.key), book.text(GENRE.key), *_subject_words(book, summary)]
    keywords = ""
    for word in (w for w in words if w):
        if len(keywords) + len(word) + 1 > MAX_KEYWORDS:
            break
        keywords = f"{keywords} {word}".strip()
    if not keywords:
        return None
    return {
        "category": Category.BOOKS,
        "keywords": keywords,
        "inStockOnly": True,
        "limit": SEARCHED,
    }


def _summary(raw: dict[str, Any]) -> str:
    """The description's first words, as a catalog result gives them."""
    summary = raw.get("summary")
    return summary if isinstance(summary, str) else ""


def _record(outcome: ToolOutcome, later: list[ToolOutcome]) -> list[dict[str, Any]]:
    """The products a named lookup found: from its result, or once the loop has shrunk
    it to a brief, from round 2's lookup of them again by id."""
    if outcome.brief:
        again = {"productIds": outcome.found_ids}
        outcome = next((o for o in later if o.tool_input == again and not o.brief), outcome)
    return [p for p in (outcome.data or {}).get("products") or [] if isinstance(p, dict)]


def alike_input(
    model: ModelName, outcome: ToolOutcome, later: list[ToolOutcome]
) -> dict[str, Any] | None:
    """For a named book the catalog has but not in stock: the search for its nearest in
    stock, planned from what the named lookup (``outcome``) said of it; None when it
    is in stock, or not the one book the lookup found."""
    found = _record(outcome, later)
    parsed = [(Product.parse(raw, n, Category.BOOKS), raw) for n, raw in enumerate(found)]
    books = {p.product_id: (p, raw) for p, raw in parsed if p is not None}
    carried = matches(model, [p for p, _ in books.values()])
    if len(carried) != 1 or carried[0].in_stock:
        return None
    book, raw = books[carried[0].product_id]
    return alike_search(book, _summary(raw))


@dataclass(frozen=True)
class Alike:
    """The nearest books found, and what they share with the named one."""

    shared: str
    """The author's or genre's spec key, or :data:`SUBJECT`."""
    books: list[Product]


def _same(book: Product, other: Product, key: str) -> bool:
    value = book.text(key).casefold()
    return bool(value) and other.text(key).casefold() == value


def alike(book: Product, found: list[Product]) -> Alike | None:
    """What the search found nearest ``book``, in stock: the same author first, else
    the same genre, else (what matched its words) the same subject; None if nothing."""
    others = [p for p in found if p.in_stock and p.product_id != book.product_id]
    for key in (AUTHOR.key, GENRE.key):
        same = [p for p in others if _same(book, p, key)]
        if same:
            return Alike(key, same)
    return Alike(SUBJECT, others) if others else None
