"""How the offline model writes an amount: in the store's currency, as its table says."""

from __future__ import annotations

import pytest

from storechat.offline.product import money, priced_in


@pytest.mark.parametrize(
    ("currency", "whole", "cents"),
    [
        ("USD", "$800", "$1,299.50"),
        ("EUR", "€800", "€1,299.50"),
        ("CHF", "CHF 800", "CHF 1,299.50"),
        ("JPY", "¥800", "¥1,300"),
    ],
)
def test_an_amount_is_written_in_the_currency_being_served(
    currency: str, whole: str, cents: str
) -> None:
    # Given a request served in a store priced in ``currency``
    with priced_in(currency):
        # When the answer writes a whole amount and one with cents
        written = money(800), money(1299.5)

    # Then each has the currency's sign, and decimals only where the amount has them
    # (and the currency does: a yen has none)
    assert written == (whole, cents)


def test_outside_a_request_amounts_are_in_us_dollars() -> None:
    # Given no store currency set for the request, Then the answer writes dollars
    assert money(15) == "$15"
