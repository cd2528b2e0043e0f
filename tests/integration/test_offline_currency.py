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


@pytest.mark.parametrize("search_first", [True, False])
def test_an_amount_in_another_currency_is_said_as_read_in_the_stores(search_first: bool) -> None:
    # Given a store priced in US dollars
    with LocalStorechat(model="offline", search_first=search_first) as local:
        # When a shopper gives the budget in euros, and then in dollars
        euros = local.ask("a laptop under €600")
        dollars = local.ask("a laptop under $600")

    # Then the answer says the amount was read as dollars, unconverted, before the list
    assert euros.body is not None and dollars.body is not None, euros.cause
    answer = euros.body["answer"]
    said = "Our prices are in USD: I read your amount in EUR as USD, unconverted."
    assert answer.startswith(said), answer
    assert "under $600" in answer, answer
    # And a budget in the store's own currency says nothing of it
    assert "unconverted" not in dollars.body["answer"]
