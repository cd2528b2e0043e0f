"""Waiting for a local execution: its end is read whole, never half written."""

from __future__ import annotations

import json
from typing import Any

import pytest

from storechat.local.execution import execute

BODY = {"answer": "The HP 14 [CMP-023] fits.", "outcome": "answered"}


class EndingExecution:
    """A Step Functions client whose execution ends as moto's worker thread ends one: the
    status first, what the execution ended with a moment later (a few descriptions on)."""

    def __init__(self, end: dict[str, Any], *, described_half_ended: int) -> None:
        self._end = end
        self._half_ended = described_half_ended
        self.descriptions = 0

    def start_execution(self, **_: Any) -> dict[str, str]:
        return {"executionArn": "arn:aws:states:local:0:execution:storechat:one"}

    def describe_execution(self, **_: Any) -> dict[str, Any]:
        self.descriptions += 1
        if self.descriptions == 1:
            return {"status": "RUNNING"}
        if self.descriptions <= 1 + self._half_ended:
            # moto writes a SUCCEEDED execution's output as JSON null until it is set
            status = self._end["status"]
            return {"status": status, **({"output": "null"} if status == "SUCCEEDED" else {})}
        return dict(self._end)


@pytest.mark.parametrize("half_ended", [0, 1, 3])
def test_a_succeeded_execution_is_read_with_its_body(half_ended: int) -> None:
    # Given an execution that says SUCCEEDED before its output is written
    sfn = EndingExecution(
        {"status": "SUCCEEDED", "output": json.dumps(BODY)}, described_half_ended=half_ended
    )

    # When the local runner waits for it
    result = execute(sfn, "arn:sm", {"text": "a laptop"}, timeout_s=5, with_history=False)

    # Then the shopper's turn has the body the execution ended with, never "no body"
    assert result.status == "SUCCEEDED" and result.body == BODY
    assert sfn.descriptions == 2 + half_ended


def test_a_failed_execution_is_read_with_its_error_and_cause() -> None:
    # Given an execution that says FAILED before its error and cause are written
    end = {"status": "FAILED", "error": "States.Runtime", "cause": "the loop broke"}
    sfn = EndingExecution(end, described_half_ended=2)

    # When the local runner waits for it
    result = execute(sfn, "arn:sm", {"text": "a laptop"}, timeout_s=5, with_history=False)

    # Then what the user sees says why it failed
    assert (result.status, result.body, result.error, result.cause) == (
        "FAILED",
        None,
        "States.Runtime",
        "the loop broke",
    )


def test_an_execution_that_never_writes_its_end_times_out_clearly() -> None:
    # Given an execution that says SUCCEEDED and never writes its output
    sfn = EndingExecution({"status": "SUCCEEDED", "output": "null"}, described_half_ended=0)

    # When the local runner waits for it, Then it says the execution did not end in time
    with pytest.raises(TimeoutError, match=r"still running after 0\.2s"):
        execute(sfn, "arn:sm", {"text": "a laptop"}, timeout_s=0.2, with_history=False)
