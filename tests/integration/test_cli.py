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
