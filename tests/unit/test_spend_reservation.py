"""The state machine's arithmetic of a model call's spend, evaluated as the ASL writes it.

Each expression is read from ``statemachine/storechat.asl.json``, filled in as the stack
fills it and evaluated by the local JSONata engine (the one the local runner uses).
"""

from __future__ import annotations

import json
import math
from typing import Any

import pytest

import statemachine
from shared.config.pricing import token_prices
from shared.trace.steps import tool_key
from storechat.local import moto_patches
from tests.support.store import SAMPLE_PROMPT

SONNET = token_prices("anthropic.claude-sonnet-4-5-20250929-v1:0")
MAX_TOKENS = 1024
VALUES = statemachine.budget_substitutions(
    5.0, SONNET, max_tokens=MAX_TOKENS, currency="USD", system_prompt=SAMPLE_PROMPT
)
STATES = json.loads(statemachine.read_definition())["States"]


def _expression(text: str) -> str:
    filled = statemachine.substitute(text, VALUES)
    assert filled.startswith("{%") and filled.endswith("%}")
    return filled[2:-2].strip()


def evaluate(text: str, **variables: Any) -> Any:
    declared = "".join(f"${name}:={json.dumps(value)};" for name, value in variables.items())
    return moto_patches.evaluate(f"({declared}{_expression(text)})")


def reservation(messages: list[dict[str, Any]]) -> int:
    return int(evaluate(STATES["PriceModelCall"]["Assign"]["reservedMicroUsd"], messages=messages))


def sent_bytes(messages: list[dict[str, Any]]) -> int:
    return len(json.dumps(messages, ensure_ascii=False, separators=(",", ":")).encode("utf-8"))


def worst_case(input_tokens: int) -> int:
    dearest = SONNET.dearest_input_per_million_usd()
    output = SONNET.per_million_usd()["outputTokens"]
    return math.ceil(input_tokens * dearest + MAX_TOKENS * output)


def user(text: str) -> list[dict[str, Any]]:
    return [{"role": "user", "content": [{"text": text}]}]


def test_a_call_is_reserved_as_a_whole_reply_and_a_token_for_every_byte_it_sends() -> None:
    # Given a conversation in plain ASCII
    messages = user("Do you have a light Windows laptop under $800?")

    # When the state machine prices the call
    reserved = reservation(messages)

    # Then every byte it sends counts as an input token at the dearest input price, with the
    # system prompt and tools before them, and a whole reply of max tokens after them
    fixed = statemachine.fixed_input_tokens(SAMPLE_PROMPT, "USD")
    assert reserved == worst_case(fixed + sent_bytes(messages))
    # (about 4 US cents with Claude Sonnet 4.5)
    assert 30_000 < reserved < 50_000


@pytest.mark.parametrize(
    "text", ["Un portátil ligero", "軽いノートパソコン", "a laptop 😀😀😀", "\u202eevil\u200b"]
)
def test_text_in_any_script_is_reserved_at_least_a_token_for_each_of_its_bytes(text: str) -> None:
    messages = user(text * 20)
    fixed = statemachine.fixed_input_tokens(SAMPLE_PROMPT, "USD")
    assert reservation(messages) >= worst_case(fixed + sent_bytes(messages))


def settle(reply: dict[str, Any], reserved: int) -> int:
    values = STATES["SettleSpend"]["Arguments"]["ExpressionAttributeValues"]
    return int(evaluate(values[":difference"]["N"], reply=reply, reservedMicroUsd=reserved))


def test_a_settled_call_replaces_its_reservation_with_what_its_tokens_cost() -> None:
    usage = {
        "inputTokens": 1_200,
        "outputTokens": 150,
        "cacheReadInputTokens": 3_000,
        "cacheWriteInputTokens": 400,
    }
    reply = {"usage": usage, "usageKnown": True}
    cost = round(SONNET.cost_usd(usage) * 1_000_000)
    assert settle(reply, 40_000) == cost - 40_000


def test_a_call_whose_token_counts_cannot_be_believed_keeps_its_reservation() -> None:
    zero = dict.fromkeys(("inputTokens", "outputTokens"), 0)
    assert settle({"usage": zero, "usageKnown": False}, 40_000) == 0


def test_a_refused_call_gives_its_whole_reservation_back() -> None:
    values = STATES["ReleaseSpend"]["Arguments"]["ExpressionAttributeValues"]
    assert int(evaluate(values[":released"]["N"], reservedMicroUsd=40_000)) == -40_000


@pytest.mark.parametrize("rounds", [0, 1, 4, 8, 9, 11])
def test_the_catalog_answers_live_trace_line_is_its_rounds_first_tool(rounds: int) -> None:
    # The key AnswerFromCatalog gives its search after `rounds` tool rounds is the key
    # shared.trace.steps gives the first tool of the next round
    key = STATES["AnswerFromCatalog"]["Arguments"]["Payload"]["step"]["key"]
    assert evaluate(key, rounds=rounds) == tool_key(rounds + 1, 0)
