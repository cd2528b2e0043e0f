"""Money as an answer writes it, in any currency's notation, and the store's currency.

The catalog's prices are numbers in one currency: the store's (``STORE_CURRENCY``,
US dollars unless set). An answer may write an amount with a symbol before or after
it (``$299``, ``€299``, ``299 €``, ``£299``, ``1.299,00 €``), an ISO code (``USD 299``,
``299 EUR``, ``CHF 299``) or a word after it (``299 dollars``, ``299 Euro``,
``299 francs suisses``, ``299円``). :data:`CURRENCIES` (:mod:`shared.products.currency`) lists
the notations of each currency the fact check knows; a symbol several of them write
(``$``, ``¥``, ``kr``) is the store's when the store's currency writes it, else the
first one's listed.

"Pounds" alone is a weight (``3 pounds``); sterling is ``£``, ``GBP`` or "pounds sterling".
"""

from __future__ import annotations

import re
from typing import Final, Literal

# Read here as money.CURRENCIES and money.DEFAULT_CURRENCY by the fact check.
from shared.products.currency import CURRENCIES as CURRENCIES
from shared.products.currency import DEFAULT_CURRENCY as DEFAULT_CURRENCY
from shared.products.currency import amount as amount
from shared.products.currency import sign

Notation = Literal["symbol", "code", "word"]


def _alternatives(texts: list[str]) -> str:
    return "|".join(sorted(texts, key=len, reverse=True))


_SYMBOLS: Final = sorted({s for c in CURRENCIES.values() for s in c.symbols}, key=len)
_CODES: Final = sorted(CURRENCIES)
PREFIX: Final = _alternatives([re.escape(s) for s in _SYMBOLS] + _CODES)
"""What may stand before an amount: a symbol or an ISO code."""
SUFFIX: Final = _alternatives(
    [re.escape(s) for s in _SYMBOLS]
    + [c.code for c in CURRENCIES.values() if c.code_after]
    + [w for c in CURRENCIES.values() for w in c.words]
)
"""What may stand after an amount: a symbol, an ISO code or a word."""


def notation_of(written: str) -> Notation:
    if written in CURRENCIES:
        return "code"
    return "symbol" if written in _SYMBOLS else "word"


def currency_of(written: str, store: str) -> str:
    """The ISO code of the currency ``written`` (a symbol, code or word) stands for."""
    if written in CURRENCIES:
        return written
    candidates = [c.code for c in CURRENCIES.values() if written in c.symbols]
    if not candidates:
        candidates = [
            c.code for c in CURRENCIES.values() if any(re.fullmatch(w, written) for w in c.words)
        ]
    if store in candidates:
        return store
    return candidates[0] if candidates else store


def written_as(store: str, notation: Notation) -> str:
    """How the store's currency is written in place of another's: a symbol for a symbol
    (its code when it has none), its code for a code or a word (a code reads the same
    in every language)."""
    return sign(store) if notation == "symbol" else CURRENCIES[store].code
