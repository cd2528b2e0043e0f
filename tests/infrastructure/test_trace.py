"""The live trace deployed: the steps table, GET /query/{turnId}/steps, its throttle and alarms.

The route's mapping templates run here (tests/infrastructure/vtl.py) against what
DynamoDB (moto) answers to the very request they render, and must give the body the
dev server gives from the same table: one read, two places it runs.
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from typing import Any

import boto3
import pytest

from infra import trace
from shared.api.vocabulary import INVALID_REQUEST
from shared.trace import steps
from storechat.local import aws
from tests.infrastructure.conftest import Synthesized, render
from tests.infrastructure.vtl import Request
from tests.infrastructure.vtl import render as run_vtl

JSON = "application/json"
TURN = "0123456789abcdef0123456789abcdef"


def _get(synth: Synthesized) -> dict[str, Any]:
    (method,) = [
        render(r["Properties"])
        for r in synth.of_type("AWS::ApiGateway::Method").values()
        if r["Properties"]["HttpMethod"] == "GET"
    ]
    return method  # type: ignore[no-any-return]


def _table(synth: Synthesized) -> tuple[str, dict[str, Any]]:
    (found,) = [
        (k, r["Properties"])
        for k, r in synth.of_type("AWS::DynamoDB::Table").items()
        if r["Properties"]["KeySchema"][0]["AttributeName"] == steps.PARTITION_KEY
    ]
    return found


@pytest.fixture
def dynamodb() -> Iterator[Any]:
    with aws.mocked_aws():
        client = boto3.client("dynamodb", region_name=aws.REGION)
        aws.create_tables(client)
        yield client


def _put(client: Any, turn: str, key: str, line: str, *, expires_in_s: int = 300) -> None:
    where = steps.Turn(turnId=turn, expiresAt=int(time.time()) + expires_in_s)
    shown = steps.step(key, "tool", line, "done", "12 found")
    client.put_item(TableName=aws.STEPS_TABLE, Item=steps.item(where, shown))


def _read(synth: Synthesized, client: Any, turn: str, origin: str | None = None) -> Any:
    """GET /query/{turn}/steps as API Gateway runs it: request template, Query, response."""
    integration = _get(synth)["Integration"]
    table_ref = f"<{_table(synth)[0]}>"
    now_ms = int(time.time() * 1000)
    request = Request(body={}, params={"turnId": turn}, context={"requestTimeEpoch": now_ms})
    rendered = run_vtl(integration["RequestTemplates"][JSON], request)
    query = json.loads(rendered.body.replace(table_ref, aws.STEPS_TABLE))
    answer = client.query(**query)
    (ok,) = [r for r in integration["IntegrationResponses"] if "SelectionPattern" not in r]
    headers = {"Origin": origin} if origin else {}
    out = run_vtl(
        ok["ResponseTemplates"][JSON],
        Request(body=answer, headers=headers, params={"turnId": turn}),
    )
    status = out.status_override or int(ok["StatusCode"])
    return status, json.loads(out.body), out.header_overrides, query


def test_the_steps_table_expires_its_items_and_matches_the_local_one(dev: Synthesized) -> None:
    _, props = _table(dev)
    assert props["TimeToLiveSpecification"] == {
        "AttributeName": steps.TTL_ATTRIBUTE,
        "Enabled": True,
    }
    assert props["BillingMode"] == "PAY_PER_REQUEST"
    keys = {(k["AttributeName"], k["KeyType"]) for k in props["KeySchema"]}
    assert keys == {(steps.PARTITION_KEY, "HASH"), (steps.SORT_KEY, "RANGE")}


def test_the_route_reads_what_the_dev_server_reads(dev: Synthesized, dynamodb: Any) -> None:
    # Given two steps of a turn, one expired (TTL deletes lazily), and another turn's step
    _put(dynamodb, TURN, steps.tool_key(1, 1), "Reading reviews of the Dell XPS 13")
    _put(dynamodb, TURN, steps.tool_key(1, 0), 'Searching the catalog for "gaming" laptops')
    _put(dynamodb, TURN, steps.said_key(1), "an old one", expires_in_s=-5)
    _put(dynamodb, "f" * 32, steps.tool_key(1, 0), "someone else's search")

    # When the page reads the turn through the deployed route
    status, body, _, query = _read(dev, dynamodb, TURN)

    # Then it gets exactly the dev server's body: the live steps, in the turn's order
    assert status == 200
    assert query == steps.steps_query(aws.STEPS_TABLE, TURN, query_now(query))
    local = json.loads(steps.read_steps(dynamodb, aws.STEPS_TABLE, TURN) or "")
    assert body == local
    assert [s["line"] for s in body["steps"]] == [
        'Searching the catalog for "gaming" laptops',
        "Reading reviews of the Dell XPS 13",
    ]


def query_now(query: dict[str, Any]) -> int:
    return int(query["ExpressionAttributeValues"][":now"]["N"])


@pytest.mark.parametrize("turn", ["f" * 32, "0" * 32])
def test_a_wrong_or_expired_id_reads_an_empty_list(
    dev: Synthesized, dynamodb: Any, turn: str
) -> None:
    _put(dynamodb, TURN, steps.tool_key(1, 0), "a search")
    _put(dynamodb, "0" * 32, steps.tool_key(1, 0), "an expired search", expires_in_s=-1)
    status, body, _, _ = _read(dev, dynamodb, turn)
    assert (status, body) == (200, {"steps": []})


@pytest.mark.parametrize(
    "turn", ["", "ABCDEF0123456789ABCDEF0123456789", TURN + "0", '"}, "x": {"S": "', "-"]
)
def test_a_malformed_id_reads_nothing_and_is_told_so(
    dev: Synthesized, dynamodb: Any, turn: str
) -> None:
    _put(dynamodb, TURN, steps.tool_key(1, 0), "a search")
    status, body, _, query = _read(dev, dynamodb, turn)
    assert status == 400
    assert body == INVALID_REQUEST.body(steps.MALFORMED_TURN_ID)
    # whatever it held, the query asked for the key no step has
    assert query["ExpressionAttributeValues"][":turn"] == {"S": steps.NO_TURN}


def test_the_route_answers_any_allowed_origin(dev: Synthesized, dynamodb: Any) -> None:
    integration = _get(dev)["Integration"]
    (ok,) = [r for r in integration["IntegrationResponses"] if "SelectionPattern" not in r]
    assert ok["ResponseParameters"]["method.response.header.Cache-Control"] == "'no-store'"
    for origin in dev.config.store.settings.allowedOrigins:
        _, _, headers, _ = _read(dev, dynamodb, TURN, origin=origin)
        assert headers == {"Access-Control-Allow-Origin": origin}
    _, _, headers, _ = _read(dev, dynamodb, TURN, origin="https://elsewhere.example")
    assert headers == {}


def test_the_route_has_a_throttle_for_the_polls_of_the_questions_the_stage_admits(
    each_env: Synthesized,
) -> None:
    _, stage = each_env.one("AWS::ApiGateway::Stage")
    settings = {s["ResourcePath"]: s for s in stage["Properties"]["MethodSettings"]}
    route = settings["/" + trace.RESOURCE_PATH.replace("/", "~1")]
    throttling = each_env.config.throttling
    assert route["HttpMethod"] == "GET"
    assert route["ThrottlingRateLimit"] == throttling.rate_limit * trace.POLLS_PER_QUESTION_AT_MOST
    assert route["MetricsEnabled"] is True


def test_alarms_watch_what_would_fail_silently(each_env: Synthesized) -> None:
    alarms = {
        r["Properties"].get("MetricName"): r["Properties"]
        for r in each_env.of_type("AWS::CloudWatch::Alarm").values()
    }
    assert "StepWriteErrors" in alarms
    reads = alarms["5XXError"]
    dimensions = {d["Name"]: d["Value"] for d in reads["Dimensions"]}
    assert dimensions["Resource"] == trace.RESOURCE_PATH
    assert dimensions["Method"] == "GET"
