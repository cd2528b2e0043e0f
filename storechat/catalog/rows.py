"""Read an import file row by row, in any format, each row validated, with its line number.

Every format's reader turns the file into :class:`Raw` records (a product's fields, or
what is already wrong with it) and :class:`SkippedRow` s (what the file holds that the
catalog does not sell: drafts, gift cards, accessories). This module validates each
record as a product (``shared.products.product``), refuses a price above the ceiling and a
``productId`` seen before, and says which column of the file a problem is in.

Rows stream: a file of a million products is never held in memory, only the ids seen
so far. In the catalog's own formats a ``productId`` twice in one file is a mistake
(and DynamoDB refuses two writes to one key in a batch). A platform allows one SKU on
several variants: there the later ones get ids of their own, and the import notes each
(``shared.platform.rows.checked_rows``, which the Admin API sync uses too).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Literal, cast, get_args

from shared.platform.rows import (
    DEFAULT_MAX_PRICE,
    BadRow,
    Raw,
    ReadOptions,
    Row,
    RowProblem,
    SkippedRow,
    ValidRow,
    checked_rows,
)
from storechat.catalog.errors import CatalogFileError
from storechat.catalog.own_format import csv_rows, jsonl_rows
from storechat.catalog.shopify import shopify_rows
from storechat.catalog.woocommerce import woocommerce_rows

__all__ = [
    "DEFAULT_MAX_PRICE",
    "FORMATS",
    "PLATFORMS",
    "BadRow",
    "Format",
    "Raw",
    "ReadOptions",
    "Row",
    "RowProblem",
    "SkippedRow",
    "ValidRow",
    "checked_rows",
    "detect_format",
    "read_rows",
]

Format = Literal["jsonl", "csv", "shopify", "woocommerce"]
FORMATS: tuple[str, ...] = get_args(Format)
PLATFORMS: tuple[Format, ...] = ("shopify", "woocommerce")
EXTENSIONS: dict[str, Format] = {".jsonl": "jsonl", ".ndjson": "jsonl", ".csv": "csv"}


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
    if fmt == "shopify":
        return shopify_rows(path, options)
    if fmt == "woocommerce":
        return woocommerce_rows(path, options)
    return jsonl_rows(path) if fmt == "jsonl" else csv_rows(path)


def read_rows(path: Path, fmt: Format, options: ReadOptions | None = None) -> Iterator[Row]:
    """Every row of the file, in order, validated; blank lines are skipped."""
    options = options or ReadOptions()
    raws = raw_rows(path, fmt, options)
    return checked_rows(raws, options, platform=fmt in PLATFORMS, strict=fmt != "csv")
