"""Least privilege: every role can do what its code does, and nothing more."""

from __future__ import annotations

from typing import Any

import registry
from infra import names
from shared.trace import steps
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


def _steps_table(synth: Synthesized) -> str:
    return next(
        k
        for k, r in synth.of_type("AWS::DynamoDB::Table").items()
        if r["Properties"]["KeySchema"][0]["AttributeName"] == steps.PARTITION_KEY
    )


def _without_steps(synth: Synthesized, grants: dict[str, set[str]]) -> dict[str, set[str]]:
    """``grants`` less the one write every function the loop calls has: its live-trace steps."""
    assert grants.pop("dynamodb:PutItem") == {f"<{_steps_table(synth)}.Arn>"}
    return grants


def _without_xray(grants: dict[str, set[str]]) -> dict[str, set[str]]:
    for action in XRAY_WRITE:
        assert grants.get(action) == {"*"}, "active tracing writes segments"
    return {a: r for a, r in grants.items() if a not in XRAY_WRITE}


def test_the_state_machine_invokes_exactly_the_five_functions(each_env: Synthesized) -> None:
    _, machine = each_env.one("AWS::StepFunctions::StateMachine")
    role = render(machine["Properties"]["RoleArn"]).strip("<>").removesuffix(".Arn")
    grants = _grants(each_env, role)
    functions = {f"<{each_env.function_id(key)}.Arn>" for key in registry.functions_by_key()}
    sessions, spend = (
        next(
            k
            for k, r in each_env.of_type("AWS::DynamoDB::Table").items()
            if r["Properties"]["KeySchema"][0]["AttributeName"] == key
        )
        for key in (names.SESSIONS_PARTITION_KEY, names.SPEND_PARTITION_KEY)
    )
    assert grants.pop("lambda:InvokeFunction") == functions
    assert grants.pop("dynamodb:Query") == {f"<{sessions}.Arn>"}
    # Its turns, and the live trace's line of a tool that failed (ShowToolFailure)
    assert grants.pop("dynamodb:PutItem") == {
        f"<{sessions}.Arn>",
        f"<{_steps_table(each_env)}.Arn>",
    }
    # The day's spend: each model call's reservation, settled or released, one atomic
    # UpdateItem each (nothing reads the counter: the reservation's condition does)
    assert grants.pop("dynamodb:UpdateItem") == {f"<{spend}.Arn>"}
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
        and r["Properties"]["Integration"]["Type"] != "AWS_PROXY"  # not a function's route
    )
    role = post["Integration"]["Credentials"].strip("<>").removesuffix(".Arn")
    assert _grants(each_env, role) == {"states:StartSyncExecution": {f"<{machine_id}>"}}


def test_converse_may_only_invoke_the_configured_model(each_env: Synthesized) -> None:
    config = each_env.config
    grants = _without_xray(_grants(each_env, _role_of_function(each_env, "converse")))
    grants = _without_steps(each_env, grants)
    assert set(grants) == {"bedrock:InvokeModel"}
    resources = grants["bedrock:InvokeModel"]
    assert any(r.endswith(f":inference-profile/{config.model_id}") for r in resources)
    assert any(
        r.endswith(f":bedrock:*::foundation-model/{config.foundation_model_id}") for r in resources
    )
    assert len(resources) == 2


def _catalog(synth: Synthesized) -> str:
    return next(
        k
        for k, r in synth.of_type("AWS::DynamoDB::Table").items()
        if r["Properties"]["KeySchema"][0]["AttributeName"] == names.CATALOG_PARTITION_KEY
    )


def _index_bucket(synth: Synthesized) -> str:
    return next(k for k in synth.of_type("AWS::S3::Bucket") if k.startswith("Search"))


def test_the_catalog_tool_reads_snapshots_and_products_by_key_only(each_env: Synthesized) -> None:
    catalog, bucket = _catalog(each_env), _index_bucket(each_env)
    grants = _without_xray(_grants(each_env, _role_of_function(each_env, "lookup_inventory")))
    grants = _without_steps(each_env, grants)
    # Search runs on the snapshot: no Query, no Scan; prices and stock by key; no writes
    # (and ListBucket: a pointer not yet published is then 404, "being indexed", not 403)
    assert grants == {
        "s3:GetObject": {f"<{bucket}.Arn>/{names.CATALOG_INDEX_PREFIX}*"},
        "s3:ListBucket": {f"<{bucket}.Arn>"},
        "dynamodb:BatchGetItem": {f"<{catalog}.Arn>"},
    }


def test_the_indexer_gets_exactly_what_a_rebuild_needs(each_env: Synthesized) -> None:
    catalog, bucket = _catalog(each_env), _index_bucket(each_env)
    indexer = each_env.functions_by_handler()[registry.INDEX_CATALOG.handler]
    role = render(each_env.props(indexer)["Role"]).strip("<>").removesuffix(".Arn")
    queue, queue_props = each_env.one("AWS::SQS::Queue")
    key = render(queue_props["Properties"]["KmsMasterKeyId"])
    grants = _without_xray(_grants(each_env, role))
    snapshots = f"<{bucket}.Arn>/{names.CATALOG_INDEX_PREFIX}"
    assert grants == {
        # the whole-table read of a rebuild, and the table's stream
        "dynamodb:Scan": {f"<{catalog}.Arn>"},
        "dynamodb:DescribeStream": {f"<{catalog}.StreamArn>"},
        "dynamodb:GetRecords": {f"<{catalog}.StreamArn>"},
        "dynamodb:GetShardIterator": {f"<{catalog}.StreamArn>"},
        "dynamodb:ListStreams": {"*"},
        # new snapshots and the pointer; read the pointer; prune superseded snapshots
        "s3:PutObject": {f"{snapshots}*"},
        "s3:AbortMultipartUpload": {f"{snapshots}*"},
        "s3:GetObject": {f"{snapshots}latest.json"},
        "s3:ListBucket": {f"<{bucket}.Arn>"},
        "s3:DeleteObject": {f"{snapshots}*.sqlite.gz"},
        # what it gives up on goes to its failure queue
        "sqs:SendMessage": {f"<{queue}.Arn>"},
        "sqs:GetQueueAttributes": {f"<{queue}.Arn>"},
        "sqs:GetQueueUrl": {f"<{queue}.Arn>"},
        # under the queue's own key
        "kms:Encrypt": {key},
        "kms:Decrypt": {key},
        "kms:ReEncrypt*": {key},
        "kms:GenerateDataKey*": {key},
    }


def test_the_deploy_rebuild_may_only_invoke_the_indexer(each_env: Synthesized) -> None:
    indexer = each_env.functions_by_handler()[registry.INDEX_CATALOG.handler]
    (policy,) = [
        render(p["Properties"])
        for k, p in each_env.of_type("AWS::IAM::Policy").items()
        if k.startswith("SearchDeployRebuild")
    ]
    (statement,) = policy["PolicyDocument"]["Statement"]
    assert statement["Action"] == "lambda:InvokeFunction"
    assert statement["Resource"] == f"<{indexer}.Arn>"


def test_the_reviews_tool_only_reads_its_secret(each_env: Synthesized) -> None:
    (secret_id,) = [
        key
        for key in each_env.of_type("AWS::SecretsManager::Secret")
        if key.startswith("ToolsBraveApiKey")
    ]
    grants = _without_xray(_grants(each_env, _role_of_function(each_env, "get_computer_reviews")))
    assert _without_steps(each_env, grants) == {
        "secretsmanager:GetSecretValue": {f"<{secret_id}>"},
        "secretsmanager:DescribeSecret": {f"<{secret_id}>"},
    }


def test_functions_without_aws_calls_only_write_their_steps(each_env: Synthesized) -> None:
    for key in ("get_book_info",):
        grants = _without_xray(_grants(each_env, _role_of_function(each_env, key)))
        assert _without_steps(each_env, grants) == {}, key


def test_the_steps_route_may_only_query_the_steps_table(each_env: Synthesized) -> None:
    get = next(
        render(r["Properties"])
        for r in each_env.of_type("AWS::ApiGateway::Method").values()
        if r["Properties"]["HttpMethod"] == "GET"
    )
    role = get["Integration"]["Credentials"].strip("<>").removesuffix(".Arn")
    assert _grants(each_env, role) == {"dynamodb:Query": {f"<{_steps_table(each_env)}.Arn>"}}


def test_only_the_steps_route_reads_the_steps_and_no_one_deletes_them(
    each_env: Synthesized,
) -> None:
    table = f"<{_steps_table(each_env)}.Arn>"
    for logical_id, policy in each_env.of_type("AWS::IAM::Policy").items():
        for statement in render(policy["Properties"])["PolicyDocument"]["Statement"]:
            resources = statement["Resource"]
            if table not in (resources if isinstance(resources, list) else [resources]):
                continue
            actions = statement["Action"]
            actions = set(actions if isinstance(actions, list) else [actions])
            assert actions in ({"dynamodb:PutItem"}, {"dynamodb:Query"}), (logical_id, actions)
            if actions == {"dynamodb:Query"}:
                assert logical_id.startswith("LiveTraceReadStepsRole"), logical_id


def test_the_response_builder_reads_products_by_key_and_writes_its_steps(
    each_env: Synthesized,
) -> None:
    # Products an answer cites from earlier turns are read fresh, by id, and nothing else
    grants = _without_xray(_grants(each_env, _role_of_function(each_env, "compose_response")))
    assert _without_steps(each_env, grants) == {
        "dynamodb:BatchGetItem": {f"<{_catalog(each_env)}.Arn>"}
    }


def test_the_seeder_can_only_write_the_catalog(dev: Synthesized) -> None:
    seeder = dev.functions_by_handler()[registry.SEED_CATALOG.handler]
    role = render(dev.props(seeder)["Role"]).strip("<>").removesuffix(".Arn")
    assert _without_xray(_grants(dev, role)) == {
        "dynamodb:BatchWriteItem": {f"<{_catalog(dev)}.Arn>"}
    }


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
