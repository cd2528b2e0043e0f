"""Lambda entry point of the catalog seeding custom resource."""

from __future__ import annotations

from typing import Any

from shared.runtime.init_phase import collector_paused

with collector_paused():
    import boto3
    from aws_lambda_powertools.utilities.typing import LambdaContext

    from seed_catalog.logic import CatalogTable, SeedEvent, handle
    from shared.products.catalog_data import load_catalog
    from shared.runtime.observability import logger, tracer


def _table(name: str) -> CatalogTable:
    table: CatalogTable = boto3.resource("dynamodb").Table(name)
    return table


@logger.inject_lambda_context
@tracer.capture_lambda_handler
def lambda_handler(event: dict[str, Any], context: LambdaContext) -> dict[str, Any]:
    request = SeedEvent.model_validate(event)
    result = handle(request, table_factory=_table, load_products=load_catalog)
    logger.info(
        "catalog seed handled",
        extra={
            "requestType": request.RequestType,
            "table": request.ResourceProperties.TableName,
            "products": result.Data.get("Products", "0"),
        },
    )
    return result.model_dump()
