"""What the store does not do: questions outside shopping, and kinds it does not sell.

A question about the store itself (returns, shipping, an order...) is read with the
search first's words for one; its policies answer it, and without the policies tool it
gets an honest "I can't help with that here" and no products. A kind of product the
store does not sell is named as not carried, with the nearest thing it does sell when
there is one (tablets: 2-in-1 laptops). A brand or a thing the catalog does not have is
the catalog tool's to say (``notCarried``), and the answer says it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any, Final

from shared.search.asked import asked_names
from shared.store.first_words import asks_about_store
from storechat.offline.store import store
from storechat.offline.vocabulary import COMPUTERS, MOBILE

_I = re.IGNORECASE

PRIVATE: Final = "other customers' details"
"""A question about the store that no policy answers: refused, never looked up."""
STORE: Final = "questions about the store"
_PRIVATE = re.compile(
    r"\b(?:address|card number|email|phone number|details|data)\b.{0,40}\bcustomers?\b|"
    r"\bcustomers?'?s? (?:address|card|email|phone number|details|data)\b",
    re.IGNORECASE,
)


@dataclass(frozen=True)
class Kind:
    """A kind of product the store does not sell, and what it offers instead, if anything."""

    name: str
    pattern: str
    instead: str | None = None
    """How the answer names the nearest thing the store sells."""
    search: dict[str, Any] = field(default_factory=dict)
    """The ``lookup_inventory`` input that finds it."""


NOT_CARRIED: Final[tuple[Kind, ...]] = (
    Kind(
        "tablets",
        r"\b(?:tablets?|ipads?|galaxy tabs?|android tablets?)\b",
        "2-in-1 laptops",
        {"category": COMPUTERS, "keywords": "2-in-1"},
    ),
    Kind(
        "cameras",
        # Not "a phone with a great camera": a camera as the thing wanted.
        r"\b(?:digital|mirrorless|instant|action|film|compact) cameras?\b|"
        r"\b(?:dslrs?|camcorders?|gopros?)\b|"
        r"\b(?:sell|have|stock|carry|buy|want|need|looking for)\s+(?:a |any |some )?cameras?\b|"
        r"^\W*cameras?\W*$",
        "the phones with the best cameras",
        {"category": MOBILE, "sortBy": "camera"},
    ),
    Kind(
        "game consoles",
        r"\b(?:(?:game|games|gaming) consoles?|consoles?|playstation|ps5|xbox|nintendo switch)\b",
        "gaming laptops",
        {"category": COMPUTERS, "keywords": "gaming laptop", "sortBy": "ram"},
    ),
    Kind(
        "monitors",
        r"\b(?:monitors?|external displays?)\b",
        "all-in-one computers",
        {"category": COMPUTERS, "keywords": "all-in-one"},
    ),
    Kind("TVs", r"\b(?:tvs?|televisions?|smart tvs?)\b"),
    Kind("smartwatches", r"\b(?:smart ?watch(?:es)?|apple watch|fitness trackers?|wearables?)\b"),
    Kind("headphones", r"\b(?:head ?phones?|earbuds|earphones|airpods|headsets?)\b"),
    Kind("e-readers", r"\b(?:e-?readers?|kindles?|kobo)\b"),
    Kind("printers", r"\b(?:printers?|scanners?)\b"),
    Kind("speakers", r"\b(?:(?:smart |bluetooth )?speakers?|soundbars?)\b"),
    Kind("drones", r"\bdrones?\b"),
)
_NOT_CARRIED_RES: Final = tuple((kind, re.compile(kind.pattern, _I)) for kind in NOT_CARRIED)

# A message that would steer the assistant off its job rather than ask the store anything.
_STEERING: Final = re.compile(
    r"\b(?:ignore|disregard|forget|override)\b.{0,40}\b(?:instructions?|rules|prompts?)\b|"
    r"\bsystem prompt\b|\byou are now\b|\bpretend (?:to be|you)\b|\bjailbreak|"
    r"\bno (?:rules|restrictions|limits)\b|\bhow (?:do i |to )?(?:pick a lock|hack|make a bomb)\b",
    _I,
)


def steers(text: str) -> bool:
    """Whether ``text`` asks the assistant to drop its rules: declined, not asked about."""
    return bool(_STEERING.search(text))


def service_topic(text: str) -> str | None:
    """What ``text`` asks about the store itself, if it does: :data:`PRIVATE`, or
    :data:`STORE` for a question its policies may answer, read with the words the search
    first reads a store question by (:func:`shared.store.first_words.asks_about_store`:
    returns, delivery, an order, payment, a warranty, in each language they list)."""
    if _PRIVATE.search(text):
        return PRIVATE
    return STORE if asks_about_store(text) else None


def kind_not_carried(text: str, carried: bool) -> Kind | None:
    """The kind of product ``text`` asks for that the store does not sell, if any.

    ``carried``: the text also names a kind the store sells, so that "a phone with a
    great camera" asks for a phone, not a camera. A kind the catalog has after all (a
    store that sells tablets, or an iPad) is carried.
    """
    for kind, pattern in _NOT_CARRIED_RES:
        said = pattern.search(text)
        if said and not (carried and kind.name == "monitors") and not store().sells(said[0]):
            return kind
    return None


def asked_unknown(title: str, text: str) -> bool:
    """Whether a capitalised phrase of ``text`` is no title but a name the store is asked
    for (the search's reading, :func:`shared.search.asked.asked_names`) that is none of
    the catalog's words: "Huawei" in "do you sell Huawei?", "Anything from Motorola".
    The catalog tool will say it does not carry it."""
    said = [n for n in asked_names(text) if n.casefold() == title.casefold()]
    return any(not store().knows(n.casefold()) for n in [*asked_names(title), *said])
