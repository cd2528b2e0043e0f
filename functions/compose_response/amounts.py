"""Prices written in the ways :mod:`compose_response.units`' notations do not cover.

A model told by a page to say a price may write it any way a person would: in words
("one dollar", "ninety-nine cents", "a buck", "a grand"), as a currency code glued to the number
("USD1"), with a multiplier ("$1k", "$1.2 thousand"), or as a whole amount with a dash
and no currency at all ("1,-", "349.-"). Each is a price here, in the currency it names
(the store's when it names none), so the fact check compares it like any other.

Words and multipliers are not rewritten in place (there is no good way to say "$349" as
"one dollar" again): a wrong one removes its sentence. A glued code and a dashed whole
amount are rewritten like the notations they resemble.
"""

from __future__ import annotations

import re
from typing import Final

from compose_response import money
from compose_response.units import Quantity, Unit, parse_number

_ONES: Final = {
    w: i
    for i, w in enumerate(
        re.findall(
            r"\w+",
            "zero one two three four five six seven eight nine ten eleven twelve thirteen "
            "fourteen fifteen sixteen seventeen eighteen nineteen",
        )
    )
}
_ONES["a"] = _ONES["an"] = 1
_TENS: Final = {
    w: 10 * i
    for i, w in enumerate(
        re.findall(r"\w+", "twenty thirty forty fifty sixty seventy eighty ninety"), 2
    )
}
_SCALES: Final = {"hundred": 100, "thousand": 1000, "million": 1_000_000}
_WORD = "|".join(sorted([*_ONES, *_TENS, *_SCALES], key=len, reverse=True))
_CURRENCY_WORDS: Final = {
    "dollar": ("$", 1.0),
    "buck": ("$", 1.0),
    "cent": ("$", 0.01),
    "penny": ("$", 0.01),
    "pennies": ("$", 0.01),
    "euro": ("€", 1.0),
    "quid": ("£", 1.0),
}
_IN_WORDS = re.compile(
    rf"(?<![\w-])(?P<num>(?:{_WORD})(?:[\s-]+(?:and[\s-]+)?(?:{_WORD}))*)"
    r"[\s-]+(?P<unit>dollars?|bucks?|cents?|penny|pennies|euros?|quid)\b",
    re.IGNORECASE,
)
_GLUED_CODE = re.compile(
    rf"(?<![A-Za-z0-9])(?P<unit>{'|'.join(money.CURRENCIES)})"
    r"(?P<num>\d+(?:[.,]\d+)?)(?![\d.,]*\d)(?![A-Za-z])"
)
_SCALED = re.compile(
    rf"(?:(?<![A-Za-z0-9])(?P<before>{money.PREFIX})\s?)?"
    r"(?<![\w.,])(?P<num>\d+(?:[.,]\d+)?)\s?(?P<scale>[kK]\b|thousand\b|[mM]\b|million\b|Mio\b)"
    rf"(?:\s?(?P<after>{money.SUFFIX})(?![A-Za-z]))?"
)
_GRAND = re.compile(
    rf"(?<![\w.,-])(?P<num>\d+(?:[.,]\d+)?|(?:{_WORD})(?:[\s-]+(?:and[\s-]+)?(?:{_WORD}))*)"
    r"\s+grand(?=\s*(?:$|[.,;:!?)]|(?:for|and|or|but|each|flat|less|more|to|in|at|with|"
    r"which|that|tops|max|or\s+so|today|now|only|apiece|even|all)\b))",
    re.IGNORECASE,
)
"""A thousand of the store's money, said as slang: "1 grand", "two grand for it"; not "a
grand piano"."""
_DASHED = re.compile(r"(?<![\w.,])(?P<num>\d{1,3}(?:[.']\d{3})+|\d+)[.,][-\u2013](?![\w-])")


def _words_value(words: str) -> float | None:
    total = current = 0
    for word in re.split(r"[\s-]+", words.lower()):
        if word == "and":
            continue
        if word in _ONES:
            current += _ONES[word]
        elif word in _TENS:
            current += _TENS[word]
        elif word == "hundred":
            current = max(current, 1) * 100
        elif word in _SCALES:
            total += max(current, 1) * _SCALES[word]
            current = 0
        else:
            return None
    return float(total + current)


def _quantity(
    match: re.Match[str],
    value: float,
    unit: Unit,
    *,
    rewritable: bool = True,
    decimals: int = 0,
    decimal_sep: str | None = None,
) -> Quantity:
    return Quantity(
        kind="price",
        value=value,
        unit=unit,
        start=match.start(),
        end=match.end(),
        num_start=match.start("num"),
        num_end=match.end("num"),
        decimals=decimals,
        decimal_sep=decimal_sep,
        group_sep=None,
        rewritable=rewritable,
    )


def other_prices(view: str, store: str = money.DEFAULT_CURRENCY) -> list[Quantity]:
    """The prices in ``view`` written in the notations of the module docstring."""
    found: list[Quantity] = []
    for match in _IN_WORDS.finditer(view):
        value = _words_value(match["num"])
        word = match["unit"].lower().rstrip("s")
        word = "penny" if word.startswith("penn") else word
        symbol, factor = _CURRENCY_WORDS[word]
        if value is not None:
            found.append(_quantity(match, value * factor, Unit(symbol, 1.0, 2), rewritable=False))
    for match in _GLUED_CODE.finditer(view):
        value, decimals, decimal_sep, _ = parse_number(match["num"], fractional=True)
        unit = Unit(match["unit"], 1.0, 2)
        found.append(_quantity(match, value, unit, decimals=decimals, decimal_sep=decimal_sep))
    for match in _SCALED.finditer(view):
        written = match["before"] or match["after"]
        if written is None:
            continue  # "16k" alone is a resolution or a count, not a price
        value, *_ = parse_number(match["num"], fractional=True)
        scale = 1000 if match["scale"][0] in "kKt" else 1_000_000
        found.append(_quantity(match, value * scale, Unit(written, 1.0, 2), rewritable=False))
    for match in _GRAND.finditer(view):
        number = match["num"]
        value = (
            parse_number(number, fractional=True)[0]
            if number[0].isdigit()
            else _words_value(number)
        )
        if value is not None:
            unit = Unit(money.sign(store), 1.0, 2)
            found.append(_quantity(match, value * 1000, unit, rewritable=False))
    for match in _DASHED.finditer(view):
        value, *_ = parse_number(match["num"], fractional=False)
        found.append(_quantity(match, value, Unit(money.sign(store), 1.0, 0)))
    return found
