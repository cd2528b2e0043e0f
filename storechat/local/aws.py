"""The AWS account a local system runs in: moto, and the tables and state machine in it.

Names and key schemas are the stack's (``infra/names.py``); a test in
``tests/infrastructure`` compares the tables created here with the template.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Iterator
from contextlib import contextmanager
from decimal import Decimal
from typing import Any

import boto3
from moto import mock_aws

from shared.products.table_names import (
    CATALOG_INVENTORY_INDEX,
    CATALOG_INVENTORY_ITEM,
    CATALOG_PARTITION_KEY,
)
from shared.trace import steps
from storechat.local import moto_patches

REGION = "us-east-1"
ACCOUNT = "123456789012"
CATALOG_TABLE = "storechat-catalog"
SESSIONS_TABLE = "storechat-sessions"
STEPS_TABLE = "storechat-steps"
SPEND_TABLE = "storechat-spend"
SYNC_TABLE = "storechat-catalog-sync"
"""What the platforms' webhooks wrote: deliveries, and each product's last change."""
STATE_MACHINE = "storechat-local"

BULK_SEED_THRESHOLD = 2_000
"""Catalogs larger than this go straight into moto's backend (see :func:`seed_catalog`)."""

_INTERPRETER_LOG = "moto.stepfunctions.parser"


@contextmanager
def mocked_aws() -> Iterator[None]:
    """moto, running Step Functions executions, for the length of the block."""
    # moto's interpreter logs every caught task failure with the whole state's parse tree;
    # the loop handles those failures on purpose, so they are not news for a local user.
    interpreter_log = logging.getLogger(_INTERPRETER_LOG)
    level = interpreter_log.level
    interpreter_log.setLevel(logging.CRITICAL)
    mock = mock_aws(
        config={
            "stepfunctions": {"execute_state_machine": True},
            "lambda": {"use_docker": False},
            "core": {"passthrough": {"services": ["bedrock-runtime"]}},
        }
    )
    mock.start()
    try:
        yield
    finally:
        mock.stop()
        interpreter_log.setLevel(level)


def key_schema(partition: str, sort: str | None = None) -> dict[str, Any]:
    """A table's (or an index's) string keys, in ``create_table``'s words."""
    keys = [(partition, "HASH"), *([(sort, "RANGE")] if sort else [])]
    return {
        "AttributeDefinitions": [{"AttributeName": k, "AttributeType": "S"} for k, _ in keys],
        "KeySchema": [{"AttributeName": k, "KeyType": kind} for k, kind in keys],
    }


def create_tables(dynamodb: Any) -> None:
    """The catalog table, the sessions table, the steps table, the table of daily spend
    counters and the webhooks' sync table."""
    catalog = key_schema(CATALOG_PARTITION_KEY)
    catalog["AttributeDefinitions"] += key_schema(CATALOG_INVENTORY_ITEM)["AttributeDefinitions"]
    dynamodb.create_table(
        TableName=CATALOG_TABLE,
        BillingMode="PAY_PER_REQUEST",
        # As deployed (infra/data.py): the products of a Shopify inventory item.
        GlobalSecondaryIndexes=[
            {
                "IndexName": CATALOG_INVENTORY_INDEX,
                "KeySchema": key_schema(CATALOG_INVENTORY_ITEM)["KeySchema"],
                "Projection": {"ProjectionType": "KEYS_ONLY"},
            }
        ],
        **catalog,
    )
    for name, keys in (
        (SESSIONS_TABLE, key_schema("sessionId", "turnKey")),
        (STEPS_TABLE, key_schema(steps.PARTITION_KEY, steps.SORT_KEY)),
        (SPEND_TABLE, key_schema("day")),
        (SYNC_TABLE, key_schema("key")),
    ):
        dynamodb.create_table(TableName=name, BillingMode="PAY_PER_REQUEST", **keys)


def seed_catalog(catalog: list[dict[str, Any]]) -> None:
    """Put every product into the catalog table."""
    items = [json.loads(json.dumps(p), parse_float=Decimal) for p in catalog]
    if len(items) > BULK_SEED_THRESHOLD:
        # Through the emulated HTTP API 50,000 puts take over a minute.
        moto_patches.bulk_put_items(ACCOUNT, REGION, CATALOG_TABLE, items)
        return
    table = boto3.resource("dynamodb", region_name=REGION).Table(CATALOG_TABLE)
    with table.batch_writer() as batch:
        for item in items:
            batch.put_item(Item=item)


REPLAY_EXHAUSTED = "ReplayExhausted"
"""The replay model's error when its file runs dry (``converse.providers``): a broken
test fixture, not a shopper-facing fallback, so locally it fails the execution."""


def with_replay_guard(definition: str) -> str:
    """``definition`` with a Catch that fails the execution when a replay runs dry.

    Only the local system can run a replay file, so only its copy of the definition
    has this Catch and its Fail state; the deployed definition routes every model error
    to its fallback.
    """
    machine = json.loads(definition)
    converse = machine["States"]["Converse"]
    guard = {"ErrorEquals": [REPLAY_EXHAUSTED], "Next": REPLAY_EXHAUSTED}
    converse["Catch"] = [guard, *converse.get("Catch", [])]
    machine["States"][REPLAY_EXHAUSTED] = {
        "Type": "Fail",
        "Error": REPLAY_EXHAUSTED,
        "Cause": "The replay model ran out of recorded responses.",
    }
    return json.dumps(machine, ensure_ascii=False)


def create_state_machine(sfn: Any, definition: str, *, name: str = STATE_MACHINE) -> str:
    """Register ``definition`` (with the local :func:`with_replay_guard`) as an Express
    state machine; returns its ARN."""
    created = sfn.create_state_machine(
        name=name,
        definition=with_replay_guard(definition),
        roleArn=f"arn:aws:iam::{ACCOUNT}:role/storechat-local",
        type="EXPRESS",
    )
    arn: str = created["stateMachineArn"]
    return arn
