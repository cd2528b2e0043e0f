"""The search first's states, evaluated as the ASL writes them: the handed-over search is
the model's round 1 exactly as AppendToolResults would have made it.

Each expression is read from ``statemachine/storechat.asl.json``, filled in as the stack
fills it and evaluated by the local JSONata engine (the one the local runner uses).
"""

from __future__ import annotations

import json
from typing import Any

import pytest

import statemachine
from shared.config.pricing import token_prices
from storechat.local import moto_patches
from tests.support.store import SAMPLE_PROMPT

VALUES: dict[str, object] = {
    **statemachine.budget_substitutions(
        None,
        token_prices("anthropic.claude-sonnet-4-5-20250929-v1:0"),
        max_tokens=1024,
        currency="USD",
        system_prompt=SAMPLE_PROMPT,
    ),
    **statemachine.TUNING_DEFAULTS,
}
STATES = json.loads(statemachine.read_definition())["States"]
USE = {"toolUseId": "search-first", "name": "lookup_inventory", "input": {"keywords": "a laptop"}}
SEARCH = {
    "toolResult": {
        "toolUseId": "search-first",
        "status": "success",
        "content": [{"json": {"count": 2, "products": [{"productId": "A"}, {"productId": "B"}]}}],
    },
    "ledger": {"products": [{"productId": "A", "price": 1.0}, {"productId": "B", "price": 2.0}]},
    "trace": {"tool": "lookup_inventory", "input": USE["input"], "status": "success",
              "summary": "2 products for keywords=a laptop", "ms": 3},
    "searchFirst": True,
    "reason": "searched",
    "searched": True,
}  # fmt: skip
ASKED = [{"role": "user", "content": [{"text": "a laptop"}]}]


def evaluate(text: str, **variables: Any) -> Any:
    filled = statemachine.substitute(text, VALUES)
    assert filled.startswith("{%") and filled.endswith("%}")
    declared = "".join(f"${name}:={json.dumps(value)};" for name, value in variables.items())
    return moto_patches.evaluate(f"({declared}{filled[2:-2].strip()})")


def assigned(state: str, **variables: Any) -> dict[str, Any]:
    return {
        name: evaluate(expression, **variables)
        for name, expression in STATES[state]["Assign"].items()
    }


BEFORE = {"ledger": [], "trace": [], "rounds": 0, "previousRound": None, "messages": ASKED}


def test_the_handed_over_search_is_round_one_as_append_tool_results_makes_it() -> None:
    # Given the search first's answer, and the same result coming from a model's toolUse
    handed = assigned("HandOverSearch", **BEFORE, first={"toolUse": USE}, states={"input": SEARCH})
    reply = {"message": {"role": "assistant", "content": [{"toolUse": USE}]}}
    appended = assigned("AppendToolResults", **BEFORE, reply=reply, states={"input": [SEARCH]})

    # Then the conversation, ledger, trace, rounds and the next round's brief are the same
    assert handed == appended
    assert handed["messages"] == [
        *ASKED,
        {"role": "assistant", "content": [{"toolUse": USE}]},
        {"role": "user", "content": [{"toolResult": SEARCH["toolResult"]}]},
    ]
    assert handed["rounds"] == 1 and handed["trace"][0]["round"] == 1
    assert handed["previousRound"]["content"][0]["toolResult"]["content"][0]["json"] == {
        "earlierResult": "2 products for keywords=a laptop",
        "productIds": ["A", "B"],
    }


@pytest.mark.parametrize("rows", [[["A", "Laptop A"]], [["A", "Laptop A"], ["B", "Laptop B"]], []])
def test_the_brief_reads_the_ids_from_the_catalogs_table(rows: list[list[str]]) -> None:
    # Given a search whose products are a table (one row, two, or none)
    table = {"columns": ["productId", "name"], "rows": rows}
    result = {
        **SEARCH["toolResult"],
        "content": [{"json": {"count": len(rows), "products": table}}],
    }
    search = {**SEARCH, "toolResult": result}
    reply = {"message": {"role": "assistant", "content": [{"toolUse": USE}]}}
    for handed in (
        assigned("HandOverSearch", **BEFORE, first={"toolUse": USE}, states={"input": search}),
        assigned("AppendToolResults", **BEFORE, reply=reply, states={"input": [search]}),
    ):
        # Then the brief the next round reads keeps every id, from the first column
        brief = handed["previousRound"]["content"][0]["toolResult"]["content"][0]["json"]
        assert brief["productIds"] == [row[0] for row in rows]


def test_the_next_round_shrinks_the_handed_over_search_to_its_brief() -> None:
    handed = assigned("HandOverSearch", **BEFORE, first={"toolUse": USE}, states={"input": SEARCH})
    reviews = {**SEARCH, "toolResult": {**SEARCH["toolResult"], "toolUseId": "r1"}}
    reply = {"message": {"role": "assistant", "content": [{"toolUse": {**USE, "toolUseId": "r1"}}]}}
    after = assigned("AppendToolResults", **handed, reply=reply, states={"input": [reviews]})
    # Then the search's toolUse stays, its result is its brief, and the new round follows
    assert after["messages"][:2] == handed["messages"][:2]
    assert after["messages"][2] == handed["previousRound"]
    assert after["messages"][3] == reply["message"]
    assert after["messages"][4]["content"][0]["toolResult"]["toolUseId"] == "r1"
    assert len(after["messages"]) == 5


@pytest.mark.parametrize("on", [True, False])
def test_the_setting_is_the_first_choice(on: bool) -> None:
    values = statemachine.loop_substitutions(search_first=on)
    (rule,) = STATES["ChooseFirstStep"]["Choices"]
    assert statemachine.substitute(rule["Condition"], values) == f"{{% {str(on).lower()} %}}"
    assert STATES["ChooseFirstStep"]["Default"] == "CheckDeadline"


@pytest.mark.parametrize(
    ("first", "ledger"),
    [
        ({"searchFirst": True, "searched": True, "relaxed": False, "productIds": ["A"]}, ["A"]),
        ({"searchFirst": True, "searched": True, "relaxed": True, "productIds": ["A"]}, []),
        ({"searchFirst": False, "searched": True, "relaxed": False, "productIds": []}, []),
    ],
)
def test_over_budget_the_search_first_gives_the_catalogs_answer(
    first: dict[str, Any], ledger: list[str]
) -> None:
    # Given a ledger with the search first's product A and a later round's B
    products = [{"productId": "A"}, {"productId": "B"}]
    (rule,) = STATES["CatalogSearchedFirst"]["Choices"]
    trace = {"tool": "lookup_inventory", "summary": "nothing"}
    decided = {**first, "trace": None if first["searchFirst"] else trace}
    assert evaluate(rule["Condition"], first=decided) is True
    kept = {
        name: evaluate(expression, first=decided, ledger=products, trace=[], rounds=0)
        for name, expression in rule["Assign"].items()
    }
    # Then the answer shows the search's products, unless it had to drop words to find them
    assert [p["productId"] for p in kept["ledger"]] == ledger
    # and a search not handed over is in the trace as the catalog's answer's round
    if first["searchFirst"]:
        assert (kept["trace"], kept["rounds"]) == ([], 0)
    else:
        assert (kept["trace"], kept["rounds"]) == ([{**trace, "round": 1}], 1)


@pytest.mark.parametrize("first", [None, {"searchFirst": False, "searched": False}])
def test_over_budget_without_a_search_first_the_catalog_is_searched_as_before(
    first: dict[str, Any] | None,
) -> None:
    (rule,) = STATES["CatalogSearchedFirst"]["Choices"]
    assert evaluate(rule["Condition"], first=first) is False
    assert STATES["CatalogSearchedFirst"]["Default"] == "AnswerFromCatalog"


SEARCHED = {"keywords": "I need a laptop for university.", "maxPrice": 700}


@pytest.mark.parametrize(
    ("history", "before"),
    [
        ([], None),
        ([{"user": "hi", "assistant": "Hello!", "productIds": []}], None),
        # the newest turn with a search of words, past a later one without (a review)
        (
            [
                {"user": "a", "productIds": ["A"], "searched": {"keywords": "old"}},
                {"user": "b", "productIds": ["B"], "searched": SEARCHED},
                {"user": "c", "productIds": []},
            ],
            SEARCHED,
        ),
        # a turn saved before turns kept their search, or with garbage in its place
        ([{"user": "a", "productIds": ["A"], "searched": "laptops"}], None),
    ],
)
def test_the_search_first_is_told_the_sessions_last_search_of_words(
    history: list[dict[str, Any]], before: dict[str, Any] | None
) -> None:
    expression = STATES["SearchCatalogFirst"]["Arguments"]["Payload"]["first"]
    first = evaluate(expression, history=history, request={"message": "Anything under $700?"})
    assert first.get("before") == before
    assert first["hasHistory"] is bool(history)


def _saved(trace: list[dict[str, Any]], first: dict[str, Any] | None = None) -> dict[str, Any]:
    expression = STATES["SaveTurn"]["Arguments"]["Item"]["turn"]["S"]
    body = {"answer": "Here.", "outcome": "answered", "products": [], "trace": trace}
    text = evaluate(expression, body=body, first=first, request={"message": "laptops"})
    return json.loads(text)


def test_a_saved_turn_keeps_its_last_search_of_words() -> None:
    demand = {"found": 3, "relaxed": [], "unknown": []}
    trace = [
        {"tool": "lookup_inventory", "input": {"keywords": "laptops"}, "demand": demand},
        {"tool": "get_computer_reviews", "input": {"query": "XPS 13"}},
        {"tool": "lookup_inventory", "input": SEARCHED, "demand": demand},
        # a fetch by id is no search of words, whatever it says
        {"tool": "lookup_inventory", "input": {"productIds": ["A"]}, "demand": demand},
    ]
    assert _saved(trace)["searched"] == SEARCHED
    # a turn that searched nothing by words keeps none: the next turn looks further back
    assert "searched" not in _saved(trace[1:2])
    assert "searched" not in _saved([])
