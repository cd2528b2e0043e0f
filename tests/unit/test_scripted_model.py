"""The one scripted model: a test scripts exactly the calls it needs, and sees what it was asked."""

from __future__ import annotations

import base64
from typing import Any

import pytest

from converse.metering import UsageMeter
from converse.scripted import ScriptedModel
from shared.runtime.errors import ModelThrottled, ReplayExhausted

POINT = {"cachePoint": {"type": "default"}}


def reply(text: str, usage: dict[str, int] | None = None) -> dict[str, Any]:
    return {
        "output": {"message": {"role": "assistant", "content": [{"text": text}]}},
        "stopReason": "end_turn",
        "usage": usage or {"inputTokens": 10, "outputTokens": 2, "totalTokens": 12},
    }


def asking(question: str, system: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    return {
        "system": system or [{"text": "You are a shop assistant."}],
        "messages": [{"role": "user", "content": [{"text": question}]}],
    }


def test_steps_play_in_order_then_one_call_too_many_says_how_many_were_scripted() -> None:
    model = ScriptedModel([reply("first"), reply("second")])
    assert model.converse(asking("a"))["output"]["message"]["content"] == [{"text": "first"}]
    assert model.converse(asking("b"))["output"]["message"]["content"] == [{"text": "second"}]
    assert model.left == 0
    with pytest.raises(ReplayExhausted, match="the script has 2 responses; call 3 has none"):
        model.converse(asking("c"))
    # Every request is kept, the one that found no step too.
    assert [r["messages"][0]["content"][0]["text"] for r in model.requests] == ["a", "b", "c"]


def test_a_step_can_raise_or_answer_from_the_request_and_then_answers_the_rest() -> None:
    def echo(request: dict[str, Any]) -> dict[str, Any]:
        return reply("you said " + request["messages"][0]["content"][0]["text"])

    model = ScriptedModel([ModelThrottled("slow down"), echo], then=lambda _: reply("fallback"))
    with pytest.raises(ModelThrottled, match="slow down"):
        model.converse(asking("a"))
    assert model.converse(asking("hi"))["output"]["message"]["content"] == [{"text": "you said hi"}]
    for _ in range(3):
        assert model.converse(asking("x"))["output"]["message"]["content"] == [{"text": "fallback"}]


def test_a_reply_written_as_on_the_wire_comes_back_with_bytes_and_untouched_for_the_next_call() -> (
    None
):
    png = b"\x89PNG\r\n"
    wire = reply("see the picture")
    wire["output"]["message"]["content"].append(
        {"image": {"format": "png", "source": {"bytes": base64.b64encode(png).decode()}}}
    )
    model = ScriptedModel([wire, wire])
    first = model.converse(asking("a"))
    assert first["output"]["message"]["content"][1]["image"]["source"]["bytes"] == png
    first["output"]["message"]["content"].clear()
    assert len(model.converse(asking("b"))["output"]["message"]["content"]) == 2


def test_a_meter_splits_a_recorded_replys_input_into_cache_reads_and_writes_by_the_rules() -> None:
    system = [{"text": "policy " * 2000}, POINT]  # well over Sonnet's 1,024-token minimum
    recorded = {"inputTokens": 3000, "outputTokens": 20, "totalTokens": 3020}
    model = ScriptedModel([reply("one", recorded), reply("two", recorded)], meter=UsageMeter())

    first = model.converse(asking("a", system))["usage"]
    second = model.converse(asking("b", system))["usage"]

    # The first call writes the cached system prompt, the second reads it; the recorded
    # input is kept whole, only split.
    assert first["cacheWriteInputTokens"] > 0 and first["cacheReadInputTokens"] == 0
    assert second["cacheReadInputTokens"] == first["cacheWriteInputTokens"]
    assert second["cacheWriteInputTokens"] == 0
    for usage in (first, second):
        split = ("inputTokens", "cacheReadInputTokens", "cacheWriteInputTokens")
        assert sum(usage[k] for k in split) == 3000
        assert usage["outputTokens"] == 20


def test_without_cache_points_a_meter_leaves_the_recorded_figures_alone() -> None:
    recorded = {"inputTokens": 900, "outputTokens": 5, "totalTokens": 905}
    model = ScriptedModel([reply("one", recorded)], meter=UsageMeter())
    assert model.converse(asking("a"))["usage"] == recorded
