"""The amounts a shopper puts on a spec, read as the catalog tool's bounds.

"16GB RAM" is a least, "2 kg" a most and "a 15-inch laptop" a size class (15 up to
15.99): each spec's phrases (``shared.catalog.specs``) say which, and a direction word
before or after the amount overrides it ("a screen of at least 6.7 inches", "6.1 inches
or less", "8GB RAM max"). The amounts are read by each spec's phrases, in table order,
each followed by the few ways a conversation writes it that the phrases do not
(:data:`SAID`: "RAM: 32GB", "5000 mAh"), and then amounts with nothing but their unit
(:data:`ALONE`: "2 TB", "256 GB", "2 kg"). A match is blanked out, so "512GB SSD" is
storage before a bare "GB" can be read as memory, and "under 1300 grams" is a weight
before it can be read as a price. A spec added to the table with a bound and a phrase
is read here with no edit.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass
from typing import Final

from shared.catalog.derive import phrases as spec_phrases
from shared.catalog.spec import Spec
from shared.catalog.specs import (
    BATTERY_HOURS,
    BATTERY_MAH,
    RAM_GB,
    SCREEN_INCHES,
    SPECS,
    STORAGE_GB,
    WEIGHT_KG,
)

# The words that give an amount its direction ("under $500", "at least 16GB"), longest
# first where one starts another: the price's and every spec's.
AT_MOST: Final[tuple[str, ...]] = (
    "for less than", "no more than", "not more than", "not over", "not above",
    "less then", "lesser than", "cheaper then", "no more then",
    "not exceeding", "no higher than", "not higher than", "no more expensive than",
    "not more expensive than",
    "no bigger than", "not bigger than", "no larger than", "not larger than",
    "no heavier than", "not heavier than", "cheaper than", "lighter than",
    "smaller than", "less than", "under", "below", "maximum", "max", "up to", "at most",
    "within", "spending up to", "spend up to", "spending", "spend", "budget is",
    "budget of", "budget",
)  # fmt: skip
AT_LEAST: Final[tuple[str, ...]] = (
    "not under", "not below", "not less than",
    "no cheaper than", "not cheaper than", "no smaller than", "not smaller than",
    "no lighter than", "not lighter than",
    "more than", "more then", "greater than", "bigger than", "larger than", "longer than",
    "no less than", "at least", "starting at", "minimum", "min", "over", "above",
)  # fmt: skip
AROUND: Final[tuple[str, ...]] = ("approximately", "roughly", "around", "about")


def one_of(phrases: tuple[str, ...]) -> str:
    """A regular expression matching any of ``phrases`` as whole words."""
    return "(?:" + "|".join(re.escape(phrase) for phrase in phrases) + r")\b"


_I = re.IGNORECASE
_N = r"(\d+(?:\.\d+)?)"
_LEAST = rf"{one_of(AT_LEAST)}|>=?"
_MOST = rf"{one_of(AT_MOST)}|{one_of(AROUND)}|<=?"
_BEFORE = rf"(?:\b|(?=[<>]))(?<!\bpro\s)(?P<before>{_LEAST}|{_MOST})\s*:?\s*(?:of\s+)?"
"""A direction word before an amount; not "Max" of a "Pro Max" ("Pro Max 256GB")."""
_AFTER = (
    r"\s*(?P<after>\+|or (?:more|higher|bigger|larger|above|over|less|lower|smaller|under|below)"
    r"|and (?:up|above)|max\b(?!\s*(?:[$£€]?\s*\d|budget|price))|min\b(?!\s*[$£€]?\s*\d)|tops\b)"
)
_LEAST_AFTER = re.compile(r"\+|more|higher|bigger|larger|above|over|up|min", _I)
_INNER = rf"(?:of\s+|:\s*)?(?:{_BEFORE.replace('P<before>', 'P<inner>')})?"
_HOURS = r"(?:hours?|hrs?|h)\b"

# The ways a conversation writes an amount beyond the specs' phrases: a regular
# expression whose first unnamed group is the number and second, when there is one, its
# unit. SAID is read right after the spec's own phrases, ALONE once every spec's are.
SAID: Final[tuple[tuple[Spec, str], ...]] = (
    (RAM_GB, rf"\b(?:ram|memory)\s*{_INNER}{_N}\s*gb\b"),
    (STORAGE_GB, rf"\b(?:storage|ssd)\s*{_INNER}{_N}\s*(gb|tb)\b"),
    (BATTERY_HOURS, rf"{_N}\s*\+?\s*{_HOURS}\s*(?:of\s+)?battery(?:\s+life)?"),
    (
        BATTERY_HOURS,
        rf"\bbattery(?:\s+life)?\s*(?:that lasts\s+|lasting\s+)?{_INNER}{_N}\s*{_HOURS}",
    ),
    (BATTERY_MAH, rf"{_N}\s*mah\b"),
    (SCREEN_INCHES, rf"\b(?:screen|display)\s*{_INNER}{_N}\s*-?\s*(?:inch(?:es)?\b|\"|″)"),
)
ALONE: Final[tuple[tuple[Spec, str], ...]] = (
    (STORAGE_GB, rf"{_N}\s*(tb)\b"),
    # A bare GB amount: memory comes in tens of GB, storage in hundreds.
    (STORAGE_GB, r"([1-9]\d{2,})\s*gb\b"),
    (RAM_GB, rf"{_N}\s*gb\b"),
    (WEIGHT_KG, rf"{_N}\s*(kg|kilos?|kilograms?|lbs?|pounds?|grams?|g)\b"),
)


_UNITS_SAID: Final = re.compile(r"(\d)\s*(gigs?|gigabytes?|terabytes?|teras?)\b", re.IGNORECASE)
"""Gigabytes and terabytes said in words ("16 gigs", "1 terabyte"), read as GB and TB."""


@dataclass(frozen=True)
class _Reading:
    spec: Spec
    pattern: re.Pattern[str]
    way: str
    """Which way an amount with no direction word goes: "least", "most" or "class"."""
    number: int
    unit: int | None
    """The groups of the number and its unit."""


def _bare(spec: Spec) -> str:
    least = any(b.at_least for b in spec.bounds)
    most = any(not b.at_least for b in spec.bounds)
    return "class" if least and most else "least" if least else "most"


def _reading(spec: Spec, said: str, way: str | None = None) -> _Reading:
    pattern = re.compile(rf"(?:{_BEFORE})?{said}(?:{_AFTER})?", _I)
    named = set(pattern.groupindex.values())
    number, *unit = (g for g in range(1, pattern.groups + 1) if g not in named)
    return _Reading(spec, pattern, way or _bare(spec), number, unit[0] if unit else None)


@functools.cache
def _readings() -> tuple[_Reading, ...]:
    """Each spec's phrases and then what :data:`SAID` adds for it, in table order, then
    :data:`ALONE`."""
    phrased = [(spec, p.pattern, p.way) for spec, p in spec_phrases() if spec.bounds]
    said = [
        reading
        for spec in SPECS
        if spec.bounds
        for reading in (
            *(r for r in phrased if r[0] is spec),
            *((s, p, None) for s, p in SAID if s is spec),
        )
    ]
    return tuple(_reading(*reading) for reading in (*said, *((s, p, None) for s, p in ALONE)))


def _factor(units: dict[str, float], unit: str) -> float | None:
    """The factor of ``unit`` as written ("pound" for "pounds"); None for one the spec
    does not name, which is its own unit ("kilos")."""
    for spelling in (unit, unit.removesuffix("s"), unit + "s"):
        if spelling in units:
            return units[spelling]
    return None


def _amount(reading: _Reading, match: re.Match[str]) -> float | None:
    """The amount in the spec's unit, or None where the words are not that spec."""
    amount = float(match[reading.number])
    unit = (match[reading.unit] or "").lower() if reading.unit else ""
    if reading.spec is WEIGHT_KG:
        if unit.startswith("g") and amount < 50:
            return None  # "5G" is a network, not 5 grams
        if unit.startswith(("lb", "pound")) and amount > 20:
            return None  # "500 pounds" is money
    units = dict(reading.spec.facet.units) if reading.spec.facet else {}
    factor = _factor(units, unit) if unit else None
    return amount if factor is None or factor == 1 else round(amount * factor, 3)


def _way(match: re.Match[str], bare: str) -> str:
    if before := match["before"] or match.groupdict().get("inner"):
        return "least" if re.fullmatch(_LEAST, before, _I) else "most"
    if after := match["after"]:
        return "least" if _LEAST_AFTER.search(after) else "most"
    return bare


def _store(spec: Spec, amount: float, way: str, found: dict[str, float]) -> None:
    least = next((b.name for b in spec.bounds if b.at_least), None)
    most = next((b.name for b in spec.bounds if not b.at_least), None)
    # The first amount said of a spec stands: a follow-up's words come before the earlier
    # messages' ("with 32 GB . laptops with 16 GB RAM" is 32 GB).
    if way == "class" and least and most:
        if least not in found and most not in found:
            whole = float(amount).is_integer()
            found[least] = amount if whole else round(amount - 0.05, 2)
            found[most] = amount + 0.99 if whole else round(amount + 0.05, 2)
        return
    # A way the spec has no bound for is not read the other way: "less than 16GB RAM" is
    # no "at least 16GB" (the tool takes no most of memory).
    field = least if way == "least" else most if way == "most" else least or most
    if field:
        found.setdefault(field, amount)


def take_amounts(text: str, found: dict[str, float]) -> str:
    """Read every spec amount of ``text`` (lower-cased) into ``found`` by bound name
    (``{"minRamGb": 16}``); the text with those amounts blanked out."""
    text = _UNITS_SAID.sub(lambda m: f"{m[1]} {'tb' if m[2][0] == 't' else 'gb'}", text)
    for reading in _readings():

        def take(match: re.Match[str], reading: _Reading = reading) -> str:
            amount = _amount(reading, match)
            if amount is None or amount <= 0:
                return match.group()
            _store(reading.spec, amount, _way(match, reading.way), found)
            return " "

        text = reading.pattern.sub(take, text)
    return text
