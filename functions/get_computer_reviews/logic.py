"""The reviews tool without Lambda or HTTP: find the key, search, explain.

Every expected failure (bad arguments, no key, the search API failing) comes
back as an error ``toolResult`` the model can read and work around, never as
an exception, so the conversation carries on with the catalog alone.
"""

from __future__ import annotations

import urllib.parse
from collections.abc import Callable
from typing import Any, Protocol

from get_computer_reviews.schema import ReviewsInput
from shared.api.contract import ToolCall, ToolOutput, ToolUse
from shared.runtime.errors import FailureKind, UpstreamError
from shared.tools.guardrail import Screen
from shared.tools.tool_shell import answer

NOT_CONFIGURED = "Review search is not configured for this store; answer from the catalog only."


class ReviewSearch(Protocol):
    def __call__(self, query: str, *, api_key: str, timeout_s: float) -> list[dict[str, Any]]: ...


KeySource = Callable[[], str | None]


def run(
    tool_use: ToolUse,
    *,
    key_source: KeySource,
    search: ReviewSearch,
    timeout_s: float,
    screen: Screen | None = None,
) -> ToolOutput:
    """The reviews for ``tool_use``; ``screen`` is the environment's guardrail, if any."""

    def reviews(call: ToolCall, args: ReviewsInput) -> ToolOutput:
        try:
            api_key = key_source()
        except UpstreamError as exc:
            return call.failure(
                exc.kind,
                "Review search could not load its credentials; reviews are unavailable right now.",
                "review key could not be loaded",
            )
        if not api_key:
            return call.failure(
                FailureKind.NOT_CONFIGURED, NOT_CONFIGURED, "review search is not configured"
            )
        return ReviewsInput.search.answer(
            call,
            args.query,
            lambda q: search(q, api_key=api_key, timeout_s=timeout_s),
            for_model,
            screen,
        )

    return answer(tool_use, ReviewsInput, reviews)


MODEL_DESCRIPTION_CHARS = 240


def for_model(result: dict[str, Any]) -> dict[str, Any]:
    """What the model reads of a review: its title, the site, and the start of the snippet.

    A site name tells the model whose verdict it is in a few tokens instead of a long URL.
    """
    url = str(result.get("url") or "")
    site = urllib.parse.urlsplit(url).hostname or "" if url.startswith("http") else ""
    description = str(result.get("description") or "")
    if len(description) > MODEL_DESCRIPTION_CHARS:
        description = description[: MODEL_DESCRIPTION_CHARS - 1].rstrip() + "…"
    return {"title": result.get("title", ""), "site": site, "description": description}
