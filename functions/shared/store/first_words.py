"""The words of ``shared/data/first_words.json``: what asks about the store itself, what
points at products already shown, what stands for the kind asked before, and what names
nothing a shop sells. Read by the search first's decision (``lookup_inventory.first``) and
by the offline model, so that both read a shopper's message with the same lists."""

from __future__ import annotations

import functools
import json
import re
import unicodedata
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from importlib import resources
from typing import Any

from shared.catalog.derive import fold
from shared.store.policies import stem

ANY_WORD = "*"
_WORD = re.compile(r"[^\W_]+")


def bare(text: str) -> str:
    """Lower case, without accents: "Envío" and "envio" are one word."""
    decomposed = unicodedata.normalize("NFKD", unicodedata.normalize("NFKC", text).casefold())
    return "".join(c for c in decomposed if not unicodedata.combining(c))


def _tokens(text: str) -> tuple[str, ...]:
    return tuple(_WORD.findall(bare(text.replace("\u2019", "'"))))


@dataclass(frozen=True)
class Phrases:
    """Phrases of one or more words, each word compared as ``norm`` makes it; a word
    :data:`ANY_WORD` stands for any one word ("the * one")."""

    exact: frozenset[tuple[str, ...]]
    open: tuple[tuple[str, ...], ...]
    """The phrases with :data:`ANY_WORD` in them."""
    longest: int
    norm: Callable[[str], str]

    @classmethod
    def of(cls, phrases: Iterable[str], norm: Callable[[str], str]) -> Phrases:
        keys = {
            tuple(
                word if word == ANY_WORD else norm(word)
                for part in phrase.split()
                for word in ((ANY_WORD,) if part == ANY_WORD else _tokens(part))
            )
            for phrase in phrases
        }
        return cls(
            exact=frozenset(key for key in keys if ANY_WORD not in key),
            open=tuple(sorted(key for key in keys if ANY_WORD in key)),
            longest=max((len(key) for key in keys), default=0),
            norm=norm,
        )

    def found_in(self, text: str) -> bool:
        return next(self._found(text), None) is not None

    def found(self, text: str) -> set[tuple[str, ...]]:
        """The phrases ``text`` holds, each as its key."""
        return set(self._found(text))

    def _found(self, text: str) -> Iterator[tuple[str, ...]]:
        words = [self.norm(word) for word in _tokens(text)]
        for start in range(len(words)):
            for size in range(1, min(self.longest, len(words) - start) + 1):
                window = tuple(words[start : start + size])
                if window in self.exact:
                    yield window
                yield from (key for key in self.open if _fits(key, window))


def _fits(key: tuple[str, ...], window: tuple[str, ...]) -> bool:
    return len(key) == len(window) and all(
        want in (ANY_WORD, word) for want, word in zip(key, window, strict=True)
    )


@dataclass(frozen=True)
class WordLists:
    store: Phrases
    pointers: Phrases
    besides: Phrases
    switch: Phrases
    kind: frozenset[tuple[str, ...]]
    conversation: frozenset[str]


def _languages(block: dict[str, Any]) -> list[str]:
    return [phrase for language, words in block.items() if language != "about" for phrase in words]


@functools.cache
def word_lists() -> WordLists:
    """``shared/data/first_words.json``, read once (a warm Lambda keeps it)."""
    text = (resources.files("shared") / "data" / "first_words.json").read_text(encoding="utf-8")
    data = json.loads(text)
    return WordLists(
        store=Phrases.of(_languages(data["store"]), stem),
        pointers=Phrases.of(_languages(data["pointers"]), str),
        besides=Phrases.of(_languages(data["besides"]), str),
        switch=Phrases.of(_languages(data["switch"]), str),
        kind=Phrases.of(_languages(data["kind"]), str).exact,
        conversation=frozenset(folded(word) for word in _languages(data["conversation"])),
    )


def folded(word: str) -> str:
    return bare(fold(word))


def asks_about_store(message: str) -> bool:
    """Whether ``message`` asks about the store itself (returns, delivery, an order,
    payment, a warranty), which the store's policies answer, not the catalog."""
    return word_lists().store.found_in(message)
