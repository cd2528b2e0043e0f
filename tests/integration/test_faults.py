"""Faults, one test each: what the shopper gets when a dependency fails."""

from __future__ import annotations

import time
from typing import Any

import boto3
import pytest
from botocore.stub import Stubber

from converse.handler import use_provider
from converse.providers import BedrockProvider, default_client_factory
from storechat.local import LocalStorechat
from storechat.local.runner import CATALOG_TABLE, REGION, SESSIONS_TABLE
from tests.integration.conftest import converse_inputs
from tests.support.fake_http import FakeHttpServer

QUESTION = "What Windows PC do you have which is best for a high school student?"
BEDROCK_ANSWER = {
    "output": {"message": {"role": "assistant", "content": [{"text": "Hello! How can I help?"}]}},
    "stopReason": "end_turn",
    "usage": {"inputTokens": 10, "outputTokens": 5, "totalTokens": 15},
    "metrics": {"latencyMs": 100},
}


def stubbed_bedrock(*errors: str, then_answer: bool = False) -> Stubber:
    client = boto3.client(
        "bedrock-runtime", region_name="us-east-1", aws_access_key_id="x", aws_secret_access_key="y"
    )
    stub = Stubber(client)
    for code in errors:
        stub.add_client_error("converse", service_error_code=code, http_status_code=429)
    if then_answer:
        stub.add_response("converse", BEDROCK_ANSWER)
    stub.activate()
    use_provider(BedrockProvider(None, client=client))
    return stub


def test_bedrock_throttling_is_retried_with_backoff_then_falls_back() -> None:
    with LocalStorechat(model="bedrock:anthropic.claude-sonnet-4-5") as local:
        stub = stubbed_bedrock("ThrottlingException", "ThrottlingException", "ThrottlingException")
        result = local.ask("hello")
    # Then three attempts were made (one try, two retries) and the shopper got a fallback
    stub.assert_no_pending_responses()
    assert result.body is not None
    assert result.body["outcome"] == "fallback" and result.body["fallbackReason"] == "model_error"
    assert "not available right now" in result.body["answer"]
    scheduled = [e for e in result.events if e["type"] == "TaskScheduled"]
    assert sum("converse" in e["taskScheduledEventDetails"]["parameters"] for e in scheduled) == 3


def test_a_passing_throttle_is_absorbed_by_the_retry() -> None:
    with LocalStorechat(model="bedrock") as local:
        stub = stubbed_bedrock("ThrottlingException", then_answer=True)
        result = local.ask("hello")
    stub.assert_no_pending_responses()
    assert result.body is not None and result.body["outcome"] == "answered"
    assert result.body["answer"] == "Hello! How can I help?"


def test_bedrock_down_falls_back_with_a_real_answer() -> None:
    with LocalStorechat(model="bedrock") as local:
        stubbed_bedrock(*["ServiceUnavailableException"] * 3)
        result = local.ask("hello")
    assert result.status == "SUCCEEDED" and result.body is not None
    assert result.body["fallbackReason"] == "model_error"


def test_a_rejected_request_is_not_retried() -> None:
    with LocalStorechat(model="bedrock") as local:
        stub = stubbed_bedrock("AccessDeniedException")
        result = local.ask("hello")
    stub.assert_no_pending_responses()
    assert result.body is not None and result.body["fallbackReason"] == "model_error"


def test_catalog_table_unavailable_gives_an_error_result_and_the_loop_goes_on() -> None:
    with LocalStorechat() as local:
        boto3.client("dynamodb", region_name=REGION).delete_table(TableName=CATALOG_TABLE)
        result = local.ask(QUESTION)
    body = result.body
    assert result.status == "SUCCEEDED" and body is not None
    assert body["trace"][0]["status"] == "error"
    assert body["outcome"] == "answered" and body["products"] == []
    assert "catalog" in body["answer"].lower()


def test_sessions_table_unavailable_still_answers_without_history() -> None:
    with LocalStorechat() as local:
        boto3.client("dynamodb", region_name=REGION).delete_table(TableName=SESSIONS_TABLE)
        result = local.ask(QUESTION)
    body = result.body
    assert result.status == "SUCCEEDED" and body is not None
    assert body["outcome"] == "answered" and body["products"]
    assert body["historySaved"] is False


@pytest.mark.parametrize(
    ("status", "body", "delay", "kind"),
    [
        (429, {"error": "slow down"}, 0.0, "rate_limited"),
        (500, "internal error", 0.0, "unavailable"),
        (200, "<html>not json</html>", 0.0, "malformed"),
        (200, {"web": {"results": []}}, 6.0, "timeout"),
    ],
)
def test_review_service_failures_are_explained_not_fatal(
    status: int, body: Any, delay: float, kind: str
) -> None:
    with FakeHttpServer() as brave:
        brave.route("/res/v1/web/search", status=status, body=body, delay_s=delay)
        env = {"BRAVE_API_KEY": "test-key", "BRAVE_BASE_URL": brave.base_url}
        # (the offline model going first: it asks for the reviews itself)
        with LocalStorechat(env=env, search_first=False) as local:
            result = local.ask("What do reviews say about the Dell XPS 13?")
    answer = result.body
    assert result.status == "SUCCEEDED" and answer is not None
    reviews = [t for t in answer["trace"] if t["tool"] == "get_computer_reviews"]
    assert reviews and reviews[0]["status"] == "error"
    sent = converse_inputs(result)[1]["messages"][-1]["content"]
    kinds = [b["toolResult"]["content"][0]["json"].get("kind") for b in sent]
    assert kind in kinds
    assert "review service" in answer["answer"]


def test_deadline_fallback_keeps_what_was_found() -> None:
    # Given a budget with room for one model call before the tools (until 4.5 s after the
    # question) but not after them, and a catalog tool that answers only once that moment
    # has passed. (Anchored to the question, not a fixed sleep: a loaded machine that is
    # slow to reach the tool leaves it less to wait, within its own 5 s timeout.)
    asked: list[float] = []

    def slow_lookup(event: dict[str, Any], context: Any) -> Any:
        from lookup_inventory.handler import lambda_handler

        found = lambda_handler(event, context)
        time.sleep(max(0.0, asked[0] + 4.8 - time.monotonic()))
        return found

    # (the model going first: its call, then the tool round, then no time for another)
    tuning = {"DeadlineMs": 9500, "ConverseReserveMs": 5000, "ToolRoundReserveMs": 1}
    with LocalStorechat(
        tuning=tuning, overrides={"lookup_inventory": slow_lookup}, search_first=False
    ) as local:
        asked.append(time.monotonic())
        result = local.ask(QUESTION)
    # Then the shopper gets a deadline fallback that still lists the products found
    body = result.body
    assert body is not None and body["fallbackReason"] == "deadline"
    assert body["toolRounds"] == 1 and body["modelCalls"] == 1
    assert body["products"] and all(p["category"] == "COMPUTERS" for p in body["products"])
    assert "ran out of time" in body["answer"]


def test_a_model_call_that_runs_into_the_deadline_falls_back_in_time() -> None:
    # Given a 5 s budget (room for the call to start on a loaded machine) and a "Bedrock"
    # endpoint (on 127.0.0.1) that takes 15 s to answer
    with FakeHttpServer() as slow_bedrock:
        slow_bedrock.route("/model/m/converse", body=BEDROCK_ANSWER, delay_s=15)
        tuning = {"DeadlineMs": 5000, "ConverseReserveMs": 1000}
        with LocalStorechat(model="bedrock:m", tuning=tuning) as local:
            factory = default_client_factory("us-east-1", endpoint_url=slow_bedrock.base_url)
            use_provider(BedrockProvider(None, client_factory=factory))
            result = local.ask("hello")
    # Then the Converse Lambda gave up at the deadline (its read timeout ends there, not at
    # the model's 15 s), and the shopper gets a deadline fallback
    body = result.body
    assert result.status == "SUCCEEDED" and body is not None
    assert body["fallbackReason"] == "deadline", body
    failures = [
        e["taskFailedEventDetails"]["error"] for e in result.events if e["type"] == "TaskFailed"
    ]
    assert failures == ["ModelDeadline"]


def test_a_failing_response_builder_still_answers_with_a_fallback() -> None:
    def crashes(event: dict[str, Any], context: Any) -> Any:
        raise RuntimeError("compose is down")

    with LocalStorechat(overrides={"compose_response": crashes}) as local:
        result = local.ask(QUESTION)
    body = result.body
    assert result.status == "SUCCEEDED" and body is not None
    assert body["outcome"] == "fallback" and body["fallbackReason"] == "compose_failed"
    assert body["products"] == [] and "try again" in body["answer"]
    assert body["historySaved"] is True


def test_an_input_too_long_for_the_model_drops_old_turns_and_retries() -> None:
    with LocalStorechat(model="bedrock") as local:
        stubbed_bedrock(then_answer=True)
        first = local.ask("hello")
        assert first.body is not None
        client = boto3.client(
            "bedrock-runtime",
            region_name="us-east-1",
            aws_access_key_id="x",
            aws_secret_access_key="y",
        )
        stub = Stubber(client)
        stub.add_client_error(
            "converse",
            service_error_code="ValidationException",
            service_message="Input is too long for requested model.",
            http_status_code=400,
        )
        stub.add_response("converse", BEDROCK_ANSWER)
        stub.activate()
        use_provider(BedrockProvider(None, client=client))
        result = local.ask("and again", first.body["sessionId"])
    stub.assert_no_pending_responses()
    assert result.body is not None and result.body["outcome"] == "answered"
    calls = converse_inputs(result)
    assert len(calls) == 2 and len(calls[1]["messages"]) < len(calls[0]["messages"])
