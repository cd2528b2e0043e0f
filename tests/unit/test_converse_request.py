"""The Converse request: botocore's shape, the toolUse/toolResult rules, prompt caching."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import boto3
import pytest
from botocore.stub import Stubber

from converse.logic import ConverseInput, converse
from converse.prompt import tool_names
from converse.providers import BedrockProvider
from converse.request import (
    build_request,
    check_conversation,
    supports_prompt_caching,
    validate_request,
)
from converse.scripted import ScriptedModel
from converse.settings import Settings
from shared.runtime.errors import (
    InvalidConverseRequest,
    ModelContextOverflow,
    ModelRequestRejected,
    ModelThrottled,
    ModelUnavailable,
    ReplayExhausted,
)
from tests.support.store import SAMPLE_PROMPT, sample_store_file

USER = {"role": "user", "content": [{"text": "Windows laptop for school?"}]}
ASKS = {
    "role": "assistant",
    "content": [
        {"text": "Checking."},
        {
            "toolUse": {
                "toolUseId": "a",
                "name": "lookup_inventory",
                "input": {"category": "COMPUTERS"},
            }
        },
        {"toolUse": {"toolUseId": "b", "name": "get_computer_reviews", "input": {"query": "XPS"}}},
    ],
}


def results(*ids: str, status: str = "success") -> dict[str, Any]:
    return {
        "role": "user",
        "content": [
            {"toolResult": {"toolUseId": i, "content": [{"json": {"ok": True}}], "status": status}}
            for i in ids
        ],
    }


def request(messages: list[dict[str, Any]], **kw: Any) -> dict[str, Any]:
    return build_request(
        messages,
        system_prompt=SAMPLE_PROMPT,
        model_id=kw.pop("model_id", "anthropic.claude-sonnet-4-5"),
        max_tokens=512,
        temperature=0.2,
        prompt_caching=kw.pop("caching", False),
    )


def test_request_carries_system_prompt_tools_and_inference_config() -> None:
    built = request([USER])
    validate_request(built)
    assert built["system"][0]["text"] == SAMPLE_PROMPT
    assert "[productId]" in SAMPLE_PROMPT
    assert [t["toolSpec"]["name"] for t in built["toolConfig"]["tools"]] == list(tool_names())
    assert built["inferenceConfig"] == {"maxTokens": 512, "temperature": 0.2}


def test_prompt_caching_adds_cache_points_only_for_models_that_support_them() -> None:
    cached = request([USER], caching=True, model_id="us.anthropic.claude-sonnet-4-5-v1:0")
    validate_request(cached)
    point = {"cachePoint": {"type": "default"}}
    # One checkpoint after the system prompt covers the tools before it too
    assert cached["system"][-1] == point
    assert point not in cached["toolConfig"]["tools"]
    assert cached["messages"][-1]["content"][-1] == point
    plain = request([USER], caching=True, model_id="meta.llama3-70b-instruct-v1:0")
    assert all("cachePoint" not in block for block in plain["system"])
    assert "cachePoint" not in str(plain["messages"])
    assert supports_prompt_caching("amazon.nova-pro-v1:0")
    assert not supports_prompt_caching("mistral.mistral-large-2402-v1:0")


def test_a_full_tool_round_is_a_valid_request() -> None:
    validate_request(request([USER, ASKS, results("a", "b", status="success")]))


@pytest.mark.parametrize(
    ("messages", "problem"),
    [
        ([], "at least one message"),
        ([ASKS], "first message"),
        ([USER, ASKS, results("a")], "do not answer"),
        ([USER, ASKS, results("a", "b", "c")], "do not answer"),
        ([USER, ASKS, results("b"), results("a")], "do not answer"),
        ([USER, USER], "two user messages"),
        ([USER, {"role": "assistant", "content": [{"text": "  "}]}, USER], "blank"),
        ([USER, ASKS], "last message"),
        ([USER, {"role": "assistant", "content": []}, USER], "content is empty"),
    ],
)
def test_broken_conversations_are_refused_before_they_are_sent(
    messages: list[dict[str, Any]], problem: str
) -> None:
    with pytest.raises(InvalidConverseRequest, match=problem):
        check_conversation(messages, has_tool_config=True)


def test_tool_blocks_without_tool_config_are_refused() -> None:
    with pytest.raises(InvalidConverseRequest, match="toolConfig"):
        check_conversation([USER, ASKS, results("a", "b")], has_tool_config=False)


def test_a_shape_error_is_caught_by_botocore_model() -> None:
    broken = request([USER])
    broken["inferenceConfig"]["maxTokens"] = "lots"
    with pytest.raises(InvalidConverseRequest, match="Converse shape"):
        validate_request(broken)


# -- providers --------------------------------------------------------------------------------


def bedrock_reply() -> dict[str, Any]:
    return {
        "output": {"message": {"role": "assistant", "content": [{"text": "Try [CMP-002]."}]}},
        "stopReason": "end_turn",
        "usage": {
            "inputTokens": 900,
            "outputTokens": 12,
            "totalTokens": 912,
            "cacheReadInputTokens": 800,
        },
        "metrics": {"latencyMs": 640},
    }


def test_bedrock_provider_sends_exactly_the_validated_request() -> None:
    # Given a Bedrock client whose every request botocore checks against the Converse model
    client = boto3.client(
        "bedrock-runtime", region_name="us-east-1", aws_access_key_id="x", aws_secret_access_key="y"
    )
    settings = Settings(
        MODEL_PROVIDER="bedrock",
        MODEL_ID="anthropic.claude-sonnet-4-5",
        PROMPT_CACHING=True,
        STORE_FILE=sample_store_file(),
    )
    messages = [USER, ASKS, results("a", "b")]
    expected = build_request(
        messages,
        system_prompt=SAMPLE_PROMPT,
        model_id=settings.model_id,
        max_tokens=settings.max_tokens,
        temperature=settings.temperature,
        prompt_caching=True,
    )
    with Stubber(client) as stub:
        stub.add_response("converse", bedrock_reply(), expected_params=expected)
        # When the Converse step runs
        out = converse(
            ConverseInput(messages=messages),
            settings=settings,
            provider=BedrockProvider(None, client=client),
        )
        stub.assert_no_pending_responses()
    # Then its output is what the state machine routes on
    assert out.stopReason == "end_turn" and out.text == "Try [CMP-002]."
    assert out.usage.cacheReadInputTokens == 800 and out.toolUses == []


@pytest.mark.parametrize(
    ("code", "error"),
    [
        ("ThrottlingException", ModelThrottled),
        ("ServiceUnavailableException", ModelUnavailable),
        ("InternalServerException", ModelUnavailable),
        ("ModelNotReadyException", ModelUnavailable),
        ("ValidationException", ModelRequestRejected),
        ("AccessDeniedException", ModelRequestRejected),
        ("ResourceNotFoundException", ModelRequestRejected),
    ],
)
def test_bedrock_errors_become_the_names_the_state_machine_retries_or_catches(
    code: str, error: type[Exception]
) -> None:
    client = boto3.client(
        "bedrock-runtime", region_name="us-east-1", aws_access_key_id="x", aws_secret_access_key="y"
    )
    with Stubber(client) as stub:
        stub.add_client_error("converse", service_error_code=code, http_status_code=400)
        with pytest.raises(error):
            BedrockProvider(None, client=client).converse(request([USER]))


def test_replay_plays_back_in_order_then_runs_out(tmp_path: Path) -> None:
    path = tmp_path / "r.json"
    path.write_text(json.dumps([bedrock_reply()]))
    replay = ScriptedModel.from_file(path)
    settings = Settings(
        MODEL_PROVIDER=f"replay:{path}", MODEL_ID="storechat.replay", STORE_FILE=sample_store_file()
    )
    out = converse(ConverseInput(messages=[USER]), settings=settings, provider=replay)
    assert out.text == "Try [CMP-002]."
    with pytest.raises(ReplayExhausted, match="has 1 responses"):
        replay.converse(request([USER]))


def test_replay_file_that_is_not_a_list_is_a_clear_error(tmp_path: Path) -> None:
    path = tmp_path / "r.json"
    path.write_text('{"stopReason": "end_turn"}')
    with pytest.raises(ModelRequestRejected, match="JSON list"):
        ScriptedModel.from_file(path)


def test_blank_text_blocks_are_dropped_from_the_reply() -> None:
    class Blank:
        label = "test"

        def converse(
            self, req: dict[str, Any], *, timeout_s: float | None = None
        ) -> dict[str, Any]:
            reply = bedrock_reply()
            reply["output"]["message"]["content"] = [
                {"text": " "},
                {
                    "toolUse": {
                        "toolUseId": "a",
                        "name": "get_book_info",
                        "input": {"query": "Dune"},
                    }
                },
            ]
            reply["stopReason"] = "tool_use"
            return reply

    out = converse(
        ConverseInput(messages=[USER]),
        settings=Settings(MODEL_PROVIDER="bedrock", STORE_FILE=sample_store_file()),
        provider=Blank(),
    )
    assert out.message["content"] == [
        {"toolUse": {"toolUseId": "a", "name": "get_book_info", "input": {"query": "Dune"}}}
    ]
    assert out.text == "" and len(out.toolUses) == 1


def test_an_input_too_long_for_the_model_is_a_context_overflow() -> None:
    client = boto3.client(
        "bedrock-runtime", region_name="us-east-1", aws_access_key_id="x", aws_secret_access_key="y"
    )
    with Stubber(client) as stub:
        stub.add_client_error(
            "converse",
            service_error_code="ValidationException",
            service_message="Input is too long for requested model.",
        )
        with pytest.raises(ModelContextOverflow):
            BedrockProvider(None, client=client).converse(request([USER]))


def test_checkpoints_mark_the_earlier_turns_and_the_end_of_the_conversation() -> None:
    point = {"cachePoint": {"type": "default"}}
    earlier = [
        {"role": "user", "content": [{"text": "a laptop?"}]},
        {"role": "assistant", "content": [{"text": "The HP 14 [CMP-023]."}]},
    ]
    this_turn = [USER, ASKS, results("a", "b", status="success")]
    built = request(earlier + this_turn, caching=True, model_id="anthropic.claude-sonnet-4-5")
    validate_request(built)
    marked = [i for i, m in enumerate(built["messages"]) if point in m["content"]]
    assert marked == [1, 4]
    assert sum(str(built).count("cachePoint") for _ in [0]) <= 4
    # Nothing else changes: without the checkpoints the messages are the same
    unmarked = [
        {**m, "content": [b for b in m["content"] if b != point]} for m in built["messages"]
    ]
    assert unmarked == earlier + this_turn
