"""Lambda entry point of the scheduled full pull (an EventBridge schedule, or a direct
invoke: ``{"dryRun": true}`` says what a pull would change and writes nothing)."""

from __future__ import annotations

import functools
from collections.abc import Iterator
from typing import Any

from shared.runtime.init_phase import collector_paused

with collector_paused():
    import boto3
    from aws_lambda_powertools.utilities.typing import LambdaContext
    from botocore.config import Config

    from catalog_sync.logic import pull
    from catalog_sync.metrics import SyncMetric
    from catalog_sync.settings import Settings, get_settings
    from catalog_sync.table import DynamoCatalogTable
    from shared.config.secrets import read_secret
    from shared.platform.admin_api import Read, shopify_products, woocommerce_products
    from shared.platform.rows import ReadOptions
    from shared.runtime.observability import MetricUnit, logger, metrics, tracer

CLIENT_CONFIG = Config(connect_timeout=2, read_timeout=10, retries={"mode": "standard"})


class SyncNotConfigured(RuntimeError):
    """The Admin API secret is blank or not in the platform's form: the run fails (and
    the function's error alarm says so) until the operator puts it."""


@functools.cache
def _table() -> DynamoCatalogTable:
    settings = get_settings()
    client = boto3.client("dynamodb", region_name=settings.region, config=CLIENT_CONFIG)
    return DynamoCatalogTable(client, settings.table_name)


def products(settings: Settings) -> Iterator[Read]:
    """Every product of the store, read with the secret from Secrets Manager (read at each
    run: a rotated token is used from the next run on)."""
    secret = read_secret(settings.secret_arn, max_age_s=0)
    if settings.platform == "shopify":
        if secret is None:
            raise SyncNotConfigured(
                "the Admin API secret is blank: put the Shopify custom app's Admin API access "
                "token (read_products, read_inventory) in it"
            )
        return shopify_products(settings.api_url, secret, settings.store_url)
    key, _, consumer_secret = (secret or "").partition(":")
    if not (key.strip() and consumer_secret.strip()):
        raise SyncNotConfigured(
            "the Admin API secret is not 'consumer_key:consumer_secret': put the WooCommerce "
            "REST API key (Read access) in it in that form"
        )
    return woocommerce_products(
        settings.api_url, key.strip(), consumer_secret.strip(), settings.store_url
    )


@logger.inject_lambda_context
@tracer.capture_lambda_handler
@metrics.log_metrics
def lambda_handler(event: dict[str, Any], context: LambdaContext) -> dict[str, Any]:
    settings = get_settings()
    dry_run = isinstance(event, dict) and event.get("dryRun") is True
    outcome = pull(
        products(settings),
        _table(),
        ReadOptions(store_url=settings.store_url),
        allow_shrink=settings.allow_shrink,
        dry_run=dry_run,
    )
    body = outcome.body()
    if not dry_run:
        for name, count in (
            (SyncMetric.ADDED, len(outcome.added)),
            (SyncMetric.UPDATED, len(outcome.updated)),
            (SyncMetric.DELETED, len(outcome.deleted)),
            (SyncMetric.INVALID, len(outcome.invalid)),
            (SyncMetric.DELETIONS_REFUSED, 1 if outcome.deletions_refused else 0),
        ):
            metrics.add_metric(name=str(name), unit=MetricUnit.Count, value=count)
    if outcome.deletions_refused:
        logger.warning("catalog sync deleted nothing", extra={"sync": body})
    else:
        logger.info("catalog sync done", extra={"sync": body})
    return body
