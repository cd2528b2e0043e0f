"""What ``storechat`` prints when a command cannot run: a reason the person at the terminal
can act on is one line, ``error: ...``, exit 2; a fault in the code is not dressed up as
one, and shows its traceback."""

from __future__ import annotations

import argparse

import pytest

from storechat import cli
from storechat.local.errors import CannotRunLocally


def _ask_raising(monkeypatch: pytest.MonkeyPatch, exc: Exception) -> None:
    def failing(args: argparse.Namespace) -> int:
        raise exc

    monkeypatch.setattr(cli, "cmd_ask", failing)


def test_what_stops_a_local_run_is_one_line_and_exit_2(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    _ask_raising(monkeypatch, CannotRunLocally("--model bedrock needs AWS credentials"))
    code = cli.main(["ask", "hello"])
    assert code == 2
    assert capsys.readouterr().err == "error: --model bedrock needs AWS credentials\n"


def test_a_fault_in_the_code_is_not_said_as_a_usage_error(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # Given a fault inside a run (threads racing over a dict, say)
    _ask_raising(monkeypatch, RuntimeError("dictionary changed size during iteration"))
    # Then it reaches the terminal with its traceback, not as "error: dictionary changed
    # size during iteration" and exit 2, which told no one where it happened
    with pytest.raises(RuntimeError, match="dictionary changed size"):
        cli.main(["ask", "hello"])
    assert "error:" not in capsys.readouterr().err
