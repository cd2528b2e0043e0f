"""What a Converse call would bill: token counts, and prompt caching by Bedrock's rules.

For the local stand-ins (the offline model, the red team's obedient model, a replayed
recording). Given a Converse request, :class:`PromptCache` says how many input tokens
Bedrock would read from its cache, write to it, and bill in full, under the rules of
the model it stands in for (:mod:`converse.caching`, ``prompt_cache_models.json``):

* the cached prefix runs tools, then system, then messages; ``cachePoint`` blocks mark
  where it may end, and are markers, not content;
* a checkpoint is created only when the prefix since the previous one holds at least
  the model's minimum number of tokens; at most ``max_checkpoints`` per request;
* a request reads the longest prefix written before (at any block boundary up to its
  last checkpoint) if every token before it is identical and it was used less than
  ``ttl_seconds`` ago; a read renews it;
* the tokens between what was read and the last checkpoint created are written.

Tokens are approximated (a quarter of the characters of each block's compact JSON),
the same count for every model. :class:`UsageMeter` writes a reply's ``usage`` from
them, as Bedrock writes it.
"""

from __future__ import annotations

import hashlib
import json
import math
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from converse.caching import CacheRules, cache_rules
from shared.runtime.errors import InvalidConverseRequest

DEFAULT_STAND_IN = "anthropic.claude-sonnet-4-5-20250929-v1:0"
"""The model whose caching rules the local stand-ins follow unless told otherwise."""


def block_tokens(block: Any) -> int:
    text = json.dumps(block, sort_keys=True, ensure_ascii=False, separators=(",", ":"), default=str)
    return math.ceil(len(text) / 4)


@dataclass(frozen=True)
class CacheCount:
    read: int
    write: int
    uncached: int

    @property
    def total(self) -> int:
        return self.read + self.write + self.uncached


def _is_point(block: Any) -> bool:
    return isinstance(block, dict) and "cachePoint" in block


def _sequence(request: dict[str, Any]) -> tuple[list[Any], list[int]]:
    """The prompt's content blocks in cache order, and the positions of its checkpoints.

    A checkpoint at position ``p`` covers blocks ``[0, p)``.
    """
    blocks: list[Any] = []
    points: list[int] = []
    tools = (request.get("toolConfig") or {}).get("tools") or []
    system = request.get("system") or []
    parts: list[list[Any]] = [list(tools), list(system)]
    for message in request.get("messages") or []:
        # The role is part of what the model reads: a marker block carries it.
        parts.append([{"role": message.get("role")}, *(message.get("content") or [])])
    for part in parts:
        for block in part:
            if _is_point(block):
                points.append(len(blocks))
            else:
                blocks.append(block)
    return blocks, points


class PromptCache:
    """One model's prompt cache, as Bedrock keeps it for an account. Thread-safe."""

    def __init__(self, rules: CacheRules, *, clock: Callable[[], float] = time.monotonic) -> None:
        self.rules = rules
        self._clock = clock
        self._entries: dict[str, float] = {}
        self._lock = threading.Lock()

    @classmethod
    def standing_in_for(
        cls, model_id: str, *, clock: Callable[[], float] = time.monotonic
    ) -> PromptCache:
        rules = cache_rules(model_id)
        if rules is None:
            raise ValueError(f"{model_id} takes no prompt-cache checkpoints")
        return cls(rules, clock=clock)

    def count(self, request: dict[str, Any]) -> CacheCount:
        blocks, points = _sequence(request)
        if len(points) > self.rules.max_checkpoints:
            raise InvalidConverseRequest(
                f"{len(points)} cache checkpoints; {self.rules.family} takes at most "
                f"{self.rules.max_checkpoints}"
            )
        tokens = [block_tokens(b) for b in blocks]
        before = [0]
        for count in tokens:
            before.append(before[-1] + count)
        digests = self._prefix_digests(blocks)
        total = before[-1]
        if not points:
            return CacheCount(0, 0, total)
        now = self._clock()
        with self._lock:
            self._expire(now)
            read_at = 0
            for position in range(min(max(points), len(blocks)), 0, -1):
                if digests[position] in self._entries:
                    read_at = position
                    self._entries[digests[position]] = now
                    break
            created_at = read_at
            for position in sorted(set(points)):
                if position <= read_at:
                    continue
                if before[position] - before[created_at] >= self.rules.min_tokens:
                    self._entries[digests[position]] = now
                    created_at = position
        read = before[read_at]
        write = before[created_at] - read
        return CacheCount(read, write, total - read - write)

    def _expire(self, now: float) -> None:
        for key, used in list(self._entries.items()):
            if now - used >= self.rules.ttl_seconds:
                del self._entries[key]

    @staticmethod
    def _prefix_digests(blocks: list[Any]) -> list[str]:
        digest = hashlib.sha256(b"storechat-prompt")
        digests = [digest.hexdigest()]
        for block in blocks:
            digest.update(
                json.dumps(block, sort_keys=True, ensure_ascii=False, default=str).encode()
            )
            digests.append(digest.copy().hexdigest())
        return digests


class UsageMeter:
    """Counts a reply's tokens; cache reads and writes follow Bedrock's rules for the
    model the stand-in stands in for."""

    def __init__(self, stand_in_for: str = DEFAULT_STAND_IN) -> None:
        self.cache = PromptCache.standing_in_for(stand_in_for)

    def usage(self, request: dict[str, Any], content: list[dict[str, Any]]) -> dict[str, int]:
        counted = self.cache.count(request)
        output_tokens = sum(block_tokens(block) for block in content)
        return {
            "inputTokens": counted.uncached,
            "outputTokens": output_tokens,
            "totalTokens": counted.total + output_tokens,
            "cacheReadInputTokens": counted.read,
            "cacheWriteInputTokens": counted.write,
        }

    def response(
        self, request: dict[str, Any], content: list[dict[str, Any]], stop_reason: str
    ) -> dict[str, Any]:
        """A stand-in's reply as Bedrock's Converse returns it, with its usage and a
        synthetic latency (from the tokens, never a clock: equal requests, equal replies)."""
        usage = self.usage(request, content)
        return {
            "output": {"message": {"role": "assistant", "content": content}},
            "stopReason": stop_reason,
            "usage": usage,
            "metrics": {"latencyMs": 40 + 2 * usage["outputTokens"]},
        }

    def split(self, request: dict[str, Any], usage: dict[str, Any]) -> dict[str, Any]:
        """A recorded reply's ``usage`` with its input tokens (whatever it read or wrote
        when it was recorded) split into read, written and uncached in the proportions
        this request has under the rules now. A request with no checkpoints keeps the
        recorded figures."""
        if not _sequence(request)[1]:
            return usage
        counted = self.cache.count(request)
        recorded = sum(
            int(usage.get(k, 0) or 0)
            for k in ("inputTokens", "cacheReadInputTokens", "cacheWriteInputTokens")
        )
        if not (counted.total and recorded):
            return usage
        read = round(recorded * counted.read / counted.total)
        write = round(recorded * counted.write / counted.total)
        return {
            **usage,
            "inputTokens": recorded - read - write,
            "cacheReadInputTokens": read,
            "cacheWriteInputTokens": write,
        }
