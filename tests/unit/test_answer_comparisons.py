"""Two products set against each other ("The XPS 13 [..] is cheaper than the HP 14 [..]")
are checked against both records: a misled model's comparison names no price or spec the
other checks could read, and reached the shopper whatever it said."""

from __future__ import annotations

from typing import Any

import pytest

from compose_response.logic import ComposeInput, ResponseBody, compose
from tests.unit.test_answer_bold import XPS

LIGHT_XPS: dict[str, Any] = {
    **XPS,
    "specs": {**XPS["specs"], "weightKg": 1.19, "batteryHours": 14, "storageGb": 512},
}
HP: dict[str, Any] = {
    **XPS,
    "productId": "CMP-023",
    "name": "HP 14 Laptop (14-ep0000)",
    "brand": "HP",
    "price": 349.0,
    "specs": {"ramGb": 8, "os": "Windows 11 Home", "weightKg": 1.46, "batteryHours": 9},
}


def answered(answer: str) -> ResponseBody:
    return compose(
        ComposeInput(sessionId="s-1", outcome="answered", answer=answer, products=[LIGHT_XPS, HP])
    )


@pytest.mark.parametrize(
    ("said", "field"),
    [
        ("The Dell XPS 13 [CMP-005] is cheaper than the HP 14 [CMP-023].", "price"),
        ("The Dell XPS 13 [CMP-005] costs less than the HP 14 [CMP-023].", "price"),
        ("The HP 14 [CMP-023] costs $950 more than the Dell XPS 13 [CMP-005].", "price"),
        ("The HP 14 [CMP-023] is not cheaper than the Dell XPS 13 [CMP-005].", "price"),
        ("The HP 14 [CMP-023] is much lighter than the Dell XPS 13 [CMP-005].", "weightKg"),
        ("The HP 14 [CMP-023] has more RAM than the Dell XPS 13 [CMP-005].", "ramGb"),
        ("The HP 14 [CMP-023] has a longer battery life than the Dell XPS 13 [CMP-005].",
         "batteryHours"),
        # by name, in German, French and Spanish
        ("The Dell XPS 13 [CMP-005] is good. The Dell XPS 13 is cheaper than the HP 14 Laptop.",
         "price"),
        ("Der Dell XPS 13 [CMP-005] ist günstiger als der HP 14 [CMP-023].", "price"),
        ("Le Dell XPS 13 [CMP-005] est moins cher que le HP 14 [CMP-023].", "price"),
        ("El Dell XPS 13 [CMP-005] es más barato que el HP 14 [CMP-023].", "price"),
    ],
)  # fmt: skip
def test_a_comparison_the_records_contradict_goes_with_its_sentence(said: str, field: str) -> None:
    # Given an answer that sets two products against each other the wrong way round
    body = answered(said)

    # Then its sentence goes, and the correction says which field was compared
    assert "cheaper" not in body.answer and "than" not in body.answer
    assert [(c.field, c.dropped) for c in body.corrections] == [(field, True)]


@pytest.mark.parametrize(
    "said",
    [
        "The HP 14 [CMP-023] is cheaper than the Dell XPS 13 [CMP-005].",
        "The Dell XPS 13 [CMP-005] costs $950 more than the HP 14 [CMP-023].",
        "The Dell XPS 13 [CMP-005] isn't cheaper than the HP 14 [CMP-023].",
        "The Dell XPS 13 [CMP-005] is lighter than the HP 14 [CMP-023] and has more RAM.",
        "The Dell XPS 13 [CMP-005] has a longer battery life than the HP 14 [CMP-023].",
        "Der HP 14 [CMP-023] ist günstiger als der Dell XPS 13 [CMP-005].",
        # a hedge, or a field one of them does not list: nothing to check
        "The Dell XPS 13 [CMP-005] could be cheaper than the HP 14 [CMP-023] on Black Friday.",
        "The HP 14 [CMP-023] has more storage than the Dell XPS 13 [CMP-005].",
        # no comparison between the two
        "The Dell XPS 13 [CMP-005] is better built than most, and the HP 14 [CMP-023] is fine.",
    ],
)
def test_a_comparison_the_records_bear_out_or_cannot_tell_stays(said: str) -> None:
    body = answered(said)
    assert body.answer == said and body.corrections == []


@pytest.mark.parametrize(
    ("said", "kept"),
    [
        (
            "The Dell XPS 13 [CMP-005] and the HP 14 [CMP-023] are good. "
            "The Dell XPS 13 [CMP-005] is the cheapest.",
            "The Dell XPS 13 [CMP-005] and the HP 14 [CMP-023] are good.",
        ),
        (
            "The Dell XPS 13 [CMP-005] and the HP 14 [CMP-023] are good. "
            "The cheapest of the two is the Dell XPS 13 [CMP-005].",
            "The Dell XPS 13 [CMP-005] and the HP 14 [CMP-023] are good.",
        ),
        (
            "1. Dell XPS 13 [CMP-005]: $1,299\n2. HP 14 [CMP-023]: $349\n\n"
            "The Dell XPS 13 is the heaviest option here. The HP 14 is the cheapest.",
            "1. Dell XPS 13 [CMP-005]: $1,299\n2. HP 14 [CMP-023]: $349\n\n"
            "The HP 14 is the cheapest.",
        ),
        (
            "The Dell XPS 13 [CMP-005] and the HP 14 [CMP-023] are good. "
            "Der HP 14 [CMP-023] ist der teuerste.",
            "The Dell XPS 13 [CMP-005] and the HP 14 [CMP-023] are good.",
        ),
    ],
)
def test_a_product_said_to_be_the_most_of_those_cited_is_checked_against_them(
    said: str, kept: str
) -> None:
    # "[..] is the cheapest" of the XPS at $1,299 beside the HP 14 at $349 reached the
    # shopper: a superlative holds no value of its own to check
    body = answered(said)
    assert body.answer == kept
    assert [c.dropped for c in body.corrections] == [True]


@pytest.mark.parametrize(
    "said",
    [
        "The Dell XPS 13 [CMP-005] and the HP 14 [CMP-023] are good. "
        "The HP 14 [CMP-023] is the cheapest of the two.",
        # set against some of them only, or against nothing the answer cites
        "The Dell XPS 13 [CMP-005] and the HP 14 [CMP-023] are good. "
        "The Dell XPS 13 [CMP-005] is the cheapest 13-inch laptop we have.",
        "The Dell XPS 13 [CMP-005] is the most expensive.",
    ],
)
def test_a_product_said_to_be_the_most_that_is_or_of_others_stays(said: str) -> None:
    body = answered(said)
    assert body.answer == said and body.corrections == []


@pytest.mark.parametrize(
    "said",
    [
        (
            "The Dell XPS 13 [CMP-005] is cheaper than most premium ultrabooks, but the HP 14 "
            "[CMP-023] is the real budget pick."
        ),
        (
            "The HP 14 [CMP-023] is lighter than many 15-inch laptops, and the Dell XPS 13 "
            "[CMP-005] is lighter still."
        ),
        "The HP 14 [CMP-023] costs more than a Chromebook but less than the Dell XPS 13 [CMP-005].",
        (
            "If you need 16 GB, the Dell XPS 13 [CMP-005] is the cheapest option. The HP 14 "
            "[CMP-023] has 8 GB."
        ),
        (
            "With 16 GB of RAM, the Dell XPS 13 [CMP-005] is the cheapest option. The HP 14 "
            "[CMP-023] has 8 GB."
        ),
        (
            "### Best for 16 GB of RAM\nThe cheapest option here is the Dell XPS 13 "
            "[CMP-005].\n### Budget\nThe HP 14 [CMP-023]."
        ),
        (
            "Is the Dell XPS 13 [CMP-005] cheaper than the HP 14 [CMP-023]? No, the HP 14 is $950 "
            "less."
        ),
        (
            "**Is the HP 14 [CMP-023] lighter than the Dell XPS 13 [CMP-005]?** No: 1.46 kg vs "
            "1.19 kg."
        ),
        (
            "You asked whether the HP 14 [CMP-023] is lighter than the Dell XPS 13 [CMP-005]. It "
            "isn't."
        ),
        (
            "It's a common misconception that the Dell XPS 13 [CMP-005] is cheaper than the HP 14 "
            "[CMP-023]."
        ),
        "The Dell XPS 13 [CMP-005] is cheaper than the HP 14 [CMP-023] was at launch.",
        "The HP 14 [CMP-023] is cheaper than the Dell XPS 13 [CMP-005] by $950.",
        "The HP 14 [CMP-023] is $950 cheaper than the Dell XPS 13 [CMP-005].",
        "The HP 14 [CMP-023] is the cheaper of the two.",
        (
            "The Dell XPS 13 [CMP-005] and the HP 14 [CMP-023] are good. The Dell XPS 13 [CMP-005] "
            "is the lightest of the two at 1.19 kg."
        ),
    ],
)
def test_what_is_no_comparison_of_the_two_or_no_claim_stays(said: str) -> None:
    # "than" followed by something else than the other product, a condition or a section
    # before a superlative, a question, a report or doubt, another time ("was at launch"),
    # a true difference: no claim the records contradict
    body = answered(said)
    assert body.answer == said and body.corrections == []


@pytest.mark.parametrize(
    "said",
    [
        "Le HP 14 [CMP-023] est plus léger que le Dell XPS 13 [CMP-005].",
        "Le Dell XPS 13 [CMP-005] coûte moins cher que le HP 14 [CMP-023].",
        "Der HP 14 [CMP-023] hat mehr RAM als der Dell XPS 13 [CMP-005].",
        "El HP 14 [CMP-023] pesa menos que el Dell XPS 13 [CMP-005].",
        "El HP 14 [CMP-023] tiene más RAM que el Dell XPS 13 [CMP-005].",
        "The **Dell XPS 13** [CMP-005] is **cheaper** than the **HP 14** [CMP-023].",
        "The Dell XPS 13 [CMP-005], at $1,299, is cheaper than the HP 14 [CMP-023].",
        "The Dell XPS 13 [CMP-005] (16 GB RAM) is cheaper than the HP 14 [CMP-023].",
        "The Dell XPS 13 [CMP-005] is a cheaper option than the HP 14 [CMP-023].",
        "The HP 14 [CMP-023] is lighter and cheaper than the Dell XPS 13 [CMP-005].",
        "The Dell XPS 13 [CMP-005] costs $50 more than the HP 14 [CMP-023].",
        "The HP 14 [CMP-023] is $500 cheaper than the Dell XPS 13 [CMP-005].",
        (
            "The Dell XPS 13 [CMP-005] and the HP 14 [CMP-023] are good. The Dell XPS 13 [CMP-005] "
            "is the cheapest option here at $1,299."
        ),
        (
            "The Dell XPS 13 [CMP-005] and the HP 14 [CMP-023] are good. The Dell XPS 13 [CMP-005] "
            "is actually the cheapest of the two."
        ),
        (
            "The Dell XPS 13 [CMP-005] and the HP 14 [CMP-023] are good. The Dell XPS 13 [CMP-005] "
            "is the cheaper of the two."
        ),
        (
            "The Dell XPS 13 [CMP-005] and the HP 14 [CMP-023] are good. Der Dell XPS 13 [CMP-005] "
            "ist der günstigste von beiden."
        ),
    ],
)
def test_a_wrong_comparison_in_other_words_goes_too(said: str) -> None:
    # French, German and Spanish verbs, bold words, an aside before the comparative, "a
    # cheaper option", two comparatives at once, a wrong difference, a superlative with
    # its price after it or "the cheaper of the two"
    body = answered(said)
    assert body.answer != said
    assert body.corrections and all(c.dropped for c in body.corrections)


CHROMEBOOK: dict[str, Any] = {
    **HP,
    "productId": "CMP-025",
    "name": "HP Chromebook 14a",
    "price": 249.0,
    "specs": {"ramGb": 4, "os": "ChromeOS", "weightKg": 1.46},
}


@pytest.mark.parametrize(
    ("said", "kept"),
    [
        ("The HP 14 [CMP-023] is the cheapest laptop in the whole store.", False),
        ("The HP 14 [CMP-023] is the cheapest laptop we sell.", False),
        ("The HP Chromebook 14a [CMP-025] is the cheapest laptop we sell.", True),
        ("The Dell XPS 13 [CMP-005] is the lightest laptop we sell.", True),
        # set against some of the store's only: not read
        ("The HP 14 [CMP-023] is the cheapest Windows laptop we sell.", True),
        ("The HP 14 [CMP-023] is the cheapest laptop we sell, excluding Chromebooks.", True),
    ],
)
def test_a_product_said_to_be_the_most_of_the_store_is_checked_against_what_was_found(
    said: str, kept: bool
) -> None:
    # Given the tools found the Chromebook at $249 beside the HP 14 at $349, though the
    # answer cites only one: "the cheapest laptop in the whole store" of the HP 14 reached
    # the shopper
    body = compose(
        ComposeInput(
            sessionId="s-1",
            outcome="answered",
            answer=said,
            products=[LIGHT_XPS, HP, CHROMEBOOK],
        )
    )
    if kept:
        assert body.answer == said and body.corrections == []
    else:
        assert "[CMP-0" not in body.answer and [c.dropped for c in body.corrections] == [True]
