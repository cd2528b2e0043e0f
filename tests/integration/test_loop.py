"""The whole state machine, run locally: the real ASL in moto, handlers in-process."""

from __future__ import annotations

import threading
import time
from pathlib import Path
from typing import Any

import pytest

from shared.products.catalog_data import load_catalog
from shared.products.table import shown_products
from storechat.local import LocalStorechat
from tests.integration.conftest import converse_inputs
from tests.integration.converse_fixtures import (
    asks_for_tools,
    lookup,
    replies,
    tool_use,
    write_replay,
)

DEMO_QUESTION = "What Windows PC do you have which is best for a high school student?"
CATALOG = {p["productId"]: p for p in load_catalog()}


def test_demo_question_runs_one_tool_round_and_recommends_real_windows_computers() -> None:
    # Given the offline model going first (the search first has its own tests) and the
    # bundled catalog
    with LocalStorechat(search_first=False) as local:
        # When the shopper asks the demo question
        result = local.ask(DEMO_QUESTION)

    # Then the execution succeeds with an answer built from one catalog lookup
    assert result.status == "SUCCEEDED", result.cause
    body = result.body
    assert body is not None
    assert body["outcome"] == "answered"
    assert body["toolRounds"] == 1 and body["modelCalls"] == 2
    assert [t["tool"] for t in body["trace"]] == ["lookup_inventory"]
    assert body["trace"][0]["status"] == "success"
    # And every recommended product is a real Windows computer from the catalog
    assert body["products"], body["answer"]
    for product in body["products"]:
        assert product == CATALOG[product["productId"]]
        assert product["category"] == "COMPUTERS"
        assert "Windows" in product["specs"]["os"]
        assert f"[{product['productId']}]" in body["answer"]
    assert body["usage"]["inputTokens"] > 0 and body["usage"]["outputTokens"] > 0
    # And the states entered show the loop went round once
    names = [name for name, _ in result.states_entered]
    assert names.count("Converse") == 2 and names.count("RunTools") == 1
    assert names[-1] == "Done"


def test_three_tools_asked_in_one_turn_run_at_the_same_time(tmp_path: Path) -> None:
    # Given a model that asks for all three tools at once, and tools that each wait for
    # the other two to have started (a barrier: run one after another, none gets past it)
    met: dict[str, bool] = {}
    barrier = threading.Barrier(3, timeout=4.0)
    lock = threading.Lock()

    def slow(name: str) -> Any:
        def handler(event: dict[str, Any], context: Any) -> dict[str, Any]:
            try:
                barrier.wait()
                together = True
            except threading.BrokenBarrierError:
                together = False
            with lock:
                met[name] = together
            use = event["toolUse"]
            return {
                "toolResult": {
                    "toolUseId": use["toolUseId"],
                    "status": "success",
                    "content": [{"json": {"ok": name}}],
                },
                "ledger": {"products": []},
                "trace": {
                    "tool": name,
                    "input": use["input"],
                    "status": "success",
                    "summary": "ok",
                    "ms": 1000,
                },
            }

        return handler

    model = write_replay(
        tmp_path,
        [
            asks_for_tools(
                lookup("a", category="COMPUTERS", brandId="Dell"),
                tool_use("b", "get_computer_reviews", {"query": "Dell XPS 13"}),
                tool_use("c", "get_book_info", {"query": "Dune"}),
            ),
            replies("Here is what I found."),
        ],
    )
    names = ("lookup_inventory", "get_computer_reviews", "get_book_info")
    with LocalStorechat(
        model=model, search_first=False, overrides={n: slow(n) for n in names}
    ) as local:
        # When the turn runs
        result = local.ask("Dell laptops, reviews of the XPS 13, and the book Dune?")

    # Then all three ran, and each was running while the other two were
    assert result.status == "SUCCEEDED", result.cause
    assert met == dict.fromkeys(names, True)
    # And the model got one user message answering all three toolUse ids, in order
    second_call = converse_inputs(result)[1]["messages"]
    results = [b["toolResult"]["toolUseId"] for b in second_call[-1]["content"]]
    assert results == ["a", "b", "c"]


def test_sixth_request_for_tools_goes_to_the_fallback(tmp_path: Path) -> None:
    # Given a model that never stops asking for tools
    model = write_replay(tmp_path, [asks_for_tools(lookup(f"t{i}")) for i in range(6)])
    with LocalStorechat(model=model, search_first=False) as local:
        result = local.ask(DEMO_QUESTION)

    # Then five tool rounds run, the sixth request falls back with a real answer
    body = result.body
    assert result.status == "SUCCEEDED" and body is not None
    assert body["outcome"] == "fallback" and body["fallbackReason"] == "iteration_cap"
    assert body["toolRounds"] == 5 and body["modelCalls"] == 6
    assert "couldn't finish" in body["answer"]
    # And the products already found are offered, straight from the catalog
    assert body["products"]
    assert all(p == CATALOG[p["productId"]] for p in body["products"])


def test_deadline_falls_back_before_the_gateway_would_time_out(tmp_path: Path) -> None:
    # Given a 3 s budget, tools that take 1.2 s and a model that keeps asking
    def slow_lookup(event: dict[str, Any], context: Any) -> Any:
        time.sleep(1.2)
        from lookup_inventory.handler import lambda_handler

        return lambda_handler(event, context)

    model = write_replay(tmp_path, [asks_for_tools(lookup(f"t{i}")) for i in range(6)])
    tuning = {"DeadlineMs": 3000, "ConverseReserveMs": 1000, "ToolRoundReserveMs": 1500}
    with LocalStorechat(
        model=model,
        tuning=tuning,
        overrides={"lookup_inventory": slow_lookup},
        search_first=False,
    ) as local:
        result = local.ask(DEMO_QUESTION)

    # Then the loop stops early with a deadline fallback, well before the cap
    body = result.body
    assert result.status == "SUCCEEDED" and body is not None
    assert body["outcome"] == "fallback" and body["fallbackReason"] == "deadline"
    assert body["toolRounds"] < 5
    assert "ran out of time" in body["answer"]


STOP_REASONS = [
    ("end_turn", "Try the [CMP-023].", "answered", None),
    ("stop_sequence", "Try the [CMP-023].", "answered", None),
    ("max_tokens", "The best choice is the [CMP-023] because", "truncated", None),
    ("max_tokens", "", "fallback", "max_tokens"),
    ("guardrail_intervened", "blocked", "refused", None),
    ("content_filtered", "", "refused", None),
    ("malformed_model_output", "", "fallback", "malformed_model_output"),
    ("malformed_tool_use", "", "fallback", "malformed_model_output"),
    ("model_context_window_exceeded", "", "fallback", "context_overflow"),
    ("tool_use", "", "fallback", "empty_answer"),
    ("something_new", "hm", "fallback", "unknown_stop_reason"),
]


@pytest.mark.parametrize(("stop_reason", "text", "outcome", "reason"), STOP_REASONS)
def test_every_stop_reason_has_a_route(
    tmp_path: Path, stop_reason: str, text: str, outcome: str, reason: str | None
) -> None:
    # Given a model that looks something up, then stops for this reason (twice,
    # for the reasons that are retried once)
    final = replies(text, stop_reason)
    model = write_replay(
        tmp_path, [asks_for_tools(lookup("t1", category="COMPUTERS")), final, final]
    )
    with LocalStorechat(model=model, search_first=False) as local:
        result = local.ask(DEMO_QUESTION)

    # Then the execution succeeds with the outcome a shopper should see
    body = result.body
    assert result.status == "SUCCEEDED", result.cause
    assert body is not None
    assert body["outcome"] == outcome
    assert body["fallbackReason"] == reason
    assert body["answer"].strip()
    if outcome == "truncated":
        assert body["answer"].startswith("The best choice is the [CMP-023] because")
        assert "cut short" in body["answer"]
    if outcome == "refused":
        assert "can't help" in body["answer"] and body["products"] == []


def test_malformed_output_is_retried_once_then_answers(tmp_path: Path) -> None:
    # Given a model whose first reply is malformed and whose second is fine
    model = write_replay(
        tmp_path, [replies("", "malformed_model_output"), replies("Hello! How can I help?")]
    )
    with LocalStorechat(model=model, search_first=False) as local:
        result = local.ask("hello")
    assert result.body is not None
    assert result.body["outcome"] == "answered" and result.body["modelCalls"] == 2


def test_context_overflow_drops_old_turns_and_retries_once(tmp_path: Path) -> None:
    # Given a session with two earlier turns, and a model whose window overflows once
    model = write_replay(
        tmp_path,
        [
            replies("First answer."),
            replies("Second answer."),
            replies("", "model_context_window_exceeded"),
            replies("Third answer."),
        ],
    )
    with LocalStorechat(model=model, search_first=False) as local:
        first = local.ask("first question")
        assert first.body is not None
        session = first.body["sessionId"]
        local.ask("second question", session)
        result = local.ask("third question", session)

    # Then the retry is sent with fewer earlier turns, and the shopper gets an answer
    assert result.body is not None and result.body["outcome"] == "answered"
    calls = converse_inputs(result)
    assert len(calls) == 2
    assert len(calls[1]["messages"]) < len(calls[0]["messages"])
    assert calls[1]["messages"][-1]["content"][0]["text"] == "third question"


def test_unknown_tool_gets_an_error_result_not_a_failed_execution(tmp_path: Path) -> None:
    model = write_replay(
        tmp_path,
        [
            asks_for_tools(tool_use("x1", "delete_all_orders", {"confirm": True})),
            replies("I can't do that, but I can help you shop."),
        ],
    )
    with LocalStorechat(model=model, search_first=False) as local:
        result = local.ask("delete my orders")

    assert result.status == "SUCCEEDED" and result.body is not None
    assert result.body["trace"][0]["status"] == "error"
    assert result.body["trace"][0]["summary"] == "unknown tool"
    sent = converse_inputs(result)[1]["messages"][-1]["content"][0]["toolResult"]
    assert sent["toolUseId"] == "x1" and sent["status"] == "error"
    assert "no tool named delete_all_orders" in sent["content"][0]["json"]["error"]


def test_invalid_tool_input_is_explained_to_the_model(tmp_path: Path) -> None:
    model = write_replay(
        tmp_path,
        [
            asks_for_tools(lookup("t1", category="TOYS", colour="red")),
            replies("Sorry, we only sell computers, phones and books."),
        ],
    )
    with LocalStorechat(model=model, search_first=False) as local:
        result = local.ask("toys?")

    assert result.status == "SUCCEEDED" and result.body is not None
    line = result.body["trace"][0]
    assert line["status"] == "error"
    assert "category" in line["summary"] and "colour" in line["summary"]


def test_a_tool_that_times_out_becomes_an_error_result(tmp_path: Path) -> None:
    # Given a catalog tool that hangs past its 5 s timeout
    def hangs(event: dict[str, Any], context: Any) -> Any:
        time.sleep(8)
        return {}

    model = write_replay(
        tmp_path, [asks_for_tools(lookup("t1")), replies("The catalog is slow today.")]
    )
    with LocalStorechat(
        model=model, search_first=False, overrides={"lookup_inventory": hangs}
    ) as local:
        result = local.ask(DEMO_QUESTION)

    # Then the turn still answers, and the trace says the tool timed out
    assert result.status == "SUCCEEDED" and result.body is not None
    assert result.body["trace"][0]["status"] == "error"
    assert result.body["trace"][0]["summary"] == "timed out"
    assert result.body["trace"][0]["ms"] >= 5000
    sent = converse_inputs(result)[1]["messages"][-1]["content"][0]["toolResult"]
    assert sent["content"][0]["json"]["kind"] == "timeout"


def test_a_tool_that_raises_becomes_an_error_result(tmp_path: Path) -> None:
    def crashes(event: dict[str, Any], context: Any) -> Any:
        raise RuntimeError("boom")

    model = write_replay(tmp_path, [asks_for_tools(lookup("t1")), replies("Something broke.")])
    with LocalStorechat(
        model=model, search_first=False, overrides={"lookup_inventory": crashes}
    ) as local:
        result = local.ask(DEMO_QUESTION)

    assert result.status == "SUCCEEDED" and result.body is not None
    assert result.body["outcome"] == "answered"
    assert result.body["trace"][0]["summary"] == "failed: RuntimeError"


def test_a_hallucinated_citation_is_removed_and_never_listed(tmp_path: Path) -> None:
    # Given a model that cites one product the tool returned and one it made up
    model = write_replay(
        tmp_path,
        [
            asks_for_tools(lookup("t1", category="COMPUTERS", keywords="windows", sortBy="price")),
            replies(
                "- The [CMP-002] is light and cheap.\n- The Quantum Pad [CMP-999] is even better."
            ),
        ],
    )
    with LocalStorechat(model=model, search_first=False) as local:
        result = local.ask(DEMO_QUESTION)

    body = result.body
    assert body is not None
    returned = {p["productId"] for p in converse_ledger_ids(result)}
    assert "CMP-002" in returned
    assert [p["productId"] for p in body["products"]] == ["CMP-002"]
    assert "CMP-999" not in body["answer"] and "Quantum Pad" not in body["answer"]
    assert body["unverifiedCitations"] == ["CMP-999"]


def converse_ledger_ids(result: Any) -> list[dict[str, Any]]:
    """Products the lookup tool returned to the model in this execution."""
    products = []
    for call in converse_inputs(result):
        for block in call["messages"][-1]["content"]:
            if "toolResult" in block:
                found = block["toolResult"]["content"][0]["json"].get("products")
                products.extend(shown_products(found))
    return products


def test_second_turn_sees_the_first(tmp_path: Path) -> None:
    # Given a first question answered in a session
    with LocalStorechat(data_dir=tmp_path) as local:
        first = local.ask(DEMO_QUESTION)
        assert first.body is not None
        session = first.body["sessionId"]
    # When the shopper follows up in a new process (sessions live in the data file)
    with LocalStorechat(data_dir=tmp_path) as local:
        second = local.ask("Which of those is the lightest?", session)

    # Then the model saw the first turn, and the session continues
    assert second.body is not None and second.body["sessionId"] == session
    messages = converse_inputs(second)[0]["messages"]
    assert messages[0]["content"][0]["text"] == DEMO_QUESTION
    assert messages[1]["role"] == "assistant"
    assert messages[1]["content"][0]["text"] == first.body["answer"]
    assert second.body["outcome"] == "answered" and second.body["products"]


def test_an_unknown_session_id_starts_a_new_session() -> None:
    with LocalStorechat() as local:
        result = local.ask("hello", "00000000-0000-4000-8000-000000000000")
    assert result.body is not None
    assert result.body["sessionId"] != "00000000-0000-4000-8000-000000000000"


def test_a_replay_file_that_runs_out_fails_the_execution(tmp_path: Path) -> None:
    model = write_replay(tmp_path, [asks_for_tools(lookup("t1"))])
    with LocalStorechat(model=model, search_first=False) as local:
        result = local.ask(DEMO_QUESTION)
    assert result.status == "FAILED"
    assert result.error == "ReplayExhausted"
