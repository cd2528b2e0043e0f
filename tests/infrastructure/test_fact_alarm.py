"""The FactCorrections alarm: the model states product facts that the catalog contradicts."""

from __future__ import annotations

import copy

import pytest

from infra import names
from infra.config import ConfigError, EnvironmentConfig, load_config, read_cdk_json_context
from shared.config.metric_names import Metric
from tests.infrastructure.conftest import Synthesized, render


def _config(**alarms: int) -> EnvironmentConfig:
    context = copy.deepcopy(read_cdk_json_context())
    environment = context[names.CONTEXT_CONFIG]["environments"]["dev"]
    environment["alarms"] = {**environment.get("alarms", {}), **alarms}
    return load_config(context, "dev", {"CDK_DEFAULT_REGION": "us-east-1"})


def test_the_alarm_sums_the_corrections_compose_response_counts(each_env: Synthesized) -> None:
    # Given the synthesized stack of each environment
    found = {
        logical_id: render(resource["Properties"])
        for logical_id, resource in each_env.of_type("AWS::CloudWatch::Alarm").items()
        if logical_id.startswith("MonitoringFactCorrections")
    }

    # Then one alarm sums compose_response's FactCorrections metric over a period
    assert len(found) == 1, sorted(found)
    (alarm,) = found.values()
    settings = each_env.config.alarms
    assert alarm["MetricName"] == Metric.FACT_CORRECTIONS
    assert alarm["Namespace"] == each_env.config.metric_namespace
    assert alarm["Dimensions"] == [{"Name": "service", "Value": names.SERVICE_NAME}]
    assert alarm["Statistic"] == "Sum"
    assert alarm["Period"] == settings.period_minutes * 60
    # And fires at the environment's threshold, quiet when no answers came in
    assert alarm["Threshold"] == settings.fact_corrections
    assert alarm["ComparisonOperator"] == "GreaterThanOrEqualToThreshold"
    assert alarm["EvaluationPeriods"] == settings.evaluation_periods
    assert alarm["TreatMissingData"] == "notBreaching"
    # And notifies the alarm topic
    topic_id, _ = each_env.one("AWS::SNS::Topic")
    assert alarm["AlarmActions"] == [f"<{topic_id}>"]


def test_the_threshold_is_a_setting_of_at_least_one_correction() -> None:
    assert _config().alarms.fact_corrections == 10
    assert _config(fact_corrections=3).alarms.fact_corrections == 3
    with pytest.raises(ConfigError, match=r"alarms\.fact_corrections"):
        _config(fact_corrections=0)
