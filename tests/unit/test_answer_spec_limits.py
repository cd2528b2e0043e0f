"""A spec said as a limit of the product's own ("The XPS 13 [..] weighs under 1 kg", "has
more than 32 GB of RAM") is a claim its record must keep, as a price limit is; a limit
cannot be corrected in place, so a broken one takes its sentence."""

from __future__ import annotations

import pytest

from compose_response.logic import ComposeInput, compose
from tests.unit.test_answer_tables import HP, shown


@pytest.mark.parametrize(
    ("said", "field"),
    [
        ("The Dell XPS 13 [CMP-005] weighs under 1 kg.", "weightKg"),
        ("The Dell XPS 13 [CMP-005] has more than 32 GB of RAM.", "ramGb"),
        ("The HP 14 [CMP-023] has a battery that lasts over 20 hours.", "batteryHours"),
        ("The HP 14 [CMP-023] comes with at least 1 TB of storage.", "storageGb"),
        ("The Dell XPS 13 [CMP-005] (under 1 kg) is easy to carry.", "weightKg"),
        ("The Dell XPS 13 [CMP-005]: under 1 kg and light in the hand.", "weightKg"),
        ("The Dell XPS 13 [CMP-005] has a battery that lasts for over 20 hours.", "batteryHours"),
    ],
)
def test_a_spec_limit_the_record_breaks_takes_its_sentence(said: str, field: str) -> None:
    # Given a true sentence, and a limit the product's record does not keep
    body = shown(f"Both are good laptops. {said}")
    # Then the shopper does not read the limit; the rest stays
    assert body.answer == "Both are good laptops."
    assert [(c.field, c.dropped) for c in body.corrections] == [(field, True)]


@pytest.mark.parametrize(
    "answer",
    [
        # kept by the record
        "The Dell XPS 13 [CMP-005] weighs under 1.3 kg and has at least 16 GB of RAM.",
        "The HP 14 [CMP-023] has over 200 GB of storage and a battery of more than 10 hours.",
        # what someone needs, other products, a negation
        "The Dell XPS 13 [CMP-005] is ideal if you need at least 32 GB of RAM.",
        "The HP 14 [CMP-023] is heavier than most laptops under 1 kg.",
        "The Dell XPS 13 [CMP-005] does not weigh under 1 kg.",
        # another product's, named after it
        "Unlike the Dell XPS 13 [CMP-005], the LG Gram weighs under 1 kg.",
        "The Dell XPS 13 [CMP-005] is great, but the LG Gram weighs under 1 kg.",
        # what it can be upgraded to, what comes with it, what it outlasts
        "The HP 14 [CMP-023] supports more than 16 GB of RAM.",
        "The Dell XPS 13 [CMP-005] has a charger under 200 g.",
        "The Dell XPS 13 [CMP-005] weighs over 1.3 kg with the charger.",
        "The Dell XPS 13 [CMP-005] battery easily outlasts flights under 10 hours.",
        # "über" inside another word
        "Das HP 14 [CMP-023] hat 8 GB RAM gegenüber 16 GB beim XPS 13.",
        # a limit of the price, no spec
        "The HP 14 [CMP-023] is under $400.",
    ],
)
def test_a_spec_limit_kept_or_not_the_products_own_stays(answer: str) -> None:
    # Given a limit the record keeps, or one that is not the product's own spec
    body = shown(answer)
    # Then it reaches the shopper as written
    assert body.answer == answer
    assert body.corrections == []


def test_a_terabyte_is_read_as_the_thousand_or_the_1024_gigabytes_that_keep_the_limit() -> None:
    # Given a laptop with 1,000 GB of storage said to have at least 1 TB
    laptop = {**HP, "specs": {**HP["specs"], "storageGb": 1000}}
    said = "The HP 14 [CMP-023] has at least 1 TB of storage."
    body = compose(
        ComposeInput(sessionId="s-1", outcome="answered", answer=said, products=[laptop])
    )
    # Then the limit stands: a TB is 1,000 GB as well as 1,024
    assert body.answer == said
    assert body.corrections == []


def test_a_spec_limit_said_by_it_of_the_product_before_is_checked_too() -> None:
    # Given a sentence citing the XPS, then "It" said to weigh under 1 kg (it weighs 1.19 kg)
    body = shown("The Dell XPS 13 [CMP-005] is very light. It weighs under 1 kg.")
    # Then the limit goes; a limit it keeps, or what it supports, stays
    assert body.answer == "The Dell XPS 13 [CMP-005] is very light."
    assert [(c.field, c.dropped) for c in body.corrections] == [("weightKg", True)]
    for kept in ("It weighs under 1.3 kg.", "It supports more than 32 GB of RAM."):
        answer = f"The Dell XPS 13 [CMP-005] is very light. {kept}"
        assert shown(answer).answer == answer
