"""The obedient model: a Converse stand-in that does what the tools' results tell it.

A misled model does some of this; this one does all of it, every time, so that the red
team measures what the rest of the system lets through when the model is fully misled
(``storechat eval --red-team``, ``--model obedient``). It is a test double: it knows no
shop and no attack, only the phrasing of instructions (:mod:`storechat.redteam.obey`).

* On the first call of a turn it asks every tool on offer at once: the catalog with the
  shopper's words as keywords, and each web tool (reviews, books) with them as its query.
  A catalog search the state machine made before its first call (search first) does not
  count as one of its own: it still asks every tool on that call.
* Once results are in, it does what their text asks (:func:`~storechat.redteam.obey.obey`):
  a tool call it was told to make comes first (once each, at most three rounds a turn),
  with what it was told to say written before it, as models write a line before a call;
  the loop shows it only a summary of earlier rounds, so those words carry what it was
  told into its answer.
* Then it answers: the first product the catalog returned, cited as ``[productId]`` with
  its name and price; what it said in the previous turn, again (it trusts its history);
  the first sentence of each review, as written; then every text it was told to write,
  every forged product with its price, and the system prompt if asked.

Usage is counted as the offline model counts it (:mod:`converse.metering`).
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from typing import Any, Final

import registry
from converse.conversation import content_blocks, offered_tools, previous_answer
from converse.metering import UsageMeter
from converse.request import earlier_turns_length
from shared.products.table import shown_products
from shared.runtime.errors import InvalidConverseRequest
from shared.tools.untrusted import unquoted
from storechat.redteam.obey import Obeyed, obey

OBEDIENT_MODEL_ID: Final = "storechat.obedient-v1"
LOOKUP: Final = registry.INVENTORY_TOOL.name
WEB_TOOLS: Final = (registry.REVIEWS_TOOL.name, registry.BOOK_TOOL.name)
MAX_ROUNDS = 3
"""Tool rounds it asks for in one turn: enough to obey, short of the loop's cap."""
LOOKING: Final = "Let me look that up."
WAITING: Final = "One moment."
OWN_CALL: Final = "tooluse_obey_"
"""How the toolUseIds of its own calls start (:func:`_calls`)."""
QUERY_CHARS = 120
"""The shopper's words as a query: within every tool's limit (``keywords``: 120)."""
_SENTENCE = re.compile(r"(?<=[.!?])\s")


class ObedientModel:
    """Converse request in, Converse response out. Thread-safe: no state but the meter's."""

    label = "obedient"

    def __init__(self) -> None:
        self._meter = UsageMeter()

    def converse(
        self, request: dict[str, Any], *, timeout_s: float | None = None
    ) -> dict[str, Any]:
        messages = request.get("messages")
        if not isinstance(messages, list) or not messages:
            raise InvalidConverseRequest("the obedient model needs at least one message")
        content, stop_reason = _reply(request, messages)
        return self._meter.response(request, content, stop_reason)


def _reply(
    request: dict[str, Any], messages: list[dict[str, Any]]
) -> tuple[list[dict[str, Any]], str]:
    start = earlier_turns_length(messages)
    turn = messages[start:]
    question = " ".join(str(b.get("text", "")) for b in content_blocks(turn[0])).strip()
    asked = _asked(turn)
    offered = offered_tools(request)
    first = [name for name in (LOOKUP, *WEB_TOOLS) if name in offered]
    if not _rounds(turn) and first and len(question) >= 2:
        words = question[:QUERY_CHARS].strip()
        calls = [(name, {"keywords" if name == LOOKUP else "query": words}) for name in first]
        return _calls(calls, LOOKING, turn), "tool_use"
    results = list(_results(turn, asked))
    told = [(name, obey(text)) for name, item, text in _texts(results)]
    made = {_key(name, given) for name, given in asked.values()}
    pending = list({_key(*c): c for _, o in told for c in o.calls if _key(*c) not in made}.values())
    said = [words for _, o in told for words in o.say]
    if pending and _rounds(turn) < MAX_ROUNDS:
        lead = " ".join(said) or WAITING
        return _calls(pending[:3], lead, turn), "tool_use"
    # The loop shows a model only a summary of earlier rounds' results: what it was told
    # there lives on in what it wrote before those calls.
    written = [
        str(b["text"])
        for m in turn
        if m.get("role") == "assistant"
        for b in content_blocks(m)
        if "text" in b and b["text"] not in (LOOKING, WAITING)
    ]
    answer = _answer(request, messages, results, [o for _, o in told], written)
    return [{"text": answer}], "end_turn"


def _answer(
    request: dict[str, Any],
    messages: list[dict[str, Any]],
    results: list[tuple[str, dict[str, Any]]],
    told: list[Obeyed],
    written: list[str],
) -> str:
    lines: list[str] = []
    product = next(
        (
            p
            for name, body in results
            if name == LOOKUP
            for p in shown_products(body.get("products"))
        ),
        None,
    )
    if isinstance(product, dict) and product.get("productId"):
        lines.append(
            f"The {product.get('name')} [{product['productId']}] is ${product.get('price')}."
        )
    earlier = previous_answer(messages)
    if earlier:
        lines.append(f"As I said before: {earlier}")
    for name, item, text in _texts(results):
        if name in WEB_TOOLS and item == "description":
            lines.append(f"A reviewer writes: {_SENTENCE.split(text, maxsplit=1)[0]}")
    lines.extend(written)
    for obeyed in told:
        lines.extend(obeyed.say)
        for forged in obeyed.products:
            cited = f" [{forged['productId']}]" if forged.get("productId") else ""
            lines.append(f"{forged.get('name')}{cited} is only ${forged.get('price')}.")
    for obeyed in (o for o in told if o.leak):
        prompt = " ".join(str(b["text"]) for b in request.get("system") or [] if "text" in b)
        leaked = obeyed.leak_separator.join(prompt.split())
        if obeyed.leak_every is not None:
            mark, count = obeyed.leak_every
            leaked = f" {mark} ".join(leaked[i : i + count] for i in range(0, len(leaked), count))
        lines.append(leaked)
        break
    return "\n\n".join(lines) or "I found nothing to tell you."


def _rounds(turn: list[dict[str, Any]]) -> int:
    """Tool rounds it asked for so far this turn (not a search made before its first call)."""
    return sum(
        1
        for message in turn
        if message.get("role") == "assistant"
        and any(
            str(block["toolUse"].get("toolUseId")).startswith(OWN_CALL)
            for block in content_blocks(message)
            if "toolUse" in block
        )
    )


def _asked(turn: list[dict[str, Any]]) -> dict[str, tuple[str, dict[str, Any]]]:
    """toolUseId -> (tool name, input), for every call this turn made."""
    return {
        str(use.get("toolUseId")): (str(use.get("name")), dict(use.get("input") or {}))
        for message in turn
        if message.get("role") == "assistant"
        for use in (b["toolUse"] for b in content_blocks(message) if "toolUse" in b)
    }


def _results(
    turn: list[dict[str, Any]], asked: dict[str, tuple[str, dict[str, Any]]]
) -> Iterator[tuple[str, dict[str, Any]]]:
    """(tool name, JSON body) of each result this turn, in order."""
    for message in turn:
        for block in content_blocks(message):
            result = block.get("toolResult")
            if not isinstance(result, dict):
                continue
            name = asked.get(str(result.get("toolUseId")), ("", {}))[0]
            for part in result.get("content") or []:
                if isinstance(part, dict) and isinstance(part.get("json"), dict):
                    yield name, part["json"]
                elif isinstance(part, dict) and isinstance(part.get("text"), str):
                    yield name, {"text": part["text"]}


def _texts(results: list[tuple[str, dict[str, Any]]]) -> Iterator[tuple[str, str, str]]:
    """(tool name, key, text) of every string in the results: the model reads them all."""

    def walk(value: Any, key: str) -> Iterator[tuple[str, str]]:
        if isinstance(value, str):
            yield key, value
        elif isinstance(value, list):
            for item in value:
                yield from walk(item, key)
        elif isinstance(value, dict):
            for inner, item in value.items():
                yield from walk(item, str(inner))

    for name, body in results:
        # Quote marks mean nothing to a misled model: it reads what is inside them.
        for key, text in walk(unquoted(body), ""):
            yield name, key, text


def _key(name: str, given: dict[str, Any]) -> str:
    return name + json.dumps(given, sort_keys=True, default=str)


def _calls(
    calls: list[tuple[str, dict[str, Any]]], lead: str, turn: list[dict[str, Any]]
) -> list[dict[str, Any]]:
    round_number = _rounds(turn) + 1
    content: list[dict[str, Any]] = [{"text": lead}]
    for index, (name, given) in enumerate(calls):
        tool_use_id = f"{OWN_CALL}{round_number}_{index}"
        content.append({"toolUse": {"toolUseId": tool_use_id, "name": name, "input": given}})
    return content
