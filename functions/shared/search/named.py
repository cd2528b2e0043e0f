"""The products a shopper names in their words: "the iPhone 15", "a Galaxy S23 or a Pixel
8a", "the Nokia 3310".

A product is named by a word of the catalog's names (a line or a brand: "iPhone",
"Galaxy", "XPS") followed by a model token, a word with a digit that is no amount ("15",
"S23", "8a"; not "16GB", "15-inch" or "$500"), with the words before and after it that the
catalog's names go on with ("Samsung Galaxy S24 Ultra"). Whether the store has it is the
catalog's to say: ``has_name`` tells whether a product's name has every word of a phrase
(of a product other than a book, ``books=False``). A model of a line of other things than
books that no name has ("iPhone 14") is not carried, and so is one of a name the catalog
has no word of, written with a capital ("Nokia 3310"); a word the search gives a meaning
of its own ("Windows 11", "under 500") names no product, nor does a book's word ("a
Python 3 book": the store's Python books are what the search finds).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Final

from shared.catalog.derive import fold
from shared.search.intents import STOP_WORDS
from shared.search.languages import in_english
from shared.search.words import MONEY, parse, parser_words

_WORD = re.compile(r"\d+(?:[.,]\d+)+[^\W\d_]*|[^\W_]+(?:[.'][^\W_]+)*\+?")
_AMOUNT = re.compile(
    r"\d+(?:[.,]\d+)?(?:gb|tb|mb|kg|g|lbs?|oz|mah|mp|hz|in|inch|inches|h|hrs?|w|mm|cm|k|%)?",
    re.IGNORECASE,
)
_UNITS: Final = frozenset(
    re.findall(
        r"\w+", "gb tb mb kg g lb lbs oz mah mp hz inch inches zoll h hr hrs hours w mm cm k"
    )
) | frozenset(MONEY)
_CITED = re.compile(r"\[[^\]]{0,40}\]")
_MONEY_BEFORE = re.compile(r"[$€£]\s*$")
_BETWEEN: Final = frozenset(
    re.findall(r"\w+", "a an the and or vs versus with without for of to in on at by from is are")
) | {"than", "under", "over"}
"""Words between two names or before a limit, never the rest of a name."""
MAX_NAMED = 3
"""More names than a question compares: the first three are looked up."""


@dataclass(frozen=True)
class Named:
    """A product named in the shopper's words, as written, and whether the store has it."""

    said: str
    carried: bool
    line: bool = True
    """Whether the catalog has other products of its line or brand ("iPhone" for the
    iPhone 14); not for a name it has no word of ("Nokia 3310")."""


def _model_token(text: str, words: list[re.Match[str]], at: int) -> bool:
    """Whether ``words[at]`` is a model's token: a digit in it, and no amount."""
    token = words[at].group()
    if not any(ch.isdigit() for ch in token) or _MONEY_BEFORE.search(text[: words[at].start()]):
        return False
    following = words[at + 1].group().casefold() if at + 1 < len(words) else ""
    return not (_AMOUNT.fullmatch(token) and (following in _UNITS or not token.isdigit()))


def _leads(word: str) -> bool:
    """Whether ``word`` may start a product's name: a word that says something, and no
    meaning of the search's but a line's ("iPhone", not "laptop" or "budget")."""
    if not (word.isalpha() and len(word) > 1) or word.casefold() in STOP_WORDS:
        return False
    meant = parse(word)
    return bool(meant.lines) or not (
        meant.category or meant.forms or meant.sort or meant.uses or meant.limits
    )


def _goes_on(word: str) -> bool:
    """Whether ``word`` may be more of a name: "Ultra" after "Galaxy S24", "Samsung"
    before it."""
    return len(word) > 1 and word.casefold() not in _BETWEEN


def _means_something(word: str) -> bool:
    """Whether the search gives ``word`` a meaning of its own (a kind, an order, a use, a
    system, a line): "Windows" in "Windows 11" names no product."""
    return fold(word.casefold()) in parser_words()


def _starts(words: list[re.Match[str]], at: int, has_name: HasName) -> bool:
    """Whether ``words[at]`` may start a product's name: one that leads, or a kind the
    names write after a line ("ROG Phone 8")."""
    lead = words[at].group()
    if _leads(lead):
        return True
    before = words[at - 1].group() if at else ""
    return bool(before) and _leads(before) and has_name(f"{before} {lead}")


HasName = Callable[..., bool]
"""``has_name(phrase, books=True)``: whether a product's name has every word of ``phrase``."""


def named_in(text: str, has_name: HasName) -> list[Named]:
    """The products ``text`` names, in the order it names them (at most :data:`MAX_NAMED`),
    read as the search reads other languages ("Gewicht 1,2 kg" is a weight)."""
    # "[CMP-999]" cites a product by its id, which is no name.
    text = _CITED.sub(" ", in_english(text))
    words = list(_WORD.finditer(text))
    found: list[Named] = []
    at = 0
    while at + 1 < len(words) and len(found) < MAX_NAMED:
        lead = words[at].group()
        if not (_model_token(text, words, at + 1) and _starts(words, at, has_name)):
            at += 1
            continue
        start, end = at, at + 2
        phrase = " ".join(w.group() for w in words[start:end])
        if has_name(phrase):
            # "Galaxy S24 Ultra": the words the names go on with; "Samsung Galaxy S24".
            while end < len(words) and _goes_on(words[end].group()):
                longer = f"{phrase} {words[end].group()}"
                if not has_name(longer):
                    break
                phrase, end = longer, end + 1
            line = carried = True
        elif has_name(lead, books=False):
            line, carried = True, False
        elif lead[0].isupper() and not _means_something(lead) and not has_name(lead):
            line = carried = False
        else:
            at += 1
            continue
        # The words before it that the names have: with it ("Samsung Galaxy S24"), or,
        # for a model the store lacks, on their own ("Apple MacBook Ultra 20").
        while start and line and _goes_on(before := words[start - 1].group()):
            joined = has_name(f"{before} {phrase}")
            if not (joined or (not carried and _leads(before) and has_name(before))):
                break
            start, phrase = start - 1, f"{before} {phrase}"
        said = text[words[start].start() : words[end - 1].end()]
        if all(fold(said.casefold()) != fold(n.said.casefold()) for n in found):
            found.append(Named(said, carried, line))
        at = end
    return found
