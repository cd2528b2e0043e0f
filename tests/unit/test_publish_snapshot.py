"""Publishing the search snapshot to S3: the snapshot object first, then the pointer, never
half of one, and nothing when the catalog has not changed."""

from __future__ import annotations

import gzip
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import boto3
import pytest
from moto import mock_aws

from shared.products.catalog_data import load_catalog
from shared.search import SearchIndex, SearchQuery, SnapshotPointer, validate_snapshot
from shared.search.build import FACET_COLUMNS, READ_FRESH
from shared.search.publish import DIGEST_KEY, FACETS_KEY, FORMAT_KEY, publish_snapshot

BUCKET = "storechat-test-index"
POINTER = "catalog-index/latest.json"
CATALOG = load_catalog()


@pytest.fixture
def s3() -> Iterator[Any]:
    with mock_aws():
        client = boto3.client("s3", region_name="us-east-1")
        client.create_bucket(Bucket=BUCKET)
        yield client


def publish(s3: Any, tmp_path: Path, products: list[dict[str, Any]]) -> SnapshotPointer:
    return publish_snapshot(products, s3_client=s3, bucket=BUCKET, work_dir=tmp_path / "work")


def keys(s3: Any) -> list[str]:
    listed = s3.list_objects_v2(Bucket=BUCKET).get("Contents", [])
    return sorted(item["Key"] for item in listed)


def published_pointer(s3: Any) -> SnapshotPointer:
    return SnapshotPointer.from_json(s3.get_object(Bucket=BUCKET, Key=POINTER)["Body"].read())


def test_a_snapshot_is_uploaded_then_the_pointer_names_it(s3: Any, tmp_path: Path) -> None:
    # When the catalog is published
    pointer = publish(s3, tmp_path, CATALOG)
    # Then a versioned, gzipped snapshot and the pointer to it are in the bucket
    assert keys(s3) == sorted([pointer.key, POINTER])
    assert pointer.key == f"catalog-index/{pointer.version}.sqlite.gz"
    assert published_pointer(s3) == pointer
    assert pointer.product_count == len(CATALOG) and pointer.encoding == "gzip"
    # And the object is the snapshot the pointer describes, searchable
    data = s3.get_object(Bucket=BUCKET, Key=pointer.key)
    file = tmp_path / "downloaded.sqlite"
    file.write_bytes(gzip.decompress(data["Body"].read()))
    meta = validate_snapshot(
        file, version=pointer.version, sha256=pointer.sha256, size=pointer.size
    )
    assert meta.product_count == len(CATALOG)
    assert data["Metadata"][DIGEST_KEY] == meta.source_digest
    opened = SearchIndex.open(file)
    try:
        assert opened.search(SearchQuery(keywords="laptop for video editing")).products
    finally:
        opened.close()
    # And the work folder is left empty
    assert list((tmp_path / "work").iterdir()) == []


def test_an_unchanged_catalog_is_not_published_again(s3: Any, tmp_path: Path) -> None:
    # Given a published catalog
    first = publish(s3, tmp_path, CATALOG)
    written = s3.head_object(Bucket=BUCKET, Key=POINTER)["LastModified"]
    # When the same records are published again, in another order
    again = publish(s3, tmp_path, list(reversed(CATALOG)))
    # Then nothing was uploaded: the current pointer stands
    assert again == first
    assert keys(s3) == sorted([first.key, POINTER])
    assert s3.head_object(Bucket=BUCKET, Key=POINTER)["LastModified"] == written


def test_a_changed_catalog_gets_a_new_snapshot_and_the_old_one_stays(
    s3: Any, tmp_path: Path
) -> None:
    first = publish(s3, tmp_path, CATALOG)
    changed = [dict(p, price=p["price"] + 1) if p["productId"] == "CMP-001" else p for p in CATALOG]
    second = publish(s3, tmp_path, changed)
    assert second.version != first.version and second.key != first.key
    assert published_pointer(s3) == second
    assert keys(s3) == sorted([first.key, second.key, POINTER])


def repriced(products: list[dict[str, Any]], **changes: Any) -> list[dict[str, Any]]:
    """The catalog with every tenth product's fields changed as ``changes`` say."""
    return [p | changes if i % 10 == 0 else p for i, p in enumerate(products)]


def test_for_a_reader_of_the_table_a_price_or_stock_change_keeps_the_snapshot(
    s3: Any, tmp_path: Path
) -> None:
    # Given a snapshot published for a catalog tool that reads price and stock fresh
    first = publish_snapshot(
        CATALOG, s3_client=s3, bucket=BUCKET, work_dir=tmp_path, fresh_fields=READ_FRESH
    )
    # When prices and stock change, and nothing else
    for changed in (repriced(CATALOG, price=1.5), repriced(CATALOG, stock=0)):
        again = publish_snapshot(
            changed, s3_client=s3, bucket=BUCKET, work_dir=tmp_path, fresh_fields=READ_FRESH
        )
        # Then the snapshot and its version stay: nothing is uploaded
        assert again == first and keys(s3) == sorted([first.key, POINTER])
    # And a change to what is searched publishes a new one, with the current prices
    renamed = [p | {"name": f"{p['name']} (2026)"} for p in repriced(CATALOG, price=1.5)]
    newer = publish_snapshot(
        renamed, s3_client=s3, bucket=BUCKET, work_dir=tmp_path, fresh_fields=READ_FRESH
    )
    assert newer.version != first.version and published_pointer(s3) == newer


def test_for_a_products_api_a_price_change_is_a_new_snapshot(s3: Any, tmp_path: Path) -> None:
    # The tool then shows the snapshot's own prices: they must be current
    first = publish(s3, tmp_path, CATALOG)
    again = publish(s3, tmp_path, repriced(CATALOG, price=1.5))
    assert again.version != first.version and published_pointer(s3) == again


def test_a_snapshot_of_another_format_is_replaced_even_from_the_same_records(
    s3: Any, tmp_path: Path
) -> None:
    # Given a pointer written by an indexer of another snapshot format
    first = publish(s3, tmp_path, CATALOG)
    metadata = s3.head_object(Bucket=BUCKET, Key=POINTER)["Metadata"]
    s3.put_object(
        Bucket=BUCKET,
        Key=POINTER,
        Body=first.to_json().encode(),
        Metadata={**metadata, FORMAT_KEY: "0"},
    )
    # When the same records are published
    second = publish(s3, tmp_path, CATALOG)
    # Then the snapshot is rebuilt in this format and pointed at
    assert published_pointer(s3) == second
    assert s3.head_object(Bucket=BUCKET, Key=POINTER)["Metadata"][FORMAT_KEY] != "0"


def test_a_snapshot_with_other_facets_is_replaced_even_from_the_same_records(
    s3: Any, tmp_path: Path
) -> None:
    # Given a pointer written by an indexer that declared one facet fewer
    first = publish(s3, tmp_path, CATALOG)
    metadata = s3.head_object(Bucket=BUCKET, Key=POINTER)["Metadata"]
    fewer = ",".join(FACET_COLUMNS[:-1])
    s3.put_object(
        Bucket=BUCKET,
        Key=POINTER,
        Body=first.to_json().encode(),
        Metadata={**metadata, FACETS_KEY: fewer},
    )
    # When the same records are published by this code
    second = publish(s3, tmp_path, CATALOG)
    # Then the snapshot is built again, with this code's facets, and pointed at
    assert published_pointer(s3) == second
    published = s3.head_object(Bucket=BUCKET, Key=POINTER)["Metadata"]
    assert published[FACETS_KEY] == ",".join(FACET_COLUMNS)


def test_an_unreadable_pointer_is_replaced(s3: Any, tmp_path: Path) -> None:
    s3.put_object(Bucket=BUCKET, Key=POINTER, Body=b"{not json")
    pointer = publish(s3, tmp_path, CATALOG)
    assert published_pointer(s3) == pointer


def test_the_pointer_is_not_moved_when_the_upload_fails(s3: Any, tmp_path: Path) -> None:
    # Given a published catalog, and a bucket that refuses the next snapshot object
    first = publish(s3, tmp_path, CATALOG)

    def refuse(params: dict[str, Any], **_: Any) -> None:
        if params.get("Key", "").endswith(".sqlite.gz"):
            raise ConnectionResetError("upload interrupted")

    s3.meta.events.register("before-parameter-build.s3.PutObject", refuse)
    changed = [p for p in CATALOG if p["productId"] != "CMP-001"]
    # When a changed catalog is published
    with pytest.raises(Exception, match="upload interrupted"):
        publish(s3, tmp_path, changed)
    # Then readers still follow the pointer to the previous, whole snapshot
    assert published_pointer(s3) == first
    assert keys(s3) == sorted([first.key, POINTER])


def test_a_snapshot_built_later_by_another_publisher_is_not_replaced(
    s3: Any, tmp_path: Path
) -> None:
    # Given a pointer another publisher wrote to a snapshot built after this one starts
    later = SnapshotPointer(
        version="29990101T000000Z-later",
        key="catalog-index/29990101T000000Z-later.sqlite.gz",
        sha256="0" * 64,
        size=1,
        product_count=1,
        built_at="2999-01-01T00:00:00Z",
    )
    s3.put_object(Bucket=BUCKET, Key=POINTER, Body=later.to_json().encode())
    # When this publisher finishes
    returned = publish(s3, tmp_path, CATALOG)
    # Then the newer pointer stands, and is what it returns
    assert returned == later and published_pointer(s3) == later


def test_the_pointer_document_is_the_snapshot_pointer_format(s3: Any, tmp_path: Path) -> None:
    publish(s3, tmp_path, CATALOG)
    pointer = s3.get_object(Bucket=BUCKET, Key=POINTER)
    assert pointer["ContentType"] == "application/json"
    assert set(json.loads(pointer["Body"].read())) == {
        "version",
        "key",
        "sha256",
        "size",
        "product_count",
        "built_at",
        "encoding",
    }
