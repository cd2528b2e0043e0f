"""Turn a shopper's phrase into search terms, filters and a ranking, safely.

Nothing the model or a shopper writes reaches FTS5 as query syntax: the text is
cut into words (letters and digits only), every word becomes a quoted FTS5
string, and the operators between them are ours. ``"``, ``*``, ``NEAR(``,
``AND`` or an unbalanced quote are just characters or words.

Order of work on ``"cheap samsung phone under $500 with 128gb storage"``:

1. numbers with their meaning: ``under $500`` -> maxPrice 500, ``128gb storage``
   -> minStorageGb 128 (the words are removed; a spec's phrases are declared with it,
   ``shared.catalog.specs``);
2. orders said with a superlative or a comparative ("the lightest", "most storage",
   "the best camera"): the ``sortBy`` whose words (``Sort.said``, :mod:`shared.catalog`)
   they are, exactly as that field sorts; the words are removed, so that "lightest"
   never has to be in a description;
3. phrases of :data:`~shared.search.intents.INTENTS`, longest first: ``cheap``
   -> cheapest first, ``phone`` -> category MOBILE;
4. what is left, less stop words, is searched: ``samsung``; but not the words about a spec
   an order or a limit was read on ("weighs", "on one charge": ``Spec.talk``), nor a use
   leaning on that spec, nor a use that is all the words ask (it ranks every product).
"""

from __future__ import annotations

import functools
import itertools
import re
import unicodedata
from collections.abc import Callable, Collection, Iterator, Mapping
from dataclasses import dataclass, field, replace
from typing import Any, Final

from shared.catalog.categories import Category
from shared.catalog.derive import fold, sorts
from shared.catalog.spec import Sort
from shared.catalog.specs import FORM_FACTOR, PRICE_SORT, SPECS
from shared.search.amounts import AROUND, AT_LEAST, AT_MOST, one_of, take_amounts
from shared.search.intents import (
    BOOST_ORDER,
    COMPANY,
    INTENTS,
    LINE_NAMES,
    STOP_WORDS,
    Intent,
)
from shared.search.query import BOUNDS, SORTS, bound_on
from shared.search.schema import split_glued
from shared.text.languages import in_english

MAX_TEXT = 500
MAX_GROUPS = 10
MAX_TERM_CHARS = 40
_TOKEN = re.compile(r"[^\W_]+(?:['\-][^\W_]+)*")


def _phrase_key(phrase: str) -> tuple[str, ...]:
    return tuple(fold(t) for t in _TOKEN.findall(phrase.casefold()))


_PHRASES: dict[tuple[str, ...], Intent] = {
    _phrase_key(phrase): intent for intent in INTENTS for phrase in intent.phrases
}
_LONGEST = max(len(key) for key in _PHRASES)

# ----------------------------------------------------------------- numbers in words
# The words that give an amount its meaning ("under $500", "500 bucks") are
# :mod:`shared.search.amounts`'; a price's currency words are these.
MONEY: tuple[str, ...] = (
    "dollars", "dollar", "bucks", "usd", "euros", "euro", "eur", "pounds", "pound", "gbp", "quid",
)  # fmt: skip


_CUR = r"(?:[$£€]\s*)"
_AMOUNT = r"(\d{1,3}(?:,\d{3})+|\d+(?:\.\d+)?)(?![.,]?\d)\s*(k\b)?"
# A currency's word or its sign after the amount ("800 euros", "400€", "800 $"), never the
# sign of the next amount ("15 $800").
_SIGN = r"(?:\s*[$£€](?!\s*\d))"
_MONEY_WORD = rf"(?:\s*{one_of(MONEY)}\b|{_SIGN})"
_NOT_UNIT = (
    r"(?!\s*(?:gb|tb|mb|kg|g|grams?|lbs?|mp|megapixels?|mah|inch|inches|\"|hours?|hrs?|h|hz|"
    r"mm|cm|w|wh|cores?|gen|pages?|years?|%|-inch)\b)"
)


def _amount(number: str, thousands: str | None) -> float:
    value = float(number.replace(",", ""))
    return value * 1000 if thousands else value


@dataclass
class Words:
    """What a phrase means, before it meets the explicit tool fields."""

    groups: list[tuple[str, ...]] = field(default_factory=list)
    """Each group is one word (or phrase) of the shopper's, as FTS5 strings any of which
    matches; a product matching every group matches every word."""
    lines: list[tuple[str, ...]] = field(default_factory=list)
    """The groups of product lines named (``Intent.line``): every product found has one."""
    plain: list[str] = field(default_factory=list)
    """The shopper's words searched as written (no phrase of the table took them): the
    words a spelling correction may change."""
    category: str | None = None
    forms: tuple[str, ...] = ()
    boosts: dict[str, float] = field(default_factory=dict)
    sort: str | None = None
    min_price: float | None = None
    max_price: float | None = None
    bounds: dict[str, float] = field(default_factory=dict)
    on_sale: bool = False
    leanings: list[tuple[str, ...]] = field(default_factory=list)
    """The groups of uses whose every boost has an order ("travel": lightest first)."""
    audience: list[tuple[str, ...]] = field(default_factory=list)
    """The groups of whom the product is for (``Intent.audience``: "my kid")."""
    spend: bool = False
    """The price is no limit (``Intent.spend``): no lean to the cheaper."""
    meant: str | None = None
    """The kind a use means when the words name none (``Intent.meant``)."""
    uses: list[str] = field(default_factory=list)
    """The uses named (``Intent.use``), in the order said."""
    shown: int | None = None
    """How many products the shopper asked to see ("show me 2 laptops", "top five phones")."""
    excluded: list[tuple[str, ...]] = field(default_factory=list)
    """The lines the shopper said they do not want ("anything but a Chromebook", "not
    Android"): each its terms, none of which a product found has."""
    unwanted: list[str] = field(default_factory=list)
    """The other words the shopper said they do not want ("not Apple or Samsung"), never
    searched for: a brand of the store's is left out (the plan knows its brands)."""
    unwanted_ids: list[str] = field(default_factory=list)
    """The products of the models said not wanted, by id (:func:`cut_models`): the
    engine's to fill."""
    unwanted_named: list[str] = field(default_factory=list)
    """Those models as the catalog's names read them ("Galaxy A15")."""
    unwanted_genres: list[tuple[str, ...]] = field(default_factory=list)
    """The genres the shopper said they do not want ("a novel, not fantasy"): each its
    terms, none of which a book found has where a genre is written (specs, tags)."""
    refused: list[str] = field(default_factory=list)
    """The orders said not wanted ("not the cheapest one": ``price``), in the order said:
    no order, but the product each would put first is not wanted (the engine's to find)."""

    @property
    def limits(self) -> dict[str, float]:
        """Every amount the words put a limit on, by tool field: the spec bounds and the
        price (``{"minRamGb": 16, "maxPrice": 1000}``)."""
        prices = {"minPrice": self.min_price, "maxPrice": self.max_price}
        return {**self.bounds, **{k: v for k, v in prices.items() if v is not None}}


def _take(text: str, pattern: re.Pattern[str], use: Callable[[re.Match[str]], bool | None]) -> str:
    """Apply ``use`` to every match of ``pattern`` and blank the matched words out, unless
    ``use`` says False: then the words stay."""

    def replace(match: re.Match[str]) -> str:
        if use(match) is False:
            return match.group()  # not the amount it looked like: left to be read as words
        return " "

    return pattern.sub(replace, text)


_ONES_SAID: Final = """
one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen
sixteen seventeen eighteen nineteen
"""
_ONES: Final = tuple(_ONES_SAID.split())
_TENS: Final = tuple(re.findall(r"\w+", "twenty thirty forty fifty sixty seventy eighty ninety"))
_COUNTS: Final = {
    "a": 1,
    "an": 1,
    **{word: n for n, word in enumerate(_ONES, start=1)},
    **{word: 10 * n for n, word in enumerate(_TENS, start=2)},
}
_COUNT = rf"(?:{'|'.join(_TENS)})(?:[\s-](?:{'|'.join(_ONES[:9])}))?|{'|'.join(_COUNTS)}"
_SAID_AMOUNT = re.compile(
    rf"\b(?P<count>{_COUNT}|\d+(?:\.\d+)?(?=\s+(?:thousand|grand)))\s+(?P<scale>hundred|thousand|grand)\b"
)
_SCALES: Final = {"hundred": 100, "thousand": 1000, "grand": 1000}
_PRICE_BEFORE = re.compile(
    rf"(?:{one_of(AT_MOST)}|{one_of(AT_LEAST)}|{one_of(AROUND)}|\bbetween|\band|\bto)"
    r"\s*(?:of\s+)?$"
)


def _in_digits(text: str) -> str:
    """``text`` with a price said in words written in digits ("under four hundred dollars",
    "two grand", "2 grand"): only where it is plainly a price, after a limit's word, before a
    currency's or in grands, so that "One Hundred Years of Solitude" stays a title."""

    def digits(m: re.Match[str]) -> str:
        before, after = text[: m.start()], text[m.end() :]
        priced = m["scale"] == "grand" or re.match(rf"{_MONEY_WORD}", after)
        if not (priced or _PRICE_BEFORE.search(before)):
            return m[0]
        if m["count"][0].isdigit():
            count = float(m["count"])  # "2 grand", "1.5 thousand"
        else:
            count = sum(_COUNTS[part] for part in re.split(r"[\s-]", m["count"]))
        value = count * _SCALES[m["scale"]]
        amount = str(int(value)) if float(value).is_integer() else str(value)
        return f"{amount} dollars" if m["scale"] == "grand" else amount  # a grand is money

    return _SAID_AMOUNT.sub(digits, text)


def _spelled(n: int) -> str:
    """``n`` (below a million) as a title writes it in words: "one hundred", "twenty
    thousand"; a year of the 1100s to the 1900s as it is said ("nineteen eighty four")."""
    if 1100 <= n < 2000 and n % 100 >= 10:
        return f"{_spelled(n // 100)} {_spelled(n % 100)}"
    if n < 20:
        return _ONES[n - 1] if n else "zero"
    if n < 100:
        return _TENS[n // 10 - 2] + (f" {_ONES[n % 10 - 1]}" if n % 10 else "")
    if n < 1000:
        return f"{_ONES[n // 100 - 1]} hundred" + (f" {_spelled(n % 100)}" if n % 100 else "")
    rest = f" {_spelled(n % 1000)}" if n % 1000 else ""
    return f"{_spelled(n // 1000)} thousand{rest}"


_WHOLE_NUMBER = re.compile(r"(?<![\w.,$€£¥])(?:\d{1,3}(?:,\d{3})?|\d{4,6})(?![\w.,%])")


def numbers_in_words(text: str) -> tuple[str, list[str]]:
    """``text`` with each whole number below a million written in words ("1984", "20,000"),
    the other way from :func:`_in_digits`, and those words."""
    numbers: list[str] = []

    def spelled(said: re.Match[str]) -> str:
        numbers.append(_spelled(int(said.group().replace(",", ""))))
        return numbers[-1]

    return _WHOLE_NUMBER.sub(spelled, text), numbers


_NEGATED_LIMIT: Final = re.compile(
    r"(?P<no>\bnothing|(?:\bnot|\bnever|\bcannot|\b(?!(?:did|was|were|had)n)\w+n['\u2019]t|"
    r"\b(?:dont|doesnt|isnt|arent|cant|wont|shouldnt|wouldnt))"
    # the words a negation reaches a limit through: "doesn't cost more than", "I don't want
    # to spend over", "can't afford more than", never a subject ("isn't there one under")
    r"(?:\s+(?:want|wanna|need|to|spend|spending|pay|paying|afford|cost|costs|costing|go|"
    r"goes|going|be|being|weigh|weighs|weighing|looking|willing|plan|planning|anything|"
    r"something|it|much|really|way|too|show|see|like|me|the|ones?|ha(?:ve|s)(?!\s+to\b))){0,5})"
    r"\s+(?=(?:over|above|more|under|below|less|exceeding|higher|heavier|bigger|larger|"
    r"cheaper|lighter|smaller|greater)\b)",
    re.IGNORECASE,
)
_NOTHING_ASKED: Final = re.compile(
    r"\b(?:there|there's|theres|you|have|got|sell|carry|stock)\s+(?:\w+\s+)?$", re.IGNORECASE
)
"""What a question "is there nothing under $300?" has before "nothing"."""
_NOT_SAID_BARE: Final = frozenset(
    {"dont", "doesnt", "isnt", "arent", "cant", "wont", "shouldnt", "wouldnt"}
)
"""Negations written without their apostrophe ("dont")."""
_CLAUSE_OPENS: Final = re.compile(r"(?:^|[.!?;,:]\s*|\b(?:and|but|so)\s+)$", re.IGNORECASE)


def negations_as_not(text: str) -> str:
    """``text`` with a limit said with "nothing" or a negation ("nothing over $500", "isn't
    over $1,000", "I don't want to spend more than $700") said with "not", which the limits'
    phrases read ("not over" is at most, "not under" at least): the word "nothing" stays
    free to be a brand (a store may sell Nothing phones), and a question "is there nothing
    under $300?" asks for what is under it."""

    def said_not(m: re.Match[str]) -> str:
        end = re.search(r"[.!?]|$", text[m.end() :])
        if end is None or end[0] != "?":
            return "not "
        before = text[: m.start()]
        if m["no"].casefold() == "nothing" and _NOTHING_ASKED.search(before):
            return m[0]  # "is there nothing under $300?" asks for what is under it
        first = m["no"].split()[0].casefold().replace("\u2019", "'")
        if (first.endswith("n't") or first in _NOT_SAID_BARE) and _CLAUSE_OPENS.search(before):
            return m[0]  # "isn't anything cheaper than $300?", "doesn't it cost over $500?"
        return "not "

    return _NEGATED_LIMIT.sub(said_not, text)


_WAY_AFTER: Final = (
    r"(?P<after>\+|or\s+(?:more|higher|above|over|up|less|lower|under|below|cheaper)\b|"
    r"and\s+(?:up|above|over)\b|max(?:imum)?\b|tops\b|at\s+(?:the\s+)?most\b)"
)
"""The words after an amount that give it its direction ("$500 or more", "500 tops")."""
_BUDGET_BEFORE: Final = frozenset(
    {"a", "an", "for", "at", "around", "about", "budget", "price", "priced", "spend",
     "spending", "pay", "paying", "is", "are", "cost", "costs", "costing", "of", "to",
     "something", "anything", "range", "maybe", "roughly", "under", "max", "my", "our"}
)  # fmt: skip
"""Words a budget said with no currency may follow ("a laptop for 500 or less")."""
_BUDGET_AFTER: Final = frozenset({"and", "but", "or", "for", "please", "with", "budget", "if"})
"""Words a budget said with no currency may be followed by ("500 or less, please")."""
_STORAGE_SIZES: Final = frozenset({32, 64, 128, 256, 512, 1024, 2048})


_RANGE_BEFORE: Final = frozenset({"for", "budget", "price", "priced", "from", "around", "about"})
"""Words a budget's range with no currency may follow, besides a kind ("laptop 600-900")."""
_NOT_A_BUDGET_AFTER: Final = re.compile(
    r"\s*(?:years?|yrs?|ans|años|jahren?|jahre|go|gb|tb|hours?|horas|heures|stunden|pages?|"
    r"páginas|seiten|mah|inch(?:es)?|pulgadas|pouces|zoll|mp)\b",
    re.IGNORECASE,
)


def _a_range(text: str, m: re.Match[str], *, after_kind: bool = True) -> bool:
    """Whether a range with no currency ("600-900", "300 to 600") is a budget's: both
    amounts 50 or more, the first below the second, no years ("2019-2023") and no unit or
    age after it ("8 to 12 años"), and, unless ``after_kind`` is False ("between"), right
    after the start, a mark, a kind or a word such as "for"; with nothing after it but the
    end, a mark or a word such as "please"."""
    low, high = _amount(m[1], m[2]), _amount(m[3], m[4])
    if not 50 <= low < high or (1800 <= low <= 2100 and 1800 <= high <= 2100):
        return False
    if low in _STORAGE_SIZES and high in _STORAGE_SIZES:
        return False  # "phone 128-256" is storage
    if _NOT_A_BUDGET_AFTER.match(text, m.end()):
        return False
    return _where_a_budget_is(text, m, _RANGE_BEFORE if after_kind else None)


def _a_budget(text: str, m: re.Match[str], least: float = 50) -> bool:
    """Whether an amount with no currency and a direction after it ("1000+", "500 or
    less") is a budget: at least 50 and no size of storage, after the start, a mark, a
    kind or a word such as "for", and followed by the end, a mark or a word such as
    "please"; not a model's, a version's or a count's number ("iPhone 14 and up", "RTX 4060
    or higher", "ages 12 and up", "400 or more pages", "256 or more")."""
    amount = _amount(m[1], m[2])
    if amount < least or amount in _STORAGE_SIZES:
        return False
    return _where_a_budget_is(text, m, _BUDGET_BEFORE)


def _where_a_budget_is(text: str, m: re.Match[str], before: frozenset[str] | None) -> bool:
    """Whether the amount or range ``m`` stands where a budget does: after the start, a
    mark, a kind or a word of ``before`` (any word when None), never after a product line
    ("iPhone 15 to 16" names models); and before the end, a mark or a word such as
    "please"."""
    if before is not None:
        last = re.findall(r"[^\W\d_][\w'-]*|[^\w\s]", text[: m.start()])[-1:]
        word = last[0].casefold() if last else ""
        if word[:1].isalpha() and (
            (word not in before and not kinds_in(word)) or _line_named(word)
        ):
            return False
    after = re.match(r"\s*([^\W\d_][\w'-]*)", text[m.end() :])
    return after is None or after[1].casefold() in _BUDGET_AFTER


_NOT_AT_MOST: Final = tuple(p for p in AT_LEAST if p.split()[0] in ("not", "no"))
"""The at-least phrases an at-most phrase ends ("not under", "no less than")."""


@functools.cache
def _prices_said() -> tuple[re.Pattern[str], ...]:
    """The prices :func:`_numbers` reads, in the order it reads them (compiled once, on
    the first search, not at a cold start's import: a search parses its words several
    times): a range, a limit said with its words, an amount alone."""
    return tuple(re.compile(pattern) for pattern in _PRICE_PATTERNS)


_PRICE_PATTERNS: Final = (
    rf"\bbetween\s*{_CUR}?{_AMOUNT}{_SIGN}?\s*(?:and|&|-|to|und|et|y)\s*{_CUR}?{_AMOUNT}"
    rf"{_NOT_UNIT}(?P<sign>{_MONEY_WORD})?",
    rf"{_CUR}{_AMOUNT}\s*(?:-|to)\s*{_CUR}?{_AMOUNT}",
    rf"\b{_AMOUNT}{_SIGN}\s*(?:-|to)\s*{_CUR}?{_AMOUNT}{_SIGN}?",
    # "a laptop 600-900", "phone 300 to 600", "from 600 up to 900": a budget's range
    rf"(?:\bfrom\s+)?\b{_AMOUNT}\s*(?:-|\u2013|to|up\s+to)\s*{_AMOUNT}{_NOT_UNIT}"
    rf"(?P<sign>{_MONEY_WORD})?",
    rf"\bfrom\s*{_CUR}{_AMOUNT}{_NOT_UNIT}",
    # "not under $500" before "under $500", and "no less than" before "less than"
    rf"\b{one_of(_NOT_AT_MOST)}\s*{_CUR}?{_AMOUNT}{_NOT_UNIT}{_MONEY_WORD}?",
    rf"\b{one_of(AT_MOST)}\s*(?:a\s+)?{_CUR}?{_AMOUNT}{_NOT_UNIT}{_MONEY_WORD}?",
    rf"\b{one_of(AT_LEAST)}\s*{_CUR}?{_AMOUNT}{_NOT_UNIT}{_MONEY_WORD}?",
    rf"(?:{_CUR}|\b){_AMOUNT}{_NOT_UNIT}(?P<sign>{_MONEY_WORD})?\s*{_WAY_AFTER}",
    rf"(?:\b{one_of(AROUND)}\s*|~\s*){_CUR}?{_AMOUNT}{_NOT_UNIT}{_MONEY_WORD}?",
    rf"{_CUR}{_AMOUNT}{_NOT_UNIT}",
    rf"\b{_AMOUNT}{_MONEY_WORD}",
)


def _numbers(text: str, words: Words) -> str:
    """``text`` without the amounts it states, each read into ``words``: the first said of
    each stands (a follow-up's words come before the earlier messages')."""
    text = negations_as_not(_in_digits(text))

    def price_range(m: re.Match[str]) -> None:
        low, high = _amount(m[1], m[2]), _amount(m[3], m[4])
        if words.min_price is None and words.max_price is None:
            words.min_price, words.max_price = min(low, high), max(low, high)

    def between(m: re.Match[str]) -> bool:
        # "between $500 and $800"; with no currency, only a budget's: not years or ages
        if not (re.search(r"[$£€]", m[0]) or m["sign"] or _a_range(text, m, after_kind=False)):
            return False
        price_range(m)
        return True

    def bare_range(m: re.Match[str]) -> bool:
        if not (m["sign"] or _a_range(text, m)):
            return False  # "iPhone 15 to 16", "ages 8 to 12", "2019-2023", "3060-4060"
        price_range(m)
        return True

    def at_most(m: re.Match[str]) -> None:
        if words.max_price is None:
            words.max_price = _amount(m[1], m[2])

    def at_most_said(m: re.Match[str]) -> bool:
        # not "Pro Max 256", a model's name and its storage
        pro_max = re.search(r"\bpro\s+$", text[: m.start()], re.IGNORECASE)
        if pro_max and not re.search(r"[$£€]", m[0]) and _amount(m[1], m[2]) in _STORAGE_SIZES:
            return False
        at_most(m)
        return True

    def at_least(m: re.Match[str]) -> None:
        if words.min_price is None:
            words.min_price = _amount(m[1], m[2])

    def either_way(m: re.Match[str]) -> bool:
        # "$500 or more", "1000+", "500 and up" at least; "500 or less", "500 tops" at most
        if not (m[0][0] in "$£€" or m["sign"] or _a_budget(text, m)):
            return False  # "iPhone 14 and up", "RTX 4060 or higher", "ages 12 and up"
        least = re.match(r"\+|or\s+(?:more|higher|above|over|up)|and", m["after"])
        (at_least if least else at_most)(m)
        return True

    def around(m: re.Match[str]) -> None:
        if words.max_price is None:
            words.max_price = round(_amount(m[1], m[2]) * 1.15, 2)

    uses: tuple[Callable[[re.Match[str]], bool | None], ...] = (
        between, price_range, price_range, bare_range, at_least, at_least, at_most_said,
        at_least, either_way, around, at_most, at_most,
    )  # fmt: skip
    # The amounts the specs' phrases put on them first ("16GB RAM", "under 1300 grams"):
    # what is left with a number and no unit may be a price.
    text = take_amounts(text, words.bounds)
    for pattern, use in zip(_prices_said(), uses, strict=True):
        text = _take(text, pattern, use)
    return re.sub(r"(?<=\d)-(?=\d)", " ", text)  # no range: "Pixel 8-9" is its numbers


_HOW_MANY: Final = re.compile(
    r"\b(?:show(?:\s+me|\s+us)?|give\s+me|list|recommend|suggest|top|find\s+me|pick)"
    rf"\s+(?:the\s+)?(?:[1-9]|10|{'|'.join(_ONES[:10])})(?!\d)"
    r"(?=(?P<after>(?:\s+[^\W\d_][\w-]*){1,3}))",
    re.IGNORECASE,
)
"""How many products the shopper wants to see ("show me 2 laptops", "top 5 phones", "list
three cheap phones"): no word to search for, where it is ten at most ("show me 14
laptops" may be their screen), a kind's word follows within three words, and it is no
model's number ("show me the 16 Pro") nor a spec's or a rating's ("8 core", "2 SIM", "the
best 2 in 1", "5 star books"); "16GB" is an amount, taken before."""
_NOT_COUNTED: Final = frozenset(
    re.findall(r"\w+", "in core cores sim sims gen gb tb inch mp hz k series star stars")
)


def _counted(after: str) -> bool:
    """Whether the words ``after`` a number make it a count of products."""
    said = [fold(w) for w in _TOKEN.findall(after.casefold())]
    if not said or said[0] in _NOT_COUNTED or said[0] in MODEL_WORDS:
        return False
    return any(names_a_kind(w) for w in said)


def _without_counts(text: str, words: Words) -> str:
    """``text`` with the number of products asked for taken out (``words.shown``), the
    verb kept."""

    def verb(m: re.Match[str]) -> str:
        if not _counted(m["after"]):
            return m[0]
        said, number = m[0].rsplit(None, 1)
        if words.shown is None:
            words.shown = int(number) if number.isdigit() else _ONES.index(number.casefold()) + 1
        return said

    return _HOW_MANY.sub(verb, text)


# ----------------------------------------------------------------- orders in words
# An order's words name a degree ("the lightest", "more storage", "the best camera"); a
# plain wish ("a good camera", "a big screen", "battery life") is a use, which ranks
# (:data:`~shared.search.intents.INTENTS`) but does not sort.
_DEGREE = re.compile(r"\b(?:most|least|more|less|fewest|best|better|worst|top|\w+est|\w+er)\b")
_NOT_THE: Final = re.compile(
    r"(?:\bnot(?:\s+(?:interested\s+in|looking\s+for|necessarily))?|\bnever|\bwithout|\bskip|"
    r"\bexcept(?:\s+for)?|\bother\s+than|\b(?:anything|all)\s+but|\bavoid|\brather\s+not\s+have|"
    r"\b(?:do\s*n[o'\u2019]?t|doesn['\u2019]?t|does\s+not|won['\u2019]?t|wouldn['\u2019]?t|will\s+not|"
    r"would\s+not)\s+(?:want|need|require|buy|show\s+me|have\s+to\s+be))"
    r"\s+(?:the\s+(?:very\s+|absolute\s+)?)?(?:(?:one|ones)\s+(?:with|that\s+ha(?:s|ve))\s+"
    r"(?:the\s+)?)?$",
    re.IGNORECASE,
)
"""Words before an order that say it is not wanted: "not the most expensive", "anything
but the cheapest", "I don't want the heaviest", "not the one with the most storage"."""
_ONLY_THE: Final = re.compile(
    r"(?:\bnothing|\bnever\s+anything|n['\u2019o]?t\s+(?:want|need)\s+anything|\bnot\s+anything)"
    r"\s+(?:but|except(?:\s+for)?|other\s+than)\s+(?:the\s+)?$",
    re.IGNORECASE,
)
"""Words before an order that say it alone is wanted: "nothing but the cheapest", "I don't
want anything but the lightest"."""
_OR_THE: Final = re.compile(r"^\s*(?:,\s*)?(?:or|nor|and)\s+(?:the\s+)?$", re.IGNORECASE)
"""The words between two orders refused together: "not the cheapest or the heaviest"."""


@functools.cache
def _orders() -> tuple[tuple[str, re.Pattern[str]], ...]:
    """Each ``sortBy`` with the words that ask for it; a reverse is read last, so that its
    words never take a phrase from an order read before ("smallest storage" is storage's)."""
    said = [sort for _, sort in sorts() if sort.said]
    reverses = {s.reverse.name for s in said if s.reverse is not None}
    ordered = [s for s in said if s.name not in reverses] + [s for s in said if s.name in reverses]
    return tuple((s.name, re.compile(s.said, re.IGNORECASE)) for s in ordered)


@functools.cache
def _kind_words() -> frozenset[str]:
    """The one-word names of a kind of product ("phone", "laptop"), folded."""
    return frozenset(
        fold(p) for i in INTENTS if i.category and not i.terms for p in i.phrases if " " not in p
    )


MIN_JOINED: Final = 6
"""The fewest letters of a name written in two words that is read as one ("zen book")."""


def names_written_apart(text: str, is_name: Callable[[str], bool]) -> dict[str, str]:
    """``{"mac book": "macbook"}``: two words of ``text`` written apart whose one word is a
    product line the phrase table reads ("mac book", "chrome book"), or a word ``is_name``
    knows (the catalog's brands and names) said as a model's, before a model number, a
    kind or a word its name goes on with ("zen book 14", "one plus 12", "think pad e14",
    "one plus phone", "idea pad slim 3"), or a kind
    ("lap top", but not "work station" or "note book", whose first word the parser reads):
    "book" is then no book asked, where "a zen book about meditation" is one and "one plus
    a case" no brand. Each word two letters or more, no digit, six letters or more
    together, and no two words the phrase table reads together ("chrome os")."""
    spaced = " ".join(text.split())
    found: dict[str, str] = {}
    pairs = r"(?<![^\W_])(?=([^\W\d_]{2,}) ([^\W\d_]{2,})(?![^\W_])(?: ([^\W_]+))?)"
    for m in re.finditer(pairs, spaced):
        one, pair = f"{m[1]}{m[2]}".casefold(), f"{m[1]} {m[2]}".casefold()
        if len(one) < MIN_JOINED or pair in found or (fold(m[1]), fold(m[2])) in _PHRASES:
            continue  # "chrome os" is read as it is written
        # Before a model number, a kind, or a word the name goes on with ("idea pad slim 3")
        modelled = bool(m[3]) and (
            any(c.isdigit() for c in m[3])
            or names_a_kind(m[3])
            or (m[3].casefold() not in STOP_WORDS and is_name(f"{one} {m[3]}"))
        )
        # "lap top" is a kind; "work station", "note book" are the parser's words already
        kind = names_a_kind(one) and fold(m[1].casefold()) not in parser_words()
        if _line_named(one) is not None or kind or (modelled and is_name(one)):
            found[pair] = one
    return found


def models_written_apart(text: str, is_name: Callable[[str], bool]) -> dict[str, str]:
    """``{"s 24": "s24", "16pro": "16 pro"}``: a model's token written apart from its
    number after a word of its name ("galaxy s 24", "galaxy book 4"; not "a book 4 kids")
    or its number run into a word of the name ("iphone 16pro"), where the catalog's names
    write it the other way (``is_name`` of the words as the name has them)."""
    found: dict[str, str] = {}
    spaced = " ".join(text.split())
    token_then_number = r"(?<![^\W_])(?=([^\W_]+) ([^\W\d_]{1,8}) (\d{1,4})(?![^\W_]))"
    for m in re.finditer(token_then_number, spaced):
        # After a word of the name: "galaxy book 4", not "a book 4 kids"
        glued = f"{m[2]}{m[3]}".casefold()
        if m[1].casefold() not in STOP_WORDS and is_name(f"{m[1]} {glued}".casefold()):
            found[f"{m[2]} {m[3]}".casefold()] = glued
    for m in re.finditer(r"(?<![^\W_])(\d{1,4})([^\W\d_]{2,})(?![^\W_])", spaced):
        apart = f"{m[1]} {m[2]}".casefold()
        if m[2].casefold() in MODEL_WORDS and not is_name(m[0].casefold()) and is_name(apart):
            found[m[0].casefold()] = apart
    return found


def names_a_kind(word: str) -> bool:
    """Whether ``word`` alone names a kind of product ("Phone", "laptops", "Book")."""
    return fold(word.casefold()) in _kind_words()


_ORDER_VERB: Final = (
    r"(?:sort(?:ed)?|order(?:ed)?|arranged?|rank(?:ed)?|list(?:ed)?|show|top|"
    r"(?<![^\W\d_] )(?<![^\W\d_])display)"
)
"""A verb that orders what follows; "display" only where it starts what is said ("display
laptops by price", not "a great display by Samsung")."""
_SORTED_BY: Final = re.compile(
    rf"\b{_ORDER_VERB}\s+(?P<object>(?:(?!{_ORDER_VERB}\b)[^\W\d_]+\s+){{0,4}}?)"
    r"by\s+(?:the\s+|their\s+|its\s+)?"
    r"(?P<what>[^\W\d_]+(?:\s+(?:size|life|capacity|quality|tag))?)(?P<way>(?:[\s,:(]+(?:from\s+)?(?P<first>[^\W\d_]+)"
    r"(?:\s+(?:to\s+[^\W\d_]+|first))?)?)|"
    r"\b(?P<of>price|prices|weight|ram|memory|storage|battery|screen|camera)\s*[:,]?\s*"
    r"(?:from\s+)?(?P<from>low|high|small|big|large|light|heavy)(?:est)?\s+to\s+"
    r"(?:low|high|small|big|large|light|heavy)(?:est)?\b",
    re.IGNORECASE,
)
"""An order asked by the spec's name: "sorted by price", "order by weight, heaviest first",
"ranked by battery", "list phones by price", "show me laptops by cost", "price: high to
low"."""
_PRICE_TALK: Final = frozenset({"price", "prices", "cost", "costs"})
_BIGGEST: Final = frozenset(
    re.findall(
        r"\w+",
        "high highest big bigger biggest large larger largest most heavy heavier heaviest "
        "desc descending expensive dearest priciest",
    )
)
_SMALLEST: Final = frozenset(
    re.findall(
        r"\w+",
        "low lowest small smaller smallest least light lighter lightest asc ascending "
        "cheap cheaper cheapest",
    )
)


def _order_named(what: str) -> Sort | None:
    """The order of the spec ``what`` names ("price", "battery life"), else None."""
    said = set(_TOKEN.findall(what.casefold()))
    orders = [(_PRICE_TALK, PRICE_SORT)]
    orders += [(frozenset(spec.talk[:2]), spec.sort) for spec in SPECS if spec.sort]
    return next((sort for talk, sort in orders if said & talk), None)


def _sorted_by(text: str, words: Words, explicit: dict[str, Any]) -> str:
    """``text`` without an order asked by its spec's name (:data:`_SORTED_BY`), which is
    the sort unless one is given: that spec's order, the way the words after it say
    ("highest first", "low to high"), else its usual way (the cheapest, the lightest, the
    most RAM first)."""
    # The first that names a spec: "show me laptops by HP sorted by price" is by price.
    at = 0
    while (said := _SORTED_BY.search(text, at)) is not None:
        if order := _order_named(said["of"] or said["what"]):
            break
        at = said.start() + 1
    if said is None or order is None:
        return text
    way = (said["first"] or said["from"] or "").casefold()
    biggest = True if way in _BIGGEST else False if way in _SMALLEST else None
    chosen = next((s for s in order.both() if s.biggest_first == biggest), order)
    if words.sort is None and not explicit.get("sortBy"):
        words.sort = chosen.name
    # Only the words of the order go: a way word that was none ("sorted by price for
    # school") stays, and so does what it orders ("list phones by price" is phones).
    end = said.end() if biggest is not None or said["of"] or way == "first" else said.end("what")
    return f"{text[: said.start()]} {said['object'] or ''} {text[end:]}"


def _order(text: str, words: Words, explicit: dict[str, Any]) -> str:
    """``text`` without the words of an order; the order said first becomes the sort
    unless the tool's own ``sortBy`` is given (its words go all the same)."""
    said: list[tuple[int, str]] = []
    refused: list[re.Match[str]] = []
    refusals: list[tuple[int, str]] = []
    ends: list[int] = []
    for name, pattern in _orders():

        def use(match: re.Match[str], name: str = name) -> str:
            if not _DEGREE.search(match[0]):
                return match[0]
            before = match.string[: match.start()]
            no = None if _ONLY_THE.search(before) else _NOT_THE.search(before)
            if no:
                # "not the most expensive one" asks for no order, and for none of its words
                refused.append(no)
                ends.append(match.end())
                refusals.append((match.start(), name))
            else:
                said.append((match.start(), name))
            # "the best phone camera": the order's words go, the kind named among them
            # stays; as long as the words were, so that where each order was said holds.
            kinds = " ".join(w for w in match[0].split() if fold(w) in _kind_words())
            return f" {kinds} ".ljust(len(match[0]))

        text = pattern.sub(use, text)
    for no in refused:
        text = f"{text[: no.start()]}{' ' * len(no[0])}{text[no.end() :]}"
    # "not the cheapest or the heaviest": the order after one refused is refused with it
    with_one = [at for at, _ in said if any(_OR_THE.match(text[e:at]) for e in ends if e <= at)]
    refusals += [(at, n) for at, n in said if at in with_one]
    said = [(at, n) for at, n in said if at not in with_one]
    for _, name in sorted(refusals):
        if name not in words.refused:
            words.refused.append(name)
    if said and words.sort is None and not explicit.get("sortBy"):
        words.sort = min(said)[1]
    return text


# ----------------------------------------------------------------- words and phrases


def _clean(token: str) -> str:
    token = token.removesuffix("'s")
    return split_glued(token)[:MAX_TERM_CHARS]


def _forms_after(intent: Intent, words: Words, explicit: dict[str, Any]) -> tuple[str, ...] | None:
    """The form factors asked once ``intent`` is applied, or None when they conflict."""
    given = explicit.get(FORM_FACTOR.key)
    if given:
        return words.forms if given in intent.forms else None
    if not words.forms:
        return intent.forms
    both = tuple(f for f in words.forms if f in intent.forms)
    return both or None


def _apply(intent: Intent, raw: list[str], words: Words, explicit: dict[str, Any]) -> None:
    category = explicit.get("category") or words.category
    forms = _forms_after(intent, words, explicit) if intent.forms else words.forms
    if (intent.category and category and category != intent.category) or forms is None:
        # "laptop" while asking for phones: a word to search for, not a filter.
        words.groups.append((" ".join(_clean(t) for t in raw),))
        return
    if intent.category and not category:
        words.category = intent.category
    words.forms = forms
    sort = explicit.get("sortBy") or words.sort
    if intent.terms and _said_by_order(intent, words, sort):
        pass  # "a small display, the smallest": the order says what the words would find
    elif intent.terms and not any(set(intent.terms) <= set(group) for group in words.groups):
        # The intent's terms stand for the phrase ("cameras" -> camera, telephoto...);
        # a one-word phrase of the shopper's is searched too, as they wrote it. A second
        # phrase of the same intent ("lightweight ... for travel") adds nothing.
        own = (_clean(raw[0]),) if len(raw) == 1 else ()
        words.groups.append(tuple(dict.fromkeys((*own, *intent.terms))))
        if intent.line:
            words.lines.append(words.groups[-1])
        if _leans(intent):
            words.leanings.append(words.groups[-1])
        if intent.audience:
            words.audience.append(words.groups[-1])
    words.spend = words.spend or intent.spend
    for name, weight in intent.boosts:
        words.boosts[name] = max(weight, words.boosts.get(name, 0.0))
    if intent.sort and not explicit.get("sortBy") and words.sort is None:
        words.sort = intent.sort
    words.on_sale = words.on_sale or intent.on_sale
    words.meant = words.meant or intent.meant
    if intent.use and intent.use not in words.uses and not _talked(raw, words, sort):
        words.uses.append(intent.use)  # "a 300 MP camera" states a limit, not a use


def _read(raw: list[str]) -> Iterator[tuple[Intent | None, list[str]]]:
    """The words in order, each phrase of the table (the longest at each place) with its
    intent, each other word alone with None."""
    folded = [fold(t) for t in raw]
    i = 0
    while i < len(raw):
        for size in range(min(_LONGEST, len(raw) - i), 0, -1):
            if (intent := _PHRASES.get(tuple(folded[i : i + size]))) is not None:
                yield intent, raw[i : i + size]
                i += size
                break
        else:
            yield None, raw[i : i + 1]
            i += 1


def kinds_in(text: str) -> list[tuple[str, tuple[str, ...]]]:
    """Each kind of product ``text`` names, in order, as the search reads it: its category
    and the ``formFactor`` values it takes in ("laptops" -> COMPUTERS, laptop and 2-in-1;
    "a mystery" -> BOOKS). Every kind a message names, where :func:`parse` keeps one."""
    raw = _TOKEN.findall(_normalized(text))
    return [(i.category, i.forms) for i, _ in _read(raw) if i is not None and i.category]


def _spec_talk(words: Words, sort: str | None) -> frozenset[str]:
    """The words about each spec an order (``sort``) or a limit was read on."""
    read = [sort, *words.bounds]
    return frozenset().union(*(_talk().get(name or "", frozenset()) for name in read))


def _talked(raw: list[str], words: Words, sort: str | None) -> bool:
    """Whether every word of ``raw`` is about a spec an order or a limit was read on."""
    said = _spec_talk(words, sort)
    return all(fold(word) in said for word in raw)


def _said_by_order(intent: Intent, words: Words, sort: str | None) -> bool:
    """Whether every boost of ``intent`` leans on a spec that an order or a limit already
    read is on ("a small display, the smallest", "a small laptop with a screen under 14
    inches"): its words then say that, and are no words a description must have."""
    read = {BOUNDS[name][0] for name in words.bounds if name in BOUNDS}
    if sort in SORTS:
        read.add(SORTS[sort][0])
    orders = [BOOST_ORDER.get(name) for name, _ in intent.boosts]
    return bool(orders) and all(o is not None and o[0] in read for o in orders)


def _leans(intent: Intent) -> bool:
    """Whether ``intent`` is a use about one spec with an order ("for travel": weight), not
    a blend of several ("for school": price, weight and battery)."""
    return len(intent.boosts) == 1 and bool(BOOST_ORDER.get(intent.boosts[0][0]))


# "by George Orwell", "by J.R.R. Tolkien": an author, whom the catalog may name with
# initials; the surname is the match, the given names only narrow.
_AUTHOR = re.compile(r"\bby\s+((?:[A-Z][\w'-]*\.\s*|[A-Z][a-z'-]*\s+){1,3})[A-Z][a-z'-]+\b")


def _given_names(keywords: str) -> set[str]:
    """The given names of the authors ``keywords`` names with a capital after "by"."""
    return {fold(t) for m in _AUTHOR.finditer(keywords) for t in _TOKEN.findall(m[1].casefold())}


_LIKES = r"(?:a\s+(?:big\s+)?fan\s+of|interested\s+in|into|keen\s+on)"
"""What someone is not, said of what they like ("not a fan of", "into")."""
_CUE = (
    r"(?:(?:but|and)\s+)?"
    rf"(?:(?:not|(?:is|are|was|were)n't)\s+{_LIKES}|no\s+more(?!\s+than\b)|"
    r"not|no|non|without|except(?:\s+for)?|excluding|neither|other\s+than|anything\s+but|"
    r"nothing(?=\s+(?:made\s+)?(?:by|from)\b)|"
    r"apart\s+from|avoid(?:ing)?|(?:is|are|was|were)n'?t|"
    r"(?:don'?t|doesn'?t|do\s+not|does\s+not)\s+(?:want|need|like|show(?:\s+me)?)|"
    r"(?:i\s+)?(?:hate|dislike|can'?t\s+stand)|"
    r"(?:don'?t|doesn'?t|do\s+not|does\s+not|won'?t)\s+run(?:\s+on)?)"
)
_NAME = r"(?:[^\W\d_]\.\s*){0,3}[^\W\d_][\w'+-]*"
"""A name, after the initials it may have ("J.K. Rowling")."""
_UNWANTED: Final = re.compile(
    rf"\b{_CUE}\s+(?:(?:anything|any\s+products?|stuff)\s+(?=(?:made\s+)?by|from))?"
    rf"(?:(?:(?:made\s+)?by|from)\s+)?(?:(?:a|an|any|the)\s+)?(?P<names>{_NAME}"
    rf"(?:(?:\s*,\s*(?:(?:or|nor|and)\s+)?|\s+(?:or|nor|and)\s+)(?:(?:a|an|the)\s+)?{_NAME})*)"
    r"(?=\s*(?:$|[,.;:!?)]|(?P<next>[^\W\d_][\w'-]*)))",
    re.IGNORECASE,
)
"""A cue ("not", "except", "other than", "neither") and the names it takes ("not Apple or
Samsung", "anything but a Chromebook"), then the end, a mark or one more word."""
_LIST_WORDS: Final = frozenset({"or", "nor", "and", "a", "an", "the"})
_MODEL_NUMBER: Final = re.compile(r"\s*([A-Z][\w'-]*)\s+\d")
"""A word with a capital and a number after the names a cue took: they name a model
("Framework Laptop 16"), not the brand's products ("no Apple phones 5G")."""
_SMALL: Final = ("of", "the", "in", "a", "an", "to", "on")
"""Small words within a name of words with a capital ("The Catcher in the Rye")."""
_MORE_OF_A_NAME: Final = tuple(
    re.compile(
        rf"(?:\s+(?:(?:{'|'.join(_SMALL)})\s+)*[A-Z][^\W\d_]*(?:['-][^\W\d_]+)*){{{n}}}"
        r"(?=\s*(?:$|[,.;:!?)]|(?P<next>[^\W\d_][\w'-]*)))"
    )
    for n in (2, 1)
)
"""One or two more words of a name, each with a capital and no digit, small words between
("not Harry Potter", "except Agatha Christie", "not The Catcher in the Rye"; not a model,
"not the Galaxy A15", which the catalog's index writes in other words), then the end, a
mark or one more word."""
_JOINT: Final = re.compile(r"\s*,\s*(?:(?:or|nor|and)\s+)?|\s+(?:or|nor|and)\s+", re.IGNORECASE)
_AFTER: Final = frozenset(
    {"and", "but", "with", "for", "under", "over", "below", "above", "please", "that",
     "which", "models", "model", "brand", "brands", "ones", "one", "products", "product",
     "devices", "device", "stuff", "at", "no", "nor", "either", "anymore"}
)  # fmt: skip
"""Words that may follow the names a cue took, besides a kind of product ("phones"), or
another cue ("no Apple no Samsung")."""
_NOT_NAMES: Final = frozenset(
    {"only", "just", "necessarily", "really", "very", "so", "too", "sure", "bad", "much",
     "even", "yet", "quite", "exactly", "always", "everything", "anything", "everyone",
     "none", "something", "someone"}
)  # fmt: skip
"""Words after "not" that name nothing unwanted ("not only", "not sure", "not bad")."""
_ASKING: Final = frozenset(
    {"do", "does", "did", "is", "are", "was", "were", "can", "could", "will", "would",
     "should", "shall", "has", "have", "had", "may", "might", "must", "why", "if",
     "whether", "rather", "i'd", "you'd", "course"}
)  # fmt: skip
"""Words a "not" after them is no cue for: a question ("do you not sell Dell?", "is there
not a cheaper one?"), "if not", "why not", "I'd rather not"."""


@dataclass(frozen=True)
class Unwanted:
    """What the shopper said they do not want, at ``start:end`` of the text read."""

    start: int
    end: int
    lines: tuple[Intent, ...]
    """Product lines ("Chromebook"): none of their products is wanted."""
    names: tuple[str, ...]
    """Other names ("Apple"): a brand of the store's, if it is one."""
    line_words: tuple[str, ...] = ()
    """The word each of ``lines`` was said by ("macbook")."""


def unwanted_in(text: str, *, whole_names: bool = True) -> list[Unwanted]:
    """What ``text`` says the shopper does not want: after a cue ("not", "isn't", "not
    made by", "not the"), one name or several in a list (:func:`_listings`), each a product
    line, a word the search gives no meaning to, or words with a capital each ("Harry
    Potter"), then the end, a mark, a kind of product or a word such as "and".
    Nothing a question asks ("do you not sell Dell?"), nothing said wanted elsewhere in the
    text ("an Apple laptop, not an Apple phone"), and no model ("not the Galaxy A15").
    ``whole_names`` False reads a name of one word only: "not Apple Samsung" is two names
    side by side, when the catalog has no "Apple Samsung"."""
    found: list[Unwanted] = []
    words = [fold(t) for t in _TOKEN.findall(text.casefold())]
    at = 0
    while match := _UNWANTED.search(text, at):
        at = match.start("names")  # a cue among the names is one of its own
        if _asking(text, match.start()) or _REPLY.match(text, match.start()):
            continue
        for names, following in _listings(match):
            model = _MODEL_NUMBER.match(text, match.end()) if match["next"] else None
            if model and names == match["names"] and model[1].casefold() not in STOP_WORDS:
                continue  # "not the Framework Laptop 16": a model, not the brand's products
            if following and following not in _AFTER and not kinds_in(following):
                names = _named_on(text, match.start("names"), names) if whole_names else ""
                if not names:
                    continue
            said = [_item_words(item) for item in _JOINT.split(names)]
            if not all(said) or not all(
                all(may_name(t) for t in item if t not in _SMALL)
                and _said_once(item, words)
                and not _an_order(item)
                for item in said
            ):
                # A word with a meaning of its own (an order: "not the lightest"), or a name
                # also wanted elsewhere.
                continue
            lines = [_line_named(item[0]) if len(item) == 1 else None for item in said]
            at = match.start("names") + len(names)
            found.append(
                Unwanted(
                    match.start(),
                    at,
                    tuple(line for line in lines if line is not None),
                    tuple(" ".join(i) for i, line in zip(said, lines, strict=True) if line is None),
                    tuple(i[0] for i, line in zip(said, lines, strict=True) if line is not None),
                )
            )
            break
    return found


def _an_order(item: list[str]) -> bool:
    """Whether the words ``item`` are all an order's ("lightest", "most storage"): an order
    said not wanted is refused (:func:`_order`), no name left out."""
    said = " ".join(item)
    for _, pattern in _orders():
        found = pattern.search(said)
        if found and found[0].strip() == said and _DEGREE.search(found[0]):
            return True
    return False


MODEL_WORDS: Final = frozenset(
    {"pro", "max", "plus", "ultra", "mini", "air", "fe", "lite", "se", "xl", "edge", "fold", "flip"}
)
"""Words of a model's name the search also reads as words of its own ("Pro Max")."""
_MODEL_ENDS: Final = frozenset(
    {"but", "and", "or", "nor", "please", "though", "instead", "since", "because", "as",
     "than", "for", "with", "without", "in", "on", "at", "from", "by", "to", "that", "which",
     "something", "anything", "one", "ones", "i", "it", "is", "are"}
)  # fmt: skip
_CUE_AT: Final = re.compile(rf"\b{_CUE}\s+(?:(?:the|a|an)\s+)?", re.IGNORECASE)


PRICED_AGAINST: Final = re.compile(
    r"\b(?P<no>(?:no|not)\s+)?"
    r"(?P<way>cheaper|less\s+expensive|more\s+affordable|lower[\s-]priced|more\s+expensive|"
    r"pricier|dearer|higher[\s-]priced|"
    # a spec's order said of more or less ("lighter", "more RAM", "a bigger screen",
    # "longer battery life"): the search's phrase table reads which (``against_order``)
    r"(?:more|less|fewer|bigger|larger|smaller|longer|better|higher|lower)\s+[^\W\d_]+"
    r"(?:\s+life)?|[^\W\d_]{3,}er)\s+than\s+(?:the\s+|an?\s+|my\s+)?"
    # a name, or a number alone that may be one ("cheaper than 1984"; not "1,000", "500$")
    r"(?P<name>[^\W\d_][^,.;!?]*?|\d{1,6}(?![\d.,]?\d))\s*"
    r"(?=$|[,.;!?]|\b(?:and|but|with|for|please|under|below|over|above|within)\b)",
    re.IGNORECASE,
)
"""A price or a spec said against a product ("cheaper than the XPS 13", "lighter than the
MacBook Air", "cheaper than 1984"): which products the name is, and so the limit, is the
catalog's to read (the search's ``_priced_against``)."""
_COSTS_LESS: Final = re.compile(
    r"\b(?:(?:costs?|costing|priced|selling)\s+|(?<=\bfor\s)|(?<=\bpay\s)|(?<=\bspend\s))"
    r"less\s+than\b(?!\s*(?:what\s+)?(?:[$£€]|\d[\d,.]*\s*(?:k\b|[$£€]|dollars?|bucks|euros?)))",
    re.IGNORECASE,
)
_LESS_THAN_COSTS: Final = re.compile(
    r"\bless\s+than\s+(?:what\s+)?(?P<name>(?:the\s+|an?\s+)?[^\W_][^,.;!?]*?)\s+"
    r"(?:costs?|sells\s+for|goes\s+for|is\s+priced\s+at|does)\b",
    re.IGNORECASE,
)


_LIKE_BUT: Final = re.compile(
    r"\b(?:like|similar\s+to)\s+(?P<name>(?:the\s+|an?\s+)?[^\W_][^,.;!?]*?)\s*,?\s+but\s+"
    r"(?:(?:a\s+(?:bit|little)|slightly|much|way|even)\s+)?"
    r"(?P<way>cheaper|less\s+expensive|more\s+affordable|lower[\s-]priced|more\s+expensive|"
    r"pricier|dearer|higher[\s-]priced)\b(?!\s+than\b)",
    re.IGNORECASE,
)
"""A product asked for like another but at another price ("something like Dune but
cheaper", "a phone similar to the iPhone 15 but more expensive")."""


def costs_less_as_cheaper(text: str) -> str:
    """``text`` with a price said less than a product's as "cheaper than" ("a laptop that
    costs less than the XPS 13", "a phone for less than the iPhone 15 costs"), and one like
    a product but at another price as against it ("something like Dune but cheaper":
    "something cheaper than Dune"), which :data:`PRICED_AGAINST` reads; "weighs less than
    the MacBook Air" stays a weight's."""
    text = _LIKE_BUT.sub(lambda m: f"{' '.join(m['way'].split())} than {m['name']}", text)
    text = _LESS_THAN_COSTS.sub(lambda m: f"cheaper than {m['name']}", text)
    return _COSTS_LESS.sub("cheaper than", text)


_CHEAPER: Final = re.compile(r"cheaper|less\s+expensive|more\s+affordable|lower[\s-]priced", re.I)
_DEARER: Final = re.compile(r"more\s+expensive|pricier|dearer|higher[\s-]priced", re.I)


def against_order(said: re.Match[str]) -> str | None:
    """The order a :data:`PRICED_AGAINST` match says more or less of ("cheaper": ``price``,
    "pricier": ``price_desc``, "lighter": ``weight``, "more RAM": ``ram``), else None
    ("rather than")."""
    way = " ".join(said["way"].split())
    if _CHEAPER.fullmatch(way):
        return "price"
    if _DEARER.fullmatch(way):
        return "price_desc"
    # A spec's, where the tool has a limit that way ("heavier than": none); a product's
    # size is its screen's ("smaller than the iPhone 16 Pro Max")
    order = "screen_asc" if way.casefold() == "smaller" else parse(way).sort
    column, biggest = SORTS.get(order or "", ("", False))
    return order if bound_on(column, at_least=biggest) else None


_COMPARED: Final = re.compile(
    r"(?:^|[.:;!?,¿]|\b(?:why|how\s+come|so|if|whether))\s*"
    r"(?:is|are|was|were|does|do|did|would|will|can|could|isn'?t|aren'?t)\s+"
    r"(?!(?:there|you|u|ya|anything|something|any|some)\b)|"
    r"\b(?:why|how\s+come)\b|"
    r"\bwhich\s+(?:is|one|ones|of)\b|\b(?:it|its|it's|they|they're|mine)\b|"
    r"\b(?:this|that|these|those)\s+ones?\b|"
    r"(?<!\bthat)(?<!\bwhich)(?<!\bwho)(?<!\bthere)(?<!\bthing)(?<!\bone)(?<!\bones)"
    r"(?<!\banything)(?<!\bsomething)(?:\s+(?:is|are|was|were|be|seems?)|['\u2019]s)"
    r"(?:\s+(?:usually|generally|typically|often|always|really|much|way|far|a\s+lot|actually|"
    r"still|definitely|probably))*\s*$",
    re.IGNORECASE,
)
"""What makes "cheaper than" compare rather than ask: a question about a thing ("is the
Dell cheaper than the MacBook Air?", "why is Samsung cheaper...", not "is there anything
cheaper than..." or "do you have one cheaper than..."), a thing pointed at ("is it cheaper
than...", "which one is") or a thing said to be ("Samsung phones are usually cheaper
than...", "my phone is"; not "a laptop that is cheaper than...")."""
_ASKED_WHAT: Final = re.compile(
    r"\b(?:what|which\s+(?!(?:is|one|ones|of)\b)\w+)(?:\s+(?:is|are)|['\u2019]s)\s*$", re.I
)
"""A question for what is cheaper: "what's cheaper than...", "which laptops are"."""
_ASKED_WHICH: Final = re.compile(
    r"\s*(?:so\s+|and\s+|then\s+)?(?:what|which)(?:\s+(?:is|are)|['\u2019]s)\s+(?:the|a|an)\s+"
    r"(?!(?:one|ones)\b)[^\W\d_]+",
    re.I,
)
"""A question for which product, at the start of its sentence: "which is the cheapest laptop
with more RAM than...", "what's a phone with a bigger screen than..."."""
_NO_MODEL: Final = re.compile(
    r"\b(?:dollars?|bucks|euros?|pounds?|quid|grand|hundred|thousand|usual|before|last|"
    r"amazon|online|elsewhere|others?|one|ones)\b",
    re.IGNORECASE,
)


def priced_against(
    text: str,
    models: Callable[[str], list[str]],
    model: Callable[[str], bool] = lambda _: False,
    number: Callable[[str], bool] = lambda _: False,
) -> re.Match[str] | None:
    """Where ``text`` asks for products priced against a model ("a laptop cheaper than the
    XPS 13", "something cheaper than the MacBook Air"): a name of two words or more, with a
    number, or one word ``model`` says is a model or line the catalog carries ("the
    Legion"), or a price against a number alone that ``number`` says is a product's whole
    name ("a book cheaper than 1984": else it is an amount); no amount or place ("cheaper
    than five hundred dollars", "than Amazon"), and no kind's word alone. Not where it
    compares (:data:`_COMPARED`: "is the Dell cheaper than the MacBook Air?", "is it
    cheaper than..."), nor where ``models`` finds a model before it ("the XPS 13 cheaper
    than the MacBook Air?"); a brand or a line before it is what is asked for ("a Samsung
    phone cheaper than the iPhone 15")."""

    def named(m: re.Match[str]) -> bool:
        if not m["name"][0].isdigit():
            return True
        return against_order(m) in ("price", "price_desc") and number(m["name"])

    said = next((m for m in PRICED_AGAINST.finditer(text) if against_order(m) and named(m)), None)
    if said is None:
        return None
    if said["name"][0].isdigit():
        before = _SENTENCE_END.split(text[: said.start()])[-1]
        compared = _COMPARED.search(before) and not (
            _ASKED_WHAT.search(before) or _ASKED_WHICH.match(before)
        )
        return None if compared or models(before) else said
    # Only its own sentence compares or names a model before it: "which is cheapest? .
    # laptops cheaper than the XPS 13" (a follow-up, then the words before it) asks for laptops.
    before = _SENTENCE_END.split(text[: said.start()])[-1]
    name = said["name"]
    words = re.findall(r"[^\W_]+", name)
    numbered = any(c.isdigit() for c in name)
    compared = _COMPARED.search(before) and not (
        _ASKED_WHAT.search(before) or _ASKED_WHICH.match(before)
    )
    if _NO_MODEL.search(name) or compared or models(before):
        return None
    if len(words) < 2 and not numbered:
        return said if words and model(words[-1]) else None
    # "cheaper than a gaming laptop" names no model
    return said if any(may_name(w) for w in words if not w.isdigit()) else None


def priced_against_lacked(text: str) -> list[str]:
    """The names, as written, that ``text`` says a price against ("cheaper than Dune",
    "more expensive than the Nokia 3310"): where no product is named so, no limit is read,
    and the engine says them not carried when the catalog lacks their words."""
    return [
        m["name"].strip()
        for m in PRICED_AGAINST.finditer(text)
        if against_order(m) in ("price", "price_desc")
        and not m["name"][0].isdigit()
        and not _NO_MODEL.search(m["name"])
    ]


_SENTENCE_END: Final = re.compile(r"[.!?;](?:\s|$)")
_NEGATED_BEFORE: Final = re.compile(
    r"(?:\bnothing|\b(?:do\s*n[o'\u2019]?t|doesn['\u2019]?t|never)\s+(?:want|need)\s+"
    r"(?:anything|something|one|it)|\bnot\s+(?:anything|something|one))\s*$",
    re.IGNORECASE,
)


def negated_before(text: str) -> bool:
    """Whether ``text`` ends on words that negate a price said against a product after it
    ("I don't want anything more expensive than the Zenbook": at most its price)."""
    return _NEGATED_BEFORE.search(text) is not None


def without_priced_against(
    text: str,
    models: Callable[[str], list[str]],
    model: Callable[[str], bool] = lambda _: False,
    number: Callable[[str], bool] = lambda _: False,
) -> str:
    """``text`` without a price said against a product (:func:`priced_against`): "cheaper
    than the XPS 13" asks for other products, not for the XPS 13."""
    while (said := priced_against(text, models, model, number)) is not None:
        text = f"{text[: said.start()]} {text[said.end() :]}"
    return text


def cased_as_carried(
    text: str, carried: Callable[[str], list[str]], name_of: Callable[[str], str | None]
) -> str:
    """``text`` with each of the catalog's models ``carried`` finds in it said all in lower
    case, where something may be said not wanted ("an iphone but not the iphone se"),
    written as the catalog's name of it (``name_of``) writes it ("iPhone SE"): it is then
    read as the shopper's capitals are."""
    if _CUE_AT.search(text) is None:
        return text
    for said in carried(text):
        if said.islower() and (name := name_of(said)):
            text = _written_as(text, said, name)
    return text


def _written_as(text: str, said: str, name: str) -> str:
    """``text`` with the words ``said`` written with the capitals of the catalog's ``name``
    ("iphone se" of "Apple iPhone SE (3rd generation)": "iPhone SE"), where each is one of
    its words."""
    cased = {t.casefold(): t for t in re.findall(r"[^\W_]+", name)}
    words = re.findall(r"[^\W_]+", said)
    if not words or any(w.casefold() not in cased for w in words):
        return text
    pattern = r"(?<![^\W_])" + r"\W+".join(re.escape(w) for w in words) + r"(?![^\W_])"
    return re.sub(
        pattern,
        lambda m: re.sub(r"[^\W_]+", lambda t: cased.get(t[0].casefold(), t[0]), m[0]),
        text,
        flags=re.IGNORECASE,
    )


def models_not_wanted(text: str) -> list[tuple[int, int]]:
    """Where ``text`` may say a model is not wanted: from a cue to the end of the words after
    it that start with a name (a capital, or a line: "iPhone") and have a number ("not the
    Galaxy A15", "I don't want the Framework Laptop 16, something cheaper"), up to a mark,
    a limit or a word such as "but". Nothing in a question ("no iPhone 16 Pro in stock?"),
    no limit, amount or comparison ("not Samsung under 600", "no worse than the Galaxy
    S24", "not a refurbished iPhone 15"). Which products the words name is the catalog's
    to say (:func:`cut_models`)."""
    found: list[tuple[int, int]] = []
    for cue in _CUE_AT.finditer(text):
        sentence_end = re.search(r"[.!?]|$", text[cue.end() :])
        assert sentence_end is not None
        if sentence_end[0] == "?" or _asking(text, cue.start()) or _REPLY.match(text, cue.start()):
            continue
        at = cue.start()
        end = _model_said(text, cue.end())
        while end is not None:
            found.append((at, end))
            # "not the Galaxy A15 or the A35": the list's other models too.
            more = _ANOTHER_MODEL.match(text, end)
            at, end = (end, _model_said(text, more.end(), listed=True)) if more else (end, None)
    return found


_A_MEASURE: Final = re.compile(
    r"\d+(?:[.,]\d+)?\s*(?:gigs?\b|gb|tb|mb|inch(?:es)?|in\b|\"|kg|g\b|h\b|hours?|hrs?\b|mp|mah|%|"
    r"dollars|years?|yrs?\b|months?\b|megapixels?|hz\b|mm|cm|lbs?)",
    re.IGNORECASE,
)
"""A number with its unit ("8GB", "13 inch"): a spec, no model said by its number."""
_ANOTHER_MODEL: Final = re.compile(r"\s*,?\s*(?:or|nor|and\s+not|and)\s+(?:(?:the|a|an)\s+)?", re.I)


def _model_said(text: str, at: int, *, listed: bool = False) -> int | None:
    """Where the words from ``at`` that may name a model end (:func:`models_not_wanted`),
    or None when they name none; ``listed``: after another in a list, where a number alone
    may name one of its line ("not the iPhone 15 or 16 Pro")."""
    end = at
    said: list[str] = []
    for token in _TOKEN.finditer(text, at):
        gap = text[end : token.start()]
        word = token[0].casefold()
        if (said and gap.strip(" ()")) or len(said) == 6 or word in _MODEL_ENDS:
            break
        first = not said
        line = _line_named(word) is not None
        number_in = word[0].isalpha() and any(c.isdigit() for c in word)  # "or a35"
        by_number = listed and word[0].isdigit() and not _A_MEASURE.match(text, token.start())
        # After another of a list, any word with a capital may start one ("or Go 3"): only
        # a model the catalog has of the line is left out (cut_models).
        named_so = (token[0][0].isupper() or (listed and number_in)) and (listed or may_name(word))
        if first and not (line or by_number or named_so):
            break  # "Not Sure Between The Pixel 9 And iPhone 16" names no model unwanted
        number = any(c.isdigit() for c in word)
        named = number or word in MODEL_WORDS or first or token[0][0].isupper()
        ignored = word in STOP_WORDS and word not in MODEL_WORDS  # "Pro Max"
        if ignored or (not named and fold(word) in parser_words()):
            break  # a limit or a spec: "not Samsung under 600"
        said.append(word)
        end = token.end() + (text[token.end() : token.end() + 1] == "+")  # "S24+"
    if text[end : end + 1] == ")" and "(" in text[at:end]:
        end += 1  # "the Nothing Phone (2)"
    if said and any(c.isdigit() for w in said for c in w) and (listed or not said[0][0].isdigit()):
        return end
    return None


def cut_models(text: str, carried: Callable[[str], list[str]]) -> tuple[str, list[str]]:
    """``text`` without the models it says are not wanted (:func:`models_not_wanted`) that
    ``carried`` finds the catalog's names of in those words, each blanked from its cue to
    the end of its name, and those names. A model of a list said without its line ("not
    the Galaxy A15 or A35") is of the line of the one before it ("Galaxy A35")."""
    found: list[tuple[int, int, str]] = []
    line, previous = "", -1
    for start, end in models_not_wanted(text):
        said = text[start:end]
        name = next((n for n in carried(said) if n.casefold() in said.casefold()), None)
        stop = start + said.casefold().find(name.casefold()) + len(name) if name else end
        if name is None and start == previous and line:
            more = _ANOTHER_MODEL.match(said)
            model = said[more.end() if more else 0 :]
            name = next((n for n in carried(_in_line(line, model)) if _numbered_as(n, model)), None)
        previous = end
        line = _line_of(name) if name else ""
        if name is not None:
            found.append((start, stop, name))
    for start, stop, name in reversed(found):
        # "not the MacBook Air 13, the 15": the other is of the same line.
        other = _OTHER_OF_LINE.match(text, stop)
        line = _line_of(name)
        # Only a model the catalog has of the line: ", 16GB RAM", ", 700 max" are no model.
        if (
            other
            and line
            and any(_numbered_as(n, other["number"]) for n in carried(f"{line} {other['number']}"))
        ):
            at_number = other.start("number")
            text = text[:at_number] + f"{line} " + text[at_number:]
        text = text[:start] + " " * (stop - start) + text[stop:]
    return text, [name for _, _, name in found]


def _in_line(line: str, model: str) -> str:
    """``model`` said in ``line``, without the words of the line it says itself: "Z Fold6"
    in "Galaxy Z" is "Galaxy Z Fold6"."""
    words, said = line.split(), model.split()
    shared = max(k for k in range(len(words) + 1) if words[len(words) - k :] == said[:k])
    return " ".join([*words[: len(words) - shared], *said])


def _numbered_as(name: str, model: str) -> bool:
    """Whether ``name`` has each word with a number ``model`` says: "or 8GB" after the MacBook
    Air 13 names no "MacBook Air"."""
    numbered = {w.casefold() for w in _TOKEN.findall(model) if re.search(r"\d", w)}
    return bool(numbered) and numbered <= {w.casefold() for w in _TOKEN.findall(name)}


def _line_of(name: str) -> str:
    """The words of a model's name before its number: "Galaxy" of "Galaxy A15"."""
    return " ".join(itertools.takewhile(lambda w: not re.search(r"\d", w), name.split()))


_OTHER_OF_LINE: Final = re.compile(
    r"\s*[,;:\u2013\u2014-]?\s*(?:but\s+|I\s+mean[t]?\s+|rather\s+|instead\s+)?(?:the\s+)?"
    r"(?P<number>\d+\w*\+?)(?!\s*(?:gb|tb|mb|inch|in\b|\"|kg|g\b|h\b|hours|mp|mah|%|dollars))",
    re.IGNORECASE,
)
"""Another model of the same line said by its number after one not wanted: ", the 15"."""


def _said_once(item: list[str], words: list[str]) -> bool:
    """Whether the name of ``item``'s words is said once in ``words``: "an Apple laptop, not
    an Apple phone" wants Apple; "an iPhone except the iPhone SE" wants no iPhone SE."""
    folded = [fold(t) for t in item]
    size = len(folded)
    return sum(words[i : i + size] == folded for i in range(len(words))) == 1


def _item_words(item: str) -> list[str]:
    """The words of one name of a list, without its article and initials ("the Dell":
    "dell", "J.K. Rowling": "rowling"), with the small words within it ("catcher in the
    rye")."""
    words = _TOKEN.findall(item.casefold())
    lead = next((n for n, t in enumerate(words) if t not in _LIST_WORDS and len(t) > 1), None)
    kept = words[lead:] if lead is not None else []
    return [t for t in kept if (t not in _LIST_WORDS and len(t) > 1) or t in _SMALL]


def _named_on(text: str, start: int, names: str) -> str:
    """``names`` (at ``start`` of ``text``) with the rest of a name of several words that
    each have a capital ("Harry" of "not Harry Potter books"), when the end, a mark or a
    word that may follow comes after it; "" when there is none."""
    end = start + len(names)
    last = names.split()[-1]
    if not (last[:1].isupper() or _line_named(last)):
        return ""
    for more in _MORE_OF_A_NAME:
        if (found := more.match(text, end)) is None:
            continue
        following = fold(found["next"] or "")
        if not following or following in _AFTER or kinds_in(following):
            return text[start : found.end()]
    return ""


def _asking(text: str, at: int) -> bool:
    """Whether the cue at ``at`` is in a question ("do you not sell Dell?"), in "or not"
    or "not not": no cue for something unwanted. "Phones that are not Samsung" is one."""
    before = _TOKEN.findall(text[:at].casefold())[-3:]
    relative = len(before) > 1 and before[-2] in ("that", "which", "who")
    if relative and before[-1] in ("is", "are", "was", "were", "does", "do", "did"):
        return False
    if before[-1:] in (["that's"], ["which's"], ["who's"]):
        return False  # "isn't there a phone that's not Samsung?"
    cue = [w for w in _TOKEN.findall(text[at : at + 16].casefold())[:2] if w not in ("but", "and")]
    if cue[:1] in (["hate"], ["dislike"]) and before[-1:] in (["don't"], ["dont"], ["not"]):
        return True  # "I don't hate Apple but prefer Android" leaves nothing out
    if cue[:1] in _SAID_OF_IT and before[-1:] in (["that"], ["which"], ["who"]):
        return False  # "is there a phone for someone who isn't into Apple?", "that doesn't run"
    if cue[1:2] == ["run"]:
        return True  # "my old PC doesn't run Windows": what the shopper has, not what is asked
    if cue[:1] in _LEAVING_OUT and before[-1:] != ["or"]:
        return False  # "isn't there one without Windows?" asks for one without it
    liking = _NOT_INTO.match(text, at)
    sentence_end = re.search(r"[.!?]|$", text[at:])
    asked = sentence_end is not None and sentence_end[0] == "?"
    clause_end = re.search(r"[,;.!?]|$", text[at:])
    clause_asked = clause_end is not None and clause_end[0] == "?"
    if liking and not clause_asked and before[-1:] in _BEING:
        return False  # "my son is not into Apple, what do you suggest?"
    clause = _TOKEN.findall(re.split(r"[.?!;,]", text[:at])[-1].casefold())
    if clause[:1] in (["is"], ["are"], ["was"], ["were"], ["isn't"], ["aren't"]):
        return True  # "is the Galaxy S24 not on sale?"
    if asked and re.match(r"(?:(?:but|and)\s+)?nothing\b", text[at:], re.IGNORECASE):
        return True  # "Nothing from Google?", "so there's nothing made by Apple under $500?"
    if cue[:1] in _BE_NOT and before[-1:] not in _SAID_OF and not liking:
        return True  # "aren't Samsung phones good?", "there isn't a Dell under $500?"
    return any(w in _ASKING or fold(w) in _ASKING for w in before[-2:]) or before[-1:] in (
        ["not"],
        ["no"],
        ["or"],
    )


_REPLY: Final = re.compile(r"(?:(?:but|and)\s+)?no\s+the\b", re.IGNORECASE)
"""A reply that picks one ("no the Dell one", "No the MacBook Air"), no cue."""
_BE_NOT: Final = tuple(
    [w] for w in ("isn't", "aren't", "wasn't", "weren't", "isnt", "arent", "wasnt", "werent")
)
_SAID_OF_IT: Final = (
    *_BE_NOT,
    *([w] for w in ("don't", "doesn't", "won't", "dont", "doesnt", "wont", "does", "do")),
)
"""Cues that say what a thing is not after "that", "which" or "who" ("that doesn't run")."""
_LEAVING_OUT: Final = tuple(
    [w] for w in ("without", "except", "excluding", "other", "apart", "anything")
)
"""Cues that leave something out in a question too ("do you have one other than Dell?"), not
after "or" ("with or without Windows")."""
_BEING: Final = tuple(
    [w] for w in ("is", "are", "am", "was", "were", "i'm", "he's", "she's", "they're", "we're")
)
"""The words before "not into" that say what someone is like ("my son is not into Apple")."""
_NOT_INTO: Final = re.compile(
    rf"(?:(?:but|and)\s+)?(?:(?:is|are|was|were)n't|not)\s+{_LIKES}\b", re.IGNORECASE
)
"""A cue of :data:`_BE_NOT` that says what someone likes ("my son isn't into Apple"): it
says what is not wanted after any word."""
_SAID_OF: Final = tuple([w] for w in ("that", "which", "who", "it", "they", "he", "she"))
"""The words a cue of :data:`_BE_NOT` must follow to say what is not wanted ("phones that
aren't Samsung", "it isn't for gaming"); after any other ("there isn't a Dell under
$500?", "but aren't Apple laptops better?", "the Pixel 9 isn't waterproof?") it asks or
describes."""
_NEGATED: Final = re.compile(
    rf"\b(?P<cue>{_CUE})\s+(?P<lead>(?:for|a|an|any|too|so|very)\s+)?(?P<said>[^\W\d_][\w'-]*"
    r"(?:\s+[^\W\d_][\w'-]*){0,3})",
    re.IGNORECASE,
)
_LIKING: Final = re.compile(rf"\b{_LIKES}$", re.IGNORECASE)
"""A cue that says what someone is like ("isn't into phones"), not only what is wanted."""
_ELSE: Final = re.compile(r"\b(?:else|other|instead)\b", re.IGNORECASE)
"""Words that ask for something besides what was said ("not a fan of laptops, what else?")."""
_AS_WELL: Final = re.compile(r"\b(?:except|other|apart)\b", re.IGNORECASE)
"""Cues that may say "as well as" before a use ("apart from gaming, I also edit photos")."""
_ALSO: Final = re.compile(r"\b(?:also|too|as\s+well)\b", re.IGNORECASE)
_KIND_ENDS: Final = frozenset({"and", "but", "please"})
"""What may follow a kind said not wanted: "not a laptop, a phone", "not a laptop but a
phone"; not "not a laptop under $500", which asks for one."""


def negated_in(text: str) -> list[tuple[int, int]]:
    """Where ``text`` says a use, a genre, a kind, a feature or an order is not wanted ("a
    laptop, not for gaming", "a novel, not fantasy", "not a book"): spans that are read as
    nothing wanted, so that "gaming" does not rank gaming laptops first (a genre is also
    left out: :func:`genres_not_wanted`). A limit ("not over $800", "no more than $500") is
    a limit, and is kept."""
    return [(start, end) for start, end, _ in _negations(text)]


def genres_not_wanted(text: str) -> list[tuple[str, ...]]:
    """The terms of each genre ``text`` says is not wanted ("a novel, not fantasy")."""
    return [
        meant.terms
        for _, _, meant in _negations(text)
        if meant.category == Category.BOOKS and meant.terms and not (meant.forms or meant.line)
    ]


def _negations(text: str) -> list[tuple[int, int, Intent]]:
    """What :func:`negated_in` reads: each span with the phrase it says is not wanted."""
    spans: list[tuple[int, int, Intent]] = []
    at = 0
    while match := _NEGATED.search(text, at):
        at = match.start("said")  # a cue among the words is one of its own
        reply = match["cue"].casefold() == "no" and match["lead"]  # "no, for school"
        as_well = _AS_WELL.search(match["cue"]) and _ALSO.search(text, match.end())
        if reply or as_well or _asking(text, match.start()):
            continue
        said = _TOKEN.findall(match["said"].casefold())
        for size in range(len(said), 0, -1):
            meant = _PHRASES.get(tuple(fold(w) for w in said[:size]))
            if meant is None or _line_named(said[0]) is not None:
                continue
            end = match.start("said") + _span_of(match["said"], size)
            rest = f"{text[: match.start()]} {text[end:]}"
            a_kind = bool(meant.category or meant.forms)
            if (
                a_kind
                and _LIKING.search(match["cue"])
                and not (kinds_in(rest) or _ELSE.search(rest))
            ):
                break  # "my dad isn't into phones, a simple one": a phone is still asked for
            following = [fold(w) for w in _TOKEN.findall(text[end:].casefold())[:1]]
            ends = _KIND_ENDS if meant.category or meant.forms else _AFTER
            if text[end:].lstrip()[:1] in ("", ",", ".", ";", ":", "!", "?", ")") or (
                following and (following[0] in ends or kinds_in(following[0]))
            ):
                spans.append((match.start(), end, meant))
                at = end
            break
    return spans


def _span_of(said: str, size: int) -> int:
    """How many characters of ``said`` its first ``size`` words take."""
    words = list(_TOKEN.finditer(said))
    return words[size - 1].end()


def _line_named(word: str) -> Intent | None:
    """The product line ``word`` names, or a word for a line's products ("Mac": the
    MacBook's and the iMac's); None for any other word."""
    meant = _PHRASES.get((fold(word),))
    if meant is None or not (meant.line or meant.terms in _line_terms()):
        return None
    return meant


def _of_a_kind(word: str) -> bool:
    """Whether ``word`` names a line of one kind of its terms' products ("MacBook": the
    laptops of the Mac's terms)."""
    meant = _PHRASES.get((fold(word),))
    return bool(meant and meant.line and meant.forms)


@functools.cache
def _line_terms() -> frozenset[tuple[str, ...]]:
    return frozenset(i.terms for i in _PHRASES.values() if i.line)


def may_name(word: str) -> bool:
    """Whether ``word`` may name something unwanted: a line, or a word the search reads
    nothing in ("Dell", "Tolkien"; not "cheap", "kids" or "only")."""
    said = fold(word)
    return _line_named(word) is not None or not (
        said in parser_words()
        or said in _NOT_NAMES
        or said in STOP_WORDS
        or (said,) in _PHRASES  # "all-in-one"
    )


def _listings(match: re.Match[str]) -> list[tuple[str, str]]:
    """The names a cue may have taken, and the word after them: all it took, then the
    names before each comma or "and", the last first ("not Dell and HP", "not Dell, HP or
    Lenovo"; but "no Samsung and good battery" is "no Samsung"). A list is joined by "or",
    "nor" or "and" at its end, never by commas alone ("no Dell, HP is fine")."""
    names = match["names"]
    joints = list(_JOINT.finditer(names))
    taken = [(names, fold(match["next"] or ""))]
    for n in reversed(range(len(joints))):
        cut = joints[n]
        if "," in cut[0] or fold(cut[0].strip(" ,").casefold()) == "and":
            taken.append((names[: cut.start()], "and" if "and" in cut[0].casefold() else ""))
    return [(said, after) for said, after in taken if _joined(said) and _and_listed(said)]


def _and_listed(names: str) -> bool:
    """Whether names joined by "and" are each a name (with a capital, or a word the search
    reads nothing in) and no line ("not Dell and HP", "excluding samsung and apple"), or
    each a line ("except ChromeOS and macOS"); "not Apple and
    Android" leaves out Apple alone, and "no Honor and nothing over $600" Honor."""
    if not any(j[0].strip(" ,").casefold() == "and" for j in _JOINT.finditer(names)):
        return True
    listed = [t for t in _TOKEN.findall(names) if t.casefold() not in _LIST_WORDS]
    if all(_line_named(t) is not None for t in listed):
        return True  # lines all: "except ChromeOS and macOS"
    # names as written with a capital, or words the search reads nothing in ("samsung and
    # apple"): not "no samsung and good battery"
    return all(
        (t[:1].isupper() or (may_name(t) and t != "nothing")) and _line_named(t) is None
        for t in listed
    )


def _joined(names: str) -> bool:
    """Whether a comma between names is followed by "or", "nor" or "and" later on."""
    joints = [j[0].strip(" ,").casefold() for j in _JOINT.finditer(names)] + ["end"]
    bare = [n for n, joint in enumerate(joints) if joint == ""]
    return all(any(j in ("or", "nor", "and") for j in joints[n + 1 :]) for n in bare)


def without_unwanted(text: str, *, whole_names: bool = True) -> str:
    """``text`` without what the shopper said they do not want (:func:`unwanted_in`,
    :func:`negated_in`): "a laptop, not a Chromebook" is "a laptop, "."""
    return _cut(text, unwanted_in(text, whole_names=whole_names))


def _cut(text: str, unwanted: list[Unwanted]) -> str:
    spans = [(said.start, said.end) for said in unwanted] + negated_in(text)
    for start, end in sorted(spans, reverse=True):
        text = text[:start] + " " * (end - start) + text[end:]
    return text


AUDIENCE_LEAN: Final = 1.5
"""How strongly a phone or computer for a kid or a teenager leans to the cheaper: as a
student's (``intents.py``)."""
_AN_AGE: Final = rf"(?:\d{{1,2}}|{_COUNT})"
"""An age in digits or in words ("my ten year old"; "seventy-five" is read as 70)."""
_AGE: Final = re.compile(
    rf"(?<![\w.,$£€])(?:(?P<low>{_AN_AGE})\s*(?:-|\u2013|to|or)\s*)?(?P<n>{_AN_AGE})"
    r"(?:[\s-]*(?:years?|yrs?)[\s-]*old|\s*y/?o)(?P<own>'s)?(?![\w-])(?P<after>\s+[^\W\d_]+)?"
)
_PERSONS: Final = frozenset(
    {"son", "daughter", "kid", "kids", "child", "boy", "girl", "grandson", "granddaughter",
     "nephew", "niece", "brother", "sister", "student", "who", "wants", "needs", "likes",
     "loves", "is", "can", "will", "would", "and", "or", "to", "for", "that", "because", "but",
     "so", "has", "plays", "uses", "under", "below", "over", "above", "with", "without", "at",
     "in", "on", "from", "around", "about", "max", "please", "thanks", "who's", "whos"}
)  # fmt: skip
"""Words after an age that make it a person's ("my 10 year old son", "my 12 year old wants
a Pixel"); before any other word (a brand, a model, a kind) it is a thing's."""
_AGE_SAID_OF: Final = re.compile(r"\b(?:is|was|are|were|i'm|im|i am|he's|she's)\s+$")
"""What an age that is no one's to buy for follows ("my laptop is 12 years old")."""
YOUNGEST: Final = 4
"""The youngest age read as whom a product is for: "2-3 years old" is a model's."""


def _ages(text: str) -> str:
    """``text`` with a person's age said as whom it is for: "my 10 year old" as "kid", "a
    15-year-old son" as "teen"; an adult's, a thing's and one said of someone as nothing
    ("a 45 year old", "my 5 year old Pixel", "my laptop is 12 years old"); "7 years of
    updates" is no age."""

    def said(m: re.Match[str]) -> str:
        after = m["after"] or ""
        word = after.strip().casefold()
        if (word and word not in _PERSONS and not m["own"]) or _AGE_SAID_OF.search(
            text, 0, m.start()
        ):
            return after  # "my 5 year old Pixel died", "my laptop is 12 years old"
        said_age = (m["low"] or m["n"]).split("-")[0].split()[0]  # "a 10-12 year old": 10 up
        age = int(said_age) if said_age.isdigit() else _COUNTS[said_age]
        person = age >= YOUNGEST
        return ("kid" if person and age < 13 else "teen" if person and age < 20 else "") + after

    return _AGE.sub(said, text)


_DEGREE_SAID: Final = re.compile(
    r"(?<![\w'-])(?:a\s+(?:whole\s+)?(?:lot|ton|bunch|great\s+deal|fair\s+bit)|lots|tons|"
    r"all\s+the\s+time|every\s+(?:single\s+)?(?:day|night|week)|day\s+and\s+night|"
    r"heavily|constantly|frequently|regularly|nonstop|non-stop|24/7)(?![\w'-])"
    r"(?!\s+(?:of|use|uses|carry|driver)\b)",
    re.IGNORECASE,
)
"""How much or how often ("reads a lot", "on it all the time", "uses it heavily", "every
day"): no word of a product. Not a quantity of something ("a lot of storage") nor a use
("every day use"), which the phrase table reads."""


def degrees_said(keywords: str) -> list[str]:
    """The phrases of degree or frequency in ``keywords`` (:data:`_DEGREE_SAID`), as
    written: ``["a lot"]`` for "my dad who reads a lot"."""
    return [m[0] for m in _DEGREE_SAID.finditer(keywords)]


def without_degrees(keywords: str, kept: Callable[[str], bool]) -> str:
    """``keywords`` without its phrases of degree or frequency (:func:`degrees_said`), but
    those ``kept`` says name products ("Lots of Love", a title)."""
    return _DEGREE_SAID.sub(lambda m: m[0] if kept(m[0]) else " ", keywords)


def degree_words(keywords: str, without: str) -> frozenset[str]:
    """The words of the phrases of degree ``keywords`` says that ``without`` (``keywords``
    less those phrases, :func:`without_degrees`) no longer says: "lot" of "I travel a lot"."""
    left = {fold(w) for w in _TOKEN.findall(without)}
    return frozenset(fold(w) for w in _TOKEN.findall(keywords) if fold(w) not in left)


def less_degrees(words: Words, degrees: frozenset[str]) -> Words:
    """``words`` read with the phrases of degree still said, less their ``degrees``
    (:func:`degree_words`): "I travel a lot" is read as before, a use and its kind ("travel"
    of laptops, "I game every day"), but "lot" is no word to search."""
    if not degrees:
        return words
    groups = [g for g in words.groups if not g or fold(g[0]) not in degrees]
    return replace(words, groups=groups, plain=[w for w in words.plain if fold(w) not in degrees])


_READER: Final = re.compile(
    r"\b(?:loves?|likes?|enjoys?)\s+(?:reading|to\s+read)\b|\bbookworms?\b|"
    r"\b(?:avid|big|keen)\s+readers?\b"
)
"""Whom a book is for ("who loves reading", "a bookworm"): the kind meant where none is
named."""


_LEARNING: Final = re.compile(
    r"(?:(?<=\bfor\s)|(?<=\bto\s)|(?<=\bme\s)|(?<=\bi\s)|(?<=\bwe\s)|(?<=\byou\s)|^)"
    r"(?:learn|learning|learnt|learned)\s+(?:(?:how\s+)?to\s+|about\s+|some\s+)?"
    r"(?=[^\W\d_])",
)
"""A purpose said before its topic ("books for learning python", "to learn how to cook"):
the topic is what is searched, not the word "learning", which a blurb has of anything
("Harry Potter learns..."). "Machine learning" stays a topic."""


def parse(
    keywords: str, explicit: dict[str, Any] | None = None, *, whole_names: bool = True
) -> Words:
    """What ``keywords`` asks for; ``explicit`` (the tool's other fields) wins over words.
    ``whole_names``: as :func:`unwanted_in` reads them."""
    explicit = explicit or {}
    words = Words()
    cased = _normalized(keywords, folded=False)
    unwanted = unwanted_in(cased, whole_names=whole_names)
    said_lines: list[str] = []
    for left in unwanted:
        words.excluded += [line.terms for line in left.lines]
        said_lines += left.line_words
        words.unwanted += left.names
        # A line the shopper does not want still says the kind they look at ("anything
        # but a Chromebook": computers).
        words.meant = words.meant or next((i.category for i in left.lines if i.category), None)
    words.unwanted_genres = genres_not_wanted(cased)
    if words.unwanted_genres:
        words.meant = words.meant or Category.BOOKS  # "not fantasy": books, all the same
    text = _ages(_cut(cased, unwanted).casefold())
    if _READER.search(text):
        # "a gift for a 10 year old who loves reading": books, unless a kind is named ("my
        # dad loves reading the news on his phone")
        words.meant = words.meant or Category.BOOKS
        text = _READER.sub(" ", text)
    text = _LEARNING.sub(" ", text)
    # A degree said ("the lightest ... sorted by price") is the order before a spec named
    counted = _without_counts(_numbers(text, words), words)
    text = _sorted_by(_order(counted, words, explicit), words, explicit)
    raw = _TOKEN.findall(text)
    for intent, said in _read(raw):
        if len(words.groups) >= MAX_GROUPS:
            break
        word = fold(said[0])
        if intent is not None:
            _apply(intent, said, words, explicit)
        elif word not in STOP_WORDS and (len(word) > 1 or word.isdigit()):
            words.groups.append((_clean(said[0]),))
            words.plain.append(_clean(said[0]))
    _drop_talk(words, explicit.get("sortBy") or words.sort)
    wanted = {term for group in words.groups for term in group}
    # A line not wanted within one wanted ("a Mac but not a MacBook"), or of one kind of
    # its terms' products ("an Apple computer, not a MacBook": the iMac is no MacBook), is
    # its own word only.
    words.excluded = [
        (fold(said),) if wanted & set(terms) or _of_a_kind(said) else terms
        for terms, said in zip(words.excluded, said_lines, strict=True)
    ]
    if not (explicit.get("category") or words.category):
        words.category = words.meant
    kind = explicit.get("category") or words.category
    others = [g for g in words.groups if g not in words.audience]
    if words.audience and kind != Category.BOOKS and (kind or others):
        # "a phone for my kid", "my 12 year old wants a pixel": any of the kind, the cheaper
        # first; not the one whose text says "kids", nor a kid's book (a book for a kid, or
        # something for a kid, is the young reader's)
        words.groups = others
        if not (words.spend or words.sort):
            words.boosts["affordable"] = max(AUDIENCE_LEAN, words.boosts.get("affordable", 0.0))
    if kind in (Category.COMPUTERS, Category.MOBILE):
        # "a laptop to share with my sister": any laptop, not the one whose text says "share"
        words.groups = [g for g in words.groups if not (len(g) == 1 and fold(g[0]) in COMPANY)]
        words.plain = [w for w in words.plain if fold(w) not in COMPANY]
    if words.spend and _budget_let_go(cased, words):
        # "forget the budget, which is the lightest? ... a laptop under $900": the earlier
        # messages' budget, after the words that let it go, is no limit
        words.min_price = words.max_price = None
    if words.spend and not (explicit.get("sortBy") or words.sort or words.boosts):
        dearest = PRICE_SORT.reverse
        words.sort = dearest.name if dearest else None  # "the best phone, money is no object"
    if words.groups and words.groups == words.leanings[:1]:
        # A use is all that was asked of a kind ("a laptop for travel"): every product of
        # it is one, in the order the use leans to, whatever its description says.
        words.groups = []
    if (explicit.get("category") or words.category) in (Category.BOOKS, None):
        # "anything by Jane Austen" is hers: not Jane Eyre, whose title has "Jane"
        given = _given_names(keywords)
        words.groups = [g for g in words.groups if not (len(g) == 1 and fold(g[0]) in given)]
        words.plain = [w for w in words.plain if fold(w) not in given]
    words.groups = list(dict.fromkeys(words.groups))
    words.plain = list(dict.fromkeys(words.plain))
    return words


@functools.cache
def _no_limit() -> re.Pattern[str]:
    """The phrases that say the price is no limit ("forget the budget")."""
    phrases = sorted((p for i in INTENTS if i.spend for p in i.phrases), key=len, reverse=True)
    return re.compile(r"\b(?:" + "|".join(re.escape(p) for p in phrases) + r")\b", re.I)


def _budget_let_go(cased: str, words: Words) -> bool:
    """Whether ``words`` holds a price only after the words that say the price is no limit:
    none is said before them."""
    if words.min_price is None and words.max_price is None:
        return False
    said = _no_limit().search(cased)
    if said is None:
        return False
    before = Words()
    _numbers(cased[: said.start()].casefold(), before)
    return before.min_price is None and before.max_price is None


@functools.cache
def _talk() -> dict[str, frozenset[str]]:
    """Each ``sortBy`` and bound with the words about its spec (:attr:`Spec.talk`)."""
    talk: dict[str, set[str]] = {}
    for spec in SPECS:
        orders = spec.sort.both() if spec.sort else ()
        names = [b.name for b in spec.bounds] + [s.name for s in orders]
        for name in names:
            talk.setdefault(name, set()).update(fold(w) for w in spec.talk)
    return {name: frozenset(words) for name, words in talk.items()}


def _drop_talk(words: Words, sort: str | None) -> None:
    """Once an order (``sort``: the words' or the tool's own ``sortBy``) or a limit on a
    spec is read, the words about that spec are said: "lasts the longest on one charge"
    is the longest battery, whatever the description says of a charge."""
    said = _spec_talk(words, sort)
    if not said:
        return
    talk = {w for w in words.plain if fold(w) in said}
    words.plain = [w for w in words.plain if w not in talk]
    words.groups = [g for g in words.groups if not (len(g) == 1 and g[0] in talk)]


@functools.cache
def _phrase_words() -> frozenset[str]:
    return frozenset(word for key in _PHRASES for word in key)


def _compound(match: re.Match[str]) -> str:
    """A hyphenated word the phrase table does not know ("android-phone",
    "Android-Handy") as its words, which it may; "2-in-1", "one-handed" or a range of
    numbers ("600-900") as it is."""
    token = match[0]
    if "-" not in token or fold(token.casefold()) in _phrase_words():
        return token
    if re.fullmatch(r"\d+(?:\.\d+)?k?-\d+(?:\.\d+)?k?", token, re.IGNORECASE):
        return token  # "600-900" is a range
    return token.replace("-", " ")


def _normalized(keywords: str, *, folded: bool = True) -> str:
    """``keywords`` in English, NFKC, with one apostrophe; casefolded unless ``folded`` is
    False (what the shopper does not want is read with its capitals: :func:`_listings`)."""
    text = unicodedata.normalize("NFKC", in_english(_TOKEN.sub(_compound, keywords[:MAX_TEXT])))
    text = text.replace("\u2019", "'")
    return text.casefold() if folded else text


def respell(keywords: str, corrections: Mapping[str, str]) -> str:
    """``keywords`` with each word of ``corrections`` (a plain word, as :attr:`Words.plain`
    holds it) replaced wherever it stands as a word."""
    text = _normalized(keywords, folded=False)
    for wrong, right in corrections.items():
        text = re.sub(rf"(?<![^\W_]){re.escape(wrong)}(?![^\W_])", right, text, flags=re.I)
    return text


@functools.cache
def parser_words() -> frozenset[str]:
    """Every word the parser gives a meaning to: the words of the phrase table and of
    amounts ("under", "dollars"). A search word near one may be a misspelling of it."""
    phrases = [phrase for key in _PHRASES for phrase in key]
    for group in (AT_MOST, AT_LEAST, AROUND, MONEY):
        phrases += [word for phrase in group for word in phrase.split()]
    return frozenset(word for word in phrases if word.isalpha())


@functools.cache
def _word_categories() -> dict[str, frozenset[str | None]]:
    found: dict[str, set[str | None]] = {}
    for key, intent in _PHRASES.items():
        for word in key:
            found.setdefault(word, set()).add(intent.category)
    return {word: frozenset(categories) for word, categories in found.items()}


def outside(word: str, category: str) -> bool:
    """Whether every phrase of the parser's with ``word`` names another category than
    ``category`` ("laptop" while searching books)."""
    categories = _word_categories().get(word, frozenset({None}))
    return None not in categories and category not in categories


def fts_string(term: str) -> str:
    """``term`` as an FTS5 string: always quoted, so it is never syntax."""
    return '"' + term.replace('"', '""') + '"'


def any_of(terms: tuple[str, ...]) -> str:
    return "(" + " OR ".join(fts_string(t) for t in terms) + ")"


def of_line(terms: tuple[str, ...]) -> str:
    """Products of a line named by any of ``terms``: one with a line's name
    (:data:`~shared.search.intents.LINE_NAMES`) in its name or brand, or a system's term
    anywhere. A Samsung whose description says "faster than the iPhone 16" is no iPhone."""
    names = tuple(t for t in terms if t in LINE_NAMES)
    if not names:
        return any_of(terms)
    named = "{name brand} : " + any_of(names)
    rest = tuple(t for t in terms if t not in LINE_NAMES)
    return f"({named} OR {any_of(rest)})" if rest else f"({named})"


def match_all(groups: list[tuple[str, ...]], lines: Collection[tuple[str, ...]] = ()) -> str:
    """Products with every group (any term of each); a group of ``lines`` (the product
    lines named) in the product's name (:func:`of_line`)."""
    return " AND ".join(of_line(g) if g in lines else any_of(g) for g in groups)


def match_any(groups: list[tuple[str, ...]], lines: Collection[tuple[str, ...]] = ()) -> str:
    """Products with at least one term of one group, and of one of the groups in ``lines``
    (the product lines named): "MacBook for travel" finds MacBooks, never a light Dell;
    "an iPhone or an Android phone" either. The other groups' terms stay in the query,
    where they add to the relevance."""
    named = tuple(dict.fromkeys(t for g in groups if g in lines for t in g))
    required = [of_line(named)] if named else []
    return " AND ".join([*required, any_of(tuple(dict.fromkeys(t for g in groups for t in g)))])


def name_clause(product_name: str) -> str | None:
    """Every word of ``product_name`` at the start of a word of the name: ``{name} : (...)``."""
    tokens = _name_tokens(product_name)
    if not tokens:
        return None
    parts = [fts_string(t) + (" *" if len(t) >= 3 else "") for t in tokens]
    return "{name} : (" + " AND ".join(parts) + ")"


def _name_tokens(product_name: str) -> list[str]:
    tokens = [_clean(t) for t in _TOKEN.findall(unicodedata.normalize("NFKC", product_name))]
    return [t for t in tokens[:MAX_GROUPS] if t]


_ONE_LETTER_LAST = re.compile(r"(.*[^\W_])[-'][^\W_]")
"""A word of a name whose last part, after a hyphen or an apostrophe, is one letter or
digit: "2-in-1", whose "1" :func:`name_clause` reads as the start of any word. (A model's
token split apart, "8 a" of "8a", is left alone: the store mostly has the model.)"""


def name_clause_within(product_name: str) -> str | None:
    """An FTS5 query that every product :func:`name_clause` finds for ``product_name``
    matches too, much cheaper where a word of it ends in one letter or digit after a hyphen
    or an apostrophe ("2-in-1"): FTS5 reads the start of a word of one character ("1*") by
    merging every word of the index that starts so. Those words without their last part are
    asked for whole ("2-in": the words "2" and "in" in a row, as they stand in "2-in-1");
    None when no word ends so."""
    heads = [m[1] for t in _name_tokens(product_name) if (m := _ONE_LETTER_LAST.fullmatch(t))]
    if not heads:
        return None
    return "{name} : (" + " AND ".join(fts_string(head) for head in heads) + ")"
