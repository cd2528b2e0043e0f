"""What the Shopify and WooCommerce readers share: columns by any of their names, ids,
prices, stock, specs from options, and the product record they build.

A platform export's columns have changed names over the years (Shopify's ``Variant
Price`` is ``Price`` in its 2024 export); a reader names each column it reads by all
of its spellings, and every other column of the export is ignored.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar

from shared.product import MAX_DESCRIPTION, MAX_PRODUCT_ID, MAX_SPECS
from storechat.catalog.errors import CatalogFileError
from storechat.catalog.html_text import html_to_text
from storechat.catalog.mapping import BRAND_NAMES, is_brand, spec_entry
from storechat.catalog.rows import Raw, ReadOptions, RowProblem
from storechat.catalog.textfile import CsvFile

_PRICE = re.compile(r"\d+(?:\.\d+)?")
_DECIMAL_COMMA = re.compile(r"\d+,\d{1,2}")
_THOUSANDS = re.compile(r"\d{1,3}(?:,\d{3})+(?:\.\d+)?")


class Columns:
    """The export's header: which cell holds each field, under whichever name it has."""

    def __init__(
        self, header: Sequence[str], names: Mapping[str, tuple[str, ...]], platform: str
    ) -> None:
        lowered = {name.strip().casefold(): index for index, name in enumerate(header)}
        self.header = list(header)
        self._names = names
        self._platform = platform
        self._index: dict[str, int] = {}
        self.used: dict[str, str] = {}
        """Each field found, with the column name the file gives it."""
        for key, spellings in names.items():
            for spelling in spellings:
                if spelling.casefold() in lowered:
                    self._index[key] = lowered[spelling.casefold()]
                    self.used[key] = header[self._index[key]].strip()
                    break

    def has(self, key: str) -> bool:
        return key in self._index

    def require(self, keys: Iterable[str]) -> None:
        """Stop unless the header has every one of ``keys`` (under any of its names)."""
        missing = [" or ".join(self._names[key]) for key in keys if key not in self._index]
        if missing:
            raise CatalogFileError(
                f"not a {self._platform} product export: the header has no "
                f"{'; no '.join(missing)} column (export the products from the "
                f"{self._platform} admin as CSV, with all columns)"
            )

    def cell(self, cells: Sequence[str], key: str) -> str:
        index = self._index.get(key)
        if index is None or index >= len(cells):
            return ""
        return cells[index].strip()

    def name(self, key: str) -> str:
        return self.used.get(key, key)

    def fields(self, columns: Mapping[str, str]) -> dict[str, str]:
        """Product field -> the file's own name for its column, for the columns it has."""
        return {name: self.name(key) for name, key in columns.items() if self.has(key)}


def spellings(names: Mapping[str, tuple[str, ...]]) -> frozenset[str]:
    """Every name of every column, compared without case."""
    return frozenset(spelling.casefold() for names_ in names.values() for spelling in names_)


def numbered(header: Sequence[str], pattern: str) -> list[tuple[int, int]]:
    """``(N, column index)`` of every column matching ``pattern`` with a group for N."""
    found = []
    for index, name in enumerate(header):
        match = re.fullmatch(pattern, name.strip(), re.IGNORECASE)
        if match:
            found.append((int(match[1]), index))
    return sorted(found)


def paired_columns(header: Sequence[str], names: str, values: str) -> list[tuple[int, int | None]]:
    """``(name column, value column)`` of every numbered pair, such as ``Option1 name`` and
    ``Option1 value`` (``names``, ``values``: patterns with a group for the number), in
    number order; None where a name has no value column."""
    by_number = dict(numbered(header, values))
    return [(index, by_number.get(number)) for number, index in numbered(header, names)]


def product_id(text: str) -> str | None:
    """A catalog product id from a SKU (or from a handle and option values), as the store
    writes it: only the spaces at its ends go. One longer than an id may be keeps its
    start and a hash of the whole, so it stays unique and the same on every import."""
    cleaned = text.strip()
    if not cleaned:
        return None
    if len(cleaned) <= MAX_PRODUCT_ID:
        return cleaned
    digest = hashlib.sha256(text.encode()).hexdigest()[:10]
    return f"{cleaned[: MAX_PRODUCT_ID - 11].rstrip()}-{digest}"


def price(text: str, decimal_comma: bool) -> float | None:
    """A price cell as a number, or None when the cell is empty.

    Raises ``ValueError`` for anything else that is not a plain amount.
    """
    text = text.strip()
    if not text:
        return None
    if _THOUSANDS.fullmatch(text) and not decimal_comma:
        text = text.replace(",", "")
    elif _DECIMAL_COMMA.fullmatch(text):
        # A store whose locale writes 999,00 exports its prices so (WooCommerce does).
        text = text.replace(",", ".")
    if not _PRICE.fullmatch(text):
        raise ValueError(f"{text!r} is not a price (write it as 1299.00)")
    return float(text)


def count(text: str) -> int | None:
    """A stock count, or None when the cell holds no number (empty, "parent")."""
    number = units(text)
    return max(number, 0) if number is not None else None


def units(text: str) -> int | None:
    """A whole number of units as written, below 0 too (a location that sold more than
    it had); None when the cell holds no number ("not stocked")."""
    match = re.fullmatch(r"-?\d+(?:\.0+)?", text.strip())
    return int(float(match[0])) if match else None


TRUE = frozenset({"true", "yes", "1"})
FALSE = frozenset({"false", "no", "0"})


def flag(text: str) -> bool | None:
    """TRUE/FALSE (or yes/no, 1/0) as a bool; None when empty or anything else."""
    lowered = text.strip().casefold()
    return True if lowered in TRUE else False if lowered in FALSE else None


def description(*parts: str) -> str:
    """The plain text of the export's description fields, in order, without repeats."""
    texts: list[str] = []
    for part in parts:
        text = html_to_text(part, MAX_DESCRIPTION) if part.strip() else ""
        if text and text not in texts:
            texts.append(text)
    return html_to_text("\n".join(texts), MAX_DESCRIPTION) if len(texts) > 1 else "".join(texts)


_ISBN = re.compile(r"97[89]\d{10}")


def isbn(barcode: str) -> str | None:
    """A barcode that is an ISBN-13 (a book's EAN), without spaces or dashes."""
    code = re.sub(r"[\s-]", "", barcode)
    return code if _ISBN.fullmatch(code) else None


def unknown_stock_note(default: int) -> str:
    if default == 0:
        return (
            "no stock count in the export (not tracked, or the count is empty): imported "
            "with stock 0, so shoppers are told it is out of stock; --default-stock N sets "
            "another count"
        )
    return f"no stock count in the export: imported with stock {default} (--default-stock)"


class ExportReader:
    """What a platform's reader starts from: the export, its columns, the import's
    options, and the file's own name for each product field's column (for messages)."""

    FIELD_COLUMNS: ClassVar[Mapping[str, str]]
    """Product field -> the key (in the platform's column names) it is read from."""
    NAME_VALUE_COLUMNS: ClassVar[tuple[str, str]]
    """The numbered columns that name an option or attribute, and those that hold its
    value or values: patterns for :func:`paired_columns`."""

    def __init__(self, file: CsvFile, columns: Columns, options: ReadOptions) -> None:
        self.file = file
        self.columns = columns
        self.options = options
        self.field_columns = columns.fields(self.FIELD_COLUMNS)
        self.named_columns = paired_columns(file.header, *self.NAME_VALUE_COLUMNS)

    def unknown_stock(self, draft: Draft) -> int:
        """The stock of a product the export gives no count for: the default, noted."""
        draft.notes.append(unknown_stock_note(self.options.default_stock))
        return self.options.default_stock


@dataclass
class Draft:
    """A product being put together from an export's row or rows."""

    line: int
    columns: Mapping[str, str]
    fields: dict[str, Any] = field(default_factory=dict)
    specs: dict[str, Any] = field(default_factory=dict)
    brands: list[str] = field(default_factory=list)
    """Brand-like attributes (Brand, Publisher), used when the export has no brand."""
    problems: list[RowProblem] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    category_from: str | None = None
    variant: str | None = None
    """What the platform tells this variant apart by besides its SKU (see :class:`Raw`)."""

    def problem(self, column_key: str, message: str) -> None:
        self.problems.append(RowProblem(self.line, self.columns.get(column_key, ""), message))

    def add_spec(self, name: str, value: str | list[str]) -> None:
        """An option or attribute: a catalog spec if it is one, else text under its name."""
        if is_brand(name) and isinstance(value, str):
            self.brands.append(value)
        if isinstance(value, list):
            if len(value) == 1:
                value = value[0]
            else:
                entry = spec_entry(name, "")
                key = entry[0] if entry else None
                if key and key not in self.specs and len(self.specs) < MAX_SPECS:
                    self.specs[key] = value
                return
        entry = spec_entry(name, value) if value else None
        if entry and len(self.specs) < MAX_SPECS:
            key, spec = entry
            self.specs[key] = spec

    def raw(self) -> Raw:
        data = dict(self.fields)
        if "brand" not in data and self.brands:
            data["brand"] = self.brands[0]
        if "brand" not in data:
            names = ", ".join(BRAND_NAMES)
            self.problem("brand", f"is empty, and no attribute ({names}) names a brand")
        data["specs"] = dict(self.specs)
        return Raw(
            self.line,
            data,
            tuple(self.problems),
            tuple(self.notes),
            self.columns,
            self.category_from,
            self.variant,
        )


def split_list(cell: str) -> list[str]:
    """A WooCommerce list cell: values joined by ", ", a comma inside a value as "\\,"."""
    values = re.split(r"(?<!\\),", cell)
    return [value.replace("\\,", ",").strip() for value in values if value.strip()]
