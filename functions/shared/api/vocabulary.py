"""The names ``POST /query`` answers with, each declared once, with the words a shopper reads.

* :data:`ERRORS`: every ``error`` code of an error body, with its HTTP status.
* :data:`OUTCOMES`: every ``outcome`` of an answer.
* :data:`FALLBACK_REASONS`: every ``fallbackReason`` of a fallback answer.

The dev server and the API's mapping templates answer with these codes;
``compose_response`` and the state machine set these outcomes and reasons. The chat
page is static, so it reads them from ``names.json`` (:func:`page_names`), which the
dev server serves and the CDK stack publishes beside the page; so it also reads there
the chips of a product card (``shared.catalog.derive.page_chips``). Tests hold the ASL's
literal reasons and docs/limits.md to this module.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Final, Literal

from shared.catalog.derive import page_chips


def error_body(code: str, message: str) -> dict[str, str]:
    """The body of every error response: ``{"error": code, "message": text}``."""
    return {"error": code, "message": message}


@dataclass(frozen=True)
class ApiError:
    """One ``error`` code: what went wrong, from the caller's side."""

    code: str
    status: int | None
    """The HTTP status; ``None`` for a catch-all code, which keeps the refusal's own status."""
    title: str
    """What the page says happened, in a few words."""
    message: str
    """What a shopper reads when the server has nothing more specific to say."""
    retry: bool
    """Whether the same request may succeed when sent again (the page offers "Try again")."""

    def body(self, message: str | None = None) -> dict[str, str]:
        return error_body(self.code, message or self.message)


_NOT_SENT = "Your message wasn't sent"
_OUR_SIDE = "Something went wrong on our side"

INVALID_REQUEST: Final = ApiError(
    "invalid_request", 400, _NOT_SENT, "The request was not valid.", retry=False
)
"""The body breaks the ``/query`` contract; the message says which rule."""
NOT_FOUND: Final = ApiError(
    "not_found", 404, _NOT_SENT, "There is nothing at this address.", retry=False
)
METHOD_NOT_ALLOWED: Final = ApiError(
    "method_not_allowed", 405, _NOT_SENT, "This address does not take that method.", retry=False
)
ORIGIN_NOT_ALLOWED: Final = ApiError(
    "origin_not_allowed",
    403,
    "This chat isn't available here",
    "The store's assistant answers only on the store's own pages.",
    retry=False,
)
"""A browser's request from a page on an origin the store has not allowed (its
``allowedOrigins``): refused before the assistant sees it. The deployed API says the
same through CORS: its preflight names no other origin, so a browser sends nothing."""
REQUEST_REJECTED: Final = ApiError(
    "request_rejected", None, _NOT_SENT, "The request was refused.", retry=False
)
"""Any other refusal before the assistant sees the request (a malformed request, an HTTP
version not spoken, a body or headers too large); the HTTP status says which."""
RATE_LIMITED: Final = ApiError(
    "rate_limited",
    429,
    "Too many questions at once",
    "Too many requests right now. Please wait a moment and try again.",
    retry=True,
)
CONVERSATION_FAILED: Final = ApiError(
    "conversation_failed",
    502,
    _OUR_SIDE,
    "The assistant could not answer this time. Please try again.",
    retry=True,
)
"""The execution failed or was aborted; its error and cause stay in the operators' logs."""
UNAVAILABLE: Final = ApiError(
    "unavailable",
    502,
    _OUR_SIDE,
    "The assistant is unavailable right now. Please try again shortly.",
    retry=True,
)
"""The execution could not be started (StartSyncExecution refused)."""
TIMEOUT: Final = ApiError(
    "timeout",
    504,
    "That took too long",
    "The assistant took too long to answer. Please try again.",
    retry=True,
)
GATEWAY_ERROR: Final = ApiError(
    "gateway_error",
    None,
    _OUR_SIDE,
    "The service could not handle the request. Please try again.",
    retry=True,
)
"""Any other failure of the gateway itself; the HTTP status says which."""

ERRORS: Final[dict[str, ApiError]] = {
    error.code: error
    for error in (
        INVALID_REQUEST,
        NOT_FOUND,
        METHOD_NOT_ALLOWED,
        ORIGIN_NOT_ALLOWED,
        REQUEST_REJECTED,
        RATE_LIMITED,
        CONVERSATION_FAILED,
        UNAVAILABLE,
        TIMEOUT,
        GATEWAY_ERROR,
    )
}

Outcome = Literal["answered", "truncated", "refused", "fallback"]

OUTCOMES: Final[dict[Outcome, str | None]] = {
    "answered": None,
    "truncated": "This answer was cut short",
    "refused": "Outside what I can help with",
    "fallback": "Partial answer",
}
"""Every outcome, with the notice the page shows above such an answer (none when answered)."""

FALLBACK_REASONS: Final[dict[str, str]] = {
    "iteration_cap": "I kept needing more lookups and reached my limit for one question",
    "deadline": "I ran out of time before I could finish checking",
    "model_error": "the assistant's language model is not available right now",
    "context_overflow": "this conversation has grown too long for me to follow",
    "malformed_model_output": "the language model twice gave a reply I could not use",
    "max_tokens": "my reply was cut off before it said anything useful",
    "empty_answer": "the language model gave an empty reply",
    "unknown_stop_reason": "the language model stopped for a reason I do not recognise",
    "compose_failed": "I could not put my answer together",
    "budget_exhausted": (
        "the assistant is very busy right now, so I searched the catalog for your words instead"
    ),
}
"""Every reason for a fallback, with the sentence a shopper reads
("Sorry, I couldn't finish answering: <sentence>.")."""

PAGE_NAMES_FILE: Final = "names.json"
"""Where the page finds :func:`page_names`, next to its own files."""


def page_names() -> dict[str, Any]:
    """What the chat page needs of this module, as JSON.

    A missing value is left out rather than ``null``: the CDK stack publishes this
    through jsii, which drops nulls, and both copies must be the same.
    """

    def present(fields: dict[str, Any]) -> dict[str, Any]:
        return {key: value for key, value in fields.items() if value is not None}

    return {
        "errors": {
            error.code: present(
                {
                    "status": error.status,
                    "title": error.title,
                    "message": error.message,
                    "retry": error.retry,
                }
            )
            for error in ERRORS.values()
        },
        "outcomes": {outcome: present({"notice": notice}) for outcome, notice in OUTCOMES.items()},
        "fallbackReasons": dict(FALLBACK_REASONS),
        "chips": page_chips(),
    }
