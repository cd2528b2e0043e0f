"""Sentences the tools give the model when something goes wrong, the same for every tool."""

from __future__ import annotations

from pydantic import ValidationError

from shared.runtime.errors import FailureKind, UpstreamError


def describe_validation_error(exc: ValidationError) -> str:
    """One readable line per problem, e.g. ``query: Field required``."""
    parts = []
    for error in exc.errors(include_url=False):
        where = ".".join(str(part) for part in error["loc"]) or "input"
        parts.append(f"{where}: {error['msg']}")
    return "; ".join(parts)


def explain_upstream_error(service: str, exc: UpstreamError, what: str) -> str:
    """A sentence telling the model what went wrong and that it should carry on without."""
    unavailable = f"{what} are unavailable right now."
    match exc.kind:
        case FailureKind.RATE_LIMITED:
            return f"{service} is rate limiting requests (HTTP 429); {unavailable}"
        case FailureKind.TIMEOUT:
            return f"{service} did not answer in time ({exc.detail}); {unavailable}"
        case FailureKind.UNAVAILABLE:
            return f"{service} is failing ({exc.detail}); {unavailable}"
        case FailureKind.HTTP_ERROR:
            return f"{service} refused the request ({exc.detail}); {unavailable}"
        case FailureKind.MALFORMED:
            return f"{service} sent a response that could not be read; {unavailable}"
        case FailureKind.UNREACHABLE:
            return f"{service} could not be reached; {unavailable}"
        case _:
            return f"{service} failed ({exc.kind}); {unavailable}"


_FAILED_IN_WORDS: dict[str, str] = {
    FailureKind.RATE_LIMITED: "was too busy to answer",
    FailureKind.TIMEOUT: "did not answer in time",
    FailureKind.UNAVAILABLE: "is not working right now",
    FailureKind.HTTP_ERROR: "refused the request",
    FailureKind.MALFORMED: "answered with something that could not be read",
    FailureKind.UNREACHABLE: "could not be reached",
    FailureKind.SECRET_UNAVAILABLE: "is not set up in this store",
    FailureKind.NOT_CONFIGURED: "is not set up in this store",
    FailureKind.INDEXING: "is still being set up",
    FailureKind.INVALID_INPUT: "could not take the request",
    FailureKind.WITHHELD: "was left out: the store's content screening blocked what it found",
    FailureKind.SCREENING_FAILED: (
        "was left out: the store's content screening could not check what it found"
    ),
}


def failed_in_words(kind: str) -> str:
    """What happened to a service (a tool's error ``kind``), for a shopper: "could not be
    reached", never the system's own message (``[Errno 111] Connection refused``)."""
    return _FAILED_IN_WORDS.get(kind, "did not work")
