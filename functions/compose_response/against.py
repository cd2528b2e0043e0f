"""Two products set against each other in one sentence: "The XPS 13 [..] is cheaper than
the HP 14 [..]" holds only when the records say so.

A comparative between two products the sentence cites, the first before it and the
second right after its "than", is checked against both records: the price ("cheaper",
"costs more", "günstiger", "moins cher", "más caro"), the weight ("lighter", "heavier")
and the specs a shopper ranks by ("more RAM", "more storage", "a longer battery life", "a
bigger screen"). Said not to hold ("is not cheaper than", "isn't lighter than"), it is
checked the other way. A difference may stand between ("$950 cheaper than"): the check
reads which way, the price check reads the amount. What it cannot read is left alone: a
comparison with a hedge ("could be cheaper"), of more than the two products, or of a
product with no value for the field.
"""

from __future__ import annotations

import itertools
import re
from dataclasses import dataclass
from typing import Final

from compose_response.compare import as_number, record_value
from shared.catalog.specs import BATTERY_HOURS, RAM_GB, SCREEN_INCHES, STORAGE_GB, WEIGHT_KG
from shared.products.ledger import LedgerIndex

_PRICE: Final = "price"

# Each comparative: its words (English, German, French, Spanish), the field it compares and
# which way (-1: the first has less of it, +1: more).
_COMPARATIVES: Final[tuple[tuple[str, str, int], ...]] = (
    (
        r"cheaper|less\s+expensive|more\s+affordable|lower[-\s]priced|(?:costs?|is\s+priced)\s+"
        r"less|günstiger|billiger|preiswerter|moins\s+cher(?:e|s|es)?|más\s+barat[oa]s?|"
        r"más\s+económic[oa]s?",
        _PRICE,
        -1,
    ),
    (
        r"pricier|more\s+expensive|dearer|higher[-\s]priced|(?:costs?|is\s+priced)\s+more|"
        r"teurer|plus\s+cher(?:e|s|es)?|más\s+car[oa]s?",
        _PRICE,
        1,
    ),
    (r"lighter|weighs\s+less|leichter|plus\s+légère?s?|más\s+liger[oa]s?", WEIGHT_KG.key, -1),
    (r"heavier|weighs\s+more|schwerer|plus\s+lourde?s?|más\s+pesad[oa]s?", WEIGHT_KG.key, 1),
    (r"(?:has\s+)?more\s+(?:ram|memory)|mehr\s+(?:ram|arbeitsspeicher)", RAM_GB.key, 1),
    (r"(?:has\s+)?less\s+(?:ram|memory)|weniger\s+(?:ram|arbeitsspeicher)", RAM_GB.key, -1),
    (r"(?:has\s+)?more\s+storage|mehr\s+speicher(?:platz)?", STORAGE_GB.key, 1),
    (r"(?:has\s+)?less\s+storage|weniger\s+speicher(?:platz)?", STORAGE_GB.key, -1),
    (
        r"(?:has\s+)?(?:a\s+)?longer\s+battery(?:\s+life)?|lasts\s+longer|"
        r"(?:eine\s+)?längere\s+akkulaufzeit",
        BATTERY_HOURS.key,
        1,
    ),
    (
        r"(?:has\s+)?(?:a\s+)?shorter\s+battery(?:\s+life)?|(?:eine\s+)?kürzere\s+akkulaufzeit",
        BATTERY_HOURS.key,
        -1,
    ),
    (
        r"(?:has\s+)?(?:a\s+)?(?:bigger|larger)\s+(?:screen|display)|"
        r"(?:einen\s+)?größeren\s+bildschirm",
        SCREEN_INCHES.key,
        1,
    ),
    (
        r"(?:has\s+)?(?:a\s+)?smaller\s+(?:screen|display)|(?:einen\s+)?kleineren\s+bildschirm",
        SCREEN_INCHES.key,
        -1,
    ),
)
_WHICH: Final = [re.compile(rf"(?:{words})", re.IGNORECASE) for words, _, _ in _COMPARATIVES]
_AGAINST: Final = re.compile(
    r"[\s*_)]*,?\s*(?:which\s+|that\s+)?"
    r"(?:(?P<negated>(?:is|are|does|do)n['\u2019]t|(?:is|are|does|do)\s+not|ist\s+nicht|"
    r"n['\u2019]est\s+pas|no\s+es)\s+|"
    r"(?:is|are|ist|est|es|sind|sont|son)\s+(?P<not>(?:not|nicht|pas|no\s+longer)\s+)?|"
    r"(?P<costs>costs?|kostet|kosten|coûte|coûtent|cuesta|cuestan)\s+)?"
    r"(?:(?:now|currently|also|even|still|much|far|way|a\s+(?:bit|little|lot)|slightly|"
    r"considerably|significantly|noticeably|deutlich|viel|etwas|bien|un\s+peu|mucho|algo)\s+)*"
    r"(?:(?:[$€£]\s?\d[\d,.]*|\d[\d,.]*\s?(?:[$€£]|kg|g|lb|gb|tb|h|hours?|inch(?:es)?|\"))\s+)?"
    r"(?P<which>[^\W\d_][\w\s-]{2,40}?)\s+(?:than|als|que)\s+"
    r"(?:(?:the|der|die|das|dem|den|le|la|l['\u2019]|el|los|las)\s*)?"
    r"(?P<name>[^\[\].!?;\n]{0,80})$",
    re.IGNORECASE,
)
"""What stands between the first product and the second's citation: "is cheaper than
the HP 14", "costs $950 more than the", "isn't lighter than the"."""


@dataclass(frozen=True)
class Against:
    """A comparison of two cited products the records do not bear out."""

    mark: str
    """The citation of the product said to have more or less."""
    key: str
    """The field compared: ``price`` or a spec's key."""
    said: str
    """The words of the comparison, as the sentence says them."""


_LESS_MORE: Final = {
    "less": -1, "weniger": -1, "moins": -1, "menos": -1,
    "more": 1, "mehr": 1, "plus": 1, "más": 1,
}  # fmt: skip
"""After a verb of price ("costs $950 less than"): which way."""


def _compared(words: str, costs: bool) -> tuple[str, int] | None:
    words = " ".join(words.split()).casefold()
    if costs:
        way = _LESS_MORE.get(words)
        return (_PRICE, way) if way else None
    for pattern, (_, key, way) in zip(_WHICH, _COMPARATIVES, strict=True):
        if pattern.fullmatch(words):
            return key, way
    return None


def set_against(view: str, marks: list[tuple[int, int, str]], index: LedgerIndex) -> list[Against]:
    """The comparisons of ``view`` between two products it cites (``marks``: each
    citation's start, end and mark) that their records contradict."""
    wrong: list[Against] = []
    for (_, end, first), (start, _, second) in itertools.pairwise(marks):
        said = _AGAINST.fullmatch(view, end, start)
        if said is None or index[first].productId == index[second].productId:
            continue
        compared = _compared(said["which"], bool(said["costs"]))
        if compared is None:
            continue
        key, way = compared
        one = as_number(record_value(index[first], key))
        other = as_number(record_value(index[second], key))
        if one is None or other is None:
            continue
        if said["negated"] or said["not"]:
            holds = one >= other if way < 0 else one <= other  # "is not cheaper than"
        else:
            holds = one < other if way < 0 else one > other
        if not holds:
            wrong.append(Against(first, key, view[said.start("which") : start].strip(" *_")))
    return wrong
