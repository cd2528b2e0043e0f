"""An amount the shopper says in another currency than the store's: the catalog tool reads
the limit in the store's currency, converts nothing, and tells the model so."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from lookup_inventory.currency_said import foreign_currency
from lookup_inventory.logic import _currency_note
from lookup_inventory.schema import DESCRIPTION
from shared.search import SearchIndex, build_index
from tests.unit.test_lookup_inventory import CATALOG, ask, told


@pytest.fixture(scope="module")
def index(tmp_path_factory: pytest.TempPathFactory) -> Iterator[SearchIndex]:
    path: Path = tmp_path_factory.mktemp("currency") / "catalog.sqlite"
    build_index(CATALOG, path)
    opened = SearchIndex.open(path)
    yield opened
    opened.close()


@pytest.mark.parametrize(
    ("words", "store", "said"),
    [
        ("a laptop under €600", "USD", "EUR"),
        ("a laptop under 600€", "USD", "EUR"),
        ("a phone for 500 euros", "USD", "EUR"),
        ("tv under 600 eur", "USD", "EUR"),
        ("under £400", "USD", "GBP"),
        ("under 1,200 GBP", "USD", "GBP"),
        ("max 800 CHF", "USD", "CHF"),
        ("CHF 800 max", "USD", "CHF"),
        ("a camera under ¥50,000", "USD", "JPY"),
        ("スマホ 60000円以下", "USD", "JPY"),
        ("under 600 Canadian dollars", "USD", "CAD"),
        ("under C$600", "USD", "CAD"),
        ("under $600", "EUR", "USD"),
        ("under 600 dollars", "EUR", "USD"),
        ("under 1.5k€", "GBP", "EUR"),
    ],
)
def test_an_amount_marked_with_another_currency_is_found(words: str, store: str, said: str) -> None:
    assert foreign_currency(words, store) == said


@pytest.mark.parametrize(
    ("words", "store"),
    [
        ("a laptop under $600", "USD"),  # the store's own
        ("a laptop under 600 dollars", "USD"),
        ("a laptop under 600 bucks", "USD"),
        ("a laptop under 600 USD", "USD"),
        ("a laptop under $600", "CAD"),  # "$" is the store's in a store writing "$"
        ("a laptop under 600 dollars", "AUD"),
        ("a laptop under €600", "EUR"),
        ("a camera under ¥50,000", "CNY"),  # "¥" is the yuan's too
        ("a laptop under 600", "USD"),  # no mark: the store's
        ("a laptop under 4 pounds", "USD"),  # a weight, not pounds sterling
        ("a euro plug adapter", "USD"),  # a currency named beside no amount
        ("rtx 4060 laptop with 32 GB", "USD"),
        ("3 CAD programs", "USD"),  # a code of the trade after a number
        (None, "USD"),
    ],
)
def test_the_stores_own_currency_or_none_is_not_flagged(words: str | None, store: str) -> None:
    assert foreign_currency(words, store) is None


def _without_products(seen: dict[str, Any]) -> dict[str, Any]:
    return {key: value for key, value in seen.items() if key != "products"}


def test_a_limit_said_in_euros_in_a_dollar_store_is_read_in_dollars_and_the_model_told(
    index: SearchIndex,
) -> None:
    # Given a store priced in US dollars, When the shopper's words are "a laptop under €600"
    seen = told(ask(index, {"keywords": "a laptop under €600"}, currency="USD"))
    in_dollars = told(ask(index, {"keywords": "a laptop under $600"}, currency="USD"))

    # Then the search is the same as under $600 (nothing is converted with a rate) ...
    assert seen["understood"] == in_dollars["understood"]
    assert seen["understood"]["maxPrice"] == 600
    assert seen["products"] == in_dollars["products"]
    assert seen["products"] and all(p["price"] <= 600 for p in seen["products"])
    # ... but the model is told the shopper's amount was in euros, the limit read in
    # dollars, so that it does not answer "our laptops under $600" as if €600 were $600
    assert seen["currencySaid"] == {"said": "EUR", "store": "USD"}
    assert seen["note"].startswith(
        "The shopper's amount is in EUR, but the price limit was read in the store's USD, "
        "unconverted (currencySaid): tell the shopper."
    )
    assert "currencySaid" not in in_dollars
    assert "EUR" not in str(_without_products(in_dollars))


def test_the_models_own_price_limit_with_the_shoppers_pounds_is_flagged(
    index: SearchIndex,
) -> None:
    # The model passes the limit itself, the shopper's words as keywords: still flagged
    seen = told(ask(index, {"keywords": "phone under £400", "maxPrice": 400}, currency="USD"))
    assert seen["currencySaid"] == {"said": "GBP", "store": "USD"}
    assert "the price limit was read in the store's USD" in seen["note"]


def test_an_amount_in_another_currency_read_as_no_limit_says_prices_are_the_stores() -> None:
    # Words the search reads no price limit in: the model is still told prices are dollars
    assert _currency_note("EUR", "USD", limited=False) == (
        "The shopper's amount is in EUR, but prices are in the store's USD, unconverted "
        "(currencySaid): tell the shopper."
    )


@pytest.mark.parametrize(
    ("words", "store"),
    [
        ("a laptop under €600", "EUR"),
        ("a laptop under $600", "USD"),
        ("a laptop under 600", "USD"),
        ("a laptop under 600", "EUR"),
    ],
)
def test_an_amount_in_the_stores_currency_or_unmarked_changes_nothing(
    index: SearchIndex, words: str, store: str
) -> None:
    seen = told(ask(index, {"keywords": words}, currency=store))
    plain = told(ask(index, {"keywords": "a laptop under 600"}))
    assert "currencySaid" not in seen
    assert "currency" not in seen.get("note", "")
    assert seen == plain


def test_a_euro_store_flags_dollars(index: SearchIndex) -> None:
    seen = told(ask(index, {"keywords": "a laptop under $600"}, currency="EUR"))
    assert seen["currencySaid"] == {"said": "USD", "store": "EUR"}


def test_the_tool_description_names_the_field() -> None:
    assert "'currencySaid'" in DESCRIPTION


@pytest.mark.parametrize(
    "words",
    [
        "a laptop for CAD 3D modelling",  # design software, no amount: no limit read
        "a laptop for CAD 2024 under $900",  # the limit is $900, "CAD 2024" a program
        "HP 15 DKK",  # a model name
        "the 100 yen shop book",  # a title
    ],
)
def test_a_currency_code_beside_a_number_that_is_no_price_limit_is_not_flagged(
    index: SearchIndex, words: str
) -> None:
    # Given a store priced in US dollars, When the shopper's words hold a currency's code
    # or word beside a number the search read no price limit in
    seen = told(ask(index, {"keywords": words}, currency="USD"))
    # Then the model is not told "The shopper's amount is in CAD, but the price limit was
    # read in the store's USD ...", and so does not answer "I read your amount in CAD as USD"
    assert "currencySaid" not in seen
    assert "shopper's amount" not in seen.get("note", "")


@pytest.mark.parametrize(
    ("words", "limits", "said"),
    [
        ("a laptop for CAD 2024 under $900", [900], None),  # CAD's number is no limit
        ("a laptop for CAD 3D modelling", [], None),  # no limit read: nothing flagged
        ("a laptop under €600", [], None),
        ("a laptop under €600", [600], "EUR"),
        ("under 1,200 GBP", [1200], "GBP"),
        ("under 1.5k€", [1500], "EUR"),
        ("between 500€ and 800€", [500, 800], "EUR"),
        ("CAD 2024 models under 800 CHF", [800], "CHF"),  # the amount the limit is
    ],
)
def test_only_an_amount_the_search_read_as_its_price_limit_counts(
    words: str, limits: list[float], said: str | None
) -> None:
    assert foreign_currency(words, "USD", limits) == said


def test_the_models_limit_beside_other_currency_codes_flags_only_its_own(
    index: SearchIndex,
) -> None:
    # The model passes the limit itself: the currency of that amount is the one said
    seen = told(
        ask(index, {"keywords": "CAD 2024 laptop under £400", "maxPrice": 400}, currency="USD")
    )
    assert seen["currencySaid"] == {"said": "GBP", "store": "USD"}
