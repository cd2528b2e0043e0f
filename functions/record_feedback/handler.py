"""Lambda entry point for ``POST /query/{turnId}/feedback`` (API Gateway proxy integration):
wiring only, the work is in ``logic``."""

from __future__ import annotations

import base64
import functools
import json
from typing import Any

from shared.runtime.init_phase import collector_paused

with collector_paused():
    from aws_lambda_powertools.utilities.typing import LambdaContext

    from record_feedback.logic import SessionTurns, record
    from record_feedback.settings import get_settings
    from shared.config.metric_names import Metric
    from shared.runtime.observability import MetricUnit, logger, metrics, tracer


@functools.cache
def turns() -> SessionTurns:
    import boto3
    from botocore.config import Config

    settings = get_settings()
    config = Config(connect_timeout=1, read_timeout=2, retries={"mode": "standard"})
    client = boto3.client("dynamodb", region_name=settings.region, config=config)
    return SessionTurns(client, settings.sessions_table)


def forget_warm_state() -> None:
    turns.cache_clear()


def _body(event: dict[str, Any]) -> bytes:
    body = event.get("body") or ""
    if event.get("isBase64Encoded"):
        return base64.b64decode(body)
    return str(body).encode("utf-8")


def _cors(event: dict[str, Any]) -> dict[str, str]:
    """The caller's origin when the store allows it (else the first allowed one, which a
    browser elsewhere will not accept), as the API's other routes answer."""
    origins = get_settings().allowed_origins
    headers = {k.casefold(): v for k, v in (event.get("headers") or {}).items()}
    origin = headers.get("origin")
    return {
        "Access-Control-Allow-Origin": origin if origin in origins else origins[0],
        "Vary": "Origin",
    }


@logger.inject_lambda_context
@tracer.capture_lambda_handler
@metrics.log_metrics
def lambda_handler(event: dict[str, Any], context: LambdaContext) -> dict[str, Any]:
    turn_id = str((event.get("pathParameters") or {}).get("turnId") or "")
    status, body = record(turns(), turn_id, _body(event))
    if status >= 500:
        logger.error("feedback not recorded", extra={"status": int(status)})
    # Zero included: the metric is then per request, and its average is the share recorded.
    metrics.add_metric(
        name=Metric.FEEDBACK_RECORDED, unit=MetricUnit.Count, value=int(status == 200)
    )
    return {
        "statusCode": int(status),
        "headers": {"Content-Type": "application/json; charset=utf-8", **_cors(event)},
        "body": json.dumps(body, ensure_ascii=False),
    }
