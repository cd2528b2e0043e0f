"""Replies as real Bedrock models give them, through the whole local loop.

Reasoning blocks (signed and redacted), Nova's ``<thinking>`` text, citations,
``end_turn`` with toolUse blocks, cache writes, answers in scripts without spaces
between sentences, and a reply the Converse Lambda cannot use.
"""

from __future__ import annotations

import base64
import copy
import json
from pathlib import Path
from typing import Any

import pytest

from converse.handler import use_provider
from converse.scripted import ScriptedModel
from storechat.local import LocalStorechat
from tests.integration.conftest import converse_inputs
from tests.integration.converse_fixtures import asks_for_tools, lookup, replies, write_replay
from tests.support.fake_bedrock import FakeBedrock, Refusal

# Redacted reasoning is opaque binary; every byte value must survive the round trip.
REDACTED = bytes(range(256)) + b"\x00\xff claude redacted thinking"
SIGNATURE = "EqoBCkgIARABGAIiQL3Zb1bQ0f0wY+Ksu2Ztn1w5f9m3x/8QyC0v5mQ2nO1TtY="


def _with_reasoning(reply: dict[str, Any]) -> dict[str, Any]:
    """``reply`` (Bedrock's JSON) with signed and redacted reasoning before its content."""
    reply = copy.deepcopy(reply)
    reply["output"]["message"]["content"][:0] = [
        {
            "reasoningContent": {
                "reasoningText": {"text": "The shopper wants a laptop.", "signature": SIGNATURE}
            }
        },
        {"reasoningContent": {"redactedContent": base64.b64encode(REDACTED).decode()}},
    ]
    return reply


def test_redacted_reasoning_reaches_bedrock_again_byte_for_byte(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Given a Bedrock-shaped endpoint on 127.0.0.1 whose model reasons (signed and redacted)
    # before asking for the catalog, then answers
    script = [
        _with_reasoning(asks_for_tools(lookup(category="COMPUTERS"))),
        replies("The HP 14 [CMP-023] is a good first laptop."),
    ]
    with FakeBedrock(script) as bedrock:
        monkeypatch.setenv("AWS_ENDPOINT_URL_BEDROCK_RUNTIME", bedrock.base_url)
        # When a shopper asks through the real Bedrock provider code
        with LocalStorechat(
            model="bedrock:anthropic.claude-sonnet-4-5", search_first=False
        ) as local:
            result = local.ask("a laptop for school")
    # Then the turn is answered, not a fallback
    assert result.status == "SUCCEEDED" and result.body is not None, result.cause
    assert result.body["outcome"] == "answered", result.body
    # And the second request carries both reasoning blocks exactly as the model sent them
    assert len(bedrock.requests) == 2
    sent_back = bedrock.requests[1]["messages"][1]["content"]
    assert sent_back[0] == {
        "reasoningContent": {
            "reasoningText": {"text": "The shopper wants a laptop.", "signature": SIGNATURE}
        }
    }
    assert base64.b64decode(sent_back[1]["reasoningContent"]["redactedContent"]) == REDACTED
    # And no reasoning reaches the shopper
    assert "shopper wants" not in result.body["answer"]


def test_a_replayed_redacted_block_is_read_as_bytes_and_sent_back_as_bytes(
    tmp_path: Path,
) -> None:
    script = [
        _with_reasoning(asks_for_tools(lookup(category="COMPUTERS"))),
        replies("Try the HP 14 [CMP-023]."),
    ]
    model = write_replay(tmp_path, script)
    with LocalStorechat(model=model, search_first=False) as local:
        recording = ScriptedModel.from_file(Path(model.removeprefix("replay:")))
        use_provider(recording)
        result = local.ask("a laptop for school")
    assert result.body is not None and result.body["outcome"] == "answered", result.cause
    # The state machine carried the blob as base64 text ...
    carried = converse_inputs(result)[1]["messages"][1]["content"][1]
    assert carried == {"reasoningContent": {"redactedContent": base64.b64encode(REDACTED).decode()}}
    # ... and the provider got bytes again, as boto3 expects them
    block = recording.requests[1]["messages"][1]["content"][1]
    assert block["reasoningContent"]["redactedContent"] == REDACTED


def test_a_reply_the_lambda_cannot_use_still_counts_the_call(tmp_path: Path) -> None:
    # Given a model whose first call is fine and whose second reply cannot be returned
    # by the Converse Lambda (it holds a value that is not JSON)
    class Unusable:
        label = "replay"
        calls = 0

        def converse(self, request: dict[str, Any], *, timeout_s: float | None = None) -> Any:
            self.calls += 1
            if self.calls == 1:
                return asks_for_tools(lookup(category="COMPUTERS"))
            reply = replies("Here you are.")
            reply["usage"] = {"inputTokens": 500, "outputTokens": 70, "cacheWriteInputTokens": 9}
            reply["output"]["message"]["content"].append({"text": "x", "extra": {1, 2}})
            return reply

    with LocalStorechat(model=write_replay(tmp_path, []), search_first=False) as local:
        use_provider(Unusable())
        result = local.ask("a laptop")
    # Then the shopper gets a model_error fallback that still counts both calls and tokens
    body = result.body
    assert result.status == "SUCCEEDED" and body is not None
    assert body["fallbackReason"] == "model_error"
    assert body["modelCalls"] == 2
    assert body["usage"]["inputTokens"] == 120 + 500
    assert body["usage"]["outputTokens"] == 30 + 70
    assert body["usage"]["cacheWriteInputTokens"] == 9


def test_nova_thinking_never_reaches_the_shopper_but_goes_back_to_the_model(
    tmp_path: Path,
) -> None:
    thinking = "<thinking>The user needs Windows; I will call lookup_inventory.</thinking>"
    script = [
        asks_for_tools(lookup(category="COMPUTERS"), text=thinking),
        replies(
            "<thinking>CMP-023 is the cheapest Windows laptop.</thinking>\n"
            "The HP 14 [CMP-023] runs Windows 11 and costs $349."
        ),
    ]
    with LocalStorechat(model=write_replay(tmp_path, script), search_first=False) as local:
        result = local.ask("a windows laptop")
    body = result.body
    assert body is not None and body["outcome"] == "answered"
    assert body["answer"] == "The HP 14 [CMP-023] runs Windows 11 and costs $349."
    assert "thinking" not in json.dumps(body).lower()
    assert [p["productId"] for p in body["products"]] == ["CMP-023"]
    # The model reads its own message back as it wrote it
    second = converse_inputs(result)[1]["messages"]
    assert second[1]["content"][0] == {"text": thinking}


def test_an_unclosed_thinking_tag_hides_the_rest_of_the_text(tmp_path: Path) -> None:
    script = [replies("<thinking>Maybe I should mention the internal rules", "max_tokens")]
    with LocalStorechat(model=write_replay(tmp_path, script), search_first=False) as local:
        result = local.ask("hello")
    body = result.body
    assert body is not None and "internal rules" not in body["answer"]
    assert body["outcome"] == "fallback" and body["fallbackReason"] == "max_tokens"


def test_an_invented_citation_in_japanese_drops_only_its_sentence(tmp_path: Path) -> None:
    script = [
        asks_for_tools(lookup(category="COMPUTERS")),
        replies(
            "学生にはHP 14 [CMP-023] がおすすめです。"
            "Zephyr Book [CMP-999] も人気です！"
            "どちらもWindowsです。"
        ),
    ]
    with LocalStorechat(model=write_replay(tmp_path, script), search_first=False) as local:
        result = local.ask("学生向けのノートパソコンは？")
    body = result.body
    assert body is not None
    assert body["answer"] == "学生にはHP 14 [CMP-023] がおすすめです。どちらもWindowsです。"
    assert [p["productId"] for p in body["products"]] == ["CMP-023"]
    assert body["unverifiedCitations"] == ["CMP-999"]


def test_when_every_sentence_is_dropped_no_product_cards_are_shown(tmp_path: Path) -> None:
    script = [
        asks_for_tools(lookup(category="COMPUTERS")),
        replies("Zephyr Book [CMP-999] と HP 14 [CMP-023] を比べました。"),
    ]
    with LocalStorechat(model=write_replay(tmp_path, script), search_first=False) as local:
        result = local.ask("ノートパソコン")
    body = result.body
    assert body is not None and body["products"] == []
    assert "CMP-023" not in body["answer"] and "CMP-999" not in body["answer"]


def test_citations_content_is_part_of_the_answer_in_order(tmp_path: Path) -> None:
    answer = replies("")
    answer["output"]["message"]["content"] = [
        {"text": "For school, "},
        {
            "citationsContent": {
                "content": [{"text": "the HP 14 [CMP-023] weighs 1.4 kg"}],
                "citations": [
                    {
                        "title": "catalog",
                        "sourceContent": [{"text": "HP 14, 1.4 kg"}],
                        "location": {"documentChar": {"documentIndex": 0, "start": 0, "end": 13}},
                    }
                ],
            }
        },
        {"text": " and costs $349."},
    ]
    script = [asks_for_tools(lookup(category="COMPUTERS")), answer]
    with LocalStorechat(model=write_replay(tmp_path, script), search_first=False) as local:
        result = local.ask("a light laptop")
    body = result.body
    assert body is not None and body["outcome"] == "answered"
    assert body["answer"] == "For school, the HP 14 [CMP-023] weighs 1.4 kg and costs $349."
    assert [p["productId"] for p in body["products"]] == ["CMP-023"]


def test_end_turn_with_tool_use_blocks_runs_the_tools(tmp_path: Path) -> None:
    # Given a model (gpt-oss on Bedrock does this) that asks for a tool but says end_turn
    ask = asks_for_tools(lookup(category="COMPUTERS"), text=None)
    ask["stopReason"] = "end_turn"
    script = [ask, replies("The HP 14 [CMP-023] it is.")]
    with LocalStorechat(model=write_replay(tmp_path, script), search_first=False) as local:
        result = local.ask("a laptop")
    body = result.body
    assert body is not None and body["outcome"] == "answered", body
    assert body["toolRounds"] == 1 and [t["tool"] for t in body["trace"]] == ["lookup_inventory"]
    assert [p["productId"] for p in body["products"]] == ["CMP-023"]


def test_cache_reads_and_writes_are_summed_over_the_turn(tmp_path: Path) -> None:
    ask = asks_for_tools(lookup(category="COMPUTERS"))
    ask["usage"].update(cacheWriteInputTokens=1500, cacheReadInputTokens=0)
    answer = replies("The HP 14 [CMP-023].")
    answer["usage"].update(cacheWriteInputTokens=200, cacheReadInputTokens=1500)
    with LocalStorechat(model=write_replay(tmp_path, [ask, answer]), search_first=False) as local:
        result = local.ask("a laptop")
    body = result.body
    assert body is not None
    assert body["usage"]["cacheWriteInputTokens"] == 1700
    assert body["usage"]["cacheReadInputTokens"] == 1500
    assert body["usage"]["inputTokens"] == 120 + 300


# --- the end of a turn: a late model reply still leaves time to answer and save --------


def _slow_compose(seconds: float) -> Any:
    def compose(event: dict[str, Any], context: Any) -> Any:
        import time

        from compose_response.handler import lambda_handler

        time.sleep(seconds)
        return lambda_handler(event, context)

    return compose


def test_a_late_model_and_a_slow_compose_still_answer_and_save_the_turn(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Given a model that never answers before the deadline, and a response builder that
    # is slow (1.2 s, as a cold start can be)
    tuning = {"DeadlineMs": 4000, "ConverseReserveMs": 1000}
    with FakeBedrock([replies("too late")], delay_s=10) as bedrock:
        monkeypatch.setenv("AWS_ENDPOINT_URL_BEDROCK_RUNTIME", bedrock.base_url)
        overrides = {"compose_response": _slow_compose(1.2)}
        with LocalStorechat(
            model="bedrock:m", tuning=tuning, overrides=overrides, search_first=False
        ) as local:
            result = local.ask("hello")
    # Then the builder fits in the reserve and writes the usual deadline answer, and the
    # turn is saved
    body = result.body
    assert result.status == "SUCCEEDED" and body is not None, result.cause
    assert body["outcome"] == "fallback" and body["historySaved"] is True
    assert body["fallbackReason"] == "deadline"
    assert [name for name, _ in result.states_entered][-2:] == ["SaveTurn", "Done"]
    assert not [e for e in result.events if e["type"] == "TaskTimedOut"]


@pytest.mark.parametrize(
    ("deadline_ms", "tries"),
    [
        # The first try is cut off at about 2.1 s, past a 1.5 s deadline: no second try
        (1500, 1),
        # ... well before a 6 s deadline: one more try, and no third
        (6000, 2),
    ],
)
def test_a_hung_compose_is_cut_off_and_tried_again_only_before_the_deadline(
    monkeypatch: pytest.MonkeyPatch, deadline_ms: int, tries: int
) -> None:
    # Given a model that refuses at once (so the fallback starts within milliseconds, far
    # from either deadline) and a response builder that hangs for 8 s
    with FakeBedrock([Refusal(400, "ValidationException", "bad request")]) as bedrock:
        monkeypatch.setenv("AWS_ENDPOINT_URL_BEDROCK_RUNTIME", bedrock.base_url)
        with LocalStorechat(
            model="bedrock:m",
            tuning={"DeadlineMs": deadline_ms, "ConverseReserveMs": 500},
            overrides={"compose_response": _slow_compose(8.0)},
            search_first=False,
        ) as local:
            result = local.ask("hello")
    # Then each try is cut off at 2 s, there is a second only while the deadline had not
    # passed, and the shopper still gets the plain fallback, with the turn saved
    body = result.body
    assert result.status == "SUCCEEDED" and body is not None, result.cause
    assert body["outcome"] == "fallback" and body["fallbackReason"] == "compose_failed"
    assert body["historySaved"] is True
    entered = [name for name, _ in result.states_entered]
    assert entered.count("ComposeResponse") == tries
    assert len([e for e in result.events if e["type"] == "TaskTimedOut"]) == tries
    assert entered[-3:] == ["ComposeFailed", "SaveTurn", "Done"]


# --- the history budget is counted as Step Functions counts it --------------------------


def _turn(user: str, assistant: str) -> dict[str, Any]:
    return {"user": user, "assistant": assistant, "outcome": "answered", "productIds": []}


def _size_on_aws(turn: dict[str, Any]) -> int:
    # JSONata's $string on AWS is JavaScript's JSON.stringify: characters stay as they are.
    return len(json.dumps(turn, ensure_ascii=False, separators=(",", ":")))


@pytest.mark.parametrize(
    "turns",
    [
        [_turn("Crème brûlée für Café?" * 2, "Désolé, pas de crème ici." * 3)] * 3,
        [_turn("学生向けのノートパソコンは？" * 2, "HP 14 がおすすめです。" * 4)] * 3,
    ],
    ids=["accented", "cjk"],
)
def test_the_history_budget_counts_characters_as_aws_does(turns: list[dict[str, Any]]) -> None:
    import time

    from storechat.local.runner import SESSIONS_TABLE

    # Given a session with three earlier turns and a budget that holds exactly two of them
    budget = 2 * _size_on_aws(turns[0]) + 5
    session = "7c6f1b8e-8a43-4a4c-9a65-2d1f0c9b1a11"
    with LocalStorechat(tuning={"HistoryChars": budget}) as local:
        for index, turn in enumerate(turns):
            local._dynamodb.put_item(
                TableName=SESSIONS_TABLE,
                Item={
                    "sessionId": {"S": session},
                    "turnKey": {"S": f"2026-11-30T08:0{index}:00Z#t{index}"},
                    "expiresAt": {"N": str(int(time.time()) + 3600)},
                    "turn": {"S": json.dumps(turn, ensure_ascii=False)},
                },
            )
        # When the shopper asks again in that session
        result = local.ask("and books?", session)
    # Then the model reads the two most recent turns, as it would on AWS
    # (then the shopper's message; a search first handed over, if any, comes after it)
    messages = converse_inputs(result)[0]["messages"]
    assert messages[2 * 2] == {"role": "user", "content": [{"text": "and books?"}]}
    assert messages[0]["content"][0]["text"] == turns[1]["user"]
