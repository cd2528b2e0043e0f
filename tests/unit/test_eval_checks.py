"""Scoring one question against hand-made response bodies."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from storechat.evaluate.checks import Turn, declines, score
from storechat.evaluate.questions import LoadedQuestion, Question


def question(expect: dict[str, Any], turns: int = 1) -> LoadedQuestion:
    q = Question.model_validate(
        {
            "id": "q",
            "kind": "single",
            "turns": [f"turn {i}" for i in range(turns)],
            "expect": expect,
        }
    )
    return LoadedQuestion(q, Path("q.jsonl"), 1)


def product(pid: str, **fields: Any) -> dict[str, Any]:
    specs = fields.pop("specs", {})
    return {
        "productId": pid,
        "name": pid,
        "brand": "HP",
        "category": "COMPUTERS",
        "price": 349.0,
        "stock": 10,
        "specs": {"os": "Windows 11 Home", "ramGb": 8, "weightKg": 1.4, **specs},
        **fields,
    }


def body(*products: dict[str, Any], **fields: Any) -> dict[str, Any]:
    return {
        "sessionId": "s",
        "answer": "Here you are.",
        "outcome": "answered",
        "fallbackReason": None,
        "products": list(products),
        "toolRounds": 1,
        "modelCalls": 2,
        "usage": {"inputTokens": 1000, "outputTokens": 100},
        "trace": [{"tool": "lookup_inventory", "status": "success", "round": 1}],
        "unverifiedCitations": [],
        **fields,
    }


def failed(scored: Any) -> list[str]:
    return [c.text() for c in scored.checks if not c.passed]


def test_a_right_answer_passes_every_score_it_is_checked_on() -> None:
    q = question(
        {
            "category": "COMPUTERS",
            "os": "windows",
            "maxPrice": 400,
            "minProducts": 1,
            "toolsCalled": ["lookup_inventory"],
            "outcome": "answered",
        }
    )
    scored = score(q, [Turn(body(product("CMP-023")), 300)])
    assert failed(scored) == []
    assert scored.passed and scored.constraint_share == 1.0
    assert {n: scored.score(n) for n in ("constraints", "tools", "outcome", "citations")} == {
        "constraints": True,
        "tools": True,
        "outcome": True,
        "citations": True,
    }
    assert scored.score("facts") is None  # no words expected and no fact check in the body


def test_the_constraint_share_counts_the_products_that_meet_every_constraint() -> None:
    q = question({"maxPrice": 500, "minRamGb": 16, "maxWeightKg": 1.5})
    shown = [
        product("A", price=499.0, specs={"ramGb": 16}),
        product("B", price=999.0, specs={"ramGb": 16}),
        product("C", specs={"ramGb": 8, "weightKg": 2.2}),
        product("D", specs={"ramGb": 32}),
    ]
    scored = score(q, [Turn(body(*shown), 1)])
    assert scored.constraint_share == 0.5
    assert scored.score("constraints") is False
    (text,) = failed(scored)
    assert "B $999.00 (wanted ≤ $500.00)" in text
    assert "C 8 GB RAM (wanted ≥ 16 GB RAM)" in text and "C 2.2 kg" in text


def test_phones_are_weighed_in_grams_and_a_missing_spec_breaks_a_bound() -> None:
    phone = product("MOB-1", category="MOBILE", specs={"weightKg": None, "weightG": 170})
    assert score(question({"maxWeightKg": 0.2}), [Turn(body(phone), 1)]).passed
    book = product("BK-1", category="BOOKS", specs={"os": None})
    (text,) = failed(score(question({"minCameraMp": 12}), [Turn(body(book), 1)]))
    assert "BK-1 has no cameraMp" in text


@pytest.mark.parametrize(
    ("expect", "shown", "fails"),
    [
        ({"category": "MOBILE"}, product("X"), "X is in COMPUTERS, not MOBILE"),
        ({"brand": "dell"}, product("X"), "X is by HP, not dell"),
        ({"os": "macOS"}, product("X"), "X runs Windows 11 Home, not macOS"),
        ({"inStock": True}, product("X", stock=0), "X is out of stock"),
        ({"productIds": ["Y"]}, product("X"), "Y not shown (showed X)"),
        ({"minProducts": 2}, product("X"), "at least 2 products: 1"),
        ({"maxProducts": 0}, product("X"), "at most 0 products: 1"),
        ({"noProducts": True}, product("X"), "no products: showed X"),
    ],
)
def test_each_constraint_says_what_it_saw(
    expect: dict[str, Any], shown: dict[str, Any], fails: str
) -> None:
    assert any(fails in f for f in failed(score(question(expect), [Turn(body(shown), 1)])))


def test_of_those_means_every_product_was_shown_the_turn_before() -> None:
    q = question({"productIdsFrom": "previous"}, turns=2)
    before = Turn(body(product("A"), product("B")), 1)
    assert score(q, [before, Turn(body(product("B")), 1)]).passed
    later = score(q, [before, Turn(body(product("B"), product("C")), 1)])
    assert later.constraint_share == 0.5
    assert "C was not among the previous turn's products" in failed(later)[0]


def test_answer_words_are_matched_without_case_or_curly_quotes() -> None:
    q = question(
        {"answerIncludes": ["Philosopher's Stone", "ROWLING"], "answerExcludes": ["discount"]}
    )
    said = body(answer="Harry Potter and the Philosopher\u2019s Stone by J.K. Rowling.")
    assert score(q, [Turn(said, 1)]).passed
    wrong = score(q, [Turn(body(answer="A discount for you: Rowling."), 1)])
    assert failed(wrong) == [
        'says "Philosopher\'s Stone": missing',
        "does not say 'discount': said",
    ]


def test_corrected_facts_fail_the_facts_score_on_any_turn() -> None:
    correction = {"productId": "CMP-023", "field": "price", "said": "$299", "record": "$349"}
    q = question({}, turns=2)
    scored = score(q, [Turn(body(corrections=[correction]), 1), Turn(body(corrections=[]), 1)])
    assert scored.corrections == 1 and scored.fact_accuracy is None
    assert failed(scored) == ["no corrected facts: CMP-023 price: said '$299', record $349"]
    assert score(q, [Turn(body(), 1), Turn(body(), 1)]).corrections is None  # not measured


def test_fact_accuracy_is_measured_when_the_body_counts_the_facts_checked() -> None:
    correction = {"productId": "A", "field": "price", "said": "$1", "record": "$2"}
    scored = score(question({}), [Turn(body(corrections=[correction], factsChecked=4), 1)])
    assert scored.fact_accuracy == 0.75


def test_an_unverified_citation_fails_the_citations_score() -> None:
    scored = score(question({}), [Turn(body(unverifiedCitations=["CMP-999"]), 1)])
    assert scored.score("citations") is False
    assert failed(scored) == ["citations verified: CMP-999"]


def test_tools_are_read_from_the_last_trace_and_the_fact_check_line_is_not_a_tool() -> None:
    trace = [
        {"tool": "lookup_inventory", "round": 1},
        {"tool": "check_facts", "status": "success"},
    ]
    q = question({"toolsCalled": ["get_book_info"], "toolsNotCalled": ["lookup_inventory"]})
    assert failed(score(q, [Turn(body(trace=trace), 1)])) == [
        "called get_book_info: called lookup_inventory",
        "did not call lookup_inventory: called",
    ]


@pytest.mark.parametrize(
    ("answer", "products", "outcome", "declined"),
    [
        ("Sorry, I can't share my instructions.", [], "answered", True),
        ("We don't sell TVs; we sell computers, phones and books.", [], "answered", True),
        ("I can only help with computers, phones and books.", [], "answered", True),
        ("I\u2019m unable to look up orders.", [], "answered", True),
        (
            "Hi! I can find computers, phones and books. What are you looking for?",
            [],
            "answered",
            False,
        ),
        (
            "Sorry, that one is sold out; here is another [CMP-1].",
            [product("CMP-1")],
            "answered",
            False,
        ),
        ("Sorry, I can't help with that request.", [], "refused", True),
        ("anything", [product("CMP-1")], "refused", True),
    ],
)
def test_what_counts_as_declining(
    answer: str, products: list[dict[str, Any]], outcome: str, declined: bool
) -> None:
    assert declines(body(*products, answer=answer, outcome=outcome)) is declined


def test_refuse_and_outcome_say_what_the_answer_was() -> None:
    q = question({"refuse": True, "outcome": "refused"})
    greeting = body(answer="Hi! What are you looking for?", trace=[])
    texts = failed(score(q, [Turn(greeting, 1)]))
    assert texts == [
        "outcome refused: answered",
        "declines: answered 'Hi! What are you looking for?'",
    ]


def test_a_failed_execution_fails_the_question_and_scores_nothing_else() -> None:
    q = question({"category": "COMPUTERS"}, turns=2)
    scored = score(q, [Turn(body(), 1), Turn(None, 5, "the execution FAILED: ReplayExhausted: x")])
    assert failed(scored) == [
        "execution succeeded: turn 2: the execution FAILED: ReplayExhausted: x"
    ]
    assert scored.score("constraints") is None and scored.score("outcome") is False
