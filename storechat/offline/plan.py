"""The tool calls a question needs: all of them in one round.

Searches are of the shopper's own words, which the catalog search reads for every
model; the catalog tool itself gives the closest, the nearest and the nearest in stock.
The plan depends only on the conversation, so the model plans again when the results
come back and tells each result's :class:`Call` by its input.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Final

from shared.search.asked import asked_names, beside_named, kinds_apart, sides_compared
from shared.search.words import parse
from storechat.offline.intent import (
    Intent,
    Reference,
    Shown,
    ids_as_names,
    named_by_id,
    names_others,
    parse_text,
    pick,
    review_query,
    unbranded_earlier,
)
from storechat.offline.messages import ToolOutcome
from storechat.offline.store import BOOK_INFO, BOOKS, LOOKUP, REVIEWS

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

    def _looked_up_by_id(self, named: tuple[int, ...], ref: Reference | None) -> tuple[int, ...]:
        """The products shown that the latest message names by id (``named``) or by an
        ordinal beside them; none when it also asks for a search ("like 7700400 but with
        16 GB") or for cheaper ones."""
        if not named or (ref is not None and ref.kind == "cheaper" and len(named) == 1):
            return ()  # "anything cheaper than 7700400?" (not "which is cheaper, X or Y?")
        words = parse(ids_as_names(self.said, {self.shown[n].product_id: "" for n in named}))
        if words.category or words.forms or words.lines or words.limits:
            return ()
        ordinal = ref.index if ref is not None and ref.kind == "one" else None
        if ordinal is not None and -len(self.shown) <= ordinal < len(self.shown):
            named = (*named, ordinal % len(self.shown))  # "the last one" is -1
        return tuple(dict.fromkeys(named))

    @property
    def reference(self) -> Reference | None:
        """What the latest message points at among the products shown, if it does."""
        if names_others(self.said, list(self.shown)):
            return None  # "compare 7700352 and 7702400", the second not shown: searched
        ref = self.current.reference
        named = named_by_id(self.said, list(self.shown))
        if ids := self._looked_up_by_id(named, ref):
            # "is 7700352 in stock?", "compare 7700352 and 7702400": those, by their ids
            return Reference("one", ids[0]) if len(ids) == 1 else Reference("ids", None, ids)
        if not self.shown or ref is None or self.current.products or self.current.wants_reviews:
            return None
        if ref.kind == "cheaper" and len(named) == 1:
            return Reference("cheaper", named[0])  # "anything cheaper than 7700400?"
        if ref.kind == "it" and self.current.names_subject():
            return None  # "is it good for school?" after naming a laptop: a new search
        return ref


@dataclass(frozen=True)
class Call:
    """One tool call and what it is for: ``search``, ``names`` (the words naming products,
    each answered from it), ``named`` (the words of one product's name), ``shown``
    (products an earlier answer cited), ``cheaper``, ``instead`` (for a kind not carried),
    ``again`` (a given search's products fetched again); or ``reviews`` and ``book``."""

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


def _words(*texts: str) -> dict[str, Any]:
    """A search of the shopper's own words, cut to :data:`MAX_WORDS`."""
    # Each message ends where the next begins: "not the Pro. a MacBook", not "not the Pro a".
    said = [" ".join(t.split()) for t in texts if t.strip()]
    ended = [t if t[-1] in ".?!;:," else f"{t}." for t in said[:-1]]
    return {"keywords": " ".join([*ended, *said[-1:]])[:MAX_WORDS]}


def _asks_kind(intent: Intent) -> bool:
    """Whether the message asks for a kind of product, or a brand's, besides any it names
    (a book's title names a book)."""
    named = {p.category for p in intent.products} | ({BOOKS} if intent.book_title else set())
    return any(c not in named for c in intent.categories) or bool(
        intent.brands and not intent.categories
    )


def _title_search(intent: Intent, searching: bool) -> dict[str, Any] | None:
    """A book asked by title that no other search finds: beside other products, only
    when the shopper asks to buy it (its facts come from get_book_info)."""
    named = any(p.text == intent.book_title for p in intent.products)
    if not intent.book_title or named:
        return None
    if searching and not (intent.book_shopping or BOOKS in intent.categories):
        return None
    return {"productName": intent.book_title, "category": BOOKS}


def _searches(ask: Ask) -> list[dict[str, Any]]:
    """The searches for the kinds of product asked, in the shopper's own words (beside a
    product, title or reviews, only the clauses that ask the catalog); a follow-up's with
    the earlier messages' after them: the search takes the first kind and order it reads."""
    intent, current = ask.intent, ask.current
    others = bool(current.products or current.wants_reviews or current.book_query)
    limits_only = (
        not (intent.products or intent.wants_reviews or intent.book_query or intent.not_carried)
        and intent.has_constraints()
    )
    searches = []
    by_author = bool(intent.book_author and not intent.book_title)
    # Words the model reads nothing in: a name it knows none of ("do you sell Huawei?"),
    # a slip ("a cheep chromebok"). The search reads them, and says whether the store
    # carries what they name; a greeting or thanks alone is no search.
    unknown = intent.is_empty() and (
        bool(asked_names(ask.said)) or not (intent.greets or intent.thanks)
    )
    # A kind asked beside the products named: "the Pixel 9 and a cheap Android phone"
    beside = beside_named(ask.said, [p.text for p in current.products]) if current.products else ""
    if (
        _asks_kind(intent)
        or beside
        or by_author
        or (limits_only and not intent.book_title)
        or unknown
    ):
        own = beside or (current.asks if others else "") or ask.said
        if not intent.carried:
            # One search a kind: "a laptop and a phone" is two (the search reads one kind).
            searches += [_words(part) for part in kinds_apart(own) or [own]]
        elif _brand_alone(current) and len(intent.categories) == 1:
            # Another maker's of the kind asked ("and Asus?" after gaming laptops): the earlier
            # words without their makers and lines say its use, form, limits and order; a
            # price said against a product stays whole, read as its price, not its words
            unbranded = (unbranded_earlier(text) for text in ask.earlier)
            searches.append({**_words(own, *unbranded), "category": str(intent.categories[0])})
        elif current.names_subject():
            # A new subject ("what about a Mac?") under the earlier limits it does not restate
            earlier = parse(" . ".join(ask.earlier)).limits
            limits = {k: _json_number(v) for k, v in earlier.items() if k not in current.bounds}
            searches.append({**_words(own), **limits})
        else:
            searches.append(_words(own, *ask.earlier))
    if book := _title_search(intent, bool(searches)):
        searches.append(book)
    return searches


def _brand_alone(intent: Intent) -> bool:
    """Whether a message names a maker and no kind, model or book of its own."""
    return bool(intent.brands) and not (intent.categories or intent.products or intent.book_title)


# -- round 1 ------------------------------------------------------------------------------------


def _reference_calls(ask: Ask, ref: Reference) -> list[Call]:
    shown = pick(list(ask.shown), ref)
    if ref.kind == "cheaper":
        # Cheaper than the one named, else than every one shown: the kind asked before.
        limit = min((s.price for s in shown if s.price is not None), default=None)
        # The one they are cheaper than is no product to find ("cheaper than IPHONESE?"):
        # said by its name, it says the kind for the search, which takes it out itself.
        cut = {s.product_id: "" for s in ask.shown}
        than = {s.product_id: s.name for s in shown if s.name} if ref.index is not None else {}
        said = ids_as_names(ids_as_names(ask.said, than), cut)
        words = _words(said, *(ids_as_names(text, cut) for text in ask.earlier))
        if limit is None:
            return [Call(LOOKUP, words, "search")]
        cheaper = {**words, "maxPrice": _json_number(limit - 0.01)}
        return [Call(LOOKUP, cheaper, "cheaper", 0, limit)]
    if not shown:
        return []
    request: dict[str, Any] = {"productIds": [s.product_id for s in shown]}
    if ref.kind == "all":
        # "which of those are under $900?", "sort those by weight": the search reads the
        # limits and the order in the shopper's words, and keeps to the products shown.
        request |= _words(ids_as_names(ask.said, {s.product_id: "" for s in ask.shown}))
    return [Call(LOOKUP, request, "shown")]


def _lookups(ask: Ask) -> list[Call]:
    intent = ask.intent
    if ref := ask.reference:
        return _reference_calls(ask, ref)
    if _against_others(ask):
        # "is the Dell cheaper than the MacBook Air?": the search shows both sides
        return [Call(LOOKUP, _words(ask.said), "search")]
    # A product named is found by a search of the shopper's words when it is all they ask;
    # else by its name alone, so that each gets its own closest and nearest in stock.
    searches = _searches(ask)
    if len(intent.products) == 1 and not searches and not ask.current.bounds:
        return [Call(LOOKUP, _words(ask.said), "names")]
    calls = [Call(LOOKUP, {"keywords": p.text}, "named", n) for n, p in enumerate(intent.products)]
    calls += [Call(LOOKUP, i, "search", n) for n, i in enumerate(searches)]
    kind = intent.not_carried
    if not calls and kind and kind.instead:
        # The search shows the kind nearest it in its place, in the order the words ask.
        calls.append(Call(LOOKUP, _words(ask.said), "instead"))
    return calls


def _against_others(ask: Ask) -> bool:
    """Whether the message sets the one product it names against another maker's ("the
    Pixel 9 or a Samsung?"): the search of its words shows each side."""
    current = ask.current
    sides = sides_compared(ask.said)
    # With reviews or a book's facts asked too, the loop shrinks the search to a brief
    # that keeps no reading of sides: the product named is the answer
    if len(current.products) != 1 or sides is None or current.wants_reviews or current.book_query:
        return False
    # The other side names another maker ("is the iPhone 16 in stock or not? my Samsung
    # broke" sets the iPhone against nothing)
    model = current.products[0]
    named = [s for s in (sides.left, sides.right) if model.text.casefold() in s.casefold()]
    other = sides.right if named == [sides.left] else sides.left if named == [sides.right] else ""
    return bool(set(parse_text(other).brands) - {model.brand}) if other else False


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
        if call is not None:
            unused.remove(call)
        done.append(Done(call or Call(outcome.name or "", outcome.tool_input), outcome))
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
