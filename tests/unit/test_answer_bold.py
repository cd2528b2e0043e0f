"""Bold that splits a word or a number is read as the page draws it: ``$**199**`` is
$199 to the shopper, so it is $199 to the fact check too."""

from __future__ import annotations

from typing import Any

import pytest

from compose_response.logic import ComposeInput, ResponseBody, compose
from shared.text.shown import unsplit

XPS: dict[str, Any] = {
    "productId": "CMP-005",
    "name": "Dell XPS 13 (9340)",
    "brand": "Dell",
    "category": "COMPUTERS",
    "price": 1299.0,
    "stock": 14,
    "specs": {"ramGb": 16, "os": "Windows 11 Home"},
}
IMAC: dict[str, Any] = {
    "productId": "CMP-014",
    "name": "Apple iMac 24 (M3)",
    "brand": "Apple",
    "category": "COMPUTERS",
    "price": 1299.0,
    "stock": 0,
    "specs": {"ramGb": 8, "os": "macOS"},
}


def shown(answer: str) -> ResponseBody:
    event = ComposeInput(sessionId="s-1", outcome="answered", answer=answer, products=[XPS, IMAC])
    return compose(event)


@pytest.mark.parametrize(
    ("said", "now"),
    [
        ("The Dell XPS 13 is just $**199**.", "The Dell XPS 13 is just $1,299."),
        ("The Dell XPS 13 is just $**1**99.", "The Dell XPS 13 is just $1,299."),
        ("The Dell XPS 13 is just $1**99**.", "The Dell XPS 13 is just $1,299."),
        ("The Dell XPS 13 is 1**99** dollars.", "The Dell XPS 13 is 1,299 dollars."),
        ("The Dell XPS 13 has 6**4** GB RAM.", "The Dell XPS 13 has 16 GB RAM."),
        ("The Dell XPS 13 has 64 G**B** RAM.", "The Dell XPS 13 has 16 GB RAM."),
        # Markdown's other marks, and an HTML comment, which a store's own page may draw
        ("The Dell XPS 13 is just $1__99__.", "The Dell XPS 13 is just $1,299."),
        ("The Dell XPS 13 is just $1*9*9.", "The Dell XPS 13 is just $1,299."),
        ("The Dell XPS 13 is just $1<!-- -->99.", "The Dell XPS 13 is just $1,299."),
        # emphasis that sets a number apart from its unit
        ("The Dell XPS 13 has **64** GB RAM.", "The Dell XPS 13 has 16 GB RAM."),
        ("The Dell XPS 13 has 64 **GB** RAM.", "The Dell XPS 13 has 16 GB RAM."),
        ("The Dell XPS 13 has 64 *GB* RAM.", "The Dell XPS 13 has 16 GB RAM."),
        ("The Dell XPS 13 has 64 gigs of RAM.", "The Dell XPS 13 has 16 gigs of RAM."),
    ],
)
def test_a_fact_split_by_bold_is_checked_as_the_shopper_reads_it(said: str, now: str) -> None:
    # Given a model that splits a false fact with bold marks, which the page hides
    body = shown(said)
    # Then the shopper reads the catalog's fact, marked as corrected
    assert body.answer == now
    assert [c.productId for c in body.corrections] == ["CMP-005"]


def test_a_stock_claim_split_by_bold_is_checked() -> None:
    # Given a sold-out product said in stock, "stock" split by bold
    body = shown("The Dell XPS 13 is great. The Apple iMac 24 is in st**ock**.")
    # Then the shopper does not read it in stock: the claim goes, as it does unsplit
    assert body.answer == "The Dell XPS 13 is great."
    assert [(c.productId, c.said) for c in body.corrections] == [("CMP-014", "in stock")]


def test_bold_around_whole_words_stays() -> None:
    body = shown("**Dell XPS 13** [CMP-005]: **$1,299**, in stock.")
    assert body.answer == "**Dell XPS 13** [CMP-005]: **$1,299**, in stock."
    assert body.corrections == []


@pytest.mark.parametrize(
    ("text", "read"),
    [
        ("in st**ock**.", "in stock."),
        ("runs mac**OS**.", "runs macOS."),
        ("5**0**% off", "50% off"),
        ("0.**5** kg", "0.5 kg"),
        ("[AB__12__X] is $1**99**", "[AB__12__X] is $199"),  # a citation is as written
        ("snake_case and CMP__001", "snake_case and CMP__001"),
        ("fits a 3*5 ft shelf, 2*3*4", "fits a 3*5 ft shelf, 2*3*4"),
        ("**Returns and refunds**\nYou can", "**Returns and refunds**\nYou can"),
        ("a **bold** claim, x ** y", "a **bold** claim, x ** y"),
        # between a number and its unit they go; around the two together they stay
        ("**16** GB and 512 **GB**", "16 GB and 512 GB"),
        ('a 15*"* screen, **1.4** kg', 'a 15" screen, 1.4 kg'),
        ("**16 GB** RAM, **$1,299**", "**16 GB** RAM, **$1,299**"),
        ("**Top 3** picks: **Windows 11**", "**Top 3** picks: **Windows 11**"),
        ("***64*** GB, **64** **GB**", "64 GB, 64 GB"),
        ("**2** reasons, Windows 11 **Home**", "**2** reasons, Windows 11 **Home**"),
        ("**$1,299** in the US, **14** in stock", "**$1,299** in the US, **14** in stock"),
    ],
)
def test_only_marks_inside_a_word_or_number_go(text: str, read: str) -> None:
    assert unsplit(text) == read
