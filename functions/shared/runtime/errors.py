"""Error names that the state machine's Retry and Catch clauses match, and the kinds of
failure a tool reports.

A Lambda that raises one of these classes surfaces to Step Functions with the
class name as its error type, so the names below are the ones written in
``statemachine/storechat.asl.json``. ``tests/unit/test_error_names.py`` keeps
the two in step.
"""

from __future__ import annotations

from enum import StrEnum


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


class FailureKind(StrEnum):
    """How a tool call failed: the ``kind`` of its error result, which the model, the live
    trace and the metrics read, and of an :class:`UpstreamError`. The state machine writes
    ``timeout`` and the last three itself, for a call no tool answered (a test holds the
    ASL to these values)."""

    # A service behind a tool (an HTTP API, a table, the index bucket, a secret).
    RATE_LIMITED = "rate_limited"
    TIMEOUT = "timeout"
    UNAVAILABLE = "unavailable"
    HTTP_ERROR = "http_error"
    MALFORMED = "malformed"
    UNREACHABLE = "unreachable"
    SECRET_UNAVAILABLE = "secret_unavailable"
    # The catalog: its search's engine, snapshot and settings, a read of it cut short.
    ENGINE = "engine"
    SNAPSHOT = "snapshot"
    INDEXING = "indexing"
    """No snapshot published yet: a new stack's first index is still being built."""
    UNCONFIGURED = "unconfigured"
    """The catalog tool has no index bucket set."""
    INCOMPLETE = "incomplete"
    # The tool's own answer.
    INVALID_INPUT = "invalid_input"
    NOT_CONFIGURED = "not_configured"
    """A tool the store has not set up (no Brave key yet): a known state, counted in
    ``ToolNotConfigured``, not in ``ToolErrors`` (whose alarm it would trip from the first
    day)."""
    WITHHELD = "withheld"
    """Web text the guardrail blocked."""
    SCREENING_FAILED = "screening_failed"
    """Web text withheld because it could not be screened."""
    # The state machine's, for a call no tool answered.
    TOOL_FAILED = "tool_failed"
    UNKNOWN_TOOL = "unknown_tool"
    TOO_MANY_TOOLS = "too_many_tools"


class UpstreamError(StorechatError):
    """An HTTP API or a table behind a tool failed. ``kind`` says how."""

    def __init__(self, kind: FailureKind, detail: str) -> None:
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
