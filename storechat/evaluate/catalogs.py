"""The catalog each question file is answered from.

A question file is answered from the run's own catalog (``$STORECHAT_HOME``'s, as for
``ask``; else the bundled sample), plus the products of its **companion**: a
``catalog.jsonl`` (or ``catalog.csv``) in the same directory, imported with the same
code and rules as ``storechat catalog import`` (every row validated first; products
added or updated by ``productId``; a ``deleted`` row removes one). The import goes to a
temporary copy: the local catalog itself is never changed. Questions about products a
store imported ("do you have a Framework laptop?") are then judged on a catalog that
holds them, and the rest of the set is not.
"""

from __future__ import annotations

import io
import shutil
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from storechat.catalog.errors import CatalogFileError
from storechat.catalog.local_store import LocalCatalog
from storechat.catalog.progress import Progress
from storechat.catalog.rows import EXTENSIONS, BadRow, ValidRow, detect_format, read_rows
from storechat.evaluate.questions import COMPANION_STEM, LoadedQuestion, shown_path


@dataclass(frozen=True)
class ServedCatalog:
    """The products one group of question files is answered from."""

    products: list[dict[str, Any]]
    label: str
    """What the report says it is: "the bundled sample (…), 89 products"."""
    companion: Path | None = None
    """The import file its products came from beyond the run's own, if any."""
    positions: tuple[int, ...] = ()
    """Which of the run's questions (by position) are answered from it."""


class CatalogInvalid(Exception):
    """A companion catalog that cannot be imported; ``problems`` holds one line per fault."""

    def __init__(self, problems: list[str]) -> None:
        super().__init__("\n".join(problems))
        self.problems = problems


def companion_of(question_file: Path) -> Path | None:
    """The ``catalog.<ext>`` beside ``question_file``, if there is one."""
    for suffix in EXTENSIONS:
        path = question_file.parent / f"{COMPANION_STEM}{suffix}"
        if path.is_file():
            return path
    return None


def served_catalogs(questions: Sequence[LoadedQuestion], home: Path) -> list[ServedCatalog]:
    """One served catalog per companion the questions' files have, the run's own first,
    each with the positions of the questions it answers.

    Raises :class:`CatalogInvalid` naming every bad row of every companion, before
    anything runs.
    """
    base = LocalCatalog(home)
    groups: dict[Path | None, list[int]] = {}
    for position, question in enumerate(questions):
        groups.setdefault(companion_of(question.path), []).append(position)
    served: list[ServedCatalog] = []
    problems: list[str] = []
    for companion, positions in sorted(groups.items(), key=lambda item: item[0] is not None):
        try:
            catalog = _own(base) if companion is None else _imported(base, companion)
        except CatalogInvalid as exc:
            problems += exc.problems
            continue
        served.append(replace(catalog, positions=tuple(positions)))
    if problems:
        raise CatalogInvalid(problems)
    return served


def _own(base: LocalCatalog) -> ServedCatalog:
    products = list(base.products())
    return ServedCatalog(products, f"{base.description}, {len(products)} products")


def _imported(base: LocalCatalog, companion: Path) -> ServedCatalog:
    shown = shown_path(companion)
    try:
        rows = list(read_rows(companion, detect_format(companion)))
    except CatalogFileError as exc:
        raise CatalogInvalid([f"{shown}: {exc}"]) from exc
    bad = [
        f"{shown}: {problem}" for row in rows if isinstance(row, BadRow) for problem in row.problems
    ]
    if bad:
        raise CatalogInvalid(bad)
    with tempfile.TemporaryDirectory(prefix="storechat-eval-catalog-") as folder:
        copy = LocalCatalog(Path(folder))
        if base.path.is_file():
            shutil.copyfile(base.path, copy.path)
        # A companion is small; the import's progress line is for files of thousands.
        applied = copy.apply(
            (row.row for row in rows if isinstance(row, ValidRow)),
            Progress(f"importing {companion.name}", len(rows), io.StringIO()),
        )
        products = list(copy.products())
    origin = base.description if base.path.is_file() else "the bundled sample"
    label = f"{origin} and {shown} ({applied.summary()}), {len(products)} products"
    return ServedCatalog(products, label, companion)
