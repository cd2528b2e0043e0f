"""The catalog's search index in the stack: bucket, stream, indexer, layer, alarms; and the
same stack for a store whose catalog is its Products API (indexed on a schedule)."""

from __future__ import annotations

import copy
import json
import re
import subprocess
from importlib import metadata
from pathlib import Path
from typing import Any

import pytest

import registry
from index_catalog.events import parse_trigger
from index_catalog.settings import Settings as IndexerSettings
from infra import names
from infra.config import load_config, read_cdk_json_context
from infra.runtime import sqlean_version
from infra.search import ASYNC_RETRY_ATTEMPTS, builder_fingerprint
from tests.infrastructure.conftest import SYNTH_ENVIRONMENTS, Synthesized, render, run_app
from tests.infrastructure.test_checks import CFN_LINT, NAG_PLUGIN

PIP_ARCH = {"arm64": "aarch64", "x86_64": "x86_64"}


def _bucket(synth: Synthesized) -> tuple[str, dict[str, Any]]:
    (found,) = [
        (k, r) for k, r in synth.of_type("AWS::S3::Bucket").items() if k.startswith("Search")
    ]
    return found


def _indexer(synth: Synthesized) -> str:
    return synth.functions_by_handler()[registry.INDEX_CATALOG.handler]


def _alarms(synth: Synthesized) -> dict[str, dict[str, Any]]:
    return {
        logical_id.removeprefix("Monitoring")[:-8]: render(r["Properties"])
        for logical_id, r in synth.of_type("AWS::CloudWatch::Alarm").items()
    }


def _catalog(synth: Synthesized) -> tuple[str, dict[str, Any]]:
    (found,) = [
        (k, r["Properties"])
        for k, r in synth.of_type("AWS::DynamoDB::Table").items()
        if r["Properties"]["KeySchema"][0]["AttributeName"] == names.CATALOG_PARTITION_KEY
    ]
    return found


# -- the bucket ----------------------------------------------------------------------------


def test_the_snapshot_bucket_is_versioned_encrypted_private_and_tls_only(
    each_env: Synthesized,
) -> None:
    bucket_id, bucket = _bucket(each_env)
    props = bucket["Properties"]
    assert props["VersioningConfiguration"] == {"Status": "Enabled"}
    (encryption,) = props["BucketEncryption"]["ServerSideEncryptionConfiguration"]
    assert encryption["ServerSideEncryptionByDefault"]["SSEAlgorithm"] in ("AES256", "aws:kms")
    assert set(props["PublicAccessBlockConfiguration"].values()) == {True}
    assert len(props["PublicAccessBlockConfiguration"]) == 4

    (policy,) = [
        render(r["Properties"])
        for r in each_env.of_type("AWS::S3::BucketPolicy").values()
        if render(r["Properties"]["Bucket"]) == f"<{bucket_id}>"
    ]
    denials = [s for s in policy["PolicyDocument"]["Statement"] if s["Effect"] == "Deny"]
    conditions = [s["Condition"] for s in denials]
    assert {"Bool": {"aws:SecureTransport": "false"}} in conditions
    assert {"NumericLessThan": {"s3:TlsVersion": 1.2}} in conditions


def test_old_snapshots_expire_but_the_one_in_use_never_does(each_env: Synthesized) -> None:
    _, bucket = _bucket(each_env)
    rules = bucket["Properties"]["LifecycleConfiguration"]["Rules"]
    days = each_env.config.catalog_index.keep_old_versions_days
    assert all(rule["Status"] == "Enabled" for rule in rules)
    assert any(r.get("NoncurrentVersionExpiration") == {"NoncurrentDays": days} for r in rules)
    assert any(r.get("ExpiredObjectDeleteMarker") is True for r in rules)
    assert any("AbortIncompleteMultipartUpload" in r for r in rules)
    # A current object (the pointer, the snapshot it names) is never expired by age
    assert not any("ExpirationInDays" in r or "ExpirationDate" in r for r in rules)


def test_the_bucket_goes_with_the_stack_only_where_data_does(each_env: Synthesized) -> None:
    _, bucket = _bucket(each_env)
    retain = each_env.config.removal_policy == "retain"
    assert bucket["DeletionPolicy"] == ("Retain" if retain else "Delete")
    emptied = each_env.of_type("Custom::S3AutoDeleteObjects")
    assert bool(emptied) is not retain


# -- the stream and the indexer ------------------------------------------------------------


def test_the_catalog_table_streams_both_images_of_its_changes(each_env: Synthesized) -> None:
    # The indexer needs both to skip a batch of price and stock changes alone
    _, table = _catalog(each_env)
    assert table["StreamSpecification"] == {"StreamViewType": "NEW_AND_OLD_IMAGES"}


def _queue_policy(synth: Synthesized) -> list[dict[str, Any]]:
    _, policy = synth.one("AWS::SQS::QueuePolicy")
    statements: list[dict[str, Any]] = render(policy["Properties"])["PolicyDocument"]["Statement"]
    return statements


def test_the_failure_queue_is_encrypted_with_its_own_rotated_key_and_tls_only(
    each_env: Synthesized,
) -> None:
    # (checkov CKV_AWS_27: KMS, not SSE-SQS)
    queue_id, queue = each_env.one("AWS::SQS::Queue")
    key_id = render(queue["Properties"]["KmsMasterKeyId"]).strip("<>").removesuffix(".Arn")
    key = each_env.resources[key_id]
    assert key["Type"] == "AWS::KMS::Key"
    assert key["Properties"]["EnableKeyRotation"] is True
    assert "SqsManagedSseEnabled" not in queue["Properties"]
    retain = each_env.config.removal_policy == "retain"
    assert key["DeletionPolicy"] == ("Retain" if retain else "Delete")
    # No request without TLS, from anyone
    (deny,) = [s for s in _queue_policy(each_env) if s["Effect"] == "Deny"]
    assert deny["Condition"] == {"Bool": {"aws:SecureTransport": "false"}}
    assert deny["Action"] == "sqs:*" and deny["Principal"] == {"AWS": "*"}
    assert deny["Resource"] == f"<{queue_id}.Arn>"
    # And what writes to it may use the key: the indexer's role, for Lambda's
    # on-failure destinations
    grants = {
        action
        for policy in each_env.of_type("AWS::IAM::Policy").values()
        for statement in render(policy["Properties"])["PolicyDocument"]["Statement"]
        if statement.get("Resource") == f"<{key_id}.Arn>"
        for action in statement["Action"]
    }
    assert {"kms:GenerateDataKey*", "kms:Encrypt"} <= grants


def test_the_stream_runs_the_indexer_in_batches_and_never_bisects(each_env: Synthesized) -> None:
    settings = each_env.config.catalog_index
    catalog_id, _ = _catalog(each_env)
    queue_id, _ = each_env.one("AWS::SQS::Queue")
    _, mapping = each_env.one("AWS::Lambda::EventSourceMapping")
    props = render(mapping["Properties"])
    assert props["EventSourceArn"] == f"<{catalog_id}.StreamArn>"
    assert props["FunctionName"] == f"<{_indexer(each_env)}>"
    assert props["StartingPosition"] == "LATEST"
    assert props["BatchSize"] == 1000
    assert props["MaximumBatchingWindowInSeconds"] == settings.batching_window_seconds
    assert props["MaximumRetryAttempts"] == settings.retry_attempts
    assert props["BisectBatchOnFunctionError"] is False
    assert props["FunctionResponseTypes"] == ["ReportBatchItemFailures"]
    assert props["ParallelizationFactor"] == 1
    assert props["DestinationConfig"] == {"OnFailure": {"Destination": f"<{queue_id}.Arn>"}}


def test_the_indexer_reserves_no_concurrency_unless_set(each_env: Synthesized) -> None:
    # An account at the new-account quota of 10 cannot reserve any: a first deploy would
    # fail. The setting is unset in cdk.json, so no environment reserves any.
    assert each_env.config.catalog_index.reserved_concurrency is None
    assert "ReservedConcurrentExecutions" not in each_env.props(_indexer(each_env))


def test_one_rebuild_at_a_time_once_the_setting_says_so(tmp_path: Path) -> None:
    # Given dev with catalog_index.reserved_concurrency set to 1 (no synth: the tree is enough)
    from aws_cdk import Stack

    from infra.app import create_app

    context = copy.deepcopy(read_cdk_json_context())
    block = context[names.CONTEXT_CONFIG]["environments"]["dev"]
    block["catalog_index"] = {"reserved_concurrency": 1}
    _, stack = create_app(
        overrides={names.CONTEXT_CONFIG: context[names.CONTEXT_CONFIG]},
        outdir=str(tmp_path),
        environ={"CDK_DEFAULT_REGION": "us-east-1"},
    )
    # Then the indexer reserves exactly one concurrent execution
    function = stack.search.indexer.node.default_child
    assert Stack.of(stack).resolve(function.reserved_concurrent_executions) == 1


def test_one_rebuild_runs_with_room_and_a_failure_queue(each_env: Synthesized) -> None:
    indexer = _indexer(each_env)
    props = each_env.props(indexer)
    spec = registry.INDEX_CATALOG
    assert (props["Timeout"], props["MemorySize"]) == (spec.timeout_s, spec.memory_mb)
    assert props["EphemeralStorage"] == {"Size": spec.ephemeral_storage_mb}
    assert render(props["Code"]) == render(
        each_env.props(each_env.function_id("converse"))["Code"]
    ), "the indexer ships in the functions' one code asset"

    queue_id, _ = each_env.one("AWS::SQS::Queue")
    # (the scheduled catalog sync, where there is one, has its own)
    (config,) = [
        render(c["Properties"])
        for c in each_env.of_type("AWS::Lambda::EventInvokeConfig").values()
        if render(c["Properties"]["FunctionName"]) == f"<{indexer}>"
    ]
    assert config["MaximumRetryAttempts"] == ASYNC_RETRY_ATTEMPTS
    assert config["DestinationConfig"] == {"OnFailure": {"Destination": f"<{queue_id}.Arn>"}}


def test_the_indexer_gets_settings_it_can_read(each_env: Synthesized) -> None:
    env = render(each_env.props(_indexer(each_env))["Environment"]["Variables"])
    known = {field.alias for field in IndexerSettings.model_fields.values()}
    assert {name for name in env if not name.startswith("POWERTOOLS_")} <= known
    settings = IndexerSettings.model_validate(env)
    bucket_id, _ = _bucket(each_env)
    assert settings.bucket == f"<{bucket_id}>"
    assert settings.pointer_key == names.CATALOG_INDEX_POINTER_KEY
    lookup = render(each_env.props(each_env.function_id("lookup_inventory"))["Environment"])
    assert lookup["Variables"]["CATALOG_INDEX_BUCKET"] == settings.bucket
    assert lookup["Variables"]["CATALOG_INDEX_POINTER_KEY"] == settings.pointer_key


def test_a_deploy_asks_for_one_rebuild_after_seeding_and_the_stream(dev: Synthesized) -> None:
    (rebuild_id, rebuild) = dev.one("Custom::CatalogIndexRebuild")
    call = json.loads(render(rebuild["Properties"]["Create"]))
    assert render(rebuild["Properties"]["Update"]) == render(rebuild["Properties"]["Create"])
    assert (call["service"], call["action"]) == ("Lambda", "invoke")
    parameters = call["parameters"]
    assert parameters["FunctionName"] == f"<{_indexer(dev)}>"
    assert parameters["InvocationType"] == "Event"  # the deploy does not wait for the build
    trigger = parse_trigger(json.loads(parameters["Payload"]))
    assert trigger.kind == "request"
    # ...that names the build code it was synthesized with (a change to it asks again)
    assert re.fullmatch(r"deploy \(builder [0-9a-f]{16}\)", trigger.reason or "")
    (seed, _) = dev.one("Custom::CatalogSeed")
    (mapping, _) = dev.one("AWS::Lambda::EventSourceMapping")
    assert {seed, mapping} <= set(dev.resources[rebuild_id]["DependsOn"])


def test_a_change_to_the_build_code_changes_the_rebuild_request(tmp_path: Path) -> None:
    for folder in ("index_catalog", "shared/search", "shared/data", "shared/catalog"):
        (tmp_path / folder).mkdir(parents=True)
    (tmp_path / "index_catalog" / "logic.py").write_text("A = 1\n")
    (tmp_path / "shared" / "search" / "build.py").write_text("B = 1\n")
    before = builder_fingerprint(tmp_path)
    (tmp_path / "shared" / "data" / "other.py").write_text("unrelated\n")
    assert builder_fingerprint(tmp_path) == before
    (tmp_path / "shared" / "search" / "build.py").write_text("B = 2\n")
    assert builder_fingerprint(tmp_path) != before
    # A spec declared (a facet column more in every snapshot) asks for a rebuild too
    changed = builder_fingerprint(tmp_path)
    (tmp_path / "shared" / "catalog" / "specs.py").write_text("SPECS = (REFRESH_RATE,)\n")
    assert builder_fingerprint(tmp_path) != changed


# -- the SQLite layer ----------------------------------------------------------------------


def test_the_sqlite_layer_is_the_pinned_sqlean_for_the_functions_architecture(
    each_env: Synthesized,
) -> None:
    arch = each_env.config.lambda_architecture
    ((layer_id, layer),) = [
        (k, r)
        for k, r in each_env.of_type("AWS::Lambda::LayerVersion").items()
        if k.startswith("SqliteLayer")
    ]
    props = layer["Properties"]
    assert props["CompatibleArchitectures"] == [arch]
    assert props["CompatibleRuntimes"] == ["python3.13"]
    # The staged asset is what Lambda unpacks under /opt: python/ on the path, holding
    # sqlean's extension module built for this architecture and CPython 3.13.
    (staged,) = [
        p
        for p in each_env.outdir.glob("asset.*")
        if p.is_dir() and p.name.removeprefix("asset.") in json.dumps(props["Content"])
    ]
    (module,) = (staged / "python" / "sqlean").glob("_sqlite3*.so")
    assert module.name == f"_sqlite3.cpython-313-{PIP_ARCH[arch]}-linux-gnu.so"
    (dist_info,) = (staged / "python").glob("sqlean_py-*.dist-info")
    assert dist_info.name == f"sqlean_py-{sqlean_version()}.dist-info"
    assert not list(staged.rglob("__pycache__")), "bytecode of the synth's Python is left out"
    for function in (_indexer(each_env), each_env.function_id("lookup_inventory")):
        assert f"<{layer_id}>" in render(each_env.props(function)["Layers"])


def test_the_tests_exercise_the_sqlean_release_the_layer_ships() -> None:
    try:
        installed = metadata.version("sqlean.py")
    except metadata.PackageNotFoundError:
        pytest.skip("sqlean.py is not installed here: pip install -e '.[dev]'")
    assert installed == sqlean_version()


# -- alarms and outputs --------------------------------------------------------------------


def test_alarms_watch_the_indexer_its_stream_and_its_failure_queue(
    each_env: Synthesized,
) -> None:
    alarms = _alarms(each_env)
    indexer = _indexer(each_env)
    queue_id, _ = each_env.one("AWS::SQS::Queue")

    errors = alarms["CatalogIndexerErrors"]
    assert (errors["Namespace"], errors["MetricName"], errors["Statistic"]) == (
        "AWS/Lambda",
        "Errors",
        "Sum",
    )
    assert errors["Dimensions"] == [{"Name": "FunctionName", "Value": f"<{indexer}>"}]
    assert errors["Threshold"] == 1
    assert errors["ComparisonOperator"] == "GreaterThanOrEqualToThreshold"

    behind = alarms["CatalogIndexBehind"]
    assert (behind["MetricName"], behind["Statistic"]) == ("IteratorAge", "Maximum")
    assert behind["Threshold"] == each_env.config.alarms.index_iterator_age_minutes * 60_000

    dropped = alarms["CatalogIndexChangesDropped"]
    assert dropped["MetricName"] == "ApproximateNumberOfMessagesVisible"
    assert dropped["Dimensions"] == [{"Name": "QueueName", "Value": f"<{queue_id}.QueueName>"}]


def test_the_bucket_name_is_an_output(each_env: Synthesized) -> None:
    bucket_id, _ = _bucket(each_env)
    output = each_env.template["Outputs"][names.Outputs.CATALOG_INDEX_BUCKET]
    assert render(output["Value"]) == f"<{bucket_id}>"


# -- a store whose catalog is its Products API ---------------------------------------------

API_URL = "https://products.example.com/api"


@pytest.fixture(scope="module")
def http(tmp_path_factory: pytest.TempPathFactory) -> Synthesized:
    """dev, reading the Products API: synthesized once for this module."""
    context = copy.deepcopy(read_cdk_json_context())
    dev = context[names.CONTEXT_CONFIG]["environments"]["dev"]
    # (the scheduled pull writes the catalog table, which an http catalog has none of)
    dev.update(catalog_source="http", products_api_url=API_URL, catalog_sync=False)
    block = json.dumps(context[names.CONTEXT_CONFIG])
    outdir = tmp_path_factory.mktemp("cdk-http")
    extra = SYNTH_ENVIRONMENTS["dev"]
    result = run_app(
        "-c", f"{names.CONTEXT_CONFIG}={block}", extra_env={**extra, "CDK_OUTDIR": str(outdir)}
    )
    assert result.returncode == 0, result.stderr[-8000:]
    return Synthesized(
        env="dev",
        outdir=outdir,
        config=load_config(context, "dev", extra),
        template=json.loads((outdir / f"{names.stack_name('dev')}.template.json").read_text()),
    )


def test_the_products_api_is_indexed_on_a_schedule_instead_of_a_stream(http: Synthesized) -> None:
    assert not http.of_type("AWS::DynamoDB::Table") or all(
        r["Properties"]["KeySchema"][0]["AttributeName"] != names.CATALOG_PARTITION_KEY
        for r in http.of_type("AWS::DynamoDB::Table").values()
    )
    assert not http.of_type("AWS::Lambda::EventSourceMapping")
    _, rule = http.one("AWS::Events::Rule")
    props = render(rule["Properties"])
    every = http.config.catalog_index.rebuild_every_minutes
    assert props["ScheduleExpression"] == f"rate({every} minutes)"
    (target,) = props["Targets"]
    assert target["Arn"] == f"<{_indexer(http)}.Arn>"
    queue_id, _ = http.one("AWS::SQS::Queue")
    assert target["DeadLetterConfig"] == {"Arn": f"<{queue_id}.Arn>"}

    env = render(http.props(_indexer(http))["Environment"]["Variables"])
    settings = IndexerSettings.model_validate(env)
    assert (settings.catalog_source, settings.products_api_url) == ("http", API_URL)


def test_the_schedule_may_put_failed_rebuilds_in_the_encrypted_queue(http: Synthesized) -> None:
    # EventBridge sends the failed scheduled rebuilds itself: the queue's policy and the
    # queue's key both let it, for this one rule
    rule_id, _ = http.one("AWS::Events::Rule")
    _, queue = http.one("AWS::SQS::Queue")
    (send,) = [s for s in _queue_policy(http) if s["Effect"] == "Allow"]
    assert send["Principal"] == {"Service": "events.amazonaws.com"}
    assert send["Condition"] == {"ArnEquals": {"aws:SourceArn": f"<{rule_id}.Arn>"}}
    key_id = render(queue["Properties"]["KmsMasterKeyId"]).strip("<>").removesuffix(".Arn")
    key_policy = render(http.resources[key_id]["Properties"]["KeyPolicy"])["Statement"]
    (events,) = [s for s in key_policy if s.get("Sid") == "EventBridgeSendsFailedRebuilds"]
    assert events["Principal"] == {"Service": "events.amazonaws.com"}
    assert set(events["Action"]) == {"kms:GenerateDataKey", "kms:Decrypt"}
    (source,) = events["Condition"]["ArnEquals"].values()
    assert source.endswith(f":rule/{render(http.resources[rule_id]['Properties']['Name'])}")


def test_a_schedule_that_stops_succeeding_raises_the_stale_index_alarm(http: Synthesized) -> None:
    alarms = _alarms(http)
    assert "CatalogIndexBehind" not in alarms  # no stream to fall behind
    stale = alarms["CatalogIndexStale"]
    every = http.config.catalog_index.rebuild_every_minutes
    assert stale["MetricName"] == "IndexBuilds"
    assert stale["Namespace"] == http.config.metric_namespace
    assert stale["Period"] == 3 * every * 60
    assert (stale["Threshold"], stale["ComparisonOperator"]) == (1, "LessThanThreshold")
    assert stale["TreatMissingData"] == "breaching"  # no run at all is the failure


def test_the_http_stack_passes_cdk_nag_and_cfn_lint(http: Synthesized) -> None:
    report = http.read("validation-report.json")
    (plugin,) = [p for p in report["pluginReports"] if p["pluginName"] == NAG_PLUGIN]
    assert plugin["conclusion"] == "success" and plugin["violations"] == []
    result = subprocess.run(
        [str(CFN_LINT), str(http.template_path)],
        cwd=names.ROOT,
        capture_output=True,
        text=True,
        check=False,
        timeout=300,
    )
    assert result.returncode == 0, result.stdout + result.stderr
