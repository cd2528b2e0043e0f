"""A fourth tool, declared in the registry alone, runs end to end on the local loop."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Annotated, Any

import pytest
from pydantic import BaseModel, ConfigDict, Field

import registry
from converse.handler import use_provider
from converse.scripted import ScriptedModel
from shared.api.contract import ToolCall, ToolOutput, ToolUse
from shared.tools.tool_shell import answer, tool_handler
from storechat.local import LocalStorechat
from tests.integration.converse_fixtures import asks_for_tools, replies, tool_use, write_replay


class StoreHoursInput(BaseModel):
    model_config = ConfigDict(extra="forbid")

    day: Annotated[str, Field(min_length=3, max_length=9, description="Day of the week")]


STORE_HOURS = registry.Function("store_hours", "Tool: the store's opening hours", 5, 128)
STORE_HOURS_TOOL = registry.Tool(
    "get_store_hours",
    "Opening hours of the store's shop for one day of the week.",
    StoreHoursInput,
    STORE_HOURS,
)


def opening_hours(call: ToolCall, args: StoreHoursInput) -> ToolOutput:
    """What ``functions/store_hours/logic.py`` would hold."""
    hours = {"day": args.day, "opens": "09:00", "closes": "18:00"}
    return call.success({"hours": hours}, f"hours for {args.day}")


@tool_handler(StoreHoursInput)
def store_hours_handler(tool_use: ToolUse, context: Any) -> ToolOutput:
    """What ``functions/store_hours/handler.py`` would hold."""
    return answer(tool_use, StoreHoursInput, opening_hours)


@pytest.fixture
def with_store_hours(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setattr(registry, "FUNCTIONS", (*registry.FUNCTIONS, STORE_HOURS))
    monkeypatch.setattr(registry, "TOOLS", (*registry.TOOLS, STORE_HOURS_TOOL))
    yield


def test_a_tool_declared_in_the_registry_is_offered_invoked_and_traced(
    with_store_hours: None, tmp_path: Path
) -> None:
    script = [
        asks_for_tools(tool_use("t1", "get_store_hours", {"day": "Saturday"})),
        replies("On Saturday the shop is open from 09:00 to 18:00."),
    ]
    model = write_replay(tmp_path, script)
    with LocalStorechat(
        model=model, overrides={"store_hours": store_hours_handler}, search_first=False
    ) as local:
        recording = ScriptedModel.from_file(Path(model.removeprefix("replay:")))
        use_provider(recording)
        result = local.ask("When are you open on Saturday?")
    body = result.body
    assert result.status == "SUCCEEDED" and body is not None, result.cause
    # The model was told about the new tool, with the schema of its input model
    offered = {t["toolSpec"]["name"]: t for t in recording.requests[0]["toolConfig"]["tools"]}
    schema = offered["get_store_hours"]["toolSpec"]["inputSchema"]["json"]
    assert schema["required"] == ["day"] and schema["properties"]["day"]["maxLength"] == 9
    # The state machine found its function, ran it and handed the result back
    assert body["outcome"] == "answered" and body["toolRounds"] == 1
    assert body["trace"][0]["tool"] == "get_store_hours"
    assert body["trace"][0]["status"] == "success", body["trace"]
    result_block = recording.requests[1]["messages"][-1]["content"][0]["toolResult"]
    assert result_block["status"] == "success"
    assert result_block["content"][0]["json"]["hours"]["closes"] == "18:00"


def test_an_unregistered_tool_is_still_refused_by_name(tmp_path: Path) -> None:
    script = [
        asks_for_tools(tool_use("t1", "get_store_hours", {"day": "Saturday"})),
        replies("I cannot look that up."),
    ]
    with LocalStorechat(model=write_replay(tmp_path, script), search_first=False) as local:
        result = local.ask("When are you open?")
    body = result.body
    assert body is not None and body["trace"][0]["summary"] == "unknown tool"
    assert body["trace"][0]["status"] == "error"
