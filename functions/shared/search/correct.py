"""Correct the words of a search that match nothing, against the index's own words.

Only a plain word of the shopper's (:attr:`~shared.search.words.Words.plain`) is
looked at, and only when it is not a word of the index: neither in its vocabulary
(:mod:`~shared.search.spelling`) nor, through the stemmer, in any product's text
("laptops" finds "laptop"). One exception: the stemmer finds "editting" as "edit",
but one letter from a word the parser gives a meaning to ("editing"), it is that word
misspelt. Words of fewer than four letters, words with digits, stop words and the
parser's own words are left alone, and no word is corrected to one of fewer than four
letters ("note" is a word, not "not" misspelt). Explicit tool fields are filters: they
are never corrected, a correction to a word of the index must find a product within
them, and one to a word of the parser's must not name another category than the tool's.

Candidates share a key with the word (:func:`~shared.search.spelling.probe_codes`):
words of the products' names, brands, specs and tags, and the parser's words
(:func:`~shared.search.words.parser_words`: "under", "cheapest", "mystery"), within
one edit for words of four or five letters, two from six letters (the keys find two
only for a letter moved in a long word), and one edit more when the two sound alike
("fone" -> "phone", "zenphone" -> "zenfone").

In a word of four or five letters, any edit but a letter left out or two letters
swapped is a guess ("sony" is one letter from "song"): it is made only when the
candidate *goes with the search*, that is a product has it together with another word
of the search that the index has, within the search's filters (the tool's, and the
category the words imply), so that "sony phone" is not read as "song phone". Any other
word of the index must at least find a product within those filters; the parser's own
words need no product.

The nearest candidate wins; among equally near ones, one that goes with the search,
then one with the same first letter (shoppers rarely miss it), then the more common.
A word with no candidate within one edit may be two words run together
("harrypotter"): both halves words of names, brands, specs and tags or of the
parser's, and found together when both are the index's; the most even split wins.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass
from typing import Any, Final

from shared.search.intents import STOP_WORDS
from shared.search.spelling import (
    codes_of_words,
    distance,
    fold_word,
    is_word,
    own_code,
    probe_codes,
    sound,
)
from shared.search.words import Words, fold, fts_string, outside, parser_words

MIN_LETTERS = 4
"""Shorter words are left as the shopper wrote them, and no word is corrected to one
("note" is no misspelling of "not")."""
SHORT = 5
"""Words of up to this many letters get one edit, and fewer kinds of it."""
MIN_SPLIT = 3
"""The shortest half of two words run together."""
MAX_CANDIDATES = 6
"""Candidates checked against the index (nearest first) per word."""
TEXT_COLUMNS = "{name brand description specs tags}"

Exists = Callable[[str], bool]
"""Whether an FTS5 query matches any product."""


@dataclass(frozen=True)
class Candidate:
    word: str
    edits: int
    sounds_alike: bool
    products: int
    indexed: bool
    """A word of the products' names, brands, specs or tags."""
    parsed: bool
    """A word the parser gives a meaning to: it needs no product."""

    @property
    def nearness(self) -> int:
        return self.edits - int(self.sounds_alike)


def _most_edits(wrong: str, alike: bool) -> int:
    return (1 if len(wrong) <= SHORT else 2) + int(alike)


def _guess(wrong: str, candidate: Candidate) -> bool:
    """An edit the rest of the search must back (see the module's description)."""
    if len(wrong) > SHORT or candidate.sounds_alike or len(candidate.word) > len(wrong):
        return False
    return sorted(wrong) != sorted(candidate.word)


def _inflects(forms: Collection[str]) -> bool:
    """Whether a word is the stem of one the parser gives a meaning to ("stream" of
    "streaming", "game" of "gamer"): a word, not a misspelling."""
    said = parser_words()
    return any(f + end in said for f in forms for end in ("ing", "er", "ers", "s", "es"))


_KEYS: Final = ("qwertyuiop", "asdfghjkl", "zxcvbnm")
_NEAR_KEYS: Final = {
    a: {
        b
        for r, row2 in enumerate(_KEYS)
        for c, b in enumerate(row2)
        if abs(r - row) <= 1 and abs(c - col) <= 1 and b != a
    }
    for row, keys in enumerate(_KEYS)
    for col, a in enumerate(keys)
}
"""Each letter's neighbours on a keyboard: a first letter struck for one of them is a typo."""


def _first_missed(wrong: str, candidate: Candidate) -> bool:
    """Whether the word's first letter is not the candidate's in a way typing does not
    explain ("twitch" is no "witch" with a letter struck first, "making" no "taking"):
    a guess, unless it sounds alike ("fone"), the first letter was left out ("hromebook")
    or a neighbouring key struck ("kaptop")."""
    right = candidate.word
    if candidate.sounds_alike or wrong[:1] == right[:1] or wrong[:2] == right[1:3]:
        return False
    return not (wrong[1:3] == right[1:3] and wrong[:1] in _NEAR_KEYS.get(right[:1], ()))


class Corrector:
    """Corrections of one search on the snapshot connection ``db``; ``exists`` runs an
    FTS5 query on the same snapshot; ``category`` is the tool's explicit category, which
    no word of the parser's may contradict."""

    def __init__(self, db: Any, exists: Exists, *, category: str | None = None) -> None:
        self.db = db
        self.exists = exists
        self.category = category
        self._parser_filed = codes_of_words(parser_words())

    def unknown(self, words: Words) -> list[str]:
        """The plain words of ``words`` that may be corrected (most searches have none)."""
        return [word for word in words.plain if self._correctable(word)]

    def corrections(
        self,
        words: Words,
        unknown: Sequence[str],
        *,
        filters: Sequence[str],
        context: Sequence[str],
    ) -> dict[str, str]:
        """``{"labtop": "laptop"}``: the words of ``unknown`` (of :meth:`unknown`) to
        replace, and by what.

        ``filters`` are the FTS5 filter clauses of the tool's explicit fields; ``context``
        those of the explicit fields and of what the words imply.
        """
        known_groups = [
            group
            for group in words.groups
            if not (len(group) == 1 and group[0] in unknown) and self._has_any(group)
        ]
        found: dict[str, str] = {}
        for word in unknown:
            others = [group for group in known_groups if word not in group]
            right = self._correct(fold_word(word), filters, context, others)
            if right is not None:
                found[word] = right
        return found

    # ------------------------------------------------------------------ one word

    def _correctable(self, word: str) -> bool:
        if len(word) < MIN_LETTERS or not is_word(word):
            return False
        forms = {fold_word(word), fold(fold_word(word))}
        if forms & (STOP_WORDS | parser_words()) or _inflects(forms) or self._vocabulary(forms):
            return False
        if not self.exists(f"{TEXT_COLUMNS} : {fts_string(word)}"):
            return True
        near = {
            w for form in forms for c in probe_codes(form) for w in self._parser_filed.get(c, ())
        }
        return any(distance(form, w) == 1 for form in forms for w in near)

    def _has_any(self, group: tuple[str, ...]) -> bool:
        terms = " OR ".join(fts_string(term) for term in group)
        return self.exists(f"{TEXT_COLUMNS} : ({terms})")

    def _correct(
        self,
        wrong: str,
        filters: Sequence[str],
        context: Sequence[str],
        others: list[tuple[str, ...]],
    ) -> str | None:
        ranked = sorted(
            self._candidates(wrong),
            key=lambda c: (c.nearness, c.word[:1] != wrong[:1], -c.products, c.word),
        )
        best: tuple[tuple[Any, ...], str] | None = None
        for candidate in ranked[:MAX_CANDIDATES]:
            if len(candidate.word) < MIN_LETTERS:
                continue
            if candidate.parsed and self.category and outside(candidate.word, self.category):
                continue
            backed = candidate.indexed and self._goes_with(candidate.word, context, others)
            if (_guess(wrong, candidate) or _first_missed(wrong, candidate)) and not backed:
                continue
            if not (candidate.parsed or backed or self._within(candidate.word, context)):
                continue
            if not candidate.parsed and not self._within(candidate.word, filters):
                continue
            first = candidate.word[:1] != wrong[:1]  # shoppers rarely miss the first letter
            rank = (candidate.nearness, not backed, first, -candidate.products)
            if best is None or rank < best[0]:
                best = (rank, candidate.word)
        if best is not None and best[0][0] <= 1:
            return best[1]
        return self._split(wrong) or (best[1] if best is not None else None)

    def _candidates(self, wrong: str) -> list[Candidate]:
        forms = list(dict.fromkeys((wrong, fold(wrong))))
        keys = sorted(set().union(*(probe_codes(form) for form in forms)))
        found: dict[str, tuple[int, bool, bool]] = {
            str(word): (int(products), True, False)
            for word, products in self.db.execute(
                "SELECT s.word, s.products FROM spelling_keys AS k"
                " JOIN spelling AS s ON s.id = k.word_id"
                f" WHERE k.code IN ({', '.join('?' * len(keys))}) AND s.strong = 1",
                keys,
            )
        }
        for key in keys:
            for word in self._parser_filed.get(key, ()):
                # The parser gives the word a meaning, whatever the index has of it.
                products, indexed, _ = found.get(word, (0, False, True))
                found[word] = (products, indexed, True)
        candidates = []
        for word, (products, indexed, parsed) in found.items():
            edits = min(distance(form, word) for form in forms)
            alike = any(sound(form) == sound(word) for form in forms)
            if 0 < edits <= _most_edits(wrong, alike):
                candidates.append(Candidate(word, edits, alike, products, indexed, parsed))
        return candidates

    def _goes_with(
        self, candidate: str, context: Sequence[str], others: list[tuple[str, ...]]
    ) -> bool:
        """Whether a product has ``candidate`` and another word of the search, within the
        search's filters."""
        if not others:
            return False
        terms = " OR ".join(dict.fromkeys(fts_string(t) for group in others for t in group))
        return self.exists(
            " AND ".join([f"{TEXT_COLUMNS} : {fts_string(candidate)}", f"({terms})", *context])
        )

    def _within(self, candidate: str, filters: Sequence[str]) -> bool:
        return self.exists(" AND ".join([f"{TEXT_COLUMNS} : {fts_string(candidate)}", *filters]))

    # ------------------------------------------------------------------ words run together

    def _split(self, wrong: str) -> str | None:
        """``"harry potter"`` for ``"harrypotter"`` (see the module's description)."""
        halves = [(wrong[:i], wrong[i:]) for i in range(MIN_SPLIT, len(wrong) - MIN_SPLIT + 1)]
        if not halves:
            return None
        vocabulary = self._vocabulary({part for pair in halves for part in pair})
        indexed = {word for word, strong in vocabulary.items() if strong}
        splits = []
        for left, right in halves:
            if not all(part in indexed or part in parser_words() for part in (left, right)):
                continue
            if {left, right} <= indexed and not self.exists(
                f"{TEXT_COLUMNS} : {fts_string(left)} AND {TEXT_COLUMNS} : {fts_string(right)}"
            ):
                continue
            splits.append((min(len(left), len(right)), f"{left} {right}"))
        return max(splits)[1] if splits else None

    def _vocabulary(self, words: Collection[str]) -> dict[str, bool]:
        """Those of ``words`` the index has, and whether each is a strong word."""
        keys = sorted({own_code(word) for word in words})
        rows = self.db.execute(
            "SELECT s.word, s.strong FROM spelling_keys AS k JOIN spelling AS s"
            f" ON s.id = k.word_id WHERE k.code IN ({', '.join('?' * len(keys))})",
            keys,
        )
        return {str(word): bool(strong) for word, strong in rows if word in words}
