"""One Logger, Tracer and Metrics for every storechat Lambda.

Handlers use the same decorator order everywhere::

    @logger.inject_lambda_context(correlation_id_path=CORRELATION_ID_PATH)
    @tracer.capture_lambda_handler
    @metrics.log_metrics
    def lambda_handler(event, context): ...

The state machine puts the execution ARN in every payload as ``executionId``,
so one conversation's logs, traces and metrics share a correlation id.
Logs go to stderr so that the local CLI's stdout carries only the answer.
"""

from __future__ import annotations

import functools
import sys
import threading
from collections.abc import Callable
from typing import Any

from aws_lambda_powertools import Logger, Metrics
from aws_lambda_powertools.metrics import MetricUnit
from aws_lambda_powertools.metrics.provider.cloudwatch_emf.cloudwatch import (
    AmazonCloudWatchEMFProvider,
)
from aws_lambda_powertools.shared.functions import strtobool

from shared.config.environment import environ
from shared.config.metric_names import SERVICE, Metric
from shared.runtime.errors import FailureKind

CORRELATION_ID_PATH = "executionId"


class _CurrentStderr:
    """Writes to whatever ``sys.stderr`` is now: the local CLI and tests swap it."""

    def write(self, text: str) -> int:
        return sys.stderr.write(text)

    def flush(self) -> None:
        sys.stderr.flush()


class _EMFProvider(AmazonCloudWatchEMFProvider):
    """Powertools' CloudWatch EMF provider, asking :func:`shared.config.environment.environ`
    whether metrics are off.

    Powertools reads ``POWERTOOLS_METRICS_DISABLED`` from ``os.environ`` at every flush,
    where the local runner's override cannot reach. Where the variable says off, the
    metrics are dropped instead of printed; Powertools would keep them, and print them
    all once one metric has 100 values.
    """

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        # The sets are shared by every handler of the process. Lambda runs one invocation
        # at a time, but a handler's own threads and the local Map's items (one thread
        # each) add to them while another flushes: without the lock, a flush iterating the
        # set fails with "dictionary changed size during iteration".
        self._lock = threading.RLock()

    def add_metric(self, *args: Any, **kwargs: Any) -> None:
        with self._lock:
            super().add_metric(*args, **kwargs)

    def add_dimension(self, name: str, value: str) -> None:
        with self._lock:
            super().add_dimension(name, value)

    def add_metadata(self, key: str, value: Any) -> None:
        with self._lock:
            super().add_metadata(key, value)

    def serialize_metric_set(self, *args: Any, **kwargs: Any) -> Any:
        with self._lock:
            return super().serialize_metric_set(*args, **kwargs)

    def clear_metrics(self) -> None:
        with self._lock:
            super().clear_metrics()

    def flush_metrics(self, raise_on_empty_metrics: bool = False) -> None:
        with self._lock:
            if strtobool(environ().get("POWERTOOLS_METRICS_DISABLED", "false")):
                self.clear_metrics()
                return
            super().flush_metrics(raise_on_empty_metrics=raise_on_empty_metrics)


class LazyTracer:
    """Powertools' Tracer, built at a function's first invocation and only if it traces.

    Lambda active tracing records every invocation without any SDK. The X-Ray SDK adds
    subsegments for a function's own calls, and costs about 100 ms of import: a function
    that does not want them (``POWERTOOLS_TRACE_DISABLED``, set per function from
    ``registry``) never loads it, and one that does loads it when it first runs,
    not when its module is imported.
    """

    def __init__(self, service: str) -> None:
        self._service = service
        self._tracer: Any = None
        self._lock = threading.Lock()

    def enabled(self) -> bool:
        return not strtobool(environ().get("POWERTOOLS_TRACE_DISABLED", "false"))

    def tracer(self) -> Any:
        with self._lock:
            if self._tracer is None:
                from aws_lambda_powertools import Tracer

                self._tracer = Tracer(service=self._service)
            return self._tracer

    def capture_lambda_handler(self, handler: Callable[..., Any]) -> Callable[..., Any]:
        traced: list[Callable[..., Any]] = []

        @functools.wraps(handler)
        def call(event: Any, context: Any) -> Any:
            if not traced:
                wrapped = (
                    self.tracer().capture_lambda_handler(handler) if self.enabled() else handler
                )
                traced.append(wrapped)
            return traced[0](event, context)

        return call


logger = Logger(service=SERVICE, stream=_CurrentStderr())  # type: ignore[arg-type]
tracer = LazyTracer(service=SERVICE)
# The namespace comes from POWERTOOLS_METRICS_NAMESPACE ("Storechat/<env>" when
# deployed), so two environments in one account keep their metrics and alarms apart.
# Powertools reads it here, once: code that calls handlers outside Lambda sets
# ``metrics.namespace`` for as long as it calls them, not os.environ for the process.
metrics = Metrics(service=SERVICE)
# The same shared metric, dimension and metadata sets as Metrics' own provider holds.
metrics.provider = _EMFProvider(
    service=SERVICE,
    metric_set=metrics.metric_set,
    dimension_set=metrics.dimension_set,
    metadata_set=metrics.metadata_set,
    default_dimensions=metrics.default_dimensions,
)

__all__ = [
    "CORRELATION_ID_PATH",
    "MetricUnit",
    "logger",
    "metrics",
    "record_tool_result",
    "tracer",
]


def record_tool_result(
    tool: str, status: str, ms: int, summary: str, kind: str | None = None
) -> None:
    """Metrics and logs for one tool call, the same for every tool.

    ``kind`` is an error result's kind. The summary echoes words from the shopper's
    question, so it is logged only at debug level; at info level an operator sees the
    tool, status and latency.
    """
    not_configured = status == "error" and kind == FailureKind.NOT_CONFIGURED
    failed = status == "error" and not not_configured
    metrics.add_metric(name=Metric.TOOL_LATENCY, unit=MetricUnit.Milliseconds, value=ms)
    metrics.add_metric(name=Metric.TOOL_ERRORS, unit=MetricUnit.Count, value=int(failed))
    metrics.add_metric(
        name=Metric.TOOL_NOT_CONFIGURED, unit=MetricUnit.Count, value=int(not_configured)
    )
    metrics.add_metric(name=Metric.TOOL_CALLS, unit=MetricUnit.Count, value=1)
    logger.info("tool finished", extra={"tool": tool, "status": status, "ms": ms})
    logger.debug("tool summary", extra={"tool": tool, "summary": summary})
