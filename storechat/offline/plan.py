"""The tool calls a question needs: all of them in one round.

It looks up what the shopper asked for: each named product by name, a kind of product
in the shopper's own words (a follow-up's with the earlier messages' after them), the
products an earlier answer showed by id.
What the first round does not find the catalog tool answers itself, in the same
result: the closest by name to a product the store does not carry, the nearest to
limits nothing meets, the nearest in stock to one sold out.

The plan depends only on the conversation, so the model can plan again when the
results come back and tell each result's :class:`Call` (its purpose) by its input.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any, Final

from shared.catalog.derive import sorts
from shared.catalog.specs import YEAR
from storechat.offline.intent import Intent, review_query
from storechat.offline.messages import ToolOutcome
from storechat.offline.names import ModelName
from storechat.offline.refer import Reference, Shown, pick
from storechat.offline.store import store
from storechat.offline.vocabulary import (
    BOOK_INFO,
    BOOKS,
    COMPUTERS,
    LOOKUP,
    OS_CATEGORY,
    REVERSED,
    REVIEWS,
    USE_SORT,
    unique,
)

MAX_LOOKUPS: Final = 4
MAX_WORDS: Final = 200
"""The most of the shopper's text a search of their own words passes on."""


@dataclass(frozen=True)
class Ask:
    """What the model knows when it plans: the question and what it was shown before."""

    intent: Intent
    """The latest message, with the subject of an earlier one carried over."""
    current: Intent
    """The latest message alone."""
    shown: tuple[Shown, ...] = ()
    """The products the previous answer cited."""
    said: str = ""
    """The latest message as the shopper wrote it: what a search of their words reads."""
    earlier: tuple[str, ...] = ()
    """The two messages before it, the latest first: a follow-up's subject is in them."""

    @property
    def reference(self) -> Reference | None:
        """What the latest message points at among the products shown, if it does."""
        ref = self.current.reference
        if not self.shown or ref is None or self.current.products or self.current.wants_reviews:
            return None
        if ref.kind == "it" and self.current.names_subject():
            return None  # "is it good for school?" after naming a laptop: a new search
        return ref


@dataclass(frozen=True)
class Call:
    """One tool call and what it is for: ``search``, ``named``, ``shown`` (products an
    earlier answer cited), ``cheaper``, ``instead`` (for a kind not carried), ``again``
    (a given search's products fetched again by id); or ``reviews`` and ``book``."""

    name: str
    input: dict[str, Any]
    purpose: str = "search"
    index: int = 0
    """Which named product or search it serves."""
    limit: float | None = field(default=None, compare=False)
    """For ``cheaper``: the price the products shown started at."""


@dataclass(frozen=True)
class Done:
    """A call and what it returned."""

    call: Call
    outcome: ToolOutcome


def _json_number(value: float) -> int | float:
    return int(value) if float(value).is_integer() else value


# -- searches -----------------------------------------------------------------------------------


def _keywords(intent: Intent, category: str | None) -> str:
    words = [os for os in intent.systems if category is None or OS_CATEGORY[os] == category]
    if category in (None, COMPUTERS):
        if intent.use == "gaming":
            words.append("gaming")
        words += intent.forms
    if category == BOOKS:
        words += intent.genres
        if intent.topic:
            words.append(intent.topic.lower())
        if intent.book_author and not intent.book_title:
            # Catalog authors read "J.R.R. Tolkien": the surname is the safe match.
            words.append(intent.book_author.split()[-1].lower())
    if intent.on_sale:
        words.append("on sale")
    return " ".join(unique(words))


_TOOL_SORTS: Final = frozenset(sort.name for _, sort in sorts())
# A book's order the tool keeps: its year. Ranked here otherwise, among the matches.
_BOOK_SORTS: Final = frozenset(sort.name for sort in YEAR.sort.both()) if YEAR.sort else frozenset()
_PRICES: Final = frozenset({"minPrice", "maxPrice"})


def _sort(intent: Intent, category: str | None) -> str | None:
    sort_by = intent.sort_by or USE_SORT.get(intent.use or "")
    if category == BOOKS:
        return sort_by if sort_by in _BOOK_SORTS else None
    if REVERSED.get(sort_by or "", sort_by) == "camera" and category == COMPUTERS:
        return None
    return sort_by if sort_by in _TOOL_SORTS else None


def _lookup_input(intent: Intent, category: str | None, brand: str | None) -> dict[str, Any]:
    request: dict[str, Any] = {}
    if category == BOOKS and intent.book_title:
        request["productName"] = intent.book_title
    if brand:
        request["brandId"] = brand
    if category:
        request["category"] = category
    keywords = _keywords(intent, category)
    if keywords:
        request["keywords"] = keywords
    for name, value in intent.bounds.items():
        if category != BOOKS or name in _PRICES:
            request[name] = _json_number(value)
    # The tool shows only its first few matches: ask for the ones this shopper cares about.
    if sort_by := _sort(intent, category):
        request["sortBy"] = sort_by
    return request


def _brands_for(intent: Intent, category: str | None) -> list[str | None]:
    sells = store().brand_categories
    fitting = [b for b in intent.brands if category is None or category in sells.get(b, ())]
    return list(fitting[:3]) or [None]


def lookup_inputs(intent: Intent) -> list[dict[str, Any]]:
    """The catalog searches the intent needs, one per category and brand; a kind of
    product a named product stands for is not searched again."""
    named = {p.category for p in intent.products}
    inputs = [
        _lookup_input(intent, category, brand)
        for category in intent.categories
        if category not in named
        for brand in _brands_for(intent, category)
    ]
    if not intent.categories and intent.brands:
        inputs += [_lookup_input(intent, None, brand) for brand in intent.brands[:3]]
    has_book_search = BOOKS in intent.categories
    wants_book = bool(intent.book_title or intent.book_author)
    # A book that shares a message with other products gets its facts from
    # get_book_info; the catalog is searched for it only when the shopper asks
    # about buying it or it is the whole question.
    named_book = any(p.text == intent.book_title for p in intent.products)
    if (
        wants_book
        and not has_book_search
        and not named_book
        and (not inputs or intent.book_shopping)
    ):
        inputs.append(_lookup_input(intent, BOOKS, None))
    if (
        not inputs
        and not intent.products
        and not (intent.wants_reviews or intent.book_query or intent.not_carried)
        and intent.has_constraints()
    ):
        inputs.append(words_input(intent))
    return inputs


def words_input(intent: Intent) -> dict[str, Any]:
    """A search for a message that names no kind of product the model can tell ("cheap
    labtop for colege"): the shopper's own words, which the search reads itself (its
    spelling correction, its phrase table), with the limits the model did read."""
    request = _lookup_input(intent, None, None)
    request["keywords"] = " ".join(intent.text.split())[:MAX_WORDS]
    return request


def named_input(model: ModelName) -> dict[str, Any]:
    """A product the shopper named, looked up by its name."""
    request: dict[str, Any] = {"productName": model.product_name, "category": model.category}
    if model.brand:
        request["brandId"] = model.brand
    return request


# -- round 1 ------------------------------------------------------------------------------------


def _reference_calls(ask: Ask, ref: Reference) -> list[Call]:
    shown = pick(list(ask.shown), ref)
    if ref.kind == "cheaper":
        # Cheaper than the one named, else than every one shown.
        limit = min((s.price for s in shown if s.price is not None), default=None)
        if limit is None:
            intent = replace(ask.intent, sort_by="price")
            return [Call(LOOKUP, i, "search", n) for n, i in enumerate(lookup_inputs(intent))]
        intent = replace(ask.intent, bounds={**ask.intent.bounds, "maxPrice": limit - 0.01})
        # After a named product ("is the iMac in stock?"), cheaper ones of its kind.
        inputs = lookup_inputs(intent) or [
            _lookup_input(intent, p.category, None) for p in intent.products[:1]
        ]
        return [Call(LOOKUP, i, "cheaper", n, limit) for n, i in enumerate(inputs[:1])]
    if not shown:
        return []
    request: dict[str, Any] = {"productIds": [s.product_id for s in shown]}
    if ref.kind == "all":
        current = ask.current
        request |= {name: _json_number(v) for name, v in current.bounds.items()}
        sort_by = _sort(current, None) or ("price" if current.cheap else None)
        if sort_by:
            request["sortBy"] = sort_by
    return [Call(LOOKUP, request, "shown")]


def _searches(ask: Ask) -> list[dict[str, Any]]:
    """The searches for the kinds of product asked. A message that asks the catalog for
    nothing else (no product or title by name, no reviews, no book's facts) is searched
    in the shopper's own words, which the search reads for every model: their kind,
    limits, lines, uses and order. A follow-up that carries its subject over from an
    earlier message ("Android, please" after "I want a new phone") is searched in its
    words and then the earlier messages', the latest first: the search takes the first
    kind and order it reads."""
    inputs = lookup_inputs(ask.intent)
    current = ask.current
    if current.products or current.wants_reviews or current.book_query:
        return inputs
    if not inputs or any("productName" in i for i in inputs):
        return inputs
    said = [ask.said] if inputs == lookup_inputs(current) else [ask.said, *ask.earlier]
    return [{"keywords": " ".join(" ".join(said).split())[:MAX_WORDS]}]


def _lookups(ask: Ask) -> list[Call]:
    intent = ask.intent
    if ref := ask.reference:
        return _reference_calls(ask, ref)
    calls = [Call(LOOKUP, named_input(p), "named", n) for n, p in enumerate(intent.products)]
    calls += [Call(LOOKUP, i, "search", n) for n, i in enumerate(_searches(ask))]
    kind = intent.not_carried
    if not calls and kind and kind.search:
        calls.append(Call(LOOKUP, dict(kind.search), "instead"))
    return calls


def plan_first(ask: Ask, available: frozenset[str]) -> list[Call]:
    """Every tool call the question needs, among the tools the request offers."""
    intent = ask.intent
    calls = _lookups(ask)[:MAX_LOOKUPS] if LOOKUP in available else []
    if intent.wants_reviews and REVIEWS in available:
        calls.append(Call(REVIEWS, {"query": review_query(intent)}, "reviews"))
    if intent.book_query and BOOK_INFO in available:
        calls.append(Call(BOOK_INFO, {"query": intent.book_query}, "book"))
    return calls


def label(outcomes: list[ToolOutcome], calls: list[Call]) -> list[Done]:
    """Each outcome with the planned call it answers (matched by tool and input)."""
    unused = list(calls)
    done = []
    for outcome in outcomes:
        call = next(
            (c for c in unused if c.name == outcome.name and c.input == outcome.tool_input), None
        )
        if call is None:
            call = Call(outcome.name or "", outcome.tool_input)
        else:
            unused.remove(call)
        done.append(Done(call, outcome))
    return done


def preamble(calls: list[Call]) -> str:
    """The sentence before the toolUses, naming what is about to be checked."""
    parts: list[str] = []
    if any(c.name == LOOKUP for c in calls):
        parts.append("the catalog")
    for c in calls:
        if c.name == REVIEWS:
            parts.append(f"what reviewers say about {c.input['query']}")
        elif c.name == BOOK_INFO:
            parts.append(f"the book details for {c.input['query']}")
    joined = parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " and " + parts[-1]
    return f"Let me check {joined}."
