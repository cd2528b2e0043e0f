"""What a public endpoint may spend: WAF's limit per client IP, and the day's model budget."""

from __future__ import annotations

import ast
import copy
import json
import operator
import re
from typing import Any

import pytest

from infra import names
from infra.config import ConfigError, EnvironmentConfig, load_config, read_cdk_json_context
from infra.edge import RULE_NAME
from shared.api.vocabulary import RATE_LIMITED
from shared.config.pricing import USAGE_PRICE_FIELDS
from tests.infrastructure.conftest import SYNTH_CONTEXT, Synthesized, render

REGION = {"CDK_DEFAULT_REGION": "us-east-1"}


def _config(env: str = "dev", **settings: Any) -> EnvironmentConfig:
    context = {**copy.deepcopy(read_cdk_json_context()), **SYNTH_CONTEXT[env]}
    context[names.CONTEXT_CONFIG]["environments"][env].update(settings)
    return load_config(context, env, REGION)


def _alarm(synth: Synthesized, name: str) -> dict[str, Any]:
    (alarm,) = [
        render(r["Properties"])
        for logical_id, r in synth.of_type("AWS::CloudWatch::Alarm").items()
        if logical_id.startswith(f"Monitoring{name}")
    ]
    return alarm


# -- per client: WAF ---------------------------------------------------------------------


def test_prod_limits_each_client_ip_on_the_api_stage(prod: Synthesized) -> None:
    # Given prod's setting
    limit = prod.config.client_rate_limit
    assert limit is not None, "prod has a limit per client by default"

    # Then one regional web ACL lets everything through but its rules, the first of
    # them: too many POSTs from one IP address in the window (the managed rules behind
    # it are tests/infrastructure/test_edge_rules.py's)
    acl_id, acl = prod.one("AWS::WAFv2::WebACL")
    props = render(acl["Properties"])
    assert props["Scope"] == "REGIONAL" and props["DefaultAction"] == {"Allow": {}}
    rule = min(props["Rules"], key=lambda r: r["Priority"])
    assert rule["Name"] == RULE_NAME
    rate = rule["Statement"]["RateBasedStatement"]
    assert rate["AggregateKeyType"] == "IP"
    assert (rate["Limit"], rate["EvaluationWindowSec"]) == (limit.requests, limit.window_seconds)
    posts, not_webhooks = rate["ScopeDownStatement"]["AndStatement"]["Statements"]
    method = posts["ByteMatchStatement"]
    assert method["FieldToMatch"] == {"Method": {}}
    assert (method["PositionalConstraint"], method["SearchString"]) == ("EXACTLY", "POST")
    # (the platforms' webhooks are not a client's questions: their route has its own throttle)
    path = not_webhooks["NotStatement"]["Statement"]["ByteMatchStatement"]
    assert path["FieldToMatch"] == {"UriPath": {}}
    assert (path["PositionalConstraint"], path["SearchString"]) == ("CONTAINS", "/webhooks/")
    assert rule["VisibilityConfig"]["CloudWatchMetricsEnabled"] is True

    # And the address over the limit gets the API's own 429 JSON, readable by the store's
    # pages, where the widget asks (a fixed header names one origin)
    response = rule["Action"]["Block"]["CustomResponse"]
    assert response["ResponseCode"] == 429
    body = props["CustomResponseBodies"][response["CustomResponseBodyKey"]]
    assert body["ContentType"] == "APPLICATION_JSON"
    assert json.loads(body["Content"]) == RATE_LIMITED.body()
    headers = {h["Name"]: h["Value"] for h in response["ResponseHeaders"]}
    assert headers == {
        "Access-Control-Allow-Origin": prod.config.store.settings.allowedOrigins[0],
        "Vary": "Origin",
    }

    # And the web ACL is attached to the API's stage, after the stage exists
    _, association = prod.one("AWS::WAFv2::WebACLAssociation")
    attached = render(association["Properties"])
    (api_id, _) = prod.one("AWS::ApiGateway::RestApi")
    (stage_id, _) = prod.one("AWS::ApiGateway::Stage")
    assert attached["WebACLArn"] == f"<{acl_id}.Arn>"
    assert attached["ResourceArn"].endswith(f"::/restapis/<{api_id}>/stages/<{stage_id}>")
    assert stage_id in association["DependsOn"]


def _acknowledged(synth: Synthesized) -> set[str]:
    metadata = synth.read(f"{names.stack_name(synth.env)}.metadata.json")
    return {
        rule
        for entries in metadata.values()
        for entry in entries
        if entry["type"] == "aws:cdk:acknowledged-rules"
        for rule in entry["data"]
    }


def test_without_a_limit_there_is_no_web_acl_and_nag_is_told_why(dev: Synthesized) -> None:
    assert dev.config.client_rate_limit is None
    assert not dev.of_type("AWS::WAFv2::WebACL")
    assert not dev.of_type("AWS::WAFv2::WebACLAssociation")
    assert "AwsSolutions::AwsSolutions-APIG3" in _acknowledged(dev)


def test_prod_needs_no_excuse_for_apig3(prod: Synthesized) -> None:
    assert "AwsSolutions::AwsSolutions-APIG3" not in _acknowledged(prod)


@pytest.mark.parametrize(
    ("settings", "problem"),
    [
        # a limit WAF cannot enforce
        ({"client_rate_limit": {"requests": 9}}, "client_rate_limit.requests"),
        (
            {"client_rate_limit": {"requests": 100, "window_seconds": 30}},
            "client_rate_limit.window_seconds",
        ),
        ({"client_rate_limit": {"requests": 100, "per": "ip"}}, "client_rate_limit.per"),
        # a budget that cannot be kept
        ({"model_budget": {"daily_usd": 0}}, "model_budget.daily_usd"),
        ({"model_budget": {"daily_usd": -5}}, "model_budget.daily_usd"),
        ({"model_budget": {"daily_usd": 5, "alarm_percent": 120}}, "model_budget.alarm_percent"),
        ({"model_budget": {"daily_usd": "lots"}}, "model_budget.daily_usd"),
    ],
)
def test_a_ceiling_that_cannot_be_kept_stops_the_synth_naming_the_setting(
    settings: dict[str, Any], problem: str
) -> None:
    with pytest.raises(ConfigError, match=re.escape(problem)):
        _config(**settings)


def test_a_limit_is_set_per_environment() -> None:
    config = _config(client_rate_limit={"requests": 40, "window_seconds": 60})
    limit = config.client_rate_limit
    assert limit is not None and (limit.requests, limit.window_seconds) == (40, 60)
    assert _config(client_rate_limit=False).client_rate_limit is None


# -- per day: the model budget -----------------------------------------------------------


def test_the_state_machine_gets_the_budget_and_the_models_prices(each_env: Synthesized) -> None:
    _, machine = each_env.one("AWS::StepFunctions::StateMachine")
    substitutions = machine["Properties"]["DefinitionSubstitutions"]
    budget = each_env.config.model_budget.daily_usd
    assert substitutions["DailyBudgetMicroUsd"] == str(round(budget * 1_000_000))
    prices = each_env.config.token_prices
    listed = {
        key: float(value)
        for key, value in re.findall(r"'(\w+)': ([0-9.]+)", substitutions["ModelPricesPerMTok"])
    }
    assert listed == {key: price * 1000 for key, price in prices.per_1k.items()}
    assert set(listed) == set(USAGE_PRICE_FIELDS)


def _evaluate(expression: str, tokens: dict[str, float]) -> float:
    """The alarm's metric math, with FILL(x, 0) given each metric's sum."""
    arithmetic = re.sub(r"FILL\((\w+), 0\)", lambda m: repr(tokens[m.group(1)]), expression)
    operators = {ast.Add: operator.add, ast.Mult: operator.mul, ast.Div: operator.truediv}

    def value(node: ast.AST) -> float:
        if isinstance(node, ast.BinOp) and type(node.op) in operators:
            return float(operators[type(node.op)](value(node.left), value(node.right)))
        if isinstance(node, ast.Constant) and isinstance(node.value, int | float):
            return float(node.value)
        raise AssertionError(f"unexpected metric math: {ast.dump(node)}")

    return value(ast.parse(arithmetic, mode="eval").body)


def test_the_budget_alarm_prices_the_days_tokens_as_the_counter_does(
    each_env: Synthesized,
) -> None:
    # Given the environment's budget alarm
    alarm = _alarm(each_env, "ModelBudget")
    budget = each_env.config.model_budget

    # Then it fires at alarm_percent of the daily budget, over the last 24 hours
    assert alarm["Threshold"] == pytest.approx(budget.daily_usd * budget.alarm_percent / 100)
    assert alarm["ComparisonOperator"] == "GreaterThanOrEqualToThreshold"
    assert alarm["EvaluationPeriods"] == 1
    assert alarm["TreatMissingData"] == "notBreaching"
    (expression,) = [m for m in alarm["Metrics"] if "Expression" in m]
    sums = [m for m in alarm["Metrics"] if "MetricStat" in m]
    for metric in sums:
        stat = metric["MetricStat"]
        assert (stat["Period"], stat["Stat"]) == (86_400, "Sum")
        assert stat["Metric"]["Namespace"] == each_env.config.metric_namespace
        assert stat["Metric"]["Dimensions"] == [{"Name": "service", "Value": names.SERVICE_NAME}]
    # the Converse function's token counts, one per kind of token
    assert {m["MetricStat"]["Metric"]["MetricName"] for m in sums} == {
        "InputTokens",
        "OutputTokens",
        "CacheReadInputTokens",
        "CacheWriteInputTokens",
    }

    # And its arithmetic is the model's list price of those tokens
    usage = {"inputTokens": 2_500_000, "outputTokens": 120_000}
    usage |= {"cacheReadInputTokens": 4_000_000, "cacheWriteInputTokens": 300_000}
    by_id = {m["Id"]: usage[m["Id"]] for m in sums}
    assert _evaluate(expression["Expression"], by_id) == pytest.approx(
        each_env.config.token_prices.cost_usd(usage)
    )


def test_each_environment_has_its_own_budget() -> None:
    dev, prod = (
        load_config({**read_cdk_json_context(), **SYNTH_CONTEXT[env]}, env, REGION).model_budget
        for env in ("dev", "prod")
    )
    assert dev.daily_usd < prod.daily_usd
    assert dev.alarm_percent == prod.alarm_percent == 80


def test_a_model_without_list_prices_cannot_have_a_budget() -> None:
    with pytest.raises(ConfigError, match=r"model_prices\.json") as raised:
        _config(model_id="amazon.nova-pro-v1:0")
    assert "amazon.nova-pro-v1:0 is not in model_prices.json" in str(raised.value)


def test_the_spend_table_is_an_output(each_env: Synthesized) -> None:
    (spend,) = [
        k
        for k, r in each_env.of_type("AWS::DynamoDB::Table").items()
        if r["Properties"]["KeySchema"][0]["AttributeName"] == names.SPEND_PARTITION_KEY
    ]
    output = each_env.template["Outputs"][names.Outputs.SPEND_TABLE_NAME]
    assert render(output["Value"]) == f"<{spend}>"
