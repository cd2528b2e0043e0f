"""What the store does not do: questions outside shopping, and kinds it does not sell.

A brand or a thing the catalog does not have is the catalog tool's to say (``notCarried``).
"""

from __future__ import annotations

import re
from typing import Final

from shared.search.asked import asked_names
from shared.search.unsold import Unsold, unsold_in
from shared.store.first_words import asks_about_store
from storechat.offline.store import store

PRIVATE: Final = "other customers' details"
"""A question about the store that no policy answers: refused, never looked up."""
STORE: Final = "questions about the store"
_PRIVATE = re.compile(
    r"\b(?:address|card number|email|phone number|details|data)\b.{0,40}\bcustomers?\b|"
    r"\bcustomers?'?s? (?:address|card|email|phone number|details|data)\b",
    re.IGNORECASE,
)


# A message that would steer the assistant off its job rather than ask the store anything.
_STEERING: Final = re.compile(
    r"\b(?:ignore|disregard|forget|override)\b.{0,40}\b(?:instructions?|rules|prompts?)\b|"
    r"\bsystem prompt\b|\byou are now\b|\bpretend (?:to be|you)\b|\bjailbreak|"
    r"\bno (?:rules|restrictions|limits)\b|\bhow (?:do i |to )?(?:pick a lock|hack|make a bomb)\b",
    re.IGNORECASE,
)


def steers(text: str) -> bool:
    """Whether ``text`` asks the assistant to drop its rules: declined, not asked about."""
    return bool(_STEERING.search(text))


def service_topic(text: str) -> str | None:
    """What ``text`` asks about the store itself, if it does: :data:`PRIVATE`, or
    :data:`STORE` for a question its policies may answer (read as the search first reads
    one: :func:`shared.store.first_words.asks_about_store`)."""
    if _PRIVATE.search(text):
        return PRIVATE
    return STORE if asks_about_store(text) else None


def kind_not_carried(text: str, carried: bool) -> Unsold | None:
    """The kind of product ``text`` asks for that the store does not sell, if any, as the
    catalog search reads it. ``carried``: the text also names a kind the store sells."""
    asked = unsold_in(text, store().sells, lambda: carried)
    return asked[0].kind if asked else None


def asked_unknown(title: str, text: str) -> bool:
    """Whether a capitalised phrase of ``text`` is no title but a name the store is asked
    for that none of the catalog's words are ("Huawei" in "do you sell Huawei?")."""
    said = [n for n in asked_names(text) if n.casefold() == title.casefold()]
    return any(not store().knows(n.casefold()) for n in [*asked_names(title), *said])
