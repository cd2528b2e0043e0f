"""A deterministic stand-in for a Bedrock model that speaks the Converse protocol.

:class:`OfflineModel` takes the kwargs of boto3's ``converse`` and returns a response of
the same shape, so the demo and the tests run with no AWS account and no model weights.
It reads the shopper's words with regular expressions: it exercises the tool loop, it is
not clever. Turn 1 asks for every tool call the message needs in one round (or replies
at once); turn 2 answers from the tool results, citing products as ``[productId]``.

Usage and caching are :mod:`converse.metering`'s approximation; a response's content
depends only on the request, and one instance serves concurrent requests. An answer
is capped at about 900 characters; ``inferenceConfig.maxTokens`` is not enforced.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import replace
from typing import Any, Final

from converse.conversation import content_blocks, offered_tools, previous_answer, user_texts
from converse.metering import DEFAULT_STAND_IN, UsageMeter
from shared.products.citing import is_handle
from shared.runtime.errors import InvalidConverseRequest
from storechat.offline.answer import compose_answer
from storechat.offline.given import OWN_TOOL_USE, Turn, handed_over, own_turn, with_named
from storechat.offline.intent import (
    COMPARE,
    Intent,
    conversation_intent,
    earlier_words,
    ids_as_names,
    named_by_id,
    names_others,
    ordinals_as,
    parse_text,
    shown_in,
    steers,
)
from storechat.offline.messages import (
    ToolOutcome,
    as_searched,
    ids_named,
    last_top_pick,
    read_rounds,
)
from storechat.offline.notes import (
    ASK_REPLY,
    DECLINE,
    GREETING,
    NO_TOOLS_REPLY,
    THANKS_REPLY,
    asks_policies,
    outside_reply,
    policy_answer,
    policy_call,
    service_reply,
)
from storechat.offline.plan import Ask, Call, label, plan_first, preamble
from storechat.offline.product import models_carried
from storechat.offline.store import LOOKUP, Store, serving

_SLASHED: Final = re.compile(r"[^\W_]/[^\W_]")
"""A letter or digit, a slash and another: models written with a slash."""
OFFLINE_MODEL_ID: Final = "storechat.offline-v1"


def read_ask(
    messages: list[dict[str, Any]],
    given: ToolOutcome | None = None,
    corrected: dict[str, str] | None = None,
) -> Ask:
    """The latest message, what it carries over, and what was shown before; ``given``:
    the search of the shopper's words; ``corrected``: misspellings this model's own
    searches read ("the Pixle 9 Pro" is the Pixel 9 Pro they found)."""
    said = user_texts(messages)
    shown = tuple(shown_in(previous_answer(messages)))
    if said and COMPARE.search(said[-1]) and models_carried(said[-1]):
        # "compare the first and the Pixel 9": the first said by its name, as the other is
        said = [*said[:-1], ordinals_as(said[-1], list(shown), lambda s: s.name)]
    # A product named by its id is read by its name (from any of this turn's results:
    # the given search may be shrunk), or as pointed at among those shown.
    found = {
        str(r["productId"]): str(r["name"])
        for round_ in read_rounds(messages)
        for outcome in round_
        for r in outcome.rows
        if r.get("productId") and r.get("name")
    }
    if given is None and any(_SLASHED.search(t) for t in said):
        # With its own searches first, models written with a slash ("XPS 13/16/512") were
        # each searched alone: a store id found by one of them is not read into the words,
        # or the models read at first are read again as another question.
        found = {k: v for k, v in found.items() if not is_handle(k)}
    ids = {s.product_id: "" for s in shown} | found | ids_named(given)
    slips = corrected or (given.corrected if given else {})
    texts = [as_searched(ids_as_names(t, ids), slips) for t in said]
    intent = with_named(conversation_intent(texts), given)
    if intent.wants_reviews and not intent.review_query:
        # "what do reviews say about 7700352?": that one, else the previous top pick
        named = named_by_id(said[-1], list(shown)) if said else ()
        by_id = last_top_pick(messages, shown[named[0]].product_id) if named else None
        intent = replace(intent, review_query=by_id or last_top_pick(messages))
    current = parse_text(texts[-1]) if texts else Intent()
    # Searched as the shopper wrote it: the search reads its slips itself.
    earlier = earlier_words(said)
    latest = said[-1] if said else ""
    if names_others(latest, list(shown)):
        # Searched with the ones shown by their ids, and alone: the earlier words' limits
        # are no limits on the products named ("a phone under 500", then "compare the
        # last one and MOB-015" at $799).
        latest, earlier = ordinals_as(latest, list(shown), lambda s: s.product_id), ()
    return Ask(intent, current, shown, latest, earlier)


class OfflineModel:
    """A deterministic Converse model: same request, same message. Thread-safe."""

    def __init__(
        self, stand_in_for: str = DEFAULT_STAND_IN, store: Callable[[], Store] | None = None
    ) -> None:
        """``store``: what the store carries when a request comes (bundled if None)."""
        self._meter = UsageMeter(stand_in_for)
        self._store = store

    def converse(self, request: dict[str, Any]) -> dict[str, Any]:
        messages = request.get("messages")
        if not isinstance(messages, list) or not messages:
            raise InvalidConverseRequest("the offline model needs at least one message")
        if not isinstance(messages[-1], dict) or messages[-1].get("role") != "user":
            raise InvalidConverseRequest("the last message must come from the user")
        with serving(self._store):
            content, stop_reason = self._reply(request, messages)
        return self._meter.response(request, content, stop_reason)

    def _reply(
        self, request: dict[str, Any], messages: list[dict[str, Any]]
    ) -> tuple[list[dict[str, Any]], str]:
        given = handed_over(messages)
        # The given search read the shopper's slips ("samsng"); this model's own searches
        # come after its plan, which they never change.
        ask = read_ask(messages, given)
        available = offered_tools(request)
        first = plan_first(ask, available)
        rounds = read_rounds(messages)
        turn = own_turn(first, given, rounds, ask.said) if given else Turn(rounds, first)
        answered = any("toolResult" in block for block in content_blocks(messages[-1]))
        if not answered or (given is not None and len(rounds) == 1):
            # The first call of the turn: a given search that serves the plan is round 1's.
            direct = self._direct_reply(ask, first, available)
            if direct is not None or not turn.rounds:
                return direct or (_tool_uses(turn.pending, messages), "tool_use")
        about_store = policy_answer(rounds)
        if about_store is not None:
            return [{"text": about_store}], "end_turn"
        rounds = turn.rounds
        done = label(rounds[0], turn.plan or first) if rounds else []
        # Round 2 only fetches again the given search's products the loop shrank to a brief.
        if len(rounds) == 1 and turn.again:
            return _tool_uses(turn.again, messages), "tool_use"
        if len(rounds) > 1:
            done += label(rounds[1], turn.again)
            done += [d for extra in rounds[2:] for d in label(extra, [])]
        # A product named in a misspelling is the one the search read ("the Pixle 9 Pro").
        own = {w: r for d in done if d.call.name == LOOKUP for w, r in d.outcome.corrected.items()}
        if given is None and own:
            read = read_ask(messages, None, own)
            lookups = [d for d in done if d.call.name == LOOKUP]
            alone = [(d.call.purpose, set(d.call.input)) for d in lookups] == [
                ("search", {"keywords"})
            ]
            named = alone and bool(lookups[0].outcome.understood.get("named"))
            if not ask.intent.products and read.intent.products and named:
                # The one search of the words read the only names in them: it answers them.
                done = [replace(d, call=replace(d.call, purpose="names")) for d in done]
            # One search of the words answers every name they hold; a search a name, its own.
            whole = all(d.call.purpose == "names" for d in done if d.call.name == LOOKUP)
            same = len(read.intent.products) == len(ask.intent.products)
            ask = read if read.intent.products and (same or whole) else ask
        return [{"text": compose_answer(ask, done)}], "end_turn"

    @staticmethod
    def _direct_reply(
        ask: Ask, calls: list[Call], available: frozenset[str]
    ) -> tuple[list[dict[str, Any]], str] | None:
        """The first reply when it is not the plan's ``calls``: a policies call, or words."""
        intent = ask.intent
        if asks_policies(ask.current, available):
            return policy_call(ask.current.text), "tool_use"
        if intent.service and not intent.names_subject():
            return [{"text": service_reply(intent.service)}], "end_turn"
        if intent.is_empty() and (not calls or steers(ask.current.text)):
            # Asking for nothing the store does: asked what it wants, not shown the cheapest
            # products; steering the assistant off its job is declined, whatever it names.
            unclear = DECLINE if steers(ask.current.text) else ASK_REPLY
            reply = THANKS_REPLY if intent.thanks else GREETING if intent.greets else unclear
            return [{"text": reply}], "end_turn"
        if not calls:
            if intent.not_carried:
                return [{"text": outside_reply(intent)}], "end_turn"
            # Nothing to ask the catalog tool: the model did not understand, so it asks.
            return [{"text": ASK_REPLY if LOOKUP in available else NO_TOOLS_REPLY}], "end_turn"
        return None


def _tool_uses(calls: list[Call], messages: list[dict[str, Any]]) -> list[dict[str, Any]]:
    round_number = sum(1 for m in messages if isinstance(m, dict) and m.get("role") == "assistant")
    content: list[dict[str, Any]] = [{"text": preamble(calls)}]
    for index, call in enumerate(calls):
        tool_use_id = f"{OWN_TOOL_USE}{round_number + 1}_{index}"
        content.append(
            {"toolUse": {"toolUseId": tool_use_id, "name": call.name, "input": call.input}}
        )
    return content
