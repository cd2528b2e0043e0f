"""Error names that the state machine's Retry and Catch clauses match.

A Lambda that raises one of these classes surfaces to Step Functions with the
class name as its error type, so the names below are the ones written in
``statemachine/storechat.asl.json``. ``tests/unit/test_error_names.py`` keeps
the two in step.
"""

from __future__ import annotations


class StorechatError(Exception):
    """Base for every named error a storechat Lambda raises on purpose."""


class ModelThrottled(StorechatError):
    """The model provider throttled the request; worth retrying with backoff."""


class ModelUnavailable(StorechatError):
    """The model provider is down, not ready, failed internally or could not be reached;
    worth retrying. It said so instead of answering: nothing was billed."""


class ModelReplyLost(StorechatError):
    """The request was sent but its reply never arrived whole (the connection broke or,
    without a deadline, timed out): the model may have answered and billed it. Worth
    retrying; the call counts as spent."""


class ModelRequestRejected(StorechatError):
    """The provider refused the request (validation, access, missing model); not retried."""


class ModelDeadline(StorechatError):
    """The model did not answer before the turn's deadline; the loop falls back in time."""


class ModelContextOverflow(StorechatError):
    """The request is longer than the model's context window; routed like that stop reason."""


class ReplayExhausted(StorechatError):
    """A replay model was asked for more responses than its file holds."""


class InvalidConverseRequest(StorechatError):
    """A request we built breaks the Converse shape or the toolUse/toolResult rules."""


class UpstreamError(StorechatError):
    """An HTTP API or a table behind a tool failed. ``kind`` says how."""

    def __init__(self, kind: str, detail: str) -> None:
        super().__init__(f"{kind}: {detail}")
        self.kind = kind
        self.detail = detail


class CatalogUnavailable(UpstreamError):
    """The catalog could not be read."""


RETRYABLE_MODEL_ERRORS: tuple[str, ...] = (ModelThrottled.__name__, ModelUnavailable.__name__)
"""Errors on the Converse task that the state machine retries with backoff, after giving
back the call's reserved spend: the provider refused the call, so nothing was billed."""

LOST_MODEL_ERRORS: tuple[str, ...] = (ModelReplyLost.__name__,)
"""Errors on the Converse task that the state machine retries with backoff while the call
keeps its reserved spend: it may have been billed."""
