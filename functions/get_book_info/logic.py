"""The book tool without Lambda or HTTP: search Open Library, or explain why not.

Every expected failure (bad arguments, Open Library failing) comes back as an
error ``toolResult`` the model can read and work around, never as an
exception, so the conversation carries on with the catalog alone.
"""

from __future__ import annotations

from typing import Any, Protocol

from get_book_info.schema import BookInput
from shared.api.contract import ToolCall, ToolOutput, ToolUse
from shared.tools.guardrail import Screen
from shared.tools.tool_shell import answer


class BookSearch(Protocol):
    def __call__(self, query: str, *, timeout_s: float) -> list[dict[str, Any]]: ...


def run(
    tool_use: ToolUse, *, search: BookSearch, timeout_s: float, screen: Screen | None = None
) -> ToolOutput:
    """The books for ``tool_use``; ``screen`` is the environment's guardrail, if any."""

    def books(call: ToolCall, args: BookInput) -> ToolOutput:
        return BookInput.search.answer(
            call, args.query, lambda q: search(q, timeout_s=timeout_s), screen=screen
        )

    return answer(tool_use, BookInput, books)
