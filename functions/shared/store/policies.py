"""The store's policies in its own words: a Markdown file cut into sections, and the
sections that answer a question.

A section is a heading and the text under it, down to the next heading of any level
(text before the first heading is a section without a heading). A question finds the
sections whose words it shares: a word of the heading counts three, a word of the
text as often as the text says it (up to three times), with words compared without
case or the endings English adds ("returns", "returned" and "return" are one word).
The store writes its policies in its own words; nothing here knows what a return or
a delivery is, so a store's page about "Click and collect" is found by those words.

No AWS imports: the policies tool and the Converse function (which names the
sections in the system prompt) read it.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass
from typing import Final

HEADING_WEIGHT: Final = 3
MAX_REPEATS: Final = 3
MAX_SECTIONS: Final = 3
MAX_SECTION_CHARS: Final = 1200
"""What one section may put in front of the model (the rest is cut with "…")."""
_HEADING = re.compile(r"^ {0,3}(#{1,6})\s+(.*?)\s*#*\s*$")
_WORD = re.compile(r"[^\W_]+", re.UNICODE)
# Words that carry no subject in a question about a store, in the languages the
# catalog search reads; a question of only these matches nothing.
_STOP_WORDS = """a an and are as at be can could do does for from have how i if in is it its me my
    of on or our please tell that the there this to us we what when where which who why
    will with would you your yours about any get got long much many
    der die das und ist wie wo was ich mein meine ihr ihre sie wir
    el la los las de que es como donde mi mis su sus un una
    le les des est et comment où mon ma mes votre vos une"""
_STOP: Final = frozenset(_STOP_WORDS.split())


@dataclass(frozen=True)
class Section:
    heading: str
    text: str

    def score(self, asked: frozenset[str]) -> int:
        said = Counter(stems(self.text))
        heading = HEADING_WEIGHT * len(asked & frozenset(stems(self.heading)))
        return heading + sum(min(said[word], MAX_REPEATS) for word in asked)

    def about(self, asked: frozenset[str]) -> bool:
        """Whether the section is about a question's words, not only mentions one: its
        heading has one of them, or a word one starts ("pay" of "Payment"), or its text
        two ("Apple Pay")."""
        heading = stems(self.heading)
        led = any(
            min(len(h), len(a)) > 2 and (h.startswith(a) or a.startswith(h))
            for h in heading
            for a in asked
        )
        return led or len(asked & set(stems(self.text))) > 1


def stem(word: str) -> str:
    """``"Returns"`` -> ``"return"``, ``"shipping"`` -> ``"ship"``, ``"policy"`` -> ``"polic"``."""
    word = word.casefold()
    for ending in ("ing", "ies", "ed", "es", "s", "y"):
        if word.endswith(ending) and len(word) - len(ending) >= 3:
            word = word[: -len(ending)]
            break
    # "shipp" (from "shipping") and "ship" are one word.
    if len(word) > 3 and word[-1] == word[-2] and word[-1] not in "aeiou":
        word = word[:-1]
    return word


def stems(text: str) -> list[str]:
    return [stem(w) for w in _WORD.findall(text) if w.casefold() not in _STOP and len(w) > 1]


_LIST_ITEM = re.compile(r"^\s*(?:[-*+•]|\d+[.)])\s+")


def _unwrapped(lines: list[str]) -> str:
    """Markdown's paragraphs as one line each (a line break inside one is a space),
    list items kept on lines of their own, paragraphs apart by a blank line."""
    blocks: list[list[str]] = [[]]
    for line in lines:
        stripped = line.strip()
        if not stripped:
            blocks.append([])
        elif blocks[-1] and not _LIST_ITEM.match(line):
            blocks[-1][-1] += " " + stripped  # a line break inside a paragraph or an item
        else:
            blocks[-1].append(stripped)
    return "\n\n".join("\n".join(block) for block in blocks if block)


def sections(markdown: str) -> list[Section]:
    """The file's sections in order; a section with neither heading nor text is left out."""
    found: list[Section] = []
    heading = ""
    lines: list[str] = []

    def close() -> None:
        text = _unwrapped(lines).strip()
        if heading or text:
            found.append(Section(heading, text))

    for line in markdown.splitlines():
        match = _HEADING.match(line)
        if match:
            close()
            heading, lines = match.group(2).strip(), []
        else:
            lines.append(line)
    close()
    return found


def headings(markdown: str) -> list[str]:
    return [s.heading for s in sections(markdown) if s.heading]


def matching(markdown: str, question: str, limit: int = MAX_SECTIONS) -> list[Section]:
    """The sections that answer ``question`` best first: those scoring at least half
    the best score (so a passing mention elsewhere does not crowd out the answer).

    A question with a word the policies never say asks about something they may not
    cover ("do you price match?", "gift wrapping"): a section with a heading answers it
    only where it is about them (:meth:`Section.about`: "do you ship to Canada?" finds
    "Shipping and delivery"), not by a passing mention ("the full price" of a refund).
    A section without a heading is kept as before: nothing tells what it is about."""
    asked = frozenset(stems(question))
    every = sections(markdown)
    said = frozenset(word for s in every for word in stems(f"{s.heading} {s.text}"))
    unsaid = not asked <= said
    scored: list[tuple[int, int, Section]] = []
    for index, section in enumerate(every):
        score = section.score(asked)
        if unsaid and section.heading and not section.about(asked):
            continue
        if score:
            scored.append((score, index, section))
    if not scored:
        return []
    best = max(score for score, _, _ in scored)
    kept = sorted((s for s in scored if 2 * s[0] >= best), key=lambda s: (-s[0], s[1]))
    return [section for _, _, section in kept[:limit]]


def cut(text: str, limit: int = MAX_SECTION_CHARS) -> str:
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"
