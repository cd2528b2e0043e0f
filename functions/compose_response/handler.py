"""Lambda entry point that builds the response body."""

from __future__ import annotations

import functools
import threading
import time
from collections.abc import Sequence
from typing import Any

from shared.runtime.init_phase import collector_paused

with collector_paused():
    from aws_lambda_powertools.utilities.typing import LambdaContext

    from compose_response.logic import ComposeInput, ResponseBody, compose
    from compose_response.settings import get_settings
    from shared.config.metric_names import OUTCOME_METRICS, Metric
    from shared.runtime.observability import (
        CORRELATION_ID_PATH,
        MetricUnit,
        logger,
        metrics,
        tracer,
    )
    from shared.store.settings import read_store_file
    from shared.trace import step_writer
    from shared.trace.steps import CHECK_KEY, Turn, step

DEADLINE_MARGIN_S = 0.4
"""Time kept back from the Lambda's remaining time to check and answer after a read."""


class CatalogOnFirstRead:
    """The catalog table, with its client (and boto3) loaded at the first read: most
    answers cite nothing from earlier turns, and a cold start should not pay for it."""

    def __init__(self, table_name: str, region: str | None) -> None:
        self._table_name = table_name
        self._region = region
        self._table: Any = None
        self._lock = threading.Lock()

    def products_by_id(self, ids: Sequence[str], *, deadline_s: float | None) -> Any:
        with self._lock:
            if self._table is None:
                from botocore.config import Config

                from shared.products.catalog_table import DynamoCatalog

                # The whole task has 2 s, a cold start included: one short try.
                config = Config(
                    connect_timeout=0.5,
                    read_timeout=0.5,
                    retries={"mode": "standard", "max_attempts": 1},
                )
                self._table = DynamoCatalog(self._table_name, region=self._region, config=config)
        return self._table.products_by_id(ids, deadline_s=deadline_s)


@functools.cache
def catalog() -> CatalogOnFirstRead | None:
    settings = get_settings()
    if settings.catalog_table_name is None:
        return None
    return CatalogOnFirstRead(settings.catalog_table_name, settings.region)


def forget_warm_state() -> None:
    """Forget the catalog table's client, as a new container would."""
    catalog.cache_clear()


@logger.inject_lambda_context(correlation_id_path=CORRELATION_ID_PATH)
@tracer.capture_lambda_handler
@metrics.log_metrics
def lambda_handler(event: dict[str, Any], context: LambdaContext) -> dict[str, Any]:
    request = ComposeInput.model_validate(event)
    settings = get_settings()
    left_s = context.get_remaining_time_in_millis() / 1000 - DEADLINE_MARGIN_S
    store = read_store_file(settings.store_file) if settings.store_file else None
    body = compose(
        request,
        currency=settings.store_currency,
        weight_unit=settings.weight_unit,
        catalog=catalog(),
        deadline_s=time.monotonic() + left_s,
        store=store.settings if store else None,
        own=settings.own,
        terms=store.policiesText if store else "",
    )
    _show_check(Turn.of(request.steps), body, context)
    metrics.add_metric(name=Metric.CONVERSATIONS, unit=MetricUnit.Count, value=1)
    for outcome, name in OUTCOME_METRICS.items():
        metrics.add_metric(name=name, unit=MetricUnit.Count, value=int(body.outcome == outcome))
    metrics.add_metric(name=Metric.TOOL_ROUNDS, unit=MetricUnit.Count, value=body.toolRounds)
    if body.unverifiedCitations:
        metrics.add_metric(
            name=Metric.UNVERIFIED_CITATIONS,
            unit=MetricUnit.Count,
            value=len(body.unverifiedCitations),
        )
        logger.warning(
            "dropped citations no tool returned", extra={"ids": body.unverifiedCitations}
        )
    # Zero included: the metric is then per answer, and its average means something.
    metrics.add_metric(
        name=Metric.FACT_CORRECTIONS, unit=MetricUnit.Count, value=len(body.corrections)
    )
    metrics.add_metric(
        name=Metric.LEDGER_RECORDS_REFUSED, unit=MetricUnit.Count, value=body.refusedRecords
    )
    if body.corrections:
        logger.warning(
            "corrected facts the ledger contradicts",
            extra={"corrections": [c.model_dump() for c in body.corrections]},
        )
    return body.model_dump()


def _show_check(turn: Turn | None, body: ResponseBody, context: Any) -> None:
    """The live trace's last line: what the answer says about products, checked."""
    if not body.products and not body.unverifiedCitations:
        return
    count = len(body.products)
    line = f"Checking {count} product{'' if count == 1 else 's'} in the answer against the catalog"
    fixed = len(body.corrections)
    found = [f"{fixed} fact{'' if fixed == 1 else 's'} corrected"] if fixed else []
    if body.unverifiedCitations:
        found.append("left out what I could not verify")
    step_writer.report(
        turn, step(CHECK_KEY, "check", line, "done", ", ".join(found) or "all match")
    )
    step_writer.settle(context)
