"""The custom metrics' names, declared once: the functions emit them through Powertools
(:mod:`shared.runtime.observability`), the CDK app alarms on and graphs them (infra/monitoring.py,
infra/dashboard.py). The catalog indexer's own are :class:`index_catalog.metrics.IndexMetric`.

Standard library only, so that the CDK app reads the names without loading Powertools or
any function's logic (tests/infrastructure/test_app_imports.py holds it to that).
"""

from __future__ import annotations

from enum import StrEnum
from typing import Final

SERVICE: Final = "storechat"
"""Every metric's ``service`` dimension, and the name the functions log under."""


class Metric(StrEnum):
    """The loop's custom metrics, in the environment's namespace (``Storechat/<env>``)."""

    CONVERSATIONS = "Conversations"
    """Composed answers, one per turn: the outcome metrics divide by it."""
    ANSWERED = "Answered"
    TRUNCATED = "Truncated"
    REFUSED = "Refused"
    FALLBACKS = "Fallbacks"
    TOOL_ROUNDS = "ToolRounds"
    UNVERIFIED_CITATIONS = "UnverifiedCitations"
    """Citations of ids no tool returned, dropped from an answer."""
    FACT_CORRECTIONS = "FactCorrections"
    """Corrections per answer (zero included), a count metric the monitoring alarms on."""
    LEDGER_RECORDS_REFUSED = "LedgerRecordsRefused"
    """Records refused per composed answer, a count metric (zero included)."""
    TOOL_CALLS = "ToolCalls"
    TOOL_ERRORS = "ToolErrors"
    TOOL_LATENCY = "ToolLatency"
    TOOL_NOT_CONFIGURED = "ToolNotConfigured"
    """Calls of a tool the store has not set up: a known state, kept out of ToolErrors."""
    MODEL_THROTTLES = "ModelThrottles"
    MODEL_LATENCY = "ModelLatency"
    INPUT_TOKENS = "InputTokens"
    OUTPUT_TOKENS = "OutputTokens"
    CACHE_READ_INPUT_TOKENS = "CacheReadInputTokens"
    CACHE_WRITE_INPUT_TOKENS = "CacheWriteInputTokens"
    STEP_WRITE_ERRORS = "StepWriteErrors"
    """Live trace steps not written (failed or late): an alarm watches it, since nothing
    else would show."""
    CATALOG_INDEX_REFRESH_ERRORS = "CatalogIndexRefreshErrors"
    FEEDBACK_RECORDED = "FeedbackRecorded"


OUTCOME_METRICS: Final[dict[str, Metric]] = {
    "answered": Metric.ANSWERED,
    "truncated": Metric.TRUNCATED,
    "refused": Metric.REFUSED,
    "fallback": Metric.FALLBACKS,
}
"""One count metric per outcome (``shared.api.vocabulary.Outcome``), without dimensions, so
alarms can divide by :attr:`Metric.CONVERSATIONS`."""

TOKEN_METRICS: Final[dict[str, Metric]] = {
    "inputTokens": Metric.INPUT_TOKENS,
    "outputTokens": Metric.OUTPUT_TOKENS,
    "cacheReadInputTokens": Metric.CACHE_READ_INPUT_TOKENS,
    "cacheWriteInputTokens": Metric.CACHE_WRITE_INPUT_TOKENS,
}
"""Each token count of a Converse ``usage`` (``shared.config.pricing.USAGE_PRICE_FIELDS``' keys)
and the metric it is counted in: the model's spend is priced from these."""
