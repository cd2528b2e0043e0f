"""Lambda entry point of the platforms' webhooks (API Gateway proxy integration)."""

from __future__ import annotations

import base64
import functools
import json
import time
from typing import Any

from shared.runtime.init_phase import collector_paused

with collector_paused():
    import boto3
    from aws_lambda_powertools.utilities.typing import LambdaContext
    from botocore.config import Config

    from catalog_webhook.logic import PLATFORMS, Answer, Delivery, lower_headers, receive
    from catalog_webhook.settings import Settings, get_settings
    from catalog_webhook.store import DynamoSyncStore
    from shared.api.vocabulary import NOT_FOUND
    from shared.config.secrets import read_secret
    from shared.platform.rows import ReadOptions
    from shared.runtime.observability import logger, tracer

CLIENT_CONFIG = Config(connect_timeout=2, read_timeout=5, retries={"mode": "standard"})


@functools.cache
def _store() -> DynamoSyncStore:
    settings = get_settings()
    client = boto3.client("dynamodb", region_name=settings.region, config=CLIENT_CONFIG)
    return DynamoSyncStore(client, settings.table_name, settings.sync_table_name)


def secret_of(settings: Settings, platform: str) -> str | None:
    """The platform's webhook secret, or None when this deployment has none."""
    arn = settings.shopify_secret_arn if platform == "shopify" else settings.woocommerce_secret_arn
    if arn:
        return read_secret(arn)
    given = settings.shopify_secret if platform == "shopify" else settings.woocommerce_secret
    return given.get_secret_value() if given else None


def _response(answer: Answer) -> dict[str, Any]:
    return {
        "statusCode": answer.status,
        "headers": {"Content-Type": "application/json"},
        "body": json.dumps(answer.body),
    }


@logger.inject_lambda_context
@tracer.capture_lambda_handler
def lambda_handler(event: dict[str, Any], context: LambdaContext) -> dict[str, Any]:
    name = str((event.get("pathParameters") or {}).get("platform") or "")
    platform = PLATFORMS.get(name)
    if platform is None:
        return _response(Answer(404, NOT_FOUND.body(f"no webhooks for {name!r}")))
    raw = event.get("body") or ""
    body = base64.b64decode(raw) if event.get("isBase64Encoded") else raw.encode("utf-8")
    settings = get_settings()
    delivery = Delivery(
        platform, lower_headers(event.get("headers")), body, int(time.time() * 1000)
    )
    answer = receive(
        delivery,
        secret_of(settings, platform.name),
        _store(),
        ReadOptions(store_url=settings.store_url),
    )
    logger.info(
        "webhook answered",
        extra={"platform": platform.name, "status": answer.status, "result": answer.body},
    )
    return _response(answer)
