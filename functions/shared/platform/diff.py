"""What a full sync or an import would change: added, updated, unchanged and deleted
products, and when a full sync deletes too much to be trusted.

``storechat catalog import --dry-run`` and ``catalog sync --dry-run`` print this and
write nothing; ``--replace`` (and every sync) deletes what the source does not hold; the
scheduled ``catalog_sync`` function writes exactly what it says. The store's products are
compared by a small fingerprint each (name, price, stock, and a digest of the rest), so
a plan against a large table holds no full records in memory.

The shrink guard (:func:`shrink`): a full sync that would delete more than
:data:`SHRINK_SHARE` of the store's own products (and more than :data:`SHRINK_FLOOR` of
them) is refused unless allowed. A source far smaller than the catalog is most often a
partial export or an API that answered less than the store holds, not a store that
stopped selling most of what it sells.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any, TextIO

from shared.products.product import Product, ProductDeletion
from shared.products.stock import TRACKED, counted

SHOWN = 20
"""Products listed per kind of change; the rest are counted."""
SHRINK_SHARE = 0.5
"""The share of the store's own products a full sync may delete unless allowed."""
SHRINK_FLOOR = 10
"""Deleting this many or fewer is never refused: a small store may drop most of a few."""


@dataclass(frozen=True)
class Fingerprint:
    name: str
    price: Any
    stock: Any
    rest: str
    """A digest of every other field."""


def fingerprint(product: dict[str, Any]) -> Fingerprint:
    rest = {k: v for k, v in product.items() if k not in ("name", "price", "stock", TRACKED)}
    digest = hashlib.sha256(json.dumps(rest, sort_keys=True).encode()).hexdigest()
    # A product sold uncounted has no count to compare: "stock 4 -> not counted".
    stock = product.get("stock") if counted(product) else "not counted"
    return Fingerprint(str(product.get("name", "")), product.get("price"), stock, digest)


def fingerprints(products: Iterable[dict[str, Any]]) -> dict[str, Fingerprint]:
    return {str(p.get("productId")): fingerprint(p) for p in products}


@dataclass
class Plan:
    added: list[tuple[str, str]] = field(default_factory=list)
    updated: list[tuple[str, str]] = field(default_factory=list)
    """(id, what changes: "price 899.00 -> 849.00, stock 3 -> 5")."""
    unchanged: int = 0
    deleted: list[tuple[str, str]] = field(default_factory=list)
    not_there: int = 0

    def summary(self) -> str:
        return (
            f"{len(self.added):,} to add, {len(self.updated):,} to update, "
            f"{self.unchanged:,} unchanged, {len(self.deleted):,} to delete"
        )

    def write(self, out: TextIO) -> None:
        for label, items in (
            ("add", self.added),
            ("update", self.updated),
            ("delete", self.deleted),
        ):
            for product_id, text in items[:SHOWN]:
                print(f"  {label:<7} {product_id}  {text}", file=out)
            if len(items) > SHOWN:
                print(f"  {label:<7} … and {len(items) - SHOWN:,} more", file=out)
        if self.not_there:
            print(f"  ({self.not_there:,} deletion rows name products already gone)", file=out)


def plan(
    store: dict[str, Fingerprint],
    rows: Iterable[Product | ProductDeletion],
    *,
    replace: bool,
    keep: set[str],
) -> Plan:
    """What importing ``rows`` into a store holding ``store`` changes.

    With ``replace``, every product of the store the rows do not name is deleted,
    except those in ``keep`` (the ids of the file's invalid rows: a typo in a row must
    not delete its product).
    """
    result = Plan()
    named: set[str] = set()
    for row in rows:
        named.add(row.productId)
        before = store.get(row.productId)
        if isinstance(row, ProductDeletion):
            if before is None:
                result.not_there += 1
            else:
                result.deleted.append((row.productId, before.name))
            continue
        after = fingerprint(row.model_dump())
        if before is None:
            result.added.append((row.productId, after.name))
        elif before == after:
            result.unchanged += 1
        else:
            result.updated.append((row.productId, _changes(before, after)))
    if replace:
        result.deleted += [
            (product_id, print_.name)
            for product_id, print_ in store.items()
            if product_id not in named and product_id not in keep
        ]
    return result


def _changes(before: Fingerprint, after: Fingerprint) -> str:
    parts = []
    if before.name != after.name:
        parts.append(f"name {before.name!r} -> {after.name!r}")
    if before.price != after.price:
        parts.append(f"price {_money(before.price)} -> {_money(after.price)}")
    if before.stock != after.stock:
        parts.append(f"stock {before.stock} -> {after.stock}")
    if before.rest != after.rest:
        parts.append("description, category, brand, specs, picture, link, tags or sale")
    return f"{after.name}: {', '.join(parts)}"


def _money(value: Any) -> str:
    return f"{value:,.2f}" if isinstance(value, int | float) else repr(value)


def deletions(
    store_ids: Iterable[str], named: set[str], keep: set[str]
) -> Iterator[ProductDeletion]:
    """A full sync's deletions: each product of the store the file does not name."""
    for product_id in store_ids:
        if product_id not in named and product_id not in keep:
            yield ProductDeletion(productId=product_id)


@dataclass(frozen=True)
class Shrink:
    """A full sync refused by the shrink guard: it would delete ``lost`` of the store's
    ``own`` products."""

    lost: int
    own: int

    @property
    def kept(self) -> int:
        return self.own - self.lost


def shrink(deleted: set[str], held: set[str], sample: set[str], *, allow: bool) -> Shrink | None:
    """The refusal of a full sync that deletes ``deleted`` from a store holding ``held``,
    or None when it may go on (see the module docstring). The bundled sample's products
    are not the store's own: deleting them is never a shrink."""
    own = held - sample
    lost = deleted - sample
    if allow or len(lost) <= SHRINK_FLOOR or len(lost) <= SHRINK_SHARE * len(own):
        return None
    return Shrink(len(lost), len(own))
