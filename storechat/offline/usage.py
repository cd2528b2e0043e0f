"""Token usage, an approximation documented in :mod:`storechat.offline.model`."""

from __future__ import annotations

from typing import Any

from storechat.offline.cache import DEFAULT_STAND_IN, PromptCache, block_tokens


class UsageMeter:
    """Counts a response's tokens; cache reads and writes follow Bedrock's rules for the
    model the offline model stands in for (:mod:`storechat.offline.cache`)."""

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
