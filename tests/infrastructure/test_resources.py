"""What the stack creates: tables, Lambdas, the secret, the page, alarms and outputs."""

from __future__ import annotations

import json
import re
from importlib import metadata
from pathlib import Path
from typing import Any

import boto3
import pytest
from moto import mock_aws

import registry
import statemachine
from compose_response.settings import Settings as ComposeSettings
from converse.settings import Settings as ConverseSettings
from get_book_info.settings import Settings as BookSettings
from get_computer_reviews.settings import Settings as ReviewsSettings
from get_store_policies.settings import Settings as PoliciesSettings
from infra import names
from infra.code_asset import interpreter
from infra.runtime import (
    POWERTOOLS_DISTRIBUTION,
    powertools_layer_parameter,
    powertools_version,
    python_version,
)
from infra.store import FUNCTIONS as STORE_FUNCTIONS
from lookup_inventory.settings import Settings as CatalogSettings
from shared.trace import steps
from shared.trace.step_writer import StepSettings
from storechat.local import runner
from tests.infrastructure.conftest import Synthesized, render

SETTINGS = {
    "converse": ConverseSettings,
    "compose_response": ComposeSettings,
    "lookup_inventory": CatalogSettings,
    "get_computer_reviews": ReviewsSettings,
    "get_book_info": BookSettings,
    "get_store_policies": PoliciesSettings,
}


def _table(synth: Synthesized, key: str) -> dict[str, Any]:
    for props in (r["Properties"] for r in synth.of_type("AWS::DynamoDB::Table").values()):
        if props["KeySchema"][0]["AttributeName"] == key:
            return props
    raise AssertionError(f"no table keyed by {key}")


def _local_tables() -> dict[str, dict[str, Any]]:
    """The tables storechat/local/runner.py creates, as DynamoDB describes them."""
    with mock_aws():
        client = boto3.client("dynamodb", region_name=runner.REGION)
        local = runner.LocalStorechat.__new__(runner.LocalStorechat)
        local._dynamodb = client
        local._create_tables()
        return {
            name: client.describe_table(TableName=name)["Table"]
            for name in (
                runner.CATALOG_TABLE,
                runner.SESSIONS_TABLE,
                runner.STEPS_TABLE,
                runner.SPEND_TABLE,
            )
        }


def _schema(table: dict[str, Any]) -> dict[str, Any]:
    return {
        "keys": sorted((k["AttributeName"], k["KeyType"]) for k in table["KeySchema"]),
        "attributes": sorted(
            (a["AttributeName"], a["AttributeType"]) for a in table["AttributeDefinitions"]
        ),
        "indexes": sorted(
            (
                i["IndexName"],
                tuple((k["AttributeName"], k["KeyType"]) for k in i["KeySchema"]),
                i["Projection"]["ProjectionType"],
            )
            for i in table.get("GlobalSecondaryIndexes", [])
        ),
    }


# -- data -----------------------------------------------------------------------------------


def test_the_tables_have_the_local_runners_key_schemas(dev: Synthesized) -> None:
    local = _local_tables()
    assert _schema(_table(dev, names.CATALOG_PARTITION_KEY)) == _schema(local[runner.CATALOG_TABLE])
    assert _schema(_table(dev, names.SESSIONS_PARTITION_KEY)) == _schema(
        local[runner.SESSIONS_TABLE]
    )
    assert _schema(_table(dev, steps.PARTITION_KEY)) == _schema(local[runner.STEPS_TABLE])
    assert _schema(_table(dev, names.SPEND_PARTITION_KEY)) == _schema(local[runner.SPEND_TABLE])


def test_the_catalog_table_has_no_secondary_index_but_the_sparse_inventory_one(
    each_env: Synthesized,
) -> None:
    # Search runs on the snapshot and fresh reads go by key: an index would double writes.
    # The one exception finds a Shopify inventory item's product (inventory_levels/update):
    # keys only, written only for products that have an item.
    table = _table(each_env, names.CATALOG_PARTITION_KEY)
    assert "LocalSecondaryIndexes" not in table
    (index,) = table["GlobalSecondaryIndexes"]
    assert index["IndexName"] == names.CATALOG_INVENTORY_INDEX
    assert index["Projection"] == {"ProjectionType": "KEYS_ONLY"}


def test_tables_have_point_in_time_recovery_and_sessions_expire(each_env: Synthesized) -> None:
    for table in each_env.of_type("AWS::DynamoDB::Table").values():
        props = table["Properties"]
        if props["KeySchema"][0]["AttributeName"] == steps.PARTITION_KEY:
            # Minutes of progress lines: no backup, and nothing to keep when the stack goes.
            assert "PointInTimeRecoverySpecification" not in props
            assert table["DeletionPolicy"] == "Delete"
            continue
        assert props["PointInTimeRecoverySpecification"] == {"PointInTimeRecoveryEnabled": True}
        assert props["BillingMode"] == "PAY_PER_REQUEST"
        retain = each_env.config.removal_policy == "retain"
        assert table["DeletionPolicy"] == ("Retain" if retain else "Delete")
        assert props.get("DeletionProtectionEnabled", False) is retain
    sessions = _table(each_env, names.SESSIONS_PARTITION_KEY)
    assert sessions["TimeToLiveSpecification"] == {
        "AttributeName": names.SESSIONS_TTL_ATTRIBUTE,
        "Enabled": True,
    }
    spend = _table(each_env, names.SPEND_PARTITION_KEY)
    assert spend["TimeToLiveSpecification"] == {
        "AttributeName": names.SPEND_TTL_ATTRIBUTE,
        "Enabled": True,
    }


def test_the_asl_writes_the_steps_tables_keys_ttl_and_a_step() -> None:
    asl = json.loads(statemachine.read_definition())
    failure = asl["States"]["RunTools"]["ItemProcessor"]["States"]["ShowToolFailure"]
    item = failure["Arguments"]["Item"]
    assert set(item) == {
        steps.PARTITION_KEY,
        steps.SORT_KEY,
        steps.SHOWN_ATTRIBUTE,
        steps.TTL_ATTRIBUTE,
    }
    assert failure["Arguments"]["TableName"] == "${StepsTableName}"
    # bounded, never retried, and its failure goes on to the error toolResult
    assert failure["TimeoutSeconds"] == 1
    assert "Retry" not in failure
    assert [c["ErrorEquals"] for c in failure["Catch"]] == [["States.ALL"]]
    assert failure["Catch"][0]["Next"] == failure["Next"] == "ToolFailed"


def test_the_asl_writes_the_sessions_tables_keys_and_ttl() -> None:
    asl = json.loads(statemachine.read_definition())
    item = asl["States"]["SaveTurn"]["Arguments"]["Item"]
    assert {names.SESSIONS_PARTITION_KEY, names.SESSIONS_SORT_KEY} <= set(item)
    assert item[names.SESSIONS_TTL_ATTRIBUTE].keys() == {"N"}


def test_the_asl_reserves_settles_and_releases_on_the_spend_tables_key_and_ttl() -> None:
    states = json.loads(statemachine.read_definition())["States"]
    for state in ("ReserveSpend", "SettleSpend", "ReleaseSpend"):
        assert states[state]["Resource"] == "arn:aws:states:::aws-sdk:dynamodb:updateItem"
        assert set(states[state]["Arguments"]["Key"]) == {names.SPEND_PARTITION_KEY}
        assert states[state]["Arguments"]["TableName"] == "${SpendTableName}"
        # fail closed within a second on a stack (the local copy allows more: its table is
        # a moto table sharing one interpreter)
        assert states[state]["TimeoutSeconds"] == 1
    assert set(statemachine.SPEND_STATES) == {
        name
        for name, s in states.items()
        if s.get("Arguments", {}).get("TableName") == "${SpendTableName}"
    }
    # the reservation keeps the day's item alive, as the counter's writes did
    update = states["ReserveSpend"]["Arguments"]["UpdateExpression"]
    assert f"SET {names.SPEND_TTL_ATTRIBUTE} = :expires" in update


def test_a_stack_is_seeded_with_the_sample_only_when_its_environment_asks(
    prod: Synthesized,
) -> None:
    # prod's cdk.json leaves seed_sample off: its table holds the store's products alone
    assert not prod.of_type("Custom::CatalogSeed")
    assert registry.SEED_CATALOG.handler not in prod.functions_by_handler()


def test_the_catalog_is_seeded_on_deploy_by_a_custom_resource(dev: Synthesized) -> None:
    _, seed = dev.one("Custom::CatalogSeed")
    props = render(seed["Properties"])
    catalog_id = next(
        k
        for k, r in dev.of_type("AWS::DynamoDB::Table").items()
        if r["Properties"]["KeySchema"][0]["AttributeName"] == names.CATALOG_PARTITION_KEY
    )
    assert props["TableName"] == f"<{catalog_id}>"
    assert len(props["CatalogVersion"]) == 16
    assert registry.SEED_CATALOG.handler in dev.functions_by_handler()


# -- Lambdas --------------------------------------------------------------------------------


def test_every_lambda_is_python_with_the_powertools_layer_and_tracing(
    each_env: Synthesized,
) -> None:
    config = each_env.config
    functions = each_env.functions_by_handler()
    # The seeder is deployed only where the environment seeds the sample (seed_sample), the
    # scheduled pull only where it has a catalog_sync block
    unseeded = set() if config.seed_sample else {registry.SEED_CATALOG.handler}
    unsynced = set() if config.catalog_sync else {registry.CATALOG_SYNC.handler}
    declared = {f.handler for f in (*registry.FUNCTIONS, *registry.BACKGROUND)}
    assert set(functions) == declared - unseeded - unsynced
    (sqlite_layer,) = [
        k for k in each_env.of_type("AWS::Lambda::LayerVersion") if k.startswith("SqliteLayer")
    ]
    searching = {registry.LOOKUP_INVENTORY.handler, registry.INDEX_CATALOG.handler}
    (store_layer,) = [
        k
        for k in each_env.of_type("AWS::Lambda::LayerVersion")
        if k.startswith("ToolsStoreSettings")
    ]
    speaking = {registry.functions_by_key()[key].handler for key in STORE_FUNCTIONS}
    for handler, logical_id in functions.items():
        props = render(each_env.props(logical_id))
        assert props["Runtime"] == "python3.13", handler
        assert props["Architectures"] == [config.lambda_architecture], handler
        assert props["TracingConfig"] == {"Mode": "Active"}, handler
        layers = [f"<{_powertools_parameter(each_env)}>"]
        if handler in searching:  # SQLite with FTS5 for the catalog search
            layers.append(f"<{sqlite_layer}>")
        if handler in speaking:  # the store's settings and policies
            layers.append(f"<{store_layer}>")
        assert props["Layers"] == layers, handler
        group = props["LoggingConfig"]["LogGroup"].strip("<>")
        assert each_env.props(group)["RetentionInDays"] == config.log_retention_days


def _powertools_parameter(synth: Synthesized) -> str:
    """The template parameter CloudFormation fills with the Powertools layer's ARN."""
    (name,) = [
        name
        for name, parameter in synth.template["Parameters"].items()
        if parameter["Default"].startswith("/aws/service/powertools/python/")
    ]
    return name


def test_the_deployed_powertools_is_the_release_the_tests_run(each_env: Synthesized) -> None:
    # Given the Powertools these tests import, installed from pyproject.toml's pin
    tested = metadata.version(POWERTOOLS_DISTRIBUTION)
    assert powertools_version() == tested, "pyproject.toml's pin and the installed release differ"

    # When CloudFormation resolves the layer, it reads that release's public parameter
    parameter = each_env.template["Parameters"][_powertools_parameter(each_env)]
    assert parameter["Type"] == "AWS::SSM::Parameter::Value<String>"
    assert parameter["Default"] == powertools_layer_parameter(
        each_env.config.lambda_architecture, tested
    )
    assert parameter["Default"] == (
        f"/aws/service/powertools/python/{each_env.config.lambda_architecture}/python3.13/{tested}"
    )


@pytest.mark.parametrize(
    ("requirement", "version"),
    [
        ('"aws-lambda-powertools[tracer]==3.37.0"', "3.37.0"),
        ('"aws_lambda_powertools == 3.40.1"', "3.40.1"),
        ('"Aws-Lambda-Powertools==4.0.0"', "4.0.0"),
        ('"aws-lambda-powertools>=3.37"', None),
        ('"aws-lambda-powertools~=3.37.0"', None),
        ('"aws-lambda-powertools-extra==1.0.0"', None),
    ],
)
def test_only_an_exact_powertools_pin_names_a_layer(
    tmp_path: Path, requirement: str, version: str | None
) -> None:
    pyproject = tmp_path / "pyproject.toml"
    pyproject.write_text(
        f'[project]\nname = "x"\ndependencies = ["boto3>=1.40", {requirement}]\n', "utf-8"
    )
    if version is None:
        with pytest.raises(ValueError, match=r"must pin aws-lambda-powertools==X\.Y\.Z"):
            powertools_version(pyproject)
    else:
        assert powertools_version(pyproject) == version


def test_lambda_code_is_the_functions_directory_without_docker(dev: Synthesized) -> None:
    assets = dev.read(f"{names.stack_name('dev')}.assets.json")["files"]
    code = {
        json.dumps(render(dev.props(dev.function_id(key))["Code"]))
        for key in registry.functions_by_key()
    }
    assert len(code) == 1, "all five functions share one code asset"
    packaged = [a for a in assets.values() if a["source"].get("packaging") == "zip"]
    assert packaged, "the code asset is a zipped directory"
    staged = {p.name for p in dev.outdir.glob("asset.*") if p.is_dir()}
    code_dirs = [dev.outdir / d for d in staged if (dev.outdir / d / "seed_catalog").is_dir()]
    assert len(code_dirs) == 1
    assert (code_dirs[0] / "seed_catalog" / "handler.py").is_file()
    # Bytecode of the runtime's Python only, or none where synth found no such interpreter
    tags = {p.name.split(".")[-2] for p in code_dirs[0].rglob("*.pyc")}
    runtime_tag = "cpython-" + python_version().replace(".", "")
    assert tags == ({runtime_tag} if interpreter(python_version()) else set())


@pytest.mark.parametrize("key", sorted(registry.functions_by_key()))
def test_timeouts_match_the_asl_and_the_local_runner(dev: Synthesized, key: str) -> None:
    timeout = dev.props(dev.function_id(key))["Timeout"]
    assert timeout == registry.functions_by_key()[key].timeout_s
    asl = json.loads(statemachine.read_definition())
    task = {
        "converse": asl["States"]["Converse"],
        "compose_response": asl["States"]["ComposeResponse"],
    }.get(key, asl["States"]["RunTools"]["ItemProcessor"]["States"]["InvokeTool"])
    # The Lambda stops no later than the state machine stops waiting for it
    assert timeout == task["TimeoutSeconds"]


@pytest.mark.parametrize("key", sorted(registry.functions_by_key()))
def test_memory_and_tmp_are_the_registrys(dev: Synthesized, key: str) -> None:
    # The sizes the cold-start figures were measured at are the ones deployed
    props = dev.props(dev.function_id(key))
    function = registry.functions_by_key()[key]
    assert props["MemorySize"] == function.memory_mb
    assert props["EphemeralStorage"] == {"Size": function.ephemeral_storage_mb}


@pytest.mark.parametrize("key", sorted(SETTINGS))
def test_each_function_gets_settings_it_can_read(dev: Synthesized, key: str) -> None:
    # Given the environment the stack gives the function (references as placeholders)
    env = render(dev.props(dev.function_id(key))["Environment"]["Variables"])

    # Then every variable is Powertools' or one its settings model reads, and it validates
    model = SETTINGS[key]
    # ...or the live trace's writer's, which every function the loop calls has
    known = {field.alias for field in model.model_fields.values()} | {
        field.alias for field in StepSettings.model_fields.values()
    }
    StepSettings.model_validate(env)
    assert {name for name in env if not name.startswith("POWERTOOLS_")} <= known
    model.model_validate(env)


def test_every_function_logs_and_meters_as_storechat(each_env: Synthesized) -> None:
    for key in registry.functions_by_key():
        env = each_env.props(each_env.function_id(key))["Environment"]["Variables"]
        assert env["POWERTOOLS_SERVICE_NAME"] == names.SERVICE_NAME
        assert env["POWERTOOLS_METRICS_NAMESPACE"] == each_env.config.metric_namespace
        assert env["POWERTOOLS_LOG_LEVEL"] == each_env.config.log_level


def test_the_model_settings_come_from_config(each_env: Synthesized) -> None:
    config = each_env.config
    env = render(each_env.props(each_env.function_id("converse"))["Environment"]["Variables"])
    assert env["MODEL_PROVIDER"] == "bedrock"
    assert env["MODEL_ID"] == config.model_id
    assert env["MAX_TOKENS"] == str(config.max_tokens)
    assert env["PROMPT_CACHING"] == ("true" if config.prompt_caching else "false")
    assert env["BEDROCK_REGION"] == (config.bedrock_region or config.region or "<AWS::Region>")


def test_the_store_currency_comes_from_config(each_env: Synthesized) -> None:
    # The response builder checks prices in it; the Converse function names it to the
    # model; the catalog tool flags an amount the shopper said in another
    for key in ("compose_response", "converse", "lookup_inventory"):
        env = render(each_env.props(each_env.function_id(key))["Environment"]["Variables"])
        assert env["STORE_CURRENCY"] == each_env.config.store_currency == "USD", key


def test_the_store_weight_unit_comes_from_config(each_env: Synthesized) -> None:
    # The catalog tool gives the model weights in it; the response builder corrects in it
    for key in ("lookup_inventory", "compose_response"):
        env = render(each_env.props(each_env.function_id(key))["Environment"]["Variables"])
        assert env["STORE_WEIGHT_UNIT"] == each_env.config.store_weight_unit == "kg", key


def test_the_brave_key_is_never_in_the_template(each_env: Synthesized) -> None:
    # Every secret (the Brave key, the platforms' webhook secrets) is blank in the template
    secrets = each_env.of_type("AWS::SecretsManager::Secret")
    for secret in secrets.values():
        assert secret["Properties"]["SecretString"].strip() == ""
    for key in registry.functions_by_key():
        env = render(each_env.props(each_env.function_id(key))["Environment"]["Variables"])
        assert "BRAVE_API_KEY" not in env
    reviews = render(
        each_env.props(each_env.function_id("get_computer_reviews"))["Environment"]["Variables"]
    )
    (secret_id,) = [key for key in secrets if key.startswith("ToolsBraveApiKey")]
    assert reviews["BRAVE_API_KEY_SECRET_ARN"] == f"<{secret_id}>"


# -- web, monitoring, outputs ---------------------------------------------------------------


def test_the_page_is_served_from_a_private_bucket_through_cloudfront(dev: Synthesized) -> None:
    (bucket,) = [r for k, r in dev.of_type("AWS::S3::Bucket").items() if k.startswith("Web")]
    assert bucket["Properties"]["PublicAccessBlockConfiguration"] == {
        "BlockPublicAcls": True,
        "BlockPublicPolicy": True,
        "IgnorePublicAcls": True,
        "RestrictPublicBuckets": True,
    }
    dev.one("AWS::CloudFront::OriginAccessControl")
    _, cdn = dev.one("AWS::CloudFront::Distribution")
    config = cdn["Properties"]["DistributionConfig"]
    assert config["DefaultRootObject"] == "index.html"
    assert config["DefaultCacheBehavior"]["ViewerProtocolPolicy"] == "redirect-to-https"


def test_the_pages_csp_allows_its_environments_image_hosts_and_no_others(
    each_env: Synthesized,
) -> None:
    # Given an environment's image hosts in cdk.json, When the stack is synthesized,
    # Then the page is served with a CSP whose img-src is those hosts (and its own
    # origin) only, and whose connect-src is the page's own origin and this stack's API.
    policy_id, policy = each_env.one("AWS::CloudFront::ResponseHeadersPolicy")
    headers = policy["Properties"]["ResponseHeadersPolicyConfig"]["SecurityHeadersConfig"]
    csp = render(headers["ContentSecurityPolicy"]["ContentSecurityPolicy"])
    directives = dict(d.split(" ", 1) for d in csp.split("; "))
    assert directives["img-src"] == " ".join(["'self'", "data:", *each_env.config.image_hosts])
    api_id, _ = each_env.one("AWS::ApiGateway::RestApi")
    assert directives["connect-src"].startswith(f"'self' https://<{api_id}>.execute-api.")
    assert directives["script-src"] == "'self'"
    assert headers["StrictTransportSecurity"]["AccessControlMaxAgeSec"] == 31_536_000
    _, cdn = each_env.one("AWS::CloudFront::Distribution")
    behavior = cdn["Properties"]["DistributionConfig"]["DefaultCacheBehavior"]
    assert behavior["ResponseHeadersPolicyId"] == {"Ref": policy_id}


def test_the_page_is_told_where_the_api_is(dev: Synthesized) -> None:
    _, deployment = dev.one("Custom::CDKBucketDeployment")
    props = render(deployment["Properties"])
    api_id, _ = dev.one("AWS::ApiGateway::RestApi")
    markers = json.dumps(props.get("SourceMarkers", []))
    assert api_id in markers, "config.json's apiUrl is the deployed API's URL"
    assert len(props["SourceObjectKeys"]) == 3  # web/, config.json and names.json


def test_the_page_is_told_the_stores_currency(dev: Synthesized) -> None:
    # Given the environment's store currency, When the page's files are staged,
    # Then config.json names it, so the cards price products as the answer does
    # (The API's URL in it is a marker filled at deploy time, so the file is read as text.)
    staged = [path.read_text(encoding="utf-8") for path in dev.outdir.glob("asset.*/config.json")]
    assert len(staged) == 1
    currency = re.search(r'"currency":\s*"([A-Z]{3})"', staged[0])
    assert currency is not None and currency[1] == dev.config.store_currency
    # and its weight unit, so that a card says a weight as the answer does
    unit = re.search(r'"weightUnit":\s*"(kg|lb)"', staged[0])
    assert unit is not None and unit[1] == dev.config.store_weight_unit


def test_alarms_cover_failures_timeouts_throttling_tools_and_fallbacks(
    each_env: Synthesized,
) -> None:
    alarms = {
        logical_id.removeprefix("Monitoring")[:-8]: render(r["Properties"])
        for logical_id, r in each_env.of_type("AWS::CloudWatch::Alarm").items()
    }
    assert set(alarms) == {
        "ExecutionsFailed",
        "ExecutionsTimedOut",
        "ModelThrottled",
        "ToolErrorRate",
        "FallbackRate",
        # facts the catalog contradicted (tests/infrastructure/test_fact_alarm.py)
        "FactCorrections",
        # the day's model spend (tests/infrastructure/test_spend_limits.py)
        "ModelBudget",
        # the catalog index (tests/infrastructure/test_search.py looks closer)
        "CatalogIndexerErrors",
        "CatalogIndexChangesDropped",
        "CatalogIndexBehind",
        # the live trace (tests/infrastructure/test_trace.py looks closer)
        "LiveTraceStepsNotWritten",
        "LiveTraceReadsFailing",
        # failures counted from log lines (tests/infrastructure/test_alarm_delivery.py)
        "ComposeFailed",
        "SpendCounterFailing",
        "ExecutionsNotStarted",
        # a burst inside one period, where alarms wait for more than one
        *(["ExecutionsFailedBurst"] if each_env.config.alarms.evaluation_periods > 1 else []),
        # the scheduled pull, where there is one (tests/infrastructure/test_catalog_sync.py)
        *(["CatalogSyncErrors"] if each_env.config.catalog_sync else []),
    }
    assert alarms["ExecutionsFailed"]["MetricName"] == "ExecutionsFailed"
    assert alarms["ExecutionsTimedOut"]["MetricName"] == "ExecutionsTimedOut"
    assert alarms["ModelThrottled"]["MetricName"] == "ModelThrottles"
    assert alarms["ModelThrottled"]["Namespace"] == each_env.config.metric_namespace
    for rate in ("ToolErrorRate", "FallbackRate"):
        expressions = [m for m in alarms[rate]["Metrics"] if "Expression" in m]
        assert len(expressions) == 1 and "IF(" in expressions[0]["Expression"]
    topic_id, _ = each_env.one("AWS::SNS::Topic")
    for alarm in alarms.values():
        assert alarm["AlarmActions"] == [f"<{topic_id}>"]
        assert alarm["TreatMissingData"] == "notBreaching"
    each_env.one("AWS::CloudWatch::Dashboard")


def test_outputs(each_env: Synthesized) -> None:
    expected = {value for key, value in vars(names.Outputs).items() if not key.startswith("_")}
    if each_env.config.catalog_sync is None:
        expected -= {names.Outputs.CATALOG_SYNC_SECRET_ARN, names.Outputs.CATALOG_SYNC_FUNCTION}
    assert set(each_env.template["Outputs"]) == expected
