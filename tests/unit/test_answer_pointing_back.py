"""A sentence that points back ("It is in stock now") is about the product before it.

A model can name a product in one sentence and make its claim in the next, with no
name or citation there: "The Apple iMac 24 [CMP-014] is great. It is in stock now." The
shopper reads "it" as the iMac, so the check does too, when the sentence before cites
one product.
"""

from __future__ import annotations

import pytest

from compose_response.logic import ComposeInput, ResponseBody, compose
from tests.unit.test_answer_bold import IMAC, XPS


def shown(answer: str) -> ResponseBody:
    event = ComposeInput(sessionId="s-1", outcome="answered", answer=answer, products=[XPS, IMAC])
    return compose(event)


@pytest.mark.parametrize(
    ("said", "now", "corrected"),
    [
        # the iMac is sold out
        (
            "The Apple iMac 24 [CMP-014] is great. It is in stock now.",
            "The Apple iMac 24 [CMP-014] is great.",
            ("CMP-014", "in stock"),
        ),
        (
            "The Apple iMac 24 [CMP-014] is great. This one ships today.",
            "The Apple iMac 24 [CMP-014] is great.",
            ("CMP-014", "ships today"),
        ),
        # the XPS has 16 GB of RAM
        (
            "The Dell XPS 13 [CMP-005] is light. It has 64 GB of RAM.",
            "The Dell XPS 13 [CMP-005] is light. It has 16 GB of RAM.",
            ("CMP-005", "64 GB"),
        ),
        (
            "- The Dell XPS 13 [CMP-005]: light.\n- It has 64 GB of RAM.",
            "- The Dell XPS 13 [CMP-005]: light.\n- It has 16 GB of RAM.",
            ("CMP-005", "64 GB"),
        ),
    ],
)
def test_a_claim_that_points_back_is_checked_against_the_product_before(
    said: str, now: str, corrected: tuple[str, str]
) -> None:
    # Given a claim made in the sentence after the one that cites the product
    body = shown(said)
    # Then it is checked as the shopper reads it: about that product
    assert body.answer == now
    assert [(c.productId, c.said) for c in body.corrections] == [corrected]


@pytest.mark.parametrize(
    "answer",
    [
        "The Apple iMac 24 [CMP-014] is sold out. It is not in stock.",
        "The Dell XPS 13 [CMP-005] is light. It has 16 GB of RAM and is in stock.",
        "The Dell XPS 13 [CMP-005] is light. Shipping takes 2 days.",
    ],
)
def test_a_true_claim_that_points_back_stays(answer: str) -> None:
    body = shown(answer)
    assert body.answer == answer
    assert body.corrections == []
