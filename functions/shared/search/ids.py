"""Products asked for by id as a model writes them: the exact id, its handle, or the id
in another case.

The catalog tool shows a product whose id cannot be cited safely by its handle
(:mod:`shared.products.citing`), and the model asks for it again by that handle
(``productIds``); a model may also write an id in another case than the catalog's. A
snapshot (format 4) keeps the handles of the products that have one (``handles``) and
an index of the ids in lower case, so the tool finds each asked product by one indexed
read. Two ids with one handle (about 1 in 50,000 for a catalog of 200,000 such ids)
keep none: the handle then finds nothing, rather than the wrong product. An earlier
snapshot finds exact ids only.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from shared.products.citing import citable, handle, normalise

HANDLES_FORMAT = 4
"""The first snapshot format with :data:`HANDLES_SCHEMA`."""
HANDLES_SCHEMA = """
CREATE TABLE handles (
    handle TEXT PRIMARY KEY,
    product_id TEXT NOT NULL
) WITHOUT ROWID;
"""
FOLDED_INDEX = "CREATE INDEX products_folded_id ON products (lower(product_id))"


def build_handles(db: Any, product_ids: Iterable[str]) -> None:
    """Fill ``handles`` for the ids that are cited by one."""
    owners: dict[str, list[str]] = {}
    for pid in product_ids:
        if not citable(pid):
            owners.setdefault(handle(pid), []).append(pid)
    db.executemany(
        "INSERT INTO handles (handle, product_id) VALUES (?, ?)",
        ((key, ids[0]) for key, ids in owners.items() if len(ids) == 1),
    )


def _in(values: Sequence[str]) -> str:
    return f"({', '.join('?' * len(values))})"


def resolve(db: Any, asked: Sequence[str], format_version: int) -> dict[str, str]:
    """Each of ``asked`` that names a product, with that product's id: exactly, by its
    handle, or by its id in another case when no other product's id reads the same."""
    wanted = list(dict.fromkeys(a.strip() for a in asked if a.strip()))
    if not wanted:
        return {}
    found: dict[str, str] = {}
    rows = db.execute(f"SELECT product_id FROM products WHERE product_id IN {_in(wanted)}", wanted)
    exact = {str(pid) for (pid,) in rows}
    found.update((a, a) for a in wanted if a in exact)
    rest = [a for a in wanted if a not in found]
    if not rest or format_version < HANDLES_FORMAT:
        return found
    keys = {a: a.upper() for a in rest}
    rows = db.execute(
        f"SELECT handle, product_id FROM handles WHERE handle IN {_in(list(keys.values()))}",
        list(keys.values()),
    )
    by_handle = {str(h): str(pid) for h, pid in rows}
    found.update((a, by_handle[k]) for a, k in keys.items() if k in by_handle)
    rest = [a for a in rest if a not in found]
    folded = {a: normalise(a) for a in rest}
    if not rest:
        return found
    rows = db.execute(
        f"SELECT lower(product_id), product_id FROM products WHERE lower(product_id) IN "
        f"{_in(list(folded.values()))}",
        list(folded.values()),
    )
    owners: dict[str, list[str]] = {}
    for key, pid in rows:
        owners.setdefault(str(key), []).append(str(pid))
    found.update((a, owners[k][0]) for a, k in folded.items() if len(owners.get(k, ())) == 1)
    return found
