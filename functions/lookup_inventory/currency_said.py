"""The currency a shopper wrote an amount in, when it is not the store's.

The search reads "under €600" as a price limit of 600 in the store's currency: it
converts nothing, and the model must not say "under $600" as if the shopper had said
it. :func:`foreign_currency` finds an amount in the keywords marked with another
currency than the store's (a symbol, a code, a word: "€600", "600 EUR", "500 euros",
"800 CHF", "£400"), so that the result can tell the model. A mark the store's currency
shares is the store's: "$" in a store priced in US, Canadian or Australian dollars,
"¥" in one priced in yen or yuan, "dollars" in any store writing "$". An amount with no
mark is in the store's currency.

A marked number counts only when it is a price limit the search read (``limits``): "CAD
3D modelling", "CAD 2024 under $900", "HP 15 DKK" or "the 100 yen shop" name no amount
the shopper asked to pay, and the model must not be told they did.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable

from shared.products.currency import CURRENCIES

_NUMBER = r"(?P<amount>\d+(?:[.,'\u00a0 ]\d{3})*(?:[.,]\d+)?(?:\s?[kK]\b)?)"
_DOLLAR_WORDS = re.compile(r"(?i:dollars?|bucks)")
"""Words that name any dollar: the store's own in a store writing "$"."""


@functools.cache
def _marks() -> tuple[re.Pattern[str], re.Pattern[str], list[tuple[str, re.Pattern[str]]]]:
    """A mark before an amount, one after it, and each currency's marks to tell which."""
    before: set[str] = set()
    after: set[str] = set()
    each: list[tuple[str, re.Pattern[str]]] = []
    for currency in CURRENCIES.values():
        symbols = [re.escape(s) for s in currency.symbols]
        words = list(currency.words)
        code = re.escape(currency.code)
        before.update([*symbols, code])
        after.update([*symbols, *words, *([code] if currency.code_after else [])])
        own = "|".join([*symbols, *words, code])
        each.append((currency.code, re.compile(rf"(?:{own})\Z", re.IGNORECASE)))

    def ordered(marks: set[str]) -> str:
        return "|".join(sorted(marks, key=len, reverse=True))  # the longest first: "US$"

    # A mark in Latin letters is a word of its own: "EUR", not the start of "EURO"; "600円で"
    # is an amount in yen.
    edge = r"(?<![A-Za-z])"
    end = r"(?![A-Za-z])"
    first = re.compile(rf"{edge}(?P<mark>{ordered(before)})\s?{_NUMBER}", re.IGNORECASE)
    last = re.compile(rf"{_NUMBER}\s?(?P<mark>{ordered(after)}){end}", re.IGNORECASE)
    return first, last, each


def _codes(mark: str) -> list[str]:
    """The currencies ``mark`` may be, in :data:`CURRENCIES`' order (US dollars first)."""
    _, _, each = _marks()
    codes = [code for code, pattern in each if pattern.fullmatch(mark)]
    if _DOLLAR_WORDS.fullmatch(mark):
        codes += [code for code, c in CURRENCIES.items() if "$" in c.symbols]
    return list(dict.fromkeys(codes))


def _values(amount: str) -> set[float]:
    """What a written amount may be worth: "1,200" 1200, "1.5k" 1500, "1.200" 1200 or 1.2."""
    text = amount.replace(" ", "").replace("\u00a0", "")
    scale = 1000.0 if text[-1:] in "kK" else 1.0
    text = text.rstrip("kK")
    values = {float(re.sub(r"\D", "", text)) * scale}
    if separator := re.search(r"[.,'](?=\d+\Z)", text):  # the last one may be a decimal point
        whole = re.sub(r"\D", "", text[: separator.start()]) or "0"
        values.add(float(f"{whole}.{text[separator.end() :]}") * scale)
    return values


def foreign_currency(
    text: str | None, store: str, limits: Iterable[float] | None = None
) -> str | None:
    """The ISO code of the first currency other than ``store`` that an amount in ``text``
    is marked with ("a laptop under €600" in a store priced in USD: ``"EUR"``), else None.

    With ``limits`` (the price limits the search read), only an amount equal to one of
    them counts, and none when there is none: "a laptop for CAD 2024 under $900" read
    as under 900 names no Canadian dollars.
    """
    if not text:
        return None
    read = None if limits is None else [float(limit) for limit in limits]
    if read is not None and not read:
        return None
    first, last, _ = _marks()
    marked = sorted(
        (match.start(), match.group("mark"), match.group("amount"))
        for pattern in (first, last)
        for match in pattern.finditer(text)
    )
    for _, mark, amount in marked:
        codes = _codes(mark)
        if not codes or store in codes:
            continue
        if read is None or any(abs(v - r) < 0.01 for v in _values(amount) for r in read):
            return codes[0]
    return None
