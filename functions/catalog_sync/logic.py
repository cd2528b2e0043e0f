"""One full pull: what the platform lists, compared with the catalog, and written.

The products come from the Admin API (``shared.platform.admin_api``) and are mapped and
validated exactly as ``storechat catalog sync`` maps them; the plan is the CLI's
(``shared.platform.diff``): products the API lists are added or updated, products of the
catalog it no longer lists are deleted, and only what changed is written, so the table's
stream carries changes and nothing else.

Two things are left as the catalog holds them, and said in the outcome:

* a product the mapping cannot read this time (a price that is not a price): its rows
  stay, never deleted for a typo in the store's admin;
* every deletion, when the shrink guard (``shared.platform.diff.shrink``) refuses them: a
  pull that would delete more than half of the store's own products (and more than ten)
  is more likely an API that answered less than the store holds than a store that
  stopped selling them. Adds and updates are still written (they are what the store
  lists now); ``allow_shrink`` in the environment's ``catalog_sync`` block lets the
  deletions through. A pull that lists no product at all deletes nothing either.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any, Protocol

from shared.platform.admin_api import Read, pulled_rows
from shared.platform.diff import Fingerprint, plan, shrink
from shared.platform.rows import BadRow, ReadOptions, SkippedRow, ValidRow
from shared.products.catalog_data import load_catalog
from shared.products.product import Product

SHOWN = 20
"""Ids listed per kind of change in the outcome; the rest are counted."""


class CatalogTable(Protocol):
    def fingerprints(self) -> dict[str, Fingerprint]:
        """Every product the catalog holds, by id."""
        ...

    def write(self, products: Iterable[Product], deletions: Iterable[str]) -> None:
        """Put the products, then delete the ids."""
        ...


@dataclass
class Outcome:
    added: list[str] = field(default_factory=list)
    updated: list[str] = field(default_factory=list)
    deleted: list[str] = field(default_factory=list)
    unchanged: int = 0
    invalid: list[str] = field(default_factory=list)
    """The variants that could not be read, and why ("line 3: 'twelve' is not a price")."""
    skipped: int = 0
    """Variants the catalog does not sell (drafts, unmapped categories)."""
    deletions_refused: str = ""
    """Why nothing was deleted although the pull says products are gone."""
    dry_run: bool = False

    def body(self) -> dict[str, Any]:
        """The function's answer (and its log line): counts, and the first ids of each."""
        return {
            "dryRun": self.dry_run,
            "added": len(self.added),
            "updated": len(self.updated),
            "unchanged": self.unchanged,
            "deleted": len(self.deleted),
            "invalid": len(self.invalid),
            "skipped": self.skipped,
            "deletionsRefused": self.deletions_refused or None,
            "addedIds": self.added[:SHOWN],
            "updatedIds": self.updated[:SHOWN],
            "deletedIds": self.deleted[:SHOWN],
            "problems": self.invalid[:SHOWN],
        }


def pull(
    reads: Iterator[Read],
    table: CatalogTable,
    options: ReadOptions,
    *,
    allow_shrink: bool,
    dry_run: bool = False,
) -> Outcome:
    """Read every product, compare it with ``table``, and write the difference (or, with
    ``dry_run``, only say it)."""
    outcome = Outcome(dry_run=dry_run)
    products: list[Product] = []
    keep: set[str] = set()
    for row in pulled_rows(reads, options):
        if isinstance(row, SkippedRow):
            outcome.skipped += len(row.lines)
        elif isinstance(row, BadRow):
            outcome.invalid.append("; ".join(str(problem) for problem in row.problems))
            if row.product_id:
                keep.add(row.product_id)
        elif isinstance(row, ValidRow) and isinstance(row.row, Product):
            products.append(row.row)
    held = table.fingerprints()
    planned = plan(held, products, replace=True, keep=keep)
    outcome.added = [pid for pid, _ in planned.added]
    outcome.updated = [pid for pid, _ in planned.updated]
    outcome.unchanged = planned.unchanged
    gone = [pid for pid, _ in planned.deleted]
    refused = shrink(set(gone), set(held), _sample(held), allow=allow_shrink)
    if refused is not None:
        outcome.deletions_refused = (
            f"the pull would delete {refused.lost:,} of the catalog's {refused.own:,} products "
            f"and keep {refused.kept:,}: more than half, which is more likely an API that "
            "answered less than the store holds than a store that stopped selling them; "
            "nothing was deleted (set allow_shrink in the catalog_sync block if it is right)"
        )
    elif gone and not products:
        outcome.deletions_refused = (
            "the API listed no product the catalog sells: nothing was deleted"
        )
    else:
        outcome.deleted = gone
    if not dry_run:
        changed = {*outcome.added, *outcome.updated}
        table.write((p for p in products if p.productId in changed), outcome.deleted)
    return outcome


def _sample(held: dict[str, Fingerprint]) -> set[str]:
    """The bundled sample's products the catalog holds (its id and its name): not the
    store's own, so deleting them is never a shrink."""
    names = {str(p["productId"]): str(p["name"]) for p in load_catalog()}
    return {pid for pid, fingerprint in held.items() if names.get(pid) == fingerprint.name}
