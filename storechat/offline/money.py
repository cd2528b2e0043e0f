"""Amounts of money as the offline model writes them: in the store's currency.

The catalog's prices are numbers in the store's currency (``STORE_CURRENCY``, read once
by the local runner, US dollars unless set); :func:`priced_in` sets it for the request
being answered, and every heading, limit and price the answer writes reads it here.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar

from shared.products.currency import DEFAULT_CURRENCY, amount

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
    """``value`` in the store's currency, as a budget is said: "$800", "€1,299.50",
    "CHF 800" (``shared.products.currency.amount``)."""
    return amount(value, _PRICED_IN.get(), whole=True)
