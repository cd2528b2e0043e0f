"""Kinds of product shoppers ask a shop like this for that it may not sell: tablets,
cameras, game consoles, TVs, headphones.

A kind asked for ("do you sell drones?", "a mirrorless camera", "wireless headphones
under $100") that no product of the catalog is (by its kind) or names (a non-book
product's name with the kind's word: "iPad" in a store that sells one) is not carried:
the search says so (``SearchResult.not_carried``, by the kind's name), and where the
table gives the nearest kind the store may sell, it searches for that instead, in the
shopper's words with the kind's replaced ("a tablet under $500" is searched as "a 2-in-1
laptops under $500", "any Galaxy Tab S9?" as "any 2-in-1 laptops?"), and says which kind
it shows (``SearchResult.instead``), where the store has products of it. Whether the
store sells a kind is always the catalog's to say: a store that sells cameras is asked
for cameras like any other kind.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Final

from shared.search.words import parse

_I = re.IGNORECASE


@dataclass(frozen=True)
class Unsold:
    """A kind of product a shopper may ask for, how they say it, and the nearest kind
    to show instead, if any."""

    name: str
    """How an answer names it: "TVs", "game consoles"."""
    said: re.Pattern[str]
    instead: str | None = None
    """The nearest kind, as the search reads it and an answer names it ("2-in-1 laptops")."""
    a_feature_beside: bool = False
    """Said beside a kind the store sells, it is that product's feature, not a wish of its
    own ("a laptop that drives two external monitors")."""
    alone: re.Pattern[str] | None = None
    """More ways of saying it that ask for it only where the words name no kind the store
    sells and do not make it a feature ("the cheapest camera", not "a phone with a good
    camera" or "what has the best camera?")."""
    feature: re.Pattern[str] | None = None
    """The words that make ``alone`` a product's feature."""


ACCESSORY: Final = (
    r"(?:cases?|covers?|sleeves?|skins?|chargers?|cables?|screen protectors?|protectors?|"
    r"ink|toner|cartridges?|styluses|stylus)"
)
"""The words of accessories, which follow the product they are for: "an iPhone 13 case"."""


def _kind(
    name: str,
    pattern: str,
    instead: str | None = None,
    *,
    a_feature_beside: bool = False,
    alone: str | None = None,
    feature: str | None = None,
) -> Unsold:
    def compiled(words: str | None) -> re.Pattern[str] | None:
        return re.compile(words, _I) if words else None

    return Unsold(
        name, re.compile(pattern, _I), instead, a_feature_beside, compiled(alone), compiled(feature)
    )


KINDS: Final[tuple[Unsold, ...]] = (
    _kind("tablets", r"\b(?:tablets?|ipads?|galaxy tabs?|android tablets?)\b", "2-in-1 laptops"),
    _kind(
        "cameras",
        # Not "a phone with a great camera": a camera as the thing wanted.
        r"\b(?:digital|mirrorless|instant|action|film|compact) cameras?\b|"
        r"\b(?:dslrs?|camcorders?|gopros?)\b|"
        r"\b(?:sell|have|stock|carry|buy|want|need|looking for)\s+(?:a |any |some )?cameras?\b|"
        r"^\W*cameras?\W*$",
        "phones with the best cameras",
        # "the cheapest camera", "a cheap camera for my daughter", "a camera under $300"
        alone=r"(?:(?<=\bcheapest )|(?<=\bcheap )|(?<=\bcheaper )|(?<=\bbudget )|"
        r"(?<=\baffordable )|(?<=\binexpensive ))cameras?\b|"
        r"\bcameras?(?=\s+(?:under|below|for less than|less than|up to)\s*[$\u20ac\u00a3]?\d)",
        feature=r"\b(?:with|has|had|having|whose|its|their|got)\b(?:\s+[\w-]+){0,3}?\s+cameras?\b",
    ),
    _kind(
        "game consoles",
        r"\b(?:(?:game|games|gaming) consoles?|consoles?|playstation|ps5|xbox|nintendo switch)\b",
        "gaming laptops",
    ),
    _kind(
        "monitors",
        r"\b(?:monitors?|external displays?)\b",
        "all-in-one computers",
        a_feature_beside=True,
    ),
    _kind("TVs", r"\b(?:tvs?|televisions?|smart tvs?)\b"),
    _kind("smartwatches", r"\b(?:smart ?watch(?:es)?|apple watch|fitness trackers?|wearables?)\b"),
    # Not "a phone with a headphone jack": the port is the phone's.
    _kind(
        "headphones",
        r"\b(?:head ?phones?|earbuds|earphones|airpods|headsets?)\b"
        r"(?![\s-]*(?:jacks?|ports?|sockets?|outputs?|connectors?)\b)",
    ),
    _kind("e-readers", r"\b(?:e-?readers?|kindles?|kobo)\b"),
    _kind("printers", r"\b(?:printers?|scanners?)\b"),
    _kind("speakers", r"\b(?:(?:smart |bluetooth )?speakers?|soundbars?)\b"),
    _kind("drones", r"\bdrones?\b"),
    # Accessories, where they are the thing wanted: "a case for the iPhone 13", not "in
    # case", "a laptop with a charger" or "does the warranty cover it".
    _kind(
        "cases",
        r"\b(?:cases?|covers?|sleeves?|skins?)(?=\s+for\b)|"
        r"\b(?:phone|laptop|tablet|iphone|galaxy|pixel) (?:cases?|covers?|sleeves?|bags?)\b|"
        r"^\W*cases?\W*$|(?<!\bin )\b(?:cases?|covers?)(?=\W*$)",
    ),
    _kind(
        "chargers and cables",
        r"(?<!with )(?<!with a )(?<!with an )"
        r"\b(?:chargers?|charging cables?|usb(?:-c)? cables?|power banks?|power adapters?)\b",
    ),
    _kind("screen protectors", r"\bscreen protectors?\b"),
    _kind("ink and toner", r"\b(?:ink(?: cartridges?)?|toner|cartridges?)\b"),
    _kind("styluses", r"(?<!with )(?<!with a )\b(?:styluses|stylus(?: pens?)?)\b"),
)


@dataclass(frozen=True)
class Asked:
    """An unsold kind, as a message asks for it."""

    kind: Unsold
    words: str
    """The words that asked for it: "mirrorless camera", "PS5"."""


def unsold_in(
    text: str,
    sells: Callable[[str], bool],
    kind_named: Callable[[], bool],
    named: Callable[[], bool] | None = None,
) -> list[Asked]:
    """The kinds ``text`` asks for that the store does not sell, in the table's order.

    ``sells``: whether the catalog sells what a word names (a kind of its, or a word of
    a product's name), asked of the last word that named the kind: "Galaxy Tab" is a
    tab, whatever else the Galaxy line is. ``kind_named``: whether the text also names a
    kind the store sells, so that a kind that is then a feature of it is not asked for
    (asked only of such a kind). ``named``: whether it names a kind, a brand, a line or
    a product the store sells ("the Galaxy S24 Ultra's camera"), which makes a kind said
    the way of ``Unsold.alone`` that product's feature; ``kind_named`` when not given.
    """
    found = []
    for kind in KINDS:
        said = kind.said.search(text) or _alone(kind, text, named or kind_named)
        if said is None or (kind.a_feature_beside and kind_named()) or sells(said[0].split()[-1]):
            continue
        if _WHAT_IT_IS.search(re.split(r"[.?!;]", text[: said.start()])[-1]):
            continue  # "is the Surface Pro a laptop or a tablet?" asks what it is
        found.append(Asked(kind, said[0]))
    return found


_WHAT_IT_IS: Final = re.compile(
    r"\b(?:is|are|isn't|aren't|was|were)\s+(?:the|this|that|these|those|it|they|your)\b"
    r"(?:\s+[\w'+-]+){0,6}?\s+(?:(?:really|more|also|like|basically|just)\s+)?"
    r"(?:an?|or\s+an?|or)\s*(?:[\w'-]+\s+){0,2}$",
    _I,
)
"""Words before a kind that ask what a product is, not for the kind: "is the Surface Pro
a", "is it more like a", "are these Android"."""


def _alone(kind: Unsold, text: str, named: Callable[[], bool]) -> re.Match[str] | None:
    """The words asking for ``kind`` the way it is asked where nothing else is."""
    said = kind.alone.search(text) if kind.alone else None
    if said is None or (kind.feature and kind.feature.search(text)) or named():
        return None
    return said


_OWNED_KIND = re.compile(
    r"\b(?:my|our|his|her|their)\s+(?:(?:old|new|current|broken|cracked)\s+)?([^\W\d_]+)"
    r"(?:\s+screen)?\b",
    _I,
)
"""A kind the shopper has ("I broke my phone screen"), which is not asked for."""


def without_unsold(text: str, asked: list[Asked]) -> str:
    """The shopper's words without the unsold kinds they ask for, nor the product an
    accessory is for, nor a kind they have: "a case for the iPhone 13" and "I broke my
    phone screen, do you sell screen protectors?" ask for nothing else; "a phone and a
    case" for a phone."""
    for each in asked:
        said = re.escape(each.words) + r"(?:\s+for\b[^,.;?!]*?(?=\s+and\b|[,.;?!]|$))?"
        text = re.sub(said, " ", text, count=1, flags=_I)
    return _OWNED_KIND.sub(lambda m: " " if parse(m[1]).category else m[0], text)
