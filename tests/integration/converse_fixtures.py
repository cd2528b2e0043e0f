"""Builders for recorded Converse responses, in Bedrock's exact shape."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any


def _usage(inp: int = 120, out: int = 30) -> dict[str, int]:
    return {"inputTokens": inp, "outputTokens": out, "totalTokens": inp + out}


def tool_use(tool_use_id: str, name: str, tool_input: dict[str, Any]) -> dict[str, Any]:
    return {"toolUse": {"toolUseId": tool_use_id, "name": name, "input": tool_input}}


def asks_for_tools(*uses: dict[str, Any], text: str | None = "Let me check.") -> dict[str, Any]:
    content: list[dict[str, Any]] = [{"text": text}] if text else []
    content.extend(uses)
    return {
        "output": {"message": {"role": "assistant", "content": content}},
        "stopReason": "tool_use",
        "usage": _usage(),
        "metrics": {"latencyMs": 3},
    }


def replies(text: str, stop_reason: str = "end_turn") -> dict[str, Any]:
    content = [{"text": text}] if text else []
    return {
        "output": {"message": {"role": "assistant", "content": content}},
        "stopReason": stop_reason,
        "usage": _usage(300, 60),
        "metrics": {"latencyMs": 3},
    }


def lookup(tool_use_id: str = "t1", **tool_input: Any) -> dict[str, Any]:
    return tool_use(tool_use_id, "lookup_inventory", tool_input or {"category": "COMPUTERS"})


def write_replay(
    directory: Path, responses: list[dict[str, Any]], name: str = "replay.json"
) -> str:
    path = directory / name
    path.write_text(json.dumps(responses), encoding="utf-8")
    return f"replay:{path}"
