"""Rebuild the search snapshot from the source of truth, publish it, prune superseded ones.

Every trigger but one rebuilds the whole snapshot: read the entire catalog (a
parallel Scan of the table, or the Products API), build, and hand it to
:func:`shared.search.publish.publish_snapshot`, which uploads the snapshot under a new
key and only then rewrites the pointer (``<prefix>latest.json``), and skips both when
the catalog is unchanged (price and stock aside, when the catalog tool reads them
from the table). A reader following the pointer finds the previous snapshot or the
new one, whole. The exception: a stream batch whose every change is to price or
stock alone (:attr:`~index_catalog.events.Trigger.needs_rebuild`) reads nothing and
publishes nothing, so a store whose prices and stock change all day rebuilds only
when what is searched changes.

Why a full rebuild per stream batch, not an incremental update: it is simple and it
cannot drift. Each run reads the truth, so a batch that was dropped after its retries
(it lands in the failure queue) is healed by the next successful run, and order,
duplicates and retries of stream records do not matter. The stream's batching window
coalesces a burst of writes into one rebuild, and the function's reserved concurrency
of 1 keeps two rebuilds from racing on the pointer.

Its limit is cost at scale under constant writes to what is searched: a
200,000-product catalog takes about 15 s to build (plus the Scan), and every batching
window that saw such a write pays one full Scan (strongly consistent) and one build.
At one rebuild per 30 s window that is roughly 2,900 Scans of the whole table a day.
A larger window (up to 300 s) divides that; past it, the next step is an incremental
build that applies the batch's changes to the previous snapshot.

A run either publishes (or finds nothing changed) or raises: the stream batch is then
retried whole, the scheduled or direct invoke is retried by Lambda, and the last good
snapshot keeps being served meanwhile.
"""

from __future__ import annotations

import tempfile
import time
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Annotated, Any, Protocol

from botocore.exceptions import BotoCoreError, ClientError
from pydantic import BaseModel, Field

from index_catalog.events import Trigger, TriggerKind
from index_catalog.metrics import IndexMetric
from index_catalog.sources import CatalogReader, Product
from shared.runtime.observability import MetricUnit, logger, metrics
from shared.search import SnapshotPointer, SnapshotUnreadable

SNAPSHOT_SUFFIX = ".sqlite.gz"


class Publisher(Protocol):
    """``shared.search.publish.publish_snapshot``'s signature."""

    def __call__(
        self,
        products: list[Product],
        *,
        s3_client: Any,
        bucket: str,
        prefix: str = ...,
        work_dir: Path,
        fresh_fields: tuple[str, ...] = ...,
    ) -> SnapshotPointer: ...


class EmptyCatalog(RuntimeError):
    """The source returned no products; publishing that would make every search come up empty.

    A store without products has nothing to search, and a source that suddenly answers
    with nothing (an API returning ``[]``, a table emptied by mistake) is far likelier:
    the last good snapshot stays published and the run fails, which raises the alarm.
    """


class RebuildResult(BaseModel):
    """What one run did: the returned value of a scheduled or direct invoke, and its log."""

    trigger: TriggerKind
    version: str
    key: str
    products: Annotated[int, Field(ge=0)]
    published: bool
    """False when the catalog was unchanged and the previous snapshot stays current."""
    build_ms: Annotated[int, Field(ge=0)]
    snapshot_age_s: float | None
    """Seconds since the snapshot now published was built (None if its time is unreadable)."""
    pruned: Annotated[int, Field(ge=0)] = 0


def read_pointer(s3_client: Any, bucket: str, key: str) -> SnapshotPointer | None:
    """The published pointer, or None before the first publish (or if it is unreadable).

    A missing pointer is a 404 only for a caller that may list the bucket; without
    s3:ListBucket S3 answers 403, which is raised like any other failure.
    """
    try:
        body = s3_client.get_object(Bucket=bucket, Key=key)["Body"].read()
    except ClientError as exc:
        if exc.response.get("Error", {}).get("Code") in ("NoSuchKey", "404", "NotFound"):
            return None
        raise
    try:
        return SnapshotPointer.from_json(body)
    except SnapshotUnreadable as exc:
        # The next publish replaces it; nothing can be served from it meanwhile.
        logger.warning("the published pointer is unreadable", extra={"detail": exc.detail})
        return None


def snapshot_age_s(pointer: SnapshotPointer, now: datetime) -> float | None:
    try:
        built = datetime.fromisoformat(pointer.built_at.replace("Z", "+00:00"))
    except ValueError:
        return None
    if built.tzinfo is None:
        built = built.replace(tzinfo=UTC)
    return max(0.0, (now - built).total_seconds())


def _full_key(key: str, prefix: str) -> str:
    return key if key.startswith(prefix) else prefix + key


def prune(s3_client: Any, bucket: str, prefix: str, keep: set[str]) -> int:
    """Delete every snapshot object directly under ``prefix`` except ``keep``.

    The bucket is versioned: a delete only hides the object, and the bucket's lifecycle
    rule removes the hidden version after a few days (time to roll back by hand). The
    previous snapshot is kept as well as the current one, so a Lambda that read the old
    pointer a moment ago can still download what it names. A failure here is logged
    and left for the next run: the snapshot is already published.
    """
    try:
        stale = [
            item["Key"]
            for page in s3_client.get_paginator("list_objects_v2").paginate(
                Bucket=bucket, Prefix=prefix, Delimiter="/"
            )
            for item in page.get("Contents", [])
            if item["Key"].endswith(SNAPSHOT_SUFFIX) and item["Key"] not in keep
        ]
        for start in range(0, len(stale), 1000):  # DeleteObjects takes 1,000 keys at most
            chunk = stale[start : start + 1000]
            s3_client.delete_objects(
                Bucket=bucket,
                Delete={"Objects": [{"Key": key} for key in chunk], "Quiet": True},
            )
    except (ClientError, BotoCoreError) as exc:
        logger.warning("superseded snapshots were not pruned", extra={"error": str(exc)})
        return 0
    return len(stale)


def rebuild(
    trigger: Trigger,
    *,
    reader: CatalogReader,
    publish: Publisher,
    s3_client: Any,
    bucket: str,
    prefix: str,
    pointer_key: str,
    fresh_fields: tuple[str, ...] = (),
    work_root: str | None = None,
    now: Callable[[], datetime] = lambda: datetime.now(UTC),
    clock: Callable[[], float] = time.perf_counter,
) -> RebuildResult:
    """Rebuild from ``reader`` and publish; raises (and publishes nothing) on any failure."""
    started = clock()
    previous = read_pointer(s3_client, bucket, pointer_key)
    products = reader.read_all()
    if not products:
        raise EmptyCatalog("the catalog source returned no products; nothing was published")
    with tempfile.TemporaryDirectory(prefix="catalog-index-", dir=work_root) as work:
        pointer = publish(
            products,
            s3_client=s3_client,
            bucket=bucket,
            prefix=prefix,
            work_dir=Path(work),
            fresh_fields=fresh_fields,
        )
    published = previous is None or pointer.version != previous.version
    pruned = 0
    if published:
        keep = {_full_key(pointer.key, prefix)}
        if previous is not None:
            keep.add(_full_key(previous.key, prefix))
        pruned = prune(s3_client, bucket, prefix, keep)
    return RebuildResult(
        trigger=trigger.kind,
        version=pointer.version,
        key=pointer.key,
        products=pointer.product_count,
        published=published,
        build_ms=round((clock() - started) * 1000),
        snapshot_age_s=snapshot_age_s(pointer, now()),
        pruned=pruned,
    )


def record_fresh_only(trigger: Trigger) -> None:
    """Metrics and a log line for a stream batch of price and stock changes alone."""
    metrics.add_metric(
        name=IndexMetric.FRESH_ONLY_CHANGES, unit=MetricUnit.Count, value=trigger.fresh_only_changes
    )
    if not trigger.needs_rebuild:
        logger.info(
            "price and stock changes only: read fresh, the snapshot stays",
            extra={"changes": trigger.changes},
        )


def record_rebuild(result: RebuildResult) -> None:
    """Metrics and a log line for a run that succeeded."""
    metrics.add_metric(name=IndexMetric.BUILDS, unit=MetricUnit.Count, value=1)
    metrics.add_metric(
        name=IndexMetric.BUILD_MS, unit=MetricUnit.Milliseconds, value=result.build_ms
    )
    metrics.add_metric(name=IndexMetric.PRODUCTS, unit=MetricUnit.Count, value=result.products)
    if result.snapshot_age_s is not None:
        metrics.add_metric(
            name=IndexMetric.SNAPSHOT_AGE, unit=MetricUnit.Seconds, value=result.snapshot_age_s
        )
    logger.info("catalog index current", extra=result.model_dump())
