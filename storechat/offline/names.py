"""Product models in a shopper's words: a line or brand followed by a model token."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Final

from storechat.offline.vocabulary import (
    BRAND_CATEGORIES,
    COMPUTERS,
    LINES,
    MOBILE,
    PUBLISHERS,
    brand_named,
    word_set,
)

_I = re.IGNORECASE

_MODEL_QUALIFIERS: Final = (
    word_set("pro air max plus ultra mini lite flip fold fe go s studio laptop book carbon slim")
    | word_set("edge neo duo phone gaming")
    | frozenset(LINES)
)
_UNIT_WORDS: Final = frozenset(
    {"gb", "tb", "kg", "g", "inch", "inches", "in", "mah", "mp", "hours", "h", "hrs", "hz", "%"}
)
_UNIT_TOKEN = re.compile(r"\d+(?:\.\d+)?(?:gb|tb|kg|g|inch|in|mah|mp|h|hz)", _I)
_WORD = re.compile(r"[A-Za-z0-9][\w+-]*")


@dataclass(frozen=True)
class ModelName:
    """A specific product the shopper named, such as "Dell XPS 13"."""

    text: str
    brand: str | None
    category: str

    @property
    def product_name(self) -> str:
        # Short, brand-free words all found in a catalog name ("XPS 13"); a
        # bare number ("OnePlus 12" -> "12") keeps its brand to stay specific.
        if self.brand and self.text.casefold().startswith(self.brand.casefold() + " "):
            rest = self.text[len(self.brand) + 1 :]
            if not rest.replace(" ", "").isdigit():
                return rest
        return self.text

    @property
    def full_name(self) -> str:
        if self.brand and not self.text.casefold().startswith(self.brand.casefold()):
            return f"{self.brand} {self.text}"
        return self.text


def _is_model_token(words: list[re.Match[str]], index: int) -> bool:
    low = words[index].group().lower()
    if _UNIT_TOKEN.fullmatch(low):
        return False
    following = words[index + 1].group().lower() if index + 1 < len(words) else ""
    if low.isdigit() and following in _UNIT_WORDS:
        return False
    return low in _MODEL_QUALIFIERS or any(ch.isdigit() for ch in low)


def _line_category(line: str, next_word: str) -> str:
    if line in {"galaxy", "surface"} and next_word.startswith("book"):
        return COMPUTERS
    if line == "rog" and next_word == "phone":
        return MOBILE
    return LINES[line][1]


def _model_end(words: list[re.Match[str]], start: int) -> int:
    end = start
    while end < len(words) and _is_model_token(words, end):
        end += 1
    return end


def find_model(text: str) -> ModelName | None:
    """The first specific product named in ``text``: "XPS 13", "Galaxy S24 Ultra", "OnePlus 12"."""
    words = list(_WORD.finditer(text))
    for i, word in enumerate(words):
        line = word.group().lower()
        brand = brand_named(word.group())
        numbered = (
            brand is not None
            and brand not in PUBLISHERS
            and i + 1 < len(words)
            and words[i + 1].group()[0].isdigit()
        )
        if line not in LINES and not numbered:
            continue
        end = _model_end(words, i + 1)
        if end == i + 1:
            continue  # "a macbook for school": a line, but no model
        start = i
        if line in LINES:
            previous = brand_named(words[i - 1].group()) if i else None
            start = i - 1 if previous else i
            brand = previous or LINES[line][0]
            category = _line_category(line, words[i + 1].group().lower())
        else:
            category = MOBILE if BRAND_CATEGORIES[brand or ""] == {MOBILE} else COMPUTERS
        phrase = text[words[start].start() : words[end - 1].end()]
        return ModelName(text=phrase, brand=brand, category=category)
    return None
