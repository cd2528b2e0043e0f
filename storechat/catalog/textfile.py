"""An import file's lines and CSV records: UTF-8 checked line by line, the delimiter found.

Every format reads its file through here, so a file saved in another encoding is
refused the same way whatever its format: with the line at fault and what to do. A
CSV may be comma- or semicolon-delimited (spreadsheets in many European locales save
with semicolons); the header decides which, by naming more of the format's columns.
"""

from __future__ import annotations

import csv
import itertools
import re
from collections.abc import Callable, Generator, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO

from storechat.catalog.errors import CatalogFileError

BOM = b"\xef\xbb\xbf"
"""Spreadsheets often start a saved file with a byte order mark."""
DELIMITERS = (",", ";")

SAVE_AS_UTF8 = (
    "save the file as UTF-8 (in a spreadsheet: Save As, then 'CSV UTF-8'; in an editor: "
    "encoding UTF-8) and import it again"
)


def _open(path: Path) -> BinaryIO:
    try:
        return path.open("rb")
    except OSError as exc:
        raise CatalogFileError(f"cannot read {path}: {exc.strerror or exc}") from exc


def text_lines(path: Path) -> Generator[str, None, None]:
    """The file's lines as text, line endings kept; a line that is not UTF-8 stops the read.

    Decoding line by line, not in blocks, is what lets the error name the line.
    """
    with _open(path) as binary:
        for number, raw in enumerate(binary, start=1):
            if number == 1:
                raw = raw.removeprefix(BOM)
            try:
                yield raw.decode("utf-8")
            except UnicodeDecodeError as exc:
                byte = raw[exc.start : exc.start + 1].hex()
                column = len(raw[: exc.start].decode("utf-8", errors="replace")) + 1
                raise CatalogFileError(
                    f"{path}, line {number} is not UTF-8 text (byte 0x{byte} at column "
                    f"{column}): {SAVE_AS_UTF8}"
                ) from exc


def is_empty(path: Path) -> bool:
    """True when the file holds nothing but whitespace (a header alone is not empty)."""
    return not any(line.strip() for line in text_lines(path))


@dataclass(frozen=True)
class CsvRecord:
    line: int
    """The line the record starts on (a quoted cell may span lines)."""
    cells: list[str]


class CsvFile:
    """A CSV file's header and records, with the delimiter its header shows.

    ``known`` tells a column of the format from any other: of the delimiters, the one
    whose header has more known columns wins (a tie keeps the comma).
    """

    def __init__(self, path: Path, known: Callable[[str], bool]) -> None:
        self.path = path
        self.header_line, first = 0, ""
        lines = text_lines(path)
        try:
            for number, line in enumerate(lines, start=1):
                if line.strip():
                    self.header_line, first = number, line
                    break
        finally:
            lines.close()
        self.delimiter = max(DELIMITERS, key=lambda d: sum(map(known, _header_cells(first, d))))
        self.header: list[str] = [name.strip() for name in _header_cells(first, self.delimiter)]

    @property
    def decimal_comma(self) -> bool:
        """Whether numbers may be written ``999,00``: a semicolon file's locale does that."""
        return self.delimiter == ";"

    def records(self) -> Iterator[CsvRecord]:
        """Every record after the header, skipping blank ones."""
        if not self.header_line:
            return
        before = self.header_line - 1  # blank lines above the header
        lines = itertools.islice(text_lines(self.path), before, None)
        reader = csv.reader(lines, delimiter=self.delimiter, strict=True)
        try:
            next(reader)
        except csv.Error as exc:
            raise CatalogFileError(f"{self.path}, line {self.header_line}: {exc}") from exc
        while True:
            line = before + reader.line_num + 1
            try:
                cells = next(reader)
            except StopIteration:
                return
            except csv.Error as exc:
                raise CatalogFileError(f"{self.path}, line {line}: {exc}") from exc
            if any(cell.strip() for cell in cells):
                yield CsvRecord(line, cells)


def _header_cells(line: str, delimiter: str) -> list[str]:
    try:
        return next(csv.reader([line], delimiter=delimiter), [])
    except csv.Error:
        return []


_DECIMAL_COMMA = re.compile(r"-?\d+,\d+")


def decimal_text(text: str, decimal_comma: bool) -> str:
    """``"999,00"`` as ``"999.00"`` in a file whose numbers use a decimal comma."""
    if decimal_comma and _DECIMAL_COMMA.fullmatch(text):
        return text.replace(",", ".")
    return text
