"""Shopify's product CSV export, as the admin's Products > Export writes it.

The export has a row per variant, grouped under the product's handle: the product's
own fields (title, description, vendor, category, status, ...) only on its first row,
each variant's options, SKU, price and stock on its own row, and extra images on rows
of their own. Both spellings of the header are read: the classic one (``Handle``,
``Body (HTML)``, ``Variant Price``, ``Variant Inventory Qty``, ``Image Src``) and the
2024 one (``URL handle``, ``Description``, ``Price``, ``Inventory quantity``,
``Product image URL``).

Each variant becomes one catalog product (README, "Shopify and WooCommerce"): its
options are in its name ("Pixel 9 - 256 GB / Obsidian") and become specs
("storageGb": 256). A product that is a draft, archived, unlisted, not published on
the online store, or a gift card is not imported; nor one whose category maps to none.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
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
    flag,
    isbn,
    price,
    product_id,
    spellings,
)
from storechat.catalog.rows import Raw, ReadOptions, RowProblem, SkippedRow
from storechat.catalog.textfile import CsvFile

NAMES: dict[str, tuple[str, ...]] = {
    "handle": ("Handle", "URL handle"),
    "title": ("Title",),
    "body": ("Body (HTML)", "Description"),
    "vendor": ("Vendor",),
    "category": ("Product Category", "Product category"),
    "type": ("Type",),
    "published": ("Published", "Published on online store"),
    "status": ("Status",),
    "sku": ("Variant SKU", "SKU"),
    "barcode": ("Variant Barcode", "Barcode"),
    "tracker": ("Variant Inventory Tracker", "Inventory tracker"),
    "quantity": ("Variant Inventory Qty", "Inventory quantity"),
    "price": ("Variant Price", "Price"),
    "image": ("Image Src", "Product image URL"),
    "position": ("Image Position", "Image position"),
    "variant_image": ("Variant Image", "Variant image URL"),
    "gift_card": ("Gift Card", "Gift card"),
}
"""Each column read, by all its spellings; every other column is ignored."""
NOT_IMPORTED_STATUS = {
    "draft": "a draft",
    "archived": "archived",
    "unlisted": "unlisted (not shown in the store)",
}
DEFAULT_OPTION = ("title", "default title")
"""Shopify's option name and value for a product without variants."""
_METAFIELD = re.compile(r"(.+?)\s*\((?:product|variant)\.metafields\.[^)]*\)", re.IGNORECASE)


_SPELLINGS = spellings(NAMES)


def _known(name: str) -> bool:
    return name.strip().casefold() in _SPELLINGS


@dataclass
class _Product:
    """One handle's rows: its first row's cells, its variants' and its images."""

    handle: str
    first: list[str]
    lines: list[int]
    variants: list[tuple[int, list[str]]] = field(default_factory=list)
    images: list[tuple[int, str]] = field(default_factory=list)


def shopify_rows(path: Path, options: ReadOptions) -> Iterator[Raw | SkippedRow]:
    file = CsvFile(path, _known)
    columns = Columns(file.header, NAMES, "Shopify")
    if not file.header_line:
        return
    columns.require(("handle", "title", "price"))
    reader = _Reader(file, columns, options)
    current: _Product | None = None
    ended: dict[str, int] = {}
    for record in file.records():
        handle = columns.cell(record.cells, "handle")
        if current is not None and handle == current.handle:
            reader.add(current, record.line, record.cells)
            continue
        if current is not None:
            yield from reader.products(current)
        if not handle:
            reason = f"has no {columns.name('handle')}: every row belongs to a product's handle"
            yield Raw(record.line, None, (RowProblem(record.line, "", reason),))
            current = None
            continue
        if handle in ended:
            reason = (
                f"handle {handle!r} is also on line {ended[handle]}: a product's rows must be "
                "together, as Shopify exports them"
            )
            yield Raw(record.line, None, (RowProblem(record.line, columns.name("handle"), reason),))
            current = None
            continue
        ended[handle] = record.line
        current = _Product(handle, record.cells, [record.line])
        reader.add(current, record.line, record.cells, first=True)
    if current is not None:
        yield from reader.products(current)


@dataclass(frozen=True)
class _Shared:
    """What every variant of one product has: its category, option names, picture, text."""

    decision: Decision
    options: list[str]
    image: str | None
    text: str


class _Reader(ExportReader):
    FIELD_COLUMNS = {
        "productId": "sku",
        "name": "title",
        "brand": "vendor",
        "category": "category",
        "price": "price",
        "description": "body",
        "stock": "quantity",
        "imageUrl": "image",
    }

    NAME_VALUE_COLUMNS = (r"Option(\d) name", r"Option(\d) value")

    def __init__(self, file: CsvFile, columns: Columns, options: ReadOptions) -> None:
        super().__init__(file, columns, options)
        self.metafields = [
            (match[1], index)
            for index, name in enumerate(file.header)
            if (match := _METAFIELD.fullmatch(name.strip()))
        ]

    def add(self, product: _Product, line: int, cells: list[str], *, first: bool = False) -> None:
        if not first:
            product.lines.append(line)
        cell = self.columns.cell
        image = cell(cells, "image")
        if image:
            position = count(cell(cells, "position"))
            product.images.append((position if position is not None else 1_000_000, image))
        values = [
            cells[i].strip() for _, i in self.named_columns if i is not None and i < len(cells)
        ]
        if first or any(values) or cell(cells, "sku") or cell(cells, "price"):
            product.variants.append((line, cells))

    def products(self, product: _Product) -> Iterator[Raw | SkippedRow]:
        cell, first = self.columns.cell, product.first
        why_not = self._not_sold(first)
        decision = self.options.categories.decide([cell(first, "category"), cell(first, "type")])
        if why_not or decision.category is None:
            yield SkippedRow(tuple(product.lines), why_not or decision.reason)
            return
        shared = _Shared(
            decision,
            [first[index].strip() if index < len(first) else "" for index, _ in self.named_columns],
            min(product.images)[1] if product.images else None,
            # Once per product, not per variant: HTML parsing is most of an import's time.
            description(cell(first, "body")),
        )
        for line, cells in product.variants:
            yield self._variant(product, line, cells, shared)

    def _not_sold(self, first: Sequence[str]) -> str:
        cell = self.columns.cell
        status = cell(first, "status").casefold()
        if status in NOT_IMPORTED_STATUS:
            return f"{NOT_IMPORTED_STATUS[status]} ({self.columns.name('status')}: {status})"
        if flag(cell(first, "published")) is False:
            return f"not published on the online store ({self.columns.name('published')})"
        if flag(cell(first, "gift_card")):
            return "a gift card"
        return ""

    def _variant(self, product: _Product, line: int, cells: list[str], shared: _Shared) -> Raw:
        cell, first = self.columns.cell, product.first
        category = shared.decision.category
        draft = Draft(line, self.field_columns, category_from=shared.decision.path)
        title = cell(first, "title")
        values: list[str] = []
        for (_, value_index), option in zip(self.named_columns, shared.options, strict=True):
            value = (
                cells[value_index].strip()
                if value_index is not None and value_index < len(cells)
                else ""
            )
            if not value or (option.casefold(), value.casefold()) == DEFAULT_OPTION:
                continue
            values.append(value)
            draft.add_spec(option, value)
        for label, index in self.metafields:
            value = first[index].strip() if index < len(first) else ""
            if value and not value.startswith("gid://"):
                draft.add_spec(label, value)
        name = f"{title} - {' / '.join(values)}" if values else title
        sku = cell(cells, "sku")
        draft.variant = "-".join([product.handle, *values])
        identity = product_id(sku) if sku else product_id(draft.variant)
        fields = draft.fields
        if identity:
            fields["productId"] = identity
        else:
            draft.problem(
                "productId", f"no usable id: neither a SKU nor the handle {product.handle!r}"
            )
        fields["name"] = name
        if cell(first, "vendor"):
            fields["brand"] = cell(first, "vendor")
        fields["category"] = category
        try:
            amount = price(cell(cells, "price"), self.file.decimal_comma)
        except ValueError as exc:
            draft.problem("price", str(exc))
        else:
            if amount is None:
                draft.problem("price", "is empty: every variant needs a price")
            else:
                fields["price"] = amount
        text = shared.text
        if not text:
            draft.notes.append("no description in the export: its name stands in for one")
        fields["description"] = text or name
        fields["stock"] = self._stock(cells, draft)
        picture = cell(cells, "variant_image") or shared.image
        if picture:
            fields["imageUrl"] = picture
        code = isbn(cell(cells, "barcode"))
        if category == Category.BOOKS and code:
            draft.specs.setdefault(ISBN.key, code)
        return draft.raw()

    def _stock(self, cells: list[str], draft: Draft) -> int:
        quantity = count(self.columns.cell(cells, "quantity"))
        tracked = not self.columns.has("tracker") or bool(self.columns.cell(cells, "tracker"))
        if quantity is not None and tracked:
            return quantity
        return self.unknown_stock(draft)
