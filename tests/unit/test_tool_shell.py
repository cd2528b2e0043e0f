"""The one shell every tool runs in: a tool's package declares its input and its logic,
and the shell turns an event into the tool's output, whatever the model sent."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Annotated, Any

import pytest
from pydantic import BaseModel, ConfigDict, Field

from shared.contract import ToolCall, ToolOutput, ToolUse
from shared.errors import FailureKind
from shared.observability import metrics
from shared.tool_shell import answer, tool_handler


class HoursInput(BaseModel):
    model_config = ConfigDict(extra="forbid")

    day: Annotated[str, Field(min_length=3, max_length=9)]


def opening_hours(call: ToolCall, args: HoursInput) -> ToolOutput:
    if args.day == "Sunday":
        return call.failure("closed", "The shop is closed on Sundays.", "closed on Sunday")
    return call.success({"day": args.day, "opens": "09:00"}, f"hours for {args.day}")


@tool_handler(HoursInput)
def lambda_handler(tool_use: ToolUse, context: Any) -> ToolOutput:
    return answer(tool_use, HoursInput, opening_hours)


class Context:
    function_name = "store-hours"
    memory_limit_in_mb = 128
    invoked_function_arn = "arn:aws:lambda:eu-west-1:123456789012:function:store-hours"
    aws_request_id = "req-1"

    def get_remaining_time_in_millis(self) -> int:
        return 4000


@pytest.fixture(autouse=True)
def lambda_env(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    # What Lambda would give the function: Powertools configured, no X-Ray, no EMF output
    monkeypatch.setenv("POWERTOOLS_TRACE_DISABLED", "true")
    monkeypatch.setenv("POWERTOOLS_METRICS_NAMESPACE", "Storechat")
    monkeypatch.setenv("POWERTOOLS_METRICS_DISABLED", "true")
    yield
    # Disabled metrics are never flushed, so they would pile up across tests.
    metrics.clear_metrics()


def invoke(tool_input: dict[str, Any]) -> dict[str, Any]:
    event = {"toolUse": {"toolUseId": "tu-1", "name": "get_store_hours", "input": tool_input}}
    return lambda_handler(event, Context())


def test_a_valid_call_answers_with_the_logics_result_in_the_tool_output_shape() -> None:
    # When Step Functions invokes the tool with input its model accepts
    output = invoke({"day": "Saturday"})
    # Then the model reads the logic's result, and the trace says what it told the model
    assert set(output) == {"toolResult", "ledger", "trace"}
    assert output["toolResult"] == {
        "toolUseId": "tu-1",
        "content": [{"json": {"day": "Saturday", "opens": "09:00"}}],
        "status": "success",
    }
    assert output["ledger"] == {"products": []}
    assert output["trace"]["summary"] == "hours for Saturday"
    assert output["trace"]["status"] == "success" and output["trace"]["ms"] >= 0


def test_input_the_model_got_wrong_is_an_error_result_naming_each_problem() -> None:
    # When the model sends a day too short and a field the tool does not take
    output = invoke({"day": "Sa", "hour": 9})
    # Then the logic never runs, and the model is told what to fix, field by field
    result = output["toolResult"]
    assert result["status"] == "error"
    told = result["content"][0]["json"]
    assert told["kind"] == "invalid_input"
    assert told["error"].startswith("Invalid input for get_store_hours: ")
    assert "day: String should have at least 3 characters" in told["error"]
    assert "hour: Extra inputs are not permitted" in told["error"]
    assert output["trace"]["status"] == "error"
    assert output["trace"]["input"] == {"day": "Sa", "hour": 9}


def test_a_failure_the_logic_reports_reaches_the_model_as_its_error_result() -> None:
    output = invoke({"day": "Sunday"})
    assert output["toolResult"]["status"] == "error"
    assert output["toolResult"]["content"][0]["json"] == {
        "error": "The shop is closed on Sundays.",
        "kind": "closed",
    }
    assert output["trace"]["summary"] == "closed on Sunday"


def _emitted(out: str) -> list[dict[str, Any]]:
    """The metrics documents (CloudWatch's embedded metric format) a handler printed."""
    return [json.loads(line) for line in out.splitlines() if line.startswith('{"_aws"')]


@tool_handler(HoursInput)
def unconfigured_handler(tool_use: ToolUse, context: Any) -> ToolOutput:
    def not_set_up(call: ToolCall, args: HoursInput) -> ToolOutput:
        return call.failure(
            FailureKind.NOT_CONFIGURED, "Opening hours are not set up here.", "hours not set up"
        )

    return answer(tool_use, HoursInput, not_set_up)


def test_a_tool_the_store_has_not_set_up_is_counted_apart_from_failures(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # Given a tool whose service is not configured yet (a store without a Brave key),
    # with its metrics written as Lambda would write them
    monkeypatch.setenv("POWERTOOLS_METRICS_DISABLED", "false")
    monkeypatch.setattr(metrics, "namespace", "Storechat/test")
    event = {"toolUse": {"toolUseId": "tu-2", "name": "get_store_hours", "input": {"day": "Mon"}}}

    # When it answers, and then a tool that fails for real answers
    told = unconfigured_handler(event, Context())
    invoke({"day": "Sunday"})

    # Then the model is told, and only the real failure counts as a tool error
    assert told["toolResult"]["content"][0]["json"]["kind"] == "not_configured"
    emitted = _emitted(capsys.readouterr().out)
    counts = [(m["ToolNotConfigured"], m["ToolErrors"]) for m in emitted]
    assert counts == [([1.0], [0.0]), ([0.0], [1.0])]
