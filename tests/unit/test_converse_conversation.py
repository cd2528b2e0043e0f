"""Reading a Converse conversation, as the Converse function and the stand-in models do."""

from __future__ import annotations

from typing import Any

from converse.conversation import (
    content_blocks,
    offered_tools,
    previous_answer,
    text_of,
    user_texts,
)

CONVERSATION: list[dict[str, Any]] = [
    {"role": "user", "content": [{"text": " a laptop "}, {"text": ""}, {"text": "for school"}]},
    {"role": "assistant", "content": [{"text": "Let me check."}, {"toolUse": {"name": "x"}}]},
    {"role": "user", "content": [{"toolResult": {"toolUseId": "t", "content": []}}]},
    {"role": "assistant", "content": [{"text": "1. Dell XPS 13 [CMP-007]: $1,299."}]},
    {"role": "user", "content": [{"text": "is it light?"}]},
]


def test_the_shoppers_words_skip_tool_results_and_empty_blocks() -> None:
    assert user_texts(CONVERSATION) == ["a laptop for school", "is it light?"]
    assert text_of(CONVERSATION[1]) == "Let me check."


def test_the_previous_answer_is_the_last_one_without_a_tool_call() -> None:
    assert previous_answer(CONVERSATION) == "1. Dell XPS 13 [CMP-007]: $1,299."
    # the first message has none before it
    assert previous_answer(CONVERSATION[:1]) is None


def test_anything_that_is_not_a_message_has_no_blocks() -> None:
    assert content_blocks(None) == []
    assert content_blocks({"content": "text"}) == []
    assert content_blocks({"content": [{"text": "a"}, "b", 3]}) == [{"text": "a"}]


def test_the_tools_offered_are_read_from_the_tool_config_and_a_bad_one_is_left_out() -> None:
    request = {
        "toolConfig": {
            "tools": [
                {"toolSpec": {"name": "lookup_inventory"}},
                {"cachePoint": {"type": "default"}},
                {"toolSpec": {"name": 7}},
            ]
        }
    }
    assert offered_tools(request) == {"lookup_inventory"}
    assert offered_tools({}) == frozenset()
