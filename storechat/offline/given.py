"""A catalog search the loop ran on the shopper's words before the first model call.

When it serves the plan's lookup it is that lookup's result in round 1, and the model
asks only for the rest of its plan (with the products found fetched again: the loop
shrinks the search to a brief before the answer). Otherwise the model asks for its whole
plan, and the search stays in the history as no round of its own.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from typing import Any, Final

from converse.conversation import content_blocks, text_of
from shared.search.named import line_words
from shared.search.series import name_words
from storechat.offline.intent import COMPARE, Intent
from storechat.offline.messages import ToolOutcome, read_rounds
from storechat.offline.plan import Call
from storechat.offline.product import ModelName
from storechat.offline.store import LOOKUP

OWN_TOOL_USE: Final = "tooluse_off_"
"""How this model's own toolUse ids start; they come with a sentence before them."""


def handed_over(messages: list[dict[str, Any]]) -> ToolOutcome | None:
    """The search the loop ran before this turn's first model call, if it did: one
    ``lookup_inventory`` right after the shopper's latest words, with no words of ours."""
    asked = [i for i, m in enumerate(messages) if m.get("role") == "user" and text_of(m)]
    if not asked or asked[-1] + 2 >= len(messages):
        return None
    reply = messages[asked[-1] + 1]
    blocks = content_blocks(reply)
    use = blocks[0].get("toolUse") if len(blocks) == 1 else None
    if reply.get("role") != "assistant" or not isinstance(use, dict):
        return None
    tool_input = use.get("input")
    if use.get("name") != LOOKUP or not isinstance(tool_input, dict):
        return None  # the shopper's words, or the products shown in an order asked for
    if str(use.get("toolUseId", "")).startswith(OWN_TOOL_USE):
        return None
    first = next(iter(read_rounds(messages)), [])
    return next((o for o in first if o.tool_use_id == use["toolUseId"]), None)


@dataclass(frozen=True)
class Turn:
    """The turn as the model's own: its rounds (the given search in round 1 when it
    serves), the calls round 1 still needs, and the given products to fetch again."""

    rounds: list[list[ToolOutcome]]
    pending: list[Call]
    again: list[Call] = field(default_factory=list)
    plan: list[Call] | None = None
    """The plan the rounds answer, when the loop's reading of a follow-up replaced the
    model's lookup; else the model's own."""


def own_turn(
    plan: list[Call], given: ToolOutcome, rounds: list[list[ToolOutcome]], said: str
) -> Turn:
    """``rounds``: every round of the turn, the given search's first. Whether the search
    serves is read from its products at the first call, then from what the model asked
    (one that served is never asked again): the loop may have shrunk it."""
    own = rounds[1:]
    lookups = [c for c in plan if c.name == LOOKUP]
    # Products named, each searched by its name: the search found them all, or the model asks.
    named = len(lookups) > 1 and len(plan) == len(lookups) and not own
    if named and all(serves(each, given, said) for each in lookups):
        return Turn([[_as_planned(given, each) for each in lookups]], [])
    lookup = lookups[0] if len(lookups) == 1 else None
    if lookup is None:
        return Turn(own, plan)
    if own:
        asked = any(o.name == LOOKUP and o.tool_input == lookup.input for o in own[0])
        if asked:
            return Turn(own, plan)
    elif not serves(lookup, given, said):
        return Turn(own, plan)
    searched = given.tool_input
    if lookup.purpose in ("search", "cheaper", "shown") and searched != lookup.input:
        # The loop's reading of a follow-up: the answer holds the products to what it carried
        loops = Call(LOOKUP, searched, lookup.purpose, lookup.index, lookup.limit)
        plan = [loops if c is lookup else c for c in plan]
        lookup = loops
    mine = _as_planned(given, lookup)
    rest = [c for c in plan if c is not lookup]
    if not rest:
        return Turn([[mine], *own], [], plan=plan)
    # Words naming products are searched again: the tool gives one named, sold out, what
    # is nearest it in stock and what they share; products fetched by id have no nearest.
    by_words = lookup.purpose in ("names", "named")
    again = lookup.input if by_words else {"productIds": given.found_ids}
    refetch = Call(LOOKUP, again, "again")
    if not (by_words or given.found_ids):
        # A search that found nothing has nothing a brief could lose: round 1 is it and the rest.
        return Turn([[mine, *own[0]], *own[1:]], rest, plan=plan) if own else Turn([], rest)
    if not own:
        # The loop will shrink the search to a brief: fetch its products in the same round.
        return Turn([], [*rest, refetch], plan=plan)
    fetched = next((o for o in own[0] if o.name == LOOKUP and o.tool_input == refetch.input), None)
    if fetched is not None and fetched.data is not None and not fetched.brief:
        restored = _as_planned(_refetched(given, fetched), lookup)
        return Turn(
            [[restored, *(o for o in own[0] if o is not fetched)], *own[1:]], rest, plan=plan
        )
    # Round 1 is the search and the rest; a round 2 of its own refetches what a brief lost.
    return Turn([[mine, *own[0]], *own[1:]], rest, [refetch] if given.brief else [], plan)


def _refetched(given: ToolOutcome, fetched: ToolOutcome) -> ToolOutcome:
    """The given search with the products fetched again by id, in the search's order."""
    data = dict(fetched.data or {})
    place = {pid: n for n, pid in enumerate(given.found_ids)}
    data["products"] = sorted(fetched.rows, key=lambda p: place.get(p.get("productId"), len(place)))
    return replace(given, data=data, brief=False)


def serves(lookup: Call, given: ToolOutcome, said: str) -> bool:
    """Whether the given search is ``lookup``'s own result: the same search; the loop's
    reading of a follow-up ("only Windows ones") for a search of words; for cheaper ones,
    one below the model's price; for a product named, one that found it or says the store
    does not carry it."""
    data, searched = given.data, given.tool_input
    if data is None or given.brief:
        return False
    if searched == lookup.input or _same_fetch(searched, lookup.input):
        return True
    if lookup.purpose == "shown":
        # Those shown in the order the search reads in the words, and nothing else in them
        # ("which of those is the lightest?"), fetched by the loop: the words' lookup
        ids, planned = searched.get("productIds"), lookup.input
        asked = set(searched) == {"productIds", "sortBy"} and "keywords" in planned
        return asked and isinstance(ids, list) and set(ids) == set(planned["productIds"])
    if not isinstance(searched.get("keywords"), str) or "productIds" in searched:
        return False
    if lookup.purpose == "named":
        return _found(lookup.input.get("keywords"), given)
    if lookup.purpose == "cheaper":
        below, limit = searched.get("maxPrice"), lookup.input.get("maxPrice")
        return isinstance(below, int | float) and isinstance(limit, int | float) and below <= limit
    # A search of the message's words alone is no reading of what a follow-up carries over
    # ("a Samsung then", after a phone): the model searches that itself.
    as_said = " ".join(said.split()).startswith(" ".join(searched["keywords"].split()))
    return lookup.purpose == "search" and (not as_said or set(searched) != {"keywords"})


def _found(name: object, given: ToolOutcome) -> bool:
    """Whether the search found the product ``name`` names, or says the store does not
    carry it: a search that let go of some words found it only when it read the name
    ("magic" is a genre's word, and the Honor Magic 6 Pro a phone)."""
    data = given.data or {}
    if not isinstance(name, str):
        return False
    if any(isinstance(n, str) and _named(n, name) for n in data.get("notCarried") or []):
        return True
    if not any(_named(name, str(r.get("name", ""))) for r in given.rows):
        return False
    read = given.understood.get("named") or []
    return not data.get("relaxed") or any(isinstance(n, str) and _named(name, n) for n in read)


def _same_fetch(given: dict[str, Any], planned: dict[str, Any]) -> bool:
    """Whether two calls fetch the same products by id, whatever order they list them in."""
    ids = given.get("productIds")
    return (
        isinstance(ids, list)
        and isinstance(planned.get("productIds"), list)
        and set(ids) == set(planned["productIds"])
        and {k: v for k, v in given.items() if k != "productIds"}
        == {k: v for k, v in planned.items() if k != "productIds"}
    )


def _as_planned(given: ToolOutcome, lookup: Call) -> ToolOutcome:
    """The given result as ``lookup``'s: for a product named, only the products of that
    name; and only the misspellings of words the lookup holds."""
    if given.data is None:
        return replace(given, tool_input=lookup.input)
    data = dict(given.data)
    name = lookup.input.get("keywords")
    lacked = any(_named(n, str(name)) for n in data.get("notCarried") or [] if isinstance(n, str))
    rows = given.rows
    if lookup.purpose == "named" and not lacked:
        # the products of that name alone
        data["products"] = [r for r in rows if _named(str(name), str(r.get("name", "")))]
    elif lookup.purpose == "named":
        # the closest to a name the store lacks share a word of it: its line or its maker
        # ("iPhone 14": the iPhones, not the Galaxy named beside it)
        said = {w for w in name_words(str(name), brackets=True) if not w.isdigit()}
        data["products"] = [r for r in rows if said & set(name_words(str(r.get("name", ""))))]
    held = re.findall(r"\w+", str(lookup.input.get("keywords") or "").casefold())
    if isinstance(corrected := data.get("corrected"), dict):
        data["corrected"] = {k: v for k, v in corrected.items() if str(k).casefold() in held}
    return replace(given, tool_input=lookup.input, data=data)


def _named(asked: str, name: str) -> bool:
    """Whether a catalog ``name`` has every word of the name ``asked`` for."""
    return set(name_words(asked, brackets=True)) <= set(name_words(name, brackets=True))


def with_named(intent: Intent, given: ToolOutcome | None) -> Intent:
    """``intent`` with the products the given search found named that this model did not
    read itself ("the Framework Laptop 13", whose line is a kind's word), in the order
    the shopper named them. One the store lacks is the search's to say (``notCarried``)."""
    understood = given.understood if given else {}
    named = [n for n in understood.get("named") or [] if isinstance(n, str)]
    if not named or intent.carried or given is None:
        return intent
    rows = given.rows
    models = list(intent.products)
    # What the model read as something else is that: a review's subject, a book's title.
    other = [intent.review_subject.text if intent.review_subject else "", intent.book_title or ""]
    cut_short = False
    for said in named:
        read = [set(name_words(t)) for t in [*(m.text for m in models), *other] if t]
        words = set(name_words(said))
        row = next((r for r in rows if _named(said, str(r.get("name", "")))), None)
        short = [n for n, m in enumerate(models) if _named(m.text, said)]
        if row is not None and said == row.get("name") and short:
            # A product's whole name, as the search found it by its id ("XPS 13/16/512"):
            # the model read in it is that product, read short ("Dell XPS 13 (9340) - 16GB").
            models[short[0]] = replace(models[short[0]], text=said)
            cut_short = True
            continue
        # One read already, or more of one ("Galaxy S24" of "the Apple Galaxy S24"), or
        # one read without its line ("S24+" of "Galaxy S24+"); a model more specific than
        # one read is another ("Galaxy S24 Ultra").
        line = line_words(said)
        if row is None or any(
            have and (words <= have or have < words <= have | line) for have in read
        ):
            continue
        kind = str(row.get("category") or understood.get("category") or "")
        models.append(ModelName(said, str(row.get("brand") or "") or None, kind))
    if len(models) == len(intent.products) and not cut_short:
        return intent
    text = intent.text.casefold()
    models.sort(key=lambda m: text.find(m.text.casefold()) % (len(text) + 1))
    asks = intent.asks
    for model in models:
        # Searched by its name, it is no kind of product to search for besides.
        asks = re.sub(re.escape(model.text), " ", asks, flags=re.IGNORECASE)
    return replace(
        intent,
        products=tuple(models[:3]),
        categories=tuple(
            dict.fromkeys([*intent.categories, *(m.category for m in models if m.category)])
        ),
        asks=" ".join(asks.split()),
        compare=len(models) > 1 and bool(COMPARE.search(intent.text)),
    )
