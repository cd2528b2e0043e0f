"""Products as the model reads them: one table, each field named once.

A catalog result shows a model a few products, each with the same dozen fields. Written
as one JSON object per product, every field's name is repeated on every product: a
quarter of the tokens of a typical result, read again on every later call of the turn.
As a table the names are written once::

    {"columns": ["productId", "name", "brand", "price", "stock", "os", "weightKg", ...],
     "rows": [["CMP-022", "HP Envy x360 14 (2024)", "HP", 849, 20, "Windows 11 Home", 1.39, ...],
              ...]}

``productId`` is always the first column. A product's specs are columns of their own
after its fields (``null`` where a product has no such spec); a spec whose key is also
the name of a field is the column ``spec.<key>``. A value every row of two or more has
(Apple phones' brand and system, a shelf of 14-inch laptops) is said once, in
``"same": {"brand": "Apple", ...}``, and its column is left out: the model reads it as
every product's. :func:`as_table` writes the table
from the compact products (``lookup_inventory.records.compact``); :func:`shown_products`
reads a result's ``products`` back as those objects, a table or (from an older result,
or a test's script) the list itself, for the code that reads a result as a model would:
the offline model, the red team's obedient model.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Final

FIELDS: Final = (
    "productId",
    "name",
    "brand",
    "category",
    "price",
    "sale",
    "stock",
    "stockTracked",
    "summary",
)
"""A compact product's own fields, in the order a table writes them (the specs go between
``stockTracked`` and ``summary``). ``stockTracked`` is ``false`` for a product the store
sells uncounted (its ``stock`` null: in stock, no count), and its column is there only
when a product shown is one."""
SPEC_PREFIX: Final = "spec."
_BEFORE_SPECS: Final = FIELDS[: FIELDS.index("stockTracked") + 1]
_AFTER_SPECS: Final = FIELDS[FIELDS.index("stockTracked") + 1 :]


def as_table(products: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    """``{"columns": [...], "rows": [[...], ...]}`` holding ``products``: the fields any of
    them has, in :data:`FIELDS`' order, then their specs' keys in the order first met."""
    present = {key for product in products for key in product}
    specs: dict[str, None] = {}
    for product in products:
        specs.update(dict.fromkeys(_specs(product)))
    head = [field for field in _BEFORE_SPECS if field in present]
    tail = [field for field in _AFTER_SPECS if field in present]
    columns = [*head, *(_spec_column(key) for key in specs), *tail]
    rows = [
        [
            *(product.get(field) for field in head),
            *(_specs(product).get(key) for key in specs),
            *(product.get(field) for field in tail),
        ]
        for product in products
    ]
    same = _same(columns, rows)
    if not same:
        return {"columns": columns, "rows": rows}
    kept = [i for i, column in enumerate(columns) if column not in same]
    return {
        "columns": [columns[i] for i in kept],
        "rows": [[row[i] for i in kept] for row in rows],
        "same": same,
    }


def _same(columns: list[str], rows: list[list[Any]]) -> dict[str, Any]:
    """The columns (never the id) whose every one of two or more rows holds one value."""
    if len(rows) < 2:
        return {}
    return {
        column: rows[0][i]
        for i, column in enumerate(columns)
        if column != "productId"
        and rows[0][i] is not None
        and all(_alike(row[i], rows[0][i]) for row in rows[1:])
    }


def _alike(a: Any, b: Any) -> bool:
    """Equal as JSON reads them: ``true`` is not ``1``."""
    return a == b and isinstance(a, bool) == isinstance(b, bool)


def shown_products(value: Any) -> list[dict[str, Any]]:
    """A result's ``products`` as one object per product, its specs under ``specs``, each
    with the values ``same`` says every row has; ``[]`` for anything else. A cell that is
    ``null`` is a field or spec the product lacks."""
    if isinstance(value, list):
        return [item for item in value if isinstance(item, dict)]
    if not isinstance(value, dict):
        return []
    columns, rows = value.get("columns"), value.get("rows")
    if not isinstance(columns, list) or not isinstance(rows, list):
        return []
    same = value.get("same")
    shared = [(k, v) for k, v in same.items() if k not in columns] if isinstance(same, dict) else []
    products: list[dict[str, Any]] = []
    for row in rows:
        if not isinstance(row, list) or len(row) != len(columns):
            continue
        product: dict[str, Any] = {}
        specs: dict[str, Any] = {}
        for column, cell in [*zip(columns, row, strict=True), *shared]:
            if cell is None or not isinstance(column, str):
                continue
            if column in FIELDS:
                product[column] = cell
            else:
                specs[column.removeprefix(SPEC_PREFIX)] = cell
        product["specs"] = specs
        products.append(product)
    return products


def _specs(product: Mapping[str, Any]) -> dict[str, Any]:
    specs = product.get("specs")
    return dict(specs) if isinstance(specs, Mapping) else {}


def _spec_column(key: str) -> str:
    return f"{SPEC_PREFIX}{key}" if key in FIELDS or key.startswith(SPEC_PREFIX) else key
