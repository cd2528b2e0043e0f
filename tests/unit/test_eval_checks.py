"""Scoring one question against hand-made response bodies."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from storechat.evaluate.checks import Turn, asks, declines, score
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
        ({"specIncludes": {"gpu": "RTX"}}, product("X"), "X has no gpu (wanted one with 'RTX')"),
        (
            {"specIncludes": {"os": "linux"}},
            product("X"),
            "X has os 'Windows 11 Home' (wanted one with 'linux')",
        ),
        ({"minBatteryMah": 5000}, product("X", specs={"batteryMah": 4000}), "X 4000 mAh battery"),
        ({"minYear": 2000}, product("X", specs={"year": 1997}), "X year 1997 (wanted ≥ year 2000)"),
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


def test_max_model_calls_reads_the_last_turn() -> None:
    # Given a question answered in at most one model call
    q = question({"maxModelCalls": 1}, turns=2)
    # When the first turn took two and the last one
    one = score(q, [Turn(body(modelCalls=2), 1), Turn(body(modelCalls=1), 2)])
    # Then it passes; and when the last took two, it fails, saying how many it took
    two = score(q, [Turn(body(modelCalls=1), 1), Turn(body(modelCalls=2), 2)])
    assert failed(one) == []
    assert failed(two) == ["at most 1 model calls: 2 model calls"]
    assert two.score("tools") is False


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


def test_a_spec_is_matched_as_a_substring_of_its_text_or_of_any_item_of_its_list() -> None:
    # Given products whose specs are text and a list, as an import may hold them
    linux = product("S76", specs={"os": "Pop!_OS 22.04 LTS", "ports": ["USB-C", "HDMI 2.1"]})
    q = question({"specIncludes": {"os": "pop!_os", "ports": "hdmi"}})
    # Then both hold, in any case
    assert score(q, [Turn(body(linux), 1)]).passed


CATALOG = [
    product("CHEAP", price=249.0, specs={"weightKg": 1.46}),
    product("DEAR", price=2999.0, stock=0, specs={"weightKg": 2.45}),
    product("DEAR-IN-STOCK", price=2399.0, specs={"weightKg": 1.84}),
    product("LIGHT", price=799.0, specs={"weightKg": 1.13}),
    product("ALSO-LIGHT", price=899.0, specs={"weightKg": 1.13}),
    product("PHONE", category="MOBILE", price=3999.0, specs={"weightKg": None, "weightG": 144}),
]


@pytest.mark.parametrize(
    ("expect", "first", "passed"),
    [
        ({"category": "COMPUTERS", "firstMost": "price"}, "DEAR", True),
        ({"category": "COMPUTERS", "firstMost": "price"}, "DEAR-IN-STOCK", False),
        ({"category": "COMPUTERS", "inStock": True, "firstMost": "price"}, "DEAR-IN-STOCK", True),
        ({"category": "COMPUTERS", "firstLeast": "price"}, "CHEAP", True),
        ({"category": "COMPUTERS", "firstLeast": "weightKg"}, "ALSO-LIGHT", True),  # a tie
        ({"firstLeast": "weightKg"}, "LIGHT", False),  # the 144 g phone is lighter
        ({"category": "COMPUTERS", "maxPrice": 900, "firstMost": "price"}, "ALSO-LIGHT", True),
    ],
)
def test_first_most_and_least_rank_the_first_product_among_the_catalogs_that_fit(
    expect: dict[str, Any], first: str, passed: bool
) -> None:
    # Given a catalog and the products an answer showed, the first of them named
    products = {p["productId"]: p for p in CATALOG}
    shown = body(products[first], products["CHEAP"])
    # When the answer is scored against that catalog
    scored = score(question(expect), [Turn(shown, 1)], CATALOG)
    # Then the first product shown must be the highest (lowest) of those that fit
    ranking = [c for c in scored.checks if c.name.startswith("first product has the")]
    assert [c.passed for c in ranking] == [passed]


def test_a_wrong_first_product_says_which_ones_rank_first() -> None:
    q = question({"category": "COMPUTERS", "firstMost": "price"})
    scored = score(q, [Turn(body(product("CHEAP", price=249.0)), 1)], CATALOG)
    assert failed(scored) == [
        "first product has the highest price: CHEAP has $249.00; DEAR $2,999.00"
    ]
    nothing = score(q, [Turn(body(), 1)], CATALOG)
    assert failed(nothing) == ["first product has the highest price: no products shown"]
    none_fit = score(question({"brand": "Nokia", "firstMost": "price"}), [Turn(body(), 1)], [])
    assert failed(none_fit) == [
        "first product has the highest price: no product of the catalog meets the constraints"
    ]


def test_without_a_catalog_the_first_product_is_ranked_in_the_bundled_sample() -> None:
    # The bundled sample's most expensive phone is the Galaxy Z Fold6 (MOB-014).
    q = question({"category": "MOBILE", "firstMost": "price"})
    fold = product("MOB-014", category="MOBILE", price=1899.0)
    assert score(q, [Turn(body(fold), 1)]).passed


@pytest.mark.parametrize(
    ("answer", "asked"),
    [
        ("Which do you mean: a laptop, a phone or a book?", True),
        ("Do you mean the iPhone 16? Or the 16 Pro?", True),
        ("¿Buscas un portátil o un móvil", True),
        ("Here are our cheapest items: the HP 14 at $349.", False),
        ("See https://example.com/search?q=laptop for more.", False),
    ],
)
def test_what_counts_as_asking_the_shopper(answer: str, asked: bool) -> None:
    assert asks(body(answer=answer)) is asked
    q = question({"asks": True})
    assert score(q, [Turn(body(answer=answer), 1)]).passed is asked
