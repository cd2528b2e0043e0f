"""How an answer's text is cut up: citations, sentences and bullets."""

from __future__ import annotations

import re

# An id inside square brackets that is not a Markdown link and holds a digit.
CITATION = re.compile(r"\[([A-Za-z][A-Za-z0-9_-]{0,62}[0-9][A-Za-z0-9_-]{0,62})\](?!\()")

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
