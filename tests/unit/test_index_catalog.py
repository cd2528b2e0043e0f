"""The catalog indexer: rebuilds the search snapshot from the source of truth and publishes
it, or fails and leaves the last good one published; against moto's DynamoDB and S3."""

from __future__ import annotations

import importlib
import json
from collections.abc import Iterator
from decimal import Decimal
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import boto3
import pytest
from boto3.dynamodb.types import TypeSerializer
from botocore.exceptions import ClientError
from moto import mock_aws

import registry
from infra import names
from shared.config.environment import overriding
from shared.products.catalog_data import load_catalog
from shared.runtime.errors import CatalogUnavailable
from shared.runtime.observability import metrics
from shared.search import SearchIndex, SearchQuery, SnapshotFile, SnapshotPointer, open_snapshot
from shared.search.publish import publish_snapshot
from shared.search.snapshot import store_snapshot
from storechat.local.lambdas import FakeContext
from tests.support.fake_http import FakeHttpServer

REGION = "us-east-1"
TABLE = "storechat-catalog-test"
BUCKET = "storechat-index-test"
PREFIX = names.CATALOG_INDEX_PREFIX
POINTER = names.CATALOG_INDEX_POINTER_KEY
CATALOG = load_catalog()


@pytest.fixture(scope="module")
def ix() -> Iterator[SimpleNamespace]:
    # functions/ is the Lambda code root; a package added since the editable install was
    # made is not mapped by it, so put the root on the path for this module only.
    with pytest.MonkeyPatch.context() as patch:
        patch.syspath_prepend(str(names.FUNCTIONS_DIR))
        yield SimpleNamespace(
            **{
                module: importlib.import_module(f"index_catalog.{module}")
                for module in ("events", "handler", "logic", "metrics", "settings", "sources")
            }
        )


@pytest.fixture
def aws() -> Iterator[SimpleNamespace]:
    """The catalog table, seeded with the bundled catalog, and a versioned index bucket."""
    with mock_aws():
        dynamodb = boto3.client("dynamodb", region_name=REGION)
        dynamodb.create_table(
            TableName=TABLE,
            BillingMode="PAY_PER_REQUEST",
            AttributeDefinitions=[
                {"AttributeName": names.CATALOG_PARTITION_KEY, "AttributeType": "S"}
            ],
            KeySchema=[{"AttributeName": names.CATALOG_PARTITION_KEY, "KeyType": "HASH"}],
        )
        s3 = boto3.client("s3", region_name=REGION)
        s3.create_bucket(Bucket=BUCKET)
        s3.put_bucket_versioning(Bucket=BUCKET, VersioningConfiguration={"Status": "Enabled"})
        table = boto3.resource("dynamodb", region_name=REGION).Table(TABLE)
        put(table, CATALOG)
        yield SimpleNamespace(dynamodb=dynamodb, s3=s3, table=table)


def put(table: Any, products: list[dict[str, Any]]) -> None:
    with table.batch_writer() as batch:
        for product in products:
            batch.put_item(Item=json.loads(json.dumps(product), parse_float=Decimal))


def rebuild(
    ix: SimpleNamespace,
    aws: SimpleNamespace,
    tmp_path: Path,
    *,
    reader: Any = None,
    publish: Any = publish_snapshot,
    s3: Any = None,
) -> Any:
    return ix.logic.rebuild(
        ix.events.Trigger("request"),
        reader=reader or ix.sources.TableReader(aws.dynamodb, TABLE, segments=3),
        publish=publish,
        s3_client=s3 or aws.s3,
        bucket=BUCKET,
        prefix=PREFIX,
        pointer_key=POINTER,
        work_root=str(tmp_path),
    )


def pointer_bytes(aws: SimpleNamespace) -> bytes:
    body: bytes = aws.s3.get_object(Bucket=BUCKET, Key=POINTER)["Body"].read()
    return body


def open_published(aws: SimpleNamespace, folder: Path) -> SearchIndex:
    """What the catalog tool does: follow the pointer, download, validate, open."""
    pointer = SnapshotPointer.from_json(pointer_bytes(aws))
    body = aws.s3.get_object(Bucket=BUCKET, Key=pointer.key)["Body"]
    path = store_snapshot(body, folder, pointer.version, encoding=pointer.encoding)
    return open_snapshot(SnapshotFile(pointer.version, path, pointer.sha256, pointer.size))


def snapshot_keys(aws: SimpleNamespace) -> list[str]:
    listed = aws.s3.list_objects_v2(Bucket=BUCKET, Prefix=PREFIX).get("Contents", [])
    return sorted(item["Key"] for item in listed if item["Key"].endswith(".sqlite.gz"))


class BrokenReader:
    def read_all(self) -> list[dict[str, Any]]:
        raise CatalogUnavailable("unavailable", "catalog table: ProvisionedThroughputExceeded")


class PointerWriteFails:
    """An S3 client whose write of the pointer fails after the snapshot was uploaded."""

    def __init__(self, client: Any) -> None:
        self._client = client

    def __getattr__(self, name: str) -> Any:
        return getattr(self._client, name)

    def put_object(self, **kwargs: Any) -> Any:
        if kwargs["Key"] == POINTER:
            raise ClientError({"Error": {"Code": "InternalError", "Message": "boom"}}, "PutObject")
        return self._client.put_object(**kwargs)


# -- a rebuild publishes ---------------------------------------------------------------


def test_a_rebuild_publishes_a_snapshot_the_catalog_tool_can_search(
    ix: SimpleNamespace, aws: SimpleNamespace, tmp_path: Path
) -> None:
    # Given the catalog table and nothing published yet
    work = tmp_path / "work"
    work.mkdir()

    # When the indexer rebuilds
    result = rebuild(ix, aws, work)

    # Then the pointer names a snapshot of the whole catalog that opens and searches
    assert result.published and result.products == len(CATALOG)
    index = open_published(aws, tmp_path / "downloads")
    found = index.search(SearchQuery(keywords="zenbook oled"))
    assert found.products[0].productId == "CMP-001"
    assert index.meta.product_count == len(CATALOG)
    assert result.snapshot_age_s is not None and result.snapshot_age_s < 60
    # And the work folder is left empty: /tmp is reused by the next invoke
    assert list(work.iterdir()) == []


def test_an_unchanged_catalog_publishes_nothing_new(
    ix: SimpleNamespace, aws: SimpleNamespace, tmp_path: Path
) -> None:
    first = rebuild(ix, aws, tmp_path)
    before = pointer_bytes(aws)

    again = rebuild(ix, aws, tmp_path)

    assert not again.published
    assert again.version == first.version
    assert pointer_bytes(aws) == before
    assert snapshot_keys(aws) == [first.key]


def test_a_change_is_published_and_only_the_current_and_previous_snapshots_stay(
    ix: SimpleNamespace, aws: SimpleNamespace, tmp_path: Path
) -> None:
    # Given three successive catalogs, each published
    keys = [rebuild(ix, aws, tmp_path).key]
    for price in (111, 222):
        aws.table.update_item(
            Key={"productId": "CMP-001"},
            UpdateExpression="SET price = :p",
            ExpressionAttributeValues={":p": Decimal(price)},
        )
        result = rebuild(ix, aws, tmp_path)
        assert result.published
        keys.append(result.key)

    # Then the newest is served, the one before it is still downloadable, and the
    # oldest is hidden (a noncurrent version the bucket's lifecycle rule expires)
    assert snapshot_keys(aws) == sorted(keys[1:])
    assert SnapshotPointer.from_json(pointer_bytes(aws)).key == keys[2]
    versions = aws.s3.list_object_versions(Bucket=BUCKET, Prefix=keys[0])
    assert versions.get("Versions") and versions.get("DeleteMarkers")
    hits = open_published(aws, tmp_path / "downloads").search(SearchQuery(productIds=("CMP-001",)))
    assert hits.products[0].price == 222


def test_a_failing_read_leaves_the_last_good_snapshot_published(
    ix: SimpleNamespace, aws: SimpleNamespace, tmp_path: Path
) -> None:
    rebuild(ix, aws, tmp_path)
    before = pointer_bytes(aws)

    with pytest.raises(CatalogUnavailable):
        rebuild(ix, aws, tmp_path, reader=BrokenReader())

    assert pointer_bytes(aws) == before
    assert open_published(aws, tmp_path / "downloads").meta.product_count == len(CATALOG)


def test_a_publish_cut_short_after_the_upload_never_points_at_the_new_snapshot(
    ix: SimpleNamespace, aws: SimpleNamespace, tmp_path: Path
) -> None:
    # Given a published snapshot, then a catalog change
    first = rebuild(ix, aws, tmp_path)
    aws.table.delete_item(Key={"productId": "CMP-001"})

    # When the new snapshot uploads but writing the pointer fails
    with pytest.raises(ClientError):
        rebuild(ix, aws, tmp_path, s3=PointerWriteFails(aws.s3))

    # Then readers are still sent to the previous, whole snapshot
    assert SnapshotPointer.from_json(pointer_bytes(aws)).version == first.version
    index = open_published(aws, tmp_path / "downloads")
    assert index.search(SearchQuery(productIds=("CMP-001",))).products

    # And the next successful run publishes the change and clears the orphan
    retried = rebuild(ix, aws, tmp_path)
    assert retried.published and retried.products == len(CATALOG) - 1
    assert snapshot_keys(aws) == sorted([first.key, retried.key])


def test_an_empty_catalog_is_refused_and_the_last_snapshot_stays(
    ix: SimpleNamespace, aws: SimpleNamespace, tmp_path: Path
) -> None:
    rebuild(ix, aws, tmp_path)
    before = pointer_bytes(aws)
    with aws.table.batch_writer() as batch:
        for product in CATALOG:
            batch.delete_item(Key={"productId": product["productId"]})

    with pytest.raises(ix.logic.EmptyCatalog):
        rebuild(ix, aws, tmp_path)

    assert pointer_bytes(aws) == before


def test_an_unreadable_pointer_is_replaced_by_the_next_publish(
    ix: SimpleNamespace, aws: SimpleNamespace, tmp_path: Path
) -> None:
    aws.s3.put_object(Bucket=BUCKET, Key=POINTER, Body=b"{not json")
    assert ix.logic.read_pointer(aws.s3, BUCKET, POINTER) is None


# -- sources -----------------------------------------------------------------------------


def test_the_parallel_scan_reads_every_product_once_as_json(
    ix: SimpleNamespace, aws: SimpleNamespace
) -> None:
    # More segments than some segments have items: empty ones are fine
    products = ix.sources.TableReader(aws.dynamodb, TABLE, segments=7).read_all()
    assert sorted(p["productId"] for p in products) == sorted(p["productId"] for p in CATALOG)
    zenbook = next(p for p in products if p["productId"] == "CMP-001")
    assert zenbook == next(p for p in CATALOG if p["productId"] == "CMP-001")
    assert isinstance(zenbook["stock"], int) and isinstance(zenbook["price"], float | int)


def test_a_missing_table_is_catalog_unavailable(ix: SimpleNamespace, aws: SimpleNamespace) -> None:
    with pytest.raises(CatalogUnavailable, match="ResourceNotFoundException"):
        ix.sources.TableReader(aws.dynamodb, "no-such-table").read_all()


def test_the_products_api_is_read_through_the_tools_adapter(ix: SimpleNamespace) -> None:
    with FakeHttpServer() as server:
        server.route("/products", body={"products": CATALOG})
        products = ix.sources.ProductsApiReader(server.base_url, 2.0).read_all()
        assert len(products) == len(CATALOG)
        assert "category" not in server.requests[0].query

        server.route("/products", status=503, body={"error": "down"})
        with pytest.raises(CatalogUnavailable):
            ix.sources.ProductsApiReader(server.base_url, 2.0).read_all()


@pytest.mark.parametrize(
    ("value", "plain"),
    [
        (Decimal("3"), 3),
        (Decimal("2.5"), 2.5),
        ({Decimal("2"), Decimal("1")}, [1, 2]),
        ({"a": [Decimal("1.0")]}, {"a": [1]}),
        ("x", "x"),
    ],
)
def test_table_values_become_json_values(ix: SimpleNamespace, value: Any, plain: Any) -> None:
    assert ix.sources.plain(value) == plain


# -- triggers ------------------------------------------------------------------------------

STREAM_BATCH = {
    "Records": [
        {
            "eventID": f"e{i}",
            "eventName": name,
            "eventSource": "aws:dynamodb",
            "awsRegion": REGION,
            "dynamodb": {
                "Keys": {"productId": {"S": f"CMP-00{i}"}},
                "SequenceNumber": f"{100 + i}",
                "ApproximateCreationDateTime": 1_790_000_000 + i,
                "StreamViewType": "KEYS_ONLY",
            },
        }
        for i, name in enumerate(["INSERT", "MODIFY", "REMOVE"])
    ]
}
SCHEDULED = {
    "version": "0",
    "id": "53dc4d37-cffa-4f76-80c9-8b7d4a4d2eaa",
    "detail-type": "Scheduled Event",
    "source": "aws.events",
    "account": "123456789012",
    "time": "2026-11-30T08:15:00Z",
    "region": REGION,
    "resources": ["arn:aws:events:us-east-1:123456789012:rule/reindex"],
    "detail": {},
}


def test_each_accepted_event_is_a_trigger(ix: SimpleNamespace) -> None:
    stream = ix.events.parse_trigger(STREAM_BATCH)
    assert (stream.kind, stream.changes, stream.wants_batch_response) == ("stream", 3, True)
    assert stream.oldest_change.timestamp() == 1_790_000_000
    assert ix.events.parse_trigger(SCHEDULED).kind == "schedule"
    request = ix.events.parse_trigger({"rebuild": True, "reason": "deploy"})
    assert (request.kind, request.reason, request.wants_batch_response) == (
        "request",
        "deploy",
        False,
    )


@pytest.mark.parametrize(
    "event",
    [
        {},
        {"rebuild": False},
        {"rebuild": True, "force": True},
        {"Records": []},
        {"Records": [{"eventSource": "aws:sqs"}]},
        {"detail-type": "Object Created", "source": "aws.s3"},
        [],
    ],
)
def test_anything_else_is_refused(ix: SimpleNamespace, event: Any) -> None:
    with pytest.raises(ix.events.InvalidTrigger):
        ix.events.parse_trigger(event)


# -- settings ------------------------------------------------------------------------------


def test_settings_agree_with_the_stack_and_fail_closed(ix: SimpleNamespace) -> None:
    Settings = ix.settings.Settings
    deployed = Settings.model_validate(
        {"CATALOG_TABLE_NAME": TABLE, "CATALOG_INDEX_BUCKET": BUCKET}
    )
    assert (deployed.prefix, deployed.pointer_key) == (PREFIX, POINTER)
    for broken in (
        {"CATALOG_TABLE_NAME": TABLE},  # no bucket
        {"CATALOG_INDEX_BUCKET": BUCKET},  # dynamodb without a table
        {"CATALOG_SOURCE": "http", "CATALOG_INDEX_BUCKET": BUCKET},  # http without a URL
        {
            "CATALOG_TABLE_NAME": TABLE,
            "CATALOG_INDEX_BUCKET": BUCKET,
            "CATALOG_INDEX_POINTER_KEY": "elsewhere/latest.json",
        },
    ):
        with pytest.raises(ValueError):
            Settings.model_validate(broken)


def test_the_registry_declares_the_indexer_beside_the_loop() -> None:
    assert registry.INDEX_CATALOG in registry.BACKGROUND
    assert registry.INDEX_CATALOG.key not in registry.functions_by_key()
    assert registry.INDEX_CATALOG.handler == "index_catalog.handler.lambda_handler"


# -- the Lambda handler ----------------------------------------------------------------------


@pytest.fixture
def deployed(
    ix: SimpleNamespace, aws: SimpleNamespace, monkeypatch: pytest.MonkeyPatch
) -> Iterator[dict[str, str]]:
    """The indexer's environment as the stack sets it, with metrics printed (EMF)."""
    monkeypatch.delenv("POWERTOOLS_DEV", raising=False)
    monkeypatch.setattr(metrics, "namespace", "Storechat/test")
    variables = {
        "AWS_REGION": REGION,
        "CATALOG_SOURCE": "dynamodb",
        "CATALOG_TABLE_NAME": TABLE,
        "CATALOG_INDEX_BUCKET": BUCKET,
        "CATALOG_INDEX_PREFIX": PREFIX,
        "CATALOG_INDEX_POINTER_KEY": POINTER,
        "POWERTOOLS_METRICS_DISABLED": "false",
    }
    with overriding(variables):
        _cold(ix)
        yield variables
        _cold(ix)


def _cold(ix: SimpleNamespace) -> None:
    ix.settings.get_settings.cache_clear()
    ix.handler.s3_client.cache_clear()
    ix.handler.catalog_reader.cache_clear()


def _emitted(stdout: str) -> dict[str, float]:
    values: dict[str, float] = {}
    for line in stdout.splitlines():
        if line.startswith("{") and "_aws" in line:
            document = json.loads(line)
            for definition in document["_aws"]["CloudWatchMetrics"][0]["Metrics"]:
                value = document[definition["Name"]]
                values[definition["Name"]] = sum(value) if isinstance(value, list) else value
    return values


@pytest.mark.usefixtures("deployed")
def test_a_stream_batch_publishes_answers_with_no_failed_items_and_meters(
    ix: SimpleNamespace, aws: SimpleNamespace, capsys: pytest.CaptureFixture[str]
) -> None:
    context = FakeContext(registry.INDEX_CATALOG)

    answer = ix.handler.lambda_handler(STREAM_BATCH, context)

    assert answer == {"batchItemFailures": []}
    assert SnapshotPointer.from_json(pointer_bytes(aws)).product_count == len(CATALOG)
    emitted = _emitted(capsys.readouterr().out)
    metric = ix.metrics.IndexMetric
    assert emitted[metric.BUILDS] == 1
    assert emitted[metric.PRODUCTS] == len(CATALOG)
    assert set(metric) <= set(emitted)


@pytest.mark.usefixtures("deployed")
def test_a_direct_rebuild_answers_with_what_it_published(
    ix: SimpleNamespace, aws: SimpleNamespace
) -> None:
    answer = ix.handler.lambda_handler(
        {"rebuild": True, "reason": "test"}, FakeContext(registry.INDEX_CATALOG)
    )
    assert answer["trigger"] == "request" and answer["published"] is True
    assert answer["key"] == SnapshotPointer.from_json(pointer_bytes(aws)).key


@pytest.mark.usefixtures("deployed")
@pytest.mark.filterwarnings("ignore:No application metrics to publish")
def test_a_failed_batch_raises_so_lambda_retries_it_and_the_pointer_stays(
    ix: SimpleNamespace, aws: SimpleNamespace, monkeypatch: pytest.MonkeyPatch
) -> None:
    ix.handler.lambda_handler(SCHEDULED, FakeContext(registry.INDEX_CATALOG))
    before = pointer_bytes(aws)
    monkeypatch.setattr(ix.sources.TableReader, "read_all", BrokenReader.read_all)

    with pytest.raises(CatalogUnavailable):
        ix.handler.lambda_handler(STREAM_BATCH, FakeContext(registry.INDEX_CATALOG))

    assert pointer_bytes(aws) == before


# -- a catalog that changes all day ----------------------------------------------------------


def _image(product: dict[str, Any]) -> dict[str, Any]:
    """A product as a stream record's image carries it (DynamoDB's attribute values)."""
    serialize = TypeSerializer().serialize
    item = json.loads(json.dumps(product), parse_float=Decimal)
    return {key: serialize(value) for key, value in item.items()}


def _stream(*changes: tuple[str, dict[str, Any] | None, dict[str, Any] | None]) -> dict[str, Any]:
    """A stream batch with both images, as a NEW_AND_OLD_IMAGES stream sends it."""
    records = []
    for i, (name, old, new) in enumerate(changes):
        change: dict[str, Any] = {
            "Keys": {"productId": {"S": (new or old or {})["productId"]}},
            "SequenceNumber": f"{200 + i}",
            "ApproximateCreationDateTime": 1_790_000_000 + i,
            "StreamViewType": "NEW_AND_OLD_IMAGES",
        }
        if old is not None:
            change["OldImage"] = _image(old)
        if new is not None:
            change["NewImage"] = _image(new)
        records.append(
            {
                "eventID": f"c{i}",
                "eventName": name,
                "eventSource": "aws:dynamodb",
                "dynamodb": change,
            }
        )
    return {"Records": records}


@pytest.mark.usefixtures("deployed")
def test_a_batch_of_price_and_stock_changes_reads_and_publishes_nothing(
    ix: SimpleNamespace,
    aws: SimpleNamespace,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    # Given a published snapshot
    context = FakeContext(registry.INDEX_CATALOG)
    ix.handler.lambda_handler({"rebuild": True}, context)
    before = pointer_bytes(aws)
    capsys.readouterr()
    reads: list[str] = []
    monkeypatch.setattr(ix.sources.TableReader, "read_all", lambda self: reads.append("scan"))
    # When a price drops and a book sells out in the table, and the stream says so
    laptop, book = CATALOG[0], next(p for p in CATALOG if p["category"] == "BOOKS")
    batch = _stream(
        ("MODIFY", laptop, laptop | {"price": laptop["price"] - 100}),
        ("MODIFY", book, book | {"stock": 0}),
    )
    answer = ix.handler.lambda_handler(batch, context)
    # Then the batch is done without reading the catalog or touching the snapshot
    assert answer == {"batchItemFailures": []}
    assert reads == [] and pointer_bytes(aws) == before
    emitted = _emitted(capsys.readouterr().out)
    assert emitted[ix.metrics.IndexMetric.FRESH_ONLY_CHANGES] == 2
    assert ix.metrics.IndexMetric.BUILDS not in emitted


@pytest.mark.parametrize(
    "change",
    ["renamed", "described", "new product", "deleted", "keys only"],
)
def test_a_change_to_what_is_searched_still_rebuilds(ix: SimpleNamespace, change: str) -> None:
    laptop = CATALOG[0]
    cheaper = ("MODIFY", laptop, laptop | {"price": 1.0})
    records = {
        "renamed": ("MODIFY", laptop, laptop | {"name": "Zenbook 14 OLED (2026)", "price": 1.0}),
        "described": ("MODIFY", laptop, laptop | {"description": "Now with a backlit keyboard."}),
        "new product": ("INSERT", None, laptop | {"productId": "CMP-999"}),
        "deleted": ("REMOVE", laptop, None),
    }
    # A stream that sends keys only cannot say what changed: it rebuilds, as before
    batch = STREAM_BATCH if change == "keys only" else _stream(cheaper, records[change])
    assert ix.events.parse_trigger(batch).needs_rebuild


@pytest.mark.usefixtures("deployed")
def test_a_renamed_product_is_searchable_by_its_new_name_after_its_batch(
    ix: SimpleNamespace, aws: SimpleNamespace, tmp_path: Path
) -> None:
    context = FakeContext(registry.INDEX_CATALOG)
    ix.handler.lambda_handler({"rebuild": True}, context)
    first = SnapshotPointer.from_json(pointer_bytes(aws))
    laptop = CATALOG[0]
    renamed = laptop | {"name": "Skylark Aurora 14"}
    put(aws.table, [renamed])
    ix.handler.lambda_handler(_stream(("MODIFY", laptop, renamed)), context)
    now = SnapshotPointer.from_json(pointer_bytes(aws))
    assert now.version != first.version
    hits = open_published(aws, tmp_path / "downloads").search(SearchQuery(keywords="skylark"))
    assert [h.productId for h in hits.products] == [laptop["productId"]]
