"""A sentence that points back ("It is in stock now") says the product before it can be had.

A model can name a product in one sentence and make its claim in the next, with no
name or citation there: "The Apple iMac 24 [CMP-014] is great. It is in stock now." The
shopper reads "it" as the iMac, so the stock check does too, when the sentence before
cites one product. Other facts in such a sentence are left alone: "It beats the 8 GB
most laptops have" is about other laptops.
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
        (
            "The Apple iMac 24 [CMP-014] is great. Good news: it is in stock now.",
            "The Apple iMac 24 [CMP-014] is great.",
            ("CMP-014", "in stock"),
        ),
        (
            "- The Apple iMac 24 [CMP-014]: great.\n- **It is in stock now.**",
            "- The Apple iMac 24 [CMP-014]: great.",
            ("CMP-014", "in stock"),
        ),
    ],
)
def test_availability_that_points_back_is_checked_against_the_product_before(
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
        # a guess or a future, which no stock claim is
        "The Apple iMac 24 [CMP-014] is sold out. It should be back in stock in a week or two.",
        # other facts in it may be about anything
        "The Dell XPS 13 [CMP-005] has 16 GB of RAM. It beats the 8 GB RAM most laptops have.",
        "The Dell XPS 13 [CMP-005] has 16 GB of RAM. It is enough; editors want 32 GB of RAM.",
        "The Apple iMac 24 [CMP-014] runs macOS. It can also run Windows 11 through Parallels.",
        # its stock words about something else
        "The Dell XPS 13 [CMP-005] is light. It pairs well with the WD19 dock, which is sold out.",
        "The Apple iMac 24 [CMP-014] is $1,299. It pairs well with the Magic Keyboard, in stock.",
        # two products before: "it" is not known
        "The Dell XPS 13 [CMP-005] and the Apple iMac 24 [CMP-014] are great. It is in stock.",
    ],
)
def test_a_true_claim_that_points_back_stays(answer: str) -> None:
    body = shown(answer)
    assert body.answer == answer
    assert body.corrections == []
