"""Locally, a DynamoDB read and another thread's write do not break each other.

The live trace is read while the tools write their steps: the runner polls the turn's
steps (a Query) while each tool's handler, on its own thread, writes one (a PutItem).
moto walks the table's dictionary to answer the Query; a write that adds an item under
it made the read fail with "dictionary changed size during iteration", and the question
with it (seen in a red-team run: the run stopped)."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from typing import Any

import boto3
import pytest
from moto import mock_aws

from storechat.local.atomic_writes import atomic_dynamodb_writes

REGION = "us-east-1"
WRITES = 300


@pytest.fixture
def table() -> Iterator[Any]:
    with mock_aws(), atomic_dynamodb_writes():
        client = boto3.client("dynamodb", region_name=REGION)
        client.create_table(
            TableName="steps",
            BillingMode="PAY_PER_REQUEST",
            AttributeDefinitions=[
                {"AttributeName": "turnId", "AttributeType": "S"},
                {"AttributeName": "seq", "AttributeType": "N"},
            ],
            KeySchema=[
                {"AttributeName": "turnId", "KeyType": "HASH"},
                {"AttributeName": "seq", "KeyType": "RANGE"},
            ],
        )
        yield client


def test_a_query_beside_writes_from_other_threads_never_fails(table: Any) -> None:
    # Given tools writing steps of many turns from their threads
    failures: list[str] = []
    done = threading.Event()

    def write() -> None:
        client = boto3.client("dynamodb", region_name=REGION)
        for n in range(WRITES):
            client.put_item(
                TableName="steps", Item={"turnId": {"S": f"turn-{n}"}, "seq": {"N": "1"}}
            )
        done.set()

    def poll() -> None:
        # When the runner polls one turn's steps, as the live trace does, all the while
        client = boto3.client("dynamodb", region_name=REGION)
        while not done.is_set():
            try:
                client.query(
                    TableName="steps",
                    ConsistentRead=True,
                    KeyConditionExpression="turnId = :t",
                    FilterExpression="seq > :z",
                    ExpressionAttributeValues={":t": {"S": "turn-5"}, ":z": {"N": "0"}},
                )
            except RuntimeError as exc:
                failures.append(str(exc))

    threads = [threading.Thread(target=write), *(threading.Thread(target=poll) for _ in range(2))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    # Then every read answered, and every write landed
    assert failures == []
    count = table.scan(TableName="steps", Select="COUNT")["Count"]
    assert count == WRITES
