"""The catalog tool's snapshot: loaded from S3 at a cold start, swapped for a newer one at
most every 30 s and never while a search waits, kept when a newer one is bad, and
"catalog unavailable" when there is none it can serve."""

from __future__ import annotations

import gzip
import threading
import time
from collections.abc import Iterator
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import boto3
import pytest
from moto import mock_aws

import registry
from lookup_inventory import handler
from lookup_inventory.logic import run
from lookup_inventory.settings import get_settings
from lookup_inventory.snapshots import S3Snapshots, SnapshotFetchFailed
from shared.api.contract import ToolUse
from shared.config.environment import overriding
from shared.products.catalog_data import load_catalog
from shared.products.catalog_table import CatalogRead
from shared.runtime.errors import CatalogUnavailable
from shared.search import SearchQuery, SnapshotHolder, SnapshotPointer, SnapshotUnreadable
from shared.search.holder import Refresh
from shared.search.publish import publish_snapshot
from storechat.local.lambdas import FakeContext
from tests.unit.test_lookup_inventory import Table, seed_table, told

REGION = "us-east-1"
BUCKET = "storechat-test-index"
POINTER = "catalog-index/latest.json"
CATALOG = load_catalog()


def ids(out: dict[str, Any]) -> list[str]:
    """The products the model was shown (a product named so, or the closest by name)."""
    return [p["productId"] for p in told(out)["products"]]


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


def snapshots(s3: Any, tmp_path: Path, clock: Clock | None = None) -> S3Snapshots:
    if clock is None:
        return S3Snapshots(lambda: s3, BUCKET, POINTER, tmp_path / "downloads")
    return S3Snapshots(lambda: s3, BUCKET, POINTER, tmp_path / "downloads", clock=clock)


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


class AfterTheResponse:
    """Where the holder hands a due refresh: kept until the test runs it, as Lambda runs it
    after the response has gone back."""

    def __init__(self) -> None:
        self.pending: list[Refresh] = []

    def __call__(self, refresh: Refresh) -> None:
        self.pending.append(refresh)

    def run(self, deadline: float | None = None) -> None:
        while self.pending:
            self.pending.pop(0)(deadline)


def ask(holder: SnapshotHolder, table: Table, tool_input: dict[str, Any]) -> dict[str, Any]:
    """One call of the tool, as the handler makes it: the snapshot leased for the call."""
    use = ToolUse(toolUseId="t1", name="lookup_inventory", input=tool_input)
    with ExitStack() as held:
        out = run(
            use, index=lambda: held.enter_context(holder.lease()), source=table, max_results=8
        )
    return out.dump()


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


def test_a_newer_snapshot_is_swapped_in_after_a_response_never_during_one(
    s3: Any, tmp_path: Path
) -> None:
    # Given a warm tool serving the first snapshot, and a phone added to the catalog since
    first = publish(s3, tmp_path, CATALOG)
    clock, after = Clock(), AfterTheResponse()
    holder = SnapshotHolder(
        snapshots(s3, tmp_path).fetch_latest, check_every_s=30, clock=clock, schedule=after
    )
    table = Table([*CATALOG, NEW_PHONE])
    assert "MOB-900" not in ids(ask(holder, table, {"productName": "Zephyr Fold"}))
    second = publish(s3, tmp_path, [*CATALOG, NEW_PHONE])
    calls = get_object_calls(s3)
    # When the model asks for it 29 s after the cold start
    clock.now = 29.0
    early = ask(holder, table, {"productName": "Zephyr Fold"})
    # Then the old snapshot answered, without asking S3, and no check is due yet
    assert "MOB-900" not in ids(early) and f"snapshot {first.version}" in early["trace"]["summary"]
    assert calls == [] and after.pending == []
    # And the call that finds the check due, 31 s after, is answered from the old one too:
    # nothing was read from S3 while the shopper waited
    clock.now = 31.0
    due = ask(holder, table, {"productName": "Zephyr Fold"})
    assert f"snapshot {first.version}" in due["trace"]["summary"]
    assert calls == [] and len(after.pending) == 1
    # And once the refresh has run after that response, the next call finds the phone
    after.run()
    assert calls == [POINTER, second.key]
    late = ask(holder, table, {"productName": "Zephyr Fold"})
    assert [p["productId"] for p in told(late)["products"]] == ["MOB-900"]
    assert f"snapshot {second.version}" in late["trace"]["summary"]
    # And the superseded snapshot's file is gone at once: /tmp holds only the one in use
    assert [p.name for p in (tmp_path / "downloads").iterdir()] == [f"{second.version}.sqlite"]


def test_the_last_good_snapshot_keeps_serving_when_a_newer_one_is_corrupt(
    s3: Any, tmp_path: Path
) -> None:
    # Given a warm tool serving a good snapshot
    good = publish(s3, tmp_path, CATALOG)
    clock, after = Clock(), AfterTheResponse()
    errors: list[Exception] = []
    holder = SnapshotHolder(
        snapshots(s3, tmp_path).fetch_latest,
        check_every_s=30,
        clock=clock,
        on_refresh_error=errors.append,
        schedule=after,
    )
    ask(holder, Table(CATALOG), {"category": "BOOKS"})
    # When the pointer moves to a corrupt snapshot and the check comes round
    publish_corrupt(s3, "20990101T000000Z-corrupt")
    clock.now = 31.0
    ask(holder, Table(CATALOG), {"category": "BOOKS"})
    after.run()
    out = ask(holder, Table(CATALOG), {"category": "BOOKS"})
    # Then the answer still comes, from the good snapshot; the failure is reported
    assert out["toolResult"]["status"] == "success" and told(out)["products"]
    assert f"snapshot {good.version}" in out["trace"]["summary"]
    assert holder.refresh_errors == 1 and isinstance(errors[0], SnapshotUnreadable)
    # And the corrupt download takes no room in /tmp
    assert [p.name for p in (tmp_path / "downloads").iterdir()] == [f"{good.version}.sqlite"]


def test_a_search_under_way_keeps_its_snapshot_through_a_swap(s3: Any, tmp_path: Path) -> None:
    # Given a search that holds the first snapshot (a Map item on another thread, locally)
    first = publish(s3, tmp_path, CATALOG)
    clock, after = Clock(), AfterTheResponse()
    holder = SnapshotHolder(
        snapshots(s3, tmp_path).fetch_latest, check_every_s=30, clock=clock, schedule=after
    )
    ask(holder, Table(CATALOG), {"category": "BOOKS"})
    second = publish(s3, tmp_path, [*CATALOG, NEW_PHONE])
    clock.now = 31.0
    ask(holder, Table(CATALOG), {"category": "BOOKS"})
    with holder.lease() as held:
        # When the newer snapshot is swapped in meanwhile
        after.run()
        # Then the search under way still reads the one it started with, whose file is
        # already deleted, while a new search gets the new one
        assert held.meta.version == first.version
        assert held.search(SearchQuery(category="BOOKS")).count == 26
        assert not (tmp_path / "downloads" / f"{first.version}.sqlite").exists()
        assert holder.index().meta.version == second.version
    # And once it ends, the superseded snapshot is closed
    with pytest.raises(SnapshotUnreadable, match="closed"):
        held.search(SearchQuery(category="BOOKS"))


def test_a_refresh_with_too_little_time_left_is_put_off(s3: Any, tmp_path: Path) -> None:
    # Given a warm tool whose first load took 2 s, and a newer snapshot
    publish(s3, tmp_path, CATALOG)
    clock, after = Clock(), AfterTheResponse()
    holder = SnapshotHolder(
        snapshots(s3, tmp_path, clock).fetch_latest, check_every_s=30, clock=clock, schedule=after
    )
    ask(holder, Table(CATALOG), {"category": "BOOKS"})
    holder.last_load_s = 2.0
    second = publish(s3, tmp_path, [*CATALOG, NEW_PHONE])
    clock.now = 31.0
    ask(holder, Table(CATALOG), {"category": "BOOKS"})
    calls = get_object_calls(s3)
    # When the refresh gets only a second before its invocation's deadline
    after.run(deadline=clock.now + 1.0)
    # Then it reads nothing and the next call schedules it again, which then swaps
    assert calls == [] and holder.version != second.version
    ask(holder, Table(CATALOG), {"category": "BOOKS"})
    after.run(deadline=clock.now + 10.0)
    assert holder.version == second.version


def test_off_lambda_the_refresh_runs_on_a_thread_of_its_own(s3: Any, tmp_path: Path) -> None:
    # Given a warm tool in the local runner (no Extensions API: the default schedule)
    first = publish(s3, tmp_path, CATALOG)
    clock = Clock()
    holder = SnapshotHolder(snapshots(s3, tmp_path).fetch_latest, check_every_s=30, clock=clock)
    ask(holder, Table(CATALOG), {"category": "BOOKS"})
    second = publish(s3, tmp_path, [*CATALOG, NEW_PHONE])
    # When a call finds the check due
    clock.now = 31.0
    due = ask(holder, Table(CATALOG), {"category": "BOOKS"})
    # Then it is answered from the snapshot it had, and the new one arrives soon after
    assert f"snapshot {first.version}" in due["trace"]["summary"]
    waited = time.monotonic() + 10
    while holder.version != second.version and time.monotonic() < waited:
        time.sleep(0.01)
    assert holder.version == second.version


def test_before_the_first_snapshot_the_shopper_is_told_the_catalog_is_being_indexed(
    s3: Any, tmp_path: Path
) -> None:
    # Given a new stack's bucket: the first index is not published yet
    holder = SnapshotHolder(snapshots(s3, tmp_path).fetch_latest)
    # When the model asks for something
    out = ask(holder, Table(CATALOG), {"category": "BOOKS"})
    # Then it is told the catalog is being indexed and to ask again in a few minutes
    assert out["toolResult"]["status"] == "error"
    assert told(out)["kind"] == "indexing"
    assert "catalog is being indexed" in told(out)["error"]
    assert "few minutes" in told(out)["error"]


@pytest.mark.parametrize("published", ["corrupt", "truncated"])
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


def function_variables(tmp_path: Path) -> dict[str, str]:
    """What the stack gives the function, pointed at moto's table and bucket."""
    return {
        "AWS_REGION": REGION,
        "CATALOG_TABLE_NAME": "catalog",
        "CATALOG_INDEX_BUCKET": BUCKET,
        "CATALOG_INDEX_DIR": str(tmp_path / "downloads"),
        "POWERTOOLS_METRICS_DISABLED": "true",
    }


@pytest.fixture
def deployed(tmp_path: Path) -> Iterator[dict[str, str]]:
    """The catalog table and the index bucket in moto, and the function's variables."""
    variables = function_variables(tmp_path)
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

    def counted(self: S3Snapshots, current: str | None, deadline: float | None = None) -> Any:
        downloads.append(str(current))
        return real(self, current, deadline)

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
