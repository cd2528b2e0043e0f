"""One execution of the local state machine: start it, wait for it, read what happened.

moto does not implement ``StartSyncExecution``, so an execution is started and polled
until it leaves ``RUNNING``, the way API Gateway's synchronous call would wait.
"""

from __future__ import annotations

import json
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from storechat.local.payload import payload_peaks

FIRST_POLL_S = 0.002
LAST_POLL_S = 0.05
"""Each poll costs the running execution CPU time: back off from 2 ms to 50 ms."""

HISTORY_PAGE = 1000


@dataclass
class RunResult:
    """One execution: the response body (when it succeeded) and what happened on the way."""

    status: str
    body: dict[str, Any] | None
    error: str | None
    cause: str | None
    events: list[dict[str, Any]] = field(default_factory=list)
    elapsed_ms: int = 0
    execution_arn: str = ""

    @property
    def states_entered(self) -> list[tuple[str, int]]:
        """(state name, ms since start) for each state entered, in order."""
        if not self.events:
            return []
        start = self.events[0]["timestamp"]
        return [
            (
                e["stateEnteredEventDetails"]["name"],
                int((e["timestamp"] - start).total_seconds() * 1000),
            )
            for e in self.events
            if "stateEnteredEventDetails" in e
        ]

    def payload_sizes(self) -> dict[str, tuple[int, str]]:
        """The largest payload of each kind in this execution, in UTF-8 bytes, and where.

        Kinds: ``state input``, ``state output``, ``task parameters`` (what a Task
        sends a Lambda, e.g. the conversation to Converse), ``task result`` and
        ``variable`` (each assigned variable). Step Functions limits each to 256 KiB.
        """
        peaks = payload_peaks(self.events)
        sent = max(peaks.converse_payload, peaks.tool_payload, key=lambda p: p.bytes)
        kinds = {
            "state input": peaks.state_input,
            "state output": peaks.state_output,
            "task parameters": sent,
            "task result": peaks.task_result,
            "variable": peaks.variable,
        }
        return {kind: (peak.bytes, peak.where) for kind, peak in kinds.items() if peak.where}

    @property
    def peak_payload_bytes(self) -> int:
        return max((size for size, _ in self.payload_sizes().values()), default=0)


def execute(
    sfn: Any,
    state_machine_arn: str,
    payload: dict[str, Any],
    *,
    timeout_s: float,
    with_history: bool,
    while_running: Callable[[], object] | None = None,
) -> RunResult:
    """Run one execution with ``payload`` as its input and wait for its end.

    ``while_running`` is called between polls (the CLI reads the live trace there).
    Raises TimeoutError if it is still running after ``timeout_s``.
    """
    started = time.perf_counter()
    execution_arn = sfn.start_execution(
        stateMachineArn=state_machine_arn,
        name=uuid.uuid4().hex,
        input=json.dumps(payload),
    )["executionArn"]
    described = _wait(sfn, execution_arn, timeout_s, while_running)
    elapsed = int((time.perf_counter() - started) * 1000)
    events = (
        sfn.get_execution_history(executionArn=execution_arn, maxResults=HISTORY_PAGE)["events"]
        if with_history
        else []
    )
    return RunResult(
        status=described["status"],
        body=json.loads(described["output"]) if described.get("output") else None,
        error=described.get("error"),
        cause=described.get("cause"),
        events=events,
        elapsed_ms=elapsed,
        execution_arn=execution_arn,
    )


def _complete(described: dict[str, Any]) -> bool:
    """Whether an ended execution's description says all of its end.

    moto's worker thread sets an execution's status before its output, error and cause:
    a description read between the two says SUCCEEDED with the output ``null`` (or
    FAILED with no error), and the turn would read as having no body. This state
    machine always ends with a body or an error, so such a description is read again.
    """
    if described["status"] == "SUCCEEDED":
        return described.get("output") not in (None, "null")
    if described["status"] == "FAILED":
        return described.get("error") is not None or described.get("cause") is not None
    return True


def _wait(
    sfn: Any, execution_arn: str, timeout_s: float, while_running: Callable[[], object] | None
) -> dict[str, Any]:
    deadline = time.monotonic() + timeout_s
    pause = FIRST_POLL_S
    while True:
        described: dict[str, Any] = sfn.describe_execution(executionArn=execution_arn)
        if described["status"] != "RUNNING" and _complete(described):
            return described
        if time.monotonic() > deadline:
            raise TimeoutError(f"execution {execution_arn} still running after {timeout_s}s")
        if while_running is not None:
            while_running()
        time.sleep(pause)
        pause = min(pause * 1.5, LAST_POLL_S)
