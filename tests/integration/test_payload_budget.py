"""Issue: no state's payload may come near Step Functions' 256 KiB limit.

The worst case the system allows: a 50,000-product catalog, a 20-turn session with
the longest messages, five tool rounds of three broad lookups each asking for the
largest page, with the longest model text, then the cap; once with ordinary records
(a page of twelve fills the model's result) and once with each product holding the
longest picture address a product may have (the ledger's budget for one lookup
fills). The test prints the peak; the target is 64 KiB.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import boto3
import pytest

from bench.catalog_gen import synthetic_catalog
from lookup_inventory.schema import MAX_PAGE
from shared.products.product import MAX_IMAGE_URL
from storechat.local import LocalStorechat
from storechat.local.runner import REGION, SESSIONS_TABLE
from tests.integration.converse_fixtures import asks_for_tools, lookup, write_replay

TARGET = 64 * 1024
LIMIT = 256 * 1024
SESSION = "5e55e55e-0000-4000-8000-000000000020"
LONGEST_MESSAGE = "€" * 2000  # 2,000 characters, 6,000 bytes: the API's maximum
LONGEST_MODEL_TEXT = "Comparing options. " * 215  # about 1,024 tokens of text


def seed_twenty_turns() -> None:
    dynamodb = boto3.client("dynamodb", region_name=REGION)
    for n in range(20):
        # The longest a stored turn can be (SaveTurn keeps 1,000 + 1,200 characters)
        turn = {
            "user": "€" * 1000,
            "assistant": "€" * 1200,
            "outcome": "answered",
            "productIds": [],
        }
        dynamodb.put_item(
            TableName=SESSIONS_TABLE,
            Item={
                "sessionId": {"S": SESSION},
                "turnKey": {"S": f"2026-11-29T10:{n:02d}:00+00:00#seed{n}"},
                "expiresAt": {"N": "4102444800"},
                "turn": {"S": json.dumps(turn, ensure_ascii=False)},
            },
        )


def with_longest_pictures(catalog: list[dict[str, Any]]) -> list[dict[str, Any]]:
    for product in catalog:
        address = f"https://cdn.example.com/{product['productId']}.jpg?v="
        product["imageUrl"] = address + "9" * (MAX_IMAGE_URL - len(address))
    return catalog


def broad_round(n: int, *, new_pages: bool = False) -> dict[str, Any]:
    # The largest page the tool shows: more products in every result and in the ledger;
    # with new pages, each lookup of the turn shows products none before it showed
    offset = {"offset": n * MAX_PAGE} if new_pages else {}
    return asks_for_tools(
        lookup(f"r{n}a", category="COMPUTERS", limit=MAX_PAGE, **offset),
        lookup(f"r{n}b", category="MOBILE", limit=MAX_PAGE, **offset),
        lookup(f"r{n}c", category="BOOKS", limit=MAX_PAGE, **offset),
        text=LONGEST_MODEL_TEXT,
    )


@pytest.mark.parametrize(
    ("pictures", "new_pages"),
    [
        # The most products a page shows, each in the model's result and in the ledger
        (False, False),
        # The largest records, as many as the ledger's budget for one lookup takes
        (True, False),
        # The largest records, and every lookup finding new ones: the turn's ledger
        # grows by a lookup's whole budget each time, until its own cap
        (True, True),
    ],
    ids=["largest-page", "longest-pictures", "longest-pictures-new-every-lookup"],
)
def test_worst_case_payload_stays_under_64_kib(
    tmp_path: Path, pictures: bool, new_pages: bool
) -> None:
    # Given the largest catalog, session and tool rounds the system allows
    model = write_replay(tmp_path, [broad_round(n, new_pages=new_pages) for n in range(6)])
    catalog = synthetic_catalog(50_000)
    if pictures:
        catalog = with_longest_pictures(catalog)
    with LocalStorechat(model=model, catalog=catalog) as local:
        local.prime_catalog_cache()
        seed_twenty_turns()
        # When the shopper asks once more in that session
        result = local.ask(LONGEST_MESSAGE, SESSION)
        turn_items = boto3.client("dynamodb", region_name=REGION).query(
            TableName=SESSIONS_TABLE,
            KeyConditionExpression="sessionId = :s",
            ExpressionAttributeValues={":s": {"S": SESSION}},
        )["Items"]

    # Then it ran every round at full size and hit the cap
    body = result.body
    assert result.status == "SUCCEEDED", result.cause
    assert body is not None
    assert body["toolRounds"] == 5 and body["fallbackReason"] == "iteration_cap"
    assert len(body["trace"]) == 15 and all(t["status"] == "success" for t in body["trace"])
    shown = f"showed {4 if pictures else MAX_PAGE};"
    assert all(shown in t["summary"] for t in body["trace"]), body["trace"]

    # And no payload came near the limit
    sizes = result.payload_sizes()
    print("\npeak payloads (bytes):")
    for kind, (size, where) in sorted(sizes.items(), key=lambda kv: -kv[1][0]):
        print(f"  {kind:16} {size:>7,}  at {where}")
    peak = result.peak_payload_bytes
    print(f"  peak {peak:,} bytes = {peak / 1024:.1f} KiB (target 64 KiB, limit 256 KiB)")
    assert peak <= TARGET < LIMIT

    # And each stored turn is small, whatever the length of the session
    largest_item = max(len(json.dumps(item, ensure_ascii=False).encode()) for item in turn_items)
    print(f"  largest session item {largest_item:,} bytes (DynamoDB allows 400 KB)")
    assert len(turn_items) == 21 and largest_item < 16 * 1024
