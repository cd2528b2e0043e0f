"""The deployed feedback function as API Gateway's proxy integration calls it, on moto: the
same answers as the dev server, the CORS header of an allowed page, and fail-closed
settings."""

from __future__ import annotations

import base64
import json
from collections.abc import Iterator
from typing import Any

import boto3
import pytest
from moto import mock_aws
from pydantic import ValidationError

from record_feedback import handler
from record_feedback.settings import get_settings
from shared.config.environment import overriding
from shared.runtime.observability import metrics

SESSION = "0b9e6c1e-2f0a-4c39-8f1e-2d5c8b1e9a77"
TURN = "a" * 32
ORIGINS = ["https://shop.example.com", "https://d111.cloudfront.net"]


class Context:
    function_name = "record_feedback"
    memory_limit_in_mb = 256
    invoked_function_arn = "arn:aws:lambda:us-east-1:123456789012:function:record_feedback"
    aws_request_id = "req-1"


@pytest.fixture
def table(monkeypatch: pytest.MonkeyPatch) -> Iterator[Any]:
    # Lambda gives the function its namespace (infra.runtime); the test gives it here
    monkeypatch.setattr(metrics, "namespace", "Storechat")
    env = {
        "SESSIONS_TABLE_NAME": "sessions",
        "ALLOWED_ORIGINS": json.dumps(ORIGINS),
        "AWS_REGION": "us-east-1",
    }
    with mock_aws(), overriding(env):
        get_settings.cache_clear()
        handler.forget_warm_state()
        dynamodb = boto3.client("dynamodb", region_name="us-east-1")
        dynamodb.create_table(
            TableName="sessions",
            KeySchema=[
                {"AttributeName": "sessionId", "KeyType": "HASH"},
                {"AttributeName": "turnKey", "KeyType": "RANGE"},
            ],
            AttributeDefinitions=[
                {"AttributeName": "sessionId", "AttributeType": "S"},
                {"AttributeName": "turnKey", "AttributeType": "S"},
            ],
            BillingMode="PAY_PER_REQUEST",
        )
        dynamodb.put_item(
            TableName="sessions",
            Item={
                "sessionId": {"S": SESSION},
                "turnKey": {"S": "2026-12-01T10:00:00+00:00#req-0"},
                "expiresAt": {"N": "9999999999"},
                "turn": {"S": json.dumps({"user": "a phone", "outcome": "answered"})},
                "turnId": {"S": TURN},
            },
        )
        yield dynamodb
        get_settings.cache_clear()
        handler.forget_warm_state()


def call(body: Any, *, origin: str | None = None, encoded: bool = False) -> dict[str, Any]:
    raw = body if isinstance(body, str) else json.dumps(body)
    event = {
        "pathParameters": {"turnId": TURN},
        "headers": {"origin": origin} if origin else {},
        "body": base64.b64encode(raw.encode()).decode() if encoded else raw,
        "isBase64Encoded": encoded,
    }
    return handler.lambda_handler(event, Context())


def test_a_rating_from_an_allowed_page_is_recorded_and_answered_for_it(table: Any) -> None:
    response = call(
        {"sessionId": SESSION, "rating": "down", "comment": "too dear"},
        origin=ORIGINS[1],
        encoded=True,
    )
    assert response["statusCode"] == 200
    assert response["headers"]["Access-Control-Allow-Origin"] == ORIGINS[1]
    assert json.loads(response["body"]) == {"turnId": TURN, "recorded": "rating"}
    item = table.scan(TableName="sessions")["Items"][0]
    assert json.loads(item["feedback"]["S"])["comment"] == "too dear"


def test_a_page_elsewhere_is_not_named_in_the_answer(table: Any) -> None:
    response = call({"sessionId": SESSION, "rating": "up"}, origin="https://evil.example")
    assert response["headers"]["Access-Control-Allow-Origin"] == ORIGINS[0]


def test_bad_json_is_a_400_with_a_json_error(table: Any) -> None:
    response = call("{oops")
    assert response["statusCode"] == 400
    assert json.loads(response["body"]) == {
        "error": "invalid_request",
        "message": "request body is not valid JSON",
    }


def test_another_session_gets_404(table: Any) -> None:
    other = "11111111-2222-4333-8444-555555555555"
    response = call({"sessionId": other, "rating": "down"})
    assert response["statusCode"] == 404
    assert json.loads(response["body"])["error"] == "not_found"


def test_without_its_table_the_function_fails_closed() -> None:
    with overriding({"ALLOWED_ORIGINS": json.dumps(ORIGINS)}):
        get_settings.cache_clear()
        with pytest.raises(ValidationError):
            get_settings()
    get_settings.cache_clear()
