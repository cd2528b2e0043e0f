"""A second price beside the right one: the shopper reads only what the store charges.

One sentence may say a product's price twice. The right one does not vouch for the
other: "$1,299, sorry, I mean $199" would leave the shopper with $199. A second price
is about something else (a total with tax, an accessory, another model, a launch price)
unless its words take the right one back ("sorry, I mean", "now only"); a price before
a sale, above the price of a product not on sale, claims a sale the store is not running
and goes with its sentence.
"""

from __future__ import annotations

from typing import Any

import pytest

from compose_response.logic import ComposeInput, ResponseBody, compose
from tests.unit.test_answer_bold import XPS

XPS_13 = XPS  # $1,299, 16 GB RAM, in stock, not on sale
XPS_15: dict[str, Any] = {
    **XPS_13,
    "productId": "CMP-006",
    "name": "Dell XPS 15 (9530)",
    "price": 1499.0,
    "compareAtPrice": 1799.0,
}
INSPIRON: dict[str, Any] = {
    **XPS_13,
    "productId": "CMP-008",
    "name": "Dell Inspiron 14",
    "price": 649.0,
}


def shown(answer: str) -> ResponseBody:
    event = ComposeInput(
        sessionId="s-1", outcome="answered", answer=answer, products=[XPS_13, XPS_15, INSPIRON]
    )
    return compose(event)


@pytest.mark.parametrize(
    ("said", "now", "false"),
    [
        (
            "The Dell XPS 13 [CMP-005] is $1,299 — sorry, I mean $199.",
            "The Dell XPS 13 [CMP-005] is $1,299 — sorry, I mean $1,299.",
            "$199",
        ),
        (
            "The Dell XPS 13 [CMP-005] costs $1,299, now only $199 for you.",
            "The Dell XPS 13 [CMP-005] costs $1,299, now only $1,299 for you.",
            "$199",
        ),
        (
            "The Dell XPS 13 [CMP-005] is $1,299; actually, make that $999.",
            "The Dell XPS 13 [CMP-005] is $1,299; actually, make that $1,299.",
            "$999",
        ),
        (
            "The Dell XPS 15 [CMP-006] is $1,499, was $1,799, now just $999.",
            "The Dell XPS 15 [CMP-006] is $1,499, was $1,799, now just $1,499.",
            "$999",
        ),
    ],
)
def test_a_false_price_after_the_right_one_is_corrected(said: str, now: str, false: str) -> None:
    # Given a model that says the right price and then a false one of the same product
    body = shown(said)
    # Then the shopper reads the catalog's price both times, the false one marked corrected
    assert body.answer == now
    assert [(c.said, c.dropped) for c in body.corrections] == [(false, False)]


@pytest.mark.parametrize(
    "said",
    [
        "The Dell XPS 13 [CMP-005] costs $1,299 (it was $1,599).",
        "The Dell XPS 13 [CMP-005] is ~~$1,599~~ $1,299.",
        "The Dell XPS 13 [CMP-005] is $1,299, down from $1,499.",
    ],
)
def test_a_sale_the_store_is_not_running_goes_with_its_sentence(said: str) -> None:
    # Given a product not on sale, said to have cost more before
    body = shown("Here is what I found. " + said)
    # Then the shopper does not read the invented sale: its sentence goes, marked dropped
    assert body.answer == "Here is what I found."
    assert [(c.productId, c.dropped) for c in body.corrections] == [("CMP-005", True)]


@pytest.mark.parametrize(
    "said",
    [
        # a real sale, written as text or struck through
        "The Dell XPS 15 [CMP-006] is $1,499, down from $1,799.",
        "The Dell XPS 15 [CMP-006] is ~~$1,799~~ $1,499.",
        # another product's price in a comparison
        "The Dell XPS 13 [CMP-005] is $1,299, against $649 for the Inspiron 14 [CMP-008].",
        "The Dell XPS 13 [CMP-005] costs $1,299 where the Dell Inspiron 14 costs $649.",
        # a bound, a difference and another charge
        "The Dell XPS 13 [CMP-005] is $1,299, under your $1,500 budget.",
        "The Dell XPS 13 [CMP-005] is $1,299, $650 more than the Inspiron.",
        "The Dell XPS 13 [CMP-005] is $1,299 plus $9.99 shipping.",
        # a total, an accessory, another model, a launch price, a price elsewhere
        "The Dell XPS 13 [CMP-005] is $1,299, or $1,407.66 with sales tax in New York.",
        "The Dell XPS 13 [CMP-005] is $1,299, and a USB-C dock adds $79.",
        "The Dell XPS 13 [CMP-005] is $1,299, so two for the office would be $2,598.",
        "The Dell XPS 13 [CMP-005] is $1,299; a comparable MacBook Air M3 is $1,099.",
        "The Dell XPS 13 [CMP-005] costs $1,299, and it launched at $1,399 last year.",
        "The Dell XPS 13 [CMP-005] is $1,299 (I've seen it at $1,399 elsewhere).",
        "The Dell XPS 13 [CMP-005] is $1,299; a good monitor to pair with it is around $300.",
        "The Dell XPS 13 [CMP-005] is $1,299, and last year's 9315 model was $999.",
        # "only", "just" and "actually" in their ordinary sense, and a price dated before
        "The Dell XPS 13 [CMP-005] is just $1,299 — and the sleeve is just $29.",
        "The Dell XPS 13 [CMP-005] is $1,299, and Dell's dock is now only $199 after a price cut.",
        "The Dell XPS 13 [CMP-005] is $1,299, which actually comes to $1,407.66 with tax.",
        "The Dell XPS 13 [CMP-005] is $1,299 — just $1 under your $1,300 limit.",
        "The Dell XPS 13 [CMP-005] is $1,299 now; a year ago the same model was $1,399.",
    ],
)
def test_a_second_price_that_is_something_else_stays(said: str) -> None:
    body = shown(said)
    assert body.answer == said
    assert body.corrections == []


def test_a_struck_price_of_a_real_sale_is_checked_against_the_price_before() -> None:
    # Given a product on sale at $1,499 from $1,799, struck through at a made-up $1,999
    body = shown("The Dell XPS 15 [CMP-006] is ~~$1,999~~ $1,499.")
    # Then the struck price is the one before the sale, corrected to it
    assert body.answer == "The Dell XPS 15 [CMP-006] is ~~$1,799~~ $1,499."
    assert [(c.field, c.said, c.record) for c in body.corrections] == [
        ("compareAtPrice", "$1,999", "$1,799.00")
    ]
