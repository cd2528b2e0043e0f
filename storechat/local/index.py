"""The catalog's search snapshot in a local system, published as the indexer publishes it.

Deployed, an indexer builds the snapshot from the catalog table and publishes it to
the index bucket; ``lookup_inventory`` reads it from there. Locally the runner seeds
the table, then calls :func:`seed_index` with the same products: the bucket is
created in moto and the snapshot published through the indexer's own
:func:`~shared.search.publish.publish_snapshot`. :func:`index_variables` gives the
catalog tool the bucket and a download folder of this system's own.
"""

from __future__ import annotations

import tempfile
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from botocore.exceptions import ClientError

from shared.search import SnapshotPointer
from shared.search.build import READ_FRESH
from shared.search.publish import pointer_key, publish_snapshot

INDEX_BUCKET = "storechat-catalog-index"
INDEX_PREFIX = "catalog-index/"


def index_variables(download_dir: str | Path, bucket: str = INDEX_BUCKET) -> dict[str, str]:
    """What ``lookup_inventory/settings.py`` reads to find the snapshot.

    ``download_dir`` should belong to this local system alone: a folder shared with
    another process would see its files replaced under it.
    """
    return {
        "CATALOG_INDEX_BUCKET": bucket,
        "CATALOG_INDEX_POINTER_KEY": pointer_key(INDEX_PREFIX),
        "CATALOG_INDEX_DIR": str(download_dir),
    }


def _ensure_bucket(s3_client: Any, bucket: str) -> None:
    try:
        s3_client.head_bucket(Bucket=bucket)
        return
    except ClientError as exc:
        if exc.response.get("Error", {}).get("Code") not in ("404", "NoSuchBucket", "NotFound"):
            raise
    region = s3_client.meta.region_name
    if region in (None, "us-east-1"):
        s3_client.create_bucket(Bucket=bucket)
    else:
        s3_client.create_bucket(
            Bucket=bucket, CreateBucketConfiguration={"LocationConstraint": region}
        )


def seed_index(
    s3_client: Any,
    bucket: str,
    products: Iterable[Mapping[str, Any]],
    *,
    work_dir: str | Path | None = None,
) -> SnapshotPointer:
    """Create ``bucket`` if needed and publish a snapshot of ``products`` to it.

    Call it after the catalog table is seeded, inside moto, with the same products.
    Publishing the same products again changes nothing, nor does a change of price or
    stock alone: the local catalog tool reads both from the table, as the deployed one.
    """
    _ensure_bucket(s3_client, bucket)
    with tempfile.TemporaryDirectory(prefix="storechat-index-build-") as scratch:
        return publish_snapshot(
            products,
            s3_client=s3_client,
            bucket=bucket,
            prefix=INDEX_PREFIX,
            work_dir=work_dir if work_dir is not None else scratch,
            fresh_fields=READ_FRESH,
        )
