"""The index's own words, for correcting a search word the index does not have.

Built with the snapshot (:func:`build_spelling`): every word of three letters or more
(no digits) of the products' names, brands, specs, tags and descriptions, unstemmed
and folded as the index's tokenizer folds it, with the number of products that have it
and whether a name, brand, spec or tag has it (a *strong* word) or only descriptions
do. Each word is filed under its own key (``spelling_keys``), so that the index knows
it as a word. A strong word, which a misspelling may be corrected to, is also filed
under how it sounds (:func:`sound`) and, from :data:`LONG` letters, under itself with
any one letter deleted. Descriptions' words are not corrections: they are the widest
and least precise part of a catalog's vocabulary.

A lookup (:func:`probe_codes`) asks for the keys of every word one edit from the
shopper's (a letter deleted, swapped with its neighbour, replaced or inserted), of its
sound and of its deletions: one indexed query finds every word one edit away, words
spelt as they sound ("fone", "grafics"), and long words with a letter moved
("alienwear"). The candidates it returns are measured (:func:`distance`) before any is
used. Generating the edits at search time rather than filing every deletion of every
word keeps the table to two or three keys a word.

The keys are CRC-32 codes (as signed 32-bit integers, four bytes in SQLite), not text:
a collision only adds a candidate, which the distance then rejects.
:mod:`~shared.search.correct` uses all this at search time.
"""

from __future__ import annotations

import functools
import re
import unicodedata
import zlib
from collections.abc import Iterable, Iterator, Sequence
from typing import Any

from shared.search.schema import Document

MIN_WORD = 3
"""Shorter words are not kept: a correction to one would be a guess."""

SPELLING_SCHEMA = """
CREATE TABLE spelling (
    id INTEGER PRIMARY KEY,
    word TEXT NOT NULL,
    products INTEGER NOT NULL,
    strong INTEGER NOT NULL
);
CREATE TABLE spelling_keys (
    code INTEGER NOT NULL,
    word_id INTEGER NOT NULL,
    PRIMARY KEY (code, word_id)
) WITHOUT ROWID;
"""
# The same folding as the index's tokenizer (unicode61, remove_diacritics 2), without
# the stemmer: "Brontë" is "bronte", "Laptops" is "laptops".
_WORD_TOKENIZER = "unicode61 remove_diacritics 2"
_LETTERS = re.compile(r"[^\W\d_]+")

# Spelling by sound, applied in this order to a folded word (see :func:`sound`).
_SOUNDS: tuple[tuple[str, str], ...] = (
    (r"^kn", "n"),
    (r"^wr", "r"),
    (r"^ps", "s"),
    (r"ph", "f"),
    (r"ck", "k"),
    (r"q", "k"),
    (r"x", "ks"),
    (r"c(?=[eiy])", "s"),
    (r"c", "k"),
    (r"z", "s"),
    (r"(?<=[^aeiou])h", ""),
    (r"y", "i"),
    (r"ie|ei|ee|ea", "i"),
    (r"(.)\1+", r"\1"),
    (r"(?<=...)e$", ""),
)


def fold_word(word: str) -> str:
    """``word`` as the index's tokenizer folds it: lower case, no diacritics."""
    decomposed = unicodedata.normalize("NFKD", word.casefold())
    return "".join(c for c in decomposed if not unicodedata.combining(c))


def is_word(word: str) -> bool:
    """Letters only: numbers and model codes ("x1504va", "16") are never corrected."""
    return _LETTERS.fullmatch(word) is not None


def sound(word: str) -> str:
    """A rough key of how an English word sounds: ``"fone"`` and ``"phone"`` are ``"fon"``,
    ``"grafics"`` and ``"graphics"`` are ``"grafiks"``."""
    key = fold_word(word)
    for pattern, replacement in _SOUNDS:
        key = re.sub(pattern, replacement, key)
    return key


def distance(a: str, b: str) -> int:
    """Edits from ``a`` to ``b``: letters inserted, deleted, replaced, or two neighbours
    swapped (the optimal string alignment distance)."""
    if a == b:
        return 0
    previous2: list[int] = []
    previous = list(range(len(b) + 1))
    for i, x in enumerate(a, start=1):
        current = [i] + [0] * len(b)
        for j, y in enumerate(b, start=1):
            cost = 0 if x == y else 1
            current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
            if i > 1 and j > 1 and x == b[j - 2] and a[i - 2] == y:
                current[j] = min(current[j], previous2[j - 2] + 1)
        previous2, previous = previous, current
    return previous[-1]


def own_code(word: str) -> int:
    """The key of ``word`` itself."""
    return zlib.crc32(word.encode("utf-8")) - (1 << 31)


LONG = 9
"""Strong words from this many letters are filed under their deletions too."""
_LETTERS_AZ = "abcdefghijklmnopqrstuvwxyz"


def _deletions(word: str) -> set[str]:
    return {word[:i] + word[i + 1 :] for i in range(len(word))}


def filed_codes(word: str, *, strong: bool = True) -> set[int]:
    """The keys a word of the index is filed under (see the module's description)."""
    if not strong:
        return {own_code(word)}
    found = {own_code(word), own_code("~" + sound(word))}
    if len(word) >= LONG:
        found.update(own_code(deleted) for deleted in _deletions(word))
    return found


def probe_codes(word: str) -> set[int]:
    """The keys to look ``word`` (a shopper's) up by: every word one edit from it, its
    sound, and its deletions (which meet the deletions of long words)."""
    letters = sorted(set(_LETTERS_AZ) | set(word))
    near = _deletions(word)
    near.update(word[:i] + word[i + 1] + word[i] + word[i + 2 :] for i in range(len(word) - 1))
    for i in range(len(word) + 1):
        near.update(word[:i] + c + word[i:] for c in letters)
        if i < len(word):
            near.update(word[:i] + c + word[i + 1 :] for c in letters if c != word[i])
    found = {own_code(text) for text in near if len(text) >= MIN_WORD}
    found.update((own_code(word), own_code("~" + sound(word))))
    return found


@functools.cache
def codes_of_words(words: frozenset[str]) -> dict[int, tuple[str, ...]]:
    """``words`` by every key they are filed under (for a small word list kept in memory)."""
    filed: dict[int, list[str]] = {}
    for word in sorted(words):
        for code in filed_codes(word):
            filed.setdefault(code, []).append(word)
    return {code: tuple(found) for code, found in filed.items()}


def _words(db: Any, texts: Iterator[tuple[int, str]]) -> dict[str, int]:
    """The words of ``texts`` (row id, text) and how many rows have each, tokenized by
    SQLite as the index tokenizes: a scratch FTS5 table in the connection's temporary
    schema (never part of the snapshot), read back through ``fts5vocab``."""
    db.execute(
        "CREATE VIRTUAL TABLE temp.spelling_text USING fts5(body, content='', detail='none',"
        f" tokenize='{_WORD_TOKENIZER}')"
    )
    db.execute("CREATE VIRTUAL TABLE temp.spelling_rows USING fts5vocab(temp, spelling_text, row)")
    try:
        db.executemany("INSERT INTO temp.spelling_text (rowid, body) VALUES (?, ?)", texts)
        return {
            str(term): int(rows)
            for term, rows in db.execute("SELECT term, doc FROM temp.spelling_rows")
            if len(str(term)) >= MIN_WORD and is_word(str(term))
        }
    finally:
        db.execute("DROP TABLE temp.spelling_rows")
        db.execute("DROP TABLE temp.spelling_text")


def build_spelling(db: Any, docs: Sequence[Document]) -> int:
    """Fill ``spelling`` and ``spelling_keys`` (of :data:`SPELLING_SCHEMA`) from ``docs``;
    the number of words kept."""
    strong = _words(
        db,
        (
            (row_id, f"{doc.name_text} {doc.brand} {doc.spec_text} {doc.tags}")
            for row_id, doc in enumerate(docs, start=1)
        ),
    )
    # Only whether descriptions have a word matters: its products are counted where it
    # is a correction, in names, brands, specs and tags.
    weak = _words(db, ((row_id, doc.description) for row_id, doc in enumerate(docs, start=1)))
    words = [(word, products, True) for word, products in strong.items()]
    words += [(word, products, False) for word, products in weak.items() if word not in strong]
    db.executemany(
        "INSERT INTO spelling (id, word, products, strong) VALUES (?, ?, ?, ?)",
        ((word_id, *word) for word_id, word in enumerate(words, start=1)),
    )
    db.executemany(
        "INSERT INTO spelling_keys (code, word_id) VALUES (?, ?)",
        _keys((word, is_strong) for word, _, is_strong in words),
    )
    return len(words)


def _keys(words: Iterable[tuple[str, bool]]) -> Iterator[tuple[int, int]]:
    for word_id, (word, strong) in enumerate(words, start=1):
        for code in filed_codes(word, strong=strong):
            yield code, word_id
