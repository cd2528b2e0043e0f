"""Build a search snapshot: one SQLite file with an FTS5 index and a table of facets.

The file is built in memory, written next to its destination under a temporary
name and renamed over it: a reader opening ``path`` finds the previous snapshot
or the new one, whole, never a half-written file; a build that fails leaves the
previous file as it was.

Layout (``FORMAT_VERSION`` changes whenever it does, but for the facet columns: they
follow the facets declared in ``shared.catalog.specs``, and a reader refuses a file whose
columns are not the ones it declares, :attr:`SnapshotMeta.facets`):

* ``products``: one row per product, ``id`` (the FTS rowid, in an order that
  is a fair sample of the catalog), the fields a result shows and filters use,
  and one column per facet;
* ``category_facets``: which facets each category has;
* ``fts``: FTS5 over name, brand, description, spec text and tags, contentless
  (the text lives in the catalog table; the index only has to find and rank),
  plus a column of filter words (category, form factor, brand, in stock) so that
  FTS5 intersects a search with its filters before any row is read;
* ``snapshot_meta``: one row saying what the file is (format, version, product
  count, when it was built, a digest of the records it was built from);
* ``spelling`` and ``spelling_keys`` (format 2): the words of the products' text,
  for correcting a misspelt search (:mod:`~shared.search.spelling`);
* ``listing`` and ``listing_fields`` (format 2): what the store carries, in the
  catalog's words: brands and the values of every spec, with their products
  (:mod:`~shared.search.listing`);
* ``handles`` and an index of the ids in lower case (format 4): a product asked for by
  the handle it is cited by, or by its id in another case (:mod:`~shared.search.ids`).

A format 1 snapshot (none of these) is still read: its searches are not corrected and
it lists nothing. Format 3 added the products' ``compare_at_price`` (what a search for
products on sale filters on); a file without it, as every row column, is refused
(:func:`~shared.search.snapshot.validate_snapshot`), and the format's number makes the
publisher build a new one.

Price and stock are in the file (they filter, sort and rank), as of the build.
A catalog tool that reads them fresh from the catalog table for every product it
shows (:data:`READ_FRESH`) needs no new snapshot when only they change: a build
for such a reader leaves them out of its digest, so the publisher finds the
catalog unchanged and keeps the snapshot (and its version) in force.
"""

from __future__ import annotations

import hashlib
import json
import os
import time
import uuid
import zlib
from collections.abc import Collection, Iterable, Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from shared.catalog.specs import FORM_FACTOR, OS
from shared.search.driver import sqlite_module
from shared.search.ids import FOLDED_INDEX, HANDLES_SCHEMA, build_handles
from shared.search.listing import LISTING_SCHEMA, build_listing
from shared.search.query import SORTS
from shared.search.schema import FACETS, Document, document
from shared.search.spelling import SPELLING_SCHEMA, build_spelling

FORMAT_VERSION = 5
"""5: the ``stock`` of a product the store sells uncounted is
:data:`~shared.search.schema.UNCOUNTED_STOCK` (the columns are 4's, so a 4 is read as
it is; the new number makes the indexer build once more from records it had indexed)."""
READABLE_FORMATS = frozenset({1, 2, 3, 4, FORMAT_VERSION})
READ_FRESH: tuple[str, ...] = ("price", "stock")
"""What the catalog tool reads from the catalog table for every product it shows, and
filters and orders on again (``lookup_inventory``): a change to these alone needs no
new snapshot. With a store's Products API, which has no read by id, the snapshot's
own values are shown, and they count like every other field."""
TOKENIZER = "porter unicode61 remove_diacritics 2"
FTS_COLUMNS: tuple[str, ...] = ("name", "brand", "description", "specs", "tags", "filters")
FACET_COLUMNS: tuple[str, ...] = tuple(facet.column for facet in FACETS)
_LEADING_COLUMNS: tuple[str, ...] = (
    "id",
    "product_id",
    "category",
    "name",
    "brand",
    "brand_key",
    "price",
    "stock",
)
_TRAILING_COLUMNS: tuple[str, ...] = (
    OS.column,
    f"{OS.column}_key",
    FORM_FACTOR.column,
    "dedicated_gpu",
    "compare_at_price",
)
_ROW_COLUMNS: tuple[str, ...] = (*_LEADING_COLUMNS, *FACET_COLUMNS, *_TRAILING_COLUMNS)

_SCHEMA = f"""
CREATE TABLE snapshot_meta (
    id INTEGER PRIMARY KEY CHECK (id = 1),
    format_version INTEGER NOT NULL,
    version TEXT NOT NULL,
    product_count INTEGER NOT NULL,
    built_at TEXT NOT NULL,
    source_digest TEXT NOT NULL,
    tokenizer TEXT NOT NULL,
    sqlite_version TEXT NOT NULL
);
CREATE TABLE products (
    id INTEGER PRIMARY KEY,
    product_id TEXT NOT NULL UNIQUE,
    category TEXT NOT NULL,
    name TEXT NOT NULL,
    brand TEXT NOT NULL,
    brand_key TEXT NOT NULL,
    price REAL,
    stock INTEGER NOT NULL,
    {", ".join(f"{column} REAL" for column in FACET_COLUMNS)},
    {OS.column} TEXT,
    {OS.column}_key TEXT,
    {FORM_FACTOR.column} TEXT,
    dedicated_gpu INTEGER NOT NULL,
    compare_at_price REAL
);
CREATE TABLE category_facets (
    category TEXT NOT NULL,
    facet TEXT NOT NULL,
    products INTEGER NOT NULL,
    PRIMARY KEY (category, facet)
) WITHOUT ROWID;
CREATE VIRTUAL TABLE fts USING fts5(
    {", ".join(FTS_COLUMNS)}, content='', tokenize='{TOKENIZER}'
);
{SPELLING_SCHEMA}{LISTING_SCHEMA}{HANDLES_SCHEMA}"""

# Built after the rows are in (cheaper than keeping them up to date row by row).
# A sort reads one of these in order and stops at its limit: within a category (a
# search without one merges the categories), by the facet in the direction sortBy
# takes it, cheapest first among equals, then row order. Facet indexes are partial:
# most facets exist for one or two categories only.
# The first sortBy on a facet sets its index's direction; its reverse walks it backwards.
FACET_DIRECTION = {column: "DESC" if desc else "ASC" for column, desc in reversed(SORTS.values())}
_INDEXES = [
    FOLDED_INDEX,
    "CREATE INDEX products_category_price ON products (category, price)",
    "CREATE INDEX products_brand ON products (brand_key, category, price)",
    *(
        f"CREATE INDEX products_category_{column} ON products"
        f" (category, {column} {FACET_DIRECTION.get(column, 'ASC')}, price)"
        f" WHERE {column} IS NOT NULL"
        for column in FACET_COLUMNS
    ),
]


@dataclass(frozen=True)
class BuildReport:
    path: Path
    version: str
    product_count: int
    skipped: int
    """Records without a usable ``productId`` (the rest of the catalog is still indexed)."""
    source_digest: str
    built_at: str
    size_bytes: int
    seconds: float


def _canonical(record: Mapping[str, Any]) -> bytes:
    text = json.dumps(
        record, sort_keys=True, separators=(",", ":"), ensure_ascii=False, default=str
    )
    return text.encode("utf-8") + b"\n"


def _documents(
    products: Iterable[Mapping[str, Any]], fresh_fields: Collection[str] = ()
) -> tuple[list[Document], str, int]:
    """Documents in row order (a duplicate id keeps its last record), the digest of
    the records kept (in ``productId`` order, without ``fresh_fields``), and how many
    records were skipped."""
    latest: dict[str, tuple[Document, Mapping[str, Any]]] = {}
    skipped = 0
    for record in products:
        doc = document(record) if isinstance(record, Mapping) else None
        if doc is None:
            skipped += 1
            continue
        latest[doc.product_id] = (doc, record)
    digest = hashlib.sha256()
    for product_id in sorted(latest):
        record = latest[product_id][1]
        if fresh_fields:
            record = {k: v for k, v in record.items() if k not in fresh_fields}
        digest.update(_canonical(record))
    # Row ids follow a hash of the id, not the id: any run of rows is then a fair
    # sample of the catalog, which is what a search that stops early looks at.
    order = sorted(latest, key=lambda pid: (zlib.crc32(pid.encode("utf-8")), pid))
    return [latest[pid][0] for pid in order], digest.hexdigest(), skipped


def _product_row(row_id: int, doc: Document) -> tuple[Any, ...]:
    return (
        row_id,
        doc.product_id,
        doc.category,
        doc.name,
        doc.brand,
        doc.brand.casefold(),
        doc.price,
        doc.stock,
        *(doc.facets.get(column) for column in FACET_COLUMNS),
        doc.os,
        doc.os.casefold() if doc.os else None,
        doc.form_factor,
        int(doc.dedicated_gpu),
        doc.compare_at_price,
    )


def default_version(built_at: datetime, digest: str) -> str:
    """``20261130T081500Z-1a2b3c4d5e6f``: sorts by time, and says what it was built from."""
    return f"{built_at.strftime('%Y%m%dT%H%M%SZ')}-{digest[:12]}"


def build_index(
    products: Iterable[Mapping[str, Any]],
    path: str | os.PathLike[str],
    *,
    version: str | None = None,
    built_at: datetime | None = None,
    fresh_fields: Collection[str] = (),
) -> BuildReport:
    """Index ``products`` into the snapshot file ``path``, replacing it atomically.

    ``fresh_fields`` (:data:`READ_FRESH` for a reader of the catalog table) are indexed
    but left out of the source digest, and so out of the version's name.
    """
    started = time.perf_counter()
    target = Path(path)
    docs, digest, skipped = _documents(products, fresh_fields)
    when = (built_at or datetime.now(UTC)).astimezone(UTC)
    stamp = when.isoformat(timespec="seconds").replace("+00:00", "Z")
    name = version or default_version(when, digest)
    module = sqlite_module()
    db = module.connect(":memory:")
    temporary = target.with_name(f".{target.name}.{uuid.uuid4().hex}.tmp")
    try:
        for pragma in ("journal_mode = OFF", "synchronous = OFF", "temp_store = MEMORY"):
            db.execute(f"PRAGMA {pragma}")
        db.executescript(_SCHEMA)
        with db:
            db.executemany(
                f"INSERT INTO products ({', '.join(_ROW_COLUMNS)}) "
                f"VALUES ({', '.join('?' * len(_ROW_COLUMNS))})",
                (_product_row(i, doc) for i, doc in enumerate(docs, start=1)),
            )
            db.executemany(
                f"INSERT INTO fts (rowid, {', '.join(FTS_COLUMNS)}) VALUES (?, ?, ?, ?, ?, ?, ?)",
                (
                    (i, d.name_text, d.brand, d.description, d.spec_text, d.tags, d.filters)
                    for i, d in enumerate(docs, start=1)
                ),
            )
            # One b-tree per term instead of one per flush: smaller, and faster to query.
            db.execute("INSERT INTO fts (fts) VALUES ('optimize')")
            build_spelling(db, docs)
            build_listing(db, docs)
            build_handles(db, (doc.product_id for doc in docs))
            for statement in _INDEXES:
                db.execute(statement)
            # Which facets each category has: a sort or a boost on a facet that a
            # category lacks is skipped instead of scanning for values that are not there.
            db.execute(
                "INSERT INTO category_facets SELECT category, '*', count(*) FROM products"
                " GROUP BY category"
            )
            for column in FACET_COLUMNS:
                db.execute(
                    "INSERT INTO category_facets SELECT category, ?, count(*) FROM products"
                    f" WHERE {column} IS NOT NULL GROUP BY category",
                    (column,),
                )
            db.execute(
                "INSERT INTO snapshot_meta VALUES (1, ?, ?, ?, ?, ?, ?, ?)",
                (FORMAT_VERSION, name, len(docs), stamp, digest, TOKENIZER, module.sqlite_version),
            )
        db.execute("ANALYZE")
        db.commit()
        target.parent.mkdir(parents=True, exist_ok=True)
        # VACUUM INTO writes a compact copy in one pass; it refuses an existing file.
        db.execute("VACUUM INTO ?", (str(temporary),))
        _fsync(temporary)
        os.replace(temporary, target)
        _fsync(target.parent)
    finally:
        db.close()
        temporary.unlink(missing_ok=True)
    return BuildReport(
        path=target,
        version=name,
        product_count=len(docs),
        skipped=skipped,
        source_digest=digest,
        built_at=stamp,
        size_bytes=target.stat().st_size,
        seconds=time.perf_counter() - started,
    )


def _fsync(path: Path) -> None:
    """Flush ``path`` (a file or a directory) to disk, so a crash cannot undo the rename."""
    try:
        fd = os.open(path, os.O_RDONLY)
    except OSError:
        return  # some platforms cannot open a directory; the rename is still atomic
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


@dataclass(frozen=True)
class SnapshotMeta:
    """The ``snapshot_meta`` row: what a snapshot file says it is."""

    format_version: int
    version: str
    product_count: int
    built_at: str
    source_digest: str
    tokenizer: str
    sqlite_version: str
    facets: tuple[str, ...]
    """The facet columns the file's products have, in their order: read from the table
    itself, so that a file built before a facet was declared (or after one was dropped)
    says so whatever its format number."""
    missing: tuple[str, ...] = ()
    """Row columns this code reads that the file's products do not have."""


def read_meta(connection: Any) -> SnapshotMeta:
    """The metadata row of an open snapshot (raises the driver's error if there is none)."""
    columns = [str(row[1]) for row in connection.execute("PRAGMA table_info(products)")]
    row = connection.execute(
        "SELECT format_version, version, product_count, built_at, source_digest, tokenizer,"
        " sqlite_version FROM snapshot_meta WHERE id = 1"
    ).fetchone()
    if row is None:
        raise LookupError("snapshot_meta has no row")
    return SnapshotMeta(
        format_version=int(row[0]),
        version=str(row[1]),
        product_count=int(row[2]),
        built_at=str(row[3]),
        source_digest=str(row[4]),
        tokenizer=str(row[5]),
        sqlite_version=str(row[6]),
        facets=tuple(c for c in columns if c not in (*_LEADING_COLUMNS, *_TRAILING_COLUMNS)),
        missing=tuple(c for c in (*_LEADING_COLUMNS, *_TRAILING_COLUMNS) if c not in columns),
    )
