"""What a model call adds to the live trace (``shared.trace.steps``).

While the model reads the results of a tool round, the trace says so; when its reply
asks for tools, the trace gets the model's own words before the call (Claude often
writes "Let me look that up"; not the sentences with anything to check: ``shared.trace.said``)
and a line for each tool, in the words of the tool's
input model (``shared.tools.tool_steps``). Those lines go back to the state machine with
the reply, so that each tool, or the state machine when a tool fails, ends its own.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import registry
from shared.api.stop_reasons import FINISHED
from shared.products.currency import DEFAULT_CURRENCY
from shared.text.sanitize import clean_text
from shared.tools.tool_steps import call_line
from shared.trace import step_writer
from shared.trace.said import before_tools
from shared.trace.steps import (
    MAX_LINE_CHARS,
    ToolStep,
    Turn,
    reading_key,
    said_key,
    step,
    tool_key,
)

READING = "Reading what I found"


def started(turn: Turn | None, round: int) -> None:
    """A call after ``round`` tool rounds reads their results."""
    if round > 0:
        step_writer.report(turn, step(reading_key(round), "think", READING, "running"))


def finished(turn: Turn | None, round: int) -> None:
    if round > 0:
        step_writer.report(turn, step(reading_key(round), "think", READING, "done"))


def replied(
    turn: Turn | None,
    round: int,
    stop_reason: str,
    text: str,
    tool_uses: Sequence[dict[str, Any]],
    currency: str = DEFAULT_CURRENCY,
) -> list[ToolStep]:
    """The reply's steps, written, amounts in the store's ``currency``; returns each
    toolUse's line, in order."""
    finished(turn, round)
    if not tool_uses or stop_reason not in FINISHED:
        return []
    asked = round + 1
    said = before_tools(text)
    if said:
        step_writer.report(turn, step(said_key(asked), "said", said, "done"))
    tools = {tool.name: tool.input_model for tool in registry.TOOLS}
    lines = []
    for index, use in enumerate(tool_uses):
        name = str(use.get("name", ""))
        words = call_line(name, tools.get(name), use.get("input"), currency)
        said = clean_text(words, MAX_LINE_CHARS)
        line = ToolStep(key=tool_key(asked, index), line=said)
        step_writer.report(turn, step(line.key, "tool", said, "running"))
        lines.append(line)
    return lines
