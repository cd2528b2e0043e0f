"""WooCommerce's product CSV export, as Products > Export writes it.

A row per product: ``Type`` is ``simple``, ``variable`` (a product with options, not
itself for sale), ``variation`` (one of those options, pointing at its product with
``Parent``: the parent's SKU or ``id:N``), ``grouped`` or ``external``. Attributes are
``Attribute N name`` / ``Attribute N value(s)``; lists (categories, images, values) are
joined with ", " and a comma inside a value is written "\\,". ``Published`` is 1
(published), 0 (private), -1 (draft) or 2 (pending review). Cells that begin with = + - @
get a leading apostrophe from the exporter (against spreadsheet formulas); it is removed.

Each simple product, and each variation with its parent, is read as a
:class:`~shared.platform.product.PlatformProduct` and mapped as every
platform's products are: each becomes one catalog product; a variation takes what it
does not set itself (description, category, brand, images, tags, the attributes that are
not its options) from its parent. A draft, private, pending or hidden product, a grouped
product and one whose category maps to none are not imported.

The price is the sale price while its dates say the sale is on, and the regular price is
then the price before it (``compareAtPrice``). A store with stock at several locations
(a plugin's ``Meta: _stock_at_<id>`` or ``Meta: _stocks_location_<id>`` columns, which the
exporter writes with "Export custom meta") has a product's stock summed over them. The
product's page is the export's permalink column when a plugin adds one, else WordPress's
link by id on the store's address (``--store-url``): ``/?p=<ID>`` (a variation's parent's),
which the store redirects to the product's page.

A book shop seldom fills ``Brands``: a book's maker is then its publisher, else its author
(an attribute, a tag "Author: ..." or a custom field the exporter writes with "Export
custom meta", ``Meta: author`` or ``Meta: book_author``; ``shared.platform.draft``).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import date
from pathlib import Path

from shared.platform.draft import price
from shared.platform.mapping import names_maker
from shared.platform.product import PlatformProduct, PlatformVariant, catalog_rows
from shared.platform.rows import Raw, ReadOptions, RowProblem, SkippedRow
from shared.platform.woocommerce import product_page
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
    "tags": ("Tags",),
    "permalink": ("Permalink", "Product URL", "Product permalink"),
}
"""Each column read, by all its spellings; every other column is ignored."""
NOT_PUBLISHED = {"-1": "a draft", "0": "private", "2": "pending review"}
_FORMULA_GUARD = re.compile(r"'(?=[=+\-@\t\r])")
_DATE = re.compile(r"(\d{4})-(\d{2})-(\d{2})")
LOCATION = re.compile(r"Meta:\s*_(?:stock_at|stocks_location)_\S+", re.IGNORECASE)
"""A multi-location plugin's meta column of one location's stock: "Stock Locations for
WooCommerce" writes ``_stock_at_<location id>``, "MultiLocation" ``_stocks_location_<id>``."""
META = re.compile(r"Meta:\s*([^_\s].*)", re.IGNORECASE)
"""A custom field the exporter writes with "Export custom meta": ``Meta: <key>``. One whose
key begins with ``_`` is a plugin's own (or ACF's reference to its field), never read."""


_SPELLINGS = spellings(NAMES)


def _known(name: str) -> bool:
    name = name.strip()
    return (
        name.casefold() in _SPELLINGS
        or bool(re.fullmatch(r"Attribute \d+ .*", name))
        or bool(LOCATION.fullmatch(name))
    )


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
        "compareAtPrice": "regular_price",
        "description": "description",
        "stock": "stock",
        "imageUrl": "images",
        "tags": "tags",
        "url": "permalink",
    }

    NAME_VALUE_COLUMNS = (r"Attribute (\d+) name", r"Attribute (\d+) value\(s\)")

    def __init__(self, file: CsvFile, columns: Columns, options: ReadOptions) -> None:
        super().__init__(file, columns, options)
        self.locations = [
            index for index, name in enumerate(file.header) if LOCATION.fullmatch(name.strip())
        ]
        self.makers = [
            (match[1], index)
            for index, name in enumerate(file.header)
            if (match := META.fullmatch(name.strip())) and names_maker(match[1])
        ]

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
        yield from catalog_rows(self.platform_product(line, cells, parent), self.options)

    def platform_product(
        self, line: int, cells: list[str], parent: _Parent | None
    ) -> PlatformProduct:
        """A simple product, or a variation with its parent, as every platform's product
        is described: the parent is the product, the variation its one variant."""
        cell = self.columns.cell
        base = parent.cells if parent else cells
        own = self.attributes(cells)
        own_names = {attribute.casefold() for attribute, _ in own}
        # A variation's own attributes are the options it is chosen by; its parent's others
        # are what every variation has. A simple product's are all its own.
        kept = (
            [(a, v) for a, v in parent.attributes if a.casefold() not in own_names]
            if parent
            else own
        )
        attributes = tuple((name, tuple(values)) for name, values in kept if values)
        options = tuple((name, values[0]) for name, values in own if values) if parent else ()
        # The short description is the summary a shopper reads first; a variation's own
        # texts, when it has them, say what differs from its product.
        texts = (_newlines(cell(base, "short")), _newlines(cell(base, "description")))
        variant_texts: tuple[str, ...] = ()
        if parent and (cell(cells, "short") or cell(cells, "description")):
            variant_texts = (
                _newlines(cell(cells, "short") or cell(base, "short")),
                _newlines(cell(cells, "description") or cell(base, "description")),
            )
        product_id = cell(base, "id")
        own_id = cell(cells, "id")
        page = cell(base, "permalink") or product_page(self.options.store_url, product_id)
        brands = split_list(cell(cells, "brands") or cell(base, "brands"))
        makers = tuple(
            (key, value)
            for key, index in self.makers
            if (value := _at(cells, index) or _at(base, index))
        )
        regular, sale, compare_at, problems = self._prices(cells)
        images = split_list(cell(cells, "images")) if parent else []
        return PlatformProduct(
            title=cell(base, "name"),
            vendor=brands[0] if brands else "",
            categories=tuple(split_list(cell(base, "categories"))),
            tags=tuple(split_list(cell(base, "tags"))),
            description=texts,
            attributes=attributes,
            custom_fields=makers,
            images=tuple(split_list(cell(base, "images"))),
            platform_id=product_id,
            url=page,
            not_sold=self._not_sold(cells, parent),
            variants=(
                PlatformVariant(
                    line=line,
                    sku=cell(cells, "sku"),
                    fallback_id=f"wc-{own_id}" if own_id else "",
                    title=cell(cells, "name") if parent else "",
                    options=options,
                    price=sale if sale is not None else regular,
                    compare_at_price=compare_at,
                    inventory=(stock := self._stock(cells, parent)),
                    untracked=(untracked := stock is None and self._in_stock(cells, parent)),
                    stock_status=self._status(cells, parent)
                    if stock is None and not untracked
                    else "",
                    image=images[0] if images else "",
                    barcode=cell(cells, "gtin") or cell(base, "gtin"),
                    platform_id=own_id if parent else "",
                    description=variant_texts,
                    problems=problems,
                ),
            ),
            lines=(line,),
            option_joiner=", ",
            columns=self.field_columns,
        )

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

    def _prices(
        self, cells: list[str]
    ) -> tuple[float | None, float | None, float | None, tuple[tuple[str, str], ...]]:
        """The regular price, the sale price when its dates say the sale is on (else
        None), the price before that sale, and what could not be read."""
        cell, comma = self.columns.cell, self.file.decimal_comma
        try:
            regular = price(cell(cells, "regular_price"), comma)
            sale = price(cell(cells, "sale_price"), comma)
        except ValueError as exc:
            return None, None, None, (("price", str(exc)),)
        if sale is not None and not _on_sale(
            cell(cells, "sale_from"), cell(cells, "sale_to"), self.options.today
        ):
            sale = None
        if sale is None and regular is None:
            return (
                None,
                None,
                None,
                (("price", "is empty: a product for sale needs a Regular price"),),
            )
        return regular, sale, regular if sale is not None else None, ()

    def _stock(self, cells: list[str], parent: _Parent | None) -> int | None:
        cell = self.columns.cell
        at = [units(cells[i]) for i in self.locations if i < len(cells)]
        counted = [number for number in at if number is not None]
        if counted:
            return max(sum(counted), 0)
        stock = cell(cells, "stock")
        source = parent.cells if parent and stock.casefold() == "parent" else cells
        quantity = count(cell(source, "stock"))
        if quantity is not None:
            return quantity
        if cell(source, "in_stock") == "0":
            return 0
        return None

    def _status(self, cells: list[str], parent: _Parent | None) -> str:
        """What "In stock?" says ("backorder"), as the export writes it."""
        stock = self.columns.cell(cells, "stock")
        source = parent.cells if parent and stock.casefold() == "parent" else cells
        return self.columns.cell(source, "in_stock")

    def _in_stock(self, cells: list[str], parent: _Parent | None) -> bool:
        """Whether "In stock?" says 1 (the exporter's "instock"): with no count, a product
        whose stock the store does not manage, sold uncounted. "backorder" is not."""
        stock = self.columns.cell(cells, "stock")
        source = parent.cells if parent and stock.casefold() == "parent" else cells
        return flag(self.columns.cell(source, "in_stock")) is True


def _at(cells: list[str], index: int) -> str:
    return cells[index].strip() if index < len(cells) else ""


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
