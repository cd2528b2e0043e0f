"""The one shell every tool runs in: a tool's package declares its input and its logic,
and the shell turns an event into the tool's output, whatever the model sent."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from typing import Annotated, Any

import pytest
from pydantic import BaseModel, ConfigDict, Field

from shared.api.contract import FirstAnswer, ToolCall, ToolOutput, ToolUse
from shared.runtime.errors import FailureKind
from shared.runtime.observability import metrics
from shared.tools.tool_shell import answer, tool_handler
from shared.trace import step_writer


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


def told_error(output: dict[str, Any]) -> dict[str, Any]:
    """What the model reads of an error result."""
    result = output["toolResult"]
    assert result["status"] == "error"
    told: dict[str, Any] = result["content"][0]["json"]
    return told


def test_input_the_model_got_wrong_is_an_error_result_naming_each_problem() -> None:
    # When the model sends a day too short and a field the tool does not take
    output = invoke({"day": "Sa", "hour": 9})
    # Then the logic never runs, and the model is told what to fix, field by field
    told = told_error(output)
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


# -- a call the state machine makes itself before the first model call (search first) -------


def _only_on_mondays(first: Any, call: Callable[[], ToolOutput]) -> tuple[Any, Any]:
    """A tool that decides from ``first`` whether its result serves, running its call only
    when the words leave it to the result."""
    if first["message"] == "hello":
        return FirstAnswer(searchFirst=False, reason="no_catalog_words", searched=False), None
    output = call()
    if output.tool_result["content"][0]["json"]["day"] != "Monday":
        return FirstAnswer(searchFirst=False, reason="nothing_found", searched=True), None
    return FirstAnswer(searchFirst=True, reason="searched", searched=True), output


@tool_handler(HoursInput, first=_only_on_mondays)
def first_handler(tool_use: ToolUse, context: Any) -> ToolOutput:
    return answer(tool_use, HoursInput, opening_hours)


@pytest.fixture
def steps_written(monkeypatch: pytest.MonkeyPatch) -> list[Any]:
    written: list[Any] = []
    monkeypatch.setattr(step_writer, "report", lambda turn, shown: written.append(shown))
    monkeypatch.setattr(step_writer, "settle", lambda context=None: 0)
    return written


def _first_event(day: str, message: str) -> dict[str, Any]:
    return {
        "toolUse": {"toolUseId": "search-first", "name": "get_store_hours", "input": {"day": day}},
        "first": {"message": message},
        "steps": {"turnId": "0" * 32, "expiresAt": 2_000_000_000},
        "step": {"key": "r01.t00"},
    }


def test_a_result_handed_to_the_model_is_the_tools_output_and_writes_its_line(
    steps_written: list[Any],
) -> None:
    told = first_handler(_first_event("Monday", "monday hours"), Context())
    assert told["searchFirst"] is True and told["reason"] == "searched"
    assert told["toolResult"]["toolUseId"] == "search-first"
    assert told["trace"]["summary"] == "hours for Monday"
    assert [(s.step, s.status) for s in steps_written] == [("r01.t00", "done")]


def test_a_result_not_handed_over_says_why_and_writes_no_line(steps_written: list[Any]) -> None:
    unasked = first_handler(_first_event("Monday", "hello"), Context())
    assert unasked == {"searchFirst": False, "reason": "no_catalog_words", "searched": False}
    unused = first_handler(_first_event("Tuesday", "tuesday hours"), Context())
    assert unused == {"searchFirst": False, "reason": "nothing_found", "searched": True}
    assert steps_written == []
    # And a call without "first" is the tool's ordinary call
    assert set(first_handler(_first_event("Tuesday", "x") | {"first": None}, Context())) == {
        "toolResult",
        "ledger",
        "trace",
    }


def _monday_first_then_as_asked(first: Any, call: Callable[..., ToolOutput]) -> tuple[Any, Any]:
    """A tool that tries another input first and, when that does not serve, the call as
    the state machine made it."""
    tried = call({"day": "Monday"})
    if first["message"] == "monday":
        return FirstAnswer(searchFirst=True, reason="narrowed", searched=True), tried
    return FirstAnswer(searchFirst=True, reason="searched", searched=True), call()


@tool_handler(HoursInput, first=_monday_first_then_as_asked)
def retrying_handler(tool_use: ToolUse, context: Any) -> ToolOutput:
    return answer(tool_use, HoursInput, opening_hours)


def test_a_call_after_another_input_is_the_state_machines_own(steps_written: list[Any]) -> None:
    # Given a first call with another input that did not serve
    told = retrying_handler(_first_event("Tuesday", "tuesday hours"), Context())
    # Then the call after it is the state machine's
    assert told["trace"]["input"] == {"day": "Tuesday"}
    assert told["trace"]["summary"] == "hours for Tuesday"
    # while one that served is the other input's
    served = retrying_handler(_first_event("Tuesday", "monday"), Context())
    assert served["trace"]["input"] == {"day": "Monday"}
    assert len(steps_written) == 2


class IdsInput(BaseModel):
    model_config = ConfigDict(extra="forbid")

    productIds: list[str]


@tool_handler(IdsInput)
def lookup_handler(tool_use: ToolUse, context: Any) -> ToolOutput:
    return answer(
        tool_use,
        IdsInput,
        lambda call, args: call.success({"products": args.productIds}, "found them"),
    )


def lookup_by_ids(ids: list[str], vouched: list[str] | None) -> dict[str, Any]:
    use = {"toolUseId": "tu-2", "name": "lookup_inventory", "input": {"productIds": ids}}
    event: dict[str, Any] = {"toolUse": use}
    if vouched is not None:
        event["vouched"] = vouched
    return lookup_handler(event, Context())


def test_a_lookup_of_an_id_the_conversation_does_not_vouch_for_is_refused() -> None:
    # Given ids the conversation vouches for, and a lookup of one more (read in a review)
    output = lookup_by_ids(["CMP-001", "CMP-037"], vouched=["CMP-001", "CMP-002"])
    # Then the tool does not run: the model reads which id and what to do instead
    error = told_error(output)
    assert error["kind"] == "invalid_input"
    assert error["error"].startswith("The productIds CMP-037 came from no catalog result")
    assert "by its name or by keywords" in error["error"]
    assert output["ledger"]["products"] == []


def test_a_lookup_of_vouched_ids_or_with_no_vouched_list_runs() -> None:
    vouched = lookup_by_ids(["CMP-001"], vouched=["CMP-001"])
    assert vouched["toolResult"]["content"][0]["json"] == {"products": ["CMP-001"]}
    # an id the shopper typed in lower case vouches for the catalog's spelling of it
    typed = lookup_by_ids(["CMP-037"], vouched=["cmp-037"])
    assert typed["toolResult"]["content"][0]["json"] == {"products": ["CMP-037"]}
    # a call with no ``vouched`` (a direct invocation, the search first) is not held to one
    direct = lookup_by_ids(["CMP-037"], vouched=None)
    assert direct["toolResult"]["content"][0]["json"] == {"products": ["CMP-037"]}
