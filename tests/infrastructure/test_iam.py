"""Least privilege: every role can do what its code does, and nothing more."""

from __future__ import annotations

from typing import Any

from infra import names
from shared import registry
from tests.infrastructure.conftest import Synthesized, render

XRAY_WRITE = {"xray:PutTraceSegments", "xray:PutTelemetryRecords"}


def _statements(synth: Synthesized, role_id: str) -> list[dict[str, Any]]:
    """Every statement of the inline policies attached to ``role_id``."""
    statements: list[dict[str, Any]] = []
    for policy in synth.of_type("AWS::IAM::Policy").values():
        props = render(policy["Properties"])
        if f"<{role_id}>" in props["Roles"]:
            statements.extend(props["PolicyDocument"]["Statement"])
    return statements


def _grants(synth: Synthesized, role_id: str) -> dict[str, set[str]]:
    """action -> resources, for a role's inline policies."""
    grants: dict[str, set[str]] = {}
    for statement in _statements(synth, role_id):
        assert statement["Effect"] == "Allow"
        actions = (
            statement["Action"] if isinstance(statement["Action"], list) else [statement["Action"]]
        )
        resources = (
            statement["Resource"]
            if isinstance(statement["Resource"], list)
            else [statement["Resource"]]
        )
        for action in actions:
            grants.setdefault(action, set()).update(resources)
    return grants


def _role_of_function(synth: Synthesized, key: str) -> str:
    role: str = render(synth.props(synth.function_id(key))["Role"])
    return role.strip("<>").removesuffix(".Arn")


def _without_xray(grants: dict[str, set[str]]) -> dict[str, set[str]]:
    for action in XRAY_WRITE:
        assert grants.get(action) == {"*"}, "active tracing writes segments"
    return {a: r for a, r in grants.items() if a not in XRAY_WRITE}


def test_the_state_machine_invokes_exactly_the_five_functions(each_env: Synthesized) -> None:
    _, machine = each_env.one("AWS::StepFunctions::StateMachine")
    role = render(machine["Properties"]["RoleArn"]).strip("<>").removesuffix(".Arn")
    grants = _grants(each_env, role)
    functions = {f"<{each_env.function_id(key)}.Arn>" for key in registry.functions_by_key()}
    sessions = next(
        k
        for k, r in each_env.of_type("AWS::DynamoDB::Table").items()
        if r["Properties"]["KeySchema"][0]["AttributeName"] == names.SESSIONS_PARTITION_KEY
    )
    assert grants.pop("lambda:InvokeFunction") == functions
    assert grants.pop("dynamodb:Query") == {f"<{sessions}.Arn>"}
    assert grants.pop("dynamodb:PutItem") == {f"<{sessions}.Arn>"}
    # What remains is log delivery and X-Ray, which take no resource ARNs.
    for action, resources in grants.items():
        assert action.split(":")[0] in {"logs", "xray"}, action
        assert resources == {"*"}


def test_the_api_can_only_start_the_state_machine(each_env: Synthesized) -> None:
    machine_id, _ = each_env.one("AWS::StepFunctions::StateMachine")
    post = next(
        render(r["Properties"])
        for r in each_env.of_type("AWS::ApiGateway::Method").values()
        if r["Properties"]["HttpMethod"] == "POST"
    )
    role = post["Integration"]["Credentials"].strip("<>").removesuffix(".Arn")
    assert _grants(each_env, role) == {"states:StartSyncExecution": {f"<{machine_id}>"}}


def test_converse_may_only_invoke_the_configured_model(each_env: Synthesized) -> None:
    config = each_env.config
    grants = _without_xray(_grants(each_env, _role_of_function(each_env, "converse")))
    assert set(grants) == {"bedrock:InvokeModel"}
    resources = grants["bedrock:InvokeModel"]
    assert any(r.endswith(f":inference-profile/{config.model_id}") for r in resources)
    assert any(
        r.endswith(f":bedrock:*::foundation-model/{config.foundation_model_id}") for r in resources
    )
    assert len(resources) == 2


def test_the_catalog_tool_only_reads_the_catalog(each_env: Synthesized) -> None:
    catalog = next(
        k
        for k, r in each_env.of_type("AWS::DynamoDB::Table").items()
        if r["Properties"]["KeySchema"][0]["AttributeName"] == names.CATALOG_PARTITION_KEY
    )
    grants = _without_xray(_grants(each_env, _role_of_function(each_env, "lookup_inventory")))
    assert grants == {
        "dynamodb:Query": {f"<{catalog}.Arn>/index/{names.CATALOG_CATEGORY_INDEX}"},
        "dynamodb:Scan": {f"<{catalog}.Arn>"},
        "dynamodb:BatchGetItem": {f"<{catalog}.Arn>"},
    }


def test_the_reviews_tool_only_reads_its_secret(each_env: Synthesized) -> None:
    secret_id, _ = each_env.one("AWS::SecretsManager::Secret")
    grants = _without_xray(_grants(each_env, _role_of_function(each_env, "get_computer_reviews")))
    assert grants == {
        "secretsmanager:GetSecretValue": {f"<{secret_id}>"},
        "secretsmanager:DescribeSecret": {f"<{secret_id}>"},
    }


def test_functions_without_aws_calls_get_no_grants(each_env: Synthesized) -> None:
    for key in ("get_book_info", "compose_response"):
        assert _without_xray(_grants(each_env, _role_of_function(each_env, key))) == {}, key


def test_the_seeder_can_only_write_the_catalog(dev: Synthesized) -> None:
    seeder = dev.functions_by_handler()[names.SEED_HANDLER]
    role = render(dev.props(seeder)["Role"]).strip("<>").removesuffix(".Arn")
    catalog = next(
        k
        for k, r in dev.of_type("AWS::DynamoDB::Table").items()
        if r["Properties"]["KeySchema"][0]["AttributeName"] == names.CATALOG_PARTITION_KEY
    )
    assert _without_xray(_grants(dev, role)) == {"dynamodb:BatchWriteItem": {f"<{catalog}.Arn>"}}


def test_no_policy_grants_a_whole_service(each_env: Synthesized) -> None:
    for logical_id, policy in each_env.of_type("AWS::IAM::Policy").items():
        for statement in policy["Properties"]["PolicyDocument"]["Statement"]:
            actions = (
                statement["Action"]
                if isinstance(statement["Action"], list)
                else [statement["Action"]]
            )
            for action in actions:
                assert action != "*" and not action.endswith(":*"), (logical_id, action)
