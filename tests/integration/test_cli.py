"""The CLI as a user runs it: exit codes and what is printed."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from storechat.cli import main
from tests.integration.converse_fixtures import asks_for_tools, lookup, write_replay

DEMO = "What Windows PC do you have which is best for a high school student?"


@pytest.fixture(autouse=True)
def _home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("STORECHAT_HOME", str(tmp_path / "home"))
    monkeypatch.delenv("STORECHAT_DAILY_BUDGET_USD", raising=False)


def test_ask_prints_the_answer_products_and_trace(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["ask", DEMO, "--trace"]) == 0
    out = capsys.readouterr().out
    assert "offline model" in out
    assert "Products:" in out and "[CMP-" in out
    assert "outcome: answered" in out
    assert "Trace: states entered" in out and "RouteStopReason" in out
    assert "lookup_inventory" in out and "told the model:" in out


def test_ask_json_prints_exactly_the_response_body(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["ask", DEMO, "--json"]) == 0
    body = json.loads(capsys.readouterr().out)
    assert set(body) >= {
        "sessionId",
        "answer",
        "outcome",
        "fallbackReason",
        "products",
        "toolRounds",
        "modelCalls",
        "usage",
        "trace",
    }
    assert body["outcome"] == "answered"


def test_a_follow_up_continues_the_session_across_calls(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["ask", DEMO, "--json"]) == 0
    session = json.loads(capsys.readouterr().out)["sessionId"]
    assert main(["ask", "Which of those is the lightest?", "--session", session, "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["sessionId"] == session


def test_a_session_the_store_does_not_have_is_said_to_start_anew(
    capsys: pytest.CaptureFixture[str],
) -> None:
    # An id of no conversation here (expired, or from another machine) starts a new one:
    # the shopper is told, and the follow-up is not read as one
    unknown = "00000000-0000-4000-8000-000000000000"
    assert main(["ask", "Which of those is the lightest?", "--session", unknown, "--json"]) == 0
    out = capsys.readouterr()
    started = json.loads(out.out)["sessionId"]
    assert started != unknown
    assert f"note: no conversation {unknown} here; this one is new: {started}" in out.err
    # and a session that does continue prints no such note
    assert main(["ask", "and a cheaper one?", "--session", started, "--json"]) == 0
    assert "note:" not in capsys.readouterr().err


@pytest.mark.parametrize(
    ("args", "says"),
    [
        (["ask", ""], "must not be empty"),
        (["ask", "   "], "must not be empty"),
        (["ask", "x" * 2001], "at most 2000 characters"),
        (["ask", "hi\x07"], "control characters"),
        (["ask", "hi", "--session", "not-a-session"], "not a valid session id"),
        (["ask", "hi", "--model", "gpt"], "unknown --model"),
        (["ask", "hi", "--model", "replay:/nonexistent.json"], "replay file not found"),
    ],
)
def test_bad_input_exits_2_with_a_clear_message(
    args: list[str], says: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(args) == 2
    assert says in capsys.readouterr().err


def test_every_outcome_exits_0_and_a_failed_execution_exits_1(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    cap = write_replay(tmp_path, [asks_for_tools(lookup(f"t{i}")) for i in range(6)], "cap.json")
    assert main(["ask", DEMO, "--model", cap]) == 0
    assert "fallback (iteration_cap)" in capsys.readouterr().out
    short = write_replay(tmp_path, [asks_for_tools(lookup("t1"))], "short.json")
    assert main(["ask", DEMO, "--model", short]) == 1
    assert "ReplayExhausted" in capsys.readouterr().err


def test_the_daily_budget_holds_across_ask_calls(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # Given a daily model budget smaller than one question costs (about 1.3 US cents at the
    # stand-in's Sonnet prices), though larger than its first call (about 0.6): each call
    # is let through while the day's spend is below the budget. The model goes first (the
    # search first would answer the question in one call)
    monkeypatch.setenv("STORECHAT_DAILY_BUDGET_USD", "0.01")
    monkeypatch.setenv("STORECHAT_SEARCH_FIRST", "0")

    # When a shopper asks twice, in two runs of the CLI
    assert main(["ask", DEMO]) == 0
    first = capsys.readouterr().out
    assert main(["ask", DEMO, "--json"]) == 0
    second = json.loads(capsys.readouterr().out)

    # Then the first question is answered by the model, the second from the catalog
    assert "outcome: answered" in first
    assert second["outcome"] == "fallback" and second["fallbackReason"] == "budget_exhausted"
    assert second["modelCalls"] == 0 and second["products"]
    assert "very busy right now" in second["answer"]


@pytest.mark.parametrize("value", ["lots", "0", "-3", "nan", "inf"])
def test_a_budget_that_is_not_an_amount_exits_2_and_says_what_it_takes(
    value: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("STORECHAT_DAILY_BUDGET_USD", value)
    assert main(["ask", DEMO]) == 2
    err = capsys.readouterr().err
    assert "STORECHAT_DAILY_BUDGET_USD" in err and "above 0" in err
    assert "Traceback" not in err


def test_a_budget_for_a_model_without_list_prices_exits_2(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("STORECHAT_DAILY_BUDGET_USD", "5")
    assert main(["ask", DEMO, "--model", "bedrock:example.unlisted-model-v1:0"]) == 2
    err = capsys.readouterr().err
    assert "needs the model's token prices" in err and "example.unlisted-model-v1:0" in err


def test_ask_speaks_for_the_store_given_and_prints_its_words(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # Given a store's own settings and policies
    (tmp_path / "policies.md").write_text(
        "# Returns\nBring it back to any of our shops within 60 days.\n", encoding="utf-8"
    )
    settings = {
        "name": "Velo Haus",
        "url": "https://velohaus.example",
        "platform": "woocommerce",
        "policies": "policies.md",
        "contact": "hilfe@velohaus.example",
    }
    (tmp_path / "store.json").write_text(json.dumps(settings), encoding="utf-8")

    # When a shopper asks about returns with --store
    assert (
        main(["ask", "What is your return policy?", "--store", str(tmp_path / "store.json")]) == 0
    )

    # Then the answer is that store's own words, with its contact
    out = capsys.readouterr().out
    assert "Velo Haus" in out and "within 60 days" in out and "hilfe@velohaus.example" in out


def test_a_store_file_that_cannot_be_used_exits_2_saying_why(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bad = {"name": "X", "url": "ftp://x.example", "platform": "shopify", "policies": "p.md"}
    (tmp_path / "store.json").write_text(json.dumps(bad), encoding="utf-8")
    assert main(["ask", "hi", "--store", str(tmp_path / "store.json")]) == 2
    err = capsys.readouterr().err
    assert "url:" in err and "is not a web address" in err and "contact" in err
