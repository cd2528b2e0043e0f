"""How large an execution's payloads were, read from its history as moto records it.

Step Functions limits a state's input and output, a task's result and each variable
to 256 KiB of UTF-8. moto 5.2.5 records those payloads as JSON strings on its history
events (``*StateEntered`` input, ``*StateExited`` output and ``assignedVariables``,
``TaskScheduled`` parameters, ``TaskSucceeded`` output); this module measures them.
The local runner's ``RunResult`` and the benchmark both use it.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

LIMIT_BYTES = 256 * 1024
"""Step Functions' limit on a state's input or output, a task result and one variable."""

Event = dict[str, Any]


def details(event: Event) -> dict[str, Any]:
    for key, value in event.items():
        if key.endswith("EventDetails") and isinstance(value, dict):
            return value
    return {}


def _bytes(text: str) -> int:
    """UTF-8 bytes of the JSON in ``text``, written compactly.

    moto writes history JSON with spaces after separators and non-ASCII escaped;
    Step Functions measures the UTF-8 string, so re-encode before counting.
    """
    try:
        value = json.loads(text)
    except ValueError:
        return len(text.encode("utf-8"))
    return len(json.dumps(value, separators=(",", ":"), ensure_ascii=False).encode("utf-8"))


@dataclass
class Peak:
    """The largest value of one kind, and where it was seen."""

    bytes: int = 0
    where: str = ""

    def offer(self, size: int, where: str) -> None:
        if size > self.bytes:
            self.bytes, self.where = size, where


@dataclass
class PayloadPeaks:
    state_input: Peak = field(default_factory=Peak)
    state_output: Peak = field(default_factory=Peak)
    task_result: Peak = field(default_factory=Peak)
    variable: Peak = field(default_factory=Peak)
    assign_total: Peak = field(default_factory=Peak)
    converse_payload: Peak = field(default_factory=Peak)
    tool_payload: Peak = field(default_factory=Peak)

    def merge(self, other: PayloadPeaks) -> None:
        for name in vars(self):
            mine: Peak = getattr(self, name)
            theirs: Peak = getattr(other, name)
            mine.offer(theirs.bytes, theirs.where)

    def as_dict(self) -> dict[str, dict[str, Any]]:
        return {
            name: {
                "bytes": peak.bytes,
                "where": peak.where,
                "share_of_limit": round(peak.bytes / LIMIT_BYTES, 4),
            }
            for name, peak in vars(self).items()
        }


def _state_names(events: list[Event]) -> dict[int, str]:
    """Event id -> the name of the state it belongs to.

    Entered and exited events carry the name; task events are chained to their
    state's entered event through ``previousEventId``, even inside a Map.
    """
    names: dict[int, str] = {}
    for event in events:
        name = details(event).get("name")
        if isinstance(name, str):
            names[event["id"]] = name
        elif event.get("previousEventId") in names:
            names[event["id"]] = names[event["previousEventId"]]
    return names


def payload_peaks(events: list[Event]) -> PayloadPeaks:
    peaks = PayloadPeaks()
    names = _state_names(events)
    for event in events:
        kind = event["type"]
        info = details(event)
        label = str(names.get(event["id"], kind))
        entered = kind.endswith("StateEntered") or kind == "ExecutionStarted"
        exited = kind.endswith("StateExited") or kind == "ExecutionSucceeded"
        if entered and isinstance(info.get("input"), str):
            peaks.state_input.offer(_bytes(info["input"]), label)
        if exited and isinstance(info.get("output"), str):
            peaks.state_output.offer(_bytes(info["output"]), label)
        if kind == "TaskSucceeded" and isinstance(info.get("output"), str):
            peaks.task_result.offer(_bytes(info["output"]), f"{label} result")
        assigned = info.get("assignedVariables")
        if isinstance(assigned, dict) and assigned:
            sizes = {k: _bytes(v) for k, v in assigned.items() if isinstance(v, str)}
            for variable, size in sizes.items():
                peaks.variable.offer(size, f"${variable} in {label}")
            peaks.assign_total.offer(sum(sizes.values()), f"Assign of {label}")
        if kind == "TaskScheduled" and isinstance(info.get("parameters"), str):
            parameters = json.loads(info["parameters"])
            if "Payload" not in parameters:
                continue  # an SDK integration (the sessions table), not a Lambda
            payload = json.dumps(parameters["Payload"])
            function = str(parameters.get("FunctionName", ""))
            target = peaks.converse_payload if "converse" in function else peaks.tool_payload
            target.offer(_bytes(payload), function.rsplit(":", 1)[-1])
    return peaks
