"""Token usage, an approximation documented in :mod:`storechat.offline.model`."""

from __future__ import annotations

import hashlib
import json
import math
import threading
from typing import Any

from storechat.offline.messages import content_blocks


def _serialised_chars(value: Any) -> int:
    return len(
        json.dumps(value, sort_keys=True, ensure_ascii=False, separators=(",", ":"), default=str)
    )


def _tokens(chars: int) -> int:
    return math.ceil(chars / 4)


def _has_cache_point(request: dict[str, Any]) -> bool:
    blocks = list(request.get("system") or [])
    blocks += list((request.get("toolConfig") or {}).get("tools") or [])
    for message in request.get("messages") or []:
        blocks += content_blocks(message)
    return any(isinstance(b, dict) and "cachePoint" in b for b in blocks)


class UsageMeter:
    """Counts a response's tokens and remembers which prompt prefixes it has cached.

    The set of seen prefixes is the model's only shared state; a lock guards it,
    so one meter can serve concurrent requests.
    """

    def __init__(self) -> None:
        self._seen_prefixes: set[str] = set()
        self._lock = threading.Lock()

    def usage(self, request: dict[str, Any], content: list[dict[str, Any]]) -> dict[str, int]:
        prefix = {"system": request.get("system") or [], "toolConfig": request.get("toolConfig")}
        prefix_tokens = _tokens(_serialised_chars(prefix))
        message_tokens = _tokens(_serialised_chars(request.get("messages") or []))
        output_tokens = _tokens(_serialised_chars(content))
        read = write = 0
        if _has_cache_point(request):
            key = hashlib.sha256(
                json.dumps(prefix, sort_keys=True, default=str).encode("utf-8")
            ).hexdigest()
            with self._lock:
                first_time = key not in self._seen_prefixes
                self._seen_prefixes.add(key)
            read, write = (0, prefix_tokens) if first_time else (prefix_tokens, 0)
            input_tokens = message_tokens
        else:
            input_tokens = prefix_tokens + message_tokens
        return {
            "inputTokens": input_tokens,
            "outputTokens": output_tokens,
            "totalTokens": input_tokens + output_tokens + read + write,
            "cacheReadInputTokens": read,
            "cacheWriteInputTokens": write,
        }
