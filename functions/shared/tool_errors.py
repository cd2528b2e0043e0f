"""Sentences the tools give the model when something goes wrong, the same for every tool."""

from __future__ import annotations

from pydantic import ValidationError

from shared.errors import UpstreamError


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
        case "rate_limited":
            return f"{service} is rate limiting requests (HTTP 429); {unavailable}"
        case "timeout":
            return f"{service} did not answer in time ({exc.detail}); {unavailable}"
        case "unavailable":
            return f"{service} is failing ({exc.detail}); {unavailable}"
        case "http_error":
            return f"{service} refused the request ({exc.detail}); {unavailable}"
        case "malformed":
            return f"{service} sent a response that could not be read; {unavailable}"
        case "unreachable":
            return f"{service} could not be reached; {unavailable}"
        case _:
            return f"{service} failed ({exc.kind}); {unavailable}"


_FAILED_IN_WORDS = {
    "rate_limited": "was too busy to answer",
    "timeout": "did not answer in time",
    "unavailable": "is not working right now",
    "http_error": "refused the request",
    "malformed": "answered with something that could not be read",
    "unreachable": "could not be reached",
}


def failed_in_words(kind: str) -> str:
    """What happened to a service, for a shopper: "could not be reached", never the
    system's own message (``[Errno 111] Connection refused``)."""
    return _FAILED_IN_WORDS.get(kind, "did not work")
