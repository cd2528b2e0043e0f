"""Where the search snapshot comes from: the index bucket the indexer publishes to.

The indexer writes ``catalog-index/<version>.sqlite.gz`` (never changed once
written), then the pointer ``catalog-index/latest.json`` naming it
(:class:`~shared.search.SnapshotPointer`). :meth:`S3Snapshots.fetch_latest` reads
the pointer and, when it names a version other than the one in use, downloads
that object to ``work_dir`` (whole or not at all), checking its size and SHA-256
against the pointer as it is written. The caller,
:class:`~shared.search.SnapshotHolder`, opens it and checks what it says it is
before serving it.

Every failure is a :class:`~shared.runtime.errors.CatalogUnavailable`: at a cold start the
tool answers "catalog unavailable"; later the holder keeps the snapshot it has.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import boto3
from botocore.config import Config
from botocore.exceptions import BotoCoreError, ClientError

from shared.runtime.errors import CatalogUnavailable, FailureKind
from shared.search import (
    CatalogNotIndexedYet,
    SnapshotFile,
    SnapshotPointer,
    SnapshotUnreadable,
    store_snapshot,
)

CLIENT_CONFIG = Config(
    connect_timeout=1,
    read_timeout=3,
    retries={"mode": "standard", "max_attempts": 2},
)
"""Fail fast on the small pointer; ``read_timeout`` bounds each read of a download, not
the whole of it."""

_MISSING = ("NoSuchKey", "404", "NotFound")


class SnapshotFetchFailed(CatalogUnavailable):
    """The index bucket could not be read (permissions, throttling, network)."""

    def __init__(self, detail: str) -> None:
        super().__init__(FailureKind.UNAVAILABLE, detail)


def s3_client_factory(region: str | None) -> Callable[[], Any]:
    """Builds the S3 client the Lambda reads the index bucket with."""

    def build() -> Any:
        return boto3.client("s3", region_name=region, config=CLIENT_CONFIG)

    return build


class S3Snapshots:
    """The latest published snapshot, as :class:`~shared.search.SnapshotHolder` asks for it.

    The client is built on first use, under a lock. Downloads go to ``work_dir`` (the
    Lambda's ``/tmp``); before a download, files of versions no longer in use are
    deleted, so a container keeps at most two: the one in use and the one coming.
    """

    def __init__(
        self,
        client_factory: Callable[[], Any],
        bucket: str,
        pointer_key: str,
        work_dir: str | Path,
        *,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self._client_factory = client_factory
        self._clock = clock
        self._client: Any = None
        self._lock = threading.Lock()
        self.bucket = bucket
        self.pointer_key = pointer_key
        self.work_dir = Path(work_dir)

    def _s3(self) -> Any:
        if self._client is None:
            with self._lock:
                if self._client is None:
                    self._client = self._client_factory()
        return self._client

    def pointer(self) -> SnapshotPointer:
        """The pointer as published now; :class:`CatalogNotIndexedYet` before the first."""
        try:
            body = self._get(self.pointer_key, "no snapshot has been published").read()
        except SnapshotUnreadable as exc:
            raise CatalogNotIndexedYet(str(exc.detail)) from exc
        return SnapshotPointer.from_json(body)

    def fetch_latest(
        self, current_version: str | None, deadline: float | None = None
    ) -> SnapshotFile | None:
        """The published snapshot, downloaded, if it is not ``current_version``; else None.

        A ``deadline`` (``clock()`` time, ``time.monotonic()`` by default) stops a
        download that runs past it (:class:`~shared.search.SnapshotDeferred`).
        """
        pointer = self.pointer()
        if pointer.version == current_version:
            return None
        # Files of versions no longer in use, and downloads a timed-out invocation left
        # half done, go first: /tmp holds the snapshot in use and this download only.
        self._forget_old(keep={f"{current_version}.sqlite"})
        stream = self._get(pointer.key, f"snapshot {pointer.version} is missing")
        try:
            path = store_snapshot(
                stream,
                self.work_dir,
                pointer.version,
                encoding=pointer.encoding,
                sha256=pointer.sha256,
                size=pointer.size,
                deadline=deadline,
                clock=self._clock,
            )
        except BotoCoreError as exc:  # the connection broke mid-download
            raise SnapshotFetchFailed(f"{pointer.key}: {type(exc).__name__}") from exc
        finally:
            stream.close()
        return SnapshotFile(
            pointer.version, path, sha256=pointer.sha256, size=pointer.size, verified=True
        )

    def _get(self, key: str, missing: str) -> Any:
        """The body of ``key`` in the bucket, as a stream."""
        try:
            return self._s3().get_object(Bucket=self.bucket, Key=key)["Body"]
        except ClientError as exc:
            code = str(exc.response.get("Error", {}).get("Code", "error"))
            if code in _MISSING:
                raise SnapshotUnreadable(f"{missing} ({key})") from exc
            raise SnapshotFetchFailed(f"index bucket: {code}") from exc
        except BotoCoreError as exc:
            raise SnapshotFetchFailed(f"index bucket: {type(exc).__name__}") from exc

    def _forget_old(self, keep: set[str]) -> None:
        """Delete downloaded versions other than ``keep``, and downloads a timed-out
        invocation left half done. A file a search still has open stays readable until
        it is closed. The holder refreshes one snapshot at a time, so no other download
        of this container is under way."""
        if not self.work_dir.is_dir():
            return
        for old in [*self.work_dir.glob("*.sqlite"), *self.work_dir.glob(".*.part")]:
            if old.name not in keep:
                old.unlink(missing_ok=True)
