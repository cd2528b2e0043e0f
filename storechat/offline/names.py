"""Product models in a shopper's words: a line or brand followed by a model token."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Final

from shared.search.series import name_words
from storechat.offline.product import Listed
from storechat.offline.store import store
from storechat.offline.vocabulary import COMPUTERS, MOBILE, brand_named, word_set

_I = re.IGNORECASE

_MODEL_QUALIFIERS: Final = word_set(
    "pro air max plus ultra mini lite flip fold fe go s studio laptop book carbon slim"
) | word_set("edge neo duo phone gaming")
# Not "in": "the iPhone 15 in stock" names a model; "15-inch" is caught as one token.
_UNIT_WORDS: Final = frozenset(
    {"gb", "tb", "kg", "g", "inch", "inches", "mah", "mp", "hours", "h", "hrs", "hz", "%"}
)
_UNIT_TOKEN = re.compile(r"\d+(?:\.\d+)?(?:gb|tb|kg|g|inch|in|mah|mp|h|hz)", _I)
_KIND_ARTICLES: Final = word_set("a an any some another other")
_KIND_WORDS: Final = word_set("phone phones laptop laptops book gaming")
_WORD = re.compile(r"[A-Za-z0-9][\w+-]*")


@dataclass(frozen=True)
class ModelName:
    """A specific product the shopper named, such as "Dell XPS 13"."""

    text: str
    brand: str | None
    category: str
    """Its kind; "" when the store's words cannot tell ("the Nokia 3310")."""

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
    shop = store()
    return (
        low in _MODEL_QUALIFIERS
        or low in shop.lines
        or low in shop.model_words
        or any(ch.isdigit() for ch in low)
    )


def _line_category(line: str, next_word: str) -> str:
    # "Galaxy Book4" is a laptop of a line of phones, "ROG Phone" a phone of gaming laptops.
    if next_word.startswith("book"):
        return COMPUTERS
    if next_word == "phone":
        return MOBILE
    return store().lines[line][1]


def _model_end(text: str, words: list[re.Match[str]], start: int) -> int:
    end = start
    # "the Galaxy S24 Ultra's camera": the possessive ends the name.
    while end < len(words) and _is_model_token(words, end):
        end += 1
        if text[words[end - 1].end() : words[end - 1].end() + 1] in ("'", "\u2019"):
            break
    return end


def find_models(text: str) -> list[ModelName]:
    """Every specific product named in ``text``, in order: "XPS 13", "Galaxy S24 Ultra"."""
    words = list(_WORD.finditer(text))
    found: list[ModelName] = []
    i = 0
    while i < len(words):
        model, end = _model_at(text, words, i)
        if model and model.text.casefold() not in {m.text.casefold() for m in found}:
            found.append(model)
        i = end if model else i + 1
    return found


def find_model(text: str) -> ModelName | None:
    """The first specific product named in ``text``."""
    models = find_models(text)
    return models[0] if models else None


def _model_at(text: str, words: list[re.Match[str]], i: int) -> tuple[ModelName | None, int]:
    shop = store()
    line = words[i].group().lower()
    brand = brand_named(words[i].group())
    numbered = (
        brand is not None
        and brand not in shop.publishers
        and i + 1 < len(words)
        and words[i + 1].group()[0].isdigit()
    )
    if line not in shop.lines and not numbered:
        return None, i
    end = _model_end(text, words, i + 1)
    # "Is the iMac in stock?": a line of one product names it; "what about a Mac?" asks
    # for a kind.
    alone = shop.line_sizes.get(line) == 1 and not (
        i and words[i - 1].group().lower() in _KIND_ARTICLES
    )
    if end == i + 1 and not alone:
        return None, i  # "a macbook for school": a line, but no model
    model_words = [w.group().lower() for w in words[i + 1 : end]]
    if model_words and set(model_words) <= _KIND_WORDS and not shop.names(line, *model_words):
        return None, i  # "a galaxy phone": a line and a kind, where no name says so
    start = i
    if line in shop.lines:
        previous = brand_named(words[i - 1].group()) if i else None
        start = i - 1 if previous else i
        brand = previous or shop.lines[line][0]
        following = words[i + 1].group().lower() if i + 1 < len(words) else ""
        category = _line_category(line, following)
    else:
        categories = shop.brand_categories.get(brand or "", frozenset())
        category = MOBILE if categories == {MOBILE} else COMPUTERS
    begin, stop = words[start].start(), words[end - 1].end()
    # "Zenbook 14 OLED (UX3405)": a bracket opened in the name closes in it.
    if text.startswith(")", stop) and text.count("(", begin, stop) > text.count(")", begin, stop):
        stop += 1
    phrase = text[begin:stop]
    return ModelName(text=phrase, brand=brand, category=category), end


# -- a catalog name against the one the shopper wrote -------------------------------------


def extra_words(asked: ModelName, name: str) -> int | None:
    """How many words ``name`` has beyond the asked model's; None if it lacks one of them.

    A part number in brackets must match when the shopper wrote one ("Zenbook 14 OLED
    (UX3405)"), and is no extra word when they did not ("HP 14 Laptop")."""
    brand = (asked.brand or "").casefold()

    def words(text: str, *, brackets: bool = False) -> list[str]:
        return [t for t in name_words(text, brackets=brackets) if t != brand]

    if any(t not in words(name, brackets=True) for t in words(asked.text, brackets=True)):
        return None
    return len(words(name)) - len(words(asked.text))


def matches(model: ModelName, products: list[Listed]) -> list[Listed]:
    """The products that are ``model``: every word of its name, the fewest words besides."""
    scored = [(extra, p) for p in products if (extra := extra_words(model, p.name)) is not None]
    fewest = min((extra for extra, _ in scored), default=0)
    return [p for extra, p in scored if extra == fewest]
