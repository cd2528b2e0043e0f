"""Read an import file row by row, in any format, each row validated, with its line number.

Every format's reader turns the file into :class:`Raw` records (a product's fields, or
what is already wrong with it) and :class:`SkippedRow` s (what the file holds that the
catalog does not sell: drafts, gift cards, accessories). This module validates each
record as a product (``shared.product``), refuses a price above the ceiling and a
``productId`` seen before, and says which column of the file a problem is in.

Rows stream: a file of a million products is never held in memory, only the ids seen
so far. In the catalog's own formats a ``productId`` twice in one file is a mistake
(and DynamoDB refuses two writes to one key in a batch). A platform allows one SKU on
several variants: there the later ones get ids of their own (:func:`duplicate_id`),
and the import notes each.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from datetime import date
from pathlib import Path
from typing import Literal, cast, get_args

from pydantic import ValidationError

from shared.product import MAX_PRODUCT_ID, Product, ProductDeletion, validate_row
from storechat.catalog.errors import CatalogFileError
from storechat.catalog.mapping import CategoryMap

Format = Literal["jsonl", "csv", "shopify", "woocommerce"]
FORMATS: tuple[str, ...] = get_args(Format)
PLATFORMS: tuple[Format, ...] = ("shopify", "woocommerce")
EXTENSIONS: dict[str, Format] = {".jsonl": "jsonl", ".ndjson": "jsonl", ".csv": "csv"}

DEFAULT_MAX_PRICE = 100_000.0
"""The highest price a row may have unless ``--max-price`` says otherwise: above it, a
price is far more likely a typo or a cents column read as dollars than a product."""


@dataclass(frozen=True)
class ReadOptions:
    """What reading a file may need besides the file: the guards and the platform maps."""

    max_price: float = DEFAULT_MAX_PRICE
    categories: CategoryMap = field(default_factory=CategoryMap)
    default_stock: int = 0
    """The stock of a product whose platform export gives no count (reported)."""
    today: date = field(default_factory=date.today)
    """The day a scheduled sale price is checked against."""
    store_url: str | None = None
    """The store's address (``https://shop.example.com``), which products' pages are on."""


@dataclass(frozen=True)
class RowProblem:
    """One thing wrong with one row; ``field`` is empty when the row as a whole is."""

    line: int
    field: str
    message: str

    def __str__(self) -> str:
        where = f"line {self.line}, {self.field}" if self.field else f"line {self.line}"
        return f"{where}: {self.message}"


@dataclass(frozen=True)
class Raw:
    """A row before validation: its line, its fields (None if unreadable), what is wrong
    already, and notes for the operator (an export with no stock count, ...)."""

    line: int
    data: dict[str, object] | None
    problems: tuple[RowProblem, ...] = ()
    notes: tuple[str, ...] = ()
    columns: Mapping[str, str] = field(default_factory=dict)
    """The file's column for each product field, so a problem names what the user wrote."""
    category_from: str | None = None
    """The platform's category (or type) that decided the product's category."""
    variant: str | None = None
    """What a platform tells this variant apart by besides its SKU (Shopify: the handle and
    the option values; WooCommerce: the row's ID): a platform allows one SKU on several
    variants, and the second takes an id made from this (:func:`duplicate_id`)."""


@dataclass(frozen=True)
class ValidRow:
    line: int
    row: Product | ProductDeletion
    notes: tuple[str, ...] = ()
    category_from: str | None = None


@dataclass(frozen=True)
class BadRow:
    line: int
    problems: tuple[RowProblem, ...]
    product_id: str | None = None
    """The product the row was meant to be, when it says (a full sync keeps that one)."""


@dataclass(frozen=True)
class SkippedRow:
    """Rows of the file that are not catalog products, and why: not an error."""

    lines: tuple[int, ...]
    reason: str


Row = ValidRow | BadRow | SkippedRow


def detect_format(path: Path, given: str | None = None) -> Format:
    """The format ``--format`` names, else the one the file's extension implies."""
    if given:
        if given in FORMATS:
            return cast(Format, given)
        raise CatalogFileError(f"unknown --format {given!r}: use {', '.join(FORMATS)}")
    found = EXTENSIONS.get(path.suffix.lower())
    if found is None:
        raise CatalogFileError(
            f"cannot tell the format of {path}: name it .jsonl or .csv, or pass "
            f"--format {'|'.join(FORMATS)} (a JSON file must hold one product a line)"
        )
    return found


def raw_rows(path: Path, fmt: Format, options: ReadOptions) -> Iterator[Raw | SkippedRow]:
    # Imported here, not at the top: each format's module imports this one's types.
    if fmt == "shopify":
        from storechat.catalog.shopify import shopify_rows

        return shopify_rows(path, options)
    if fmt == "woocommerce":
        from storechat.catalog.woocommerce import woocommerce_rows

        return woocommerce_rows(path, options)
    from storechat.catalog.own_format import csv_rows, jsonl_rows

    return jsonl_rows(path) if fmt == "jsonl" else csv_rows(path)


def read_rows(path: Path, fmt: Format, options: ReadOptions | None = None) -> Iterator[Row]:
    """Every row of the file, in order, validated; blank lines are skipped."""
    options = options or ReadOptions()
    seen: dict[str, int] = {}
    for raw in raw_rows(path, fmt, options):
        if isinstance(raw, SkippedRow):
            yield raw
            continue
        line = raw.line
        problems = list(raw.problems)
        row: Product | ProductDeletion | None = None
        if raw.data is not None:
            try:
                row = validate_row(raw.data, strict=fmt != "csv")
            except ValidationError as exc:
                # A reader's own word on a field says more than the model's "is required".
                said = {problem.field for problem in problems}
                problems += [p for p in _problems(line, exc, raw.columns) if p.field not in said]
        if isinstance(row, Product) and row.price > options.max_price:
            problems.append(
                RowProblem(
                    line,
                    raw.columns.get("price", "price"),
                    f"${row.price:,.2f} is above the highest price a product may have "
                    f"(${options.max_price:,.2f}; --max-price sets it)",
                )
            )
        if row is None or problems:
            product_id = raw.data.get("productId") if raw.data else None
            yield BadRow(line, tuple(problems), product_id if isinstance(product_id, str) else None)
            continue
        first = seen.setdefault(row.productId, line)
        notes = raw.notes
        if first != line and fmt in PLATFORMS and raw.variant and isinstance(row, Product):
            # The platform allows it: this variant is imported under an id of its own.
            other = duplicate_id(row.productId, raw.variant)
            if seen.setdefault(other, line) == line:
                notes += (f"SKU {row.productId!r} is also on line {first}: imported as {other!r}",)
                row, first = row.model_copy(update={"productId": other}), line
        if first != line:
            column = raw.columns.get("productId", "productId")
            reason = f"{row.productId} is already on line {first}"
            yield BadRow(line, (RowProblem(line, column, reason),))
            continue
        yield ValidRow(line, row, notes, raw.category_from)


def duplicate_id(product_id: str, variant: str) -> str:
    """The id of a variant whose SKU another variant of the export has: the SKU, ``~``
    and a hash of what tells the variant apart, so it is the same on every import.
    The first row of the file with the SKU keeps the SKU itself."""
    digest = hashlib.sha256(variant.encode("utf-8")).hexdigest()[:8]
    return f"{product_id[: MAX_PRODUCT_ID - 9]}~{digest}"


def _problems(line: int, exc: ValidationError, columns: Mapping[str, str]) -> Iterator[RowProblem]:
    for error in exc.errors():
        loc = [str(part) for part in error["loc"] if part != "[key]"]
        name = ".".join(loc)
        field_name = columns.get(name) or columns.get(loc[0], "") if loc else ""
        if field_name and "." in name and loc[0] == "specs":
            field_name = f"{field_name}{'.'.join(loc[1:])}"  # the CSV's spec.<key> column
        message = error["msg"]
        if error["type"] == "extra_forbidden":
            message = "not a product field (the fields are " + ", ".join(Product.model_fields) + ")"
        elif error["type"] == "missing":
            message = "is required"
        yield RowProblem(line, field_name or name, message)
