"""Read figures out of an execution's history, as moto records it.

moto 5.2.5 records, per event type, these payload fields (all JSON strings):

* ``ExecutionStarted`` ``input``; ``ExecutionSucceeded`` ``output``;
* ``*StateEntered`` ``input`` and ``*StateExited`` ``output`` (Pass, Task,
  Choice, Map, Succeed, also the Map's inner states);
* ``*StateExited`` ``assignedVariables`` (name -> JSON) for states with ``Assign``;
* ``TaskScheduled`` ``parameters`` (``FunctionName`` and the Lambda ``Payload``);
* ``TaskSucceeded`` ``output`` (the whole task result, ``Payload`` included).

``MapStateStarted``, ``MapIterationStarted``/``Succeeded``, ``MapStateSucceeded``
and ``TaskStarted`` carry no payload. :func:`payload_fields_seen` reports what a
run actually had, so the report never claims more than was measured.
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


def payload_fields_seen(events: list[Event]) -> dict[str, list[str]]:
    """Event type -> the payload fields moto filled in for it (empty list: none)."""
    seen: dict[str, set[str]] = {}
    for event in events:
        info = details(event)
        fields = {f for f in ("input", "output", "parameters", "assignedVariables") if info.get(f)}
        seen.setdefault(event["type"], set()).update(fields)
    return {kind: sorted(fields) for kind, fields in sorted(seen.items())}


def states_entered(events: list[Event]) -> int:
    """State transitions as Step Functions counts them: one per state entered."""
    return sum(1 for e in events if e["type"].endswith("StateEntered"))


def execution_ms(events: list[Event]) -> float:
    """From ExecutionStarted to the last event, by the history's own timestamps."""
    if not events:
        return 0.0
    return (events[-1]["timestamp"] - events[0]["timestamp"]).total_seconds() * 1000


def entered_at(events: list[Event], state: str) -> list[float]:
    """Milliseconds since the start at which ``state`` was entered, in order."""
    if not events:
        return []
    start = events[0]["timestamp"]
    return [
        (e["timestamp"] - start).total_seconds() * 1000
        for e in events
        if e["type"].endswith("StateEntered") and details(e).get("name") == state
    ]


def converse_usages(events: list[Event]) -> list[dict[str, int]]:
    """The ``usage`` of each Converse call, cache writes included (the body drops those)."""
    usages = []
    for event in events:
        if event["type"] != "TaskSucceeded":
            continue
        output = details(event).get("output")
        if not isinstance(output, str):
            continue
        payload = json.loads(output).get("Payload")
        if isinstance(payload, dict) and "stopReason" in payload and "usage" in payload:
            usages.append({k: int(v) for k, v in payload["usage"].items()})
    return usages
