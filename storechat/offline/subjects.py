"""What one clause is about: a book's title or author, or the subject of a review."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Final

from storechat.offline.names import ModelName, find_models, models_carried
from storechat.offline.store import store
from storechat.offline.vocabulary import (
    BOOKS,
    MOBILE,
    categories_in,
    genres_in,
    only_order,
    review_words,
    systems_in,
    use_in,
    word_set,
)

_I = re.IGNORECASE


def _before(lead: str, *, named: bool = False) -> re.Pattern[str]:
    """The phrase after ``lead`` (a regular expression) as the group ``s``: in any case,
    or, ``named``, a capitalised name after ``lead`` as written."""
    if named:
        return re.compile(lead + r"(?P<s>[A-Z].+)")
    return re.compile(lead + r"(?P<s>.+)", _I)


# Book asks. Each captures the phrase that follows; _cut_phrase trims it.
_QUOTED = re.compile(r"[\"“”]([^\"“”]{2,80})[\"“”]")
_BOOK_TITLED = _before(
    r"\b(?:the\s+)?(?:book|novel|paperback)\s+(?:called\s+|titled\s+|named\s+)?"
    r"(?!(?:of|about|on|for|with|from|under|in|to|that|which)\b)"
)
_BY_AUTHOR = _before(
    r"\b(?:books?|novels?|anything|something|works|stuff|titles|written)\s+(?:written\s+)?by\s+"
)
_AUTHOR_NAMED = _before(r"\bauthor\s+(?:called\s+|named\s+)?", named=True)
_NAME_BOOKS = re.compile(r"\b(?P<s>[A-Z][\w.'-]+(?:\s+[A-Z][\w.'-]+){0,2})\s+(?:books|novels)\b")
_TITLE_BY = _before(r"\bby\s+", named=True)
_ABOUT = _before(
    r"\b(?:tell me (?:more )?about|what about|how about|info(?:rmation)? (?:on|about)|"
    r"details (?:on|about)|know about|heard of)\s+"
)
_IS_GOOD = re.compile(
    r"\bis\s+(?P<s>.+?)\s+(?:any good|good|worth reading|a good read|worth it|recommended)\b", _I
)
_REVIEW_SUBJECT = _before(r"\b(?:about|on|of|for)\s+")

_PHRASE_END = re.compile(
    r"(?:^|\s)(?:and|or|but|by|for|under|below|with|that|which|if|is|are|any|good|worth|"
    r"please|from|in stock|do you|does|at|than|vs)\b|[?!;,]|(?<!\b[A-Za-z])\.(?:\s|$)",
    _I,
)
_LEADING_DETERMINER = re.compile(r"^(?:the|a|an|your|my|this|that)\s+", _I)
_PRONOUNS: Final = word_set(
    "it this that them those these they one ones you us me what which something anything "
    "everything more other others"
)
_NOT_TITLES: Final = word_set(
    "store shop shipping delivery returns refunds warranty payment payments discounts "
    "deals offers prices stock yourself service any good best cheap some new popular "
    "great do what which the your recommended other more top all"
)


_TOPIC = re.compile(
    r"\b(?:books?|novels?|stor(?:y|ies)|something|anything|reads?|fiction|paperbacks?)\s+"
    r"(?:to read\s+)?(?:about|on the subject of|set (?:in|during)|featuring|retelling)\s+(?P<s>.+)",
    _I,
)


def topic_in(clause: str) -> str | None:
    """What a book the clause asks for is about ("a book about Greek mythology"), if any."""
    match = _TOPIC.search(clause)
    if not match:
        return None
    topic = _LEADING_DETERMINER.sub("", _cut_phrase(match.group("s"))).strip()
    return topic if topic and topic.split()[0].lower() not in _PRONOUNS else None


def _cut_phrase(phrase: str) -> str:
    match = _PHRASE_END.search(phrase)
    cut = phrase[: match.start()] if match else phrase
    return " ".join(cut.split()[:8]).strip(" '\"“”")[:80]


def _mentions_product(phrase: str) -> bool:
    lowered = phrase.lower()
    return bool(
        store().brands_in(phrase)
        or systems_in(phrase)
        or any(cat != BOOKS for cat in categories_in(phrase))
        or any(store().lines.get(word) for word in re.findall(r"[^\W_]+", lowered))
        or bool(models_carried(phrase))  # "the S24": a model of the store's, no book
    )


def _book_title(raw: str, *, book_context: bool) -> str | None:
    """The phrase ``raw`` starts with, if it reads as a book's title."""
    phrase = _cut_phrase(raw)
    bare = _LEADING_DETERMINER.sub("", phrase).strip()
    if not bare or bare.split()[0].lower() in _PRONOUNS or bare.lower() in _NOT_TITLES:
        return None
    if only_order(bare) or _mentions_product(bare):
        return None  # "the book the oldest": an order, not a title
    # Without a capital, a number or a mention of books, "tell me about shipping" is no title.
    return phrase if book_context or bare[0].isupper() or bare[0].isdigit() else None


@dataclass(frozen=True)
class BookAsk:
    """A book the shopper asked about, by title, author or both."""

    title: str | None = None
    author: str | None = None
    facts: bool = True
    """Whether the shopper asks about the book or its author, not only what the store has
    by them ("do you have books by Tolkien?" asks the catalog alone)."""

    @property
    def query(self) -> str:
        return " ".join(part for part in (self.title, self.author) if part)


def _author(raw: str) -> str | None:
    name = _cut_phrase(raw)
    return name if name and not store().brands_in(name) and name.lower() not in _PRONOUNS else None


def book_ask(clause: str) -> BookAsk | None:
    """A title or an author the clause asks about, if any."""
    book_context = BOOKS in categories_in(clause)
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
            and candidate.casefold() not in genres_in(candidate)
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
        phrase = _book_title(match.group("s"), book_context=context)
        if phrase and not (pattern is _BOOK_TITLED and phrase.lower() in _NOT_TITLES):
            title = phrase
    if not title and not author:
        return None
    if title and not author and (match := _TITLE_BY.search(clause)):
        author = _author(match.group("s"))
    if title and author and title.lower() == author.lower():
        title = None  # "Tolkien books" matched both ways: it names an author
    return BookAsk(title=title, author=author)


# A title named with no cue ("Do you have The Hobbit?"): capitalised words, joined by
# short lower-case ones, at least two of them, and none a product's or the store's.
_TITLE_WORD = re.compile(r"[A-Z0-9][\w'\u2019.-]*|[a-z]+")
_TITLE_JOINERS: Final = word_set("and the of a an in to for on at with from")
_NOT_TITLE_START: Final = word_set(
    "i i'm do does did is are was were who what when where which why how can could would "
    "should will please tell show find give hi hello hey any my you your we our it"
)


def title_in(clause: str) -> str | None:
    """A book title the clause names without saying it is a book, if any."""
    words = list(_TITLE_WORD.finditer(clause))
    runs: list[list[re.Match[str]]] = []
    for word in words:
        text = word.group()
        # "Fahrenheit 451" goes on with a number; "RAM" or "64GB" is not a title's word.
        acronym = (text.isupper() and len(text) <= 4) or (text[0].isdigit() and text[-1].isalpha())
        capital = not acronym and (
            text[0].isupper() or (text[0].isdigit() and bool(runs and runs[-1]))
        )
        if capital and runs and runs[-1] and _joined(clause, runs[-1][-1], word):
            runs[-1].append(word)
        elif capital:
            runs.append([word])
        elif text in _TITLE_JOINERS and runs and runs[-1] and _joined(clause, runs[-1][-1], word):
            runs[-1].append(word)
        else:
            runs.append([])
    for run in runs:
        if run and run[0].start() == words[0].start():
            while run and run[0].group().lower() in _NOT_TITLE_START:
                run.pop(0)
        while run and run[-1].group() in _TITLE_JOINERS:
            run.pop()
        if not run or re.search(r"\bby\s*$", clause[: run[0].start()], re.I):
            continue  # "by Frank Herbert" names the author
        capitals = [w for w in run if w.group() not in _TITLE_JOINERS]
        # One word is a title when an author follows it: "Dune by Frank Herbert".
        if len(capitals) < 2 and not re.match(r"\s+by\s+[A-Z]", clause[run[-1].end() :]):
            continue
        title = clause[run[0].start() : run[-1].end()]
        if not _mentions_product(title) and title.lower() not in _NOT_TITLES:
            return title
    return None


def _joined(clause: str, before: re.Match[str], after: re.Match[str]) -> bool:
    """Only a space between two words: a comma or a full stop ends a title."""
    return clause[before.end() : after.start()].isspace()


def review_ask(clause: str) -> tuple[ModelName | None, str | None, BookAsk | None]:
    """(named product, query, or a book when the "review" is of a book)."""
    model = next(iter(find_models(clause)), None)
    if model:
        return model, model.full_name, None
    match = _REVIEW_SUBJECT.search(clause) or _IS_GOOD.search(clause)
    if match:
        title = _book_title(match.group("s"), book_context=BOOKS in categories_in(clause))
        if title:
            return None, None, BookAsk(title=title)
    brands = [b for b in store().brands_in(clause) if b not in store().publishers]
    if not brands:
        return None, None, None
    gaming = use_in(clause) == "gaming"
    return None, review_words(brands[0], MOBILE in categories_in(clause), gaming), None
