"""What a shopper's message asks for, and what a follow-up carries over from earlier turns."""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from typing import Final

from storechat.offline.names import ModelName, find_model
from storechat.offline.subjects import BookAsk, book_ask, review_ask
from storechat.offline.vocabulary import (
    BOOKS,
    GENRE_KEYWORD,
    GENRE_RE,
    MOBILE,
    OS_CATEGORY,
    PUBLISHERS,
    SORT_RES,
    USE_RES,
    brands_in,
    categories_in,
    first_match,
    systems_in,
    unique,
)

# Regexes run on the shopper's text; a pasted essay should not make them slow.
MAX_TEXT_CHARS: Final = 2000

_I = re.IGNORECASE

_CHEAP = re.compile(r"\b(?:cheap|cheaper|cheapest|affordable|inexpensive|low[- ]cost|budget)\b", _I)
_UNIT_AFTER = r"(?!\s*(?:kg|kilos?|g\b|gb|tb|lbs?|inch|in\b|\"|h\b|hours?|hrs?|mah|mp|%|mm|cm))"
_AMOUNT = r"[$£€]?\s*(\d+(?:\.\d+)?)(?!\d|\.\d)\s*(k\b)?" + _UNIT_AFTER
_BUDGET_RES: Final = (
    re.compile(
        r"\b(?:under|below|less than|cheaper than|no more than|not more than|at most|"
        r"max(?:imum)?|up to|within|budget(?:\s+(?:is|of))?|spend(?:ing)?)\s*:?\s*"
        r"(?:of\s+|about\s+|around\s+)?" + _AMOUNT,
        _I,
    ),
    re.compile(r"[$£€]\s*(\d+(?:\.\d+)?)(?!\d|\.\d)\s*(k\b)?\s*(?:or less|max|tops|budget)\b", _I),
    re.compile(r"[$£€]\s*(\d+(?:\.\d+)?)(?!\d|\.\d)\s*(k\b)?", _I),
)

_REVIEW_CUE = re.compile(
    r"\b(?:reviews?|reviewers?|what do (?:people|users|customers|critics|reviewers|others) "
    r"(?:say|think)|what are people saying|opinions?|rated|ratings?|worth it|"
    r"worth (?:the money|buying|the price))\b",
    _I,
)
_SHOPPING_CUE = re.compile(
    r"\b(?:do you (?:have|sell|stock|carry)|in stock|available|buy|purchase|order|price|"
    r"cost|how much|sell)\b",
    _I,
)
_FOLLOW_UP_CUE = re.compile(
    r"\b(?:those|these|them|they|it|that one|which one|which of|ones?|what about|how about|"
    r"instead|else|another|other)\b",
    _I,
)
_THANKS = re.compile(r"^\W*(?:thanks?|thank you|cheers|ok(?:ay)?|great|cool|perfect|bye)\b", _I)
_CLAUSE_SPLIT = re.compile(
    r"(?<!\b[A-Za-z])[.!;]+(?:\s+|$)|\?+\s*|,\s*(?:and\s+|but\s+)?|"
    r"\s+(?:and|also|plus|but)\s+(?=(?:what|how|tell|do|does|is|are|can|could|show|find|give|"
    r"which|who|i|also)\b)",
    _I,
)


@dataclass(frozen=True)
class Intent:
    """What a shopper's message asks for, as far as a few regexes can tell."""

    # The subject: what to search the catalog for.
    categories: tuple[str, ...] = ()
    brands: tuple[str, ...] = ()
    product: ModelName | None = None
    genres: tuple[str, ...] = ()
    book_title: str | None = None
    book_author: str | None = None
    # Constraints: how to narrow and rank what the catalog returns.
    systems: tuple[str, ...] = ()
    max_price: float | None = None
    cheap: bool = False
    use: str | None = None
    sort_by: str | None = None
    # Asks for the other tools, which only the current message can make.
    wants_reviews: bool = False
    review_subject: ModelName | None = None
    review_query: str | None = None
    book_query: str | None = None
    book_shopping: bool = False
    follow_up: bool = False
    thanks: bool = False

    def names_subject(self) -> bool:
        return bool(
            self.categories
            or self.brands
            or self.product
            or self.book_title
            or self.book_author
            or self.review_subject
            or self.review_query
        )

    def has_constraints(self) -> bool:
        return bool(
            self.systems or self.max_price is not None or self.cheap or self.use or self.sort_by
        )

    def is_empty(self) -> bool:
        return not (
            self.names_subject() or self.has_constraints() or self.wants_reviews or self.book_query
        )

    def as_context(self) -> Intent:
        """This turn's subject and constraints, without the one-off tool asks."""
        return replace(
            self,
            product=self.product or self.review_subject,
            categories=self.categories
            or ((self.review_subject.category,) if self.review_subject else ()),
            wants_reviews=False,
            review_query=None,
            book_query=None,
            follow_up=False,
            thanks=False,
        )

    def refined_by(self, newer: Intent) -> Intent:
        """Carry this subject into a follow-up; the follow-up's constraints win."""
        return replace(
            self,
            systems=newer.systems or self.systems,
            max_price=newer.max_price if newer.max_price is not None else self.max_price,
            cheap=newer.cheap or self.cheap,
            use=newer.use or self.use,
            sort_by=newer.sort_by or self.sort_by,
            genres=newer.genres or self.genres,
            wants_reviews=newer.wants_reviews,
            review_query=newer.review_query,
            book_query=newer.book_query,
            book_shopping=newer.book_shopping or self.book_shopping or bool(self.book_title),
            follow_up=True,
            thanks=False,
        )


def _normalise(text: str) -> str:
    text = text[:MAX_TEXT_CHARS].replace("\u2019", "'")
    # "$1,299" must stay one number when clauses split on commas.
    return re.sub(r"(?<=\d),(?=\d{3}\b)", "", text)


def _split_clauses(text: str) -> list[str]:
    return [c.strip() for c in _CLAUSE_SPLIT.split(text) if c and c.strip()]


def _budget(text: str) -> float | None:
    for pattern in _BUDGET_RES:
        match = pattern.search(text)
        if match:
            amount = float(match.group(1)) * (1000 if match.group(2) else 1)
            if amount > 0:
                return amount
    return None


def _wants_cheap(text: str, max_price: float | None) -> bool:
    words = [w.lower() for w in _CHEAP.findall(text)]
    # "a budget of 700" states a limit, not a wish for the cheapest.
    return any(w != "budget" for w in words) or (bool(words) and max_price is None)


def parse_text(text: str) -> Intent:
    """Read one user message."""
    text = _normalise(text)
    categories: list[str] = []
    brands: list[str] = []
    product_systems: list[str] = []
    product: ModelName | None = None
    book: BookAsk | None = None
    book_shopping = False
    wants_reviews = False
    review_subject: ModelName | None = None
    review_query: str | None = None
    for clause in _split_clauses(text):
        ask = book_ask(clause)
        if ask is None and _REVIEW_CUE.search(clause):
            subject, query, ask = review_ask(clause)
            if ask is None:
                wants_reviews = True
                review_subject = review_subject or subject
                review_query = review_query or query
                continue
        if ask is not None:
            book = book or ask
            book_shopping = book_shopping or bool(_SHOPPING_CUE.search(clause))
            continue
        categories += categories_in(clause)
        brands += brands_in(clause)
        product_systems += systems_in(clause)
        product = product or find_model(clause)
    if product:
        categories.append(product.category)
        if product.brand and not brands:
            brands.append(product.brand)
    if not categories:
        categories = [OS_CATEGORY[name] for name in product_systems]
    genres = [GENRE_KEYWORD.get(g.lower(), g.lower()) for g in GENRE_RE.findall(text)]
    if BOOKS not in categories and not book:
        genres = []
    max_price = _budget(text)
    return Intent(
        categories=unique(categories),
        brands=unique(brands),
        product=product,
        genres=unique(genres),
        book_title=book.title if book else None,
        book_author=book.author if book else None,
        systems=unique(systems_in(text)),
        max_price=max_price,
        cheap=_wants_cheap(text, max_price),
        use=first_match(USE_RES, text),
        sort_by=first_match(SORT_RES, text),
        wants_reviews=wants_reviews,
        review_subject=review_subject,
        review_query=review_query,
        book_query=book.query if book else None,
        book_shopping=book_shopping,
        follow_up=bool(_FOLLOW_UP_CUE.search(text)),
        thanks=bool(_THANKS.search(text)),
    )


def conversation_intent(user_texts: list[str]) -> Intent:
    """Read the latest user text, carrying over the subject of an earlier one."""
    if not user_texts:
        return Intent()
    current = parse_text(user_texts[-1])
    if current.names_subject() or not (
        current.has_constraints() or current.follow_up or current.wants_reviews
    ):
        return current
    for index in range(len(user_texts) - 2, -1, -1):
        earlier = parse_text(user_texts[index])
        if not earlier.names_subject():
            continue
        merged = earlier.as_context()
        for later in user_texts[index + 1 :]:
            merged = merged.refined_by(parse_text(later))
        if current.wants_reviews and not current.has_constraints():
            # "What do reviewers say about it?" wants reviews of the earlier
            # subject, not the same catalog search again.
            specific = merged.product or any(b not in PUBLISHERS for b in merged.brands)
            return replace(current, review_query=review_query(merged) if specific else None)
        return merged
    return current


def review_query(intent: Intent) -> str:
    """What to ask the review service about: the named product, else brand and kind."""
    if intent.review_query:
        return intent.review_query
    if intent.product:
        return intent.product.full_name
    brand = next((b for b in intent.brands if b not in PUBLISHERS), None)
    noun = "phone" if intent.categories[:1] == (MOBILE,) else "laptop"
    gaming = "gaming" if intent.use == "gaming" else None
    return " ".join(part for part in (brand, gaming, noun) if part)
