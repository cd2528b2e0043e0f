"""Lambda entry point that builds the response body."""

from __future__ import annotations

from typing import Any

from aws_lambda_powertools.utilities.typing import LambdaContext

from compose_response.facts import FACT_CORRECTIONS_METRIC
from compose_response.logic import OUTCOME_METRICS, ComposeInput, compose
from compose_response.settings import get_settings
from shared.observability import CORRELATION_ID_PATH, MetricUnit, logger, metrics, tracer


@logger.inject_lambda_context(correlation_id_path=CORRELATION_ID_PATH)
@tracer.capture_lambda_handler
@metrics.log_metrics
def lambda_handler(event: dict[str, Any], context: LambdaContext) -> dict[str, Any]:
    body = compose(ComposeInput.model_validate(event), currency=get_settings().store_currency)
    metrics.add_metric(name="Conversations", unit=MetricUnit.Count, value=1)
    for outcome, name in OUTCOME_METRICS.items():
        metrics.add_metric(name=name, unit=MetricUnit.Count, value=int(body.outcome == outcome))
    metrics.add_metric(name="ToolRounds", unit=MetricUnit.Count, value=body.toolRounds)
    if body.unverifiedCitations:
        metrics.add_metric(
            name="UnverifiedCitations", unit=MetricUnit.Count, value=len(body.unverifiedCitations)
        )
        logger.warning(
            "dropped citations no tool returned", extra={"ids": body.unverifiedCitations}
        )
    # Zero included: the metric is then per answer, and its average means something.
    metrics.add_metric(
        name=FACT_CORRECTIONS_METRIC, unit=MetricUnit.Count, value=len(body.corrections)
    )
    if body.corrections:
        logger.warning(
            "corrected facts the ledger contradicts",
            extra={"corrections": [c.model_dump() for c in body.corrections]},
        )
    return body.model_dump()
