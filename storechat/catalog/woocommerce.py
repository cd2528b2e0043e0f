"""WooCommerce's product CSV export, as Products > Export writes it.

A row per product: ``Type`` is ``simple``, ``variable`` (a product with options, not
itself for sale), ``variation`` (one of those options, pointing at its product with
``Parent``: the parent's SKU or ``id:N``), ``grouped`` or ``external``. Attributes are
``Attribute N name`` / ``Attribute N value(s)``; lists (categories, images, values) are
joined with ", " and a comma inside a value is written "\\,". ``Published`` is 1
(published), 0 (private), -1 (draft) or 2 (pending review). Cells that begin with = + - @
get a leading apostrophe from the exporter (against spreadsheet formulas); it is removed.

Each simple product and each variation becomes one catalog product; a variation takes
what it does not set itself (description, category, brand, images, the attributes
that are not its options) from its parent. A draft, private, pending or hidden product,
a grouped product and one whose category maps to none are not imported.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import date
from pathlib import Path

from shared.catalog.categories import Category
from shared.catalog.specs import ISBN
from storechat.catalog.mapping import Decision
from storechat.catalog.platform import (
    Columns,
    Draft,
    ExportReader,
    count,
    description,
    isbn,
    price,
    product_id,
    spellings,
    split_list,
)
from storechat.catalog.rows import Raw, ReadOptions, RowProblem, SkippedRow
from storechat.catalog.textfile import CsvFile

NAMES: dict[str, tuple[str, ...]] = {
    "id": ("ID",),
    "type": ("Type",),
    "sku": ("SKU",),
    "gtin": ("GTIN, UPC, EAN, or ISBN", "GTIN, UPC, EAN or ISBN"),
    "name": ("Name",),
    "published": ("Published",),
    "visibility": ("Visibility in catalog", "Visibility in catalogue"),
    "short": ("Short description",),
    "description": ("Description",),
    "sale_from": ("Date sale price starts",),
    "sale_to": ("Date sale price ends",),
    "in_stock": ("In stock?",),
    "stock": ("Stock",),
    "sale_price": ("Sale price",),
    "regular_price": ("Regular price",),
    "categories": ("Categories",),
    "images": ("Images",),
    "parent": ("Parent",),
    "brands": ("Brands", "Brand"),
}
"""Each column read, by all its spellings; every other column is ignored."""
NOT_PUBLISHED = {"-1": "a draft", "0": "private", "2": "pending review"}
_FORMULA_GUARD = re.compile(r"'(?=[=+\-@\t\r])")
_DATE = re.compile(r"(\d{4})-(\d{2})-(\d{2})")


_SPELLINGS = spellings(NAMES)


def _known(name: str) -> bool:
    name = name.strip()
    return name.casefold() in _SPELLINGS or bool(re.fullmatch(r"Attribute \d+ .*", name))


@dataclass(frozen=True)
class _Parent:
    """What a variable product lends its variations."""

    line: int
    cells: list[str]
    attributes: list[tuple[str, list[str]]]


def woocommerce_rows(path: Path, options: ReadOptions) -> Iterator[Raw | SkippedRow]:
    file = CsvFile(path, _known)
    if not file.header_line:
        return
    columns = Columns(file.header, NAMES, "WooCommerce")
    columns.require(("type", "name", "regular_price"))
    reader = _Reader(file, columns, options)
    parents, with_variations = reader.parents()
    for line, cells in reader.records():
        kind = reader.kind(cells)
        if kind == "variable":
            if reader.keys(cells).isdisjoint(with_variations):
                yield SkippedRow((line,), "a variable product with no variations")
        elif kind == "grouped":
            yield SkippedRow((line,), "a grouped product (its products have rows of their own)")
        elif kind == "variation":
            parent = parents.get(columns.cell(cells, "parent"))
            if parent is None:
                named = columns.cell(cells, "parent")
                reason = f"its Parent {named!r} is not a variable product in this file"
                yield Raw(line, None, (RowProblem(line, columns.name("parent"), reason),))
            else:
                yield from reader.product(line, cells, parent)
        else:
            yield from reader.product(line, cells, None)


class _Reader(ExportReader):
    FIELD_COLUMNS = {
        "productId": "sku",
        "name": "name",
        "brand": "brands",
        "category": "categories",
        "price": "regular_price",
        "description": "description",
        "stock": "stock",
        "imageUrl": "images",
    }

    NAME_VALUE_COLUMNS = (r"Attribute (\d+) name", r"Attribute (\d+) value\(s\)")

    def __init__(self, file: CsvFile, columns: Columns, options: ReadOptions) -> None:
        super().__init__(file, columns, options)
        self._text: tuple[int, str] | None = None

    def kind(self, cells: list[str]) -> str:
        # "simple, virtual", "variable-subscription", "subscription_variation": the first
        # word names the kind; plugin kinds read as the kind they extend.
        first = (split_list(self.columns.cell(cells, "type")) or ["simple"])[0].casefold()
        if first.endswith("variation"):
            return "variation"
        if first.startswith("variable"):
            return "variable"
        return first if first == "grouped" else "simple"

    def keys(self, cells: list[str]) -> set[str]:
        """How a variation may name this product in its ``Parent``: ``id:N`` or the SKU."""
        keys = {f"id:{self.columns.cell(cells, 'id')}"}
        if self.columns.cell(cells, "sku"):
            keys.add(self.columns.cell(cells, "sku"))
        return keys

    def records(self) -> Iterator[tuple[int, list[str]]]:
        for record in self.file.records():
            yield record.line, [_FORMULA_GUARD.sub("", cell, count=1) for cell in record.cells]

    def parents(self) -> tuple[dict[str, _Parent], set[str]]:
        """Every variable product by the names its variations use, and the names used.

        A first pass, so that a variation may come before its parent; only the parents
        are kept, never the whole file.
        """
        parents: dict[str, _Parent] = {}
        used: set[str] = set()
        for line, cells in self.records():
            kind = self.kind(cells)
            if kind == "variable":
                parent = _Parent(line, cells, self.attributes(cells))
                parents.update((key, parent) for key in self.keys(cells))
            elif kind == "variation":
                used.add(self.columns.cell(cells, "parent"))
        return parents, used

    def attributes(self, cells: list[str]) -> list[tuple[str, list[str]]]:
        found = []
        for name_index, values_index in self.named_columns:
            name = cells[name_index].strip() if name_index < len(cells) else ""
            values = (
                cells[values_index]
                if values_index is not None and values_index < len(cells)
                else ""
            )
            if name:
                found.append((name, split_list(values)))
        return found

    def product(
        self, line: int, cells: list[str], parent: _Parent | None
    ) -> Iterator[Raw | SkippedRow]:
        cell = self.columns.cell
        base = parent.cells if parent else cells
        why_not = self._not_sold(cells, parent)
        decision = self.options.categories.decide(split_list(cell(base, "categories")))
        if why_not or decision.category is None:
            yield SkippedRow((line,), why_not or decision.reason)
            return
        yield self._draft(line, cells, parent, decision).raw()

    def _not_sold(self, cells: list[str], parent: _Parent | None) -> str:
        cell = self.columns.cell
        for row in (parent.cells, cells) if parent else (cells,):
            published = cell(row, "published")
            if published in NOT_PUBLISHED:
                whose = "its product is " if row is not cells else ""
                return f"{whose}{NOT_PUBLISHED[published]} (Published: {published})"
        if cell(parent.cells if parent else cells, "visibility").casefold() == "hidden":
            return "hidden from the store's catalog (Visibility in catalog: hidden)"
        return ""

    def _draft(
        self, line: int, cells: list[str], parent: _Parent | None, decision: Decision
    ) -> Draft:
        cell = self.columns.cell
        base = parent.cells if parent else cells
        draft = Draft(line, self.field_columns, category_from=decision.path)
        fields = draft.fields
        own = self.attributes(cells)
        options = [(name, values[0]) for name, values in own if parent and values]
        name = cell(cells, "name") or cell(base, "name")
        if parent and not cell(cells, "name") and options:
            name = f"{name} - {', '.join(value for _, value in options)}"
        sku = cell(cells, "sku")
        draft.variant = f"wc-{cell(cells, 'id')}" if cell(cells, "id") else None
        identity = product_id(sku) if sku else product_id(f"wc-{cell(cells, 'id')}")
        if identity and (sku or cell(cells, "id")):
            fields["productId"] = identity
        else:
            draft.problem("productId", "no usable id: the row has neither a SKU nor an ID")
        fields["name"] = name
        brands = split_list(cell(cells, "brands") or cell(base, "brands"))
        if brands:
            fields["brand"] = brands[0]
        fields["category"] = decision.category
        own_names = {attribute.casefold() for attribute, _ in own}
        for attribute, values in parent.attributes if parent else []:
            if attribute.casefold() not in own_names:
                draft.add_spec(attribute, values)
        for attribute, values in own:
            if values:
                draft.add_spec(attribute, values if not parent else values[0])
        self._price(cells, draft)
        # The short description is the summary a shopper reads first; a variation's own
        # texts, when it has them, say what differs from its product.
        if parent and not (cell(cells, "short") or cell(cells, "description")):
            text = self._parent_text(parent)
        else:
            short = cell(cells, "short") or (cell(base, "short") if parent else "")
            long = cell(cells, "description") or (cell(base, "description") if parent else "")
            text = description(_newlines(short), _newlines(long))
        if not text:
            draft.notes.append("no description in the export: its name stands in for one")
        fields["description"] = text or name
        fields["stock"] = self._stock(cells, parent, draft)
        images = split_list(cell(cells, "images")) or split_list(cell(base, "images"))
        if images:
            fields["imageUrl"] = images[0]
        code = isbn(cell(cells, "gtin") or cell(base, "gtin"))
        if decision.category == Category.BOOKS and code:
            draft.specs.setdefault(ISBN.key, code)
        return draft

    def _parent_text(self, parent: _Parent) -> str:
        # Once per parent, not per variation: HTML parsing is most of an import's time.
        # The exporter writes a product's variations together, so the last one is enough.
        if self._text is None or self._text[0] != parent.line:
            cell = self.columns.cell
            text = description(
                _newlines(cell(parent.cells, "short")), _newlines(cell(parent.cells, "description"))
            )
            self._text = (parent.line, text)
        return self._text[1]

    def _price(self, cells: list[str], draft: Draft) -> None:
        cell, comma = self.columns.cell, self.file.decimal_comma
        try:
            regular = price(cell(cells, "regular_price"), comma)
            sale = price(cell(cells, "sale_price"), comma)
        except ValueError as exc:
            draft.problem("price", str(exc))
            return
        if sale is not None and _on_sale(
            cell(cells, "sale_from"), cell(cells, "sale_to"), self.options.today
        ):
            draft.fields["price"] = sale
        elif regular is not None:
            draft.fields["price"] = regular
        else:
            draft.problem("price", "is empty: a product for sale needs a Regular price")

    def _stock(self, cells: list[str], parent: _Parent | None, draft: Draft) -> int:
        cell = self.columns.cell
        stock = cell(cells, "stock")
        source = parent.cells if parent and stock.casefold() == "parent" else cells
        quantity = count(cell(source, "stock"))
        if quantity is not None:
            return quantity
        if cell(source, "in_stock") == "0":
            return 0
        return self.unknown_stock(draft)


def _newlines(text: str) -> str:
    # The exporter writes a line break as the two characters \n (and a real \n as \\n).
    return re.sub(r"(?<!\\)\\n", "\n", text).replace("\\\\n", "\\n")


def _on_sale(starts: str, ends: str, today: date) -> bool:
    """Whether a sale price applies today: no dates, or today within them."""
    begin, end = _day(starts), _day(ends)
    return (begin is None or begin <= today) and (end is None or today <= end)


def _day(text: str) -> date | None:
    match = _DATE.match(text.strip())
    if not match:
        return None
    try:
        return date(int(match[1]), int(match[2]), int(match[3]))
    except ValueError:
        return None
