"""Numbers with units, as an answer writes them in the languages the patterns know.

The patterns are keyed on units and number formats, not on a language's grammar:
``$349``, ``349 dollars``, ``EUR 299``, ``1.299,00 €``, ``349ドル``, ``1.4 kg``,
``1,4 kg``, ``1400 g``, ``3.1 lb``, ``14-inch``, ``14 Zoll``, ``14インチ``, ``4800万画素``.
Each :class:`Quantity` holds its value in one canonical unit per kind (GB, kg, hours,
mAh, inches, megapixels, pages; a price in the currency it is written in, which its
unit's name spells: :mod:`compose_response.money`), the span of its number and of
its whole text, and how the number was written, so that a corrected value can be
written back in the same unit and the same style.

A number is read only when it stands alone: ``i5-1335U``, ``S24`` and ``Wi-Fi 6`` are
not quantities, nor is an amount with a multiplier (``$1.2k``) or a rate (``$15/month``).
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from compose_response import money
from shared.catalog.derive import facts

Kind = str
"""A quantity's kind: ``price``, ``data``, ``weight``, ``mp``, or the kind of a spec's fact
whose unit the catalog's vocabulary spells (``hours``, ``mah``, ``inches``, ``pages``...)."""

_FULLWIDTH: Final = {code: code - 0xFEE0 for code in range(0xFF01, 0xFF5F)}


def halfwidth(text: str) -> str:
    """``text`` with full-width ASCII (as Japanese text may write 1.4kg) as plain ASCII.

    Same length, so offsets found in the result are offsets in ``text``.
    """
    return text.translate(_FULLWIDTH)


_TO_FULLWIDTH: Final = {code - 0xFEE0: code for code in range(0xFF01, 0xFF5F)}


def same_width(new: str, original: str) -> str:
    """``new`` in full-width characters when ``original`` was written in them."""
    full = any(0xFF10 <= ord(c) <= 0xFF19 for c in original)
    return new.translate(_TO_FULLWIDTH) if full else new


_GROUPING = ",.\u00a0\u202f\u2009'"
# Not part of a longer token: a model number (i5-1335U, S24) or another number. Letters of
# other scripts may touch a number ("重さは1.1kg").
_STANDALONE = r"(?<![A-Za-z0-9_.,])(?<!\d)"
# A number with thousands groups (1,299.00 / 1.299,00 / 1 299 with a no-break space) or
# a plain one (349 / 1.4 / 1,4). A plain space never groups: "iPhone 16 128 GB" is two numbers.
_NUMBER_CORE = (
    rf"(?P<num>\d{{1,3}}(?:[{_GROUPING}]\d{{3}})+(?:[.,]\d+)?|\d+(?:[.,]\d+)?)(?![.,]?\d)"
)
_NUMBER = _STANDALONE + r"(?<![A-Za-z0-9]-)" + _NUMBER_CORE
_GAP = r"(?P<gap>[ \u00a0\u202f\u2009]?-?[ \u00a0\u202f\u2009]?)"
_NOT_LETTER = r"(?![A-Za-z\u00c0-\u024f])"
# Not read as a quantity: a multiplier or a rate right after the unit.
_SCALED_OR_RATE = re.compile(
    r"\s?(?:[kKmM]\b|thousand|million|Tausend|Mio|千|万(?!画素|像素)|/|per\b|pro\b|a month|"
    r"each month|monthly|im Monat)"
)


@dataclass(frozen=True)
class Unit:
    name: str
    """How the answer spelled the unit (``kg``, ``Zoll``, ``ドル``)."""
    factor: float
    """Canonical units per one of this unit."""
    decimals: int
    """Decimals a rewritten value in this unit gets at most."""


@dataclass(frozen=True)
class Quantity:
    kind: Kind
    value: float
    """In the kind's canonical unit (see the module docstring)."""
    unit: Unit
    start: int
    end: int
    num_start: int
    num_end: int
    decimals: int
    """Decimals the answer wrote (``1.40`` has 2)."""
    decimal_sep: str | None
    group_sep: str | None
    rewritable: bool = True
    """False for a notation a corrected value cannot be written in ("one dollar", "$1k"):
    a wrong one removes its sentence (:mod:`compose_response.amounts`)."""

    @property
    def whole_number(self) -> bool:
        return self.decimals == 0


def parse_number(raw: str, *, fractional: bool) -> tuple[float, int, str | None, str | None]:
    """``raw`` read as a number: (value, decimals written, decimal separator, group separator).

    One separator followed by exactly three digits groups thousands (``1,299``,
    ``1.299``), except in a unit that is naturally fractional (``1,400 kg`` is 1.4 kg).
    """
    digits = "".join(str(int(c)) if c.isdecimal() else c for c in raw)
    seps = [c for c in digits if not c.isdecimal()]
    decimal: str | None = None
    group: str | None = None
    if len(set(seps)) > 1:
        decimal, group = seps[-1], seps[0]
    elif len(seps) > 1:
        group = seps[0]
    elif seps:
        after = len(digits) - digits.rindex(seps[0]) - 1
        if seps[0] in ",." and (after != 3 or fractional):
            decimal = seps[0]
        else:
            group = seps[0]
    if group:
        digits = digits.replace(group, "")
    decimals = 0
    if decimal:
        decimals = len(digits) - digits.rindex(decimal) - 1
        digits = digits.replace(decimal, ".")
    return float(digits), decimals, decimal, group


def format_number(
    value: float, *, decimals: int, decimal_sep: str = ".", group_sep: str | None = None
) -> str:
    """``value`` with at most ``decimals`` decimals, trailing zeros dropped (``1.4``, ``14``)."""
    text = f"{value:,.{decimals}f}" if group_sep else f"{value:.{decimals}f}"
    if "." in text:
        text = text.rstrip("0").rstrip(".")
    return _separators(text, decimal_sep, group_sep)


def format_exact(
    value: float, *, decimals: int, decimal_sep: str = ".", group_sep: str | None = None
) -> str:
    """``value`` with exactly ``decimals`` decimals (prices: ``349.00``)."""
    text = f"{value:,.{decimals}f}" if group_sep else f"{value:.{decimals}f}"
    return _separators(text, decimal_sep, group_sep)


def _separators(text: str, decimal_sep: str, group_sep: str | None) -> str:
    return text.replace(",", "\0").replace(".", decimal_sep).replace("\0", group_sep or "")


# -- the units ------------------------------------------------------------------------------

_POUND = 0.45359237
_OUNCE = 0.028349523125


def _units(*spellings: tuple[str, float, int]) -> dict[str, Unit]:
    return {name: Unit(name, factor, decimals) for name, factor, decimals in spellings}


_WEIGHT_UNITS: Final = {
    **_units(("kg", 1.0, 2), ("g", 0.001, 0), ("lb", _POUND, 1), ("oz", _OUNCE, 1)),
}
_WEIGHT_ALIASES: Final = {
    "kg": r"[kK][gG]s?|kilograms?|Kilogramm|kilos?|キログラム|キロ(?!メートル|ワット)|㎏|公斤|千克",
    "g": r"g|grams?|Gramm|グラム|㌘|克",
    "lb": r"lbs?|pounds?|Pfund|ポンド",
    "oz": r"oz|ounces?|Unzen|オンス",
}
_DATA_ALIASES: Final = {
    "TB": r"TB|Tb|tb|TByte|[Tt]erabytes?|[Tt]eras?|テラバイト|テラ",
    "GB": r"GB|Gb|gb|GByte|[Gg]igabytes?|[Gg]igs?|ギガバイト|ギガ",
}
_SIMPLE: Final[dict[Kind, tuple[str, Unit, bool]]] = {
    # kind: (unit pattern, unit, naturally fractional)
    spec.fact.kind: (unit.pattern, Unit(unit.name, 1.0, unit.decimals), unit.fractional)
    for spec in facts()
    if spec.fact is not None and (unit := spec.fact.unit) is not None
}
_MP_UNITS: Final = {
    "MP": (r"MP|Mpx|MPix|[Mm]egapixels?|[Mm]ega-?[Pp]ixel|メガピクセル|百万像素", 1.0),
    "万画素": (r"万画素|萬畫素|万像素", 0.01),
}
# "349,- €" (also with a dash), "CHF 349.-": a whole amount, as German and Swiss prices are
# written.
_WHOLE_MARK = r"(?P<whole>[.,][-\u2013])?"


def _compile(unit: str, *, before_gap: str = "") -> re.Pattern[str]:
    return re.compile(_NUMBER + before_gap + _GAP + rf"(?P<unit>{unit}){_NOT_LETTER}(?![0-9])")


# A symbol or code right after a letter is part of another ("A$" is not "$").
_PRICE_BEFORE = re.compile(
    rf"(?<![A-Za-z0-9$])(?P<unit>{money.PREFIX})"
    + _GAP
    + _STANDALONE
    + _NUMBER_CORE
    + _WHOLE_MARK
    + r"(?![A-Za-z])"  # "CAD 3D" is no price
)
_PRICE_AFTER = _compile(money.SUFFIX, before_gap=_WHOLE_MARK)
# French groups thousands with a plain space ("1 299 €"), which nothing else may do.
_PRICE_SPACED = re.compile(
    _STANDALONE
    + r"(?P<num>\d{1,3}(?: \d{3})+(?:[.,]\d{1,2})?)(?![.,]?\d)"
    + _WHOLE_MARK
    + _GAP
    + rf"(?P<unit>{money.SUFFIX}){_NOT_LETTER}(?![0-9])"
)
_WEIGHT = {name: _compile(pattern) for name, pattern in _WEIGHT_ALIASES.items()}
_DATA = {name: _compile(pattern) for name, pattern in _DATA_ALIASES.items()}
_SIMPLE_PATTERNS = {kind: _compile(pattern) for kind, (pattern, _, _) in _SIMPLE.items()}
_MP = {name: _compile(pattern) for name, (pattern, _) in _MP_UNITS.items()}
# 14" and 6.1″: only right after the digits, and not a closing quote of a quoted number.
_INCH_MARK = re.compile(
    r"(?<![\"\u201c\u201d\u2033])" + _NUMBER + r"(?P<gap>)(?P<unit>[\"\u201d\u2033])"
)

DATA_FACTORS: Final = {"GB": 1.0, "TB": 1024.0}
"""GB per unit; a TB is also accepted as 1000 GB when values are compared."""


def _quantity(match: re.Match[str], kind: Kind, unit: Unit, *, fractional: bool) -> Quantity:
    value, decimals, decimal_sep, group_sep = parse_number(match["num"], fractional=fractional)
    return Quantity(
        kind=kind,
        value=value * unit.factor,
        unit=unit,
        start=match.start(),
        end=match.end(),
        num_start=match.start("num"),
        num_end=match.end("num"),
        decimals=decimals,
        decimal_sep=decimal_sep,
        group_sep=group_sep,
    )


def _part_of_a_name(view: str, match: re.Match[str], names: Sequence[str]) -> bool:
    """Whether the first digits of a space-grouped amount end a product's name
    ("Pixel 9 799 €" is the Pixel 9 at 799, not 9,799)."""
    before = re.search(r"(\S+)\s+$", view[: match.start()])
    if before is None:
        return False
    words = f"{before[1]} {match['num'].split(' ')[0]}".casefold()
    return any(words in name.casefold() for name in names)


def quantities(text: str, names: Sequence[str] = ()) -> list[Quantity]:
    """Every quantity in ``text``, left to right, none overlapping (the longest wins).

    ``names`` are the names of the products the text is about: a number in one is not
    the start of a price.
    """
    view = halfwidth(text)
    found: list[Quantity] = []
    for pattern in (_PRICE_BEFORE, _PRICE_AFTER, _PRICE_SPACED):
        for match in pattern.finditer(view):
            if _SCALED_OR_RATE.match(view, match.end()):
                continue
            if pattern is _PRICE_SPACED and _part_of_a_name(view, match, names):
                continue
            unit = Unit(match["unit"], 1.0, 2)
            found.append(_quantity(match, "price", unit, fractional=False))
    for name, pattern in _WEIGHT.items():
        unit = _WEIGHT_UNITS[name]
        for match in pattern.finditer(view):
            if name == "g" and match["num"].startswith("802.11"):
                continue  # Wi-Fi 802.11g
            found.append(_quantity(match, "weight", unit, fractional=name != "g"))
    for name, pattern in _DATA.items():
        unit = Unit(name, DATA_FACTORS[name], 0)
        for match in pattern.finditer(view):
            found.append(_quantity(match, "data", unit, fractional=name == "TB"))
    for kind, pattern in _SIMPLE_PATTERNS.items():
        _, unit, fractional = _SIMPLE[kind]
        for match in pattern.finditer(view):
            found.append(_quantity(match, kind, unit, fractional=fractional))
    for match in _INCH_MARK.finditer(view):
        found.append(_quantity(match, "inches", _SIMPLE["inches"][1], fractional=True))
    for name, pattern in _MP.items():
        unit = Unit(name, _MP_UNITS[name][1], 0)
        for match in pattern.finditer(view):
            found.append(_quantity(match, "mp", unit, fractional=True))
    found = [q for q in found if _plausible(q)]
    found.sort(key=lambda q: (q.start, -(q.end - q.start)))
    kept: list[Quantity] = []
    for quantity in found:
        if kept and quantity.start < kept[-1].end:
            continue
        kept.append(quantity)
    return kept


_PLAUSIBLE: Final[dict[Kind, tuple[float, float]]] = {
    "price": (0.0, 1e7),
    "data": (1.0, 65536.0),
    "weight": (0.01, 500.0),
    "mp": (0.3, 1000.0),
    **{
        spec.fact.kind: unit.plausible
        for spec in facts()
        if spec.fact is not None and (unit := spec.fact.unit) is not None
    },
}


def _plausible(quantity: Quantity) -> bool:
    low, high = _PLAUSIBLE[quantity.kind]
    return low <= quantity.value <= high and math.isfinite(quantity.value)
