"""Serve only snapshots that open, and swap in newer ones without stopping searches.

The indexer publishes a snapshot as a new, versioned object, then points a
small pointer document (:class:`SnapshotPointer`) at it: a reader that follows
the pointer finds a whole file or the previous one. A Lambda downloads the file
it points to (to a temporary name, renamed when complete), then
:func:`open_snapshot` checks it before it serves a single search: size and
SHA-256 if the pointer gave them, that SQLite opens it, that its metadata row
names the expected version and a format this code reads, and
``PRAGMA quick_check``. Anything wrong raises :class:`SnapshotUnreadable` (a
:class:`~shared.errors.CatalogUnavailable`: the tool answers "catalog
unavailable").

:class:`SnapshotHolder` keeps the snapshot in use. At a cold start it loads the
latest; after that it asks for a newer one at most every ``check_every_s``; a
newer one that fails to load is reported and skipped, and the old one keeps
serving. Fetching is the caller's (S3, a local folder, a test), through
``fetch_latest``.
"""

from __future__ import annotations

import gzip
import hashlib
import io
import json
import os
import shutil
import threading
import time
import uuid
from collections.abc import Callable
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import BinaryIO, Literal

from shared.search.build import READABLE_FORMATS, SnapshotMeta, read_meta
from shared.search.driver import connect, database_errors, read_only_uri
from shared.search.engine import SearchIndex
from shared.search.errors import SnapshotUnreadable

Encoding = Literal["gzip", "identity"]


@dataclass(frozen=True)
class SnapshotPointer:
    """The small document that names the current snapshot object.

    ``sha256`` and ``size`` are those of the snapshot file as it is opened (after
    gunzipping when ``encoding`` is ``gzip``): what :func:`validate_snapshot` checks.
    """

    version: str
    key: str
    sha256: str
    size: int
    product_count: int
    built_at: str
    encoding: Encoding = "gzip"

    def to_json(self) -> str:
        return json.dumps(asdict(self), sort_keys=True)

    @classmethod
    def from_json(cls, text: str | bytes) -> SnapshotPointer:
        try:
            data = json.loads(text)
            encoding = data.get("encoding", "identity")
            if encoding not in ("gzip", "identity"):
                raise ValueError(f"unknown encoding {encoding!r}")
            return cls(
                version=str(data["version"]),
                key=str(data["key"]),
                sha256=str(data["sha256"]),
                size=int(data["size"]),
                product_count=int(data["product_count"]),
                built_at=str(data["built_at"]),
                encoding=encoding,
            )
        except (ValueError, KeyError, TypeError, AttributeError) as exc:
            raise SnapshotUnreadable(f"snapshot pointer: {exc}") from exc

    @classmethod
    def for_file(
        cls, path: str | os.PathLike[str], key: str, encoding: Encoding = "gzip"
    ) -> SnapshotPointer:
        """The pointer to publish for the snapshot file ``path``, uploaded under ``key``."""
        file = Path(path)
        meta = validate_snapshot(file)
        return cls(
            version=meta.version,
            key=key,
            sha256=file_sha256(file),
            size=file.stat().st_size,
            product_count=meta.product_count,
            built_at=meta.built_at,
            encoding=encoding,
        )


@dataclass(frozen=True)
class SnapshotFile:
    """A downloaded snapshot, as ``fetch_latest`` hands it over."""

    version: str
    path: Path
    sha256: str | None = None
    size: int | None = None


def file_sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def validate_snapshot(
    path: str | os.PathLike[str],
    *,
    version: str | None = None,
    sha256: str | None = None,
    size: int | None = None,
) -> SnapshotMeta:
    """Check a snapshot file before serving it; its metadata, or :class:`SnapshotUnreadable`."""
    file = Path(path)
    try:
        actual_size = file.stat().st_size
    except OSError as exc:
        raise SnapshotUnreadable(f"{file.name}: {exc.strerror or exc}") from exc
    if size is not None and actual_size != size:
        raise SnapshotUnreadable(f"{file.name}: {actual_size} bytes, expected {size}")
    if sha256 is not None and file_sha256(file) != sha256:
        raise SnapshotUnreadable(f"{file.name}: SHA-256 does not match the pointer")
    connection = None
    try:
        connection = connect(read_only_uri(file))
        meta = read_meta(connection)
        checked = [row[0] for row in connection.execute("PRAGMA quick_check")]
    except database_errors(LookupError, ValueError) as exc:  # no or a malformed meta row
        raise SnapshotUnreadable(f"{file.name}: {exc}") from exc
    finally:
        if connection is not None:
            connection.close()
    if checked != ["ok"]:
        raise SnapshotUnreadable(f"{file.name}: quick_check: {'; '.join(checked[:3])}")
    if meta.format_version not in READABLE_FORMATS:
        raise SnapshotUnreadable(
            f"{file.name}: format {meta.format_version}, this code reads"
            f" {', '.join(map(str, sorted(READABLE_FORMATS)))}"
        )
    if version is not None and meta.version != version:
        raise SnapshotUnreadable(f"{file.name}: holds version {meta.version}, expected {version}")
    return meta


def open_snapshot(snapshot: SnapshotFile) -> SearchIndex:
    """Validate ``snapshot`` and open it for searching."""
    validate_snapshot(
        snapshot.path, version=snapshot.version, sha256=snapshot.sha256, size=snapshot.size
    )
    return SearchIndex.open(snapshot.path)


def pack_snapshot(path: str | os.PathLike[str], out: str | os.PathLike[str]) -> Path:
    """Gzip a snapshot for upload: a fraction of the bytes to download at a cold start."""
    target = Path(out)
    with Path(path).open("rb") as source, gzip.open(target, "wb", compresslevel=6) as packed:
        shutil.copyfileobj(source, packed, 1 << 20)
    return target


def store_snapshot(
    source: bytes | BinaryIO,
    directory: str | os.PathLike[str],
    version: str,
    *,
    encoding: Encoding = "identity",
) -> Path:
    """Store a downloaded snapshot (bytes or a stream, gzipped or not) as
    ``<directory>/<version>.sqlite``, whole or not at all."""
    if not version or any(c in version for c in "/\\\0") or version.startswith("."):
        raise SnapshotUnreadable(f"unusable snapshot version {version!r}")
    folder = Path(directory)
    folder.mkdir(parents=True, exist_ok=True)
    target = folder / f"{version}.sqlite"
    temporary = folder / f".{version}.{uuid.uuid4().hex}.part"
    stream: BinaryIO = io.BytesIO(source) if isinstance(source, bytes) else source
    try:
        with temporary.open("wb") as out:
            if encoding == "gzip":
                with gzip.GzipFile(fileobj=stream, mode="rb") as unpacked:
                    shutil.copyfileobj(unpacked, out, 1 << 20)
            else:
                shutil.copyfileobj(stream, out, 1 << 20)
        os.replace(temporary, target)
    except (OSError, EOFError, gzip.BadGzipFile) as exc:
        raise SnapshotUnreadable(f"{version}: could not store the download: {exc}") from exc
    finally:
        temporary.unlink(missing_ok=True)
    return target


class SnapshotHolder:
    """The snapshot a warm Lambda searches, refreshed at most every ``check_every_s``.

    ``fetch_latest(current_version)`` returns the latest snapshot when it differs
    from ``current_version`` (None at a cold start), or None when there is nothing
    newer; it may raise. Exactly one thread checks at a time; the others keep
    searching the snapshot they have.
    """

    def __init__(
        self,
        fetch_latest: Callable[[str | None], SnapshotFile | None],
        *,
        check_every_s: float = 30.0,
        clock: Callable[[], float] = time.monotonic,
        opener: Callable[[SnapshotFile], SearchIndex] = open_snapshot,
        on_refresh_error: Callable[[Exception], None] | None = None,
    ) -> None:
        self._fetch_latest = fetch_latest
        self._check_every_s = check_every_s
        self._clock = clock
        self._opener = opener
        self._on_refresh_error = on_refresh_error
        self._lock = threading.Lock()
        self._index: SearchIndex | None = None
        self._checked_at = float("-inf")
        self.refresh_errors = 0

    @property
    def version(self) -> str | None:
        index = self._index
        return index.meta.version if index is not None else None

    def index(self) -> SearchIndex:
        """The snapshot to search now; at a cold start, loads one or raises
        :class:`SnapshotUnreadable` (or whatever ``fetch_latest`` raised)."""
        index = self._index
        if index is None:
            with self._lock:
                if self._index is None:
                    self._index = self._load(None)
                    self._checked_at = self._clock()
                return self._index
        if self._clock() - self._checked_at >= self._check_every_s and self._lock.acquire(
            blocking=False
        ):
            try:
                self._refresh()
            finally:
                self._lock.release()
        return self._index or index

    def _load(self, current: str | None) -> SearchIndex:
        snapshot = self._fetch_latest(current)
        if snapshot is None:
            raise SnapshotUnreadable("no snapshot has been published")
        return self._opener(snapshot)

    def _refresh(self) -> None:
        self._checked_at = self._clock()
        current = self._index
        try:
            version = current.meta.version if current is not None else None
            snapshot = self._fetch_latest(version)
            if snapshot is None or snapshot.version == version:
                return
            self._index = self._opener(snapshot)
        except Exception as exc:  # a bad new snapshot must not take the good one down
            self.refresh_errors += 1
            if self._on_refresh_error is not None:
                self._on_refresh_error(exc)
            return
        # The old index is not closed here: another thread may be mid-search on it.
        # Its connections close when the last reference to it goes.
