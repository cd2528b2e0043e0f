"""The one shell every tool's Lambda runs in, so a tool's package holds only its schema
and its logic.

A tool's logic answers a validated input (``answer(call, args)``), never raises for an
expected failure, and ends with ``call.success(...)`` or ``call.failure(...)``
(:class:`~shared.api.contract.ToolCall`). The shell does the rest, the same for every tool:

* :func:`answer` parses the input into the tool's input model (a bad one becomes the
  ``invalid_input`` error result, naming each problem) and times the call;
* :func:`tool_handler` makes the ``lambda_handler``: Powertools' logger, tracer and
  metrics in the order every handler uses, the ``toolUse`` block of the event parsed,
  the call's metrics and log line, and how its line in the live trace ended (the line's
  key and words come in the event, ``step``, made by the Converse function, with the
  turn, ``steps``; without them nothing is written).

A lookup by ``productIds`` of an id the conversation does not vouch for (the event's
``vouched``: every id the shopper wrote, a catalog result gave or an answer cited) is
refused with an ``invalid_input`` error result, whichever tool is asked: an id read in a
review is no reason to show a card.

A tool the state machine may call itself before the first model call (search first) is
given ``first``: the event's ``first`` and a way to run the call go to it, and it says
whether the result is handed to the model (:class:`~shared.api.contract.FirstAnswer`). A
result that is not handed over writes no line in the live trace: the model's own calls
take its place there.
"""

from __future__ import annotations

import functools
import time
from collections.abc import Callable
from typing import Any, TypeVar

from pydantic import BaseModel, ValidationError

from shared.api.contract import FirstAnswer, ToolCall, ToolOutput, ToolUse
from shared.runtime.errors import FailureKind
from shared.runtime.observability import (
    CORRELATION_ID_PATH,
    logger,
    metrics,
    record_tool_result,
    tracer,
)
from shared.text.sanitize import clean_text
from shared.tools.tool_steps import call_line, outcome
from shared.trace import step_writer
from shared.trace.steps import MAX_LINE_CHARS, ToolStep, Turn, step

Args = TypeVar("Args", bound=BaseModel)

Handler = Callable[[dict[str, Any], Any], dict[str, Any]]

Logic = Callable[[ToolCall, Args], ToolOutput]
ToolEntry = Callable[[ToolUse, Any], ToolOutput]
"""What a tool's handler module defines: the adapters its settings choose, for one call
(``tool_use``, Lambda's ``context``), handed to its logic."""
FirstStep = Callable[
    [Any, Callable[[dict[str, Any] | None], ToolOutput]], tuple[FirstAnswer, ToolOutput | None]
]
"""Given the event's ``first`` and the call to run (when it is worth running; with another
input than the event's, when given one), the answer to the state machine's search first
and the output to hand to the model (None: none)."""


def answer(
    tool_use: ToolUse,
    input_model: type[Args],
    logic: Logic[Args],
    *,
    clock: Callable[[], float] = time.perf_counter,
) -> ToolOutput:
    """``logic``'s answer to ``tool_use``, or the error result for input it cannot take."""
    call = ToolCall(tool_use, clock)
    try:
        args = input_model.model_validate(tool_use.input)
    except ValidationError as exc:
        return call.invalid_input(exc)
    return logic(call, args)


def tool_handler(
    input_model: type[BaseModel], *, first: FirstStep | None = None
) -> Callable[[ToolEntry], Handler]:
    """Decorate a tool's entry point into its ``lambda_handler``.

    The entry gets the parsed ``toolUse`` and the context and returns the
    :class:`~shared.api.contract.ToolOutput`; the handler returns its dump. With ``first``,
    an event that carries ``first`` is the state machine's search first: the handler
    returns the :class:`~shared.api.contract.FirstAnswer`, with the output's dump when it is
    handed over.
    """

    def decorate(entry: ToolEntry) -> Handler:
        @logger.inject_lambda_context(correlation_id_path=CORRELATION_ID_PATH)
        @tracer.capture_lambda_handler
        @metrics.log_metrics
        @functools.wraps(entry)
        def lambda_handler(event: dict[str, Any], context: Any) -> dict[str, Any]:
            tool_use = ToolUse.model_validate(event["toolUse"])
            ran = tool_use

            def call(other: dict[str, Any] | None = None) -> ToolOutput:
                nonlocal ran
                ran = tool_use if other is None else tool_use.model_copy(update={"input": other})
                output = entry(ran, context)
                trace = output.trace
                record_tool_result(
                    trace.tool, trace.status, trace.ms, trace.summary, output.error_kind
                )
                return output

            if first is not None and event.get("first") is not None:
                answer, handed = first(event["first"], call)
                if handed is None:
                    return answer.dump()
                dumped = {**handed.dump(), **answer.dump()}
            elif unvouched := _unvouched(event, tool_use):
                dumped = _refused(tool_use, unvouched).dump()
            else:
                dumped = call().dump()
            _end_step(event, ran.input, input_model, dumped, context)
            return dumped

        return lambda_handler

    return decorate


def _unvouched(event: dict[str, Any], tool_use: ToolUse) -> list[str]:
    """The ids a lookup by id asks for that the conversation does not vouch for: the event's
    ``vouched``, from the Converse function (:mod:`converse.vouched`), holds every id the
    shopper wrote, a catalog result gave or an answer cited. None without ``vouched``."""
    vouched, ids = event.get("vouched"), tool_use.input.get("productIds")
    if not isinstance(vouched, list) or not isinstance(ids, list):
        return []
    # "cmp-037" in the shopper's words vouches for CMP-037: ids are read as written.
    known = {str(v).casefold() for v in vouched}
    return [str(i) for i in ids if str(i).casefold() not in known]


def _refused(tool_use: ToolUse, unvouched: list[str]) -> ToolOutput:
    """The error result for a lookup of ids that came from untrusted text (a review that
    names an id): the catalog shows no card a stranger chose."""
    ids = ", ".join(unvouched[:5])
    output = ToolCall(tool_use).failure(
        FailureKind.INVALID_INPUT,
        f"The productIds {ids} came from no catalog result and no message of the shopper's "
        "in this conversation. Look a product up by its name or by keywords instead.",
        f"refused ids from no catalog result ({ids})",
    )
    trace = output.trace
    record_tool_result(trace.tool, trace.status, trace.ms, trace.summary, output.error_kind)
    return output


def _end_step(
    event: dict[str, Any],
    tool_input: dict[str, Any],
    input_model: type[BaseModel],
    output: dict[str, Any],
    context: Any,
) -> None:
    try:
        line = ToolStep.model_validate(event.get("step"))
    except ValidationError:
        return
    status, words = outcome(input_model, output)
    use = event.get("toolUse") or {}
    said = line.line or clean_text(
        call_line(str(use.get("name")), input_model, tool_input), MAX_LINE_CHARS
    )
    turn = Turn.of(event.get("steps"))
    step_writer.report(turn, step(line.key, "tool", said, status, words))  # type: ignore[arg-type]
    step_writer.settle(context)
