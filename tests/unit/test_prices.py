"""Prices in any notation, checked against the catalog in the store's one currency.

The HP 14 (``CMP-023``) costs 349 and the Dell XPS 13 (``CMP-007``) 1,299 in the store's
currency: US dollars unless ``STORE_CURRENCY`` says otherwise.
"""

from __future__ import annotations

from typing import Any

import pytest
from pydantic import ValidationError

from compose_response.facts import check_facts
from compose_response.logic import ComposeInput, compose
from compose_response.settings import Settings
from shared.products.catalog_data import load_catalog
from shared.products.ledger import products_of

CATALOG = {p["productId"]: p for p in load_catalog()}
LEDGER = {record.productId: record for record in products_of(CATALOG.values())}


def shopper_reads(answer: str, currency: str = "USD") -> tuple[str, list[tuple[Any, ...]]]:
    text, corrections = check_facts(answer, LEDGER, currency)
    return text, [(c.said, c.record, c.text, c.dropped) for c in corrections]


@pytest.mark.parametrize(
    ("said", "corrected"),
    [
        ("$299", "$349"),
        ("US$299", "US$349"),
        ("USD 299", "USD 349"),
        ("299 dollars", "349 dollars"),
        ("299 US dollars", "349 US dollars"),
        ("€299", "$349"),
        ("EUR 299", "USD 349"),
        ("299 euros", "349 USD"),
        ("£299", "$349"),
        ("299 pounds sterling", "349 USD"),
        ("CHF 299", "USD 349"),
        ("¥45,000", "$349"),
        ("A$299", "$349"),
        ("299 Canadian dollars", "349 USD"),
    ],
)
def test_an_english_answer_gets_the_catalogs_price_in_any_notation(
    said: str, corrected: str
) -> None:
    # Given an answer that states the HP 14's price as a wrong amount or in another currency
    # When the fact check reads it
    text, corrections = shopper_reads(f"The HP 14 [CMP-023] costs {said}.")
    # Then the shopper reads the catalog's price, in dollars, where the model wrote it
    assert text == f"The HP 14 [CMP-023] costs {corrected}."
    assert corrections == [(said, "$349.00", corrected, False)]


@pytest.mark.parametrize(
    ("answer", "corrected", "record"),
    [
        ("Das HP 14 [CMP-023] kostet 299 €.", "Das HP 14 [CMP-023] kostet 349 $.", "$349.00"),
        ("Das HP 14 [CMP-023] kostet 299,00 €.", "Das HP 14 [CMP-023] kostet 349,00 $.", "$349.00"),
        ("Das HP 14 [CMP-023] kostet 299 Euro.", "Das HP 14 [CMP-023] kostet 349 USD.", "$349.00"),
        (
            "Das Dell XPS 13 [CMP-007] kostet 1.199,00 €.",
            "Das Dell XPS 13 [CMP-007] kostet 1.299,00 $.",
            "$1,299.00",
        ),
        (
            "Das Dell XPS 13 [CMP-007] kostet 1.299,\u2013 €.",
            "Das Dell XPS 13 [CMP-007] kostet 1.299,\u2013 $.",
            "$1,299.00",
        ),
        (
            "Das HP 14 [CMP-023] kostet 299 US-Dollar.",
            "Das HP 14 [CMP-023] kostet 349 US-Dollar.",
            "$349.00",
        ),
    ],
    ids=["euro-sign", "euro-cents", "euro-word", "thousands", "whole-mark", "us-dollar"],
)
def test_a_german_answer_gets_the_catalogs_price_in_its_own_number_style(
    answer: str, corrected: str, record: str
) -> None:
    text, corrections = shopper_reads(answer)
    assert text == corrected
    assert [(c[1], c[3]) for c in corrections] == [(record, False)]


@pytest.mark.parametrize(
    ("answer", "corrected"),
    [
        ("Le HP 14 [CMP-023] coûte 349 €.", "Le HP 14 [CMP-023] coûte 349 $."),
        ("Le HP 14 [CMP-023] coûte 299,00 €.", "Le HP 14 [CMP-023] coûte 349,00 $."),
        ("Le HP 14 [CMP-023] coûte 299 euros.", "Le HP 14 [CMP-023] coûte 349 USD."),
        ("Le HP 14 [CMP-023] coûte 299 dollars.", "Le HP 14 [CMP-023] coûte 349 dollars."),
        ("Le HP 14 [CMP-023] coûte 299 CHF.", "Le HP 14 [CMP-023] coûte 349 USD."),
        ("Le Dell XPS 13 [CMP-007] coûte 1 199 €.", "Le Dell XPS 13 [CMP-007] coûte 1 299 $."),
        (
            "Le Google Pixel 9 [MOB-015] : Pixel 9 699 €.",
            "Le Google Pixel 9 [MOB-015] : Pixel 9 799 $.",
        ),
    ],
)
def test_a_french_answer_gets_the_catalogs_price_in_dollars(answer: str, corrected: str) -> None:
    # "349 €" for a product that costs 349 dollars is wrong too: the number is right,
    # the currency is not
    text, corrections = shopper_reads(answer)
    assert text == corrected
    assert len(corrections) == 1 and corrections[0][1].startswith("$")


@pytest.mark.parametrize(
    "answer",
    [
        "The HP 14 [CMP-023] costs $349.",
        "The HP 14 [CMP-023] costs 349 dollars.",
        "Das HP 14 [CMP-023] kostet 349,00 $.",
        "Le HP 14 [CMP-023] coûte 349 $ US.",
        "The HP 14 [CMP-023] costs about $350.",
    ],
)
def test_the_right_price_in_the_stores_currency_stands(answer: str) -> None:
    assert shopper_reads(answer) == (answer, [])


@pytest.mark.parametrize(
    ("answer", "kept"),
    [
        ("The HP 14 [CMP-023] costs $349 (about €320).", "The HP 14 [CMP-023] costs $349."),
        ("Das HP 14 [CMP-023] kostet 349 $ (etwa 320 €).", "Das HP 14 [CMP-023] kostet 349 $."),
        ("Le HP 14 [CMP-023] coûte 349 $ (environ 325 €).", "Le HP 14 [CMP-023] coûte 349 $."),
    ],
)
def test_a_conversion_in_brackets_after_the_right_price_is_removed(answer: str, kept: str) -> None:
    # Given the right price followed by the model's own conversion into another currency
    # Then the conversion goes: the store never set that price
    text, corrections = shopper_reads(answer)
    assert text == kept
    assert [(c[1], c[2], c[3]) for c in corrections] == [("$349.00", None, True)]


@pytest.mark.parametrize(
    "answer",
    [
        "With a budget of 500 €, the HP 14 [CMP-023] fits.",
        "The HP 14 [CMP-023] is well under €400.",
        "Shipping the HP 14 [CMP-023] costs €10.",
        "The HP 14 [CMP-023] weighs about 3 pounds.",
        "The Dell XPS 13 [CMP-007] runs 3 CAD programs at once.",
        "The Dell XPS 13 [CMP-007] handles CAD 3D work.",
        "The Dell XPS 13 [CMP-007], released in 2023 won awards.",
    ],
)
def test_an_amount_that_is_not_the_products_price_is_left_alone(answer: str) -> None:
    assert shopper_reads(answer) == (answer, [])


def test_a_store_that_sells_in_euros_corrects_dollars_into_euros() -> None:
    # Given a store whose catalog is priced in euros
    assert shopper_reads("Le HP 14 [CMP-023] coûte 349 €.", "EUR") == (
        "Le HP 14 [CMP-023] coûte 349 €.",
        [],
    )
    text, corrections = shopper_reads("The HP 14 [CMP-023] costs $299.", "EUR")
    assert text == "The HP 14 [CMP-023] costs €349."
    assert corrections == [("$299", "€349.00", "€349", False)]
    # And a Swiss franc store writes its code, a yen store no decimals
    assert shopper_reads("It [CMP-023] costs $299.", "CHF")[0] == "It [CMP-023] costs CHF 349."
    assert shopper_reads("It [CMP-023] costs $2.00.", "JPY")[0] == "It [CMP-023] costs ¥349."


def test_the_fallback_lists_prices_in_the_stores_currency() -> None:
    event = ComposeInput(
        sessionId="s-1",
        outcome="fallback",
        fallbackReason="deadline",
        products=[CATALOG["CMP-023"]],
    )
    assert "(HP, €349.00) [CMP-023]" in compose(event, currency="EUR").answer
    assert "(HP, $349.00) [CMP-023]" in compose(event).answer


def test_the_store_currency_setting_is_validated() -> None:
    assert Settings.model_validate({}).store_currency == "USD"
    assert Settings.model_validate({"STORE_CURRENCY": " eur "}).store_currency == "EUR"
    with pytest.raises(ValidationError, match=r"must be one of .*USD.*got 'dollars'"):
        Settings.model_validate({"STORE_CURRENCY": "dollars"})
