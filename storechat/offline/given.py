"""A catalog search the loop ran on the shopper's words before the first model call.

With search first, the first request of a turn already ends with an assistant
``toolUse`` of ``lookup_inventory`` holding only the shopper's ``keywords``, and its
``toolResult``: written by the loop, not by this model. The model reads the question as
always. When the search serves the one lookup its plan makes (it found products, each
meets every constraint that lookup states, in the order it asks for), the result is
that lookup's, in round 1: the model asks only for the rest of its plan (reviews, a
book's facts), or answers at once. When it does not serve, the model asks for its whole
plan as if no search had been run; the search stays in the history but is no round of
the model's own.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field, replace
from typing import Any, Final

from storechat.offline.answer import constraints_for
from storechat.offline.checks import Constraints, shortfalls
from storechat.offline.messages import ToolOutcome, content_blocks, read_rounds, text_of
from storechat.offline.names import matches, name_tokens
from storechat.offline.plan import Ask, Call, Done
from storechat.offline.product import Product
from storechat.offline.rank import FEATURES, sort_feature
from storechat.offline.vocabulary import LOOKUP, OS_LABEL

OWN_TOOL_USE: Final = "tooluse_off_"
"""How this model's own toolUse ids start; they come with a sentence before them."""
ON_SALE: Final = "on sale"


def handed_over(messages: list[dict[str, Any]]) -> ToolOutcome | None:
    """The search the loop ran before this turn's first model call, if it did: the
    assistant message after the shopper's latest words is one ``lookup_inventory`` of
    ``keywords`` alone, with no words of this model's."""
    asked = [i for i, m in enumerate(messages) if m.get("role") == "user" and text_of(m)]
    if not asked or asked[-1] + 2 >= len(messages):
        return None
    reply = messages[asked[-1] + 1]
    blocks = content_blocks(reply)
    use = blocks[0].get("toolUse") if len(blocks) == 1 else None
    if reply.get("role") != "assistant" or not isinstance(use, dict):
        return None
    tool_input = use.get("input")
    if (
        use.get("name") != LOOKUP
        or not isinstance(tool_input, dict)
        or set(tool_input) != {"keywords"}
    ):
        return None
    if str(use.get("toolUseId", "")).startswith(OWN_TOOL_USE):
        return None
    first = next(iter(read_rounds(messages)), [])
    return next((o for o in first if o.tool_use_id == use["toolUseId"]), None)


@dataclass(frozen=True)
class Turn:
    """The turn as the model's own: its rounds, the given search in round 1 when it
    serves; the calls round 1 still needs; and the given products to fetch again when
    the loop has shrunk them to a brief before the answer."""

    rounds: list[list[ToolOutcome]]
    pending: list[Call]
    again: list[Call] = field(default_factory=list)


def own_turn(
    ask: Ask, plan: list[Call], given: ToolOutcome, rounds: list[list[ToolOutcome]]
) -> Turn:
    """``rounds``: every round of the turn, the given search's first.

    Whether the search serves is read from its products at the first call; after that
    from what the model asked (a search that served is never asked again), since the
    loop may have shrunk it to a brief."""
    own = rounds[1:]
    lookups = [c for c in plan if c.name == LOOKUP]
    lookup = lookups[0] if len(lookups) == 1 else None
    if lookup is None:
        return Turn(own, plan)
    if own:
        asked = any(o.name == LOOKUP and o.tool_input == lookup.input for o in own[0])
        if asked:
            return Turn(own, plan)
    elif not serves(ask, lookup, given):
        return Turn(own, plan)
    mine = replace(given, tool_input=lookup.input)
    rest = [c for c in plan if c is not lookup]
    if not rest:
        return Turn([[mine], *own], [])
    if not own:
        return Turn([], rest)
    # Round 1 is the search and the rest; a round 2 of its own refetches what a brief lost.
    again = [Call(LOOKUP, {"productIds": given.found_ids}, "again")] if given.brief else []
    return Turn([[mine, *own[0]], *own[1:]], rest, again)


def serves(ask: Ask, lookup: Call, given: ToolOutcome) -> bool:
    """Whether the given search answers ``lookup`` as well as the lookup itself would."""
    data = given.data
    if data is None or given.brief or data.get("relaxed"):
        return False  # a search that dropped the shopper's words or budget is no answer
    raw = [r for r in data.get("products") or [] if isinstance(r, dict)]
    products = [p for i, r in enumerate(raw) if (p := Product.parse(r, i)) is not None]
    if not products or len(products) != len(raw):
        return False
    if lookup.purpose == "named":
        models = ask.intent.products
        return lookup.index < len(models) and bool(matches(models[lookup.index], products))
    if lookup.purpose != "search":
        return False  # products shown before, cheaper ones, a kind not carried
    c = constraints_for(Done(lookup, replace(given, tool_input=lookup.input)), ask.intent)
    request = lookup.input
    sort_by = request.get("sortBy")
    if sort_by and ((data.get("understood") or {}).get("sortBy") != sort_by):
        return False  # the first few by relevance are not the first few in that order
    return all(_meets(p, r, c, request) for p, r in zip(products, raw, strict=True)) and (
        not sort_by or _in_order(products, str(sort_by))
    )


def _meets(product: Product, raw: dict[str, Any], c: Constraints, request: dict[str, Any]) -> bool:
    """Whether ``product`` meets every constraint ``request`` states."""
    if c.category and product.category != c.category:
        return False
    if request.get("inStockOnly") and not product.in_stock:
        return False
    name = request.get("productName")
    if isinstance(name, str) and not set(name_tokens(name)) <= set(name_tokens(product.name)):
        return False
    if shortfalls(product, c):
        return False  # brand, system, form, price and spec bounds
    keywords = str(request.get("keywords") or "").casefold()
    if ON_SALE in keywords and not raw.get("sale"):
        return False
    # The search's other words (a genre, a topic, an author): the product says them.
    said = json.dumps(raw, ensure_ascii=False).casefold()
    checked = {*OS_LABEL, *c.forms}
    return all(w in said for w in keywords.replace(ON_SALE, " ").split() if w not in checked)


def _in_order(products: list[Product], sort_by: str) -> bool:
    """Whether the products come in stock first, then by ``sort_by``, those without the
    value last."""
    feature, lowest_first = sort_feature(sort_by)
    value = FEATURES.get(feature or "")
    if value is None:
        return False

    def key(p: Product) -> tuple[bool, bool, float]:
        v = value(p)
        return (not p.in_stock, v is None, 0.0 if v is None else v if lowest_first else -v)

    keys = [key(p) for p in products]
    return keys == sorted(keys)
