"""Whose facts an answer lists, read from its layout: the lines under a heading that names
one product, and the cells of a table.

A model writes a product's facts as a list under its name as often as in sentences:

* **Under a heading.** "### Dell XPS 13 [..]", a bold name on a line of its own or as a
  bullet ("- **HP 14 [..]** — best budget pick"), or a line that leads into a list
  ("Here are the specs of the HP 14 [..]:") names the product the lines under it are
  about: its bullets, and its lines that give a spec under the spec's label ("RAM: 32
  GB", "Battery — 20 hours"). A label that is no spec ("Tip:", "Budget tip:") is not
  the product's. A heading's section ends at the next heading (not one that only heads
  its specs, "**Key specs:**"), a rule (``---``), or a line of prose or a lead-in
  ("Recommended minimum specs:"); a bullet's at the next line not indented under it
  that gives no spec under a label; a lead-in's at its list's end.
* **In a table.** With the products as columns (a header naming one product a column),
  a cell is its column's product's, under the label of its row ("| RAM | 32 GB | 8 GB
  |"); otherwise a row citing one product (or under a heading naming one) has that
  product's cells, each under its column's header ("| Dell XPS 13 [..] | 899 |" under
  "Price (USD)", whose unit a number alone takes), or under its row's first cell where no
  header names a spec ("| RAM | 16 GB |" under "| Spec | Value |"). Only a label that
  names a spec of the product's own is read ("Price", "RAM", "Battery life",
  "Availability"; not "Ideal RAM for you", "Max RAM (upgradeable)", "Notes"). A tick in
  an availability cell says in stock.

Nothing here checks a fact: :mod:`compose_response.facts` checks each as a sentence citing
its product would be.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Final

from compose_response.text import BULLET, CITATION, HEADING

Marks = Callable[[str], dict[str, str]]
"""The citations of the products a text cites, by product id (one each)."""

_SPEC_LABEL: Final = re.compile(
    r"(?:(?:list\s+|sale\s+|current\s+)?price|cost|ram|memory|storage|ssd|disk|weight|"
    r"battery(?:\s+life)?|screen(?:\s+size)?|display(?:\s+size)?|(?:main\s+)?camera|"
    r"stock|availability|in\s+stock|available|os|operating\s+system|pages|author|year|"
    r"processor|cpu|chip|chipset|graphics|gpu|prozessor|grafik|processeur|puce|procesador|"
    r"preis|gewicht|akku(?:laufzeit)?|speicher|arbeitsspeicher|bildschirm|kamera|"
    r"verfügbarkeit|lager|prix|poids|batterie|autonomie|écran|stockage|mémoire|"
    r"disponibilité|precio|peso|batería|pantalla|almacenamiento|memoria|cámara|"
    r"disponibilidad)",
    re.IGNORECASE,
)
"""The label of a spec of a product's own, as a whole."""
_UNIT: Final = re.compile(r"\s*\(\s*([^()]{1,12}?)\s*\)$")
"""A unit after a label: "RAM (GB)", "Price (USD)"."""
_LABEL: Final = re.compile(
    r"\s*(?:(?:[-*•+]|\d+[.)])\s+)?[*_]*(?P<label>[^\W\d_][^\n:\uff1a*_\u2014\u2013]{0,30}?)"
    r"[*_]*\s*(?:[:\uff1a]|\s[\u2014\u2013-]\s)"
)
"""A label at a line's start: "Price: $649", "- **RAM:** 16 GB", "* RAM — 32 GB"."""
_SPECS_HEADING: Final = re.compile(
    r"\b(?:key\s+)?(?:specs?|specifications|details|features|at\s+a\s+glance|"
    r"technische\s+daten|caractéristiques|especificaciones)\b",
    re.IGNORECASE,
)
"""A heading over a product's own specs, within its section: "**Key specs:**"."""
_BOLD_NAME: Final = re.compile(r"(?:\*\*|__)(?P<name>[^*_\n]+)(?:\*\*|__)\s*(?P<after>.*)")
_RULE_LINE: Final = re.compile(r"\s*(?:[-*_]\s*){3,}$")
_ROW: Final = re.compile(r"\s*\|")
_TABLE_RULE: Final = re.compile(r"\s*\|?(?:\s*:?-{2,}:?\s*\|)+\s*(?::?-{2,}:?\s*)?$")


def spec_label(label: str) -> tuple[str, str] | None:
    """``label`` with the unit it gives ("RAM (GB)": ``("RAM", "GB")``), when it names a
    spec of a product's own; else None."""
    label = CITATION.sub("", label).strip(" *_")
    unit = _UNIT.search(label)
    name = (label[: unit.start()] if unit else label).strip(" *_")
    return (name, unit[1] if unit else "") if _SPEC_LABEL.fullmatch(name) else None


def _labelled(line: str) -> bool | None:
    """Whether ``line`` gives a spec under its label (True), something else under one
    ("Tip: ...", False), or has no label (None)."""
    found = _LABEL.match(line)
    return None if found is None else spec_label(found["label"]) is not None


def _head(line: str, cites: dict[str, str]) -> tuple[str, str] | None:
    """The citation of the one product ``line`` heads a section for, and the section's
    kind: ``heading``, ``bullet`` (a bold name as a bullet) or ``lead`` (a line leading
    into a list)."""
    if len(cites) != 1:
        return None
    mark = next(iter(cites.values()))
    bullet = BULLET.match(line)
    body = CITATION.sub("x", line[bullet.end() :] if bullet else line).strip()
    bold = _BOLD_NAME.match(body)
    if HEADING.match(body):
        return mark, "bullet" if bullet else "heading"
    if bold is not None:
        # "**Dell XPS 13** [..]", "**HP 14 [..]** — best budget pick", "**HP 14**: great value"
        cited_after = re.match(r"(?:x\s*)+", bold["after"])
        rest = bold["after"][cited_after.end() :] if cited_after else bold["after"]
        if ("x" in bold["name"].split() or cited_after) and not rest[:1].isalnum():
            return mark, "bullet" if bullet else "heading"
    # "HP 14 [..]:", "Here are the specs of the HP 14 [..]:"; not "Compared with it, look for:"
    named_alone = re.fullmatch(r"[\w\s().+-]*\bx[\s*_]*[:\uff1a]", body)
    if (
        not bullet
        and body.endswith((":", "\uff1a"))
        and (named_alone or _SPECS_HEADING.search(body))
    ):
        return mark, "lead"
    return None


@dataclass(frozen=True)
class _Section:
    mark: str
    kind: str
    indent: int


def _still(line: str, section: _Section, cites: dict[str, str]) -> bool:
    """Whether ``line`` is still in ``section``."""
    if not line.strip():
        return True
    indent = len(line) - len(line.lstrip())
    bullet = BULLET.match(line)
    if section.kind == "bullet":
        if indent > section.indent:
            return True
        return bool(bullet) and indent == section.indent and _labelled(line) is True and not cites
    if section.kind == "lead":
        return bool(bullet)
    if HEADING.match(line) or _RULE_LINE.match(line):
        return bool(not cites and HEADING.match(line) and _SPECS_HEADING.search(line))
    others = set(cites.values()) - {section.mark}
    return bool(bullet or _ROW.match(line)) or (_labelled(line) is True and not others)


def listed_under(lines: list[str], marks: Marks) -> dict[int, str]:
    """The citation of the product each listed line is about, by the line's number: the
    bullets, labelled lines and table rows under a heading naming one product (rules
    above)."""
    owned: dict[int, str] = {}
    section: _Section | None = None
    for number, line in enumerate(lines):
        cites = marks(line)
        if section is not None and not _still(line, section, cites):
            section = None
        if section is not None and line.strip() and not cites:
            bullet = BULLET.match(line)
            said = _labelled(line)
            row = _ROW.match(line)  # a table's row: its cells are read by the table
            if row or said is True or (said is None and (bullet or section.kind == "bullet")):
                owned[number] = section.mark
        if head := _head(line, cites):
            section = _Section(head[0], head[1], len(line) - len(line.lstrip()))
    return owned


# -- tables --------------------------------------------------------------------------------------


def cells(line: str) -> list[str]:
    """The cells of a table's row, as written (``|`` at its ends or not)."""
    body = line.strip()
    body = body[1:] if body.startswith("|") else body
    return (body[:-1] if body.endswith("|") else body).split("|")


def table_rows(lines: list[str]) -> dict[int, int]:
    """Each table row's header, by line numbers (the header and its rule not)."""
    found: dict[int, int] = {}
    for at in range(len(lines) - 1):
        if at in found or not (_ROW.match(lines[at]) and _TABLE_RULE.match(lines[at + 1])):
            continue
        row = at + 2
        while row < len(lines) and _ROW.match(lines[row]) and not _TABLE_RULE.match(lines[row]):
            found[row] = at
            row += 1
    return found


@dataclass(frozen=True)
class Cell:
    """A table cell that states a spec of one product's."""

    at: int
    """Which cell of its row."""
    mark: str
    label: str
    unit: str
    """The unit its label gives a number alone, if any."""


@dataclass(frozen=True)
class Row:
    """The cells of a table's row that state a spec of one product's."""

    cells: list[Cell]
    by_columns: bool
    """The products are the table's columns: the row is read by its cells alone."""


def row_cells(line: str, header: str, marks: Marks, heading: str | None) -> Row | None:
    """The cells of the row ``line`` that state a spec of one product's, under ``header``
    (``heading``: the citation of the product a heading above names, if one does); None
    for a row of products by rows that names none."""
    row, top = cells(line), cells(header)
    columns = [next(iter(m.values())) if len(m := marks(cell)) == 1 else None for cell in top]
    if any(columns[1:]) and not marks(row[0]):
        # the products as columns: each cell its column's, under the row's label
        said = spec_label(row[0])
        return Row(
            [
                Cell(at, column, *said)
                for at, (cell, column) in enumerate(zip(row, columns, strict=False))
                if at > 0 and column is not None and set(marks(cell).values()) <= {column}
            ]
            if said is not None
            else [],
            by_columns=True,
        )
    cited = {mark for cell in row for mark in marks(cell).values()}
    own = next(iter(cited)) if len(cited) == 1 else heading if not cited else None
    if own is None:
        return None
    labels = [spec_label(cell) for cell in top]
    if not any(labels) and (said := spec_label(row[0])) is not None:
        # a table of one product's specs: "| RAM | 16 GB |" under "| Spec | Value |"
        return Row(
            [Cell(at, own, *said) for at, cell in enumerate(row) if at > 0 and not marks(cell)],
            by_columns=False,
        )
    return Row(
        [
            Cell(at, own, *said)
            for at, (cell, said) in enumerate(zip(row, labels, strict=False))
            if said is not None and not marks(cell)
        ],
        by_columns=False,
    )
