"""A platform's product as catalog rows: what a reader yields, and its validation.

Every platform reader (a CSV export's, a webhook payload's, an Admin API page's) yields
:class:`Raw` records (a product's fields, or what is already wrong with it) and
:class:`SkippedRow` s (what the platform holds that the catalog does not sell: drafts,
gift cards, accessories). :func:`validated` checks a record as a product
(``shared.products.product``) and against the price ceiling, and says which field of the source
a problem is in, the same way for every source.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from datetime import date

from pydantic import ValidationError

from shared.platform.mapping import CategoryMap
from shared.products.product import MAX_PRODUCT_ID, Product, ProductDeletion, validate_row

DEFAULT_MAX_PRICE = 100_000.0
"""The highest price a row may have unless ``--max-price`` says otherwise: above it, a
price is far more likely a typo or a cents column read as dollars than a product."""


@dataclass(frozen=True)
class ReadOptions:
    """What reading a file may need besides the file: the guards and the platform maps."""

    max_price: float = DEFAULT_MAX_PRICE
    categories: CategoryMap = field(default_factory=CategoryMap)
    default_stock: int | None = None
    """The stock of a product whose platform export gives no count (reported); None when
    not given (``--default-stock`` left out): 0 for such a product, and a product the
    store sells uncounted is in stock with no count. Given, 0 included, it is the count
    of both."""
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
class SkippedRow:
    """Rows of the file that are not catalog products, and why: not an error."""

    lines: tuple[int, ...]
    reason: str


def duplicate_id(product_id: str, variant: str) -> str:
    """The id of a variant whose SKU another variant of the export has: the SKU, ``~``
    and a hash of what tells the variant apart, so it is the same on every import.
    The first row of the file with the SKU keeps the SKU itself."""
    digest = hashlib.sha256(variant.encode("utf-8")).hexdigest()[:8]
    return f"{product_id[: MAX_PRODUCT_ID - 9]}~{digest}"


def validated(
    raw: Raw, options: ReadOptions, *, strict: bool = True
) -> tuple[Product | ProductDeletion | None, list[RowProblem]]:
    """``raw`` as a product, or None, and every problem it has (the reader's own first)."""
    line = raw.line
    problems = list(raw.problems)
    row: Product | ProductDeletion | None = None
    if raw.data is not None:
        try:
            row = validate_row(raw.data, strict=strict)
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
    return (None if problems else row), problems


@dataclass(frozen=True)
class ValidRow:
    """A record that is a product (or a deletion), with what the operator should know."""

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


Row = ValidRow | BadRow | SkippedRow


def checked_rows(
    raws: Iterable[Raw | SkippedRow], options: ReadOptions, *, platform: bool, strict: bool = True
) -> Iterator[Row]:
    """Each record validated, in order; a ``productId`` seen before is refused, except a
    ``platform``'s duplicate SKU, which gets an id of its own (:func:`duplicate_id`)."""
    seen: dict[str, int] = {}
    for raw in raws:
        if isinstance(raw, SkippedRow):
            yield raw
            continue
        line = raw.line
        row, problems = validated(raw, options, strict=strict)
        if row is None or problems:
            product_id = raw.data.get("productId") if raw.data else None
            yield BadRow(line, tuple(problems), product_id if isinstance(product_id, str) else None)
            continue
        first = seen.setdefault(row.productId, line)
        notes = raw.notes
        if first != line and platform and raw.variant and isinstance(row, Product):
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
