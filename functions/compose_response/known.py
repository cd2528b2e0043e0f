"""Which products an answer names: recognised by identity, never by the shape of an id.

A store's ids are whatever its SKUs are (``100201``, ``BK-THE-MARTIAN-PA``,
``shirt.blue/xl``, ``Sony WH 1000``), so nothing here asks what an id looks like. The
known products are those the session's tools returned: this turn's (the ledger) and
the earlier turns' (``earlier``). An answer names one by writing, in brackets, its id
or its handle (:mod:`shared.products.citing`).

What is a citation of a known product:

* ``[id]`` with the exact id, whatever it holds (spaces, brackets, dots, ``#``);
* square brackets (also the fullwidth ones, U+FF3B and U+FF3D, and the lenticular
  U+3010 and U+3011) around a known id or handle written nearly right: case, spaces
  inside the brackets, fullwidth characters, another dash, quotes or Markdown emphasis
  around it (``[ cmp-023 ]``: :func:`shared.products.citing.normalise`); several split by commas
  (``[CMP-023, CMP-008]``) are several citations;
* round brackets around a known id or handle, or a near miss of one (``(CMP-023)``,
  ``(100201)``): read as ``[CMP-023]``. Anything else in round brackets is prose, never
  a claim: round brackets hold a model's asides far more often than a citation. (So a
  year in round brackets, "(2014)", is read as a product only in a store with a product
  ``2014`` that the session's tools returned.)

What is a claim of a product nobody returned (:mod:`compose_response.citations` removes
it with the words that depend on it): anything else in square brackets that could be an
id (1 to 255 characters) and is not a Markdown link's text: ``[CMP-999]``, ``[999999]``,
``[zephyr-ultra]``, ``[ZEPHYR ULTRA 2]`` alike. The model is told to cite products in
square brackets, and a store's ids may hold anything, spaces included, so square
brackets in an answer are a citation: around words no tool returned, a citation of a
product nobody vouched for. The price is that an aside a model writes in square
brackets ("[see below]", "[sic]") goes with its sentence; round brackets are prose, and
an empty pair (``[ ]``, a box to tick) is nothing.

While the answer is checked, each citation is a **mark** (:class:`Marked`): ``[``, one
private-use character per product named, ``]``. The sentence and clause rules
(:mod:`compose_response.text`) then never read inside an id, whatever it holds. At the
end each mark becomes ``[id]`` with the product's exact id (:meth:`Marked.render`): a
handle or a near miss is never shown to the shopper.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

from compose_response.text import CITATION, MARKS
from shared.products.citing import citable, handle, normalise
from shared.products.product import MAX_PRODUCT_ID

_FIRST_MARK = ord(MARKS[0])
MAX_MARKS = ord(MARKS[1]) - _FIRST_MARK + 1
"""Distinct products one answer can name (6,400: more than any answer holds)."""
_RESERVED = re.compile(f"[{MARKS[0]}-{MARKS[1]}\ufdd0-\ufdef]")
"""The marks' characters and Unicode's noncharacters, kept for the checks' own use:
removed from the model's text before it is read."""
_OPEN, _CLOSE = "[\uff3b\u3010", "]\uff3d\u3011"
_SQUARE = re.compile(
    rf"[{re.escape(_OPEN)}]([^{re.escape(_OPEN + _CLOSE)}\n]{{0,{MAX_PRODUCT_ID + 45}}})"
    rf"[{re.escape(_CLOSE)}](?!\()"
)
"""Square brackets and what they hold, when they are not a Markdown link's text."""
_ROUND = re.compile(rf"[(\uff08]([^()\uff08\uff09\n]{{1,{MAX_PRODUCT_ID + 45}}})[)\uff09]")
_LIST = re.compile(r"\s*[,;\u3001\uff0c\uff1b]\s*")


@dataclass(frozen=True)
class Named:
    """A product a citation names: as the model wrote it, and which product that is
    (None when no known product is)."""

    written: str
    product_id: str | None


@dataclass(frozen=True)
class Span:
    """Where a citation is in the answer, and what it names."""

    start: int
    end: int
    named: tuple[Named, ...]


class KnownProducts:
    """The products a session's tools returned, by id, by handle and by near miss."""

    def __init__(self, ids: Iterable[str]) -> None:
        self.ids: tuple[str, ...] = tuple(dict.fromkeys(ids))
        self._exact = frozenset(self.ids)
        self._handles = {handle(pid): pid for pid in self.ids if not citable(pid)}
        self._near: dict[str, set[str]] = {}
        for pid in self.ids:
            for form in (pid, handle(pid)) if not citable(pid) else (pid,):
                if normalise(form):  # an id of quotes or stars alone has no near miss
                    self._near.setdefault(normalise(form), set()).add(pid)
        # Longest first: of "A" and "A]B", "[A]B]" is the longer one.
        self._longest_first = sorted(self.ids, key=len, reverse=True)

    def resolve(self, written: str) -> str | None:
        """The known product ``written`` names: its id, its handle, or a near miss of
        either that no other known product shares; None if none."""
        token = written.strip()
        if token in self._exact:
            return token
        if token in self._handles:
            return self._handles[token]
        near = self._near.get(normalise(token), set()) if normalise(token) else set()
        return next(iter(near)) if len(near) == 1 else None

    def read(self, answer: str) -> Reading:
        """Every citation in ``answer`` (the rules in the module docstring)."""
        text = _RESERVED.sub("", answer)
        spans: list[Span] = []
        taken: list[tuple[int, int]] = []

        def free(start: int, end: int) -> bool:
            return not any(start < b and a < end for a, b in taken)

        def add(span: Span) -> None:
            spans.append(span)
            taken.append((span.start, span.end))

        for pid in self._longest_first:
            cited = f"[{pid}]"
            at = text.find(cited)
            while at >= 0:
                end = at + len(cited)
                if free(at, end) and not text.startswith("(", end):
                    add(Span(at, end, (Named(pid, pid),)))
                at = text.find(cited, at + 1)
        for match in _SQUARE.finditer(text):
            if free(*match.span()):
                span = self._square(match)
                if span is not None:
                    add(span)
        for match in _ROUND.finditer(text):
            written = match.group(1)
            named = self.resolve(written)
            if named is not None and free(*match.span()):
                add(Span(match.start(), match.end(), (Named(written.strip(), named),)))
        return Reading(text, sorted(spans, key=lambda span: span.start))

    def _square(self, match: re.Match[str]) -> Span | None:
        written = match.group(1).strip()
        start, end = match.span()
        if not written:
            return None  # "[ ]": a box to tick, not a citation
        pid = self.resolve(written)
        if pid is not None:
            return Span(start, end, (Named(written, pid),))
        parts = [part for part in _LIST.split(written) if part]
        if len(parts) > 1:
            named = tuple(Named(part, self.resolve(part)) for part in parts)
            if any(n.product_id for n in named):
                return Span(start, end, named)
        if len(written) > MAX_PRODUCT_ID:
            return None  # longer than any id: prose
        return Span(start, end, (Named(written, None),))


@dataclass
class Reading:
    """An answer's citations: where each is, and what it names."""

    text: str
    """The answer as read (without the characters marks are made of)."""
    spans: list[Span]

    def product_ids(self) -> list[str]:
        """The known products named, in the order they are first named."""
        named = (n.product_id for span in self.spans for n in span.named)
        return list(dict.fromkeys(pid for pid in named if pid is not None))

    def marked(self) -> Marked:
        """The answer with every citation as a mark."""
        marks: dict[str, Named] = {}
        by_name: dict[tuple[bool, str], str] = {}

        def mark(named: Named) -> str:
            pid = named.product_id
            key = (True, pid) if pid else (False, normalise(named.written))
            if key not in by_name and len(by_name) < MAX_MARKS:
                by_name[key] = chr(_FIRST_MARK + len(by_name))
                marks[by_name[key]] = named
            return f"[{by_name[key]}]" if key in by_name else named.written

        pieces: list[str] = []
        last = 0
        for span in self.spans:
            pieces += [self.text[last : span.start], ", ".join(mark(n) for n in span.named)]
            last = span.end
        pieces.append(self.text[last:])
        return Marked("".join(pieces), marks)


@dataclass
class Marked:
    """An answer whose citations are marks, and what each mark names."""

    text: str
    marks: dict[str, Named] = field(default_factory=dict)
    names: set[str] = field(default_factory=set)
    """The marks that stand for a product named in words, not cited
    (:mod:`compose_response.names`): written back as the words, and no card."""

    def cited(self, text: str) -> list[str]:
        """The citations' marks ``text`` holds, each once, in order."""
        found = (m.group(1) for m in CITATION.finditer(text))
        return list(dict.fromkeys(mark for mark in found if mark not in self.names))

    def name(self, written: str, product_id: str) -> str | None:
        """A new mark for ``product_id`` named in words as ``written``; None when every
        mark is taken (the words then stay as they are, unchecked)."""
        if len(self.marks) >= MAX_MARKS:
            return None
        mark = chr(_FIRST_MARK + len(self.marks))
        self.marks[mark] = Named(written, product_id)
        self.names.add(mark)
        return mark

    def render(self, text: str) -> tuple[str, Callable[[int], int]]:
        """``text`` (this answer after the checks) with each mark written as the product's
        id, and where an offset in ``text`` is in what is returned."""
        pieces: list[str] = []
        moved: list[tuple[int, int]] = []
        last = shift = 0
        for match in CITATION.finditer(text):
            mark = match.group(1)
            named = self.marks.get(mark)
            if named is None:
                shown = ""
            elif mark in self.names:
                shown = named.written
            else:
                shown = f"[{named.product_id or named.written}]"
            pieces += [text[last : match.start()], shown]
            last = match.end()
            shift += len(shown) - (match.end() - match.start())
            moved.append((match.end(), shift))
        pieces.append(text[last:])
        ends = [end for end, _ in moved]

        def where(offset: int) -> int:
            before = bisect.bisect_right(ends, offset)
            return offset + (moved[before - 1][1] if before else 0)

        return "".join(pieces), where
