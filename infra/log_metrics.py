"""Metrics counted from log lines: failures that no function is there to count.

Some failures happen where no code of ours runs: a Pass state of the ASL
(``ComposeFailed``), a direct DynamoDB integration (the day's spend counter), or API
Gateway refusing before any execution starts. Each is one JSON line in a log the stack
already keeps (the conversation log at level ALL, the API access log), so a metric
filter counts it.

Each metric is declared once here, as data: the CloudWatch Logs filter pattern is
rendered from it, and :meth:`LogMetric.matches` applies the same conditions to a
record, so the tests run them over the log lines of real (local) executions. No CDK
imports.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Final


@dataclass(frozen=True)
class Field:
    """``path`` (``$.details.name``) is one of ``values``, or none of them (``negate``)."""

    path: str
    values: tuple[str, ...]
    negate: bool = False

    def pattern(self) -> str:
        if self.negate:
            return " && ".join(f"({self.path} != {json.dumps(v)})" for v in self.values)
        either = " || ".join(f"({self.path} = {json.dumps(v)})" for v in self.values)
        return either if len(self.values) == 1 else f"({either})"

    def matches(self, record: Mapping[str, Any]) -> bool:
        value: Any = record
        for key in self.path.removeprefix("$.").split("."):
            value = value.get(key) if isinstance(value, Mapping) else None
        found = value is not None and str(value) in self.values
        return not found if self.negate else found


@dataclass(frozen=True)
class LogMetric:
    """A count of the log lines that meet every field's condition."""

    name: str
    fields: tuple[Field, ...]

    def pattern(self) -> str:
        return "{ " + " && ".join(f.pattern() for f in self.fields) + " }"

    def matches(self, record: Mapping[str, Any]) -> bool:
        return all(f.matches(record) for f in self.fields)


COMPOSE_FAILED: Final = LogMetric(
    "ComposeFailed",
    (
        Field("$.type", ("PassStateEntered",)),
        Field("$.details.name", ("ComposeFailed",)),
    ),
)
"""The response builder failed twice and the shopper got the ASL's plain fallback."""

SPEND_COUNTER_ERRORS: Final = LogMetric(
    "SpendCounterErrors",
    (
        Field("$.type", ("TaskFailed",)),
        Field("$.details.resourceType", ("aws-sdk:dynamodb",)),
        # The spend counter is the only item the loop reads with GetItem or changes with
        # UpdateItem (history is a Query, a turn a PutItem of the optimized integration).
        Field("$.details.resource", ("getItem", "updateItem")),
        # A refused condition is an answer (a budget that says no), not a failure.
        Field("$.details.error", ("DynamoDb.ConditionalCheckFailedException",), negate=True),
    ),
)
"""A read or write of the day's spend counter failed: the budget may not be limiting."""

QUERY_NOT_STARTED: Final = LogMetric(
    "QueryNotStarted",
    (
        Field("$.method", ("POST",)),
        Field("$.path", ("/query",)),
        Field("$.status", ("500", "502", "503", "504")),
        # An execution that ran answers through a 200 from StartSyncExecution (its own
        # failure is ExecutionsFailed); anything else never got an execution to answer.
        Field("$.integrationStatus", ("200",), negate=True),
    ),
)
"""``POST /query`` answered 5xx without an execution: Step Functions refused to start one
(throttled, or the API's role), or API Gateway gave up on the integration."""

EXECUTION_LOG_METRICS: Final = (COMPOSE_FAILED, SPEND_COUNTER_ERRORS)
ACCESS_LOG_METRICS: Final = (QUERY_NOT_STARTED,)
