"""Turn 1: the tool calls an intent needs, and the replies that need no tool."""

from __future__ import annotations

from typing import Any, Final

from storechat.offline.intent import Intent, review_query
from storechat.offline.vocabulary import (
    BOOK_INFO,
    BOOKS,
    BRAND_CATEGORIES,
    COMPUTERS,
    LOOKUP,
    OS_CATEGORY,
    REVIEWS,
    unique,
)

MAX_LOOKUPS: Final = 4


def _json_number(value: float) -> int | float:
    return int(value) if float(value).is_integer() else value


def _keywords(intent: Intent, category: str | None) -> str:
    words = [os for os in intent.systems if category is None or OS_CATEGORY[os] == category]
    if intent.use == "gaming" and category in (None, COMPUTERS):
        words.append("gaming")
    if category == BOOKS:
        words += intent.genres
        if intent.book_author and not intent.book_title:
            # Catalog authors read "J.R.R. Tolkien": the surname is the safe match.
            words.append(intent.book_author.split()[-1].lower())
    return " ".join(unique(words))


_USE_SORT: Final[dict[str, str]] = {"travel": "weight", "gaming": "ram", "work": "ram"}
_TOOL_SORTS: Final = frozenset({"price", "weight", "battery", "ram", "storage", "screen", "camera"})


def _lookup_input(intent: Intent, category: str | None, brand: str | None) -> dict[str, Any]:
    request: dict[str, Any] = {}
    if intent.product and category in (None, intent.product.category):
        request["productName"] = intent.product.product_name
    elif category == BOOKS and intent.book_title:
        request["productName"] = intent.book_title
    if brand:
        request["brandId"] = brand
    if category:
        request["category"] = category
    keywords = _keywords(intent, category)
    if keywords:
        request["keywords"] = keywords
    if intent.max_price is not None:
        request["maxPrice"] = _json_number(intent.max_price)
    # The tool shows only its first few matches: ask for the ones this shopper cares about.
    sort_by = intent.sort_by or _USE_SORT.get(intent.use or "")
    if sort_by in _TOOL_SORTS and category != BOOKS:
        request["sortBy"] = sort_by
    return request


def _brands_for(intent: Intent, category: str | None) -> list[str | None]:
    if intent.product and category == intent.product.category and intent.product.brand:
        return [intent.product.brand]
    fitting = [b for b in intent.brands if category is None or category in BRAND_CATEGORIES[b]]
    return list(fitting[:3]) or [None]


def lookup_inputs(intent: Intent) -> list[dict[str, Any]]:
    """The catalog searches the intent needs, one per category and brand."""
    inputs = [
        _lookup_input(intent, category, brand)
        for category in intent.categories
        for brand in _brands_for(intent, category)
    ]
    if not intent.categories and intent.brands:
        inputs += [_lookup_input(intent, None, brand) for brand in intent.brands[:3]]
    has_book_search = BOOKS in intent.categories
    wants_book = bool(intent.book_title or intent.book_author)
    # A book that shares a message with other products gets its facts from
    # get_book_info; the catalog is searched for it only when the shopper asks
    # about buying it or it is the whole question.
    if wants_book and not has_book_search and (not inputs or intent.book_shopping):
        inputs.append(_lookup_input(intent, BOOKS, None))
    if not inputs and not (intent.wants_reviews or intent.book_query) and intent.has_constraints():
        inputs.append(_lookup_input(intent, None, None))
    return inputs[:MAX_LOOKUPS]


def plan_tool_calls(intent: Intent, available: frozenset[str]) -> list[tuple[str, dict[str, Any]]]:
    """Every tool call the intent needs, among the tools the request offers."""
    calls: list[tuple[str, dict[str, Any]]] = []
    if LOOKUP in available:
        calls += [(LOOKUP, request) for request in lookup_inputs(intent)]
    if intent.wants_reviews and REVIEWS in available:
        calls.append((REVIEWS, {"query": review_query(intent)}))
    if intent.book_query and BOOK_INFO in available:
        calls.append((BOOK_INFO, {"query": intent.book_query}))
    return calls


def preamble(calls: list[tuple[str, dict[str, Any]]]) -> str:
    """The sentence before the toolUses, naming what is about to be checked."""
    parts: list[str] = []
    if any(name == LOOKUP for name, _ in calls):
        parts.append("the catalog")
    for name, request in calls:
        if name == REVIEWS:
            parts.append(f"what reviewers say about {request['query']}")
        elif name == BOOK_INFO:
            parts.append(f"the book details for {request['query']}")
    joined = parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " and " + parts[-1]
    return f"Let me check {joined}."


# Replies that end turn 1 without a tool call.
GREETING: Final = (
    "Hi! I'm the store's shopping assistant. I can find computers, phones and books in our "
    "catalog, compare them for what you need (budget, operating system, school, gaming or "
    "travel), summarise what reviewers say about a computer and look up facts about a book. "
    "What are you looking for?"
)
THANKS_REPLY: Final = (
    "You're welcome! Tell me if you'd like help with anything else: a computer, a phone or a book."
)
NO_TOOLS_REPLY: Final = (
    "I'd like to check the catalog for that, but my tools aren't available right now. "
    "Please try again in a moment."
)
