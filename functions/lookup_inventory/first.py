"""Search first: whether the catalog search on the shopper's words is handed to the model
before its first call, decided without a model.

With ``search_first`` on, the state machine calls this tool itself before the first model
call (``SearchCatalogFirst``), with the shopper's words as the search and, in ``first``,
what the decision needs: the message, whether the session has earlier turns, and the ids of
the products the last turn showed. When the search serves, its result goes to the model
as a ``lookup_inventory`` call of its own, and a catalog question is answered in one model
call. It is not handed over (:class:`Reason`), and the model goes first as it always did:

* ``store_question``: the message asks about the store itself (returns, delivery, an
  order, payment, a warranty), which the policies tool answers, not the catalog;
* ``follow_up``: the message points at products the last turn showed ("which of those",
  "the cheaper one", one of their ids), or, after an earlier turn, only narrows what was
  asked ("under $500?", "which is the cheapest?") without naming a kind of product or a
  word of its own: the model knows which products are meant, a search of the words does not.
  One such follow-up is searched all the same, by what it means rather than by its words:
  one that only asks for an order among the products the last turn showed ("which of
  those is the lightest?", "which one has the longest battery?") is those products by id
  in that order (``{"productIds": [...], "sortBy": "weight"}``), handed over with the
  reason ``shown_ordered`` and that input (:attr:`FirstAnswer.searchedWith`). One that
  only narrows ("anything under $700?", "with at least 16 GB of RAM?") is the session's
  last search of words (``before``, which each turn saves as its ``searched``) with what
  the words narrow set as the tool's own fields, and one that adds a word or two of its
  own ("only Windows ones") is that search with them, when every product it finds says
  them, and one that asks for cheaper ones than those shown ("anything cheaper?") is that
  search under the cheapest of them, which the catalog says: handed over with the reason
  ``narrowed``. One that puts another kind in place of the one before ("what about a
  MacBook instead?") is its words under that search's limits, with the reason
  ``carried``;
* ``no_catalog_words``: nothing in it names anything the catalog holds: a greeting, thanks,
  "who are you";
* ``nothing_found``: the search found nothing for the words (not even by dropping them),
  and names nothing asked for that the store does not sell ("the Nokia 3310", "Huawei",
  "TVs"), which the model can say at once;
* ``search_failed``: the search itself failed (the catalog unavailable, being indexed).

The first three are decided before searching, from the words alone: the catalog search's
own reading of them (:func:`shared.search.words.parse`: kinds, brands' and titles' words,
prices, uses) and the word lists of ``shared/data/first_words.json`` (data: a word is
added there, not here). The search runs only when they pass; what it found decides the
last two. Every answer says which (:class:`FirstAnswer`), for the execution log.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from enum import StrEnum
from typing import Annotated, Any

from pydantic import BaseModel, ConfigDict, Field

from lookup_inventory.schema import MAX_KEYWORDS_CHARS, MAX_PRODUCT_IDS
from shared.api.contract import FirstAnswer, ToolOutput
from shared.search import BOUNDS
from shared.search.words import Words, parse
from shared.store.first_words import Phrases, asks_about_store, bare, folded, word_lists

Search = Callable[[dict[str, Any] | None], ToolOutput]
"""Runs the tool's call: with the state machine's input (None), or with another."""

MAX_MESSAGE_CHARS = 4_000
"""More than any message the API takes; what is longer is read this far."""
MAX_SHOWN_IDS = MAX_PRODUCT_IDS


class Reason(StrEnum):
    """Why the search first was, or was not, handed to the model (docs/limits.md)."""

    SEARCHED = "searched"
    SHOWN_ORDERED = "shown_ordered"
    NARROWED = "narrowed"
    CARRIED = "carried"
    STORE_QUESTION = "store_question"
    FOLLOW_UP = "follow_up"
    NO_CATALOG_WORDS = "no_catalog_words"
    NOTHING_FOUND = "nothing_found"
    SEARCH_FAILED = "search_failed"


class FirstAsk(BaseModel):
    """What the state machine sends with its search first, beside the ``toolUse``."""

    model_config = ConfigDict(extra="ignore")

    message: str
    hasHistory: bool = False
    shown: Annotated[list[str], Field(description="Ids of the products the last turn showed")] = []
    before: Annotated[
        dict[str, Any] | None,
        Field(description="The session's last catalog search of words (a saved turn's searched)"),
    ] = None

    def shown_ids(self) -> list[str]:
        """The products shown, each once, as many as the tool fetches by id."""
        return list(dict.fromkeys(pid for pid in self.shown if pid))[:MAX_SHOWN_IDS]


# -- the decision ----------------------------------------------------------------------------


def _means_something(words: Words) -> bool:
    """Whether the search read anything of the catalog's into the words: a kind of
    product, an amount, a spec, an order, a use, a sale, a line or an operating system
    (not a word searched as written)."""
    return bool(
        words.category
        or words.forms
        or words.boosts
        or words.sort
        or words.min_price is not None
        or words.max_price is not None
        or words.bounds
        or words.on_sale
        or _phrase_groups(words)
        or words.lines
    )


def _phrase_groups(words: Words) -> list[tuple[str, ...]]:
    """The groups of search terms a phrase of the search's own stands for ("gaming"), but
    a line's (an operating system's: "only Windows ones" adds a word to the search before;
    a line of its own kind, "a MacBook", names that kind)."""
    plain = {(word,) for word in words.plain}
    return [group for group in words.groups if group not in plain and group not in words.lines]


def _own_words(words: Words) -> list[str]:
    """The words the search would look for as written, less those of conversation."""
    conversation = word_lists().conversation
    return [word for word in words.plain if folded(word) not in conversation]


def _names_shown(message: str, shown: list[str]) -> bool:
    """Whether the message names a product the last turn showed, by its id."""
    said = bare(message)
    return any(
        re.search(rf"(?<![\w-]){re.escape(bare(pid))}(?![\w-])", said) for pid in shown if pid
    )


def before_search(ask: FirstAsk) -> Reason | None:
    """Why the words alone say not to search first; None: search."""
    message = ask.message[:MAX_MESSAGE_CHARS]
    lists = word_lists()
    if asks_about_store(message):
        return Reason.STORE_QUESTION
    if ask.shown and (lists.pointers.found_in(message) or _names_shown(message, ask.shown)):
        return Reason.FOLLOW_UP
    words = parse(message)
    meaning = _means_something(words)
    if ask.hasHistory and meaning and _only_narrows(words):
        return Reason.FOLLOW_UP
    if not meaning and not _own_words(words):
        return Reason.NO_CATALOG_WORDS
    return None


def ordering_shown(ask: FirstAsk) -> dict[str, Any] | None:
    """The catalog call a follow-up that only orders the products the last turn showed
    means ("which of those is the lightest?"): those products by id, in the order it
    names. None when it asks for anything else too: a price, a spec's bound, a use, a word
    of its own; or when it does not point at them (it orders what was asked: "which is the
    cheapest?", "which phone is the lightest?" after laptops). None too when it asks for
    other products in that order ("anything cheaper?", "a lighter one?")."""
    if not ask.shown:
        return None
    message = ask.message[:MAX_MESSAGE_CHARS]
    words = parse(message)
    lists = word_lists()
    if words.sort is None or _narrows_otherwise(words, lists.pointers):
        return None
    if lists.besides.found_in(message):
        return None
    if not (lists.pointers.found_in(message) or _names_shown(message, ask.shown)):
        # "which phone is the lightest?" after laptops asks for phones; "which is the
        # cheapest?" for the cheapest of what was asked, which the search before narrows
        return None
    ids = ask.shown_ids()
    return {"productIds": ids, "sortBy": words.sort} if ids else None


NOT_CARRIED = ("productIds", "offset")
"""What a narrowed search does not take from the one before: a fetch by id is no search of
words, and a page of the old matches is none of the new."""
MAX_ADDED_WORDS = 3
"""More words of its own than this, and a message is a question of its own, not a detail
added to the one before."""


@dataclass(frozen=True)
class Narrowed:
    """The search before, narrowed by a follow-up (:func:`narrowing`)."""

    input: dict[str, Any]
    added: tuple[str, ...] = ()
    """The follow-up's own words, searched with the words before ("only *Windows* ones")."""

    def holds(self, output: ToolOutput) -> bool:
        """Whether the search found what the follow-up asks, nothing of it dropped (a limit
        none meets, "with 64 GB?", leaves the nearest to the model), and every product it
        shows says each word added: a word the search before holds nothing of ("Dune"
        after laptops) is a question of its own."""
        demand = output.trace.demand
        if demand is None or any(dropped != "keywords" for dropped in demand.relaxed):
            return False
        said = [bare(product.model_dump_json()) for product in output.ledger.products]
        wanted = [re.compile(rf"(?<!\w){re.escape(bare(word))}") for word in self.added]
        return all(word.search(text) for text in said for word in wanted)


def narrowing(ask: FirstAsk) -> Narrowed | None:
    """The catalog call a follow-up that only narrows what was asked means: the session's
    last search of words (``before``) with the price, the order and the spec bounds the
    words say set as the tool's own fields, which win over what its keywords said ("anything
    under $700?", "with at least 16 GB of RAM?", "which is the cheapest?" without pointing
    at what the last turn showed), and the few words of its own it adds to them, searched
    with its keywords ("only Windows ones", "a Samsung one"). None when there is no such
    search, when the message names a kind of product or a use (a question of its own),
    points at the products shown ("ones" alone points at none: it stands for the kind
    asked), or says what no field of the tool holds (on sale, a use's leaning)."""
    before = ask.before
    if not ask.hasHistory or not before or before.get("productIds"):
        return None
    message = ask.message[:MAX_MESSAGE_CHARS]
    words = parse(message)
    if words.category or words.forms or _phrase_groups(words) or words.on_sale or words.boosts:
        return None
    lists = word_lists()
    if lists.pointers.found(message) - lists.kind or _names_shown(message, ask.shown):
        return None
    added = [word for word in _own_words(words) if (word,) not in lists.kind]
    added += [group[0] for group in words.lines]
    if not (_means_something(words) or added) or len(added) > MAX_ADDED_WORDS:
        return None
    fields = {
        "minPrice": words.min_price,
        "maxPrice": words.max_price,
        "sortBy": words.sort,
        **words.bounds,
    }
    said = {name: value for name, value in fields.items() if value is not None}
    carried = {k: v for k, v in before.items() if k not in NOT_CARRIED and v is not None}
    if "maxPrice" in said and carried.get("minPrice", 0) > said["maxPrice"]:
        carried.pop("minPrice")  # "anything under $700?" after "over $1000": a new budget
    if "minPrice" in said and carried.get("maxPrice", float("inf")) < said["minPrice"]:
        carried.pop("maxPrice")
    if added:
        keywords = " ".join([str(carried.get("keywords") or ""), *added]).strip()
        if len(keywords) > MAX_KEYWORDS_CHARS:
            return None
        carried["keywords"] = keywords
    return Narrowed({**carried, **said}, tuple(added))


PRICES = ("minPrice", "maxPrice")
CENT = 0.01


def cheaper_asked(ask: FirstAsk) -> dict[str, Any] | None:
    """The session's last search of words, for a follow-up that asks for products cheaper
    than those the last turn showed and nothing else ("anything cheaper?", "do you have a
    cheaper one?"): the price it is below is the cheapest shown, which the catalog says
    (:func:`below_shown`). None for any other message, or with no such search."""
    before = ask.before
    if not (ask.shown and before) or before.get("productIds"):
        return None
    message = ask.message[:MAX_MESSAGE_CHARS]
    words = parse(message)
    lists = word_lists()
    if words.sort != "price" or not lists.besides.found_in(message):
        return None
    if words.min_price is not None or words.max_price is not None or words.bounds:
        return None
    if words.category or words.forms or words.lines or words.on_sale or words.boosts:
        return None  # "anything cheaper on Windows?": the model reads what else it asks
    if _phrase_groups(words):
        return None
    besides = {word for phrase in (*lists.besides.exact, *lists.besides.open) for word in phrase}
    own = [word for word in _own_words(words) if bare(word) not in besides]
    if own or _names_shown(message, ask.shown):
        return None
    dropped = (*NOT_CARRIED, "maxPrice", "sortBy")
    kept = {k: v for k, v in before.items() if k not in dropped and v is not None}
    return {**kept, "sortBy": "price"}  # cheapest first, whatever order was asked before


def below_shown(asked: dict[str, Any], shown: ToolOutput) -> dict[str, Any] | None:
    """``asked`` under the cheapest price of the products ``shown`` (fetched by id); None
    when none of them has a price, or the search before's lowest price is above it."""
    prices = [p.price for p in shown.ledger.products if p.price is not None]
    if not prices:
        return None
    below = round(min(prices) - CENT, 2)
    if asked.get("minPrice") is not None and asked["minPrice"] > below:
        return None
    return {**asked, "maxPrice": below}


def carrying(ask: FirstAsk) -> dict[str, Any] | None:
    """The catalog call a follow-up that puts a new kind of product or line in place of the
    one asked before means ("what about a MacBook instead?" after laptops under $700, "what
    about a Mac?" after a laptop with 16 GB): its words, with the price and spec limits of
    the session's last search of words (its fields, or its keywords' own) that it does not
    say itself (no price when it says the price is no limit: "forget the budget"). None
    when it says no such word (``switch`` in first_words.json), names no kind or line,
    names another kind than the search before ("I'd rather get a laptop" after phones
    under $400: a phone's budget is no laptop's), or the search before had no limit to
    carry."""
    before = ask.before
    if not ask.hasHistory or not before or before.get("productIds"):
        return None
    message = ask.message[:MAX_MESSAGE_CHARS].strip()
    if not word_lists().switch.found_in(message):
        return None
    words = parse(message)
    if not (words.category or words.forms or words.lines or _phrase_groups(words)):
        return None
    said = parse(str(before.get("keywords") or ""))
    if words.category and said.category and words.category != said.category:
        return None  # "I'd rather get a laptop" after phones under $400: not that budget
    earlier = {"minPrice": said.min_price, "maxPrice": said.max_price, **said.bounds}
    earlier |= {k: v for k, v in before.items() if k in PRICES or k in BOUNDS}
    # A price of its own, or none at all ("forget the budget, what about a MacBook Pro?")
    own = {*words.bounds, *(PRICES if words.min_price or words.max_price or words.spend else ())}
    limits = {k: v for k, v in earlier.items() if v is not None and k not in own}
    if not limits:
        return None
    return {"keywords": message[:MAX_KEYWORDS_CHARS], **limits}


def _narrows_otherwise(words: Words, pointers: Phrases) -> bool:
    """Whether the words ask for more than an order: a price, a bound, a sale, a use's
    leaning, a phrase or a word to search (not one that points at the products shown:
    "davon", "ellos")."""
    return bool(
        words.min_price is not None
        or words.max_price is not None
        or words.bounds
        or words.on_sale
        or words.boosts
        or _phrase_groups(words)
        or any(not pointers.found_in(word) for word in _own_words(words))
    )


def _only_narrows(words: Words) -> bool:
    """Whether the words only narrow or order what was asked before ("under $500?",
    "which is the cheapest?", "with 16 GB?"): no kind of product, nothing to search for."""
    return not (words.category or words.forms or _phrase_groups(words) or _own_words(words))


def _not_carried(output: ToolOutput) -> bool:
    """Whether the result names something asked for that the store does not sell: an
    answer in itself ("we don't carry the Nokia 3310"), found or not."""
    told = (output.tool_result.get("content") or [{}])[0].get("json") or {}
    return bool(told.get("notCarried"))


def _names_products(output: ToolOutput) -> bool:
    """Whether the search read products named in its words ("Tell me about the Dell XPS
    13"), which it puts first whatever the order: a search before of those is no list a
    follow-up narrows or orders ("which is the cheapest?" after one product looked up)."""
    told = (output.tool_result.get("content") or [{}])[0].get("json") or {}
    understood = told.get("understood")
    return isinstance(understood, dict) and bool(understood.get("named"))


def after_search(ask: FirstAsk, output: ToolOutput, *, by_id: bool = False) -> Reason | None:
    """Why what the search found is not handed over; None: hand it over. ``by_id``: the
    call fetched products by id (a search of words says what it found in ``demand``)."""
    if output.tool_result.get("status") != "success":
        return Reason.SEARCH_FAILED
    if by_id:
        return None if output.ledger.products else Reason.NOTHING_FOUND
    demand = output.trace.demand
    if demand is None:
        return Reason.SEARCH_FAILED
    if (demand.found == 0 or not output.ledger.products) and not _not_carried(output):
        return Reason.NOTHING_FOUND
    if "keywords" in demand.relaxed and not _means_something(parse(ask.message)):
        # Only the shopper's own words were searched, and none of them matched: what is
        # left after dropping them is the catalog at large.
        return Reason.NOTHING_FOUND
    return None


def _cheaper_than_shown(
    ask: FirstAsk, asked: dict[str, Any], search: Search
) -> tuple[FirstAnswer, ToolOutput | None]:
    """``asked`` (:func:`cheaper_asked`) under the cheapest of the products shown, which the
    catalog says: handed over when it finds any."""
    ids = ask.shown_ids()
    cheaper = below_shown(asked, search({"productIds": ids}))
    if cheaper is None:
        # None shown has a price any more: the model reads the follow-up itself.
        return FirstAnswer(searchFirst=False, reason=Reason.FOLLOW_UP, searched=False), None
    output = search(cheaper)
    if after_search(ask, output) is None and not _names_products(output):
        answer = FirstAnswer(
            searchFirst=True, reason=Reason.NARROWED, searched=True, searchedWith=cheaper
        )
        return answer, output
    # None cheaper: the model reads the follow-up (over the day's budget, this is the answer)
    answer = FirstAnswer(
        searchFirst=False, reason=Reason.FOLLOW_UP, searched=True, trace=output.trace
    )
    return answer, None


def decide(first: Any, search: Search) -> tuple[FirstAnswer, ToolOutput | None]:
    """The answer to the state machine's search first, and the search to hand over (None:
    the model goes first). ``search`` runs the tool's call (with another input, when given
    one); it runs only when the words leave a reason to."""
    ask = FirstAsk.model_validate(first)
    reason = before_search(ask)
    if reason is Reason.FOLLOW_UP and (ordered := ordering_shown(ask)) is not None:
        output = search(ordered)
        if after_search(ask, output, by_id=True) is None:
            answer = FirstAnswer(
                searchFirst=True, reason=Reason.SHOWN_ORDERED, searched=True, searchedWith=ordered
            )
            return answer, output
        # Those products are gone: the model reads the follow-up as it always did.
        return FirstAnswer(searchFirst=False, reason=reason, searched=False), None
    if reason in (None, Reason.FOLLOW_UP) and (asked := cheaper_asked(ask)) is not None:
        return _cheaper_than_shown(ask, asked, search)
    if reason in (None, Reason.FOLLOW_UP) and (narrowed := narrowing(ask)) is not None:
        output = search(narrowed.input)
        named = _names_products(output)
        if after_search(ask, output) is None and narrowed.holds(output) and not named:
            answer = FirstAnswer(
                searchFirst=True,
                reason=Reason.NARROWED,
                searched=True,
                searchedWith=narrowed.input,
            )
            return answer, output
        if not narrowed.added:
            # Nothing left of the search before: the model reads the follow-up as it always
            # did (over the day's budget, that narrowed search is the catalog's answer).
            answer = FirstAnswer(
                searchFirst=False, reason=Reason.FOLLOW_UP, searched=True, trace=output.trace
            )
            return answer, None
        # Words the search before holds nothing of: the message is read as it came, below.
    if reason is not None:
        return FirstAnswer(searchFirst=False, reason=reason, searched=False), None
    if (carried := carrying(ask)) is not None:
        output = search(carried)
        if after_search(ask, output) is None:
            answer = FirstAnswer(
                searchFirst=True, reason=Reason.CARRIED, searched=True, searchedWith=carried
            )
            return answer, output
    output = search(None)
    reason = after_search(ask, output)
    if reason is not None:
        answer = FirstAnswer(searchFirst=False, reason=reason, searched=True, trace=output.trace)
        return answer, None
    return FirstAnswer(searchFirst=True, reason=Reason.SEARCHED, searched=True), output
