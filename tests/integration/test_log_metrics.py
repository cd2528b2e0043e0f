"""Failures counted from log lines (``infra.log_metrics``): each metric's conditions, run
over the conversation log of a real local execution with that failure, and of a healthy
one, and over the API access log lines a refused start and an answered question write."""

from __future__ import annotations

import json
from typing import Any

import boto3
import pytest

from bench.history import log_records
from infra.api import ACCESS_LOG_FORMAT
from infra.log_metrics import COMPOSE_FAILED, QUERY_NOT_STARTED, SPEND_COUNTER_ERRORS, LogMetric
from storechat.local import LocalStorechat, RunResult
from storechat.local.runner import REGION, SPEND_TABLE

QUESTION = "Do you have a light Windows laptop under $800?"


def counted(metric: LogMetric, result: RunResult) -> int:
    """How many of the execution's log lines the metric filter would count."""
    records = log_records(result.events, result.execution_arn)
    # Each line is what CloudWatch Logs receives: JSON text, read back as the filter does.
    return sum(metric.matches(json.loads(json.dumps(r, default=str))) for r in records)


@pytest.fixture(scope="module")
def healthy() -> RunResult:
    with LocalStorechat(daily_budget_usd=1.0) as local:
        return local.ask(QUESTION)


def test_a_healthy_turn_counts_no_failure(healthy: RunResult) -> None:
    # Given a turn that was answered, When its log lines are filtered
    assert healthy.body is not None and healthy.body["outcome"] == "answered"
    # Then neither failure metric counts anything
    assert counted(COMPOSE_FAILED, healthy) == 0
    assert counted(SPEND_COUNTER_ERRORS, healthy) == 0


def test_a_failing_response_builder_is_counted_once_per_turn() -> None:
    # Given a response builder that crashes
    def crashes(event: dict[str, Any], context: Any) -> Any:
        raise RuntimeError("compose is down")

    with LocalStorechat(overrides={"compose_response": crashes}) as local:
        result = local.ask(QUESTION)

    # Then the shopper got the plain fallback, and the ComposeFailed metric counts one
    assert result.body is not None and result.body["fallbackReason"] == "compose_failed"
    assert counted(COMPOSE_FAILED, result) == 1


def test_a_spend_counter_that_cannot_be_written_is_counted() -> None:
    with LocalStorechat(daily_budget_usd=1.0) as local:
        # Given the spend table gone (DynamoDB refuses every call on it)
        boto3.client("dynamodb", region_name=REGION).delete_table(TableName=SPEND_TABLE)
        result = local.ask(QUESTION)

    # Then no model call is made without its reservation: the shopper is answered from the
    # catalog, for their words, as over the budget
    assert result.body is not None and result.body["outcome"] == "fallback"
    assert result.body["fallbackReason"] == "budget_exhausted"
    assert result.body["modelCalls"] == 0 and result.body["products"]
    # And the failed reservation is counted, so the SpendCounterFailing alarm fires
    assert counted(SPEND_COUNTER_ERRORS, result) >= 1
    assert counted(COMPOSE_FAILED, result) == 0


def access_log_line(**values: str) -> dict[str, Any]:
    """The access log line API Gateway writes, with ``$context`` variables filled in."""
    line = ACCESS_LOG_FORMAT
    defaults = {
        "$context.requestId": "5f1c0a6e-1111-2222-3333-444455556666",
        "$context.requestTime": "01/Dec/2026:23:59:59 +0000",
        "$context.identity.sourceIp": "203.0.113.9",
        "$context.httpMethod": "POST",
        "$context.resourcePath": "/query",
        "$context.responseLength": "120",
        "$context.responseLatency": "35",
        "$context.integration.latency": "30",
        "$context.xrayTraceId": "Root=1-5f1c0a6e-abc",
    }
    # Longest names first: $context.status is a prefix of no other, but be safe.
    for name, value in sorted({**defaults, **values}.items(), key=lambda kv: -len(kv[0])):
        line = line.replace(name, value)
    parsed: dict[str, Any] = json.loads(line)
    return parsed


def test_the_access_log_is_json_on_success_and_on_error() -> None:
    # Given a question answered (no error: API Gateway writes "-" for empty variables)
    answered = access_log_line(
        **{
            "$context.status": "200",
            "$context.integration.status": "200",
            "$context.error.responseType": "-",
        }
    )
    # Then the line is JSON, and the not-started metric does not count it
    assert answered["error"] == "-"
    assert not QUERY_NOT_STARTED.matches(answered)


@pytest.mark.parametrize(
    ("status", "integration", "error", "is_counted"),
    [
        # StartSyncExecution refused (throttled): its 400 became our 502
        ("502", "400", "-", True),
        # the API's role cannot start the execution
        ("502", "403", "-", True),
        # API Gateway gave up waiting on the integration
        ("504", "-", "INTEGRATION_TIMEOUT", True),
        # an execution that ran and failed: ExecutionsFailed's, not this one's
        ("502", "200", "-", False),
        # a shopper's bad request or WAF's limit: not a server failure
        ("400", "-", "BAD_REQUEST_BODY", False),
        ("429", "-", "THROTTLED", False),
    ],
)
def test_post_query_answering_5xx_without_an_execution_is_counted(
    status: str, integration: str, error: str, is_counted: bool
) -> None:
    line = access_log_line(
        **{
            "$context.status": status,
            "$context.integration.status": integration,
            "$context.error.responseType": error,
        }
    )
    assert QUERY_NOT_STARTED.matches(line) is is_counted


def test_the_live_trace_polls_are_not_counted_as_not_started() -> None:
    line = access_log_line(
        **{
            "$context.httpMethod": "GET",
            "$context.resourcePath": "/query/{turnId}/steps",
            "$context.status": "502",
            "$context.integration.status": "400",
            "$context.error.responseType": "-",
        }
    )
    assert not QUERY_NOT_STARTED.matches(line)
