"""Alarms that reach someone, and failures that raise one: the alarm topic's policy, its
subscribers, the setting prod cannot be deployed without, and the alarms on failures no
function counts (their filters are run over real log lines in
tests/integration/test_log_metrics.py)."""

from __future__ import annotations

import copy
import fnmatch
from typing import Any

import pytest

from infra import names
from infra.config import ConfigError, EnvironmentConfig, load_config, read_cdk_json_context
from infra.log_metrics import COMPOSE_FAILED, QUERY_NOT_STARTED, SPEND_COUNTER_ERRORS
from shared.config.metric_names import Metric
from tests.infrastructure.conftest import PROD_ALARM_EMAIL, Synthesized, render

ACCOUNT, REGION = "123456789012", "us-east-1"
PSEUDO = {"<AWS::Partition>": "aws", "<AWS::Region>": REGION, "<AWS::AccountId>": ACCOUNT}


def _value(value: Any, topic_arn: str, topic_id: str) -> Any:
    if isinstance(value, str):
        for name, real in {**PSEUDO, f"<{topic_id}>": topic_arn}.items():
            value = value.replace(name, real)
        return value
    if isinstance(value, list):
        return [_value(v, topic_arn, topic_id) for v in value]
    if isinstance(value, dict):
        return {k: _value(v, topic_arn, topic_id) for k, v in value.items()}
    return value


def _applies(statement: dict[str, Any], request: dict[str, Any]) -> bool:
    actions = statement["Action"]
    actions = [actions] if isinstance(actions, str) else actions
    if request["action"] not in actions:
        return False
    principal = statement["Principal"]
    if principal != "*" and request["service"] not in (
        [principal["Service"]] if isinstance(principal["Service"], str) else principal["Service"]
    ):
        return False
    resources = statement["Resource"]
    if request["resource"] not in ([resources] if isinstance(resources, str) else resources):
        return False
    for operator, tests in statement.get("Condition", {}).items():
        for key, wanted in tests.items():
            have = request["context"].get(key)
            if operator == "Bool" and str(have).lower() != str(wanted).lower():
                return False
            if operator == "StringEquals" and have != wanted:
                return False
            if operator == "ArnLike" and not (have and fnmatch.fnmatchcase(have, wanted)):
                return False
            if operator not in ("Bool", "StringEquals", "ArnLike"):
                raise AssertionError(f"the test cannot read condition {operator}")
    return True


def decide(policy: dict[str, Any], request: dict[str, Any]) -> str:
    """IAM's rule for one resource policy: an explicit deny wins, then an allow."""
    matched = [s["Effect"] for s in policy["Statement"] if _applies(s, request)]
    if "Deny" in matched:
        return "Deny"
    return "Allow" if "Allow" in matched else "ImplicitDeny"


def topic_policy(env: Synthesized) -> tuple[dict[str, Any], str]:
    topic_id, _ = env.one("AWS::SNS::Topic")
    arn = f"arn:aws:sns:{REGION}:{ACCOUNT}:alarms"
    (policy,) = [
        _value(render(r["Properties"]["PolicyDocument"]), arn, topic_id)
        for r in env.of_type("AWS::SNS::TopicPolicy").values()
        if r["Properties"]["Topics"] == [{"Ref": topic_id}]
    ]
    return policy, arn


def publish(arn: str, *, tls: bool, alarm_account: str = ACCOUNT) -> dict[str, Any]:
    return {
        "service": "cloudwatch.amazonaws.com",
        "action": "sns:Publish",
        "resource": arn,
        "context": {
            "aws:SecureTransport": tls,
            "aws:SourceArn": f"arn:aws:cloudwatch:{REGION}:{alarm_account}:alarm:Storechat-x",
            "aws:SourceAccount": alarm_account,
        },
    }


def test_cloudwatch_may_publish_the_alarms_over_tls_and_nothing_without(
    each_env: Synthesized,
) -> None:
    # Given the alarm topic's policy (which replaces SNS's default one)
    policy, arn = topic_policy(each_env)
    # Then this account's alarms may publish over TLS
    assert decide(policy, publish(arn, tls=True)) == "Allow"
    # And not without TLS, not even CloudWatch
    assert decide(policy, publish(arn, tls=False)) == "Deny"
    # And another account's alarms may not (no confused deputy)
    assert decide(policy, publish(arn, tls=True, alarm_account="999999999999")) != "Allow"


def test_prods_alarms_reach_the_address_it_was_deployed_with(prod: Synthesized) -> None:
    topic_id, _ = prod.one("AWS::SNS::Topic")
    subscriptions = [
        render(r["Properties"]) for r in prod.of_type("AWS::SNS::Subscription").values()
    ]
    assert {"Endpoint": PROD_ALARM_EMAIL, "Protocol": "email", "TopicArn": f"<{topic_id}>"} in (
        subscriptions
    )


def _config(
    env: str, context_extra: dict[str, Any] | None = None, **alarms: Any
) -> EnvironmentConfig:
    context = copy.deepcopy(read_cdk_json_context())
    block = context[names.CONTEXT_CONFIG]["environments"][env]
    block["alarms"] = {**block.get("alarms", {}), **alarms}
    return load_config({**context, **(context_extra or {})}, env, {"CDK_DEFAULT_REGION": REGION})


def test_prod_cannot_be_deployed_with_alarms_that_reach_nobody() -> None:
    # Given prod as cdk.json has it, naming nobody, When it is loaded for a synth
    with pytest.raises(ConfigError) as refused:
        _config("prod")
    # Then the synth stops and says how to name someone
    message = str(refused.value)
    assert "alarms reach nobody" in message
    assert "alarms.emails" in message and "alarms.https_endpoints" in message
    assert f"-c {names.CONTEXT_ALARM_EMAILS}=" in message


def test_an_address_on_the_command_line_or_an_https_endpoint_is_a_destination() -> None:
    extra = {names.CONTEXT_ALARM_EMAILS: "a@example.com, b@example.com"}
    assert _config("prod", extra, emails=["a@example.com"]).alarms.emails == [
        "a@example.com",
        "b@example.com",
    ]
    hooked = _config("prod", https_endpoints=["https://events.example.com/sns"])
    assert hooked.alarms.https_endpoints == ["https://events.example.com/sns"]
    # dev requires none
    assert _config("dev").alarms.emails == []


@pytest.mark.parametrize("endpoint", ["http://events.example.com/sns", "events.example.com"])
def test_an_endpoint_that_is_not_https_is_refused(endpoint: str) -> None:
    with pytest.raises(ConfigError, match=r"alarms\.https_endpoints"):
        _config("dev", https_endpoints=[endpoint])


def _alarms(env: Synthesized) -> dict[str, dict[str, Any]]:
    return {
        logical_id.removeprefix("Monitoring")[:-8]: render(r["Properties"])
        for logical_id, r in env.of_type("AWS::CloudWatch::Alarm").items()
    }


@pytest.mark.parametrize(
    ("alarm", "counted", "log_group_prefix"),
    [
        ("ComposeFailed", COMPOSE_FAILED, "LoopExecutionLogs"),
        ("SpendCounterFailing", SPEND_COUNTER_ERRORS, "LoopExecutionLogs"),
        ("ExecutionsNotStarted", QUERY_NOT_STARTED, "ApiAccessLogs"),
    ],
)
def test_failures_no_function_counts_raise_an_alarm(
    each_env: Synthesized, alarm: str, counted: Any, log_group_prefix: str
) -> None:
    # Given the metric filter on the log that holds the failure's line
    (metric_filter,) = [
        r["Properties"]
        for r in each_env.of_type("AWS::Logs::MetricFilter").values()
        if r["Properties"]["MetricTransformations"][0]["MetricName"] == counted.name
    ]
    assert metric_filter["FilterPattern"] == counted.pattern()
    assert metric_filter["LogGroupName"]["Ref"].startswith(log_group_prefix)
    (transformation,) = metric_filter["MetricTransformations"]
    assert transformation["MetricNamespace"] == each_env.config.metric_namespace
    # Then the alarm sums that metric and fires on the first one
    found = _alarms(each_env)[alarm]
    assert (found["Namespace"], found["MetricName"]) == (
        each_env.config.metric_namespace,
        counted.name,
    )
    assert found["Statistic"] == "Sum" and found["Threshold"] == 1
    assert found["ComparisonOperator"] == "GreaterThanOrEqualToThreshold"


def test_a_burst_of_failed_executions_alarms_within_one_period(prod: Synthesized) -> None:
    settings = prod.config.alarms
    alarms = _alarms(prod)
    # Given prod, whose alarms wait for two breaching periods
    assert alarms["ExecutionsFailed"]["EvaluationPeriods"] == settings.evaluation_periods == 2
    # Then a burst of failures in one period alarms at once
    burst = alarms["ExecutionsFailedBurst"]
    assert burst["MetricName"] == "ExecutionsFailed" and burst["EvaluationPeriods"] == 1
    assert burst["Threshold"] == settings.failed_executions_burst
    assert burst["Period"] == settings.period_minutes * 60


def test_a_tool_that_is_not_configured_is_not_a_tool_error(each_env: Synthesized) -> None:
    rate = _alarms(each_env)["ToolErrorRate"]
    counted = {
        m["MetricStat"]["Metric"]["MetricName"] for m in rate["Metrics"] if "MetricStat" in m
    }
    assert "ToolErrors" in counted and Metric.TOOL_NOT_CONFIGURED not in counted
