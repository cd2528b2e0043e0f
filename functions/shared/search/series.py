"""The closest names to one the store does not have: the most words shared, then the
nearest model number in the same series ("Galaxy S24" for "Galaxy S23", "iPhone 15" for
"iPhone 14"), then the shortest name."""

from __future__ import annotations

import re
from collections.abc import Sequence

from shared.search.query import Hit

_TOKEN = re.compile(r"[a-z]+\d*[a-z]*|\d+[a-z]*")
_SERIES = re.compile(r"([a-z]*)(\d+)")


def name_words(name: str, *, brackets: bool = False) -> list[str]:
    """A name's words, without those in its brackets unless ``brackets``: "Dell XPS 13
    9340" -> dell, xps, 13, 9340; "HP 14 Laptop (14-ep0000)" -> hp, 14, laptop."""
    folded = name.casefold() if brackets else re.sub(r"\([^)]*\)", " ", name.casefold())
    # "Galaxy S24+" is another model than "Galaxy S24": the plus is a word.
    return _TOKEN.findall(folded.replace("+", " plus "))


def closeness(asked: str, name: str) -> tuple[int, int, int]:
    """How near the name ``name`` is to the one asked for; smaller is nearer."""
    wanted, have = name_words(asked), name_words(name)
    shared = sum(1 for word in wanted if word in have)
    numbers = [m.groups() for word in wanted if (m := _SERIES.match(word))]
    theirs = [m.groups() for word in have if (m := _SERIES.match(word))]
    gaps = [abs(int(a) - int(b)) for s, a in numbers for t, b in theirs if s == t]
    return (-shared, min(gaps, default=1000), len(have))


def closest_first(asked: str, hits: Sequence[Hit]) -> list[Hit]:
    """``hits`` nearest the name asked for first; equals keep their order."""
    return sorted(hits, key=lambda hit: closeness(asked, hit.name))
