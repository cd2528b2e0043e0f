"""Product search on SQLite FTS5: build a snapshot, open it, search it, swap in newer ones.

* :func:`build_index` turns catalog records into a snapshot file, atomically;
* :class:`SearchIndex` opens one read-only and answers :class:`SearchQuery`, reading
  a misspelt word as the catalog word meant (:mod:`~shared.search.correct`); its
  :attr:`~SearchIndex.listing` says what the store carries (:class:`Listing`);
* :func:`open_snapshot` validates a snapshot before serving it, and
  :class:`SnapshotHolder` keeps the one a Lambda searches and swaps in newer ones
  without a search waiting for them.

Pure Python and the standard library's ``sqlite3`` (or ``sqlean`` where that
has no FTS5); nothing here talks to AWS.
"""

from shared.search.build import FORMAT_VERSION, BuildReport, SnapshotMeta, build_index
from shared.search.engine import SearchIndex
from shared.search.errors import (
    CatalogNotIndexedYet,
    SearchEngineMissing,
    SnapshotDeferred,
    SnapshotUnreadable,
)
from shared.search.holder import SnapshotHolder, in_background
from shared.search.listing import Listing
from shared.search.query import BOUNDS, SORTS, Hit, SearchQuery, SearchResult
from shared.search.snapshot import (
    SnapshotFile,
    SnapshotPointer,
    open_snapshot,
    pack_snapshot,
    store_snapshot,
    validate_snapshot,
)

__all__ = [
    "BOUNDS",
    "FORMAT_VERSION",
    "SORTS",
    "BuildReport",
    "CatalogNotIndexedYet",
    "Hit",
    "Listing",
    "SearchEngineMissing",
    "SearchIndex",
    "SearchQuery",
    "SearchResult",
    "SnapshotDeferred",
    "SnapshotFile",
    "SnapshotHolder",
    "SnapshotMeta",
    "SnapshotPointer",
    "SnapshotUnreadable",
    "build_index",
    "in_background",
    "open_snapshot",
    "pack_snapshot",
    "store_snapshot",
    "validate_snapshot",
]
