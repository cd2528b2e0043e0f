"""Sorted answers without search words: walk a (category, facet) index in order.

A sort keeps in-stock products first, then orders by the facet (products without
it last), cheapest first among equals. A small set of matches (fewer than the
count cap) is sorted in one query. A large one is answered in phases (in stock
with the facet, in stock without it, then the same sold out), each walking the
category's index on the facet in order, in widening steps: whatever the filters
keep inside a step is exactly the start of the answer. Filters that prefer the
other end of the order (cheap computers by memory) need wider steps; past the
last, the planner sorts everything that passes them. A search without a category
walks each category and merges their few rows.
"""

from __future__ import annotations

import re
from typing import Any, Protocol

from shared.catalog.specs import FORM_FACTOR, OS
from shared.search.build import FACET_COLUMNS, FACET_DIRECTION
from shared.search.plan import Plan
from shared.search.query import Hit

WALKS = (2_000, 10_000)
Order = tuple[str, bool, tuple[str, bool] | None]  # column, biggest first, tie-break column
HIT_COLUMNS = (
    "p.id, p.product_id, p.name, p.brand, p.category, p.price, p.stock, "
    + ", ".join(f"p.{c}" for c in FACET_COLUMNS)
    + ", p.os, p.form_factor, p.dedicated_gpu, p.compare_at_price"
)


class Facets(Protocol):
    categories: set[str]

    def has_facet(self, category: str | None, column: str) -> bool: ...

    def facet_count(self, category: str, column: str) -> int: ...


def hit(row: tuple[Any, ...]) -> Hit:
    """A :class:`Hit` from a row that starts with ``HIT_COLUMNS``."""
    facets = zip(FACET_COLUMNS, row[7:], strict=False)
    specs: dict[str, Any] = {column: value for column, value in facets if value is not None}
    os_name, form, gpu, before = row[7 + len(FACET_COLUMNS) : 11 + len(FACET_COLUMNS)]
    if os_name is not None:
        specs[OS.column] = os_name
    if form is not None:
        specs[FORM_FACTOR.column] = form
    specs["dedicated_gpu"] = bool(gpu)
    return Hit(row[1], row[2], row[3], row[4], row[5], int(row[6]), specs, before)


def where(plan: Plan, extra: list[str] | None = None) -> str:
    parts = [*plan.conditions, *(extra or [])]
    return " AND ".join(parts) if parts else "1"


def order_by(order: Order) -> str:
    column, desc, second = order
    parts = [f"p.{column} {'DESC' if desc else 'ASC'}"]
    if second:
        parts.append(f"p.{second[0]} {'DESC' if second[1] else 'ASC'}")
    return ", ".join(parts)


class Sorter:
    def __init__(self, index: Facets, db: Any) -> None:
        self.index = index
        self.db = db

    def sorted(self, plan: Plan, limit: int, order: Order, *, small: bool) -> list[Hit]:
        """In stock first, then by ``order`` (products without the spec last), ties by price.

        A small set (``small``: fewer than ``count_cap``) is sorted in one query. A large
        one in phases that each walk a (category, column) index in order and stop at
        ``limit``, one category at a time when the search has none: one ORDER BY over
        all of them would sort every matching product.
        """
        column, _, second = order
        if small:
            sql = (
                f"SELECT {HIT_COLUMNS} FROM products AS p WHERE {where(plan)}"
                f" ORDER BY p.stock <= 0, p.{column} IS NULL, {order_by(order)},"
                " p.price, p.id LIMIT ?"
            )
            return [hit(row) for row in self.db.execute(sql, [*plan.params, limit])]
        categories = [plan.category] if plan.category else sorted(self.index.categories)
        then: Order = (second[0], second[1], None) if second else ("price", False, None)
        hits: list[Hit] = []
        for in_stock in (True, False):
            for with_values in (True, False):
                if len(hits) < limit:
                    phase = (in_stock, with_values, column, order if with_values else then)
                    hits += self._phase(plan, categories, phase, limit - len(hits))
        return hits

    def _phase(
        self,
        plan: Plan,
        categories: list[str],
        phase: tuple[bool, bool, str, Order],
        limit: int,
    ) -> list[Hit]:
        """The first ``limit`` products by the phase's order among ``categories``."""
        in_stock, with_values, column, order = phase
        conditions = [
            "p.stock > 0" if in_stock else "p.stock <= 0",
            f"p.{column} {'IS NOT' if with_values else 'IS'} NULL",
        ]
        rows: list[tuple[Any, ...]] = []
        for category in categories:
            if with_values and not self.index.has_facet(category, column):
                continue
            rows += self._walk(plan, category, conditions, order, with_values, limit)
        rows.sort(key=row_key(order))
        return [hit(row) for row in rows[:limit]]

    def _walk(
        self,
        plan: Plan,
        category: str,
        conditions: list[str],
        order: Order,
        with_values: bool,
        limit: int,
    ) -> list[tuple[Any, ...]]:
        """One category's first ``limit`` rows by ``order``.

        The (category, column) index is walked in order, in widening steps: first the
        rows up to the ``WALKS[0]``-th value, then up to the ``WALKS[1]``-th; whatever
        the filters keep inside a step is exactly the start of the answer, so a step
        that keeps ``limit`` rows is the answer. Filters that prefer the other end of
        the order (cheap computers by memory) need wider steps; past the last, the
        planner sorts everything that passes them.
        """
        column, desc, _ = order
        # The index's own order (ties in row order): naming p.id would make SQLite sort.
        by = order_by(order) + ("" if column == "price" else ", p.price")
        condition = where(plan, [*conditions, "p.category = ?"])
        sql = f"SELECT {HIT_COLUMNS} FROM products AS p WHERE {condition} ORDER BY {by} LIMIT ?"
        params = [*plan.params, category, limit]
        walks: tuple[int, ...] = ()
        if not plan.brand:
            walks = WALKS if column == "price" or with_values else ()
        elif with_values and column != "price" and self._walks(sql, params, column):
            # A brand by a spec, where the planner walks the category's index on the spec:
            # a brand at the top of its order is found in a step, but one lower down is
            # behind every other brand's rows (Apple's cameras, behind every bigger one).
            # Past a step, the brand's own rows are sorted, ties in the order the walk
            # met them: its rows' order, or their reverse where it walks backwards.
            backwards = FACET_DIRECTION.get(column, "ASC") != ("DESC" if desc else "ASC")
            walks = WALKS[:1]
            sql = (
                f"SELECT {HIT_COLUMNS} FROM products AS p INDEXED BY products_brand"
                f" WHERE {condition} ORDER BY {by}, p.id{' DESC' if backwards else ''} LIMIT ?"
            )
        index = f"products_category_{column}"
        total = self.index.facet_count(category, column) if walks else 0
        for walk in walks:
            if walk >= total:
                break
            edge = self.db.execute(
                f"SELECT p.{column} FROM products AS p INDEXED BY {index}"
                f" WHERE p.category = ? AND p.{column} IS NOT NULL"
                f" ORDER BY p.{column} {'DESC' if desc else 'ASC'} LIMIT 1 OFFSET ?",
                (category, walk),
            ).fetchone()
            if edge is None:
                break
            stepped = (
                f"SELECT {HIT_COLUMNS} FROM products AS p INDEXED BY {index}"
                f" WHERE {condition} AND p.{column} {'>=' if desc else '<='} ?"
                f" ORDER BY {by} LIMIT ?"
            )
            rows = list(self.db.execute(stepped, [*plan.params, category, edge[0], limit]))
            if len(rows) >= limit:
                return rows
        return list(self.db.execute(sql, params))

    def _walks(self, sql: str, params: list[Any], column: str) -> bool:
        """Whether SQLite answers ``sql`` by walking the category's index on ``column``
        (the planner weighs a brand's rows against the walk without knowing where in the
        order the brand's are)."""
        walk = re.compile(rf"\bINDEX products_category_{column}\b")
        steps = self.db.execute(f"EXPLAIN QUERY PLAN {sql}", params).fetchall()
        return any(walk.search(str(step[-1])) for step in steps)


def row_key(order: Order) -> Any:
    """Sort key of a hit row (``HIT_COLUMNS`` order) for ``order``, then price and id."""
    positions = {column: 7 + i for i, column in enumerate(FACET_COLUMNS)} | {"price": 5}
    column, desc, second = order
    fields = [(positions[column], desc)]
    if second:
        fields.append((positions[second[0]], second[1]))
    fields.append((5, False))

    def key(row: tuple[Any, ...]) -> tuple[Any, ...]:
        parts: list[Any] = []
        for position, biggest_first in fields:
            value = row[position]
            missing = value is None
            number = 0.0 if missing else float(value)
            parts += [missing, -number if biggest_first else number]
        return (*parts, row[0])

    return key
