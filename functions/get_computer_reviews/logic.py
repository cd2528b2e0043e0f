"""The reviews tool without Lambda or HTTP: validate, search, explain.

Every expected failure (bad arguments, no key, the search API failing) comes
back as an error ``toolResult`` the model can read and work around, never as
an exception, so the conversation carries on with the catalog alone.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Annotated, Any, Protocol

from pydantic import BaseModel, ConfigDict, StringConstraints, ValidationError

from shared.contract import Ledger, ToolOutput, ToolUse, tool_output
from shared.errors import UpstreamError
from shared.tool_errors import describe_validation_error, explain_upstream_error

TOOL_NAME = "get_computer_reviews"
SERVICE = "The review service"
NOT_CONFIGURED = "Review search is not configured for this store; answer from the catalog only."


class ReviewsInput(BaseModel):
    model_config = ConfigDict(extra="forbid")

    query: Annotated[str, StringConstraints(strip_whitespace=True, min_length=2, max_length=200)]


class ReviewSearch(Protocol):
    def __call__(self, query: str, *, api_key: str, timeout_s: float) -> list[dict[str, Any]]: ...


KeySource = Callable[[], str | None]


def run(
    tool_use: ToolUse, *, key_source: KeySource, search: ReviewSearch, timeout_s: float
) -> ToolOutput:
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
        args = ReviewsInput.model_validate(tool_use.input)
    except ValidationError as exc:
        problems = describe_validation_error(exc)
        return failure(
            "invalid_input",
            f"Invalid input for {TOOL_NAME}: {problems}",
            f"rejected invalid input ({problems})",
        )

    try:
        api_key = key_source()
    except UpstreamError as exc:
        return failure(
            exc.kind,
            "Review search could not load its credentials; reviews are unavailable right now.",
            "review key could not be loaded",
        )
    if not api_key:
        return failure("not_configured", NOT_CONFIGURED, "review search is not configured")

    try:
        results = search(args.query, api_key=api_key, timeout_s=timeout_s)
    except UpstreamError as exc:
        return failure(
            exc.kind,
            explain_upstream_error(SERVICE, exc, "reviews"),
            f"review search failed ({exc.kind}: {exc.detail}) for '{args.query}'",
        )

    return tool_output(
        tool_use,
        status="success",
        for_model={"query": args.query, "results": results},
        summary=_summary(len(results), args.query),
        ms=elapsed_ms(),
        ledger=Ledger(reviews=[{**result, "query": args.query} for result in results]),
    )


def _summary(count: int, query: str) -> str:
    if count == 0:
        return f"no reviews found for '{query}'"
    return f"{count} review{'' if count == 1 else 's'} for '{query}'"
