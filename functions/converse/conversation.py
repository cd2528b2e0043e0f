"""Reading a Converse conversation: its blocks, the shopper's words, the last answer and
the tools a request offers.

What any reader of a request needs, whatever it does with it: the Converse function's
vouched ids, and the stand-in models (the offline model, the red team's obedient one),
which read the same messages a real model does.
"""

from __future__ import annotations

from typing import Any


def content_blocks(message: Any) -> list[dict[str, Any]]:
    """A message's content blocks; none for anything that is not a message."""
    content = message.get("content") if isinstance(message, dict) else None
    return [b for b in content if isinstance(b, dict)] if isinstance(content, list) else []


def text_of(message: dict[str, Any]) -> str:
    """A message's words, without its toolUses and toolResults."""
    return " ".join(
        b["text"].strip() for b in content_blocks(message) if isinstance(b.get("text"), str)
    ).strip()


def user_texts(messages: list[dict[str, Any]]) -> list[str]:
    """Each user message's text, oldest first; messages that hold only toolResults are skipped."""
    texts = []
    for message in messages:
        if message.get("role") != "user":
            continue
        parts = [b["text"] for b in content_blocks(message) if isinstance(b.get("text"), str)]
        joined = " ".join(p.strip() for p in parts if p.strip())
        if joined:
            texts.append(joined)
    return texts


def previous_answer(messages: list[dict[str, Any]]) -> str | None:
    """The assistant's last answer before the shopper's latest message, if any."""
    asked = [i for i, m in enumerate(messages) if m.get("role") == "user" and text_of(m)]
    for message in reversed(messages[: asked[-1]] if asked else []):
        if message.get("role") == "assistant" and not any(
            "toolUse" in b for b in content_blocks(message)
        ):
            return text_of(message) or None
    return None


def offered_tools(request: dict[str, Any]) -> frozenset[str]:
    """The names of the tools the request's toolConfig offers."""
    tools = (request.get("toolConfig") or {}).get("tools") or []
    return frozenset(
        t["toolSpec"]["name"]
        for t in tools
        if isinstance(t, dict)
        and isinstance(t.get("toolSpec"), dict)
        and isinstance(t["toolSpec"].get("name"), str)
    )
