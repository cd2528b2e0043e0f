"""POST /query/{turnId}/feedback deployed: a small function behind a proxy integration, with
its own throttle, that may only find and update turns of the sessions table."""

from __future__ import annotations

from typing import Any

import registry
from infra import feedback, names
from tests.infrastructure.conftest import Synthesized, render
from tests.infrastructure.test_iam import _grants, _without_xray


def _sessions_table(synth: Synthesized) -> str:
    return next(
        k
        for k, r in synth.of_type("AWS::DynamoDB::Table").items()
        if r["Properties"]["KeySchema"][0]["AttributeName"] == names.SESSIONS_PARTITION_KEY
        and len(r["Properties"]["KeySchema"]) == 2
    )


def _function(synth: Synthesized) -> str:
    return synth.functions_by_handler()[registry.RECORD_FEEDBACK.handler]


def _post(synth: Synthesized) -> dict[str, Any]:
    resources = synth.of_type("AWS::ApiGateway::Resource")
    (resource,) = [k for k, r in resources.items() if r["Properties"]["PathPart"] == "feedback"]
    (method,) = [
        render(r["Properties"])
        for r in synth.of_type("AWS::ApiGateway::Method").values()
        if r["Properties"]["ResourceId"] == {"Ref": resource}
        and r["Properties"]["HttpMethod"] == "POST"
    ]
    return method


def test_the_function_may_only_find_and_update_turns_of_the_sessions_table(
    each_env: Synthesized,
) -> None:
    role = render(each_env.props(_function(each_env))["Role"]).strip("<>").removesuffix(".Arn")
    grants = _without_xray(_grants(each_env, role))
    table = f"<{_sessions_table(each_env)}.Arn>"
    # No PutItem, no DeleteItem, no Scan, no other table
    assert grants == {"dynamodb:Query": {table}, "dynamodb:UpdateItem": {table}}


def test_the_function_knows_its_table_and_the_pages_it_answers(dev: Synthesized) -> None:
    variables = render(dev.props(_function(dev))["Environment"]["Variables"])
    assert variables["SESSIONS_TABLE_NAME"] == f"<{_sessions_table(dev)}>"
    assert "ALLOWED_ORIGINS" in variables


def test_the_route_is_a_proxy_integration_of_the_function(each_env: Synthesized) -> None:
    integration = _post(each_env)["Integration"]
    assert integration["Type"] == "AWS_PROXY"
    assert _function(each_env) in str(integration["Uri"])


def test_the_route_has_its_own_throttle(each_env: Synthesized) -> None:
    _, stage = each_env.one("AWS::ApiGateway::Stage")
    settings = {s["ResourcePath"]: s for s in stage["Properties"]["MethodSettings"]}
    route = settings["/" + feedback.RESOURCE_PATH.replace("/", "~1")]
    throttling = each_env.config.throttling
    assert route["HttpMethod"] == "POST"
    assert (
        route["ThrottlingRateLimit"] == throttling.rate_limit * feedback.FEEDBACK_PER_ANSWER_AT_MOST
    )
    assert route["ThrottlingBurstLimit"] == (
        throttling.burst_limit * feedback.FEEDBACK_PER_ANSWER_AT_MOST
    )
    assert route["DataTraceEnabled"] is False


def test_a_preflight_names_only_the_stores_origins(dev: Synthesized) -> None:
    resources = dev.of_type("AWS::ApiGateway::Resource")
    (resource,) = [k for k, r in resources.items() if r["Properties"]["PathPart"] == "feedback"]
    (options,) = [
        r["Properties"]
        for r in dev.of_type("AWS::ApiGateway::Method").values()
        if r["Properties"]["ResourceId"] == {"Ref": resource}
        and r["Properties"]["HttpMethod"] == "OPTIONS"
    ]
    responses = options["Integration"]["IntegrationResponses"][0]
    allowed = str(responses["ResponseParameters"]) + str(responses.get("ResponseTemplates"))
    for origin in dev.config.store.settings.allowedOrigins:
        assert origin in allowed
    assert "'*'" not in allowed
