"""Cache reads and writes counted by Bedrock's rules, per model (converse.metering)."""

from __future__ import annotations

import pytest

from converse.caching import cache_rules
from converse.metering import PromptCache, block_tokens
from converse.request import place_cache_points
from shared.runtime.errors import InvalidConverseRequest

POINT = {"cachePoint": {"type": "default"}}
SONNET = "us.anthropic.claude-sonnet-4-5-20250929-v1:0"
HAIKU = "us.anthropic.claude-haiku-4-5-20251001-v1:0"


def text(tokens: int, tag: str = "x") -> dict[str, str]:
    """A text block of about ``tokens`` tokens."""
    block = {"text": ""}
    while block_tokens(block) < tokens:
        block["text"] += tag * 4
    return block


def request(messages: list[dict], *, system_tokens: int = 1200) -> dict:
    return {"system": [text(system_tokens, "s"), POINT], "messages": messages}


def user(*blocks: dict) -> dict:
    return {"role": "user", "content": list(blocks)}


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def test_the_table_knows_each_models_minimum_and_reads_inference_profiles() -> None:
    assert cache_rules(SONNET).min_tokens == 1024  # type: ignore[union-attr]
    assert cache_rules(HAIKU).min_tokens == 4096  # type: ignore[union-attr]
    assert cache_rules("anthropic.claude-opus-4-5-20251101-v1:0").min_tokens == 4096  # type: ignore[union-attr]
    assert cache_rules("anthropic.claude-opus-4-1-20250805-v1:0").min_tokens == 1024  # type: ignore[union-attr]
    assert cache_rules("meta.llama3-70b-instruct-v1:0") is None


def test_write_then_read_then_expire_after_five_idle_minutes() -> None:
    clock = Clock()
    cache = PromptCache.standing_in_for(SONNET, clock=clock)
    first = cache.count(request([user({"text": "hi"})]))
    assert first.write >= 1024 and first.read == 0
    clock.now = 299
    second = cache.count(request([user({"text": "hello"})]))
    assert second.read == first.write and second.write == 0
    # The read renewed the entry: five idle minutes from now, not from the write
    clock.now = 299 + 299
    assert cache.count(request([user({"text": "hey"})])).read == first.write
    clock.now += 300
    expired = cache.count(request([user({"text": "hey"})]))
    assert expired.read == 0 and expired.write == first.write


def test_the_same_prefix_is_not_cached_for_a_model_with_a_higher_minimum() -> None:
    prompt = request([user({"text": "hi"})], system_tokens=2000)
    assert PromptCache.standing_in_for(SONNET).count(prompt).write > 0
    haiku = PromptCache.standing_in_for(HAIKU)
    assert haiku.count(prompt).write == 0 and haiku.count(prompt).read == 0


def test_a_changed_prefix_reads_nothing() -> None:
    cache = PromptCache.standing_in_for(SONNET)
    cache.count(request([user({"text": "hi"})]))
    changed = request([user({"text": "hi"})])
    changed["system"][0] = {"text": changed["system"][0]["text"] + "!"}
    assert cache.count(changed).read == 0


def test_each_checkpoint_needs_the_minimum_since_the_one_before() -> None:
    cache = PromptCache.standing_in_for(SONNET)
    # system 1,200 tokens (a checkpoint), then 500 more (too few for a second one)
    counted = cache.count(request([user(text(500), POINT)]))
    assert 1200 <= counted.write < 1300
    assert counted.uncached >= 500


def test_a_growing_conversation_reads_what_the_previous_call_sent() -> None:
    cache = PromptCache.standing_in_for(SONNET)
    asked = [user(text(300, "q"))]
    tool_round = [
        {"role": "assistant", "content": [text(100, "a")]},
        user(text(1500, "r")),
    ]
    first = cache.count(request(place_cache_points(asked, 0)))
    second = cache.count(request(place_cache_points(asked + tool_round, 0)))
    # The second call reads the system prompt (and the first message was too short to
    # be a checkpoint of its own), then writes its tool round
    assert second.read == first.write
    assert second.write >= 1500
    third = cache.count(request(place_cache_points([*asked, *tool_round, *tool_round], 0)))
    assert third.read == second.read + second.write


def test_more_checkpoints_than_the_model_takes_is_refused() -> None:
    cache = PromptCache.standing_in_for(SONNET)
    too_many = request(
        [
            user(
                {"text": "a"},
                POINT,
                {"text": "b"},
                POINT,
                {"text": "c"},
                POINT,
                {"text": "d"},
                POINT,
            )
        ]
    )
    with pytest.raises(InvalidConverseRequest, match="at most 4"):
        cache.count(too_many)
