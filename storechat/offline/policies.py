"""Questions about the store itself: the policies tool, asked with the shopper's words,
and an answer that quotes what it returned (the stand-in does not read the policies)."""

from __future__ import annotations

from typing import Any, Final

from shared.runtime.tool_errors import failed_in_words
from storechat.offline.intent import Intent
from storechat.offline.messages import ToolOutcome, plain
from storechat.offline.scope import PRIVATE
from storechat.offline.vocabulary import POLICIES

MAX_QUOTE: Final = 700
MAX_SECTIONS: Final = 2


def asks_policies(intent: Intent, available: frozenset[str]) -> bool:
    """Whether the message is a question about the store that its policies may answer."""
    return (
        POLICIES in available
        and intent.service is not None
        and intent.service != PRIVATE
        and not intent.names_subject()
    )


def policy_call(question: str) -> list[dict[str, Any]]:
    use = {"toolUseId": "tooluse_off_policies", "name": POLICIES, "input": {"question": question}}
    return [{"text": "Let me check the store's policies."}, {"toolUse": use}]


def policy_answer(rounds: list[list[ToolOutcome]]) -> str | None:
    """The answer to this turn's policies lookup, if the last round (of ``rounds``, the
    turn's: the latest message's results are the last) was one."""
    outcome = next((o for o in rounds[-1] if o.name == POLICIES), None)
    if outcome is None:
        return None
    if outcome.failure:
        return (
            f"I couldn't read the store's policies just now: the policies tool "
            f"{failed_in_words(outcome.failure)}. Please try again in a moment."
        )
    data = outcome.data or {}
    contact = plain(data.get("contact") or "", 300)
    sections = [s for s in data.get("sections") or [] if isinstance(s, dict)]
    if not sections:
        reach = f" You can reach the store at {contact}." if contact else ""
        return f"I don't know: the store's policies don't say.{reach}"
    store = plain(data.get("store") or "the store", 80)
    lines = [f"Here is what {store} says:"]
    room = MAX_QUOTE
    for section in sections[:MAX_SECTIONS]:
        heading = plain(section.get("heading") or "", 80)
        text = str(section.get("text") or "").strip()
        if room <= 0 or not text:
            break
        if len(text) > room:
            text = text[: room - 1].rstrip() + "…"
        room -= len(text)
        lines.append(f"**{heading}**\n{text}" if heading else text)
    if contact:
        lines.append(f"For anything else, you can reach the store at {contact}.")
    return "\n\n".join(lines)
