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

import json
import time
from collections.abc import Callable
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from shared.products.ledger import LedgerProducts
from shared.runtime.errors import FailureKind
from shared.runtime.tool_errors import describe_validation_error

MAX_RESULT_BYTES = 4_500
"""The most a single toolResult may put in front of the model, as UTF-8 JSON."""
MAX_TRACE_INPUT_CHARS = 500
MAX_DEMAND_WORDS = 10
MAX_DEMAND_WORD_CHARS = 80

Status = Literal["success", "error"]


class ToolUse(BaseModel):
    """A Converse ``toolUse`` block, as the model emitted it."""

    model_config = ConfigDict(populate_by_name=True)

    tool_use_id: Annotated[str, Field(alias="toolUseId", min_length=1, max_length=64)]
    name: Annotated[str, Field(min_length=1, max_length=64)]
    input: Annotated[dict[str, Any], Field(default_factory=dict)]


class Demand(BaseModel):
    """What a catalog search asked for that the store does not meet, in the search's own
    reading of the words: how many products matched, what it had to drop to show any
    (``shared.search.plan``), and the words and brand the catalog does not know. Saved
    with the turn (``storechat insights`` reports it); never read by the model."""

    found: Annotated[int, Field(ge=0)]
    relaxed: list[str] = Field(default_factory=list)
    unknown: list[Annotated[str, Field(max_length=MAX_DEMAND_WORD_CHARS)]] = Field(
        default_factory=list, max_length=MAX_DEMAND_WORDS
    )


class TraceEntry(BaseModel):
    tool: str
    input: dict[str, Any]
    status: Status
    summary: Annotated[str, Field(description="What the tool told the model, in one line")]
    ms: Annotated[int, Field(ge=0)]
    demand: Demand | None = None
    """A catalog search's :class:`Demand`; None for every other call."""


class Ledger(BaseModel):
    """Full records kept for the response; the model never reads these.

    Only products: the response shows the products the tools found, and what a review
    or a book lookup found reaches the shopper through the model's answer alone, so
    those tools keep nothing here.
    """

    products: LedgerProducts = Field(default_factory=list)


TokenCount = Annotated[int, Field(ge=0)]


class Usage(BaseModel):
    """A model's tokens as Converse counts them: one call's, or a turn's sum that the
    state machine keeps (every count of :data:`shared.config.pricing.USAGE_PRICE_FIELDS`).
    Whole numbers, never negative: the day's spend is priced from them."""

    inputTokens: TokenCount = 0
    outputTokens: TokenCount = 0
    cacheReadInputTokens: TokenCount = 0
    cacheWriteInputTokens: TokenCount = 0


class ToolOutput(BaseModel):
    model_config = ConfigDict(populate_by_name=True)

    tool_result: Annotated[dict[str, Any], Field(alias="toolResult")]
    ledger: Ledger
    trace: TraceEntry

    def dump(self) -> dict[str, Any]:
        # Only a search has a demand: no other call's trace line grows a null.
        unset = {"trace": {"demand"}} if self.trace.demand is None else None
        return self.model_dump(by_alias=True, exclude=unset)

    @property
    def error_kind(self) -> str | None:
        """The ``kind`` of an error result (``not_configured``, ``timeout``, ...); None for
        a success."""
        if self.tool_result.get("status") != "error":
            return None
        for block in self.tool_result.get("content") or []:
            kind = (block.get("json") or {}).get("kind") if isinstance(block, dict) else None
            if isinstance(kind, str):
                return kind
        return "error"


class FirstAnswer(BaseModel):
    """A tool's answer to the call the state machine makes itself before the first model
    call (search first): whether its result is handed to the model (``searchFirst``; then
    the :class:`ToolOutput` comes with it), why (``reason``, named in docs/limits.md), and
    whether the search ran at all (``searched``: over the day's budget, the catalog's
    answer is then that search's, not the same words searched again). A search that ran
    and is not handed over gives its ``trace`` line, for that answer's trace. A call made
    with another input than the shopper's words (the products shown, in the order a
    follow-up asks for) says it in ``searchedWith``: the model's ``toolUse`` holds it."""

    searchFirst: bool
    reason: Annotated[str, Field(min_length=1, max_length=40)]
    searched: bool
    trace: TraceEntry | None = None
    searchedWith: dict[str, Any] | None = None

    def dump(self) -> dict[str, Any]:
        return self.model_dump(exclude_none=True)


def result_size(value: Any) -> int:
    """Bytes of ``value`` as the model will receive it (UTF-8 JSON)."""
    return len(json.dumps(value, ensure_ascii=False).encode("utf-8"))


def fit_for_model(payload: dict[str, Any], limit: int = MAX_RESULT_BYTES) -> dict[str, Any]:
    """Drop list items from the end until ``payload`` fits in ``limit`` bytes.

    A tool result is capped so that five rounds of three tools can never push the
    conversation towards Step Functions' 256 KiB limit. What was dropped is counted
    in ``trimmed`` so the model knows the list is partial.
    """
    if result_size(payload) <= limit:
        return payload
    fitted = dict(payload)
    lists = [k for k, v in fitted.items() if isinstance(v, list)]
    trimmed = 0
    for key in lists:
        items = list(fitted[key])
        while items and result_size(fitted) > limit:
            items.pop()
            trimmed += 1
            fitted[key] = items
    if trimmed:
        fitted["trimmed"] = trimmed
    if result_size(fitted) > limit:
        # Not a list problem: a single huge string. Keep a readable prefix, cut by
        # UTF-8 bytes (a character can take four), with room for the key, the quotes
        # and JSON escapes; a character split at the cut is dropped.
        text = json.dumps(fitted, ensure_ascii=False)
        prefix = text.encode("utf-8")[: max(limit - 100, 0)].decode("utf-8", "ignore")
        fitted = {"truncated": prefix}
        while result_size(fitted) > limit:
            # Quotes and backslashes in the prefix are escaped again: trim further.
            prefix = prefix[: len(prefix) * 3 // 4]
            fitted = {"truncated": prefix}
    return fitted


def _trace_input(value: dict[str, Any]) -> dict[str, Any]:
    text = json.dumps(value, ensure_ascii=False)
    return (
        value if len(text) <= MAX_TRACE_INPUT_CHARS else {"truncated": text[:MAX_TRACE_INPUT_CHARS]}
    )


def tool_output(
    tool_use: ToolUse,
    *,
    status: Status,
    for_model: dict[str, Any],
    summary: str,
    ms: int,
    ledger: Ledger | None = None,
    trace_input: dict[str, Any] | None = None,
) -> ToolOutput:
    """Assemble a :class:`ToolOutput`; an error result always carries content.
    ``trace_input`` is the input as the trace shows it, when not the model's own."""
    return ToolOutput(
        tool_result={
            "toolUseId": tool_use.tool_use_id,
            "content": [{"json": fit_for_model(for_model)}],
            "status": status,
        },
        ledger=ledger or Ledger(),
        trace=TraceEntry(
            tool=tool_use.name,
            input=_trace_input(tool_use.input if trace_input is None else trace_input),
            status=status,
            summary=summary[:300],
            ms=ms,
        ),
    )


class ToolCall:
    """One tool invocation: its clock, and the outputs it can end with.

    Every tool answers the same way: a compact result for the model, the full
    records for the ledger, and a trace line timed from the start of the call.
    """

    def __init__(self, tool_use: ToolUse, clock: Callable[[], float] = time.perf_counter) -> None:
        self.tool_use = tool_use
        self._clock = clock
        self._started = clock()

    def elapsed_ms(self) -> int:
        return int((self._clock() - self._started) * 1000)

    def success(
        self,
        for_model: dict[str, Any],
        summary: str,
        ledger: Ledger | None = None,
        *,
        trace_input: dict[str, Any] | None = None,
        demand: Demand | None = None,
    ) -> ToolOutput:
        output = tool_output(
            self.tool_use,
            status="success",
            for_model=for_model,
            summary=summary,
            ms=self.elapsed_ms(),
            ledger=ledger,
            trace_input=trace_input,
        )
        output.trace.demand = demand
        return output

    def failure(self, kind: FailureKind, message: str, summary: str) -> ToolOutput:
        """An error result: ``message`` tells the model, ``summary`` the trace."""
        return tool_output(
            self.tool_use,
            status="error",
            for_model={"error": message, "kind": str(kind)},
            summary=summary,
            ms=self.elapsed_ms(),
        )

    def invalid_input(self, exc: ValidationError) -> ToolOutput:
        problems = describe_validation_error(exc)
        return self.failure(
            FailureKind.INVALID_INPUT,
            f"Invalid input for {self.tool_use.name}: {problems}",
            f"rejected invalid input ({problems})",
        )
