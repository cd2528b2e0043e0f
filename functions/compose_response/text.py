"""How an answer's text is cut up: citations, sentences and bullets."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Final

MARKS = ("\ue000", "\uf8ff")
"""The private-use characters a citation's mark is written with while the answer is
checked (:mod:`compose_response.known`); any in the model's own text are removed first."""
CITATION = re.compile(rf"\[([{MARKS[0]}-{MARKS[1]}])\]")
"""A citation as the checks read it: ``[`` a mark ``]``, where the mark stands for a
product the answer names (:class:`compose_response.known.Marked`). The model's own
writing of it, whatever the id looks like, was recognised before."""

BULLET = re.compile(r"\s*([-*•]|\d+[.)])\s")
"""A bullet or numbered line: a claim is removed with its whole line."""

# A sentence ends at . ! ? followed by a space, or at a full stop of a script that
# uses no spaces between sentences (Chinese, Japanese: 。！？; also ．｡ and the
# Devanagari, Arabic, Armenian, Ethiopic and Myanmar full stops), closing quotes
# and brackets included.
_SENTENCE_END = re.compile(
    r"(?<=[.!?])[\"'\u201d\u2019)\]]*\s+"
    r"|(?<=[\u3002\uff01\uff1f\uff0e\uff61\u0964\u06d4\u061f\u0589\u1362\u104b])"
    r"[\u300d\u300f\uff09\u3011\"'\u201d\u2019)\]]*\s*"
)


def sentences(line: str) -> list[str]:
    """``line`` cut into sentences; joined with "" they give ``line`` back."""
    pieces: list[str] = []
    start = 0
    for match in _SENTENCE_END.finditer(line):
        if match.end() > start and match.end() < len(line):
            pieces.append(line[start : match.end()])
            start = match.end()
    pieces.append(line[start:])
    return [p for p in pieces if p]


HEADING: Final = re.compile(r"^\s*(?:#{1,6}\s+[^\n]*|\*\*[^*\n]+\*\*:?|__[^_\n]+__:?)\s*$")
"""A heading line: "## Availability", "**Stock**"."""

_ABBREVIATION_END = re.compile(
    r"(?:\b[A-Z]|\b(?:approx|ca|vs|inkl|bzw|Nr|No|Dr|Mr|Mrs|Ms|St|z\.\s?B))\.\s*$"
)


def segments(line: str) -> list[str]:
    """One claim each: a bullet is one segment; other lines are cut into sentences, not
    after an initial ("J. K. Rowling") or an abbreviation ("approx.", "ca.")."""
    if BULLET.match(line):
        return [line]
    merged: list[str] = []
    for piece in sentences(line):
        if merged and _ABBREVIATION_END.search(merged[-1][-16:]):
            merged[-1] += piece
        else:
            merged.append(piece)
    return merged


def drop_segments(text: str, doomed: Callable[[str], bool]) -> str:
    """``text`` without the segments (:func:`segments`) ``doomed`` says go: a bullet goes
    with its line, a sentence alone, and a line that announced what went goes too."""
    lines: list[tuple[str, str | None]] = []
    changed = False
    for line in text.split("\n"):
        kept = [segment for segment in segments(line) if not doomed(segment)]
        if len(kept) == len(segments(line)):
            lines.append((line, line))
            continue
        changed = True
        rest = "".join(kept).rstrip()
        lines.append((line, rest if rest.strip() and not BULLET.match(line) else None))
    if not changed:
        return text
    return re.sub(r"\n{3,}", "\n\n", "\n".join(kept_lines(lines))).strip()


_ANNOUNCES = re.compile(r"[:\uff1a][*_\s]*$|^\s*#{1,6}\s")
"""A line that ends with a colon (or a Markdown heading) announces what follows it."""


def _block(originals: list[str], start: int) -> list[int]:
    """The list or paragraph from ``start`` on (blank lines before it skipped; a list may
    have blank lines between its items)."""
    while start < len(originals) and not originals[start].strip():
        start += 1
    if start == len(originals):
        return []
    block: list[int] = []
    listed = bool(BULLET.match(originals[start]))
    for index in range(start, len(originals)):
        line = originals[index]
        if not line.strip():
            following = next((o for o in originals[index + 1 :] if o.strip()), "")
            if listed and BULLET.match(following):
                continue
            break
        if listed and not (BULLET.match(line) or line[:1].isspace()):
            break
        block.append(index)
    return block


def _announced(originals: list[str], at: int) -> list[int]:
    """The lines the line ``at`` announces: the block after it, and when that starts with
    a heading of its own ("For school:"), every section after it that does too."""
    block = _block(originals, at + 1)
    found = list(block)
    while block and _ANNOUNCES.search(originals[block[0]]):
        block = _block(originals, block[-1] + 1)
        if not block or not _ANNOUNCES.search(originals[block[0]]):
            break
        found += block
    return found


def kept_lines(lines: list[tuple[str, str | None]]) -> list[str]:
    """The lines still there, from ``(original, now)`` pairs (``now`` None when removed).

    A line that announces a list or a paragraph ("I'd pick one of these:") that is now
    gone loses its announcing sentence too, so no answer promises what it no longer has.
    """
    originals = [original for original, _ in lines]
    now = [kept for _, kept in lines]
    # From the end, so that an announcement of announcements ("My picks:" over "For
    # school:" and its list) goes when everything under it went.
    for index in reversed(range(len(now))):
        kept = now[index]
        if kept is None or not _ANNOUNCES.search(kept):
            continue
        block = _announced(originals, index)
        if block and all(not (now[i] or "").strip() for i in block):
            rest = [] if BULLET.match(kept) else sentences(kept)[:-1]
            now[index] = "".join(rest).rstrip() or None
    return [line for line in now if line is not None]
