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
import uuid
from typing import Any

from storechat.local.payload import (
    LIMIT_BYTES,
    Event,
    PayloadPeaks,
    Peak,
    details,
    payload_peaks,
)

__all__ = [
    "LIMIT_BYTES",
    "LOG_EVENT_OVERHEAD_BYTES",
    "Event",
    "PayloadPeaks",
    "Peak",
    "converse_usages",
    "details",
    "entered_at",
    "execution_log",
    "execution_ms",
    "log_records",
    "payload_fields_seen",
    "payload_peaks",
    "states_entered",
]


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


LOG_EVENT_OVERHEAD_BYTES = 26
"""What CloudWatch Logs counts for each log event on top of its message."""


def _compact(value: Any) -> Any:
    """A payload string as Step Functions writes it: compact JSON, non-ASCII kept."""
    if isinstance(value, str):
        try:
            parsed = json.loads(value)
        except ValueError:
            return value
        if isinstance(parsed, dict | list):
            return json.dumps(parsed, separators=(",", ":"), ensure_ascii=False)
        return value
    if isinstance(value, dict):
        return {k: _compact(v) for k, v in value.items()}
    return value


def log_records(events: list[Event], execution_arn: str) -> list[dict[str, Any]]:
    """The records an Express execution logs at level ALL with execution data.

    One JSON record per history event, in the shape Step Functions writes to
    CloudWatch Logs (``id``, ``type``, ``details`` with the payloads as JSON strings,
    ``previous_event_id``, ``event_timestamp``, ``execution_arn``, ``redrive_count``).
    An Express execution ARN names the state machine, the execution and a second id:
    the local ARN gets one of the same length.
    """
    arn = execution_arn.replace(":execution:", ":express:") + ":" + str(uuid.UUID(int=0))
    return [
        {
            "id": str(event["id"]),
            "type": event["type"],
            "details": _compact(details(event)),
            "previous_event_id": str(event.get("previousEventId", 0)),
            "event_timestamp": str(int(event["timestamp"].timestamp() * 1000)),
            "execution_arn": arn,
            "redrive_count": "0",
        }
        for event in events
    ]


def execution_log(events: list[Event], execution_arn: str) -> tuple[int, int]:
    """(log events, bytes) of :func:`log_records`, with CloudWatch's per-event overhead."""
    total = 0
    for record in log_records(events, execution_arn):
        text = json.dumps(record, separators=(",", ":"), ensure_ascii=False, default=str)
        total += len(text.encode("utf-8")) + LOG_EVENT_OVERHEAD_BYTES
    return len(events), total
