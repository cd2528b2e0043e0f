"""Lambda entry point of the ``lookup_inventory`` tool."""

from __future__ import annotations

import functools
from typing import Any

import boto3
from aws_lambda_powertools.utilities.typing import LambdaContext

from lookup_inventory.cache import TTLCache
from lookup_inventory.logic import run
from lookup_inventory.repository import CatalogSource, DynamoCatalog, HttpCatalog, Product
from lookup_inventory.settings import get_settings
from shared.contract import ToolUse
from shared.observability import CORRELATION_ID_PATH, logger, metrics, record_tool_result, tracer


@functools.cache
def catalog_source() -> CatalogSource:
    settings = get_settings()
    if settings.catalog_source == "http":
        if not settings.products_api_url:
            raise ValueError("CATALOG_SOURCE=http needs PRODUCTS_API_URL")
        return HttpCatalog(settings.products_api_url, settings.http_timeout_s)
    table = boto3.resource("dynamodb").Table(settings.table_name)
    return DynamoCatalog(table, settings.category_index)


@functools.cache
def catalog_cache() -> TTLCache[str, list[Product]]:
    settings = get_settings()
    return TTLCache(ttl_s=settings.cache_ttl_s, max_entries=settings.cache_max_entries)


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
    )
    record_tool_result(
        output.trace.tool, output.trace.status, output.trace.ms, output.trace.summary
    )
    return output.dump()
