"""The book tool without Lambda or HTTP: validate, search, explain.

Every expected failure (bad arguments, Open Library failing) comes back as an
error ``toolResult`` the model can read and work around, never as an
exception, so the conversation carries on with the catalog alone.
"""

from __future__ import annotations

import time
from typing import Annotated, Any, Protocol

from pydantic import BaseModel, ConfigDict, StringConstraints, ValidationError

from shared.contract import Ledger, ToolOutput, ToolUse, tool_output
from shared.errors import UpstreamError
from shared.tool_errors import describe_validation_error, explain_upstream_error

TOOL_NAME = "get_book_info"
SERVICE = "The book information service"


class BookInput(BaseModel):
    model_config = ConfigDict(extra="forbid")

    query: Annotated[str, StringConstraints(strip_whitespace=True, min_length=2, max_length=200)]


class BookSearch(Protocol):
    def __call__(self, query: str, *, timeout_s: float) -> list[dict[str, Any]]: ...


def run(tool_use: ToolUse, *, search: BookSearch, timeout_s: float) -> ToolOutput:
    started = time.perf_counter()

    def elapsed_ms() -> int:
        return int((time.perf_counter() - started) * 1000)

    def failure(kind: str, message: str, summary: str) -> ToolOutput:
        return tool_output(
            tool_use,
            status="error",
            for_model={"error": message, "kind": kind},
            summary=summary,
            ms=elapsed_ms(),
        )

    try:
        args = BookInput.model_validate(tool_use.input)
    except ValidationError as exc:
        problems = describe_validation_error(exc)
        return failure(
            "invalid_input",
            f"Invalid input for {TOOL_NAME}: {problems}",
            f"rejected invalid input ({problems})",
        )

    try:
        results = search(args.query, timeout_s=timeout_s)
    except UpstreamError as exc:
        return failure(
            exc.kind,
            explain_upstream_error(SERVICE, exc, "book details"),
            f"book search failed ({exc.kind}: {exc.detail}) for '{args.query}'",
        )

    return tool_output(
        tool_use,
        status="success",
        for_model={"query": args.query, "results": results},
        summary=_summary(len(results), args.query),
        ms=elapsed_ms(),
        ledger=Ledger(books=results),
    )


def _summary(count: int, query: str) -> str:
    if count == 0:
        return f"no books found for '{query}'"
    return f"{count} book{'' if count == 1 else 's'} for '{query}'"


# The two helpers below mirror get_computer_reviews.logic; each Lambda is
# packaged on its own, so one tool does not import the other.
