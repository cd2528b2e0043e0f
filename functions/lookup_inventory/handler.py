"""Lambda entry point of the ``lookup_inventory`` tool."""

from __future__ import annotations

import functools
import time
from typing import Any

from aws_lambda_powertools.utilities.typing import LambdaContext

from lookup_inventory.cache import TTLCache
from lookup_inventory.logic import run
from lookup_inventory.repository import CatalogSource, DynamoCatalog, HttpCatalog, Product
from lookup_inventory.settings import get_settings
from shared.contract import ToolUse
from shared.http import RemainingTime
from shared.observability import CORRELATION_ID_PATH, logger, metrics, record_tool_result, tracer

DEADLINE_MARGIN_S = 0.5
"""Time kept back from the Lambda's remaining time to filter, rank and answer."""


# functools.cache may build twice when two threads race a cold start; both
# builds are cheap and thread-safe (DynamoCatalog makes its client under a lock),
# and the loser is dropped.
@functools.cache
def catalog_source() -> CatalogSource:
    settings = get_settings()
    if settings.catalog_source == "http":
        if not settings.products_api_url:
            raise ValueError("CATALOG_SOURCE=http needs PRODUCTS_API_URL")
        return HttpCatalog(settings.products_api_url, settings.http_timeout_s)
    return DynamoCatalog(settings.table_name, settings.category_index)


@functools.cache
def catalog_cache() -> TTLCache[str, list[Product]]:
    settings = get_settings()
    return TTLCache(
        ttl_s=settings.cache_ttl_s,
        max_entries=settings.cache_max_entries,
        max_items=settings.cache_max_items,
    )


def deadline_for(context: RemainingTime | None) -> float | None:
    """The ``time.monotonic()`` by which the catalog read must be done, if the context says."""
    if context is None:
        return None
    left_s = context.get_remaining_time_in_millis() / 1000 - DEADLINE_MARGIN_S
    return time.monotonic() + left_s


@logger.inject_lambda_context(correlation_id_path=CORRELATION_ID_PATH)
@tracer.capture_lambda_handler
@metrics.log_metrics
def lambda_handler(event: dict[str, Any], context: LambdaContext) -> dict[str, Any]:
    tool_use = ToolUse.model_validate(event["toolUse"])
    output = run(
        tool_use,
        source=catalog_source(),
        cache=catalog_cache(),
        max_results=get_settings().max_results,
        deadline_s=deadline_for(context),
    )
    record_tool_result(
        output.trace.tool, output.trace.status, output.trace.ms, output.trace.summary
    )
    return output.dump()
