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


# -- the most of them ---------------------------------------------------------------------------

# Each superlative: its words and which end of the field it says (-1: the least of it).
_SUPERLATIVES: Final[tuple[tuple[str, str, int], ...]] = (
    (r"cheapest|least\s+expensive|most\s+affordable|lowest[-\s]priced|günstigste[nrs]?|"
     r"billigste[nrs]?|moins\s+cher(?:e|s|es)?|más\s+barat[oa]s?", _PRICE, -1),
    (r"most\s+expensive|priciest|dearest|highest[-\s]priced|teuerste[nrs]?|"
     r"plus\s+cher(?:e|s|es)?|más\s+car[oa]s?", _PRICE, 1),
    (r"lightest|leichteste[nrs]?|plus\s+légère?s?|más\s+liger[oa]s?", WEIGHT_KG.key, -1),
    (r"heaviest|schwerste[nrs]?|plus\s+lourde?s?|más\s+pesad[oa]s?", WEIGHT_KG.key, 1),
)  # fmt: skip
_SUPERLATIVE: Final = "|".join(f"(?:{words})" for words, _, _ in _SUPERLATIVES)
_OF_THEM: Final = (
    r"(?:\s+(?:one|option|choice|pick|model|of\s+(?:the\s+)?(?:two|three|four|five|bunch|lot)|"
    r"of\s+(?:these|those|them|all|my\s+picks)|here|among\s+(?:them|these)|on\s+(?:this|the)\s+"
    r"list|(?:de\s+los|des|der)\s+(?:dos|trois|deux|tres|drei|beiden)|"
    r"(?:von|de)\s+(?:ihnen|ellos|eux)))*"
)
"""What may follow a superlative that sets a product against the others shown, and nothing
more: "the cheapest", "the cheapest of the three", "the lightest option here"; not "the
cheapest 13-inch laptop", which sets it against some of them."""
_IS_THE_MOST: Final = re.compile(
    r"[\s*_)]*,?\s*(?:is|'s|\u2019s|ist|est|es)\s+(?:(?:also|by\s+far|clearly|easily)\s+)?"
    r"(?:the|der|die|das|le|la|el)\s+[*_]*(?P<which>" + _SUPERLATIVE + r")[*_]*" + _OF_THEM
    + r"[\s*_]*(?:[.!]|$)",
    re.IGNORECASE,
)  # fmt: skip
"""What follows a product said to be the most of those shown: "[..] is the cheapest"."""
_THE_MOST_IS: Final = re.compile(
    r"(?:^|[.!?:]\s+|\n)[\s*_-]*(?:the|der|die|das|le|la|el)\s+[*_]*(?P<which>" + _SUPERLATIVE
    + r")[*_]*" + _OF_THEM + r"[\s*_]*(?:is|ist|est|es|:)\s+(?:(?:the|der|die|das|le|la|el)\s+)?"
    r"[^\[\].!?;,\n]{0,80}$",
    re.IGNORECASE,
)  # fmt: skip
"""What comes before a product said to be the most of those shown: "The cheapest of the
three is the"."""


def _most(words: str) -> tuple[str, int] | None:
    words = " ".join(words.split())
    for words_of, key, way in _SUPERLATIVES:
        if re.fullmatch(words_of, words, re.IGNORECASE):
            return key, way
    return None


def not_the_most(
    view: str, marks: list[tuple[int, int, str]], shown: list[str], index: LedgerIndex
) -> list[Against]:
    """The products ``view`` says are the most of those the answer cites (``shown``: every
    mark it cites) by price or weight ("[..] is the cheapest of the three", "The lightest
    is the [..]") when another of the same kind has less or more of it."""
    if not marks or len({index[mark].productId for _, _, mark in marks}) != 1:
        return []  # one product, by its name and its id
    start, (_, end, mark) = marks[0][0], marks[-1]
    said = _IS_THE_MOST.match(view, end) or _THE_MOST_IS.search(view[:start])
    if said is None:
        return []
    most = _most(said["which"])
    if most is None:
        return []
    key, way = most
    record = index[mark]
    one = as_number(record_value(record, key))
    others = [
        as_number(record_value(index[m], key))
        for m in dict.fromkeys(shown)
        if m in index
        and index[m].productId != record.productId
        and index[m].category == record.category
    ]
    if one is None or any(value is None for value in others):
        return []
    beaten = any(value < one if way < 0 else value > one for value in others if value is not None)
    return [Against(mark, key, said["which"])] if beaten else []
