"""The catalog tool's snapshot: loaded from S3 at a cold start, swapped for a newer one at
most every 30 s, kept when a newer one is bad, and "catalog unavailable" when there is
none it can serve."""

from __future__ import annotations

import gzip
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import boto3
import pytest
from moto import mock_aws

from lookup_inventory import handler
from lookup_inventory.logic import run
from lookup_inventory.repository import CatalogRead
from lookup_inventory.settings import get_settings
from lookup_inventory.snapshots import S3Snapshots, SnapshotFetchFailed
from shared import registry
from shared.catalog_data import load_catalog
from shared.contract import ToolUse
from shared.environment import overriding
from shared.errors import CatalogUnavailable
from shared.search import SnapshotHolder, SnapshotPointer, SnapshotUnreadable
from shared.search.publish import publish_snapshot
from storechat.local.lambdas import FakeContext
from tests.unit.test_lookup_inventory import Table, seed_table, told

REGION = "us-east-1"
BUCKET = "storechat-test-index"
POINTER = "catalog-index/latest.json"
CATALOG = load_catalog()
NEW_PHONE = {
    "productId": "MOB-900",
    "name": "Zephyr Fold",
    "brand": "Zephyr",
    "category": "MOBILE",
    "price": 1499.0,
    "stock": 5,
    "description": "A folding phone.",
    "specs": {"os": "Android", "cameraMp": 50},
}


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def s3() -> Iterator[Any]:
    with mock_aws():
        client = boto3.client("s3", region_name=REGION)
        client.create_bucket(Bucket=BUCKET)
        yield client


def publish(s3: Any, tmp_path: Path, products: list[dict[str, Any]]) -> SnapshotPointer:
    return publish_snapshot(products, s3_client=s3, bucket=BUCKET, work_dir=tmp_path / "build")


def snapshots(s3: Any, tmp_path: Path) -> S3Snapshots:
    return S3Snapshots(lambda: s3, BUCKET, POINTER, tmp_path / "downloads")


def get_object_calls(s3: Any) -> list[str]:
    keys: list[str] = []
    s3.meta.events.register(
        "before-parameter-build.s3.GetObject", lambda params, **_: keys.append(params["Key"])
    )
    return keys


def publish_corrupt(s3: Any, version: str) -> None:
    """A pointer to an object that is gzip, but not a snapshot."""
    key = f"catalog-index/{version}.sqlite.gz"
    s3.put_object(Bucket=BUCKET, Key=key, Body=gzip.compress(b"SQLite format 3\x00" + b"\x13" * 9))
    pointer = SnapshotPointer(version, key, "0" * 64, 25, 1, "2026-01-01T00:00:00Z")
    s3.put_object(Bucket=BUCKET, Key=POINTER, Body=pointer.to_json().encode())


def ask(holder: SnapshotHolder, table: Table, tool_input: dict[str, Any]) -> dict[str, Any]:
    use = ToolUse(toolUseId="t1", name="lookup_inventory", input=tool_input)
    return run(use, index=holder.index, source=table, max_results=8).dump()


# --------------------------------------------------------------------------- S3Snapshots


def test_the_latest_snapshot_is_downloaded_once_and_old_downloads_are_removed(
    s3: Any, tmp_path: Path
) -> None:
    # Given a published snapshot
    first = publish(s3, tmp_path, CATALOG)
    source = snapshots(s3, tmp_path)
    # When a cold start asks for it, then a warm container checks again
    fetched = source.fetch_latest(None)
    again = source.fetch_latest(first.version)
    # Then it was downloaded whole, with what the pointer says to check, and only once
    assert fetched is not None and again is None
    assert fetched.version == first.version and fetched.sha256 == first.sha256
    assert fetched.path.stat().st_size == first.size
    # And after two newer ones, only the one in use and the newest are kept on disk
    second = publish(s3, tmp_path, [*CATALOG, NEW_PHONE])
    assert source.fetch_latest(first.version) is not None
    third = publish(s3, tmp_path, CATALOG[1:])
    assert source.fetch_latest(second.version) is not None
    on_disk = sorted(p.name for p in (tmp_path / "downloads").iterdir())
    assert on_disk == sorted([f"{second.version}.sqlite", f"{third.version}.sqlite"])


def test_a_download_an_invocation_left_half_done_is_removed(s3: Any, tmp_path: Path) -> None:
    # Given the half of a download a timed-out invocation left in /tmp
    publish(s3, tmp_path, CATALOG)
    left = tmp_path / "downloads" / ".20260101T000000Z-x.0123abcd.part"
    left.parent.mkdir(parents=True)
    left.write_bytes(b"half")
    # When the restarted runtime downloads the snapshot
    assert snapshots(s3, tmp_path).fetch_latest(None) is not None
    # Then the half file is gone
    assert not left.exists()


def test_nothing_published_is_unreadable_after_one_request(s3: Any, tmp_path: Path) -> None:
    calls = get_object_calls(s3)
    with pytest.raises(SnapshotUnreadable, match="no snapshot has been published"):
        snapshots(s3, tmp_path).fetch_latest(None)
    assert calls == [POINTER]


def test_a_pointer_to_a_missing_object_is_unreadable(s3: Any, tmp_path: Path) -> None:
    pointer = publish(s3, tmp_path, CATALOG)
    s3.delete_object(Bucket=BUCKET, Key=pointer.key)
    with pytest.raises(SnapshotUnreadable, match="is missing"):
        snapshots(s3, tmp_path).fetch_latest(None)


def test_a_bucket_that_cannot_be_read_is_catalog_unavailable(tmp_path: Path) -> None:
    with mock_aws():
        client = boto3.client("s3", region_name=REGION)  # no bucket at all
        with pytest.raises(SnapshotFetchFailed) as raised:
            snapshots(client, tmp_path).fetch_latest(None)
    assert isinstance(raised.value, CatalogUnavailable) and "NoSuchBucket" in raised.value.detail


# --------------------------------------------------------------------------- the holder


def test_a_newer_snapshot_is_served_only_after_30_seconds(s3: Any, tmp_path: Path) -> None:
    # Given a warm tool serving the first snapshot, and a phone added to the catalog since
    first = publish(s3, tmp_path, CATALOG)
    clock = Clock()
    holder = SnapshotHolder(snapshots(s3, tmp_path).fetch_latest, check_every_s=30, clock=clock)
    table = Table([*CATALOG, NEW_PHONE])
    assert told(ask(holder, table, {"productName": "Zephyr Fold"}))["count"] == 0
    second = publish(s3, tmp_path, [*CATALOG, NEW_PHONE])
    calls = get_object_calls(s3)
    # When the model asks for it 29 s after the cold start
    clock.now = 29.0
    early = ask(holder, table, {"productName": "Zephyr Fold"})
    # Then the old snapshot answered, without asking S3
    assert told(early)["count"] == 0 and f"snapshot {first.version}" in early["trace"]["summary"]
    assert calls == []
    # And once 30 s have passed, the new one answers
    clock.now = 31.0
    late = ask(holder, table, {"productName": "Zephyr Fold"})
    assert [p["productId"] for p in told(late)["products"]] == ["MOB-900"]
    assert f"snapshot {second.version}" in late["trace"]["summary"]


def test_the_last_good_snapshot_keeps_serving_when_a_newer_one_is_corrupt(
    s3: Any, tmp_path: Path
) -> None:
    # Given a warm tool serving a good snapshot
    good = publish(s3, tmp_path, CATALOG)
    clock = Clock()
    errors: list[Exception] = []
    holder = SnapshotHolder(
        snapshots(s3, tmp_path).fetch_latest,
        check_every_s=30,
        clock=clock,
        on_refresh_error=errors.append,
    )
    ask(holder, Table(CATALOG), {"category": "BOOKS"})
    # When the pointer moves to a corrupt snapshot and the check comes round
    publish_corrupt(s3, "20990101T000000Z-corrupt")
    clock.now = 31.0
    out = ask(holder, Table(CATALOG), {"category": "BOOKS"})
    # Then the answer still comes, from the good snapshot; the failure is reported
    assert out["toolResult"]["status"] == "success" and told(out)["products"]
    assert f"snapshot {good.version}" in out["trace"]["summary"]
    assert holder.refresh_errors == 1 and isinstance(errors[0], SnapshotUnreadable)


@pytest.mark.parametrize("published", ["nothing", "corrupt", "truncated"])
def test_a_cold_start_without_a_servable_snapshot_answers_catalog_unavailable(
    s3: Any, tmp_path: Path, published: str
) -> None:
    # Given a bucket with no snapshot, a corrupt one, or one cut off mid-file
    if published == "corrupt":
        publish_corrupt(s3, "20990101T000000Z-corrupt")
    elif published == "truncated":
        pointer = publish(s3, tmp_path, CATALOG)
        whole = s3.get_object(Bucket=BUCKET, Key=pointer.key)["Body"].read()
        s3.put_object(Bucket=BUCKET, Key=pointer.key, Body=whole[: len(whole) // 2])
    calls = get_object_calls(s3)
    holder = SnapshotHolder(snapshots(s3, tmp_path).fetch_latest)
    # When the model asks for something
    out = ask(holder, Table(CATALOG), {"category": "BOOKS"})
    # Then it is told the catalog is unavailable, after at most the pointer and one object
    assert out["toolResult"]["status"] == "error"
    assert "catalog is unavailable" in told(out)["error"] and told(out)["kind"] == "snapshot"
    assert len(calls) <= 2
    assert not list((tmp_path / "downloads").glob("*.part"))


# --------------------------------------------------------------------------- the handler


@pytest.fixture
def deployed(tmp_path: Path) -> Iterator[dict[str, str]]:
    """The catalog table and the index bucket in moto, and the function's variables."""
    variables = {
        "AWS_REGION": REGION,
        "CATALOG_TABLE_NAME": "catalog",
        "CATALOG_INDEX_BUCKET": BUCKET,
        "CATALOG_INDEX_DIR": str(tmp_path / "downloads"),
        "POWERTOOLS_METRICS_DISABLED": "true",
    }
    with mock_aws():
        s3 = boto3.client("s3", region_name=REGION)
        s3.create_bucket(Bucket=BUCKET)
        seed_table(CATALOG)
        publish(s3, tmp_path, CATALOG)
        with overriding(variables):
            _cold()
            yield variables
            _cold()


def _cold() -> None:
    get_settings.cache_clear()
    handler.catalog_source.cache_clear()
    handler.snapshot_holder.cache_clear()


def invoke(tool_input: dict[str, Any]) -> dict[str, Any]:
    event = {"toolUse": {"toolUseId": "t1", "name": "lookup_inventory", "input": tool_input}}
    context = FakeContext(registry.functions_by_key()["lookup_inventory"])
    answer: dict[str, Any] = handler.lambda_handler(event, context)
    return answer


def test_the_function_searches_the_published_snapshot_and_reads_prices_from_the_table(
    deployed: dict[str, str], capsys: pytest.CaptureFixture[str]
) -> None:
    # Given a price changed in the table after the snapshot was published
    boto3.client("dynamodb", region_name=REGION).update_item(
        TableName="catalog",
        Key={"productId": {"S": "CMP-001"}},
        UpdateExpression="SET price = :p",
        ExpressionAttributeValues={":p": {"N": "555"}},
    )
    # When the deployed function is asked
    out = invoke({"productName": "Zenbook 14"})
    # Then the answer quotes the table's price
    assert out["toolResult"]["status"] == "success"
    found = {p["productId"]: p["price"] for p in told(out)["products"]}
    assert found["CMP-001"] == 555
    # And the cold start said which SQLite the engine runs on
    assert "sqlite_version" in capsys.readouterr().err


def test_threads_at_a_cold_start_download_the_snapshot_once(deployed: dict[str, str]) -> None:
    # Given a cold container whose tool calls run on threads (as the local Map runs them)
    downloads: list[str] = []
    real = S3Snapshots.fetch_latest

    def counted(self: S3Snapshots, current: str | None) -> Any:
        downloads.append(str(current))
        return real(self, current)

    results: list[dict[str, Any]] = []
    start = threading.Barrier(6)

    def call() -> None:
        with overriding(deployed):
            start.wait()
            results.append(invoke({"category": "BOOKS"}))

    # When six calls arrive together
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(S3Snapshots, "fetch_latest", counted)
        threads = [threading.Thread(target=call) for _ in range(6)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
    # Then all answer, from one download
    assert [r["toolResult"]["status"] for r in results] == ["success"] * 6
    assert downloads == ["None"]


def test_a_function_without_its_index_bucket_answers_catalog_unavailable(
    deployed: dict[str, str],
) -> None:
    with overriding({k: v for k, v in deployed.items() if k != "CATALOG_INDEX_BUCKET"}):
        _cold()
        out = invoke({"category": "BOOKS"})
    assert out["toolResult"]["status"] == "error" and told(out)["kind"] == "unconfigured"
    assert "catalog is unavailable" in told(out)["error"]


def test_with_the_products_api_the_function_shows_the_snapshots_prices(
    deployed: dict[str, str],
) -> None:
    with overriding({**deployed, "CATALOG_SOURCE": "http"}):
        _cold()
        out = invoke({"category": "BOOKS"})
    assert out["toolResult"]["status"] == "success" and "pricesAsOf" in told(out)


def test_the_function_reads_fresh_records_from_its_own_table(deployed: dict[str, str]) -> None:
    source = handler.catalog_source()
    assert source is not None
    assert source.products_by_id(["BK-001"], deadline_s=None) == CatalogRead(
        [p for p in CATALOG if p["productId"] == "BK-001"]
    )
