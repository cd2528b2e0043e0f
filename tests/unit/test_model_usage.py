"""What the Converse step tells the state machine a call cost: the token counts a reply
reports are believed only when they can be, and the reply's cap is the one reserved for."""

from __future__ import annotations

from typing import Any

import pytest

from converse.logic import MAX_COUNTED_TOKENS, ConverseInput, ConverseOutput, converse
from converse.scripted import ScriptedModel
from converse.settings import Settings
from tests.support.store import sample_store_file

USER = {"role": "user", "content": [{"text": "A light laptop for school?"}]}
SETTINGS = Settings(MODEL_PROVIDER="bedrock", STORE_FILE=sample_store_file())


def scripted(reply: Any) -> ScriptedModel:
    """A model that answers every call with ``reply``, as it is, and keeps the requests."""
    return ScriptedModel(then=lambda request: reply)


def reply(usage: Any, content: Any = None) -> dict[str, Any]:
    return {
        "output": {"message": {"role": "assistant", "content": content or [{"text": "Hi."}]}},
        "stopReason": "end_turn",
        "usage": usage,
    }


def call(provider: ScriptedModel, **event: Any) -> ConverseOutput:
    return converse(ConverseInput(messages=[USER], **event), settings=SETTINGS, provider=provider)


def test_a_replys_token_counts_are_what_the_call_cost() -> None:
    out = call(scripted(reply({"inputTokens": 900, "outputTokens": 12, "totalTokens": 912})))
    assert out.usageKnown is True
    assert out.usage.model_dump() == {
        "inputTokens": 900,
        "outputTokens": 12,
        "cacheReadInputTokens": 0,
        "cacheWriteInputTokens": 0,
    }


@pytest.mark.parametrize(
    "usage",
    [
        {"inputTokens": -3_000_000_000, "outputTokens": 10},
        {"inputTokens": 100, "outputTokens": 10, "cacheReadInputTokens": -1},
        {"inputTokens": 100.5, "outputTokens": 10},
        {"inputTokens": "100", "outputTokens": 10},
        {"inputTokens": True, "outputTokens": 10},
        {"inputTokens": None, "outputTokens": 10},
        {"inputTokens": MAX_COUNTED_TOKENS + 1, "outputTokens": 10},
        {"outputTokens": 10},
        {},
        None,
        "lots",
    ],
)
def test_counts_that_cannot_be_believed_are_not_passed_on_and_the_call_keeps_its_reservation(
    usage: Any,
) -> None:
    # Given a reply whose usage is negative, not a whole number, absurd or missing
    out = call(scripted(reply(usage)))

    # Then the reply is still the answer, but its cost is unknown: the state machine
    # counts the call at the spend reserved for it, never at these counts
    assert out.text == "Hi."
    assert out.usageKnown is False
    assert set(out.usage.model_dump().values()) == {0}


def test_a_reply_that_cannot_be_used_still_reports_what_it_cost() -> None:
    # Given a reply whose content cannot be read, with believable counts
    out = call(scripted(reply({"inputTokens": 700, "outputTokens": 40}, content=42)))

    # Then it is an unusable reply that still counts its tokens
    assert out.unusable is not None
    assert out.usageKnown is True and out.usage.inputTokens == 700


def test_an_unusable_reply_with_unbelievable_counts_keeps_its_reservation() -> None:
    out = call(scripted({"output": None, "usage": {"inputTokens": -5, "outputTokens": 1}}))
    assert out.unusable is not None and out.usageKnown is False


def test_the_reply_cap_is_the_one_the_state_machine_reserved_spend_for() -> None:
    # Given a call for which the state machine reserved a reply of 300 tokens
    provider = scripted(reply({"inputTokens": 1, "outputTokens": 1}))
    call(provider, maxTokens=300)

    # Then the model is asked for no more than that, whatever the function's own setting
    assert provider.requests[0]["inferenceConfig"]["maxTokens"] == 300
    call(provider)
    assert provider.requests[1]["inferenceConfig"]["maxTokens"] == SETTINGS.max_tokens
