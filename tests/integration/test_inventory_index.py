"""The catalog tool in the whole loop: it searches the snapshot published to the index
bucket, and the prices a shopper reads come from the catalog table."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import boto3

from shared.catalog_data import load_catalog
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
    told = {p["productId"]: p["price"] for p in sent["content"][0]["json"]["products"]}
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
