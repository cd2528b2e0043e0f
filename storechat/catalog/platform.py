"""What the Shopify and WooCommerce readers share: columns by any of their names, ids,
prices, stock, specs from options, and the product record they build.

A platform export's columns have changed names over the years (Shopify's ``Variant
Price`` is ``Price`` in its 2024 export); a reader names each column it reads by all
of its spellings, and every other column of the export is ignored.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from typing import ClassVar

from shared.platform.rows import ReadOptions
from storechat.catalog.errors import CatalogFileError
from storechat.catalog.textfile import CsvFile


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


def split_list(cell: str) -> list[str]:
    """A WooCommerce list cell: values joined by ", ", a comma inside a value as "\\,"."""
    values = re.split(r"(?<!\\),", cell)
    return [value.replace("\\,", ",").strip() for value in values if value.strip()]
