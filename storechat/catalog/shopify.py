"""Shopify's product CSV export, as the admin's Products > Export writes it.

The export has a row per variant, grouped under the product's handle: the product's
own fields (title, description, vendor, category, status, ...) only on its first row,
each variant's options, SKU, price and stock on its own row, and extra images on rows
of their own. Both spellings of the header are read: the classic one (``Handle``,
``Body (HTML)``, ``Variant Price``, ``Variant Inventory Qty``, ``Image Src``) and the
2024 one (``URL handle``, ``Description``, ``Price``, ``Inventory quantity``,
``Product image URL``).

Each handle's rows are read as one :class:`~shared.platform.product.PlatformProduct`
and mapped as every platform's products are: each variant becomes one catalog product
(docs/catalog.md, "Shopify and WooCommerce exports"), its options in its name ("Pixel 9 - 256 GB /
Obsidian") and its specs ("storageGb": 256). A product that is a draft, archived,
unlisted, not published on the online store, or a gift card is not imported; nor one
whose category maps to none.

A store with several locations exports one ``Inventory Available: <location>`` column
per location: a variant's stock is their sum. The product's page is the store's address
(``--store-url``) and ``/products/<handle>``, with ``?variant=<id>`` when the export has
the variant's id (Shopify's own export has no ids; a webhook's payload and the Admin API
do).
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from shared.platform.draft import price
from shared.platform.product import PlatformProduct, PlatformVariant, catalog_rows
from shared.platform.rows import Raw, ReadOptions, RowProblem, SkippedRow
from shared.platform.shopify import DEFAULT_OPTION, product_page
from shared.platform.shopify import NOT_SOLD_STATUS as NOT_IMPORTED_STATUS
from storechat.catalog.platform import (
    Columns,
    ExportReader,
    count,
    flag,
    spellings,
    split_list,
    units,
)
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
    "compare_at": ("Variant Compare At Price", "Compare-at price", "Compare At Price"),
    "tags": ("Tags",),
    "product_id": ("ID", "Product ID"),
    "variant_id": ("Variant ID",),
    "image": ("Image Src", "Product image URL"),
    "position": ("Image Position", "Image position"),
    "variant_image": ("Variant Image", "Variant image URL"),
    "gift_card": ("Gift Card", "Gift card"),
}
"""Each column read, by all its spellings; every other column is ignored."""
_METAFIELD = re.compile(r"(.+?)\s*\((?:product|variant)\.metafields\.[^)]*\)", re.IGNORECASE)
LOCATION = re.compile(r"Inventory Available:\s*(.+)", re.IGNORECASE)
"""A multi-location store's column of one location's available units."""


_SPELLINGS = spellings(NAMES)


def _known(name: str) -> bool:
    return name.strip().casefold() in _SPELLINGS or bool(LOCATION.fullmatch(name.strip()))


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


class _Reader(ExportReader):
    FIELD_COLUMNS = {
        "productId": "sku",
        "name": "title",
        "brand": "vendor",
        "category": "category",
        "price": "price",
        "compareAtPrice": "compare_at",
        "description": "body",
        "stock": "quantity",
        "imageUrl": "image",
        "tags": "tags",
    }

    NAME_VALUE_COLUMNS = (r"Option(\d) name", r"Option(\d) value")

    def __init__(self, file: CsvFile, columns: Columns, options: ReadOptions) -> None:
        super().__init__(file, columns, options)
        self.metafields = [
            (match[1], index)
            for index, name in enumerate(file.header)
            if (match := _METAFIELD.fullmatch(name.strip()))
        ]
        self.locations = [
            index for index, name in enumerate(file.header) if LOCATION.fullmatch(name.strip())
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
        yield from catalog_rows(self.platform_product(product), self.options)

    def platform_product(self, product: _Product) -> PlatformProduct:
        """One handle's rows, as every platform's product is described."""
        cell, first = self.columns.cell, product.first
        options = [
            first[index].strip() if index < len(first) else "" for index, _ in self.named_columns
        ]
        attributes = []
        for label, index in self.metafields:
            value = first[index].strip() if index < len(first) else ""
            if value and not value.startswith("gid://"):
                attributes.append((label, value))
        return PlatformProduct(
            title=cell(first, "title"),
            vendor=cell(first, "vendor"),
            categories=(cell(first, "category"), cell(first, "type")),
            tags=tuple(split_list(cell(first, "tags"))),
            description=(cell(first, "body"),),
            attributes=tuple(attributes),
            images=tuple(url for _, url in sorted(product.images, key=lambda image: image[0])),
            handle=product.handle,
            platform_id=cell(first, "product_id"),
            url=product_page(self.options.store_url, product.handle),
            not_sold=self._not_sold(first),
            variants=tuple(
                self._variant(product, line, cells, options) for line, cells in product.variants
            ),
            lines=tuple(product.lines),
            columns=self.field_columns,
        )

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

    def _variant(
        self, product: _Product, line: int, cells: list[str], names: list[str]
    ) -> PlatformVariant:
        cell = self.columns.cell
        chosen: list[tuple[str, str]] = []
        for (_, value_index), option in zip(self.named_columns, names, strict=True):
            value = (
                cells[value_index].strip()
                if value_index is not None and value_index < len(cells)
                else ""
            )
            if value and (option.casefold(), value.casefold()) != DEFAULT_OPTION:
                chosen.append((option, value))
        problems: list[tuple[str, str]] = []
        amounts: dict[str, float | None] = {}
        for key, name in (("price", "price"), ("compare_at", "compareAtPrice")):
            try:
                amounts[key] = price(cell(cells, key), self.file.decimal_comma)
            except ValueError as exc:
                amounts[key] = None
                problems.append((name, str(exc)))
        variant_id = cell(cells, "variant_id")
        return PlatformVariant(
            line=line,
            sku=cell(cells, "sku"),
            fallback_id="-".join([product.handle, *(value for _, value in chosen)]),
            options=tuple(chosen),
            price=amounts["price"],
            compare_at_price=amounts["compare_at"],
            inventory=(stock := self._stock(cells)),
            untracked=stock is None and self._untracked(cells),
            image=cell(cells, "variant_image"),
            barcode=cell(cells, "barcode"),
            platform_id=variant_id,
            url=product_page(self.options.store_url, product.handle, variant_id),
            problems=tuple(problems),
        )

    def _stock(self, cells: list[str]) -> int | None:
        """The variant's units when inventory is tracked: the sum over the store's
        locations when the export has a column per location, else the one quantity. An
        untracked variant's cells (often 0) are no count: None."""
        if self._untracked(cells):
            return None
        at = [units(cells[i]) for i in self.locations if i < len(cells)]
        counted = [number for number in at if number is not None]
        if counted:
            # Shopify's own total: a location that sold more than it had counts against it.
            return max(sum(counted), 0)
        return count(self.columns.cell(cells, "quantity"))

    def _untracked(self, cells: list[str]) -> bool:
        """Whether the export says Shopify does not track the variant's inventory (its
        "Variant Inventory Tracker" empty): Shopify sells it whatever the count."""
        return self.columns.has("tracker") and not self.columns.cell(cells, "tracker")
