"""The store's policies in its own words: the sections a question finds, and what the
policies tool tells the model."""

from __future__ import annotations

from typing import Any

import pytest

from get_store_policies.logic import NOT_SAID, run
from get_store_policies.schema import PoliciesInput
from shared.api.contract import ToolUse
from shared.store import policies
from tests.support.store import SAMPLE

# A store that writes its own words: nothing here is the sample store's.
POLICIES = """\
Intro text of the shop, with no heading.

# Rücksendungen / Returns
Returned items are refunded within
ten days. Returning a gift card is not possible.

## Click and collect
- Collect your order at the counter
  from 10:00.
- Bring your order number.

## Where is my parcel?
Track every order at https://shop.example.com/track.
"""


def test_a_markdown_file_is_cut_at_its_headings_and_its_lines_joined() -> None:
    found = policies.sections(POLICIES)
    assert [s.heading for s in found] == [
        "",
        "Rücksendungen / Returns",
        "Click and collect",
        "Where is my parcel?",
    ]
    assert found[1].text == (
        "Returned items are refunded within ten days. Returning a gift card is not possible."
    )
    assert (
        found[2].text
        == "- Collect your order at the counter from 10:00.\n- Bring your order number."
    )
    assert policies.headings(POLICIES) == [s.heading for s in found[1:]]


def test_a_question_finds_the_section_in_the_stores_words() -> None:
    def best(question: str) -> str:
        return policies.matching(POLICIES, question)[0].heading

    assert best("What is your return policy?") == "Rücksendungen / Returns"
    assert best("can I get a refund") == "Rücksendungen / Returns"
    # A question in other words than the heading's still brings the section to the model
    found = policies.matching(POLICIES, "where is my order?")
    assert "Where is my parcel?" in [s.heading for s in found]
    assert any("https://shop.example.com/track" in s.text for s in found)
    assert best("Can I pick it up? click and collect") == "Click and collect"
    assert policies.matching(POLICIES, "Do you price match?") == []
    assert policies.matching(POLICIES, "what is it?") == []


# A store's policies where a word of a question the policies do not cover is said in
# passing: "the full price", a gift card.
PASSING = """\
## Returns
We refund the full price of anything returned within 30 days. Gift cards are final.

## Payment
We take cards, PayPal and Apple Pay.

Our prices include tax.
"""


def test_a_question_the_policies_only_mention_in_passing_finds_no_section() -> None:
    def headings(question: str) -> list[str]:
        return [s.heading for s in policies.matching(PASSING, question)]

    # "match" and "wrapping" are said nowhere: "price" and "gift" in passing answer nothing,
    # and the model is told the policies do not say (the shopper gets the store's contact).
    assert headings("Do you price match?") == []
    assert headings("do you offer gift wrapping?") == []
    # A section about the question's words still answers it, with a word said nowhere:
    # by its heading ("Canada" is in no section), or by two words of its text.
    assert headings("can I return it from Canada?") == ["Returns"]
    assert headings("do you accept apple pay?") == ["Payment"]
    assert headings("can I pay with Klarna?") == ["Payment"]  # "pay" starts "Payment"
    # A question of words the policies all say reads every section as before.
    assert headings("are gift cards refunded?") == ["Returns"]


def test_a_policies_file_without_headings_answers_every_question_it_shares_a_word_with() -> None:
    untitled = "We refund the full price of anything returned within 30 days."
    # Nothing says what such a file is about: a word said in it finds it.
    assert [s.text for s in policies.matching(untitled, "Do you price match?")] == [untitled]


def call(question: Any) -> dict[str, Any]:
    use = ToolUse(toolUseId="t1", name="get_store_policies", input={"question": question})
    output = run(use, store=SAMPLE)
    return output.dump()["toolResult"]


def test_the_tool_gives_the_model_the_sections_and_the_contact() -> None:
    result = call("What is your return policy?")
    assert result["status"] == "success"
    told = result["content"][0]["json"]
    assert told["store"] == SAMPLE.settings.name
    assert told["sections"][0]["heading"] == "Returns and refunds"
    assert "within 30 days" in told["sections"][0]["text"]
    assert told["contact"] == SAMPLE.settings.contact
    assert "note" not in told
    assert PoliciesInput.found(told) == f"{len(told['sections'])} sections found"


@pytest.mark.parametrize(
    ("question", "heading"),
    [
        ("Wie lange dauert der Versand?", "Shipping and delivery"),
        ("¿Puedo devolver un portátil?", "Returns and refunds"),
        ("Quelle est votre politique de retour ?", "Returns and refunds"),
        ("Kann ich meine Bestellung stornieren?", "Order status and tracking"),
    ],
)
def test_a_question_in_german_spanish_or_french_finds_the_stores_english_section(
    question: str, heading: str
) -> None:
    # Given a store that writes its policies in English, and a shopper who does not
    told = call(question)["content"][0]["json"]

    # Then the section that answers it is found, as the search reads those languages
    assert told["sections"] and told["sections"][0]["heading"] == heading
    assert "note" not in told


def test_what_the_policies_do_not_say_the_model_is_told_to_say_it_does_not_know() -> None:
    told = call("Is there a loyalty programme?")["content"][0]["json"]
    assert told["sections"] == [] and told["note"] == NOT_SAID
    assert told["contact"] == SAMPLE.settings.contact
    assert PoliciesInput.found(told) == "they don't say"


def test_the_live_trace_says_what_is_read_in_the_shoppers_words() -> None:
    line = PoliciesInput(question="Where is my order? I ordered last week").step()
    assert line == "Reading the store's policies for “Where is my order? I ordered last week”"
    assert len(PoliciesInput(question="x" * 300).step()) < 100


def test_a_bad_question_is_an_error_the_model_can_read() -> None:
    result = call("")
    assert result["status"] == "error"
    assert "question" in result["content"][0]["json"]["error"]
    unset = run(
        ToolUse(toolUseId="t", name="get_store_policies", input={"question": "returns"}), store=None
    )
    assert unset.dump()["toolResult"]["content"][0]["json"]["kind"] == "not_configured"
