"""Amounts of money as the offline model writes them: in the store's currency.

The catalog's prices are numbers in the store's currency (``STORE_CURRENCY``, read once
by the local runner, US dollars unless set); :func:`priced_in` sets it for the request
being answered, and every heading, limit and price the answer writes reads it here.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar

from shared.currency import CURRENCIES, DEFAULT_CURRENCY

_PRICED_IN: ContextVar[str] = ContextVar("storechat_offline_currency", default=DEFAULT_CURRENCY)


@contextmanager
def priced_in(currency: str) -> Iterator[None]:
    """Write the amounts of the request being answered in ``currency`` (ISO 4217)."""
    token = _PRICED_IN.set(currency)
    try:
        yield
    finally:
        _PRICED_IN.reset(token)


def money(value: float) -> str:
    """``value`` in the store's currency, as the currency table writes it: its first
    symbol before the number ("$800", "€1,299.50"), a code with a space ("CHF 800");
    a whole amount without decimals."""
    currency = CURRENCIES[_PRICED_IN.get()]
    sign = currency.symbols[0] if currency.symbols else currency.code
    decimals = 0 if float(value).is_integer() else currency.decimals
    number = f"{value:,.{decimals}f}"
    return f"{sign} {number}" if sign == currency.code else f"{sign}{number}"
