"""Serve only snapshots that open: the pointer, the stored download, and the checks.

The indexer publishes a snapshot as a new, versioned object, then points a
small pointer document (:class:`SnapshotPointer`) at it: a reader that follows
the pointer finds a whole file or the previous one. A Lambda downloads the file
it points to with :func:`store_snapshot`, which gunzips it to a temporary name,
counts and hashes the bytes as they are written (so the size and SHA-256 the
pointer gives are checked without reading the file again) and renames it when
it is whole. :func:`open_snapshot` then checks it before it serves a single
search: that SQLite opens it, that its metadata row names the expected version
and a format this code reads, and, for a file whose bytes were not checked
against a pointer, its size, SHA-256 and ``PRAGMA quick_check``. Anything wrong
raises :class:`SnapshotUnreadable` (a :class:`~shared.runtime.errors.CatalogUnavailable`:
the tool answers "catalog unavailable").

Which snapshot a Lambda serves, and when it swaps in a newer one, is
:class:`~shared.search.holder.SnapshotHolder`'s.
"""

from __future__ import annotations

import gzip
import hashlib
import io
import json
import os
import shutil
import time
import uuid
import zlib
from collections.abc import Callable, Iterator
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import BinaryIO, Literal

from shared.search.build import FACET_COLUMNS, READABLE_FORMATS, SnapshotMeta, read_meta
from shared.search.driver import connect, database_errors, read_only_uri
from shared.search.engine import SearchIndex
from shared.search.errors import SnapshotDeferred, SnapshotUnreadable

CHUNK_BYTES = 1 << 20
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
    verified: bool = False
    """Its bytes matched the pointer's ``sha256`` and ``size`` as they were stored, so
    :func:`open_snapshot` neither hashes it again nor runs ``quick_check``: the
    publisher checked these very bytes before it published them."""


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
    verified: bool = False,
) -> SnapshotMeta:
    """Check a snapshot file before serving it; its metadata, or :class:`SnapshotUnreadable`.

    ``verified`` says the file's bytes already matched a pointer that the publisher wrote
    after checking them (:attr:`SnapshotFile.verified`): the whole-file checks, SHA-256 and
    ``PRAGMA quick_check``, are then not repeated on the cold-start path.
    """
    file = Path(path)
    try:
        actual_size = file.stat().st_size
    except OSError as exc:
        raise SnapshotUnreadable(f"{file.name}: {exc.strerror or exc}") from exc
    if size is not None and actual_size != size:
        raise SnapshotUnreadable(f"{file.name}: {actual_size} bytes, expected {size}")
    if sha256 is not None and not verified and file_sha256(file) != sha256:
        raise SnapshotUnreadable(f"{file.name}: SHA-256 does not match the pointer")
    connection = None
    checked = ["ok"]
    try:
        connection = connect(read_only_uri(file))
        meta = read_meta(connection)
        if not verified:
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
    if meta.facets != FACET_COLUMNS:
        # A facet declared (or dropped) since the file was built: its columns and
        # indexes are not the ones this code filters and sorts on.
        raise SnapshotUnreadable(
            f"{file.name}: built with the facets {', '.join(meta.facets) or 'none'}; this code"
            f" declares {', '.join(FACET_COLUMNS)}: publish a snapshot built by this code"
        )
    if meta.missing:
        raise SnapshotUnreadable(
            f"{file.name}: built without the columns {', '.join(meta.missing)}: publish a "
            "snapshot built by this code"
        )
    if version is not None and meta.version != version:
        raise SnapshotUnreadable(f"{file.name}: holds version {meta.version}, expected {version}")
    return meta


def open_snapshot(snapshot: SnapshotFile) -> SearchIndex:
    """Validate ``snapshot`` and open it for searching."""
    validate_snapshot(
        snapshot.path,
        version=snapshot.version,
        sha256=snapshot.sha256,
        size=snapshot.size,
        verified=snapshot.verified,
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
    sha256: str | None = None,
    size: int | None = None,
    deadline: float | None = None,
    clock: Callable[[], float] = time.monotonic,
) -> Path:
    """Store a downloaded snapshot (bytes or a stream, gzipped or not) as
    ``<directory>/<version>.sqlite``, whole or not at all.

    The bytes written are counted and hashed on the way, so ``size`` and ``sha256``
    (the pointer's, when given) are checked in the same pass; a gzip stream's own CRC
    and length are checked by zlib at its end. A ``deadline`` (``clock()`` time) stops a
    download that would not finish in time: :class:`SnapshotDeferred`, nothing kept.
    """
    if not version or any(c in version for c in "/\\\0") or version.startswith("."):
        raise SnapshotUnreadable(f"unusable snapshot version {version!r}")
    folder = Path(directory)
    folder.mkdir(parents=True, exist_ok=True)
    target = folder / f"{version}.sqlite"
    temporary = folder / f".{version}.{uuid.uuid4().hex}.part"
    stream: BinaryIO = io.BytesIO(source) if isinstance(source, bytes) else source
    digest = hashlib.sha256()
    written = 0
    try:
        with temporary.open("wb") as out:
            for block in _blocks(stream, encoding):
                if deadline is not None and clock() > deadline:
                    raise SnapshotDeferred(f"{version}: download stopped at its deadline")
                digest.update(block)
                written += len(block)
                out.write(block)
        if size is not None and written != size:
            raise SnapshotUnreadable(f"{version}: {written} bytes stored, expected {size}")
        if sha256 is not None and digest.hexdigest() != sha256:
            raise SnapshotUnreadable(f"{version}: SHA-256 does not match the pointer")
        os.replace(temporary, target)
    except (OSError, EOFError, zlib.error) as exc:
        raise SnapshotUnreadable(f"{version}: could not store the download: {exc}") from exc
    finally:
        temporary.unlink(missing_ok=True)
    return target


def _blocks(stream: BinaryIO, encoding: Encoding) -> Iterator[bytes]:
    """The snapshot's bytes, a chunk at a time, gunzipped if ``encoding`` says so.

    zlib directly rather than :class:`gzip.GzipFile`: the same checks (a gzip member's
    CRC-32 and length are verified at its end, a stream cut short is an error) without
    Python-level buffering on a cold start's hot path.
    """
    if encoding != "gzip":
        while block := stream.read(CHUNK_BYTES):
            yield block
        return
    inflate = zlib.decompressobj(wbits=16 + zlib.MAX_WBITS)
    while packed := stream.read(CHUNK_BYTES):
        while packed:
            if inflate.eof:  # another gzip member follows
                inflate = zlib.decompressobj(wbits=16 + zlib.MAX_WBITS)
            yield inflate.decompress(packed)
            packed = inflate.unused_data if inflate.eof else b""
    if not inflate.eof:
        raise EOFError("the gzip stream ended before its end marker")
    yield inflate.flush()
