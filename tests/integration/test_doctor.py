"""``storechat doctor``: a healthy stack passes every check, and a stack broken in each way
fails the check that names it, with its fix.

The stack's tables, bucket, secret and alarm topic are moto's; the page and the API's CORS
preflight are a real HTTP server on loopback. Where moto has no working API here
(Bedrock's Converse; WAF and CloudFormation, which need moto's API Gateway), the client is
botocore's, stubbed with the responses the real service gives.
"""

from __future__ import annotations

import io
import json
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import boto3
import pytest
from botocore.stub import Stubber
from moto import mock_aws

from infra import names
from shared.config.pricing import token_prices
from shared.search import SnapshotPointer
from storechat import cli
from storechat.doctor import checks, deployed
from storechat.doctor.command import allowed_origins, print_findings, run_checks
from storechat.doctor.deployed import NO_WEB_ACL, POINTER_KEY, DeployedStack, Output
from tests.support.fake_http import FakeHttpServer

REGION = "us-east-1"
STACK = "Storechat-prod"
TODAY = "2026-12-01"
MODEL = "us.anthropic.claude-sonnet-4-5-20250929-v1:0"
API_URL = f"https://abc123.execute-api.{REGION}.amazonaws.com/prod"
ACL_ARN = f"arn:aws:wafv2:{REGION}:123456789012:regional/webacl/Storechat-prod-api/0f1e2d3c"
SHOP = "https://acme-gadgets.example"
ACME = {"name": "Acme Gadgets", "url": SHOP, "assistantName": "Acme helper"}
USAGE = {"inputTokens": 21, "outputTokens": 3, "totalTokens": 24}


def _stubbed(service: str) -> tuple[Any, Stubber]:
    client = boto3.client(
        service, region_name=REGION, aws_access_key_id="x", aws_secret_access_key="y"
    )
    return client, Stubber(client)


@dataclass
class World:
    """A deployed stack: moto's services, the stubbed ones, the page on loopback."""

    server: FakeHttpServer
    outputs: dict[str, str]
    stubbed: dict[str, tuple[Any, Stubber]] = field(default_factory=dict)

    def client(self, service: str, region: str | None = None) -> Any:
        if service in self.stubbed:
            return self.stubbed[service][0]
        return boto3.client(service, region_name=region or REGION)

    def stub(self, service: str) -> Stubber:
        if service not in self.stubbed:
            self.stubbed[service] = _stubbed(service)
            self.stubbed[service][1].activate()
        return self.stubbed[service][1]

    @property
    def stack(self) -> DeployedStack:
        return DeployedStack(STACK, REGION, self.outputs, self.client)

    def check(self, **options: Any) -> dict[str, checks.Finding]:
        return {f.check: f for f in run_checks(self.stack, today=TODAY, **options)}


def model_answers(world: World) -> None:
    world.stub("bedrock-runtime").add_response(
        "converse",
        {
            "output": {"message": {"role": "assistant", "content": [{"text": "ready"}]}},
            "stopReason": "end_turn",
            "usage": USAGE,
            "metrics": {"latencyMs": 310},
        },
        {
            "modelId": MODEL,
            "messages": [{"role": "user", "content": [{"text": checks.PROMPT}]}],
            "inferenceConfig": {"maxTokens": checks.MAX_TOKENS},
        },
    )


def waf_answers(world: World, acl_arn: str | None) -> None:
    found = {}
    if acl_arn:
        found = {
            "WebACL": {
                "Name": "Storechat-prod-api",
                "Id": "0f1e2d3c",
                "ARN": acl_arn,
                "DefaultAction": {"Allow": {}},
                "VisibilityConfig": {
                    "SampledRequestsEnabled": True,
                    "CloudWatchMetricsEnabled": True,
                    "MetricName": "Storechat-prod-api",
                },
            }
        }
    world.stub("wafv2").add_response(
        "get_web_acl_for_resource",
        found,
        {"ResourceArn": f"arn:aws:apigateway:{REGION}::/restapis/abc123/stages/prod"},
    )


@pytest.fixture
def world() -> Iterator[World]:
    """A healthy prod stack, as the deploy leaves it once the key is set and the alarm
    e-mail confirmed."""
    with mock_aws(), FakeHttpServer() as server:
        dynamodb = boto3.client("dynamodb", region_name=REGION)
        dynamodb.create_table(
            TableName="spend",
            BillingMode="PAY_PER_REQUEST",
            AttributeDefinitions=[{"AttributeName": "day", "AttributeType": "S"}],
            KeySchema=[{"AttributeName": "day", "KeyType": "HASH"}],
        )
        secret = boto3.client("secretsmanager", region_name=REGION).create_secret(
            Name="brave", SecretString="BSA-a-real-looking-key"
        )["ARN"]
        s3 = boto3.client("s3", region_name=REGION)
        s3.create_bucket(Bucket="index")
        pointer = SnapshotPointer("v1", "catalog-index/v1.sqlite.gz", "0" * 64, 4096, 150, TODAY)
        s3.put_object(Bucket="index", Key=pointer.key, Body=b"snapshot")
        s3.put_object(Bucket="index", Key=POINTER_KEY, Body=pointer.to_json().encode())
        sns = boto3.client("sns", region_name=REGION)
        topic = sns.create_topic(Name="alarms")["TopicArn"]
        sns.subscribe(TopicArn=topic, Protocol="email", Endpoint="ops@example.com")
        server.route("/config.json", body={"apiUrl": API_URL, "currency": "USD", "store": ACME})
        server.route("/prod/query", status=204, headers={"Access-Control-Allow-Origin": SHOP})
        outputs = {
            Output.API_URL: API_URL,
            Output.QUERY_URL: f"{server.base_url}/prod/query",
            Output.WEB_URL: server.base_url,
            Output.SPEND_TABLE_NAME: "spend",
            Output.BRAVE_SECRET_ARN: secret,
            Output.CATALOG_INDEX_BUCKET: "index",
            Output.ALARM_TOPIC_ARN: topic,
            Output.MODEL_ID: MODEL,
            Output.MODEL_REGION: REGION,
            Output.WEB_ACL_ARN: ACL_ARN,
        }
        yield World(server, outputs)


def test_a_healthy_stack_passes_every_check_and_the_model_call_is_counted(world: World) -> None:
    # Given a healthy stack whose model answers and whose web ACL is attached
    model_answers(world)
    waf_answers(world, ACL_ARN)

    # When doctor runs, with the store's origin set
    found = world.check(origins=[SHOP])

    # Then every check passes and says what it saw
    assert {name: f.status for name, f in found.items()} == dict.fromkeys(found, "ok")
    assert "answered 'ready'" in found[checks.MODEL].said
    assert found[checks.SNAPSHOT].said == f"150 products, built {TODAY}"
    assert found[checks.ALARMS].said == "confirmed: email ops@example.com"
    assert "BSA-" not in found[checks.REVIEWS].said  # the key is never printed
    # And the model call is in today's spend, at the price of what was called
    item = boto3.client("dynamodb", region_name=REGION).get_item(
        TableName="spend", Key={"day": {"S": TODAY}}
    )["Item"]
    spent = round(token_prices(MODEL).cost_usd(USAGE) * 1_000_000)
    assert int(item["spentMicroUsd"]["N"]) == spent > 0
    assert f"${spent / 1_000_000:.6f} added to {TODAY}'s spend" in found[checks.MODEL].said
    # And the report says so
    out = io.StringIO()
    print_findings(list(found.values()), out)
    assert out.getvalue().endswith("All 9 checks passed.\n")


Breakage = Callable[[World], None]


def _no_model_access(world: World) -> None:
    world.stub("bedrock-runtime").add_client_error(
        "converse",
        "AccessDeniedException",
        "Model access is denied due to IAM user or service role is not authorized to "
        "perform the required AWS Marketplace actions (aws-marketplace:ViewSubscriptions, "
        "aws-marketplace:Subscribe) to enable access to this model.",
        http_status_code=403,
    )


def _wrong_model(world: World) -> None:
    world.stub("bedrock-runtime").add_client_error(
        "converse",
        "ValidationException",
        "The provided model identifier is invalid.",
        http_status_code=400,
    )


def _blank_key(world: World) -> None:
    boto3.client("secretsmanager", region_name=REGION).put_secret_value(
        SecretId=world.outputs[Output.BRAVE_SECRET_ARN], SecretString=" "
    )


def _no_snapshot(world: World) -> None:
    boto3.client("s3", region_name=REGION).delete_object(Bucket="index", Key=POINTER_KEY)


def _nobody_subscribed(world: World) -> None:
    sns = boto3.client("sns", region_name=REGION)
    topic = world.outputs[Output.ALARM_TOPIC_ARN]
    for s in sns.list_subscriptions_by_topic(TopicArn=topic)["Subscriptions"]:
        sns.unsubscribe(SubscriptionArn=s["SubscriptionArn"])


def _not_confirmed(world: World) -> None:
    # moto confirms every subscription at once; SNS answers this until the link is followed
    world.stub("sns").add_response(
        "list_subscriptions_by_topic",
        {
            "Subscriptions": [
                {
                    "SubscriptionArn": "PendingConfirmation",
                    "Owner": "123456789012",
                    "Protocol": "email",
                    "Endpoint": "ops@example.com",
                    "TopicArn": world.outputs[Output.ALARM_TOPIC_ARN],
                }
            ]
        },
        {"TopicArn": world.outputs[Output.ALARM_TOPIC_ARN]},
    )


def _spend_table_gone(world: World) -> None:
    boto3.client("dynamodb", region_name=REGION).delete_table(TableName="spend")


def _page_calls_another_api(world: World) -> None:
    world.server.route(
        "/config.json", body={"apiUrl": "https://old.example.com/prod", "store": ACME}
    )


def _page_missing(world: World) -> None:
    world.server.route("/config.json", status=403, body=b"<Error>AccessDenied</Error>")


@pytest.mark.parametrize(
    ("breakage", "check", "said", "fix"),
    [
        (_no_model_access, checks.MODEL, "AccessDeniedException", "aws-marketplace:Subscribe"),
        (_wrong_model, checks.MODEL, "ValidationException", "model_id and bedrock_region"),
        (_blank_key, checks.REVIEWS, "the secret is blank", "put-secret-value"),
        (_no_snapshot, checks.SNAPSHOT, "being indexed", "rebuild by hand"),
        (_nobody_subscribed, checks.ALARMS, "nobody is subscribed", "alarms.emails"),
        (_not_confirmed, checks.ALARMS, "not confirmed yet: ops@example.com", "link"),
        (_spend_table_gone, checks.SPEND, "ResourceNotFoundException", "deploy again"),
        (_page_calls_another_api, checks.PAGE, "https://old.example.com/prod", "deploy again"),
        (_page_missing, checks.PAGE, "answered 403", "verify the account"),
    ],
)
def test_a_stack_broken_in_one_way_fails_that_check_with_its_fix(
    world: World, breakage: Breakage, check: str, said: str, fix: str
) -> None:
    # Given a stack broken in one way (the model answering unless that is the breakage)
    breakage(world)
    if "bedrock-runtime" not in world.stubbed:
        model_answers(world)
    waf_answers(world, ACL_ARN)

    # When doctor runs
    found = world.check(origins=[SHOP])

    # Then that check fails, saying what is wrong and how to fix it, and the others pass
    assert found[check].status == "fail"
    assert said in found[check].said and fix in found[check].fix
    others = {f.check for f in found.values() if f.status == "fail"} - {check}
    # (a page config that cannot be read cannot tell which store the page names either)
    assert others == ({checks.STORE} if breakage is _page_missing else set())


def test_a_web_acl_left_unattached_fails_and_says_how_to_attach_it(world: World) -> None:
    model_answers(world)
    waf_answers(world, None)
    found = world.check(origins=[SHOP])[checks.WAF]
    assert (found.status, found.said) == ("fail", "the API's stage has no web ACL")
    assert f"associate-web-acl --web-acl-arn {ACL_ARN}" in found.fix


def test_what_is_knowingly_off_is_said_and_not_a_failure(world: World) -> None:
    # Given dev: no WAF by configuration, reviews knowingly off, no storefront origins yet
    model_answers(world)
    _blank_key(world)
    world.outputs[Output.WEB_ACL_ARN] = NO_WEB_ACL
    found = world.check(reviews_off=True, origins=None)
    assert found[checks.WAF].status == found[checks.REVIEWS].status == "off"
    assert found[checks.ORIGINS].status == "off"
    assert "not configured" in found[checks.ORIGINS].said
    assert not [f for f in found.values() if f.status == "fail"]


def test_a_storefront_origin_the_api_refuses_fails(world: World) -> None:
    model_answers(world)
    waf_answers(world, ACL_ARN)
    found = world.check(origins=[SHOP, "https://blog.example.com"])[checks.ORIGINS]
    assert (found.status, found.said) == ("fail", "the API refuses https://blog.example.com")
    (preflight,) = [r for r in world.server.requests if r.method == "OPTIONS"][1:]
    assert preflight.header("Origin") == "https://blog.example.com"
    assert preflight.header("Access-Control-Request-Method") == "POST"


def test_an_empty_list_of_storefront_origins_fails(world: World) -> None:
    model_answers(world)
    waf_answers(world, ACL_ARN)
    found = world.check(origins=[])[checks.ORIGINS]
    assert found.status == "fail" and "store.allowedOrigins" in found.fix


@pytest.mark.parametrize(
    ("store", "said"),
    [
        (
            {"name": "The Better Store", "url": "https://shop.example.com"},
            "the sample store's name 'The Better Store' and url 'https://shop.example.com'",
        ),
        ({"name": "Acme Gadgets", "url": "https://shop.example.com/"}, "url"),
        ({"name": "the better store", "url": SHOP}, "name 'the better store'"),
    ],
)
def test_a_stack_deployed_as_the_sample_store_fails_with_what_to_write(
    world: World, store: dict[str, str], said: str
) -> None:
    # Given a stack deployed with cdk.json's store block as it ships (or half changed)
    world.server.route("/config.json", body={"apiUrl": API_URL, "store": store})
    model_answers(world)
    waf_answers(world, ACL_ARN)
    # When doctor runs
    found = world.check(origins=[SHOP])
    # Then the check fails: shoppers would be greeted as the sample store and answered
    # with its policies; the fix says where to describe the store
    assert found[checks.STORE].status == "fail"
    assert said in found[checks.STORE].said and "its policies" in found[checks.STORE].said
    assert "cdk.json's store block" in found[checks.STORE].fix
    assert [f.check for f in found.values() if f.status == "fail"] == [checks.STORE]


def test_a_store_described_as_itself_is_named(world: World) -> None:
    model_answers(world)
    waf_answers(world, ACL_ARN)
    found = world.check(origins=[SHOP])[checks.STORE]
    assert (found.status, found.said) == ("ok", f"Acme Gadgets at {SHOP}")


def test_a_page_config_with_no_store_says_to_deploy_again(world: World) -> None:
    # Given a page config written before it carried the store (an older deploy)
    world.server.route("/config.json", body={"apiUrl": API_URL})
    model_answers(world)
    waf_answers(world, ACL_ARN)
    found = world.check(origins=[SHOP])[checks.STORE]
    assert found.status == "fail" and found.said.endswith("config.json names no store")
    assert found.fix.startswith("deploy again")


def test_a_stack_without_this_versions_outputs_says_to_deploy_it(world: World) -> None:
    del world.outputs[Output.MODEL_ID]
    waf_answers(world, ACL_ARN)
    found = world.check(origins=[SHOP])[checks.MODEL]
    assert found.status == "fail" and "has no ModelId output" in found.fix


def test_the_origins_are_read_from_the_stacks_environment_in_cdk_json(tmp_path: Path) -> None:
    cdk_json = tmp_path / "cdk.json"
    context = {
        "defaults": {"store": {"name": "The Better Store"}},
        "environments": {"prod": {"store": {"allowedOrigins": [SHOP]}}, "dev": {}},
    }
    cdk_json.write_text(json.dumps({"context": {"storechat": context}}), encoding="utf-8")
    assert allowed_origins(cdk_json, "Storechat-prod") == [SHOP]
    assert allowed_origins(cdk_json, "Storechat-dev") is None
    assert allowed_origins(tmp_path / "missing.json", "Storechat-prod") is None


def test_the_output_keys_are_the_stacks() -> None:
    for key in (value for name, value in vars(Output).items() if not name.startswith("_")):
        assert key in {str(o) for o in names.Outputs}
    assert names.NO_WEB_ACL == NO_WEB_ACL
    assert names.CATALOG_INDEX_POINTER_KEY == POINTER_KEY


def _describe(world: World, stack: str, outputs: dict[str, str] | None) -> None:
    stubber = world.stub("cloudformation")
    if outputs is None:
        stubber.add_client_error(
            "describe_stacks",
            "ValidationError",
            f"Stack with id {stack} does not exist",
            http_status_code=400,
        )
        return
    described = {
        "StackName": stack,
        "CreationTime": "2026-12-01T00:00:00Z",
        "StackStatus": "UPDATE_COMPLETE",
        "Outputs": [{"OutputKey": k, "OutputValue": v} for k, v in outputs.items()],
    }
    stubber.add_response("describe_stacks", {"Stacks": [described]}, {"StackName": stack})


def _run_cli(
    world: World, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], *args: str
) -> tuple[int, str, str]:
    monkeypatch.setattr(deployed, "session_client", lambda session: world.client)
    code = cli.main(["doctor", "--region", REGION, *args])
    out, err = capsys.readouterr()
    return code, out, err


def test_the_command_prints_each_check_and_exits_1_when_one_fails(
    world: World, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # Given the deployed stack, with the Brave key not set yet
    _describe(world, STACK, world.outputs)
    model_answers(world)
    waf_answers(world, ACL_ARN)
    _blank_key(world)

    # When the operator runs doctor after the deploy
    code, out, _ = _run_cli(world, monkeypatch, capsys, "--stack", STACK, "--cdk-json", "-")

    # Then each check has its line, the failed one its fix, and the exit code says it
    assert code == 1
    lines = out.splitlines()
    assert lines[0] == f"storechat doctor: {STACK} in {REGION}"
    assert f"  ok    {checks.MODEL}: {MODEL} in {REGION} answered 'ready'" in out
    assert f"  FAIL  {checks.REVIEWS}: the secret is blank" in out
    assert "        fix: aws secretsmanager put-secret-value" in out
    assert f"  off   {checks.ORIGINS}: not configured" in out
    assert lines[-1] == "1 of 9 checks failed."


def test_the_command_exits_0_when_nothing_failed(
    world: World, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    _describe(world, STACK, world.outputs)
    model_answers(world)
    waf_answers(world, ACL_ARN)
    code, out, _ = _run_cli(world, monkeypatch, capsys, "--stack", STACK, "--cdk-json", "-")
    assert code == 0 and out.splitlines()[-1] == "All 9 checks passed."


def test_a_stack_that_is_not_there_is_named_with_what_to_do(
    world: World, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    _describe(world, "Storechat-stage", None)
    code, out, err = _run_cli(world, monkeypatch, capsys, "--stack", "Storechat-stage")
    assert code == 1 and out == ""
    assert err.startswith(f"error: stack 'Storechat-stage' not found in {REGION}: deploy it")
