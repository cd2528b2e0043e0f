"""Building the response body: products only from the ledger, claims only if verified."""

from __future__ import annotations

from typing import Any

import pytest

from compose_response.logic import FOUND_WORDS, ComposeInput, cited_products, compose
from shared.api.vocabulary import FALLBACK_REASONS
from shared.products.ledger import products_of

RECORDS: list[dict[str, Any]] = [
    {"productId": "CMP-002", "name": "Acer Swift Go 14", "brand": "Acer", "price": 699.0},
    {"productId": "CMP-010", "name": "Dell Inspiron 14", "brand": "Dell", "price": 649.0},
    {"productId": "CMP-002", "name": "Acer Swift Go 14", "brand": "Acer", "price": 699.0},
]
LEDGER = products_of(RECORDS)


def body(**kwargs: Any) -> dict[str, Any]:
    return compose(ComposeInput(sessionId="s-1", **kwargs)).model_dump()


def test_products_follow_the_order_of_citation_without_duplicates() -> None:
    # Given an answer citing two ledger products, one twice
    out = body(
        outcome="answered",
        answer="Get [CMP-010], or [CMP-002]. [CMP-010] is cheaper.",
        products=RECORDS,
    )
    # Then the products are listed once each, in the order first cited
    assert [p["productId"] for p in out["products"]] == ["CMP-010", "CMP-002"]
    assert out["unverifiedCitations"] == [] and out["corrections"] == []


def test_a_citation_no_tool_returned_is_removed_with_its_sentence() -> None:
    text, products, unknown = cited_products(
        "The [CMP-002] suits students. The SuperBook [CMP-777] is better. Both ship free.", LEDGER
    )
    assert text == "The [CMP-002] suits students. Both ship free."
    assert [p.productId for p in products] == ["CMP-002"]
    assert unknown == ["CMP-777"]


def test_a_bullet_with_an_invented_product_is_dropped_whole() -> None:
    text, _, unknown = cited_products("Options:\n- [CMP-010] Dell\n- [FAKE-1] Imaginary", LEDGER)
    assert text == "Options:\n- [CMP-010] Dell"
    assert unknown == ["FAKE-1"]


def test_markdown_links_and_empty_brackets_are_not_citations() -> None:
    text, products, unknown = cited_products(
        "See [the guide](https://x.test) (the note below). Pick a [ ] box.", LEDGER
    )
    assert products == [] and unknown == []
    assert text == "See [the guide](https://x.test) (the note below). Pick a [ ] box."


def test_anything_in_square_brackets_is_a_citation_whatever_it_looks_like() -> None:
    # Given a store whose ids may be any text, When the model writes in square brackets
    # what no tool returned, one word or several, Then the shopper does not read that claim
    text, products, unknown = cited_products(
        "The [CMP-002] is light. Also try [note]. Or the [ZEPHYR ULTRA 2].", LEDGER
    )
    assert text == "The [CMP-002] is light."
    assert [p.productId for p in products] == ["CMP-002"]
    assert unknown == ["note", "ZEPHYR ULTRA 2"]


def test_fallback_names_the_reason_and_offers_what_was_found() -> None:
    out = body(outcome="fallback", fallbackReason="iteration_cap", products=RECORDS)
    assert out["fallbackReason"] == "iteration_cap"
    assert "reached my limit" in out["answer"]
    assert [p["productId"] for p in out["products"]] == ["CMP-002", "CMP-010"]
    assert "[CMP-002]" in out["answer"]


def test_fallback_without_products_still_gives_a_helpful_answer() -> None:
    out = body(outcome="fallback", fallbackReason="model_error")
    assert out["products"] == []
    assert "not available right now" in out["answer"] and "try again" in out["answer"]


def test_over_budget_the_answer_says_the_assistant_is_busy_and_lists_the_catalogs_matches() -> None:
    # Given a turn answered from a catalog search because the day's budget is spent
    out = body(outcome="fallback", fallbackReason="budget_exhausted", products=RECORDS)

    # Then the shopper reads that the assistant is busy and what the catalog has, not
    # "what I found so far" (nothing was being worked on)
    assert out["fallbackReason"] == "budget_exhausted"
    assert "very busy right now" in out["answer"]
    assert "Here is what the catalog has for your words:" in out["answer"]
    assert "so far" not in out["answer"]
    assert [p["productId"] for p in out["products"]] == ["CMP-002", "CMP-010"]
    assert "- Acer Swift Go 14 (Acer, $699.00) [CMP-002]" in out["answer"]


def test_over_budget_with_nothing_found_the_answer_says_so_and_what_to_do() -> None:
    out = body(outcome="fallback", fallbackReason="budget_exhausted")
    assert out["products"] == []
    assert "very busy right now" in out["answer"]
    assert "could not find anything in the catalog for those words" in out["answer"]


def test_every_reason_with_its_own_words_is_a_declared_fallback_reason() -> None:
    assert set(FOUND_WORDS) <= set(FALLBACK_REASONS)


def test_refusal_is_polite_and_lists_nothing() -> None:
    out = body(outcome="refused", answer="whatever the model said", products=RECORDS)
    assert out["products"] == [] and "can't help" in out["answer"]
    assert "whatever the model said" not in out["answer"]


def test_truncated_answer_is_marked() -> None:
    out = body(outcome="truncated", answer="The [CMP-002] is good because", products=RECORDS)
    assert out["answer"].startswith("The [CMP-002] is good because")
    assert "cut short" in out["answer"]
    assert out["fallbackReason"] is None


def test_an_answer_left_empty_by_removals_still_says_something() -> None:
    out = body(outcome="answered", answer="Buy the [NOPE-1].", products=RECORDS)
    assert out["products"] == []
    assert out["answer"] and "NOPE-1" not in out["answer"]


def test_a_long_truncated_answer_keeps_its_cut_short_note() -> None:
    out = body(outcome="truncated", answer="The [CMP-002] is good. " * 400, products=RECORDS)
    assert len(out["answer"]) <= 4000
    assert out["answer"].endswith(
        "(This answer was cut short. Ask me to continue or to be more specific.)"
    )


@pytest.mark.parametrize(
    ("answer", "kept"),
    [
        ("推荐 HP 14 [CMP-023]。Zephyr [CMP-999] 也不错！", "推荐 HP 14 [CMP-023]。"),
        ("「HP 14 [CMP-023] です。」Zephyr [CMP-999] です。", "「HP 14 [CMP-023] です。」"),
        ("HP 14 [CMP-023] अच्छा है। Zephyr [CMP-999] भी।", "HP 14 [CMP-023] अच्छा है।"),
        (
            'He said "HP 14 [CMP-023] is fine." Zephyr [CMP-999] too.',
            'He said "HP 14 [CMP-023] is fine."',
        ),
    ],
)
def test_an_invented_citation_drops_only_its_sentence_in_any_script(answer: str, kept: str) -> None:
    ledger = products_of([{"productId": "CMP-023", "name": "HP 14"}])
    text, products, unknown = cited_products(answer, ledger)
    assert text == kept
    assert [p.productId for p in products] == ["CMP-023"] and unknown == ["CMP-999"]
