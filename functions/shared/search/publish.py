"""Publish a catalog as a search snapshot in S3, so that no reader ever sees half of one.

Layout under ``prefix`` (``catalog-index/`` by default):

* ``<version>.sqlite.gz``: one object per snapshot, written once, never changed;
* ``latest.json``: the :class:`~shared.search.SnapshotPointer` to the current one,
  written only after its snapshot object was uploaded whole.

A reader follows the pointer, so it finds the previous snapshot or the new one.
Both objects carry the digest of the records the snapshot was built from (S3 user
metadata ``source-digest``, with ``format-version``, the ``facets`` it has columns for
and the ``fresh-fields`` left out of the digest): a catalog that has not changed since
the current snapshot is not uploaded again, nor one whose only changes are to fields its
reader reads fresh (price and stock, :data:`~shared.search.build.READ_FRESH`). A facet
declared since then is a change: the snapshot is built again with its column.

The indexer (DynamoDB Streams, or a schedule for a store's Products API) and the
local runner both publish through :func:`publish_snapshot`. Failures of S3 are
raised as botocore raises them, for the caller to retry.
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Collection, Iterable, Mapping
from pathlib import Path
from typing import Any

from botocore.exceptions import ClientError

from shared.search.build import FACET_COLUMNS, FORMAT_VERSION, build_index
from shared.search.errors import SnapshotUnreadable
from shared.search.snapshot import SnapshotPointer, pack_snapshot

POINTER_NAME = "latest.json"
DIGEST_KEY = "source-digest"
FORMAT_KEY = "format-version"
FACETS_KEY = "facets"
FRESH_KEY = "fresh-fields"


def pointer_key(prefix: str = "catalog-index/") -> str:
    """The key of the pointer object under ``prefix``."""
    return f"{prefix}{POINTER_NAME}"


def current_pointer(
    s3_client: Any, bucket: str, key: str
) -> tuple[SnapshotPointer, dict[str, str]] | None:
    """The published pointer and its metadata, or None when nothing is published yet or
    the pointer is unreadable (no reader can use it: the next publish replaces it)."""
    try:
        answer = s3_client.get_object(Bucket=bucket, Key=key)
    except ClientError as exc:
        if exc.response.get("Error", {}).get("Code") in ("NoSuchKey", "404", "NotFound"):
            return None
        raise
    metadata = {str(k).lower(): str(v) for k, v in (answer.get("Metadata") or {}).items()}
    try:
        return SnapshotPointer.from_json(answer["Body"].read()), metadata
    except SnapshotUnreadable:
        return None


def _metadata(digest: str, fresh_fields: Collection[str]) -> dict[str, str]:
    return {
        DIGEST_KEY: digest,
        FORMAT_KEY: str(FORMAT_VERSION),
        FACETS_KEY: ",".join(FACET_COLUMNS),
        FRESH_KEY: ",".join(sorted(fresh_fields)),
    }


def _same_source(
    current: tuple[SnapshotPointer, dict[str, str]] | None, wanted: dict[str, str]
) -> bool:
    if current is None:
        return False
    metadata = current[1]
    return all(metadata.get(key, "") == value for key, value in wanted.items())


def publish_snapshot(
    products: Iterable[Mapping[str, Any]],
    *,
    s3_client: Any,
    bucket: str,
    prefix: str = "catalog-index/",
    work_dir: str | os.PathLike[str],
    fresh_fields: Collection[str] = (),
) -> SnapshotPointer:
    """Build a snapshot of ``products``, upload it, then point ``latest.json`` at it.

    Returns the pointer in force afterwards: the new one, or the current one when it
    was built from the same records (``fresh_fields`` aside: see
    :func:`~shared.search.build.build_index`), or when another publisher pointed at a
    snapshot built later than this one while this one was uploading.
    """
    key_of_pointer = pointer_key(prefix)
    Path(work_dir).mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="snapshot-", dir=work_dir) as scratch:
        built = build_index(products, Path(scratch) / "snapshot.sqlite", fresh_fields=fresh_fields)
        metadata = _metadata(built.source_digest, fresh_fields)
        current = current_pointer(s3_client, bucket, key_of_pointer)
        if current is not None and _same_source(current, metadata):
            return current[0]
        key = f"{prefix}{built.version}.sqlite.gz"
        pointer = SnapshotPointer.for_file(built.path, key, encoding="gzip")
        packed = pack_snapshot(built.path, Path(scratch) / "snapshot.sqlite.gz")
        s3_client.upload_file(
            str(packed),
            bucket,
            key,
            ExtraArgs={"ContentType": "application/gzip", "Metadata": metadata},
        )
        # Publishers may overlap (two stream batches): a snapshot built later must not be
        # replaced by this older one. Build times are UTC ISO stamps, so text order is
        # time order.
        latest = current_pointer(s3_client, bucket, key_of_pointer)
        if latest is not None and latest[0].built_at > pointer.built_at:
            return latest[0]
        s3_client.put_object(
            Bucket=bucket,
            Key=key_of_pointer,
            Body=pointer.to_json().encode("utf-8"),
            ContentType="application/json",
            CacheControl="no-cache",
            Metadata=metadata,
        )
    return pointer
