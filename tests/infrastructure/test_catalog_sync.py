"""The scheduled full pull as deployed: the schedule from cdk.json's ``catalog_sync`` block,
the function and its grants, its secret, its alarm; none of it without the block."""

from __future__ import annotations

from typing import Any

import registry
from infra import names
from tests.infrastructure.conftest import Synthesized, render
from tests.infrastructure.test_iam import _grants, _without_xray


def _function(synth: Synthesized) -> str:
    return synth.functions_by_handler()[registry.CATALOG_SYNC.handler]


def _sync_secret(synth: Synthesized) -> str:
    (secret,) = [k for k in synth.of_type("AWS::SecretsManager::Secret") if "CatalogSync" in k]
    return secret


def _catalog_table(synth: Synthesized) -> str:
    (table,) = [
        k
        for k, r in synth.of_type("AWS::DynamoDB::Table").items()
        if r["Properties"]["KeySchema"][0]["AttributeName"] == names.CATALOG_PARTITION_KEY
    ]
    return table


def test_the_schedule_runs_the_sync_function_as_cdk_json_says(dev: Synthesized) -> None:
    settings = dev.config.catalog_sync
    assert settings is not None
    function = _function(dev)
    (rule,) = dev.of_type("AWS::Events::Rule").values()
    props = render(rule["Properties"])
    assert props["ScheduleExpression"] == settings.schedule
    # enabled: false deploys it switched off, for the store team to turn on
    assert props["State"] == ("ENABLED" if settings.enabled else "DISABLED")
    assert [target["Arn"] for target in props["Targets"]] == [f"<{function}.Arn>"]
    permissions = [
        render(p["Properties"])
        for p in dev.of_type("AWS::Lambda::Permission").values()
        if render(p["Properties"]["FunctionName"]) == f"<{function}.Arn>"
    ]
    assert [p["Principal"] for p in permissions] == ["events.amazonaws.com"]


def test_the_function_reads_its_secret_and_writes_only_the_catalog(dev: Synthesized) -> None:
    function, secret, catalog = _function(dev), _sync_secret(dev), _catalog_table(dev)
    props = dev.props(function)
    role = render(props["Role"]).strip("<>").removesuffix(".Arn")
    assert _without_xray(_grants(dev, role)) == {
        # what the pull compares with, and what it writes and deletes
        "dynamodb:Scan": {f"<{catalog}.Arn>"},
        "dynamodb:BatchWriteItem": {f"<{catalog}.Arn>"},
        # its own secret, and no other
        "secretsmanager:GetSecretValue": {f"<{secret}>"},
        "secretsmanager:DescribeSecret": {f"<{secret}>"},
    }
    env: dict[str, Any] = render(props["Environment"]["Variables"])
    settings = dev.config.catalog_sync
    assert settings is not None
    assert env["ADMIN_API_SECRET_ARN"] == f"<{secret}>"
    assert env["CATALOG_TABLE_NAME"] == f"<{catalog}>"
    assert (env["SYNC_PLATFORM"], env["SYNC_API_URL"]) == (settings.platform, settings.api_url)
    assert env["ALLOW_SHRINK"] == "false"
    # The token is in the secret, created blank, never in the template
    assert dev.props(secret)["SecretString"].strip() == ""
    assert props["Timeout"] == registry.CATALOG_SYNC.timeout_s
    (invoke,) = [
        r["Properties"]
        for r in dev.of_type("AWS::Lambda::EventInvokeConfig").values()
        if render(r["Properties"]["FunctionName"]) == f"<{function}>"
    ]
    assert invoke["MaximumRetryAttempts"] == 0


def test_a_failed_pull_alarms_and_the_stack_says_where_the_token_goes(dev: Synthesized) -> None:
    function = _function(dev)
    alarms = {
        k: r["Properties"]
        for k, r in dev.of_type("AWS::CloudWatch::Alarm").items()
        if "CatalogSyncErrors" in k
    }
    (alarm,) = alarms.values()
    assert alarm["MetricName"] == "Errors" and alarm["Threshold"] == 1
    assert render(alarm["Dimensions"]) == [{"Name": "FunctionName", "Value": f"<{function}>"}]
    outputs = render(dev.template["Outputs"])
    assert outputs[names.Outputs.CATALOG_SYNC_SECRET_ARN]["Value"] == f"<{_sync_secret(dev)}>"
    assert outputs[names.Outputs.CATALOG_SYNC_FUNCTION]["Value"] == f"<{function}>"


def test_an_environment_without_a_catalog_sync_block_gets_no_schedule(prod: Synthesized) -> None:
    assert prod.config.catalog_sync is None
    assert prod.of_type("AWS::Events::Rule") == {}
    assert registry.CATALOG_SYNC.handler not in prod.functions_by_handler()
    assert not [k for k in prod.of_type("AWS::SecretsManager::Secret") if "CatalogSync" in k]
    assert not [k for k in prod.of_type("AWS::CloudWatch::Alarm") if "CatalogSync" in k]
