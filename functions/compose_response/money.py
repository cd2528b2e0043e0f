"""Money as an answer writes it, in any currency's notation, and the store's currency.

The catalog's prices are numbers in one currency: the store's (``STORE_CURRENCY``,
US dollars unless set). An answer may write an amount with a symbol before or after
it (``$299``, ``€299``, ``299 €``, ``£299``, ``1.299,00 €``), an ISO code (``USD 299``,
``299 EUR``, ``CHF 299``) or a word after it (``299 dollars``, ``299 Euro``,
``299 francs suisses``, ``299円``). :data:`CURRENCIES` lists the notations of each
currency the fact check knows; a symbol several of them write (``$``, ``¥``, ``kr``)
is the store's when the store's currency writes it, else the first one's listed.

"Pounds" alone is a weight (``3 pounds``); sterling is ``£``, ``GBP`` or "pounds sterling".
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Final, Literal

Notation = Literal["symbol", "code", "word"]


@dataclass(frozen=True)
class Currency:
    code: str
    """ISO 4217, which is also how a corrected amount in words is written."""
    symbols: tuple[str, ...] = ()
    """Written before or after the number; the first is how the store writes it."""
    words: tuple[str, ...] = ()
    """Regular expressions for the words written after the number, in a few languages."""
    decimals: int = 2
    code_after: bool = True
    """Whether the code after a number is read as this currency: not for a code that is
    also a word of the trade ("3 CAD programs")."""


CURRENCIES: Final[dict[str, Currency]] = {
    c.code: c
    for c in (
        Currency(
            "USD",
            ("$", "US$"),
            (
                r"US[ -]?[Dd]ollars?",
                r"[Dd]ollars? américains",
                r"dollars?",
                r"Dollars?",
                r"bucks",
                r"米ドル",
                r"ドル",
                r"美元",
            ),
        ),
        Currency("EUR", ("€",), (r"[Ee]uros?", r"ユーロ", r"欧元")),
        Currency(
            "GBP",
            ("£",),
            (r"pounds? sterling", r"British pounds?", r"Pfund Sterling", r"livres? sterling"),
        ),
        Currency(
            "CHF",
            # Not "Fr." alone: a German answer writes Friday so ("Fr. 13.12.").
            ("CHF", "SFr."),
            (r"Schweizer Franken", r"Franken", r"[Ss]wiss francs?", r"francs? suisses?"),
        ),
        Currency("JPY", ("¥", "￥", "JP¥"), (r"円", r"[Yy]en"), decimals=0),
        Currency("CNY", ("¥", "CN¥", "RMB"), (r"元", r"人民币", r"[Yy]uan")),
        Currency(
            "CAD",
            ("$", "C$", "CA$", "CAN$"),
            (r"Canadian dollars?", r"kanadische Dollar", r"dollars? canadiens?"),
            code_after=False,
        ),
        Currency(
            "AUD",
            ("$", "A$", "AU$"),
            (r"Australian dollars?", r"australische Dollar", r"dollars? australiens?"),
        ),
        Currency("NZD", ("$", "NZ$"), (r"New Zealand dollars?",)),
        Currency("HKD", ("$", "HK$"), (r"Hong Kong dollars?",)),
        Currency("SGD", ("$", "S$"), (r"Singapore dollars?",)),
        Currency("MXN", ("$", "MX$", "Mex$"), (r"pesos? mexicanos?", r"Mexican pesos?")),
        Currency("BRL", ("R$",), (r"reais", r"real brasileiro")),
        Currency("INR", ("₹", "Rs."), (r"rupees?", r"Rupien")),
        # Not "won": "released in 2023 won awards".
        Currency("KRW", ("₩",), (r"원",), decimals=0),
        Currency("SEK", ("kr",), (r"kronor", r"Swedish kronor")),
        Currency("NOK", ("kr",), (r"Norwegian kroner",)),
        Currency("DKK", ("kr",), (r"Danish kroner",)),
        Currency("PLN", ("zł",), (r"złotych", r"złoty")),
        Currency("CZK", ("Kč",), (r"korun",)),
    )
}
"""Every currency the fact check reads, by ISO 4217 code."""

DEFAULT_CURRENCY: Final = "USD"


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
    currency = CURRENCIES[store]
    if notation == "symbol" and currency.symbols and currency.symbols[0] != currency.code:
        return currency.symbols[0]
    return currency.code


def amount(value: float, store: str) -> str:
    """``value`` as a shopper reads a price of the store: ``$349.00``, ``€349.00``,
    ``CHF 349.00``, ``¥45,000``."""
    currency = CURRENCIES[store]
    number = f"{value:,.{currency.decimals}f}"
    symbol = written_as(store, "symbol")
    return f"{symbol} {number}" if symbol == currency.code else f"{symbol}{number}"
