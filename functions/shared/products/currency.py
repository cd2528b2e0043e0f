"""The currencies a store may price its catalog in, and the store's own (``STORE_CURRENCY``).

The catalog's prices are numbers in one currency: the store's, US dollars unless set.
The response builder checks and corrects amounts in it (``compose_response.money`` reads
the notations below); the Converse function names it in the catalog tool's price fields,
so the model reads "Lowest price in euros" in a store priced in euros.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated, Final

from pydantic import AfterValidator


@dataclass(frozen=True)
class Currency:
    code: str
    """ISO 4217, which is also how a corrected amount in words is written."""
    name: str
    """What the model is told prices are in ("US dollars", "euros"): English, plural."""
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
            "US dollars",
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
        Currency("EUR", "euros", ("€",), (r"[Ee]uros?", r"ユーロ", r"欧元")),
        Currency(
            "GBP",
            "pounds sterling",
            ("£",),
            (r"pounds? sterling", r"British pounds?", r"Pfund Sterling", r"livres? sterling"),
        ),
        Currency(
            "CHF",
            "Swiss francs",
            # Not "Fr." alone: a German answer writes Friday so ("Fr. 13.12.").
            ("CHF", "SFr."),
            (r"Schweizer Franken", r"Franken", r"[Ss]wiss francs?", r"francs? suisses?"),
        ),
        Currency("JPY", "Japanese yen", ("¥", "￥", "JP¥"), (r"円", r"[Yy]en"), decimals=0),
        Currency("CNY", "Chinese yuan", ("¥", "CN¥", "RMB"), (r"元", r"人民币", r"[Yy]uan")),
        Currency(
            "CAD",
            "Canadian dollars",
            ("$", "C$", "CA$", "CAN$"),
            (r"Canadian dollars?", r"kanadische Dollar", r"dollars? canadiens?"),
            code_after=False,
        ),
        Currency(
            "AUD",
            "Australian dollars",
            ("$", "A$", "AU$"),
            (r"Australian dollars?", r"australische Dollar", r"dollars? australiens?"),
        ),
        Currency("NZD", "New Zealand dollars", ("$", "NZ$"), (r"New Zealand dollars?",)),
        Currency("HKD", "Hong Kong dollars", ("$", "HK$"), (r"Hong Kong dollars?",)),
        Currency("SGD", "Singapore dollars", ("$", "S$"), (r"Singapore dollars?",)),
        Currency(
            "MXN",
            "Mexican pesos",
            ("$", "MX$", "Mex$"),
            (r"pesos? mexicanos?", r"Mexican pesos?"),
        ),
        Currency("BRL", "Brazilian reais", ("R$",), (r"reais", r"real brasileiro")),
        Currency("INR", "Indian rupees", ("₹", "Rs."), (r"rupees?", r"Rupien")),
        # Not "won": "released in 2023 won awards".
        Currency("KRW", "South Korean won", ("₩",), (r"원",), decimals=0),
        Currency("SEK", "Swedish kronor", ("kr",), (r"kronor", r"Swedish kronor")),
        Currency("NOK", "Norwegian kroner", ("kr",), (r"Norwegian kroner",)),
        Currency("DKK", "Danish kroner", ("kr",), (r"Danish kroner",)),
        Currency("PLN", "Polish złoty", ("zł",), (r"złotych", r"złoty")),
        Currency("CZK", "Czech koruna", ("Kč",), (r"korun",)),
    )
}
"""Every currency a store may use (and the fact check reads), by ISO 4217 code."""

DEFAULT_CURRENCY: Final = "USD"


def known_currency(value: str) -> str:
    """``value`` as an ISO code of :data:`CURRENCIES` (``" eur "`` is ``EUR``), else a
    ``ValueError`` listing them."""
    code = value.strip().upper()
    if code not in CURRENCIES:
        raise ValueError(f"must be one of {', '.join(sorted(CURRENCIES))}, got {value!r}")
    return code


def sign(store: str) -> str:
    """How the store writes its currency beside an amount: its first symbol, or its code
    where it has none of its own (``CHF``)."""
    currency = CURRENCIES[store]
    return currency.symbols[0] if currency.symbols else currency.code


def amount(value: float, store: str, *, whole: bool = False) -> str:
    """``value`` as a shopper reads a price of the store: ``$349.00``, ``€349.00``,
    ``CHF 349.00``, ``¥45,000``; with ``whole``, a round amount without its cents, as a
    budget is said (``under $800``, ``under $799.50``)."""
    currency = CURRENCIES[store]
    number = f"{value:,.{currency.decimals}f}"
    if whole and float(value).is_integer():
        number = f"{value:,.0f}"
    symbol = sign(store)
    return f"{symbol} {number}" if symbol == currency.code else f"{symbol}{number}"


StoreCurrency = Annotated[str, AfterValidator(known_currency)]
"""A settings field holding ``STORE_CURRENCY``, checked when the settings are read."""


@dataclass(frozen=True)
class InStoreCurrency:
    """Marks a tool input field that is an amount in the store's currency, beside its
    declaration: ``Annotated[float | None, Field(description="Lowest price"),
    InStoreCurrency()]``. The tool spec the model reads names the currency after the
    field's description ("Lowest price in euros")."""

    def describe(self, description: str, currency: str) -> str:
        return f"{description} in {CURRENCIES[currency].name}"
