"""The store's sales and its shoppers' ratings are in no tool's result: an answer that says
a product is the store's best seller, is selling fast, or is rated so by the store's
customers says what nothing vouches for, and the sentence goes. The product's own record
(a "bestseller" tag) and the store's policies vouch for it; a book's fame and reviewers'
words are no claim about the store."""

from __future__ import annotations

import pytest

from compose_response.logic import ComposeInput, ResponseBody, compose
from tests.unit.test_answer_under_heading import HP, IMAC, XPS

SAID = "The HP 14 [CMP-023] is $349."


def shown(answer: str, *, tags: list[str] | None = None, terms: str = "") -> ResponseBody:
    hp = {**HP, "tags": tags} if tags else HP
    event = ComposeInput(
        sessionId="s-1", outcome="answered", answer=answer, products=[XPS, IMAC, hp]
    )
    return compose(event, terms=terms)


@pytest.mark.parametrize(
    "claim",
    [
        "The Dell XPS 13 [CMP-005] is our best-selling laptop.",
        "The Dell XPS 13 [CMP-005] is the most popular laptop we sell.",
        "The Dell XPS 13 [CMP-005] is our top seller.",
        "It is a customer favourite here.",
        "The Dell XPS 13 [CMP-005] is selling fast.",
        "The Dell XPS 13 [CMP-005] is in high demand in our store.",
        "Over 500 customers bought the Dell XPS 13 [CMP-005] this month.",
        "The Dell XPS 13 [CMP-005] has 1,200 five-star reviews in our store.",
        "The Dell XPS 13 [CMP-005] is rated 4.8/5 by our customers.",
        # a reviewer's words that speak as the store are the store's
        "A reviewer writes: the Dell XPS 13 [CMP-005] is our best-selling laptop.",
        "The Dell XPS 13 [CMP-005] is flying off our shelves.",
        "Hundreds of our customers bought the Dell XPS 13 [CMP-005].",
        "Our customers rate the Dell XPS 13 [CMP-005] 4.8 out of 5.",
        "The Dell XPS 13 [CMP-005] has 4.7 stars from 300 reviews on our site.",
        "The Dell XPS 13 [CMP-005] sells out quickly here.",
    ],
)
def test_the_stores_sales_or_ratings_said_of_a_product_go(claim: str) -> None:
    # Given an answer that says how the product sells in the store or how its shoppers
    # rate it, which no tool returned
    body = shown(f"{SAID} {claim}")
    # Then the shopper reads only what the catalog vouches for
    assert body.answer == SAID


@pytest.mark.parametrize(
    "said",
    [
        "Nineteen Eighty-Four is one of the best-selling novels of all time.",
        "Android is the most popular mobile system.",
        "The MacBook Air is a popular choice for students.",
        "Tom's Guide calls it Amazon's best-selling laptop.",
        "Reviewers rate the Dell XPS 13 [CMP-005] 4.5 out of 5.",
        # fame beside the store's words; a denial, a question, a condition
        "It's a New York Times bestseller we carry in paperback.",
        "We have it in stock, and it is one of the best-selling novels of all time.",
        "Android is the most popular mobile OS, and we carry it here.",
        "The Galaxy S series is Samsung's most popular line here in the US.",
        "Samsung says it is selling fast worldwide.",
        "Over 1,000 people reviewed it on GSMArena.",
        "I don't have sales data, so I can't tell you which laptop is our best seller.",
        "Is it our best-selling laptop? I don't have that information.",
        "If you want the most popular option here, let me know your budget.",
        # the assistant's own pick, everyday words, others' reviews, an author's fame
        "My number one pick here: the Dell XPS 13 [CMP-005].",
        "The Dell XPS 13 [CMP-005] keeps apps going quickly thanks to 16GB RAM.",
        "RAM is in high demand for video editing, so 16GB is worth it.",
        "Thousands of customers use Windows laptops like this one.",
        "It has 3 five-star reviews from tech sites.",
        "Orwell is a best-selling author we carry in paperback.",
        "It's a Penguin bestseller we carry.",
    ],
)
def test_fame_and_reviewers_words_are_no_claim_about_the_store(said: str) -> None:
    body = shown(f"{SAID} {said}")
    assert body.answer == f"{SAID} {said}"


def test_a_bestseller_tag_on_the_products_record_vouches_for_it() -> None:
    answer = f"{SAID} The HP 14 [CMP-023] is our best-selling laptop."
    assert shown(answer, tags=["bestseller", "budget"]).answer == answer


def test_the_stores_own_words_repeated_vouch_for_it() -> None:
    answer = f"{SAID} Chromebooks are a customer favourite here."
    terms = "## About us\nChromebooks are a customer favourite here."
    assert shown(answer, terms=terms).answer == answer


def test_popularity_in_the_stores_words_vouches_for_no_other_product() -> None:
    answer = f"{SAID} The Dell XPS 13 [CMP-005] is our best-selling laptop."
    terms = "## About us\nThe HP 14 is our best-selling laptop."
    assert shown(answer, terms=terms).answer == SAID
