"""Citations no tool returned, removed with the words that depend on them.

A ``[productId]`` that no tool returned is a product nobody can vouch for. What goes
with it, in any script the sentence splitter knows (:mod:`compose_response.text`):

* a line or a sentence that cites only such products goes whole (a bullet or a
  numbered line is one claim);
* in a sentence that also cites a real product, only the part that holds the invented
  citation goes, where a boundary allows it: a bracketed aside ("(or the Zephyr
  [CMP-999])"), a list item or a clause that follows a real product's after a comma,
  "and", "or", "und", "et", "、" ("the HP 14 [CMP-023] or the Zephyr [CMP-999]"), a
  clause before or after a semicolon. Otherwise the sentence goes: when the invented
  product comes first (what stands before it may be the sentence's verb), when the two
  share what follows ("the HP 14 [CMP-023] and the Zephyr [CMP-999] are both light"),
  or when a word ties them ("both", "between", "beide", "entre");
* a line that announced a list or paragraph now gone goes too (``text.kept_lines``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from compose_response.text import BULLET, CITATION, kept_lines, sentences

# Lower case only: a conjunction inside a sentence is written so, and "Model E" or
# "Vitamin E" are not one.
_CONJUNCTION = r"(?:and|or|und|oder|sowie|et|ou|y|o|&)"
_BREAK = re.compile(
    r"\s*[;\uff1b]\s*"
    rf"|(?:(?<!\d),|,(?!\d))\s+{_CONJUNCTION}\s+"
    rf"|\s+{_CONJUNCTION}\s+"
    r"|(?<!\d),\s*|,(?!\d)\s*"
    r"|[\u3001\uff0c]\s*"
    # Japanese joins nouns with particles; only right after a citation is one a list.
    r"|(?<=\])\s*(?:と|や|及び|および)\s*"
)
_SEMICOLON = re.compile(r"^\s*[;\uff1b]\s*$")
_PLAIN_COMMA = re.compile(r"^[,\u3001\uff0c]\s*$")
_SEPARATE = re.compile(r"[,;\u3001\uff0c\uff1b]")
"""A comma or semicolon before an invented product sets it apart: what follows it there
is about it alone ("…, or the Zephyr [..] if you can stretch")."""
_COMMA_BEFORE_CONJUNCTION = re.compile(rf"^,\s+(?={_CONJUNCTION}\s)")
_TIES = re.compile(
    r"\b(?:both|between|either|neither|beide\w*|zwischen|sowohl|entweder|weder|les deux|"
    r"tous deux|entre|soit|ni|ambos|ambas)\b|両方|どちらも|いずれも|两者|两款",
    re.IGNORECASE,
)
_ASIDE = re.compile(r"\s*\([^()]*\)|\s*\uff08[^\uff08\uff09]*\uff09")
_LEFTOVER = re.compile(r"[ \t]*" + CITATION.pattern)
_TAIL = re.compile(r"[\s.!?:\u3002\uff01\uff1f\uff1a\u2026\"'\u201d\u2019\u300d\u300f]*$")


@dataclass
class _Piece:
    text: str
    known: bool
    unknown: bool

    @property
    def bare(self) -> bool:
        """Nothing but punctuation after its last citation: a list item, not a clause."""
        last = list(CITATION.finditer(self.text))[-1]
        return not re.search(r"\w", self.text[last.end() :])


def _piece(text: str, unknown: set[str]) -> _Piece:
    ids = [m.group(1) for m in CITATION.finditer(text)]
    return _Piece(text, any(i not in unknown for i in ids), any(i in unknown for i in ids))


def _cites(text: str, ids: set[str]) -> bool:
    return any(m.group(1) in ids for m in CITATION.finditer(text))


def _cites_other(text: str, ids: set[str]) -> bool:
    return any(m.group(1) not in ids for m in CITATION.finditer(text))


def _without_asides(body: str, unknown: set[str]) -> str | None:
    """``body`` without bracketed asides that cite only invented products; None when an
    aside cites both kinds."""
    kept: list[str] = []
    last = 0
    for aside in _ASIDE.finditer(body):
        if not _cites(aside.group(), unknown):
            continue
        if _cites_other(aside.group(), unknown):
            return None
        kept.append(body[last : aside.start()])
        last = aside.end()
    return "".join([*kept, body[last:]])


def _split(body: str, unknown: set[str]) -> tuple[list[_Piece], list[str]]:
    pieces: list[_Piece] = []
    breaks: list[str] = []
    last = 0
    for found in _BREAK.finditer(body):
        if found.start() == last:
            continue  # a boundary right after another, or at the start
        pieces.append(_piece(body[last : found.start()], unknown))
        breaks.append(found.group())
        last = found.end()
    pieces.append(_piece(body[last:], unknown))
    return pieces, breaks


def _drop_piece(pieces: list[_Piece], breaks: list[str], at: int) -> bool:
    """Remove ``pieces[at]`` with the boundary that joins it, if the rules allow."""
    piece = pieces[at]
    if at == 0:
        # A clause ahead of a semicolon stands alone; anything else may hold the verb.
        if not breaks or not _SEMICOLON.match(breaks[0]):
            return False
        capital = piece.text[:1].isupper()
        del pieces[0], breaks[0]
        head = pieces[0].text
        pieces[0].text = (head[:1].upper() if capital else head[:1]) + head[1:]
        return True
    before = pieces[at - 1]
    if piece.known or not before.known or before.unknown:
        return False
    removed = breaks[at - 1]
    if not (piece.bare or not before.bare or _SEPARATE.search(removed)):
        return False  # "the HP 14 [..] and the Zephyr [..] are light": they share a verb
    following = pieces[at + 1] if at + 1 < len(pieces) else None
    aside = following is not None and not following.known
    if aside and _PLAIN_COMMA.match(removed) and _PLAIN_COMMA.match(breaks[at]):
        # "The HP 14 [..], like the Zephyr [..], weighs 1.4 kg": an aside between commas.
        del pieces[at], breaks[at - 1]
        breaks[at - 1] = " "
        return True
    del pieces[at], breaks[at - 1]
    last = at == len(pieces)
    if last and at >= 2 and _PLAIN_COMMA.match(breaks[at - 2]) and not _PLAIN_COMMA.match(removed):
        # "A, B and Zephyr" -> "A and B": the list's last join moves up.
        if all(p.known and p.bare for p in pieces[at - 2 : at]):
            breaks[at - 2] = removed.lstrip(",") if len(pieces) == 2 else removed
    elif not last and _PLAIN_COMMA.match(removed) and len(pieces) == 2:
        # "A, Zephyr, and C" -> "A and C"
        breaks[at - 1] = _COMMA_BEFORE_CONJUNCTION.sub(" ", breaks[at - 1])
    return True


def without_clauses(sentence: str, unknown: set[str]) -> str | None:
    """``sentence`` without the parts that cite ``unknown`` ids, or None if it must go whole.

    The sentence also cites a product that is not in ``unknown``.
    """
    tail = _TAIL.search(sentence)
    cut = tail.start() if tail else len(sentence)
    body, end = sentence[:cut], sentence[cut:]
    if _TIES.search(body):
        return None
    cleaned = _without_asides(body, unknown)
    if cleaned is None:
        return None
    pieces, breaks = _split(cleaned, unknown)
    while True:
        at = next((i for i, p in enumerate(pieces) if p.unknown), None)
        if at is None:
            break
        if not _drop_piece(pieces, breaks, at):
            return None
    parts = [pieces[0].text]
    for join, piece in zip(breaks, pieces[1:], strict=True):
        parts += [join, piece.text]
    return "".join(parts).rstrip() + end


def _kept_sentences(line: str, unknown: set[str]) -> str:
    kept: list[str] = []
    for sentence in sentences(line):
        if not _cites(sentence, unknown):
            kept.append(sentence)
        elif _cites_other(sentence, unknown):
            shorter = without_clauses(sentence, unknown)
            if shorter is not None:
                kept.append(shorter)
    return "".join(kept).rstrip()


def drop_claims(text: str, unknown: set[str]) -> str:
    """``text`` without the claims that cite ``unknown`` ids (the rules above)."""
    lines: list[tuple[str, str | None]] = []
    for line in text.split("\n"):
        bullet = BULLET.match(line)
        if not _cites(line, unknown):
            lines.append((line, line))
        elif bullet and _cites_other(line, unknown):
            rest = _kept_sentences(line[bullet.end() :], unknown)
            kept = line[: bullet.end()] + rest if _cites_other(rest, unknown) else None
            lines.append((line, kept))
        elif bullet:
            lines.append((line, None))
        else:
            lines.append((line, _kept_sentences(line, unknown) or None))
    cleaned = "\n".join(kept_lines(lines))
    # Anything left (an id the sentence splitter missed) goes too.
    cleaned = _LEFTOVER.sub(lambda m: "" if m.group(1) in unknown else m.group(0), cleaned)
    return re.sub(r"\n{3,}", "\n\n", cleaned).strip()
