"""The offline model's own words: replies that end a turn without a tool, and the
sentences that say what the store does not do."""

from __future__ import annotations

from typing import Final

from storechat.offline.intent import Intent
from storechat.offline.scope import PRIVATE

# Replies that end turn 1 without a tool call.
GREETING: Final = (
    "Hi! I'm the store's shopping assistant. I can find computers, phones and books in our "
    "catalog, compare them for what you need (budget, operating system, school, gaming or "
    "travel), summarise what reviewers say about a computer and look up facts about a book. "
    "What are you looking for?"
)
THANKS_REPLY: Final = (
    "You're welcome! Tell me if you'd like help with anything else: a computer, a phone or a book."
)
NO_TOOLS_REPLY: Final = (
    "I'd like to check the catalog for that, but my tools aren't available right now. "
    "Please try again in a moment."
)
OFFER: Final = "I can help you find and compare computers, phones and books in our catalog."
ASK_REPLY: Final = (
    "I'm not sure what you're looking for. Is it a computer, a phone or a book? Tell me what "
    "it's for or your budget, and I'll look in the catalog."
)
DECLINE: Final = f"Sorry, I can't help with that here. {OFFER}"


def service_line(topic: str) -> str:
    return f"Sorry, I can't help with {topic} here."


def service_reply(topic: str) -> str:
    if topic == PRIVATE:
        return f"{service_line(topic)} {OFFER}"  # nobody at the store gives them out either
    return f"{service_line(topic)} {OFFER} The store's customer service can answer them."


def outside_reply(intent: Intent) -> str:
    """The reply to a kind the store does not sell, when there is nothing to show."""
    assert intent.not_carried is not None
    return f"Sorry, we don't carry {intent.not_carried.name}. {OFFER}"
