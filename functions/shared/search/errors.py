"""Why a search could not run. Both are :class:`~shared.runtime.errors.CatalogUnavailable`,
so the tool answers "catalog unavailable" instead of crashing the turn."""

from __future__ import annotations

from shared.runtime.errors import CatalogUnavailable, FailureKind


class SearchEngineMissing(CatalogUnavailable):
    """Neither the standard library's SQLite nor an installed ``sqlean`` has FTS5."""

    def __init__(self, detail: str) -> None:
        super().__init__(FailureKind.ENGINE, detail)


class SnapshotUnreadable(CatalogUnavailable):
    """A search snapshot is missing, truncated, corrupt, or of another format."""

    def __init__(self, detail: str) -> None:
        super().__init__(FailureKind.SNAPSHOT, detail)


class CatalogNotIndexedYet(SnapshotUnreadable):
    """No snapshot has been published yet: a new stack's first index is still being built."""

    def __init__(self, detail: str) -> None:
        super().__init__(detail)
        self.kind = FailureKind.INDEXING


class SnapshotDeferred(Exception):
    """A newer snapshot was not loaded because the time left would not cover it: not a
    fault (nothing is reported), the holder tries again after the next search."""
