"""Reading what the day's model spend counter and the state machine say a turn spent."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from typing import Any

import boto3

from converse.metering import DEFAULT_STAND_IN
from shared.config.pricing import TokenPrices, token_prices
from storechat.local.runner import REGION, SPEND_TABLE, RunResult

SONNET = token_prices(DEFAULT_STAND_IN)
"""The prices the offline and replay models' tokens are counted at."""


def today() -> str:
    return datetime.now(UTC).date().isoformat()


def spent_today(day: str | None = None) -> int:
    """The day's counter in micro-dollars (0 when nothing was counted)."""
    item = boto3.client("dynamodb", region_name=REGION).get_item(
        TableName=SPEND_TABLE, Key={"day": {"S": day or today()}}
    )
    return int(item.get("Item", {}).get("spentMicroUsd", {}).get("N", "0"))


def spent_in_all() -> int:
    """Every day's counter together: what a test that starts with none spent (also when
    it runs across midnight, UTC)."""
    items = boto3.client("dynamodb", region_name=REGION).scan(TableName=SPEND_TABLE)["Items"]
    return sum(int(item["spentMicroUsd"]["N"]) for item in items if "spentMicroUsd" in item)


def set_spent(micro_usd: int, day: str | None = None) -> None:
    boto3.client("dynamodb", region_name=REGION).update_item(
        TableName=SPEND_TABLE,
        Key={"day": {"S": day or today()}},
        UpdateExpression="SET spentMicroUsd = :spent",
        ExpressionAttributeValues={":spent": {"N": str(micro_usd)}},
    )


def micro_usd(usage: dict[str, Any], prices: TokenPrices = SONNET) -> int:
    """What ``usage`` costs, rounded to micro-dollars as the state machine rounds a call."""
    return round(prices.cost_usd(usage) * 1_000_000)


def reservations(result: RunResult) -> list[int]:
    """The spend the execution reserved before each model call, in order."""
    found = []
    for event in result.events:
        details = event.get("stateExitedEventDetails") or {}
        if details.get("name") == "PriceModelCall":
            found.append(int(json.loads(details["assignedVariables"]["reservedMicroUsd"])))
    return found


def states(result: RunResult) -> list[str]:
    return [name for name, _ in result.states_entered]
