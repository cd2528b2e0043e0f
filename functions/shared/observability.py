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

import sys

from aws_lambda_powertools import Logger, Metrics, Tracer
from aws_lambda_powertools.metrics import MetricUnit

CORRELATION_ID_PATH = "executionId"
NAMESPACE = "Storechat"

logger = Logger(service="storechat", stream=sys.stderr)
tracer = Tracer(service="storechat")
metrics = Metrics(namespace=NAMESPACE, service="storechat")

__all__ = ["CORRELATION_ID_PATH", "MetricUnit", "logger", "metrics", "tracer"]
