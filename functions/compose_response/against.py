"""Products set against each other: "The XPS 13 [..] is cheaper than the HP 14 [..]" and
"[..] is the cheapest of the two" hold only when the records say so.

A comparative between two products a sentence cites, the first before it and the second
right after its "than" (an article and the second's name between, nothing else), is
checked against both records: the price ("cheaper", "costs more", "a cheaper option",
"günstiger", "coûte moins cher", "más caro"), the weight ("lighter", "pesa menos") and
the specs a shopper ranks by ("more RAM", "more storage", "a longer battery life", "a
bigger screen"); several at once ("lighter and cheaper"). Said not to hold ("is not
cheaper than"), it is checked the other way. A price difference said with it ("$950
cheaper than") must be the records' within a dollar or 1 %.

A superlative of one product ("[..] is the cheapest of the two", "The lightest option
here is the [..]") is checked against the others of its kind the answer cites, by price
or weight, when the sentence sets it against all of them: not one with a condition before
it ("If you need 16 GB, the [..] is the cheapest"), nor in an answer with headings, whose
sections each set products apart.

Left alone, as no claim: a question ("Is the XPS [..] cheaper than the HP 14 [..]?"),
words that report or doubt one ("whether", "a common misconception that"), a comparison
with another time ("than the HP 14 [..] was at launch"), with a hedge ("could be cheaper")
or of a product with no value for the field.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Final

from compose_response.compare import as_number, record_value
from compose_response.text import HEADING
from shared.catalog.specs import (
    BATTERY_HOURS,
    FORM_FACTOR,
    RAM_GB,
    SCREEN_INCHES,
    STORAGE_GB,
    WEIGHT_KG,
)
from shared.products.ledger import LedgerIndex, LedgerProduct

_PRICE: Final = "price"
_I = re.IGNORECASE

# Each comparative: its words (English, German, French, Spanish), the field it compares and
# which way (-1: the first has less of it, +1: more).
_COMPARATIVES: Final[tuple[tuple[str, str, int], ...]] = (
    (r"cheaper|less\s+expensive|more\s+affordable|lower[-\s]priced|(?:costs?|is\s+priced)\s+"
     r"less|günstiger|billiger|preiswerter|(?:coûte\s+)?moins\s+cher(?:e|s|es)?|"
     r"más\s+barat[oa]s?|más\s+económic[oa]s?", _PRICE, -1),
    (r"pricier|more\s+expensive|dearer|higher[-\s]priced|(?:costs?|is\s+priced)\s+more|"
     r"teurer|(?:coûte\s+)?plus\s+cher(?:e|s|es)?|más\s+car[oa]s?",
     _PRICE, 1),
    (r"lighter|weighs\s+less|leichter|plus\s+légère?s?|plus\s+léger|más\s+liger[oa]s?|"
     r"pesa\s+menos", WEIGHT_KG.key, -1),
    (r"heavier|weighs\s+more|schwerer|plus\s+lourde?s?|más\s+pesad[oa]s?|pesa\s+más",
     WEIGHT_KG.key, 1),
    # "has more RAM", "hat weniger Speicher", "tiene más almacenamiento"
    *(
        (rf"(?:has\s+|hat\s+|tiene\s+|a\s+)?(?:{how})\s+(?:{what})", key, way)
        for what, key in (
            (r"ram|memory|arbeitsspeicher|memoria|mémoire", RAM_GB.key),
            (r"storage|speicher(?:platz)?|almacenamiento|stockage", STORAGE_GB.key),
        )
        for how, way in ((r"more|mehr|más|plus\s+de", 1), (r"less|weniger|menos|moins\s+de", -1))
    ),
    (r"(?:has\s+)?(?:a\s+)?longer\s+battery(?:\s+life)?|lasts\s+longer|"
     r"(?:hat\s+)?(?:eine\s+)?längere\s+akkulaufzeit", BATTERY_HOURS.key, 1),
    (r"(?:has\s+)?(?:a\s+)?shorter\s+battery(?:\s+life)?|(?:hat\s+)?(?:eine\s+)?kürzere\s+"
     r"akkulaufzeit", BATTERY_HOURS.key, -1),
    (r"(?:has\s+)?(?:a\s+)?(?:bigger|larger)\s+(?:screen|display)|(?:hat\s+)?(?:einen\s+)?"
     r"größeren\s+bildschirm", SCREEN_INCHES.key, 1),
    (r"(?:has\s+)?(?:a\s+)?smaller\s+(?:screen|display)|(?:hat\s+)?(?:einen\s+)?kleineren\s+"
     r"bildschirm", SCREEN_INCHES.key, -1),
)  # fmt: skip
_WHICH: Final = [re.compile(words, _I) for words, _, _ in _COMPARATIVES]
_COST_VERBS: Final = r"costs?|kostet|kosten|coûte|coûtent|cuesta|cuestan"
_NOT_A_NAME: Final = (
    r"(?!\b(?:but|and|or|while|whereas|although|though|yet|so|which|that|is|are|was|were|"
    r"costs?|less|more|many|most|any|other|others|a|an|some|typical|usual|average|aber|und|"
    r"mais|et|pero|y)\b)"
)
_AGAINST: Final = re.compile(
    r"\s*(?:\([^()]{0,40}\)\s*|,\s*(?:at|for)\s+[^()]{1,20}?,\s*)?,?\s*"
    r"(?:which\s+|that\s+)?"
    r"(?:(?P<negated>(?:is|are|does|do)n['\u2019]t|(?:is|are|does|do)\s+not|ist\s+nicht|"
    r"n['\u2019]est\s+pas|no\s+es)\s+|"
    r"(?:is|are|ist|est|es|sind|sont|son)\s+(?P<not>(?:not|nicht|pas|no\s+longer)\s+)?|"
    rf"(?P<costs>{_COST_VERBS})\s+)?"
    r"(?:(?:now|currently|also|even|still|much|far|way|both|a\s+(?:bit|little|lot)|slightly|"
    r"considerably|significantly|noticeably|deutlich|viel|etwas|bien|un\s+peu|mucho|algo)\s+)*"
    r"(?:(?P<amount>[$€£]\s?\d[\d,]*(?:\.\d+)?|\d[\d,]*(?:\.\d+)?\s?[$€£])\s+|"
    r"\d[\d,.]*\s?(?:kg|g|lb|gb|tb|h|hours?|inch(?:es)?|\")\s+)?"
    r"(?:an?\s+)?(?P<which>[^\W\d_](?:(?!\b(?:than|als|que)\b)[\w\s,-]){2,60}?)"
    r"(?:\s+(?:option|choice|pick|one|model|buy|deal|laptop|phone|device))?"
    r"\s+(?:than|als|que)\s+"
    r"(?:(?:the|der|die|das|dem|den|le|la|l['\u2019]|el|los|las)\s*)?"
    r"(?P<name>(?:" + _NOT_A_NAME + r"[^\[\].!?;,\n]){0,80})$",
    _I,
)  # fmt: skip
"""What stands between the first product and the second's citation: "is cheaper than
the HP 14", "costs $950 more than the", "isn't lighter than the"."""
_AS_THEN: Final = re.compile(
    r"[\s*_]*(?:was|were|used\s+to|did|had|would|will|n['\u2019]était|était|war|era)\b", _I
)
"""Words after the second product that set it at another time: "than the HP 14 [..] was"."""
_NO_CLAIM: Final = re.compile(
    r"\b(?:whether|if|misconceptions?|myths?|claims?|rumou?rs?|asked|wonder(?:ing)?|"
    r"could|might|may|would|ob|si)\b",
    _I,
)
"""Words that report, doubt or suppose a comparison rather than make it."""
_PARTS: Final = re.compile(r"\s*(?:,\s*(?:and\s+)?|\s+(?:and|und|et|y)\s+)", _I)
_LESS_MORE: Final = {
    "less": -1, "weniger": -1, "moins": -1, "menos": -1,
    "more": 1, "mehr": 1, "plus": 1, "más": 1,
}  # fmt: skip
"""After a verb of price ("costs $950 less than"): which way."""
_COSTS: Final = re.compile(rf"^(?:{_COST_VERBS})\s+", _I)


@dataclass(frozen=True)
class Against:
    """A comparison of cited products the records do not bear out."""

    mark: str
    """The citation of the product said to have more or less."""
    key: str
    """The field compared: ``price`` or a spec's key."""
    said: str
    """The words of the comparison, as the sentence says them."""


def _compared(words: str) -> list[tuple[str, int]] | None:
    """Each comparison ``words`` make ("lighter and cheaper": two); None when any part
    is no comparative this check reads."""
    found = []
    for part in _PARTS.split(" ".join(words.split()).casefold()):
        costs = _COSTS.match(part)
        if costs and (way := _LESS_MORE.get(part[costs.end() :])):
            found.append((_PRICE, way))
            continue
        compared = next(
            ((key, way) for pattern, (_, key, way) in zip(_WHICH, _COMPARATIVES, strict=True)
             if pattern.fullmatch(part)),
            None,
        )  # fmt: skip
        if compared is None:
            return None
        found.append(compared)
    return found or None


_ASKED: Final = re.compile(r"[^.!\n]*\?")
"""A question mark before the sentence ends: the comparison is asked, not said."""


def _after(view: str, marks: list[tuple[int, int, str]], index: LedgerIndex) -> int:
    """Where the product of the first of ``marks`` stops being named: after its name's
    mark and its id's."""
    product, end = index[marks[0][2]].productId, marks[0][1]
    for start, stop, mark in marks[1:]:
        if index[mark].productId != product or view[end:start].strip(" *_"):
            break
        end = stop
    return end


def _amount(said: str) -> float | None:
    digits = re.sub(r"[^\d.]", "", said.replace(",", ""))
    try:
        return float(digits)
    except ValueError:
        return None


def set_against(view: str, marks: list[tuple[int, int, str]], index: LedgerIndex) -> list[Against]:
    """The comparisons of ``view`` between two products it cites (``marks``: each
    citation's start, end and mark) that their records contradict."""
    if not marks:
        return []
    if _NO_CLAIM.search(view[: marks[0][0]]):
        return []
    wrong: list[Against] = []
    for at, ((_, end, first), (start, _, second)) in enumerate(itertools.pairwise(marks)):
        span = re.sub(r"[*_]", "", view[end:start])
        said = _AGAINST.fullmatch(span)
        if said is None or index[first].productId == index[second].productId:
            continue
        after = _after(view, marks[at + 1 :], index)
        if _NO_CLAIM.search(span) or _AS_THEN.match(view, after) or _ASKED.match(view, after):
            continue
        compared = _compared(f"{said['costs'] or ''} {said['which']}")
        if compared is None:
            continue
        negated = bool(said["negated"] or said["not"])
        for key, way in compared:
            one = as_number(record_value(index[first], key))
            other = as_number(record_value(index[second], key))
            if one is None or other is None:
                continue
            if negated:
                holds = one >= other if way < 0 else one <= other  # "is not cheaper than"
            else:
                holds = one < other if way < 0 else one > other
            if holds and key == _PRICE and said["amount"] and not negated:
                by = _amount(said["amount"])
                holds = by is None or abs(by - abs(one - other)) <= max(1.0, 0.01 * by)
            if not holds:
                wrong.append(Against(first, key, span[said.start("which") :].strip()))
    return wrong


# -- the most of them ---------------------------------------------------------------------------

# Each superlative: its words and which end of the field it says (-1: the least of it).
_SUPERLATIVES: Final[tuple[tuple[str, str, int], ...]] = (
    (r"cheapest|least\s+expensive|most\s+affordable|lowest[-\s]priced|günstigste[nrs]?|"
     r"billigste[nrs]?|moins\s+cher(?:e|s|es)?|más\s+barat[oa]s?", _PRICE, -1),
    (r"most\s+expensive|priciest|dearest|highest[-\s]priced|teuerste[nrs]?|"
     r"plus\s+cher(?:e|s|es)?|más\s+car[oa]s?", _PRICE, 1),
    (r"lightest|leichteste[nrs]?|plus\s+légère?s?|plus\s+léger|más\s+liger[oa]s?",
     WEIGHT_KG.key, -1),
    (r"heaviest|schwerste[nrs]?|plus\s+lourde?s?|más\s+pesad[oa]s?", WEIGHT_KG.key, 1),
)  # fmt: skip
_OF_TWO: Final = (
    r"(?:\s+(?:one|option|choice|pick|model))?\s+(?:of\s+(?:the\s+)?(?:two|both|pair)|"
    r"(?:von|der)\s+beiden|des\s+deux|de\s+los\s+dos)"
)
_TWO_WAYS: Final[tuple[tuple[str, str, int], ...]] = (
    (r"cheaper|less\s+expensive|more\s+affordable", _PRICE, -1),
    (r"pricier|more\s+expensive|dearer", _PRICE, 1),
    (r"lighter", WEIGHT_KG.key, -1),
    (r"heavier", WEIGHT_KG.key, 1),
)
"""A comparative said of one of two ("the cheaper of the two"): a superlative of them."""
_SUPERLATIVE: Final = (
    "|".join(f"(?:{words})" for words, _, _ in _SUPERLATIVES)
    + "|"
    + "|".join(f"(?:(?:{words})(?={_OF_TWO}))" for words, _, _ in _TWO_WAYS)
)
_OF_THEM: Final = (
    r"(?:\s+(?:one|option|choice|pick|model|of\s+(?:the\s+)?(?:two|three|four|five|bunch|lot|"
    r"both|pair)|of\s+(?:these|those|them|all|my\s+picks)|here|among\s+(?:them|these)|on\s+"
    r"(?:this|the)\s+list|(?:de\s+los|des|der|von)\s+(?:dos|trois|deux|tres|drei|beiden)|"
    r"(?:von|de)\s+(?:ihnen|ellos|eux)|(?:at|for|bei|à|a|por)\s+(?:[$€£]\s?\d[\d,.]*|"
    r"\d[\d,.]*\s?[$€£])))*"
)
"""What may follow a superlative that sets a product against the others shown, and nothing
more: "the cheapest", "the cheapest of the three", "the lightest option here", "the cheapest
here at $349"; not "the cheapest 13-inch laptop", which sets it against some of them."""
_ARTICLE: Final = r"(?:the|der|die|das|le|la|el)"
_KIND: Final = (
    r"(?:\s+(?:laptop|notebook|computer|pc|phone|smartphone|book|one|option|product|device|"
    r"model)s?)?"
)
_STORE_WIDE: Final = (
    r"(?P<wide>\s+(?:in\s+(?:the\s+(?:whole\s+|entire\s+)?|our\s+)(?:store|shop|catalog(?:ue)?|"
    r"range)|(?:that\s+)?we\s+(?:sell|have|carry|stock|offer)|you\s+can\s+(?:buy|get)\s+(?:here|"
    r"from\s+us)|(?:on|in)\s+sale\s+here|overall|of\s+all))?"
)
"""What makes a superlative the store's ("the cheapest laptop we sell", "the lightest in
the whole store"): it is checked against every product of its kind the tools returned."""
_IS_THE_MOST: Final = re.compile(
    r"\s*,?\s*(?:is|'s|\u2019s|ist|est|es)\s+(?:(?:also|by\s+far|clearly|easily|actually|"
    r"really|still)\s+)*" + _ARTICLE + r"\s+(?P<which>" + _SUPERLATIVE + r")" + _KIND
    + _STORE_WIDE + _OF_THEM + r"\s*(?:[.!]|$|,\s+(?:and|but|so|while)\s)",
    _I,
)  # fmt: skip
"""What follows a product said to be the most of those shown: "[..] is the cheapest"."""
_THE_MOST_IS: Final = re.compile(
    r"^[\s>•-]*(?:\d+\.\s*)?" + _ARTICLE + r"\s+(?P<which>" + _SUPERLATIVE + r")" + _OF_THEM
    + r"\s*(?:is|ist|est|es|:)\s+(?:" + _ARTICLE + r"\s+)?[^\[\].!?;,\n]{0,80}$",
    _I,
)  # fmt: skip
"""What comes before a product said to be the most of those shown: "The cheapest of the
two is the"."""
_ALONE: Final = re.compile(
    r"^[\s>•-]*(?:\d+\.\s*)?(?:(?:so|and|overall|in\s+short|also)[,:]?\s+)?(?:"
    + _ARTICLE + r"\s+)?[^\W\d_][^,;:()]{0,80}$",
    _I,
)  # fmt: skip
"""The words of a sentence before the product a superlative is said of: its name, and no
condition ("If you need 16 GB, the", "For macOS, the")."""
_CONDITION: Final = re.compile(
    r"\b(?:if|for|with|among|when|unless|only|wenn|für|mit|si|pour|avec|para|con|sin|"
    r"without|ohne|sans)\b",
    _I,
)
_INTRO: Final = re.compile(r"^[^\n]{1,60}:\s*$")
"""A short line that opens what follows: "Under $500:"."""


def _same_kind(one: LedgerProduct, other: LedgerProduct) -> bool:
    """Of one category, and of one form where both say theirs (no desktop beside laptops)."""
    forms = [p.spec(FORM_FACTOR.key) for p in (one, other)]
    return one.category == other.category and (None in forms or forms[0] == forms[1])


def _most(words: str) -> tuple[str, int] | None:
    words = " ".join(words.split())
    for words_of, key, way in (*_SUPERLATIVES, *_TWO_WAYS):
        if re.fullmatch(words_of, words, _I):
            return key, way
    return None


def sectioned(answer: str) -> bool:
    """Whether ``answer`` has sections (headings, bold lines, lines ending in ":"), whose
    superlatives are each its own section's."""
    return any(HEADING.match(line) or _INTRO.match(line) for line in answer.split("\n"))


def not_the_most(
    view: str,
    marks: list[tuple[int, int, str]],
    shown: list[str],
    index: LedgerIndex,
    ledger: Iterable[LedgerProduct] = (),
) -> list[Against]:
    """The product ``view`` says is the most of those the answer cites (``shown``: every
    mark it cites) by price or weight ("[..] is the cheapest of the three", "The lightest
    is the [..]") when another of its kind there has less or more of it; or the most of the
    store's ("[..] is the cheapest laptop we sell") when another of its kind the tools
    returned (``ledger``) has."""
    if not marks or len({index[mark].productId for _, _, mark in marks}) != 1:
        return []  # one product, by its name and its id
    start, (_, end, mark) = marks[0][0], marks[-1]
    plain = re.split(r"[.!?:]\s", re.sub(r"[*_]", "", view[:start]))[-1]  # "Note: the [..]"
    said = None
    if _ALONE.match(plain) and not _CONDITION.search(plain):
        said = _IS_THE_MOST.match(re.sub(r"[*_]", "", view[end:]))
    said = said or _THE_MOST_IS.match(plain)
    if said is None:
        return []
    most = _most(said["which"])
    if most is None:
        return []
    key, way = most
    record = index[mark]
    one = as_number(record_value(record, key))
    wide = bool(said.groupdict().get("wide"))
    against = list(ledger) if wide else [index[m] for m in dict.fromkeys(shown) if m in index]
    others = [
        as_number(record_value(other, key))
        for other in against
        if other.productId != record.productId and _same_kind(other, record)
    ]
    if one is None or any(value is None for value in others):
        return []
    beaten = any(value < one if way < 0 else value > one for value in others if value is not None)
    return [Against(mark, key, said["which"])] if beaten else []
