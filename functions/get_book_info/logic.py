"""The book tool without Lambda or HTTP: validate, search, explain.

Every expected failure (bad arguments, Open Library failing) comes back as an
error ``toolResult`` the model can read and work around, never as an
exception, so the conversation carries on with the catalog alone.
"""

from __future__ import annotations

from typing import Any, Protocol

from pydantic import ValidationError

from get_book_info.schema import BookInput
from shared.contract import Ledger, ToolCall, ToolOutput, ToolUse
from shared.errors import UpstreamError
from shared.tool_errors import explain_upstream_error

SERVICE = "The book information service"


class BookSearch(Protocol):
    def __call__(self, query: str, *, timeout_s: float) -> list[dict[str, Any]]: ...


def run(tool_use: ToolUse, *, search: BookSearch, timeout_s: float) -> ToolOutput:
    call = ToolCall(tool_use)
    try:
        args = BookInput.model_validate(tool_use.input)
    except ValidationError as exc:
        return call.invalid_input(exc)

    try:
        results = search(args.query, timeout_s=timeout_s)
    except UpstreamError as exc:
        return call.failure(
            exc.kind,
            explain_upstream_error(SERVICE, exc, "book details"),
            f"book search failed ({exc.kind}: {exc.detail}) for '{args.query}'",
        )

    return call.success(
        {"query": args.query, "results": results},
        _summary(len(results), args.query),
        Ledger(books=results),
    )


def _summary(count: int, query: str) -> str:
    if count == 0:
        return f"no books found for '{query}'"
    return f"{count} book{'' if count == 1 else 's'} for '{query}'"
