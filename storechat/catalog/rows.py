"""Read an import file row by row: JSON Lines or CSV, each row validated, with its line number.

Rows stream: a file of a million products is never held in memory, only the ids seen
so far (a ``productId`` twice in one file is a mistake, and DynamoDB refuses two writes
to one key in a batch).

CSV: a header names the columns (``productId``, ``name``, ``brand``, ``category``,
``price``, ``stock``, ``description``, ``spec.<key>`` for each spec, and ``deleted``).
An empty cell is a missing value. A ``spec.<key>`` cell is read as ``true``/``false``,
a number, a JSON list of text (``["USB-C", "HDMI"]``) or else text; a whole number of
10 or more digits or with a leading 0 stays text, as ISBNs and barcodes must.
"""

from __future__ import annotations

import csv
import json
import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal, get_args

from pydantic import ValidationError

from shared.product import Product, ProductDeletion, validate_row
from storechat.catalog.errors import CatalogFileError

Format = Literal["jsonl", "csv"]
FORMATS: tuple[str, ...] = get_args(Format)
EXTENSIONS: dict[str, Format] = {".jsonl": "jsonl", ".ndjson": "jsonl", ".csv": "csv"}

SPEC_PREFIX = "spec."
DELETED = "deleted"
PRODUCT_COLUMNS: tuple[str, ...] = tuple(name for name in Product.model_fields if name != "specs")

_NUMBER = re.compile(r"-?(?:0|[1-9]\d*)(?:\.\d+)?")
_IDENTIFIER = re.compile(r"0\d+|\d{10,}")


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
class ValidRow:
    line: int
    row: Product | ProductDeletion


@dataclass(frozen=True)
class BadRow:
    line: int
    problems: tuple[RowProblem, ...]


def detect_format(path: Path, given: str | None = None) -> Format:
    """The format ``--format`` names, else the one the file's extension implies."""
    if given:
        if given not in FORMATS:
            raise CatalogFileError(f"unknown --format {given!r}: use {' or '.join(FORMATS)}")
        return "csv" if given == "csv" else "jsonl"
    found = EXTENSIONS.get(path.suffix.lower())
    if found is None:
        raise CatalogFileError(
            f"cannot tell the format of {path}: name it .jsonl or .csv, or pass "
            "--format jsonl|csv (a JSON file must hold one product a line)"
        )
    return found


def read_rows(path: Path, fmt: Format) -> Iterator[ValidRow | BadRow]:
    """Every row of the file, in order, validated; blank lines are skipped."""
    raw = _jsonl_rows(path) if fmt == "jsonl" else _csv_rows(path)
    seen: dict[str, int] = {}
    for line, data, found in raw:
        problems = list(found)
        row: Product | ProductDeletion | None = None
        if data is not None:
            try:
                row = validate_row(data, strict=fmt == "jsonl")
            except ValidationError as exc:
                problems += _problems(line, exc, fmt)
        if row is None or problems:
            yield BadRow(line, tuple(problems))
            continue
        first = seen.setdefault(row.productId, line)
        if first != line:
            yield BadRow(
                line,
                (RowProblem(line, "productId", f"{row.productId} is already on line {first}"),),
            )
            continue
        yield ValidRow(line, row)


def _problems(line: int, exc: ValidationError, fmt: Format) -> Iterator[RowProblem]:
    for error in exc.errors():
        loc = [str(part) for part in error["loc"] if part != "[key]"]
        if fmt == "csv" and loc[:1] == ["specs"] and len(loc) > 1:
            field = SPEC_PREFIX + ".".join(loc[1:])  # the column the user wrote
        else:
            field = ".".join(loc)
        message = error["msg"]
        if error["type"] == "extra_forbidden":
            message = "not a product field (the fields are " + ", ".join(Product.model_fields) + ")"
        elif error["type"] == "missing":
            message = "is required"
        yield RowProblem(line, field, message)


def _open(path: Path) -> Any:
    try:
        # utf-8-sig: spreadsheets often start a saved file with a byte order mark.
        return path.open(encoding="utf-8-sig", newline="")
    except OSError as exc:
        raise CatalogFileError(f"cannot read {path}: {exc.strerror or exc}") from exc


Raw = tuple[int, dict[str, Any] | None, tuple[RowProblem, ...]]
"""A row before validation: its line, its fields (None if unreadable), what is wrong already."""


def _jsonl_rows(path: Path) -> Iterator[Raw]:
    with _open(path) as lines:
        try:
            for line, text in enumerate(lines, start=1):
                if not text.strip():
                    continue
                try:
                    data = json.loads(text.rstrip("\r\n"))
                except json.JSONDecodeError as exc:
                    reason = f"not valid JSON ({exc.msg}, column {exc.colno})"
                    yield line, None, (RowProblem(line, "", reason),)
                    continue
                if not isinstance(data, dict):
                    reason = "each line must be one JSON object (a product)"
                    yield line, None, (RowProblem(line, "", reason),)
                    continue
                yield line, data, ()
        except UnicodeDecodeError as exc:
            raise CatalogFileError(f"{path} is not UTF-8 text: {exc.reason}") from exc


def _csv_rows(path: Path) -> Iterator[Raw]:
    with _open(path) as text:
        try:
            reader = csv.reader(text, strict=True)
            try:
                header = [name.strip() for name in next(reader)]
            except StopIteration:
                return
            _check_header(header)
            while True:
                line = reader.line_num + 1  # a quoted cell may span lines: report the first
                try:
                    cells = next(reader)
                except StopIteration:
                    return
                except csv.Error as exc:
                    raise CatalogFileError(f"{path}, line {line}: {exc}") from exc
                if not any(cell.strip() for cell in cells):
                    continue
                yield _csv_record(line, header, cells)
        except UnicodeDecodeError as exc:
            raise CatalogFileError(f"{path} is not UTF-8 text: {exc.reason}") from exc


def _check_header(header: list[str]) -> None:
    known = {*PRODUCT_COLUMNS, DELETED}
    for name in header:
        if name not in known and not (
            name.startswith(SPEC_PREFIX) and len(name) > len(SPEC_PREFIX)
        ):
            raise CatalogFileError(
                f"line 1: unknown column {name!r} (the columns are {', '.join(PRODUCT_COLUMNS)}, "
                f"{SPEC_PREFIX}<key> for each spec, and {DELETED})"
            )
    doubled = sorted({name for name in header if header.count(name) > 1})
    if doubled:
        raise CatalogFileError(f"line 1: column {doubled[0]!r} appears more than once")
    if "productId" not in header:
        raise CatalogFileError("line 1: the header has no productId column")
    missing = [name for name in PRODUCT_COLUMNS if name not in header]
    # A file of deletions needs only productId and deleted.
    if missing and DELETED not in header:
        raise CatalogFileError(f"line 1: the header has no {', '.join(missing)} column")


def _csv_record(line: int, header: list[str], cells: list[str]) -> Raw:
    if len(cells) > len(header):
        reason = f"has {len(cells)} cells but the header names {len(header)} columns"
        return line, None, (RowProblem(line, "", reason),)
    record: dict[str, Any] = {}
    specs: dict[str, Any] = {}
    problems: list[RowProblem] = []
    for name, cell in zip(header, cells, strict=False):
        text = cell.strip()
        if not text:
            continue
        if name.startswith(SPEC_PREFIX):
            try:
                specs[name.removeprefix(SPEC_PREFIX)] = spec_value(text)
            except ValueError as exc:
                problems.append(RowProblem(line, name, str(exc)))
        else:
            record[name] = text
    record["specs"] = specs
    return line, record, tuple(problems)


def spec_value(text: str) -> Any:
    """A CSV spec cell as the value it stands for (see the module docstring)."""
    lowered = text.lower()
    if lowered in ("true", "false"):
        return lowered == "true"
    if _NUMBER.fullmatch(text) and not _IDENTIFIER.fullmatch(text.lstrip("-")):
        return float(text) if "." in text else int(text)
    if text.startswith("["):
        try:
            items = json.loads(text)
        except json.JSONDecodeError as exc:
            raise ValueError(f'a list must be JSON, such as ["a", "b"] ({exc.msg})') from exc
        if not isinstance(items, list) or not all(isinstance(item, str) for item in items):
            raise ValueError('a list must hold text only, such as ["a", "b"]')
        return items
    return text
