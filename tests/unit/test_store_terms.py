"""The store's own words vouch for the prices and the "free" its policies state."""

from __future__ import annotations

from compose_response.logic import ComposeInput, compose

POLICIES = (
    "## Shipping\n\nStandard delivery is free on orders over $50 (otherwise $4.99). "
    "Express delivery costs $12.99.\n"
)


def _answer(text: str, terms: str) -> str:
    event = ComposeInput.model_validate(
        {"sessionId": "s", "outcome": "answered", "answer": text, "products": []}
    )
    return compose(event, terms=terms).answer


def test_the_policies_sentences_repeated_as_written_stay() -> None:
    # Given the store's policies, When the answer repeats their sentences
    said = (
        "Standard delivery is free on orders over $50 (otherwise $4.99). "
        "Express delivery costs $12.99."
    )
    # Then the shopper reads them, its "free" and its prices
    assert _answer(said, POLICIES) == said


def test_a_free_offer_the_policies_do_not_state_goes() -> None:
    # Given the same policies, When the model adds a free gift of its own
    answer = _answer("Express delivery costs $12.99. Every order gets a free laptop.", POLICIES)
    # Then the shopper reads the store's price and not the gift
    assert answer == "Express delivery costs $12.99."
