"""The catalog's own import formats: JSON Lines, and CSV with a column per field.

JSON Lines: one product a line, the shape of the bundled catalog's records.

CSV: a header names the columns (``productId``, ``name``, ``brand``, ``category``,
``price``, ``stock``, ``description``, the optional ``compareAtPrice``, ``imageUrl``,
``url``, ``tags``, ``platformProductId`` and ``platformVariantId``, ``stockTracked``
(``false``: sold uncounted), ``spec.<key>`` for each spec, and ``deleted``). An empty
cell is a missing value. ``tags`` is a JSON list or text separated by commas
(``gaming, kids``). A ``spec.<key>`` cell is read as
``true``/``false``, a number, a JSON list of text (``["USB-C", "HDMI"]``) or else
text; a whole number of 10 or more digits or with a leading 0 stays text, as ISBNs
and barcodes must. A semicolon-delimited file is read as such, and its numbers may
use a decimal comma (``999,00``).
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from shared.platform.rows import Raw, RowProblem
from shared.products.product import Product
from storechat.catalog.errors import CatalogFileError
from storechat.catalog.textfile import CsvFile, decimal_text, text_lines

SPEC_PREFIX = "spec."
DELETED = "deleted"
TAGS = "tags"
PRODUCT_COLUMNS: tuple[str, ...] = tuple(name for name in Product.model_fields if name != "specs")
REQUIRED_COLUMNS: tuple[str, ...] = tuple(
    name for name in PRODUCT_COLUMNS if Product.model_fields[name].is_required()
)
CSV_COLUMNS = {"specs": SPEC_PREFIX}
"""A spec's problem is reported under its ``spec.<key>`` column."""
PLATFORM_COLUMNS = {
    "Handle": "shopify",
    "URL handle": "shopify",
    "Body (HTML)": "shopify",
    "Variant SKU": "shopify",
    "Attribute 1 name": "woocommerce",
    "Regular price": "woocommerce",
    "In stock?": "woocommerce",
}
"""Columns of a platform's export that say which one a file is, if imported as plain CSV."""

_NUMBER = re.compile(r"-?(?:0|[1-9]\d*)(?:\.\d+)?")
_IDENTIFIER = re.compile(r"0\d+|\d{10,}")


def jsonl_rows(path: Path) -> Iterator[Raw]:
    for line, text in enumerate(text_lines(path), start=1):
        if not text.strip():
            continue
        try:
            data = json.loads(text.rstrip("\r\n"))
        except json.JSONDecodeError as exc:
            reason = f"not valid JSON ({exc.msg}, column {exc.colno})"
            yield Raw(line, None, (RowProblem(line, "", reason),))
            continue
        if not isinstance(data, dict):
            reason = "each line must be one JSON object (a product)"
            yield Raw(line, None, (RowProblem(line, "", reason),))
            continue
        yield Raw(line, data)


def _known(name: str) -> bool:
    name = name.strip()
    return name in PRODUCT_COLUMNS or name == DELETED or name.startswith(SPEC_PREFIX)


def csv_rows(path: Path) -> Iterator[Raw]:
    file = CsvFile(path, _known)
    if not file.header_line:
        return
    _check_header(file.header, file.header_line)
    for record in file.records():
        yield _csv_record(record.line, file.header, record.cells, file.decimal_comma)


def _check_header(header: list[str], line: int) -> None:
    where = f"line {line}"
    for name in header:
        if name in PLATFORM_COLUMNS:
            platform = PLATFORM_COLUMNS[name]
            raise CatalogFileError(
                f"{where}: this looks like a {platform.capitalize()} product export (it has a "
                f"{name!r} column): import it with --format {platform}"
            )
    for name in header:
        if not _known(name) or name == SPEC_PREFIX:
            raise CatalogFileError(
                f"{where}: unknown column {name!r} (the columns are {', '.join(PRODUCT_COLUMNS)}, "
                f"{SPEC_PREFIX}<key> for each spec, and {DELETED})"
            )
    doubled = sorted({name for name in header if header.count(name) > 1})
    if doubled:
        raise CatalogFileError(f"{where}: column {doubled[0]!r} appears more than once")
    if "productId" not in header:
        raise CatalogFileError(f"{where}: the header has no productId column")
    missing = [name for name in REQUIRED_COLUMNS if name not in header]
    # A file of deletions needs only productId and deleted.
    if missing and DELETED not in header:
        raise CatalogFileError(f"{where}: the header has no {', '.join(missing)} column")


def _csv_record(line: int, header: list[str], cells: list[str], decimal_comma: bool) -> Raw:
    if len(cells) > len(header):
        reason = f"has {len(cells)} cells but the header names {len(header)} columns"
        return Raw(line, None, (RowProblem(line, "", reason),), columns=CSV_COLUMNS)
    record: dict[str, Any] = {}
    specs: dict[str, Any] = {}
    problems: list[RowProblem] = []
    for name, cell in zip(header, cells, strict=False):
        text = decimal_text(cell.strip(), decimal_comma)
        if not text:
            continue
        if name.startswith(SPEC_PREFIX):
            try:
                specs[name.removeprefix(SPEC_PREFIX)] = spec_value(text)
            except ValueError as exc:
                problems.append(RowProblem(line, name, str(exc)))
        elif name == TAGS:
            try:
                record[name] = tag_list(text)
            except ValueError as exc:
                problems.append(RowProblem(line, name, str(exc)))
        else:
            record[name] = text
    record["specs"] = specs
    return Raw(line, record, tuple(problems), columns=CSV_COLUMNS)


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


def tag_list(text: str) -> list[str]:
    """A CSV ``tags`` cell as its tags: a JSON list of text, or text separated by commas."""
    if text.startswith("["):
        items = spec_value(text)
        return [item.strip() for item in items if item.strip()]
    return list(dict.fromkeys(tag.strip() for tag in text.split(",") if tag.strip()))
