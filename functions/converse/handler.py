"""Lambda entry point of the Converse step."""

from __future__ import annotations

import threading
from typing import Any

from shared.runtime.init_phase import collector_paused

with collector_paused():
    from aws_lambda_powertools.utilities.typing import LambdaContext

    from converse import steps
    from converse.logic import ConverseInput, converse
    from converse.providers import Provider, make_provider
    from converse.settings import get_settings
    from shared.config.metric_names import Metric
    from shared.runtime.errors import ModelThrottled
    from shared.runtime.observability import (
        CORRELATION_ID_PATH,
        MetricUnit,
        logger,
        metrics,
        tracer,
    )
    from shared.trace import step_writer
    from shared.trace.steps import Turn

_provider: Provider | None = None
_provider_lock = threading.Lock()


def provider() -> Provider:
    """The model provider, built on first use from the settings."""
    global _provider
    with _provider_lock:
        if _provider is None:
            settings = get_settings()
            _provider = make_provider(settings.provider, region=settings.region)
        return _provider


def use_provider(chosen: Provider | None) -> None:
    """Replace the provider (the local runner passes a Bedrock client with real credentials)."""
    global _provider
    with _provider_lock:
        _provider = chosen


def forget_warm_state() -> None:
    """Forget the provider, as a new container would (the local runner starts cold)."""
    use_provider(None)


@logger.inject_lambda_context(correlation_id_path=CORRELATION_ID_PATH)
@tracer.capture_lambda_handler
@metrics.log_metrics
def lambda_handler(event: dict[str, Any], context: LambdaContext) -> dict[str, Any]:
    settings = get_settings()
    request = ConverseInput.model_validate(event)
    # What shoppers type is personal data: it is only ever logged at debug level.
    logger.debug("conversation so far", extra={"lastMessage": request.messages[-1]})
    turn = Turn.of(request.steps)
    steps.started(turn, request.round)
    try:
        result = converse(request, settings=settings, provider=provider())
    except Exception as exc:
        # A call that ends without a reply (throttled, past the deadline) has stopped reading.
        steps.finished(turn, request.round)
        step_writer.settle(context)
        if isinstance(exc, ModelThrottled):
            metrics.add_metric(name=Metric.MODEL_THROTTLES, unit=MetricUnit.Count, value=1)
        raise
    result.steps = steps.replied(
        turn,
        request.round,
        result.stopReason,
        result.text,
        result.toolUses,
        settings.store_currency,
    )
    step_writer.settle(context)
    metrics.add_metric(
        name=Metric.INPUT_TOKENS, unit=MetricUnit.Count, value=result.usage.inputTokens
    )
    metrics.add_metric(
        name=Metric.OUTPUT_TOKENS, unit=MetricUnit.Count, value=result.usage.outputTokens
    )
    metrics.add_metric(
        name=Metric.CACHE_READ_INPUT_TOKENS,
        unit=MetricUnit.Count,
        value=result.usage.cacheReadInputTokens,
    )
    metrics.add_metric(
        name=Metric.CACHE_WRITE_INPUT_TOKENS,
        unit=MetricUnit.Count,
        value=result.usage.cacheWriteInputTokens,
    )
    metrics.add_metric(
        name=Metric.MODEL_LATENCY, unit=MetricUnit.Milliseconds, value=result.latencyMs
    )
    if not result.usageKnown:
        # Its tokens are not metered: the state machine counts the call at its reservation.
        logger.warning("model reply reported token counts that cannot be believed")
    if result.unusable:
        # The call is paid for (its tokens are metered above); the loop falls back.
        logger.warning("model reply could not be used", extra={"problem": result.unusable})
    logger.info(
        "model replied",
        extra={
            "stopReason": result.stopReason,
            "toolUses": len(result.toolUses),
            "usage": result.usage.model_dump(),
        },
    )
    return result.model_dump()
