"""Lambda entry point of the catalog indexer (stream batches, schedule, direct invokes)."""

from __future__ import annotations

import functools
from typing import Any

from shared.runtime.init_phase import collector_paused

with collector_paused():
    import boto3
    from aws_lambda_powertools.utilities.typing import LambdaContext
    from botocore.config import Config

    from index_catalog.events import parse_trigger
    from index_catalog.logic import rebuild, record_fresh_only, record_rebuild
    from index_catalog.settings import get_settings
    from index_catalog.sources import (
        SCAN_CLIENT_CONFIG,
        CatalogReader,
        ProductsApiReader,
        TableReader,
    )
    from shared.runtime.observability import logger, metrics, tracer
    from shared.search.publish import publish_snapshot

S3_CLIENT_CONFIG = Config(retries={"mode": "standard", "max_attempts": 5})


# Built on first use, not at import: importing the handler reads no configuration.
@functools.cache
def s3_client() -> Any:
    return boto3.client("s3", region_name=get_settings().region, config=S3_CLIENT_CONFIG)


@functools.cache
def catalog_reader() -> CatalogReader:
    settings = get_settings()
    if settings.catalog_source == "http":
        if not settings.products_api_url:
            raise ValueError("CATALOG_SOURCE=http needs PRODUCTS_API_URL")
        return ProductsApiReader(settings.products_api_url, settings.http_timeout_s)
    if not settings.table_name:
        raise ValueError("CATALOG_SOURCE=dynamodb needs CATALOG_TABLE_NAME")
    client = boto3.client("dynamodb", region_name=settings.region, config=SCAN_CLIENT_CONFIG)
    return TableReader(client, settings.table_name, segments=settings.scan_segments)


@logger.inject_lambda_context
@tracer.capture_lambda_handler
@metrics.log_metrics
def lambda_handler(event: dict[str, Any], context: LambdaContext) -> dict[str, Any]:
    trigger = parse_trigger(event)
    if trigger.kind == "stream":
        record_fresh_only(trigger)
    if not trigger.needs_rebuild:
        return {"batchItemFailures": []}
    settings = get_settings()
    try:
        result = rebuild(
            trigger,
            reader=catalog_reader(),
            publish=publish_snapshot,
            s3_client=s3_client(),
            bucket=settings.bucket,
            prefix=settings.prefix,
            pointer_key=settings.pointer_key,
            fresh_fields=settings.fresh_fields,
        )
    except Exception:
        # Raised on purpose: a stream batch is retried whole (a rebuild is never partial),
        # an async invoke is retried by Lambda, and the errors alarm fires.
        logger.exception(
            "catalog index rebuild failed; the last good snapshot stays published",
            extra={"trigger": trigger.kind, "changes": trigger.changes},
        )
        raise
    record_rebuild(result)
    if trigger.wants_batch_response:
        return {"batchItemFailures": []}
    return result.model_dump()
