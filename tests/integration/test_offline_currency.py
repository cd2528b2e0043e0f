"""The offline model writes its limits and prices in the store's currency."""

from __future__ import annotations

import re

import pytest

from storechat.local import LocalStorechat


@pytest.mark.parametrize(
    ("store_currency", "limit", "price"),
    [("EUR", "under €800", r"€\d"), (None, "under $800", r"\$\d")],
)
def test_an_offline_answer_writes_amounts_in_the_stores_currency(
    store_currency: str | None, limit: str, price: str
) -> None:
    # Given a local store priced in euros (or with no currency set: US dollars)
    env = {"STORE_CURRENCY": store_currency} if store_currency else {}
    with LocalStorechat(model="offline", env=env) as local:
        # When a shopper asks the offline model for laptops within a budget
        result = local.ask("laptops under 800")

    # Then the answer states the limit and every price in that currency, and no other
    assert result.body is not None and result.body["outcome"] == "answered", result.cause
    answer = result.body["answer"]
    assert limit in answer, answer
    assert re.search(price, answer), answer
    other = "$" if store_currency else "€"
    assert other not in answer, answer
    # And the fact check finds nothing to correct: the amounts are the records' own
    assert result.body["corrections"] == [], result.body["corrections"]
