"""Writes live-trace steps without ever failing or holding up the turn.

A step is handed to :func:`report` and written by one background thread, so the work
it describes goes on at once; before a function returns, :func:`settle` waits for the
writes still pending, at most a bound the caller gives (Lambda freezes a returned
function's threads). Each write is one ``PutItem`` with short timeouts and no retry;
one that fails or is still pending when the bound ends is counted and given up:
the shopper then sees the plain spinner for that step, and the answer is unchanged.

Writes to one step supersede its pending write: when a tool finishes before its
"running" line was sent, only the finished line is written, and never before it.
The table name and region are read from the caller's environment at :func:`report`
(the local runner's variables live in the calling thread, not in the writer's).
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Annotated, Any

from pydantic import BaseModel, ConfigDict, Field

from shared.config.environment import environ
from shared.config.metric_names import Metric
from shared.trace.steps import Step, Turn, item

CONNECT_TIMEOUT_S = 0.3
READ_TIMEOUT_S = 0.5
SETTLE_BOUND_S = 0.3
"""The longest a function waits for its steps before it returns."""
MAX_PENDING = 64
"""Steps waiting at once; more are dropped (a writer that cannot keep up must not grow)."""
TABLE_VARIABLE = "STEPS_TABLE_NAME"

ClientFactory = Callable[[str | None], Any]


class StepSettings(BaseModel):
    """Where a function writes its steps: read once per container (:meth:`StepWriter.settings`)."""

    model_config = ConfigDict(extra="ignore", populate_by_name=True)

    table: Annotated[str | None, Field(alias=TABLE_VARIABLE)] = None
    """Unset (a function outside the loop, a test): nothing is written."""
    region: Annotated[str | None, Field(alias="AWS_REGION")] = None


def _dynamodb(region: str | None) -> Any:
    import boto3
    from botocore.config import Config

    return boto3.client(
        "dynamodb",
        region_name=region,
        config=Config(
            connect_timeout=CONNECT_TIMEOUT_S,
            read_timeout=READ_TIMEOUT_S,
            retries={"total_max_attempts": 1},
        ),
    )


@dataclass
class _Write:
    table: str
    region: str | None
    item: dict[str, Any]


@dataclass
class StepWriter:
    """One background writer; :func:`writer` is the process's own."""

    client_factory: ClientFactory = _dynamodb
    _pending: OrderedDict[tuple[str, str], _Write] = field(default_factory=OrderedDict)
    _clients: dict[str | None, Any] = field(default_factory=dict)
    _settings: StepSettings | None = None
    _busy: bool = False
    _failed: int = 0
    _condition: threading.Condition = field(default_factory=threading.Condition)
    _thread: threading.Thread | None = None

    def report(self, turn: Turn | None, shown: Step) -> None:
        """Write ``shown`` for ``turn`` soon; never raises, never blocks on the network."""
        settings = self.settings()
        if turn is None or not settings.table:
            return
        table, region = settings.table, settings.region
        key = (turn.turnId, shown.step)
        with self._condition:
            if key not in self._pending and len(self._pending) >= MAX_PENDING:
                self._failed += 1
                return
            self._pending.pop(key, None)
            self._pending[key] = _Write(table, region, item(turn, shown))
            if self._thread is None or not self._thread.is_alive():
                self._thread = threading.Thread(
                    target=self._run, name="storechat-steps", daemon=True
                )
                self._thread.start()
            self._condition.notify_all()

    def settle(self, bound_s: float = SETTLE_BOUND_S) -> int:
        """Wait at most ``bound_s`` for the pending writes; how many failed or are late.

        The count covers every write since the last ``settle``; late writes go on in
        the background and are not counted again.
        """
        with self._condition:
            self._condition.wait_for(
                lambda: not self._pending and not self._busy, timeout=max(bound_s, 0.0)
            )
            late = len(self._pending) + int(self._busy)
            failed, self._failed = self._failed, 0
            return failed + late

    def settings(self) -> StepSettings:
        """The settings, validated from the caller's environment at the first step."""
        with self._condition:
            if self._settings is None:
                self._settings = StepSettings.model_validate(environ())
            return self._settings

    def forget(self) -> None:
        """Drop the settings and clients, as a new container would not have them (the local
        runner starts each system with its own moto and variables)."""
        with self._condition:
            self._clients.clear()
            self._settings = None

    def _run(self) -> None:
        while True:
            with self._condition:
                self._condition.wait_for(lambda: bool(self._pending))
                _, write = self._pending.popitem(last=False)
                self._busy = True
                client = self._clients.get(write.region)
            try:
                if client is None:
                    client = self.client_factory(write.region)
                    with self._condition:
                        self._clients[write.region] = client
                client.put_item(TableName=write.table, Item=write.item)
            except Exception:  # any failure: the step is lost, never the turn
                with self._condition:
                    self._failed += 1
            finally:
                with self._condition:
                    self._busy = False
                    self._condition.notify_all()


_writer = StepWriter()


def writer() -> StepWriter:
    return _writer


def report(turn: Turn | None, shown: Step) -> None:
    _writer.report(turn, shown)


def settle(context: Any = None, bound_s: float = SETTLE_BOUND_S) -> int:
    """Wait for this function's steps, within ``bound_s`` and the time its context has left
    (less a tenth of a second to return); counts the ones not written in a metric."""
    if context is not None:
        left_s = context.get_remaining_time_in_millis() / 1000 - 0.1
        bound_s = min(bound_s, left_s)
    lost = _writer.settle(bound_s)
    if lost:
        from shared.runtime.observability import MetricUnit, logger, metrics

        metrics.add_metric(name=Metric.STEP_WRITE_ERRORS, unit=MetricUnit.Count, value=lost)
        logger.warning("live trace steps not written", extra={"steps": lost})
    return lost
