"""A deterministic stand-in for a Bedrock model that speaks the Converse protocol.

The demo and the tests run with no AWS account and no model weights, so
:class:`OfflineModel` takes the exact kwargs of boto3's ``bedrock-runtime``
``converse`` call and returns a dict of the same shape as the real response.
It reads the shopper's words with a few regular expressions, not a language
model: it is meant to exercise the tool loop, not to be clever.

Turn 1 (the last message carries the shopper's text): parse an :class:`Intent`
(category, brand, OS, budget, use, review and book asks), carrying the subject of
an earlier user turn over to a follow-up such as "which of those is lightest?",
and ask for the tools that serve it, all in one assistant message
(``stopReason`` ``tool_use``). A message that asks for nothing gets an
introduction instead (``end_turn``).

Turn 2 (the last message carries ``toolResult`` blocks): rank the products the
tools returned against the intent, recommend at most three, cite each as
``[productId]``, summarise reviews and book facts, say plainly which tools
failed, and stop (``end_turn``). It never asks for a second round.

Usage is an approximation, documented so nobody mistakes it for a tokenizer:

* a token is ``ceil(chars / 4)`` of compact, key-sorted JSON;
* input = system + toolConfig (the *prefix*) + messages; output = the content;
* prompt caching: when the request holds any ``cachePoint`` block, the prefix
  is cached per :class:`OfflineModel` instance. The first request with a given
  prefix reports it as ``cacheWriteInputTokens``, later ones as
  ``cacheReadInputTokens``, and ``inputTokens`` then counts only the messages.
  Without a ``cachePoint`` both cache counts are 0;
* ``totalTokens`` = input + output + cache read + cache write, as Bedrock
  reports it;
* ``latencyMs`` is synthetic (derived from the token counts), never a clock.

The content of a response depends only on the request, so the same request
always gets the same message; only the cache counts depend on what the
instance has seen before. ``inferenceConfig.maxTokens`` is not enforced: an
answer is capped at about 900 characters, far below any sensible limit. The
set of seen prefixes is the only shared state and a lock guards it, so one
instance can serve concurrent requests.
"""

from __future__ import annotations

import hashlib
import json
import math
import re
import threading
from collections.abc import Callable, Iterable
from dataclasses import dataclass, replace
from typing import Any, Final

from shared.errors import InvalidConverseRequest
from shared.sanitize import clean_text

OFFLINE_MODEL_ID: Final = "storechat.offline-v1"

COMPUTERS: Final = "COMPUTERS"
MOBILE: Final = "MOBILE"
BOOKS: Final = "BOOKS"

LOOKUP: Final = "lookup_inventory"
REVIEWS: Final = "get_computer_reviews"
BOOK_INFO: Final = "get_book_info"

MAX_ANSWER_CHARS: Final = 900
MAX_LOOKUPS: Final = 4
# Regexes run on the shopper's text; a pasted essay should not make them slow.
MAX_TEXT_CHARS: Final = 2000

_I = re.IGNORECASE


def _word_set(words: str) -> frozenset[str]:
    return frozenset(words.split())


# --------------------------------------------------------------------------- vocabulary

_CATEGORY_RES: Final[tuple[tuple[str, re.Pattern[str]], ...]] = (
    (
        COMPUTERS,
        re.compile(
            r"\b(?:pcs?|laptops?|computers?|notebooks?|desktops?|macbooks?|imacs?|macs?|"
            r"mac mini|chromebooks?|ultrabooks?|gaming rigs?|workstations?|all-in-ones?|"
            r"towers?|galaxy books?\d*|surface (?:laptop|pro|book)|thinkpads?|zenbooks?|"
            r"vivobooks?|ideapads?)\b",
            _I,
        ),
    ),
    (
        MOBILE,
        re.compile(
            r"\b(?:(?:smart|cell|mobile )?phones?|smartphones?|mobiles?|iphones?|"
            r"galaxy [sazf]\d*\w*|pixel(?:\s?\d+\w*)?|handsets?|zenfones?)\b",
            _I,
        ),
    ),
    (
        BOOKS,
        re.compile(
            r"\b(?:books?|novels?|reading|read(?!\s+(?:that|about|reviews?|online))|authors?|"
            r"paperbacks?|hardcovers?|hardbacks?|e-?books?|fiction|non-?fiction|"
            r"biograph(?:y|ies)|memoirs?)\b",
            _I,
        ),
    ),
)
# Laptops whose names contain "book" must not read as a request for books.
_NOT_BOOKS = re.compile(r"\b(?:galaxy|surface|yoga|chrome|mac|zen|vivo)\s*book\w*", _I)

# brandId exactly as the catalog spells it, and the categories each brand sells.
_BRANDS: Final[tuple[tuple[str, str, frozenset[str]], ...]] = (
    ("ASUS", r"asus", frozenset({COMPUTERS, MOBILE})),
    ("Dell", r"dell", frozenset({COMPUTERS})),
    ("Apple", r"apple", frozenset({COMPUTERS, MOBILE})),
    ("Lenovo", r"lenovo", frozenset({COMPUTERS})),
    ("HP", r"hp", frozenset({COMPUTERS})),
    ("Samsung", r"samsung", frozenset({COMPUTERS, MOBILE})),
    ("Microsoft", r"microsoft", frozenset({COMPUTERS})),
    ("Acer", r"acer", frozenset({COMPUTERS})),
    ("Razer", r"razer", frozenset({COMPUTERS})),
    ("MSI", r"msi", frozenset({COMPUTERS})),
    ("Penguin Books", r"penguin(?: books)?", frozenset({BOOKS})),
    ("HarperCollins", r"harper ?collins", frozenset({BOOKS})),
    ("Bloomsbury", r"bloomsbury", frozenset({BOOKS})),
    ("Google", r"google", frozenset({COMPUTERS, MOBILE})),
    ("OnePlus", r"one ?plus", frozenset({MOBILE})),
)
_BRAND_RES: Final = tuple(
    (brand, re.compile(rf"\b{pattern}\b", _I)) for brand, pattern, _ in _BRANDS
)
_BRAND_CATEGORIES: Final = {brand: cats for brand, _, cats in _BRANDS}
_PUBLISHERS: Final = frozenset(b for b, cats in _BRAND_CATEGORIES.items() if cats == {BOOKS})

# Product lines: a line word followed by a model token names a specific product.
_LINES: Final[dict[str, tuple[str | None, str]]] = {
    "xps": ("Dell", COMPUTERS),
    "inspiron": ("Dell", COMPUTERS),
    "latitude": ("Dell", COMPUTERS),
    "alienware": ("Dell", COMPUTERS),
    "zenbook": ("ASUS", COMPUTERS),
    "vivobook": ("ASUS", COMPUTERS),
    "rog": ("ASUS", COMPUTERS),
    "tuf": ("ASUS", COMPUTERS),
    "zephyrus": ("ASUS", COMPUTERS),
    "zenfone": ("ASUS", MOBILE),
    "macbook": ("Apple", COMPUTERS),
    "imac": ("Apple", COMPUTERS),
    "mac": ("Apple", COMPUTERS),
    "iphone": ("Apple", MOBILE),
    "thinkpad": ("Lenovo", COMPUTERS),
    "ideapad": ("Lenovo", COMPUTERS),
    "ideacentre": ("Lenovo", COMPUTERS),
    "legion": ("Lenovo", COMPUTERS),
    "spectre": ("HP", COMPUTERS),
    "envy": ("HP", COMPUTERS),
    "pavilion": ("HP", COMPUTERS),
    "victus": ("HP", COMPUTERS),
    "omen": ("HP", COMPUTERS),
    "elitebook": ("HP", COMPUTERS),
    "surface": ("Microsoft", COMPUTERS),
    "aspire": ("Acer", COMPUTERS),
    "swift": ("Acer", COMPUTERS),
    "nitro": ("Acer", COMPUTERS),
    "predator": ("Acer", COMPUTERS),
    "blade": ("Razer", COMPUTERS),
    "katana": ("MSI", COMPUTERS),
    "stealth": ("MSI", COMPUTERS),
    "galaxy": ("Samsung", MOBILE),
    "pixel": ("Google", MOBILE),
    "nord": ("OnePlus", MOBILE),
    "chromebook": (None, COMPUTERS),
}
_MODEL_QUALIFIERS: Final = (
    _word_set("pro air max plus ultra mini lite flip fold fe go s studio laptop book carbon slim")
    | _word_set("edge neo duo phone gaming")
    | frozenset(_LINES)
)
_UNIT_WORDS: Final = frozenset(
    {"gb", "tb", "kg", "g", "inch", "inches", "in", "mah", "mp", "hours", "h", "hrs", "hz", "%"}
)
_UNIT_TOKEN = re.compile(r"\d+(?:\.\d+)?(?:gb|tb|kg|g|inch|in|mah|mp|h|hz)", _I)
_WORD = re.compile(r"[A-Za-z0-9][\w+-]*")

_OS_RES: Final[tuple[tuple[str, re.Pattern[str]], ...]] = (
    ("windows", re.compile(r"\bwindows\b", _I)),
    ("macos", re.compile(r"\b(?:mac ?os|os ?x|macs?|macbooks?|imacs?)\b", _I)),
    ("chromeos", re.compile(r"\b(?:chrome ?os|chromebooks?)\b", _I)),
    ("android", re.compile(r"\bandroid\b", _I)),
    ("ios", re.compile(r"\b(?:ios|iphones?)\b", _I)),
)
_OS_CATEGORY: Final = {
    "windows": COMPUTERS,
    "macos": COMPUTERS,
    "chromeos": COMPUTERS,
    "android": MOBILE,
    "ios": MOBILE,
}
_OS_LABEL: Final = {
    "windows": "Windows",
    "macos": "macOS",
    "chromeos": "ChromeOS",
    "android": "Android",
    "ios": "iOS",
}

# Checked in this order: "a light laptop for school" is a student question.
_USE_RES: Final[tuple[tuple[str, re.Pattern[str]], ...]] = (
    (
        "student",
        re.compile(
            r"\b(?:students?|school\w*|college|universit(?:y|ies)|uni|"
            r"stud(?:y|ies|ying)|homework)\b",
            _I,
        ),
    ),
    ("gaming", re.compile(r"\b(?:gam(?:e|es|ing|er|ers))\b", _I)),
    ("travel", re.compile(r"\b(?:travel\w*|portable|light(?:weight)?|commut\w*|on the go)\b", _I)),
    ("work", re.compile(r"\b(?:work|business|office|professional|productivity)\b", _I)),
)
_USE_PHRASE: Final = {
    "student": "for a student",
    "gaming": "for gaming",
    "travel": "for travel",
    "work": "for work",
}

_SORT_RES: Final[tuple[tuple[str, re.Pattern[str]], ...]] = (
    ("weight", re.compile(r"\b(?:lightest|lighter|least heavy|weighs? (?:the )?least)\b", _I)),
    (
        "price",
        re.compile(r"\b(?:cheapest|cheaper|least expensive|lowest price|most affordable)\b", _I),
    ),
    ("battery", re.compile(r"\b(?:longest|best|better|biggest|more) battery|battery life\b", _I)),
    ("ram", re.compile(r"\b(?:most|more) (?:ram|memory)\b", _I)),
    ("storage", re.compile(r"\b(?:most|more|biggest) (?:storage|space)\b", _I)),
    ("screen", re.compile(r"\b(?:biggest|largest|bigger|larger) (?:screen|display)\b", _I)),
    ("camera", re.compile(r"\b(?:best|better) camera\b", _I)),
    (
        "performance",
        re.compile(
            r"\b(?:fastest|faster|most powerful|more powerful|"
            r"best performance)\b",
            _I,
        ),
    ),
)
_SORT_PHRASE: Final = {
    "weight": "lightest first",
    "price": "cheapest first",
    "battery": "longest battery first",
    "ram": "most RAM first",
    "storage": "most storage first",
    "screen": "biggest screen first",
    "camera": "best camera first",
    "performance": "most powerful first",
}

_CHEAP = re.compile(r"\b(?:cheap|cheaper|cheapest|affordable|inexpensive|low[- ]cost|budget)\b", _I)
_UNIT_AFTER = r"(?!\s*(?:kg|kilos?|g\b|gb|tb|lbs?|inch|in\b|\"|h\b|hours?|hrs?|mah|mp|%|mm|cm))"
_AMOUNT = r"[$£€]?\s*(\d+(?:\.\d+)?)(?!\d|\.\d)\s*(k\b)?" + _UNIT_AFTER
_BUDGET_RES: Final = (
    re.compile(
        r"\b(?:under|below|less than|cheaper than|no more than|not more than|at most|"
        r"max(?:imum)?|up to|within|budget(?:\s+(?:is|of))?|spend(?:ing)?)\s*:?\s*"
        r"(?:of\s+|about\s+|around\s+)?" + _AMOUNT,
        _I,
    ),
    re.compile(r"[$£€]\s*(\d+(?:\.\d+)?)(?!\d|\.\d)\s*(k\b)?\s*(?:or less|max|tops|budget)\b", _I),
    re.compile(r"[$£€]\s*(\d+(?:\.\d+)?)(?!\d|\.\d)\s*(k\b)?", _I),
)

_REVIEW_CUE = re.compile(
    r"\b(?:reviews?|reviewers?|what do (?:people|users|customers|critics|reviewers|others) "
    r"(?:say|think)|what are people saying|opinions?|rated|ratings?|worth it|"
    r"worth (?:the money|buying|the price))\b",
    _I,
)
_SHOPPING_CUE = re.compile(
    r"\b(?:do you (?:have|sell|stock|carry)|in stock|available|buy|purchase|order|price|"
    r"cost|how much|sell)\b",
    _I,
)
_FOLLOW_UP_CUE = re.compile(
    r"\b(?:those|these|them|they|it|that one|which one|which of|ones?|what about|how about|"
    r"instead|else|another|other)\b",
    _I,
)
_THANKS = re.compile(r"^\W*(?:thanks?|thank you|cheers|ok(?:ay)?|great|cool|perfect|bye)\b", _I)

_GENRES: Final = (
    "fantasy",
    "science fiction",
    "sci-fi",
    "mystery",
    "thriller",
    "romance",
    "horror",
    "classic",
    "classics",
    "dystopian",
    "crime",
    "poetry",
    "biography",
    "memoir",
    "history",
    "historical fiction",
    "young adult",
    "children's",
    "philosophy",
    "literary fiction",
)
# The catalog says "Classic fiction"; a plural keyword would not match it.
_GENRE_KEYWORD: Final = {"classics": "classic", "sci-fi": "science fiction"}
_GENRE_RE = re.compile(r"\b(" + "|".join(re.escape(g) for g in _GENRES) + r")\b", _I)

# Book asks. Each captures the phrase that follows; _cut_phrase trims it.
_QUOTED = re.compile(r"[\"“”]([^\"“”]{2,80})[\"“”]")
_BOOK_TITLED = re.compile(
    r"\b(?:the\s+)?(?:book|novel|paperback)\s+(?:called\s+|titled\s+|named\s+)?(?P<s>.+)", _I
)
_BY_AUTHOR = re.compile(
    r"\b(?:books?|novels?|anything|something|works|stuff|titles|written)\s+(?:written\s+)?"
    r"by\s+(?P<s>.+)",
    _I,
)
_AUTHOR_NAMED = re.compile(r"\bauthor\s+(?:called\s+|named\s+)?(?P<s>[A-Z].+)")
_NAME_BOOKS = re.compile(r"\b(?P<s>[A-Z][\w.'-]+(?:\s+[A-Z][\w.'-]+){0,2})\s+(?:books|novels)\b")
_TITLE_BY = re.compile(r"\bby\s+(?P<s>[A-Z].+)")
_ABOUT = re.compile(
    r"\b(?:tell me (?:more )?about|what about|how about|info(?:rmation)? (?:on|about)|"
    r"details (?:on|about)|know about|heard of)\s+(?P<s>.+)",
    _I,
)
_IS_GOOD = re.compile(
    r"\bis\s+(?P<s>.+?)\s+(?:any good|good|worth reading|a good read|worth it|recommended)\b", _I
)
_REVIEW_SUBJECT = re.compile(r"\b(?:about|on|of|for)\s+(?P<s>.+)", _I)

_PHRASE_END = re.compile(
    r"(?:^|\s)(?:and|or|but|by|for|under|below|with|that|which|if|is|are|any|good|worth|"
    r"please|from|in stock|do you|does|at|than|vs)\b|[?!;,]|(?<!\b[A-Za-z])\.(?:\s|$)",
    _I,
)
_LEADING_DETERMINER = re.compile(r"^(?:the|a|an|your|my|this|that)\s+", _I)
_PRONOUNS: Final = _word_set(
    "it this that them those these they one ones you us me what which something anything "
    "everything more other others"
)
_NOT_TITLES: Final = _word_set(
    "store shop shipping delivery returns refunds warranty payment payments discounts "
    "deals offers prices stock yourself service any good best cheap some new popular "
    "great do what which the your recommended other more top all"
)
_CLAUSE_SPLIT = re.compile(
    r"(?<!\b[A-Za-z])[.!;]+(?:\s+|$)|\?+\s*|,\s*(?:and\s+|but\s+)?|"
    r"\s+(?:and|also|plus|but)\s+(?=(?:what|how|tell|do|does|is|are|can|could|show|find|give|"
    r"which|who|i|also)\b)",
    _I,
)


# --------------------------------------------------------------------------- intent


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


@dataclass(frozen=True)
class Intent:
    """What a shopper's message asks for, as far as a few regexes can tell."""

    # The subject: what to search the catalog for.
    categories: tuple[str, ...] = ()
    brands: tuple[str, ...] = ()
    product: ModelName | None = None
    genres: tuple[str, ...] = ()
    book_title: str | None = None
    book_author: str | None = None
    # Constraints: how to narrow and rank what the catalog returns.
    systems: tuple[str, ...] = ()
    max_price: float | None = None
    cheap: bool = False
    use: str | None = None
    sort_by: str | None = None
    # Asks for the other tools, which only the current message can make.
    wants_reviews: bool = False
    review_subject: ModelName | None = None
    review_query: str | None = None
    book_query: str | None = None
    book_shopping: bool = False
    follow_up: bool = False
    thanks: bool = False

    def names_subject(self) -> bool:
        return bool(
            self.categories
            or self.brands
            or self.product
            or self.book_title
            or self.book_author
            or self.review_subject
            or self.review_query
        )

    def has_constraints(self) -> bool:
        return bool(
            self.systems or self.max_price is not None or self.cheap or self.use or self.sort_by
        )

    def is_empty(self) -> bool:
        return not (
            self.names_subject() or self.has_constraints() or self.wants_reviews or self.book_query
        )

    def as_context(self) -> Intent:
        """This turn's subject and constraints, without the one-off tool asks."""
        return replace(
            self,
            product=self.product or self.review_subject,
            categories=self.categories
            or ((self.review_subject.category,) if self.review_subject else ()),
            wants_reviews=False,
            review_query=None,
            book_query=None,
            follow_up=False,
            thanks=False,
        )

    def refined_by(self, newer: Intent) -> Intent:
        """Carry this subject into a follow-up; the follow-up's constraints win."""
        return replace(
            self,
            systems=newer.systems or self.systems,
            max_price=newer.max_price if newer.max_price is not None else self.max_price,
            cheap=newer.cheap or self.cheap,
            use=newer.use or self.use,
            sort_by=newer.sort_by or self.sort_by,
            genres=newer.genres or self.genres,
            wants_reviews=newer.wants_reviews,
            review_query=newer.review_query,
            book_query=newer.book_query,
            book_shopping=newer.book_shopping or self.book_shopping or bool(self.book_title),
            follow_up=True,
            thanks=False,
        )


def _unique(values: Iterable[str]) -> tuple[str, ...]:
    return tuple(dict.fromkeys(values))


def _normalise(text: str) -> str:
    text = text[:MAX_TEXT_CHARS].replace("\u2019", "'")
    # "$1,299" must stay one number when clauses split on commas.
    return re.sub(r"(?<=\d),(?=\d{3}\b)", "", text)


def _split_clauses(text: str) -> list[str]:
    return [c.strip() for c in _CLAUSE_SPLIT.split(text) if c and c.strip()]


def _cut_phrase(phrase: str) -> str:
    match = _PHRASE_END.search(phrase)
    cut = phrase[: match.start()] if match else phrase
    return " ".join(cut.split()[:8]).strip(" '\"“”")[:80]


def _categories(text: str) -> list[str]:
    masked = _NOT_BOOKS.sub(" laptop ", text)
    return [cat for cat, pattern in _CATEGORY_RES if pattern.search(masked)]


def _brands(text: str) -> list[str]:
    return [brand for brand, pattern in _BRAND_RES if pattern.search(text)]


def _systems(text: str) -> list[str]:
    return [name for name, pattern in _OS_RES if pattern.search(text)]


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
    return _LINES[line][1]


def _brand_named(word: str) -> str | None:
    return next((brand for brand, pattern in _BRAND_RES if pattern.fullmatch(word)), None)


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
        brand = _brand_named(word.group())
        numbered = (
            brand is not None
            and brand not in _PUBLISHERS
            and i + 1 < len(words)
            and words[i + 1].group()[0].isdigit()
        )
        if line not in _LINES and not numbered:
            continue
        end = _model_end(words, i + 1)
        if end == i + 1:
            continue  # "a macbook for school": a line, but no model
        start = i
        if line in _LINES:
            previous = _brand_named(words[i - 1].group()) if i else None
            start = i - 1 if previous else i
            brand = previous or _LINES[line][0]
            category = _line_category(line, words[i + 1].group().lower())
        else:
            category = MOBILE if _BRAND_CATEGORIES[brand or ""] == {MOBILE} else COMPUTERS
        phrase = text[words[start].start() : words[end - 1].end()]
        return ModelName(text=phrase, brand=brand, category=category)
    return None


def _mentions_product(phrase: str) -> bool:
    lowered = phrase.lower()
    return bool(
        _brands(phrase)
        or _systems(phrase)
        or any(cat != BOOKS for cat in _categories(phrase))
        or any(re.search(rf"\b{line}\b", lowered) for line in _LINES if line != "swift")
    )


def _subject_kind(raw: str, *, book_context: bool) -> tuple[str, str]:
    """Classify a phrase as ("product" | "book" | "generic", cleaned phrase)."""
    phrase = _cut_phrase(raw)
    bare = _LEADING_DETERMINER.sub("", phrase).strip()
    if not bare or bare.split()[0].lower() in _PRONOUNS or bare.lower() in _NOT_TITLES:
        return "generic", phrase
    if _mentions_product(bare):
        return "product", phrase
    # Without a capital, a number or a mention of books, "tell me about
    # shipping" is a store question, not a title.
    if book_context or bare[0].isupper() or bare[0].isdigit():
        return "book", phrase
    return "generic", phrase


@dataclass(frozen=True)
class _BookAsk:
    title: str | None = None
    author: str | None = None

    @property
    def query(self) -> str:
        return " ".join(part for part in (self.title, self.author) if part)


def _author(raw: str) -> str | None:
    name = _cut_phrase(raw)
    return name if name and not _brands(name) and name.lower() not in _PRONOUNS else None


def _book_ask(clause: str) -> _BookAsk | None:
    """A title or an author the clause asks about, if any."""
    book_context = BOOKS in _categories(clause)
    author = None
    for pattern in (_BY_AUTHOR, _AUTHOR_NAMED):
        match = pattern.search(clause)
        if match and (author := _author(match.group("s"))):
            break
    match = _NAME_BOOKS.search(clause)
    if not author and match:
        candidate = match.group("s")
        if (
            not _mentions_product(candidate)
            and candidate.lower() not in _NOT_TITLES
            and not (_GENRE_RE.fullmatch(candidate))
        ):
            author = candidate
    title = None
    quoted = _QUOTED.search(clause)
    if quoted and not _mentions_product(quoted.group(1)):
        title = quoted.group(1).strip()
    for pattern in (_BOOK_TITLED, _ABOUT, _IS_GOOD):
        if title:
            break
        match = pattern.search(clause)
        if not match:
            continue
        context = book_context or pattern is _BOOK_TITLED
        kind, phrase = _subject_kind(match.group("s"), book_context=context)
        if kind == "book" and not (pattern is _BOOK_TITLED and phrase.lower() in _NOT_TITLES):
            title = phrase
    if not title and not author:
        return None
    if title and not author and (match := _TITLE_BY.search(clause)):
        author = _author(match.group("s"))
    if title and author and title.lower() == author.lower():
        title = None  # "Tolkien books" matched both ways: it names an author
    return _BookAsk(title=title, author=author)


def _review_ask(clause: str) -> tuple[ModelName | None, str | None, _BookAsk | None]:
    """(named product, query, or a book when the "review" is of a book)."""
    model = find_model(clause)
    if model:
        return model, model.full_name, None
    match = _REVIEW_SUBJECT.search(clause) or _IS_GOOD.search(clause)
    if match:
        kind, phrase = _subject_kind(match.group("s"), book_context=BOOKS in _categories(clause))
        if kind == "book":
            return None, None, _BookAsk(title=phrase)
    brands = [b for b in _brands(clause) if b not in _PUBLISHERS]
    if not brands:
        return None, None, None
    noun = "phone" if MOBILE in _categories(clause) else "laptop"
    gaming = "gaming " if _first(_USE_RES, clause) == "gaming" else ""
    return None, f"{brands[0]} {gaming}{noun}", None


def _budget(text: str) -> float | None:
    for pattern in _BUDGET_RES:
        match = pattern.search(text)
        if match:
            amount = float(match.group(1)) * (1000 if match.group(2) else 1)
            if amount > 0:
                return amount
    return None


def _wants_cheap(text: str, max_price: float | None) -> bool:
    words = [w.lower() for w in _CHEAP.findall(text)]
    # "a budget of 700" states a limit, not a wish for the cheapest.
    return any(w != "budget" for w in words) or (bool(words) and max_price is None)


def _first(patterns: tuple[tuple[str, re.Pattern[str]], ...], text: str) -> str | None:
    return next((name for name, pattern in patterns if pattern.search(text)), None)


def parse_text(text: str) -> Intent:
    """Read one user message."""
    text = _normalise(text)
    categories: list[str] = []
    brands: list[str] = []
    product_systems: list[str] = []
    product: ModelName | None = None
    book: _BookAsk | None = None
    book_shopping = False
    wants_reviews = False
    review_subject: ModelName | None = None
    review_query: str | None = None
    for clause in _split_clauses(text):
        ask = _book_ask(clause)
        if ask is None and _REVIEW_CUE.search(clause):
            subject, query, ask = _review_ask(clause)
            if ask is None:
                wants_reviews = True
                review_subject = review_subject or subject
                review_query = review_query or query
                continue
        if ask is not None:
            book = book or ask
            book_shopping = book_shopping or bool(_SHOPPING_CUE.search(clause))
            continue
        categories += _categories(clause)
        brands += _brands(clause)
        product_systems += _systems(clause)
        product = product or find_model(clause)
    if product:
        categories.append(product.category)
        if product.brand and not brands:
            brands.append(product.brand)
    if not categories:
        categories = [_OS_CATEGORY[name] for name in product_systems]
    genres = [_GENRE_KEYWORD.get(g.lower(), g.lower()) for g in _GENRE_RE.findall(text)]
    if BOOKS not in categories and not book:
        genres = []
    max_price = _budget(text)
    return Intent(
        categories=_unique(categories),
        brands=_unique(brands),
        product=product,
        genres=_unique(genres),
        book_title=book.title if book else None,
        book_author=book.author if book else None,
        systems=_unique(_systems(text)),
        max_price=max_price,
        cheap=_wants_cheap(text, max_price),
        use=_first(_USE_RES, text),
        sort_by=_first(_SORT_RES, text),
        wants_reviews=wants_reviews,
        review_subject=review_subject,
        review_query=review_query,
        book_query=book.query if book else None,
        book_shopping=book_shopping,
        follow_up=bool(_FOLLOW_UP_CUE.search(text)),
        thanks=bool(_THANKS.search(text)),
    )


def conversation_intent(user_texts: list[str]) -> Intent:
    """Read the latest user text, carrying over the subject of an earlier one."""
    if not user_texts:
        return Intent()
    current = parse_text(user_texts[-1])
    if current.names_subject() or not (
        current.has_constraints() or current.follow_up or current.wants_reviews
    ):
        return current
    for index in range(len(user_texts) - 2, -1, -1):
        earlier = parse_text(user_texts[index])
        if not earlier.names_subject():
            continue
        merged = earlier.as_context()
        for later in user_texts[index + 1 :]:
            merged = merged.refined_by(parse_text(later))
        if current.wants_reviews and not current.has_constraints():
            # "What do reviewers say about it?" wants reviews of the earlier
            # subject, not the same catalog search again.
            specific = merged.product or any(b not in _PUBLISHERS for b in merged.brands)
            return replace(current, review_query=review_query(merged) if specific else None)
        return merged
    return current


# --------------------------------------------------------------------------- planning


def _json_number(value: float) -> int | float:
    return int(value) if float(value).is_integer() else value


def _keywords(intent: Intent, category: str | None) -> str:
    words = [os for os in intent.systems if category is None or _OS_CATEGORY[os] == category]
    if intent.use == "gaming" and category in (None, COMPUTERS):
        words.append("gaming")
    if category == BOOKS:
        words += intent.genres
        if intent.book_author and not intent.book_title:
            # Catalog authors read "J.R.R. Tolkien": the surname is the safe match.
            words.append(intent.book_author.split()[-1].lower())
    return " ".join(_unique(words))


_USE_SORT: Final[dict[str, str]] = {"travel": "weight", "gaming": "ram", "work": "ram"}
_TOOL_SORTS: Final = frozenset({"price", "weight", "battery", "ram", "storage", "screen", "camera"})


def _lookup_input(intent: Intent, category: str | None, brand: str | None) -> dict[str, Any]:
    request: dict[str, Any] = {}
    if intent.product and category in (None, intent.product.category):
        request["productName"] = intent.product.product_name
    elif category == BOOKS and intent.book_title:
        request["productName"] = intent.book_title
    if brand:
        request["brandId"] = brand
    if category:
        request["category"] = category
    keywords = _keywords(intent, category)
    if keywords:
        request["keywords"] = keywords
    if intent.max_price is not None:
        request["maxPrice"] = _json_number(intent.max_price)
    # The tool shows only its first few matches: ask for the ones this shopper cares about.
    sort_by = intent.sort_by or _USE_SORT.get(intent.use or "")
    if sort_by in _TOOL_SORTS and category != BOOKS:
        request["sortBy"] = sort_by
    return request


def _brands_for(intent: Intent, category: str | None) -> list[str | None]:
    if intent.product and category == intent.product.category and intent.product.brand:
        return [intent.product.brand]
    fitting = [b for b in intent.brands if category is None or category in _BRAND_CATEGORIES[b]]
    return list(fitting[:3]) or [None]


def lookup_inputs(intent: Intent) -> list[dict[str, Any]]:
    """The catalog searches the intent needs, one per category and brand."""
    inputs = [
        _lookup_input(intent, category, brand)
        for category in intent.categories
        for brand in _brands_for(intent, category)
    ]
    if not intent.categories and intent.brands:
        inputs += [_lookup_input(intent, None, brand) for brand in intent.brands[:3]]
    has_book_search = BOOKS in intent.categories
    wants_book = bool(intent.book_title or intent.book_author)
    # A book that shares a message with other products gets its facts from
    # get_book_info; the catalog is searched for it only when the shopper asks
    # about buying it or it is the whole question.
    if wants_book and not has_book_search and (not inputs or intent.book_shopping):
        inputs.append(_lookup_input(intent, BOOKS, None))
    if not inputs and not (intent.wants_reviews or intent.book_query) and intent.has_constraints():
        inputs.append(_lookup_input(intent, None, None))
    return inputs[:MAX_LOOKUPS]


def review_query(intent: Intent) -> str:
    if intent.review_query:
        return intent.review_query
    if intent.product:
        return intent.product.full_name
    brand = next((b for b in intent.brands if b not in _PUBLISHERS), None)
    noun = "phone" if intent.categories[:1] == (MOBILE,) else "laptop"
    gaming = "gaming" if intent.use == "gaming" else None
    return " ".join(part for part in (brand, gaming, noun) if part)


def plan_tool_calls(intent: Intent, available: frozenset[str]) -> list[tuple[str, dict[str, Any]]]:
    """Every tool call the intent needs, among the tools the request offers."""
    calls: list[tuple[str, dict[str, Any]]] = []
    if LOOKUP in available:
        calls += [(LOOKUP, request) for request in lookup_inputs(intent)]
    if intent.wants_reviews and REVIEWS in available:
        calls.append((REVIEWS, {"query": review_query(intent)}))
    if intent.book_query and BOOK_INFO in available:
        calls.append((BOOK_INFO, {"query": intent.book_query}))
    return calls


def _preamble(calls: list[tuple[str, dict[str, Any]]]) -> str:
    parts: list[str] = []
    if any(name == LOOKUP for name, _ in calls):
        parts.append("the catalog")
    for name, request in calls:
        if name == REVIEWS:
            parts.append(f"what reviewers say about {request['query']}")
        elif name == BOOK_INFO:
            parts.append(f"the book details for {request['query']}")
    joined = parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " and " + parts[-1]
    return f"Let me check {joined}."


GREETING: Final = (
    "Hi! I'm the store's shopping assistant. I can find computers, phones and books in our "
    "catalog, compare them for what you need (budget, operating system, school, gaming or "
    "travel), summarise what reviewers say about a computer and look up facts about a book. "
    "What are you looking for?"
)
THANKS_REPLY: Final = (
    "You're welcome! Tell me if you'd like help with anything else: a computer, a phone or a book."
)
NO_TOOLS_REPLY: Final = (
    "I'd like to check the catalog for that, but my tools aren't available right now. "
    "Please try again in a moment."
)


# --------------------------------------------------------------------------- tool results


@dataclass(frozen=True)
class ToolOutcome:
    """One toolResult, paired with the toolUse that asked for it."""

    tool_use_id: str
    name: str | None
    tool_input: dict[str, Any]
    data: dict[str, Any] | None
    failure: str | None


_EXPECTED_LIST: Final = {LOOKUP: "products", REVIEWS: "results", BOOK_INFO: "results"}
_KIND_PHRASE: Final = {
    "rate_limited": "rate limited",
    "timeout": "it timed out",
    "unavailable": "it is failing",
    "unreachable": "it could not be reached",
    "http_error": "it refused the request",
    "malformed": "its reply could not be read",
    "tool_failed": "the tool failed",
    "secret_unavailable": "it is not configured",
    "not_configured": "it is not configured",
    "invalid_input": "my request was invalid",
}


def _plain(value: Any, limit: int) -> str:
    # Square brackets would look like citations; a name is never one.
    text = clean_text(str(value), limit).replace("\n", " ")
    return text.replace("[", "(").replace("]", ")")


def _failure_reason(content: list[Any]) -> str:
    for block in content:
        if not isinstance(block, dict):
            continue
        payload = block.get("json")
        if isinstance(payload, dict):
            kind = payload.get("kind")
            if isinstance(kind, str) and kind.strip():
                return _KIND_PHRASE.get(kind.strip().lower(), kind.strip().replace("_", " "))
            if isinstance(payload.get("error"), str) and payload["error"].strip():
                return _plain(payload["error"], 80).rstrip(".")
        if isinstance(block.get("text"), str) and block["text"].strip():
            return _plain(block["text"], 80).rstrip(".")
    return "an unknown error"


def _json_payload(content: list[Any]) -> dict[str, Any] | None:
    for block in content:
        if isinstance(block, dict) and isinstance(block.get("json"), dict):
            return block["json"]
        if isinstance(block, dict) and isinstance(block.get("text"), str):
            # Some tools send JSON as text; anything else is not readable data.
            try:
                parsed = json.loads(block["text"])
            except ValueError:
                continue
            if isinstance(parsed, dict):
                return parsed
    return None


def read_outcomes(messages: list[dict[str, Any]]) -> list[ToolOutcome]:
    """Pair each toolResult of the last message with the toolUse it answers."""
    uses: dict[str, dict[str, Any]] = {}
    for message in messages[:-1]:
        if message.get("role") == "assistant":
            for block in _content(message):
                use = block.get("toolUse")
                if isinstance(use, dict) and isinstance(use.get("toolUseId"), str):
                    uses[use["toolUseId"]] = use
    outcomes = []
    for block in _content(messages[-1]):
        result = block.get("toolResult")
        if not isinstance(result, dict):
            continue
        use_id = str(result.get("toolUseId", ""))
        use = uses.get(use_id)
        name = use.get("name") if use else None
        raw_input = use.get("input") if use else None
        tool_input: dict[str, Any] = raw_input if isinstance(raw_input, dict) else {}
        outcomes.append(
            _outcome(use_id, name if isinstance(name, str) else None, tool_input, result)
        )
    return outcomes


def _outcome(
    use_id: str, name: str | None, tool_input: dict[str, Any], result: dict[str, Any]
) -> ToolOutcome:
    content = result.get("content")
    blocks: list[Any] = content if isinstance(content, list) else []
    if name not in _EXPECTED_LIST:
        return ToolOutcome(use_id, name, tool_input, None, "unknown tool")
    payload = _json_payload(blocks)
    # A tool may report failure in the status or only in its payload.
    if result.get("status") == "error" or (payload and isinstance(payload.get("error"), str)):
        return ToolOutcome(use_id, name, tool_input, None, _failure_reason(blocks))
    if payload is None or not isinstance(payload.get(_EXPECTED_LIST[name]), list):
        return ToolOutcome(use_id, name, tool_input, None, "malformed")
    return ToolOutcome(use_id, name, tool_input, payload, None)


# --------------------------------------------------------------------------- ranking


def _number(value: Any) -> float | None:
    if isinstance(value, bool):
        return None
    if isinstance(value, int | float):
        number = float(value)
    elif isinstance(value, str):
        try:
            number = float(value.replace("$", "").replace(",", "").strip())
        except ValueError:
            return None
    else:
        return None
    return number if math.isfinite(number) else None


@dataclass(frozen=True)
class Product:
    product_id: str
    name: str
    category: str
    price: float | None
    stock: float | None
    specs: dict[str, Any]
    position: int

    @classmethod
    def parse(cls, raw: Any, position: int) -> Product | None:
        if not isinstance(raw, dict):
            return None
        pid = raw.get("productId")
        # An id that compose_response could not read back is never cited.
        if not isinstance(pid, str) or not re.fullmatch(r"[A-Za-z0-9_-]{1,64}", pid):
            return None
        specs = raw.get("specs")
        return cls(
            product_id=pid,
            name=_plain(raw.get("name") or pid, 60),
            category=str(raw.get("category") or ""),
            price=_number(raw.get("price")),
            stock=_number(raw.get("stock")),
            specs=specs if isinstance(specs, dict) else {},
            position=position,
        )

    def spec(self, key: str) -> float | None:
        value = _number(self.specs.get(key))
        # Desktops report 0 hours of battery: that means "none", not "worst".
        return value if value is not None and value > 0 else None

    def text(self, key: str) -> str:
        value = self.specs.get(key)
        return _plain(value, 50) if isinstance(value, str | int | float) else ""

    @property
    def in_stock(self) -> bool:
        return self.stock is None or self.stock > 0


def _portable(p: Product) -> bool:
    return p.text("formFactor").lower() not in {"desktop", "all-in-one", "tower", "mini pc"}


def _weight_kg(p: Product) -> float | None:
    # A desktop's weight says nothing about carrying it: it never wins "lightest".
    if not _portable(p):
        return None
    kg = p.spec("weightKg")
    grams = p.spec("weightG")
    return kg if kg is not None else (grams / 1000 if grams is not None else None)


def _battery(p: Product) -> float | None:
    hours = p.spec("batteryHours")
    return hours if hours is not None else p.spec("batteryMah")


def _gpu_tier(p: Product) -> float | None:
    gpu = p.text("gpu").lower()
    if not gpu:
        return None
    rtx = re.search(r"rtx\s*(\d{4})", gpu)
    if rtx:
        return 0.7 + 0.3 * min(int(rtx.group(1)) % 100, 90) / 90
    if "rtx" in gpu or re.search(r"\brx\s*\d", gpu):
        return 0.7
    if "gtx" in gpu or "arc" in gpu:
        return 0.4
    return 0.1


def _pro_os(p: Product) -> float | None:
    system = p.text("os").lower()
    return (1.0 if " pro" in system or "macos" in system else 0.0) if system else None


_FEATURES: Final[dict[str, Callable[[Product], float | None]]] = {
    "price": lambda p: p.price,
    "weight": _weight_kg,
    "battery": _battery,
    "ram": lambda p: p.spec("ramGb"),
    "storage": lambda p: p.spec("storageGb"),
    "screen": lambda p: p.spec("screenInches"),
    "camera": lambda p: p.spec("cameraMp"),
    "gpu": _gpu_tier,
    "pro_os": _pro_os,
}
_LOWER_IS_BETTER: Final = frozenset({"price", "weight"})
_USE_WEIGHTS: Final[dict[str | None, dict[str, float]]] = {
    "student": {"price": 3, "weight": 2, "battery": 2, "ram": 1},
    "gaming": {"gpu": 4, "ram": 2, "screen": 1, "price": 0.5},
    "travel": {"weight": 3, "battery": 3, "price": 1},
    "work": {"ram": 3, "pro_os": 2, "battery": 1, "storage": 1, "price": 0.5},
    None: {"price": 1, "ram": 1, "battery": 1, "weight": 0.5, "storage": 0.5},
}
_SORT_FEATURE: Final = {"performance": "gpu"}


def _normalised(feature: str, products: list[Product]) -> dict[str, float]:
    """Each product's value as a share of the best one (0..1, 1 best); missing is 0.

    Ratios rather than min-max: 1.38 kg against 1.46 kg is a small difference
    and should weigh as one.
    """
    getter = _FEATURES[feature]
    values = {p.product_id: v for p in products if (v := getter(p)) is not None and v >= 0}
    if not values:
        return {}
    if feature in _LOWER_IS_BETTER:
        low = min(values.values())
        return {pid: low / v if v > 0 else 1.0 for pid, v in values.items()}
    high = max(values.values())
    return {pid: v / high if high > 0 else 1.0 for pid, v in values.items()}


@dataclass(frozen=True)
class Constraints:
    """What one catalog search's results are filtered and ranked by."""

    category: str | None
    systems: tuple[str, ...]
    max_price: float | None
    use: str | None
    sort_by: str | None
    cheap: bool
    brand: str | None = None
    product_name: str | None = None


def _runs(system: str, product: Product) -> bool:
    value = product.text("os").lower().replace(" ", "")
    if system == "macos":
        return "macos" in value or "osx" in value
    if system == "ios":
        return value.startswith("ios")
    return system in value


def _weights(c: Constraints) -> dict[str, float]:
    if c.category == BOOKS:
        weights = {"price": 1.0} if c.cheap or c.sort_by == "price" else {}
    else:
        weights = dict(_USE_WEIGHTS.get(c.use, _USE_WEIGHTS[None]))
    if c.cheap:
        weights["price"] = weights.get("price", 0) + 2
    return weights


def rank(products: list[Product], c: Constraints) -> list[Product]:
    """Best first: the asked-for order, then the use's weighted score, then tool order."""
    weights = _weights(c)
    scaled = {feature: _normalised(feature, products) for feature in weights}
    sort_feature = _SORT_FEATURE.get(c.sort_by or "", c.sort_by)
    sort_scaled = _normalised(sort_feature, products) if sort_feature in _FEATURES else {}

    def score(p: Product) -> float:
        total = sum(w * scaled[f].get(p.product_id, 0.0) for f, w in weights.items())
        ram = p.spec("ramGb")
        if c.use == "student" and ram is not None and ram < 8:
            total -= 2
        if c.use in ("student", "travel") and not _portable(p):
            total -= 3
        return total

    def key(p: Product) -> tuple[float, float, int]:
        primary = sort_scaled.get(p.product_id, -1.0) if sort_scaled else 0.0
        return (-primary, -score(p), p.position)

    return sorted(products, key=key)


@dataclass(frozen=True)
class Sifted:
    fits: list[Product]
    out_of_stock: list[Product]
    wrong_os: int
    over_budget: int


def sift(products: list[Product], c: Constraints) -> Sifted:
    fits, out, wrong_os, over = [], [], 0, 0
    for product in products:
        if (
            c.systems
            and product.category != BOOKS
            and not any(_runs(s, product) for s in c.systems)
        ):
            wrong_os += 1
        elif c.max_price is not None and (product.price is None or product.price > c.max_price):
            over += 1
        elif not product.in_stock:
            out.append(product)
        else:
            fits.append(product)
    return Sifted(fits, out, wrong_os, over)


# --------------------------------------------------------------------------- answer text


def _money(value: float) -> str:
    return f"${value:,.0f}" if float(value).is_integer() else f"${value:,.2f}"


_FACT_ORDER: Final[dict[str, dict[str | None, tuple[str, ...]]]] = {
    COMPUTERS: {
        "student": ("weight", "battery", "ram"),
        "gaming": ("gpu", "ram", "cpu"),
        "travel": ("weight", "battery", "ram"),
        "work": ("ram", "cpu", "battery"),
        None: ("ram", "weight", "battery"),
    },
    MOBILE: {
        "student": ("storage", "battery", "screen"),
        "gaming": ("chip", "ram", "battery"),
        "travel": ("weight", "battery", "camera"),
        "work": ("ram", "storage", "battery"),
        None: ("storage", "camera", "battery"),
    },
    BOOKS: {None: ("author", "format", "year")},
}


def _short_gpu(gpu: str) -> str:
    return re.sub(r"^NVIDIA GeForce |\s+Laptop GPU$", "", gpu)


def _weight_fact(p: Product) -> str | None:
    if not _portable(p):
        return None
    if (kg := p.spec("weightKg")) is not None:
        return f"{kg:g} kg"
    if (grams := p.spec("weightG")) is not None:
        return f"{grams:g} g"
    return None


def _battery_fact(p: Product) -> str | None:
    if (hours := p.spec("batteryHours")) is not None:
        return f"{hours:g} h battery"
    if (mah := p.spec("batteryMah")) is not None:
        return f"{mah:g} mAh battery"
    return None


def _storage_fact(p: Product) -> str | None:
    gb = p.spec("storageGb")
    if gb is None:
        return None
    return f"{gb / 1024:g} TB storage" if gb >= 1024 else f"{gb:g} GB storage"


_NUMBER_FACTS: Final = {
    "ram": ("ramGb", " GB RAM"),
    "screen": ("screenInches", "-inch screen"),
    "camera": ("cameraMp", " MP camera"),
}
_FACT_MAKERS: Final[dict[str, Callable[[Product], str | None]]] = {
    "weight": _weight_fact,
    "battery": _battery_fact,
    "storage": _storage_fact,
    "gpu": lambda p: _short_gpu(p.text("gpu")) or None,
    "author": lambda p: f"by {p.text('author')}" if p.text("author") else None,
}


def _fact(p: Product, name: str) -> str | None:
    """One spec as the shopper reads it ("1.2 kg"), or None when it is missing."""
    if name in _FACT_MAKERS:
        return _FACT_MAKERS[name](p)
    if name in _NUMBER_FACTS:
        key, unit = _NUMBER_FACTS[name]
        value = p.spec(key)
        return f"{value:g}{unit}" if value is not None else None
    return p.text(name) or None  # cpu, chip, os, format, year


def _facts(p: Product, c: Constraints) -> list[str]:
    category = p.category if p.category in _FACT_ORDER else COMPUTERS
    orders = _FACT_ORDER[category]
    order = list(orders.get(c.use, orders[None]))
    if c.sort_by and c.sort_by in _FEATURES and c.sort_by not in order:
        order.insert(0, c.sort_by)
    if c.systems and category != BOOKS:
        order.insert(0, "os")
    facts = [f for name in order if (f := _fact(p, name))][:4]
    if p.price is not None:
        facts.append(_money(p.price))
    return facts


_SUPERLATIVES: Final = (
    ("price", "cheapest"),
    ("weight", "lightest"),
    ("battery", "longest battery"),
    ("gpu", "strongest graphics"),
    ("ram", "most RAM"),
)
_RELEVANT_SUPERLATIVES: Final[dict[str | None, frozenset[str]]] = {
    "student": frozenset({"price", "weight", "battery"}),
    "gaming": frozenset({"gpu", "ram"}),
    "travel": frozenset({"weight", "battery"}),
    "work": frozenset({"ram", "battery"}),
    None: frozenset({"price", "weight", "battery"}),
}


def _highlights(p: Product, candidates: list[Product], c: Constraints) -> str:
    if len(candidates) < 2 or p.category == BOOKS:
        return ""
    relevant = _RELEVANT_SUPERLATIVES.get(c.use, _RELEVANT_SUPERLATIVES[None])
    if c.sort_by:
        relevant = relevant | {_SORT_FEATURE.get(c.sort_by, c.sort_by)}
    best = []
    for feature, label in _SUPERLATIVES:
        getter = _FEATURES[feature]
        values = [v for q in candidates if (v := getter(q)) is not None]
        mine = getter(p)
        if feature not in relevant or mine is None or len(values) < 2:
            continue
        target = min(values) if feature in _LOWER_IS_BETTER else max(values)
        if mine == target and values.count(target) == 1:
            best.append(label)
    return " and ".join(best[:2]) + " here; " if best else ""


def _describe(c: Constraints) -> str:
    noun = {COMPUTERS: "computers", MOBILE: "phones", BOOKS: "books"}.get(
        c.category or "", "products"
    )
    if c.category == BOOKS and c.brand:
        noun = "titles"  # not "Penguin Books books"
    parts = [c.brand or "", "/".join(_OS_LABEL[s] for s in c.systems), noun]
    description = " ".join(p for p in parts if p)
    if c.product_name:
        description += f" matching “{_plain(c.product_name, 60)}”"
    if c.use and c.category != BOOKS:
        description += f" {_USE_PHRASE[c.use]}"
    if c.max_price is not None:
        description += f" under {_money(c.max_price)}"
    return description


def _relax(c: Constraints) -> str:
    options = []
    if c.max_price is not None:
        options.append(f"raising the budget above {_money(c.max_price)}")
    if c.systems:
        options.append("another operating system")
    if c.brand:
        options.append("another brand")
    if c.product_name:
        options.append("a broader search")
    if not options:
        return "Try describing what you need in other words."
    joined = options[0] if len(options) == 1 else ", ".join(options[:-1]) + " or " + options[-1]
    return f"Try {joined}."


@dataclass(frozen=True)
class _Line:
    text: str
    droppable: bool = False


def _product_section(products: list[Product], c: Constraints, limit: int) -> list[_Line]:
    sifted = sift(products, c)
    description = _describe(c)
    lines: list[_Line] = []
    if not sifted.fits:
        lines.append(_Line(f"I couldn't find any {description} in stock. {_relax(c)}"))
    else:
        ranked = rank(sifted.fits, c)[:limit]
        order = f" ({_SORT_PHRASE[c.sort_by]})" if c.sort_by in _SORT_PHRASE else ""
        lead = "Our" if c.category == BOOKS else "Best"
        lines.append(_Line(f"{lead} {description}{order}:"))
        for number, p in enumerate(ranked, start=1):
            facts = ", ".join(_facts(p, c))
            lines.append(
                _Line(
                    f"{number}. {p.name} [{p.product_id}]: "
                    f"{_highlights(p, sifted.fits, c)}{facts}.",
                    droppable=number > 1,
                )
            )
    if sifted.out_of_stock:
        names = " and ".join(p.name for p in sifted.out_of_stock[:2])
        verb = "is" if len(sifted.out_of_stock) == 1 else "are"
        lines.append(_Line(f"{names} would also fit but {verb} out of stock.", droppable=True))
    if sifted.wrong_os and sifted.fits:
        label = "/".join(_OS_LABEL[s] for s in c.systems)
        lines.append(_Line(f"I left out {sifted.wrong_os} that don't run {label}.", droppable=True))
    return lines


def _constraints_for(outcome: ToolOutcome, intent: Intent) -> Constraints:
    request = outcome.tool_input
    category = (
        request.get("category") if request.get("category") in (COMPUTERS, MOBILE, BOOKS) else None
    )
    keywords = str(request.get("keywords") or "").lower().split()
    systems = [s for s in _OS_LABEL if s in keywords]
    systems += [s for s in intent.systems if category in (None, _OS_CATEGORY[s])]
    max_price = _number(request.get("maxPrice"))
    brand = request.get("brandId")
    name = request.get("productName")
    return Constraints(
        category=category,
        systems=_unique(systems) if category != BOOKS else (),
        max_price=max_price if max_price is not None else intent.max_price,
        use=intent.use,
        sort_by=intent.sort_by,
        cheap=intent.cheap,
        brand=_plain(brand, 40) if isinstance(brand, str) else None,
        product_name=name if isinstance(name, str) else None,
    )


def _products(outcome: ToolOutcome, seen: set[str]) -> list[Product]:
    raw = (outcome.data or {}).get("products") or []
    products = []
    for position, item in enumerate(raw):
        product = Product.parse(item, position)
        if product and product.product_id not in seen:
            seen.add(product.product_id)
            products.append(product)
    return products


def _quote(value: Any, limit: int = 70) -> str:
    return f"“{_plain(value, limit)}”"


def _reviews_line(outcome: ToolOutcome) -> str:
    data = outcome.data or {}
    query = _plain(data.get("query") or outcome.tool_input.get("query") or "that computer", 60)
    titles = [
        r["title"]
        for r in data.get("results", [])
        if isinstance(r, dict) and isinstance(r.get("title"), str) and r["title"].strip()
    ]
    if not titles:
        return f"I found no reviews for {query}."
    return f"What reviewers say about {query}: " + "; ".join(_quote(t) for t in titles[:3]) + "."


def _authors(value: Any) -> str:
    if isinstance(value, list):
        names = [_plain(v, 40) for v in value if isinstance(v, str) and v.strip()]
        return " and ".join(names[:2])
    return _plain(value, 60) if isinstance(value, str) else ""


def _book_line(outcome: ToolOutcome) -> str:
    data = outcome.data or {}
    query = _plain(data.get("query") or outcome.tool_input.get("query") or "that book", 60)
    books = [r for r in data.get("results", []) if isinstance(r, dict) and r.get("title")]
    if not books:
        return f"I couldn't find book details for “{query}”."
    book = books[0]
    head = _quote(book["title"], 80)
    authors = _authors(book.get("authors"))
    if authors:
        head += f" by {authors}"
    year = _number(book.get("year"))
    if year:
        head += f" ({year:.0f})"
    details = []
    rating, count = _number(book.get("avgRating")), _number(book.get("ratingsCount"))
    if rating:
        votes = f" from {count:,.0f} ratings" if count else ""
        details.append(f"rated {rating:.1f}/5{votes}")
    pages = _number(book.get("pages"))
    if pages:
        details.append(f"{pages:.0f} pages")
    subjects = [_plain(s, 30) for s in book.get("subjects") or [] if isinstance(s, str)][:2]
    if subjects:
        details.append("about " + " and ".join(subjects))
    return head + (": " + ", ".join(details) if details else "") + "."


_TOOL_LABEL: Final = {
    LOOKUP: "catalog",
    REVIEWS: "review service",
    BOOK_INFO: "book information service",
}


def _failure_line(outcome: ToolOutcome, catalog_ok: bool) -> str:
    reason = outcome.failure or "an unknown error"
    fallback = ", so this is based on the catalog only." if catalog_ok else "."
    if reason == "unknown tool":
        label = _plain(outcome.name, 40) if outcome.name else "a tool I did not ask for"
        return f"I got a result from {label} that I can't use, so I left it out."
    if reason == "malformed":
        return f"The {_TOOL_LABEL[outcome.name or LOOKUP]} sent back data I couldn't read{fallback}"
    if outcome.name == LOOKUP:
        return f"I couldn't check the catalog ({reason}), so I can't confirm prices or stock."
    return f"I couldn't reach the {_TOOL_LABEL[outcome.name or REVIEWS]} ({reason}){fallback}"


def _fit(lines: list[_Line], limit: int) -> str:
    """Join lines, dropping optional ones from the end until the answer fits."""
    kept = list(lines)
    while len("\n".join(line.text for line in kept)) > limit:
        droppable = [i for i, line in enumerate(kept) if line.droppable]
        if not droppable:
            break
        del kept[droppable[-1]]
    text = "\n".join(line.text for line in kept)
    if len(text) > limit:
        text = text[: limit - 1].rsplit(" ", 1)[0]
        # Never leave half a citation behind.
        if text.rfind("[") > text.rfind("]"):
            text = text[: text.rfind("[")].rstrip()
        text += "…"
    return text


def compose_answer(intent: Intent, outcomes: list[ToolOutcome]) -> str:
    """The final answer, built only from what the tools returned."""
    lookups = [o for o in outcomes if o.name == LOOKUP and o.data is not None]
    lines: list[_Line] = []
    seen: set[str] = set()
    for index, outcome in enumerate(lookups):
        constraints = _constraints_for(outcome, intent)
        products = _products(outcome, seen)
        lines += _product_section(products, constraints, limit=3 if index == 0 else 2)
    for outcome in outcomes:
        if outcome.failure is None and outcome.name == REVIEWS:
            lines.append(_Line(_reviews_line(outcome)))
        elif outcome.failure is None and outcome.name == BOOK_INFO:
            lines.append(_Line(_book_line(outcome)))
    for outcome in outcomes:
        if outcome.failure is not None:
            lines.append(_Line(_failure_line(outcome, catalog_ok=bool(lookups))))
    if not lines:
        lines.append(_Line("I have nothing from my tools to answer with. " + GREETING))
    return _fit(lines, MAX_ANSWER_CHARS)


# --------------------------------------------------------------------------- protocol


def _content(message: Any) -> list[dict[str, Any]]:
    content = message.get("content") if isinstance(message, dict) else None
    return [b for b in content if isinstance(b, dict)] if isinstance(content, list) else []


def _user_texts(messages: list[dict[str, Any]]) -> list[str]:
    texts = []
    for message in messages:
        if message.get("role") != "user":
            continue
        parts = [b["text"] for b in _content(message) if isinstance(b.get("text"), str)]
        joined = " ".join(p.strip() for p in parts if p.strip())
        if joined:
            texts.append(joined)
    return texts


_TOP_PICK = re.compile(r"^1\.\s+(?P<name>[^\[\n]+?)\s+\[[A-Za-z0-9_-]+\]", re.MULTILINE)


def _last_top_pick(messages: list[dict[str, Any]]) -> str | None:
    """The first product the latest answer recommended: what "it" most likely means."""
    for message in reversed(messages):
        if message.get("role") != "assistant":
            continue
        for block in _content(message):
            match = _TOP_PICK.search(str(block.get("text", "")))
            if match:
                # "HP 14 Laptop (14-ep0000)" searches better without the part number.
                return re.sub(r"\s*\([^)]*\)\s*$", "", match.group("name")) or None
    return None


def _tool_names(request: dict[str, Any]) -> frozenset[str]:
    tools = (request.get("toolConfig") or {}).get("tools") or []
    return frozenset(
        t["toolSpec"]["name"]
        for t in tools
        if isinstance(t, dict)
        and isinstance(t.get("toolSpec"), dict)
        and isinstance(t["toolSpec"].get("name"), str)
    )


def _serialised_chars(value: Any) -> int:
    return len(
        json.dumps(value, sort_keys=True, ensure_ascii=False, separators=(",", ":"), default=str)
    )


def _tokens(chars: int) -> int:
    return math.ceil(chars / 4)


def _has_cache_point(request: dict[str, Any]) -> bool:
    blocks = list(request.get("system") or [])
    blocks += list((request.get("toolConfig") or {}).get("tools") or [])
    for message in request.get("messages") or []:
        blocks += _content(message)
    return any(isinstance(b, dict) and "cachePoint" in b for b in blocks)


class OfflineModel:
    """A deterministic Converse model: same request, same message. Thread-safe."""

    def __init__(self) -> None:
        self._seen_prefixes: set[str] = set()
        self._lock = threading.Lock()

    def converse(self, request: dict[str, Any]) -> dict[str, Any]:
        messages = request.get("messages")
        if not isinstance(messages, list) or not messages:
            raise InvalidConverseRequest("the offline model needs at least one message")
        if not isinstance(messages[-1], dict) or messages[-1].get("role") != "user":
            raise InvalidConverseRequest("the last message must come from the user")
        content, stop_reason = self._reply(request, messages)
        usage = self._usage(request, content)
        return {
            "output": {"message": {"role": "assistant", "content": content}},
            "stopReason": stop_reason,
            "usage": usage,
            # Synthetic, so that equal requests get equal responses.
            "metrics": {"latencyMs": 40 + 2 * usage["outputTokens"]},
        }

    def _reply(
        self, request: dict[str, Any], messages: list[dict[str, Any]]
    ) -> tuple[list[dict[str, Any]], str]:
        intent = conversation_intent(_user_texts(messages))
        if any("toolResult" in block for block in _content(messages[-1])):
            answer = compose_answer(intent, read_outcomes(messages))
            return [{"text": answer}], "end_turn"
        if intent.is_empty():
            return [{"text": THANKS_REPLY if intent.thanks else GREETING}], "end_turn"
        if intent.wants_reviews and not intent.review_query:
            intent = replace(intent, review_query=_last_top_pick(messages))
        calls = plan_tool_calls(intent, _tool_names(request))
        if not calls:
            return [{"text": NO_TOOLS_REPLY}], "end_turn"
        round_number = sum(
            1 for m in messages if isinstance(m, dict) and m.get("role") == "assistant"
        )
        content: list[dict[str, Any]] = [{"text": _preamble(calls)}]
        for index, (name, tool_input) in enumerate(calls):
            tool_use_id = f"tooluse_off_{round_number + 1}_{index}"
            content.append(
                {"toolUse": {"toolUseId": tool_use_id, "name": name, "input": tool_input}}
            )
        return content, "tool_use"

    def _usage(self, request: dict[str, Any], content: list[dict[str, Any]]) -> dict[str, int]:
        prefix = {"system": request.get("system") or [], "toolConfig": request.get("toolConfig")}
        prefix_tokens = _tokens(_serialised_chars(prefix))
        message_tokens = _tokens(_serialised_chars(request.get("messages") or []))
        output_tokens = _tokens(_serialised_chars(content))
        read = write = 0
        if _has_cache_point(request):
            key = hashlib.sha256(
                json.dumps(prefix, sort_keys=True, default=str).encode("utf-8")
            ).hexdigest()
            with self._lock:
                first_time = key not in self._seen_prefixes
                self._seen_prefixes.add(key)
            read, write = (0, prefix_tokens) if first_time else (prefix_tokens, 0)
            input_tokens = message_tokens
        else:
            input_tokens = prefix_tokens + message_tokens
        return {
            "inputTokens": input_tokens,
            "outputTokens": output_tokens,
            "totalTokens": input_tokens + output_tokens + read + write,
            "cacheReadInputTokens": read,
            "cacheWriteInputTokens": write,
        }
