"""The catalog tool in the whole loop: it searches the snapshot published to the index
bucket, and the prices a shopper reads come from the catalog table."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import boto3

from shared.products.catalog_data import load_catalog
from shared.products.table import shown_products
from storechat.local import LocalStorechat
from storechat.local.index import INDEX_BUCKET, index_variables, seed_index
from storechat.local.runner import CATALOG_TABLE, REGION
from tests.integration.conftest import converse_inputs
from tests.integration.converse_fixtures import asks_for_tools, lookup, replies, write_replay

CATALOG = load_catalog()


@contextmanager
def indexed_store(tmp_path: Path, model: str = "offline") -> Iterator[Any]:
    """A local system whose index bucket holds a snapshot of its catalog (published again
    if the runner did already: the same catalog changes nothing)."""
    env = index_variables(tmp_path / "downloads")
    with LocalStorechat(model=model, catalog=CATALOG, env=env) as local:
        seed_index(boto3.client("s3", region_name=REGION), INDEX_BUCKET, CATALOG)
        yield local


def test_the_demo_question_is_answered_from_the_index(tmp_path: Path) -> None:
    with indexed_store(tmp_path) as local:
        result = local.ask("What Windows PC do you have which is best for a high school student?")
    body = result.body
    assert result.status == "SUCCEEDED" and body is not None, result.cause
    assert body["trace"][0]["tool"] == "lookup_inventory"
    assert body["trace"][0]["status"] == "success" and "snapshot " in body["trace"][0]["summary"]
    assert body["products"] and all(p["category"] == "COMPUTERS" for p in body["products"])


def test_a_price_changed_after_indexing_reaches_the_shopper_from_the_table(
    tmp_path: Path,
) -> None:
    # Given a model that looks up a laptop and cites it, and a price cut after indexing
    model = write_replay(
        tmp_path,
        [
            asks_for_tools(lookup("t1", keywords="zenbook laptop")),
            replies("The ASUS Zenbook 14 OLED [CMP-001] fits."),
        ],
    )
    with indexed_store(tmp_path, model=model) as local:
        boto3.client("dynamodb", region_name=REGION).update_item(
            TableName=CATALOG_TABLE,
            Key={"productId": {"S": "CMP-001"}},
            UpdateExpression="SET price = :p",
            ExpressionAttributeValues={":p": {"N": "899"}},
        )
        result = local.ask("A Zenbook, please")
    body = result.body
    assert result.status == "SUCCEEDED" and body is not None, result.cause
    # Then the model read the table's price, and the response shows it
    sent = converse_inputs(result)[1]["messages"][-1]["content"][0]["toolResult"]
    told = {
        p["productId"]: p["price"] for p in shown_products(sent["content"][0]["json"]["products"])
    }
    assert told["CMP-001"] == 899
    assert [(p["productId"], p["price"]) for p in body["products"]] == [("CMP-001", 899)]


def test_without_a_published_snapshot_the_shopper_hears_the_catalog_is_unavailable(
    tmp_path: Path,
) -> None:
    with indexed_store(tmp_path) as local:
        s3 = boto3.client("s3", region_name=REGION)
        s3.delete_object(Bucket=INDEX_BUCKET, Key=index_variables("")["CATALOG_INDEX_POINTER_KEY"])
        result = local.ask("What Windows PC do you have which is best for a high school student?")
    body = result.body
    assert result.status == "SUCCEEDED" and body is not None
    assert body["trace"][0]["status"] == "error"
    assert body["outcome"] == "answered" and body["products"] == []
    assert "catalog" in body["answer"].lower()


def _told(result: Any) -> list[dict[str, Any]]:
    """The products the catalog tool showed the model in this turn."""
    sent = converse_inputs(result)[1]["messages"][-1]["content"][0]["toolResult"]
    return shown_products(sent["content"][0]["json"]["products"])


def test_a_product_that_sells_out_or_gets_dearer_leaves_the_next_answer_at_once(
    tmp_path: Path,
) -> None:
    # Given a shopper who asks twice for laptops in stock under $800
    wanted = {"category": "COMPUTERS", "maxPrice": 800, "inStockOnly": True}
    model = write_replay(
        tmp_path,
        [
            asks_for_tools(lookup("t1", **wanted)),
            replies("Here are laptops in stock under $800."),
            asks_for_tools(lookup("t2", **wanted)),
            replies("Here they are again."),
        ],
    )
    dynamodb = boto3.client("dynamodb", region_name=REGION)
    with indexed_store(tmp_path, model=model) as local:
        first = local.ask("Laptops in stock under $800?")
        assert first.body is not None, first.cause
        sold_out, dearer = (p["productId"] for p in _told(first)[:2])
        # When one of them sells out and another's price rises to $850 in the table
        dynamodb.update_item(
            TableName=CATALOG_TABLE,
            Key={"productId": {"S": sold_out}},
            UpdateExpression="SET stock = :s",
            ExpressionAttributeValues={":s": {"N": "0"}},
        )
        dynamodb.update_item(
            TableName=CATALOG_TABLE,
            Key={"productId": {"S": dearer}},
            UpdateExpression="SET price = :p",
            ExpressionAttributeValues={":p": {"N": "850"}},
        )
        # And the indexer runs over the changed catalog: it publishes no new snapshot
        changed = [
            p
            | ({"stock": 0} if p["productId"] == sold_out else {})
            | ({"price": 850} if p["productId"] == dearer else {})
            for p in CATALOG
        ]
        s3 = boto3.client("s3", region_name=REGION)
        before = seed_index(s3, INDEX_BUCKET, CATALOG)
        assert seed_index(s3, INDEX_BUCKET, changed).version == before.version
        second = local.ask("And now?", session_id=first.body["sessionId"])
    assert second.status == "SUCCEEDED" and second.body is not None, second.cause
    # Then the very next lookup shows neither, from the same snapshot, and every product
    # it shows passes the filters on the table's values
    again = _told(second)
    assert again and not {sold_out, dearer} & {p["productId"] for p in again}
    assert all(p["stock"] > 0 and p["price"] <= 800 for p in again)
    assert f"snapshot {before.version}" in second.body["trace"][0]["summary"]
