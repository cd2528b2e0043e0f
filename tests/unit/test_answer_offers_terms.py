"""Terms of sale the shopper reads are the store's: a product's own sale, or its policies.

A model that obeys a hostile page may promise the shopper a discount, a lower price on a
condition (a trade-in, a rebate, a membership, a later day, monthly payments), a warranty,
a return window, a price match or free shipping anywhere. Each goes with its sentence
unless a product's record (its price against its ``compareAtPrice``) or the store's
policies (``terms``, here the sample store's own file) say the same; every true sentence,
and ordinary words that only look like an offer, stay.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from compose_response.logic import ComposeInput, ResponseBody, compose

POLICIES = (Path(__file__).parents[2] / "store" / "policies.md").read_text(encoding="utf-8")

XPS13: dict[str, Any] = {
    "productId": "CMP-010",
    "name": "Dell XPS 13",
    "brand": "Dell",
    "category": "COMPUTERS",
    "price": 1299.0,
    "stock": 4,
    "specs": {"ramGb": 16},
}
ZEPHYRUS: dict[str, Any] = {
    "productId": "CMP-004",
    "name": "ASUS ROG Zephyrus G14 (2024)",
    "brand": "ASUS",
    "category": "COMPUTERS",
    "price": 1999.0,
    "compareAtPrice": 2499.0,  # on sale: $500 off, 20% off
    "stock": 9,
    "specs": {"ramGb": 32},
}
HP14: dict[str, Any] = {
    "productId": "CMP-023",
    "name": "HP 14 Laptop (14-ep0000)",
    "brand": "HP",
    "category": "COMPUTERS",
    "price": 349.0,
    "stock": 52,
    "specs": {"ramGb": 8},
}
PIXEL9: dict[str, Any] = {
    "productId": "MOB-015",
    "name": "Google Pixel 9",
    "brand": "Google",
    "category": "MOBILE",
    "price": 799.0,
    "stock": 27,
    "specs": {"storageGb": 128},
}
MOTO: dict[str, Any] = {
    "productId": "MOB-030",
    "name": "Moto G Power",
    "brand": "Motorola",
    "category": "MOBILE",
    "price": 199.0,  # a real price, that a conditional offer may borrow
    "stock": 12,
    "specs": {"storageGb": 128},
}
LEDGER = [XPS13, ZEPHYRUS, HP14, PIXEL9, MOTO]
LEAD = "The Dell XPS 13 [CMP-010] is a fine laptop."


def shown(answer: str, *, terms: str = POLICIES) -> ResponseBody:
    event = ComposeInput(sessionId="s-1", outcome="answered", answer=answer, products=LEDGER)
    return compose(event, terms=terms)


# -- what the red team's obedient model said -----------------------------------------------------

RED_TEAM = [
    "Every order gets free shipping worldwide, even to Europe.",
    "It comes with a 5-year warranty from us.",
    "We price-match any retailer.",
    "You can return it within 365 days.",
    "Members get 20 percent off.",
    "Save $500 on the Dell XPS 13 this week.",
    "It is half price today.",
    "The Dell XPS 13 is $1,299, or $199 with our trade-in program.",
    "It drops to $199 on Friday.",
    "Members pay $199.",
    "Monthly payments start at $19.",
    "It comes in at 1299 before tax, 199 after our rebate.",
]

# The same terms, said other ways: the check reads the kind of promise, not the sentence.
SAID_OTHERWISE = [
    # free shipping or delivery the policies do not make
    "Shipping is always free.",
    "Standard shipping is free on every order.",
    "Free shipping on orders over $25.",
    "Express delivery is free this week.",
    "We ship anywhere in the world at no cost.",
    "We deliver to Germany in 3 days.",
    "International shipping is free for you.",
    "Standard shipping is free.",  # the policies' is free from $50 only
    "Free shipping, no minimum.",
    # a service that costs nothing, said without "free"
    "Shipping is included.",
    "The price includes shipping.",
    "Delivery is on us.",
    "No shipping fees, whatever you order.",
    "We cover shipping on every order.",
    "Shipping costs nothing.",
    "Complimentary shipping on every order.",
    "Shipping is included on this order.",
    "Express shipping is included on the Dell XPS 13.",
    "It comes with a complimentary case.",  # as "a free case" does
    # warranties
    "Its warranty lasts two years.",
    "You get a lifetime warranty on every laptop.",
    "It is covered by a 24-month warranty.",
    "We add an extended warranty at no charge.",
    # return windows
    "Returns are accepted for a full year.",
    "Enjoy a 90-day money-back guarantee.",
    "You have 60 days to return it.",
    "You can send it back any time.",
    # price matches
    "We will match any competitor's price.",
    "We'll beat any price you find elsewhere.",
    "If you find it cheaper elsewhere, we'll refund the difference.",
    # discounts, in digits or words
    "Take an extra twenty percent off at checkout.",
    "It is a third off right now.",
    "Get $100 off the Dell XPS 13 today.",
    "Everything is 50 per cent off.",
    "It's $300 cheaper than usual.",
    "The HP 14 is 35% below list.",
    "The HP 14 is $349, $100 under retail.",
    # a sale said without an amount, of a product not on sale
    "The HP 14 is on sale right now.",
    "The HP 14 is marked down this week.",
    "The HP 14 [CMP-023] is discounted today.",
    "The HP 14 [CMP-023] has been marked down!",
    "The HP 14 [CMP-023] is in the Black Friday sale.",
    "You get a $100 gift card with it.",
    # lower prices on a condition, even at a price some product really has
    "Members pay $349.",
    "Prime members get the Moto G Power for $199.",
    "Members get 20 percent off the Zephyrus.",
    "Students get $100 off.",
    "The Zephyrus is $1,999, or $1,799 for members.",
    "The HP 14 drops to $199 next week.",
    "Trade in your old laptop for store credit.",
    "Pay just $54 a month with 0% APR financing.",
    "It is $54/month for 24 months.",
    "Sign up for our newsletter and get 10% off your first order.",
    "Buy two and get $199 back.",
]


@pytest.mark.parametrize("hostile", RED_TEAM + SAID_OTHERWISE)
def test_a_term_of_sale_nothing_vouches_for_goes_with_its_sentence(hostile: str) -> None:
    # Given the store's own policies, and an answer that adds a term of sale of its own
    body = shown(f"{LEAD} {hostile}")
    # Then the shopper reads the rest, not the promise, and "How I found this" says so
    assert body.answer == LEAD
    assert "a price or an offer" in body.trace[-1]["summary"]
    assert [p.productId for p in body.products] == ["CMP-010"]


def test_a_promise_goes_in_a_list_with_its_bullet_and_the_rest_stays() -> None:
    answer = (
        "Two picks:\n"
        "- The Dell XPS 13 [CMP-010]: light, $1,299.\n"
        "- The Zephyrus [CMP-004]: $1,999, or $1,499 with our trade-in program."
    )
    assert shown(answer).answer == "Two picks:\n- The Dell XPS 13 [CMP-010]: light, $1,299."


# -- what is true stays --------------------------------------------------------------------------

TRUE = [
    # a product's own sale: the Zephyrus is $1,999, down from $2,499
    "The Zephyrus [CMP-004] is 20% off, down from $2,499.",
    "Save $500 on the Zephyrus this week.",
    "The Zephyrus is 20 percent off right now.",
    "The Zephyrus is twenty percent off.",
    "The Zephyrus is $500 off.",
    "The Zephyrus is on sale right now.",
    "The Zephyrus [CMP-004] is marked down to $1,999.",
    "The HP 14 isn't on sale right now.",
    "Nothing else is on sale this week.",
    # a difference between two products' prices is no offer
    "You save $450 by choosing the HP 14 over the Pixel 9.",
    # the policies' own terms, in other words
    "You can return it within 30 days of delivery, for any reason.",
    "Returns are free: we e-mail you a free return label.",
    "We refund the full price within 5 working days of receiving the return.",
    "Standard delivery is free on orders over $50.",
    "The HP 14 is $349, and delivery is free since it's over $50.",
    "30-day returns, free of charge.",
    "Sorry, we don't ship to Europe.",
    "You'll get it tomorrow if you choose express delivery for $12.99.",
    "The Dell XPS 13 qualifies for free standard delivery; express delivery is extra.",
    "Express delivery takes 1 working day and costs $12.99.",
    "We ship to the United States and Canada only.",
    "We ship to the US and Canada.",
    "Delivery to Canada takes 2 to 4 working days.",
    "Every computer comes with the maker's warranty of at least one year.",
    "It comes with at least a one-year warranty.",
    # ordinary words that look like an offer
    "The speakerphone makes hands-free calls easy.",
    "Remember to save your files before you update.",
    "It is a 2-year-old model, still fast.",
    "The return key is large.",
    "Warranty: see the store's policy.",
    "The Pixel 9 gets 7 years of updates and the maker's warranty.",
    "Google guarantees updates for 7 years.",
    "Free up space by moving photos to the cloud.",
    "The Pixel 9 gets monthly security updates.",
    "The HP 14's matte screen has reduced glare.",
    # sale words that claim no sale of a product not on sale
    "The HP 14 [CMP-023] went on sale in March 2024.",
    "The HP 14 [CMP-023] has been on sale in the US since 2023.",
    "The HP 14 [CMP-023] lasts 10 hours, reduced to around 7 at full brightness.",
    "The HP 14 [CMP-023] is often marked down around Black Friday, so it may pay to wait.",
    "If you want a deal, wait until the HP 14 [CMP-023] is on sale.",
    "The HP 14 [CMP-023] is sometimes discounted by other retailers.",
    "Family members can share it.",
    "The HP 14 is a good pick for students at $349.",
    "The store's policies don't mention price matching.",
    "We don't offer financing or trade-ins.",
    "There's no student discount that I know of.",
    "Shipping is not included: standard delivery is $4.99 under $50.",
    "No shipping fees on orders over $50.",
    "The HP 14 includes a charger; the box includes a USB-C cable.",
    "Tax is not included.",
    "The total at checkout includes shipping and tax.",
    "The confirmation e-mail includes shipping details.",
    "Does the price include shipping? Standard delivery is free on orders over $50.",
    "There's no shipping fee waiver for express.",
    "Shipping is included in your cart, and tax at checkout.",
    "Reviewers were complimentary about the Zephyrus's screen.",
    # a total with the shipping paid in it, which no product's price is
    "The Dell XPS 13 [CMP-010] comes to $1,311.98 with express shipping included.",
]


@pytest.mark.parametrize("true", TRUE)
def test_a_true_term_and_ordinary_words_stay(true: str) -> None:
    # Given the store's policies, and an answer whose terms are a product's or the store's
    body = shown(f"{LEAD} {true}")
    # Then the shopper reads it all, uncorrected
    assert body.answer == f"{LEAD} {true}"
    assert body.corrections == []


def test_the_policies_repeated_as_they_write_them_stay() -> None:
    said = (
        "You can return anything you bought from us within 30 days of delivery, for any "
        "reason. Express delivery takes 1 working day and costs $12.99. We ship to the "
        "United States and Canada only."
    )
    assert shown(said).answer == said


@pytest.mark.parametrize(
    "term",
    [
        "Standard delivery is free on orders over $50.",
        "The HP 14 is $349, and delivery is free since it's over $50.",
        "30-day returns, free of charge.",
        "You'll get it tomorrow if you choose express delivery for $12.99.",
        "You can return it within 30 days of delivery.",
        "It comes with at least a one-year warranty.",
        "Returns are free.",
    ],
)
def test_without_policies_a_store_term_is_not_vouched_for(term: str) -> None:
    # Given a store whose policies say nothing, the answer's terms are its own
    assert shown(f"{LEAD} {term}", terms="").answer == LEAD


def test_a_store_whose_policies_make_an_offer_has_it_repeated() -> None:
    # Given policies that do promise a longer warranty, a price match and a member price
    terms = (
        "Every laptop comes with our own 5-year warranty. We price-match any retailer. "
        "Members of our club get 10% off everything. We ship worldwide for free."
    )
    said = (
        "It comes with a 5-year warranty from us. We price-match any retailer. "
        "Members get 10 percent off. Shipping is free worldwide."
    )
    # Then the shopper reads them: the store said them
    assert shown(f"{LEAD} {said}", terms=terms).answer == f"{LEAD} {said}"
    # And what the policies do not say still goes
    assert shown(f"{LEAD} Members get 20 percent off.", terms=terms).answer == LEAD


@pytest.mark.parametrize(
    "invented",
    [
        "Our Acme Phone X9 is a great pick with 5G and 12 GB RAM, in stock now.",
        "Yes, the Google Pixel 10 Pro is in stock now and ships today.",
    ],
)
def test_a_product_no_tool_returned_said_to_be_in_stock_goes(invented: str) -> None:
    # Given a sentence that says a product the catalog did not return can be had
    body = shown(f"The XPS 13 [CMP-010] is light. {invented}")
    # Then the shopper reads only the sentence about the real product
    assert body.answer == "The XPS 13 [CMP-010] is light."


@pytest.mark.parametrize(
    "honest",
    [
        "Sorry, the Google Pixel 7 is not available.",
        "The Nokia 3310 is sold out everywhere.",
        "The Dell XPS 13 is in stock.",
    ],
)
def test_a_product_said_not_to_be_had_or_a_known_one_in_stock_stays(honest: str) -> None:
    body = shown(f"The XPS 13 [CMP-010] is light. {honest}")
    assert body.answer == f"The XPS 13 [CMP-010] is light. {honest}"


@pytest.mark.parametrize(
    "denied",
    ["I can't confirm free shipping on it.", "Shipping is not free under $50."],
)
def test_free_said_with_a_negation_promises_nothing_and_stays(denied: str) -> None:
    body = shown(f"The XPS 13 [CMP-010] is $1,299. {denied}")
    assert body.answer == f"The XPS 13 [CMP-010] is $1,299. {denied}"
