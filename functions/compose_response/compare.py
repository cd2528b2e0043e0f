"""Whether a ledger record agrees with a claim, and how the answer should say its value.

The tolerances are the ones :mod:`compose_response.facts` lists. A corrected value is
written in the claim's own unit and number style: "1,1 kg" becomes "1,4 kg", "$1,299"
keeps its thousands comma, "4800万画素" stays in 万画素, and a TB amount that is not a
whole number of TB becomes GB.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from typing import Any, Final

from compose_response import money
from compose_response.claims import (
    AUTHOR_KIND,
    GRAPHICS_KIND,
    OS_KIND,
    PROCESSOR_KIND,
    WordClaim,
    author_agrees,
    chip_agrees,
    chip_written,
    os_agrees,
    parse_os,
    stock_agrees,
    uncounted_agrees,
)
from compose_response.context import EARLIER_PRICE
from compose_response.units import Quantity, format_exact, format_number, same_width
from shared.catalog.derive import facts
from shared.catalog.specs import AUTHOR, OS, WEIGHT_KG
from shared.products.ledger import LedgerProduct
from shared.products.weight import DEFAULT_WEIGHT_UNIT, GRAMS_KEYS, shown

COMPARE_AT = "compareAtPrice"


@dataclass
class Claim:
    """One fact found in a sentence: a quantity with a unit, or a word claim."""

    kind: str
    """A quantity's kind (price, data, weight, ...) or a word claim's (os, author, ...)."""
    start: int
    end: int
    quantity: Quantity | None = None
    word: WordClaim | None = None
    role: str | None = None
    """For GB amounts: "ram", "storage", "other" (graphics memory), None when unsaid."""
    approx: bool = False
    """Stated as approximate ("about", "etwa", "約"): compared within 10 %."""


def as_number(value: Any) -> float | None:
    """A record's number; None for anything else (text, a bool, NaN)."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    return float(value) if math.isfinite(value) else None


UNCOUNTED: Final = "in stock, not counted"
"""The stock of a product the store sells uncounted: in stock, and no number of units."""


def record_value(record: LedgerProduct, key: str) -> Any:
    """The record's price, price before a sale or stock, or its value of spec ``key``;
    None when it has none. The stock of a product the store does not count is
    :data:`UNCOUNTED`: "in stock" is true of it, and any count is made up."""
    if key == "stock" and record.uncounted:
        return UNCOUNTED
    if key in ("price", "stock", COMPARE_AT):
        return getattr(record, key)
    return record.spec(key)


# -- which field, and does the record agree -----------------------------------------------------


def _fields() -> dict[str, tuple[str, ...]]:
    # The record fields each kind of claim states, from the catalog's vocabulary: a
    # spec's own key, then any other key a record may hold the fact under.
    fields: dict[str, tuple[str, ...]] = {"price": ("price",), "stock": ("stock",)}
    for spec in facts():
        if spec.fact is not None and spec.fact.kind != "data":
            kind = spec.fact.kind
            fields[kind] = (*fields.get(kind, ()), spec.key, *spec.fact.also)
    return fields


_FIELDS = _fields()
_MEMORY = {spec.fact.role: (spec.key,) for spec in facts("data") if spec.fact and spec.fact.role}
"""The record field a GB amount states, by the memory the answer's words name."""
MEMORY_FIELDS = tuple(key for keys in _MEMORY.values() for key in keys)
"""Every field a GB amount may state."""
_WORDS = frozenset(
    key for kind in (OS_KIND, AUTHOR_KIND, PROCESSOR_KIND, GRAPHICS_KIND) for key in _FIELDS[kind]
)
"""Fields whose value is text, not a number."""
_FACTS = {spec.key: spec.fact for spec in facts() if spec.fact is not None}
_SHOWN = {
    key: shown
    for fact_key, fact in _FACTS.items()
    for key, shown in ((fact_key, fact.shown), *fact.also.items())
}
"""What follows a record's number when the check says it (" kg", " mAh")."""


def field_of(claim: Claim, record: LedgerProduct) -> str | None:
    """The record field ``claim`` states, or None when the record cannot say."""
    if claim.kind == "price" and claim.role == EARLIER_PRICE and record.on_sale:
        # "was $999": the price before the sale. A product not on sale has one price,
        # which any price said of it is checked against.
        return COMPARE_AT
    if claim.kind == "data":
        keys: tuple[str, ...] = _MEMORY.get(claim.role or "", ())
    else:
        keys = _FIELDS[claim.kind]
    for key in keys:
        value = record_value(record, key)
        if key in _WORDS:
            if isinstance(value, str) and value.strip():
                return key
        elif value is UNCOUNTED or (
            as_number(value) is not None and not (claim.kind == "inches" and not value)
        ):
            # A screen of 0 inches is a desktop's: it has none.
            return key
    return None


def _data_values(quantity: Quantity) -> set[float]:
    """The GB an amount may mean: a TB is 1024 GB or 1000 GB."""
    amount = quantity.value / quantity.unit.factor
    if quantity.unit.name == "TB":
        return {amount * 1024, amount * 1000}
    return {amount, amount * 1024 / 1000}


def _close(said: float, record: float, tolerance: float, quantity: Quantity) -> bool:
    if abs(said - record) <= tolerance + 1e-9:
        return True
    if quantity.decimals:
        # "1.4 kg" for 1.38 kg: the record, rounded as the answer wrote it.
        in_unit = record / quantity.unit.factor
        return round(in_unit, quantity.decimals) == round(said / quantity.unit.factor, 6)
    return False


def foreign(claim: Claim, store: str) -> bool:
    """Whether ``claim`` is an amount in another currency than the store's."""
    quantity = claim.quantity
    if claim.kind != "price" or quantity is None:
        return False
    return money.currency_of(quantity.unit.name, store) != store


def agrees(claim: Claim, key: str, value: Any, store: str = money.DEFAULT_CURRENCY) -> bool:
    """Whether the record's ``value`` of ``key`` is what ``claim`` says. An amount in
    another currency than the store's never is: the catalog has no price in it."""
    if foreign(claim, store):
        return False
    if claim.word is not None:
        said = claim.word.value
        if key == "stock" and value is UNCOUNTED:
            return uncounted_agrees(said)
        if key == "stock":
            return stock_agrees(said, as_number(value) or 0)
        if key == OS.key:
            ours, theirs = parse_os(str(said)), parse_os(str(value))
            return ours is None or theirs is None or os_agrees(ours, theirs)
        if key == AUTHOR.key:
            return author_agrees(str(said), str(value))
        if claim.kind in (PROCESSOR_KIND, GRAPHICS_KIND):
            return chip_agrees(str(said), str(value))
        return said == value  # year
    quantity = claim.quantity
    record = as_number(value)
    if quantity is None or record is None:
        return True
    said_value = quantity.value
    loose = 0.1 * abs(record) if claim.approx else 0.0
    if claim.kind == "data":
        return any(abs(v - record) < 1e-6 for v in _data_values(quantity))
    if claim.kind == "weight":
        record_kg = record if key == WEIGHT_KG.key else record / 1000
        tolerance = 0.05 if key == WEIGHT_KG.key else 0.005
        loose = 0.1 * record_kg if claim.approx else 0.0
        return _close(said_value, record_kg, max(tolerance, loose), quantity)
    if claim.kind == "inches":
        if quantity.whole_number and said_value in (math.floor(record), round(record)):
            return True
        return _close(said_value, record, max(0.05, loose), quantity)
    if claim.kind == "mp":
        return round(said_value) == round(record)
    if claim.kind == "price":
        tolerance = max(0.5, 0.005 * record)
    else:
        fact = _FACTS[key]
        tolerance = max(fact.absolute, fact.relative * abs(record))
    return _close(said_value, record, max(tolerance, loose), quantity)


# -- what the record says, and how the answer should say it --------------------------------------


def display(
    key: str,
    value: Any,
    store: str = money.DEFAULT_CURRENCY,
    weight_unit: str = DEFAULT_WEIGHT_UNIT,
) -> str:
    """The record's value as a shopper reads it ("$349.00", "1.4 kg", "1 TB"): a weight
    rounded, in the store's ``weight_unit`` ("1.18 kg", "2.6 lb")."""
    number = as_number(value)
    if value is UNCOUNTED:
        return "in stock (no count: the store does not count it)"
    if number is None:
        return str(value)
    if key in ("price", COMPARE_AT):
        return money.amount(number, store)
    if key == WEIGHT_KG.key or key in GRAMS_KEYS:
        light = key in GRAMS_KEYS
        return shown(number / 1000 if light else number, weight_unit, light=light)
    if key == "stock":
        return f"in stock ({number:,.0f})" if number > 0 else "out of stock"
    if key in MEMORY_FIELDS:
        if number >= 1024 and number % 1024 == 0:
            return f"{number / 1024:g} TB"
        return f"{number:g} GB"
    fact = _FACTS.get(key)
    grouped = fact is not None and fact.grouped
    return f"{number:,.0f}{_SHOWN[key]}" if grouped else f"{number:g}{_SHOWN[key]}"


@dataclass(frozen=True)
class Style:
    decimal_sep: str
    group_sep: str


def answer_style(answer: str) -> Style:
    """How the answer writes numbers it gave no decimals to: 1,4 or 1.4."""
    comma = re.search(r"\d,\d{1,2}(?!\d)", answer) and not re.search(r"\d\.\d{1,2}(?!\d)", answer)
    return Style(",", ".") if comma else Style(".", ",")


def _in_store_currency(quantity: Quantity, head: str, tail: str, store: str) -> tuple[str, str]:
    """``head`` and ``tail`` of an amount in another currency, in the store's notation of
    the same kind: "€299" becomes "$349", "299 €" "349 $", "EUR 299" "USD 349"."""
    written = quantity.unit.name
    new = money.written_as(store, money.notation_of(written))
    space = " " if new == money.CURRENCIES[store].code else ""  # "USD 349", not "USD349"
    if quantity.start < quantity.num_start:  # written before the number
        return new + (head[len(written) :] or space), tail
    gap = tail[: len(tail) - len(written)]
    return head, (gap or space) + new


def _price(
    quantity: Quantity, record: float, segment: str, style: Style, store: str
) -> tuple[str, str, str]:
    head = segment[quantity.start : quantity.num_start]
    tail = segment[quantity.num_end : quantity.end]
    currency = money.CURRENCIES[store]
    decimals = min(quantity.decimals, currency.decimals) or (
        0 if record.is_integer() else currency.decimals
    )
    if decimals:
        tail = re.sub(r"^[.,][-\u2013]", "", tail)  # "349,- €" says only a whole amount
    group = quantity.group_sep or (style.group_sep if record >= 1000 else None)
    decimal_sep = quantity.decimal_sep or style.decimal_sep
    number = format_exact(record, decimals=decimals, decimal_sep=decimal_sep, group_sep=group)
    if money.currency_of(quantity.unit.name, store) != store:
        head, tail = _in_store_currency(quantity, head, tail, store)
    return head, number, tail


def rewrite(
    claim: Claim,
    key: str,
    value: Any,
    segment: str,
    style: Style,
    store: str = money.DEFAULT_CURRENCY,
) -> str | None:
    """The claim's text with the record's value, or None when only removal will do. A
    price is written in the store's currency, in the notation the answer used."""
    if claim.word is not None:
        if claim.kind in (PROCESSOR_KIND, GRAPHICS_KIND):
            return chip_written(str(claim.word.value), str(value), segment[claim.end :])
        return None if key == "stock" else str(value)
    quantity = claim.quantity
    record = as_number(value)
    if quantity is None or record is None or not quantity.rewritable:
        return None
    head = segment[quantity.start : quantity.num_start]
    tail = segment[quantity.num_end : quantity.end]
    decimal_sep = quantity.decimal_sep or style.decimal_sep
    if claim.kind == "price":
        head, number, tail = _price(quantity, record, segment, style, store)
    elif claim.kind == "data" and quantity.unit.name == "TB":
        whole = [record / per_tb for per_tb in (1024, 1000) if record % per_tb == 0]
        number = format_number(whole[0] if whole else record, decimals=0)
        if not whole:  # not a whole number of TB: say it in GB
            gap = re.match(r"[\s\u00a0\u202f\u2009-]*", tail)
            tail = (gap[0] if gap else " ") + "GB"
    else:
        canonical = record / 1000 if key == "weightG" else record
        in_unit = canonical / quantity.unit.factor
        decimals = max(quantity.decimals, 0 if in_unit.is_integer() else quantity.unit.decimals)
        number = format_number(
            in_unit,
            decimals=min(decimals, quantity.unit.decimals),
            decimal_sep=decimal_sep,
            group_sep=quantity.group_sep,
        )
    original = segment[quantity.num_start : quantity.num_end]
    return head + same_width(number, original) + tail
