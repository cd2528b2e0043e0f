"""The shapes that cross the state machine: what a tool Lambda gets and gives back.

Every tool Lambda receives one Converse ``toolUse`` block and returns a
:class:`ToolOutput` with three parts:

* ``toolResult``: the compact block the model reads (Converse's exact shape);
* ``ledger``: the full structured records the response is built from;
* ``trace``: one line for the "how I found this" view.

The state machine builds the same shape itself (in JSONata) when a tool is
unknown, times out or crashes, so that the model always gets a result for every
``toolUseId``.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field

ToolName = Literal["lookup_inventory", "get_computer_reviews", "get_book_info"]
Status = Literal["success", "error"]


class ToolUse(BaseModel):
    """A Converse ``toolUse`` block, as the model emitted it."""

    model_config = ConfigDict(populate_by_name=True)

    tool_use_id: Annotated[str, Field(alias="toolUseId", min_length=1, max_length=64)]
    name: Annotated[str, Field(min_length=1, max_length=64)]
    input: Annotated[dict[str, Any], Field(default_factory=dict)]


class TraceEntry(BaseModel):
    tool: str
    input: dict[str, Any]
    status: Status
    summary: Annotated[str, Field(description="What the tool told the model, in one line")]
    ms: Annotated[int, Field(ge=0)]


class Ledger(BaseModel):
    """Full records kept for the response; the model never reads these."""

    products: list[dict[str, Any]] = Field(default_factory=list)
    reviews: list[dict[str, Any]] = Field(default_factory=list)
    books: list[dict[str, Any]] = Field(default_factory=list)


class ToolOutput(BaseModel):
    model_config = ConfigDict(populate_by_name=True)

    tool_result: Annotated[dict[str, Any], Field(alias="toolResult")]
    ledger: Ledger
    trace: TraceEntry

    def dump(self) -> dict[str, Any]:
        return self.model_dump(by_alias=True)


def tool_output(
    tool_use: ToolUse,
    *,
    status: Status,
    for_model: dict[str, Any],
    summary: str,
    ms: int,
    ledger: Ledger | None = None,
) -> ToolOutput:
    """Assemble a :class:`ToolOutput`; an error result always carries content."""
    return ToolOutput(
        tool_result={
            "toolUseId": tool_use.tool_use_id,
            "content": [{"json": for_model}],
            "status": status,
        },
        ledger=ledger or Ledger(),
        trace=TraceEntry(
            tool=tool_use.name, input=tool_use.input, status=status, summary=summary, ms=ms
        ),
    )
