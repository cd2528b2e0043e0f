"""What a shopper's message asks for (a kind, a model, a book, a review; what the store
does not do), what a follow-up carries over from earlier turns, and what it points at
among the products the previous answer cited (``[productId]``, with the first price
after each)."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Final

from shared.products.citing import handle, is_handle
from shared.search.asked import asked_names
from shared.search.unsold import Unsold, unsold_in
from shared.search.words import (
    MODEL_WORDS,
    cased_as_carried,
    costs_less_as_cheaper,
    cut_models,
    may_name,
    names_written_apart,
    negations_as_not,
    numbers_in_words,
    parse,
    priced_against,
    respell,
    without_priced_against,
    without_unwanted,
)
from shared.store.first_words import asks_about_store
from shared.text.languages import in_english
from storechat.offline.product import ModelName, find_models, models_carried, to_number
from storechat.offline.store import (
    BOOKS,
    COMPUTERS,
    MOBILE,
    OS_CATEGORY,
    categories_in,
    genres_in,
    line_brands_in,
    only_order,
    review_words,
    said_as,
    store,
    systems_in,
    unique,
    use_in,
    word_set,
)

_I = re.IGNORECASE

# Whatever square brackets hold (any SKU), but a Markdown link's text.
_CITATION = re.compile(r"\[([^\[\]\n]{1,255})\](?!\()")
_PRICE = re.compile(r"\$\s?(\d[\d,]*(?:\.\d+)?)")

# Each way to point at the products shown, in the order they are tried.
_ORDINAL: Final = {"first": 0, "1st": 0, "top": 0, "second": 1, "2nd": 1, "third": 2, "3rd": 2}
_ONE = re.compile(
    rf"\bthe\s+(?P<o>{'|'.join(_ORDINAL)}|last)\b"
    r"(?:\s+(?:one|option|pick|choice|product|laptop|phone|computer|book))?"
    r"|\b(?:number|no\.|option|#)\s*(?P<n>[1-9])\b",
    _I,
)
_CHEAPER = re.compile(
    r"\b(?:cheaper|less expensive|lower[- ]priced|more affordable)\b"
    r"(?!\s+(?:laptops?|phones?|computers?|books?|pcs?)\s+(?:with|for|under|from|by))",
    _I,
)
_THE_CHEAPER = re.compile(
    r"\bthe\s+(?:cheaper|cheapest|less expensive|least expensive|more affordable)\s+"
    r"(?:one|option|of\s+(?:the\s+two|those|these|them))\b",
    _I,
)
_ALL = re.compile(
    r"\b(?:of|among|from|between|out of)\s+(?:those|these|them|the ones|the three|the two|all)\b"
    r"|\bwhich (?:of (?:those|these|them)|one)\b|\b(?:those|these|them|they)\b",
    _I,
)
_IT = re.compile(r"\b(?:it|that one|this one)\b", _I)


@dataclass(frozen=True)
class Shown:
    """A product the previous answer cited, with the price it gave."""

    product_id: str
    price: float | None
    name: str = ""
    """The name written before its citation ("We carry the Apple iPhone SE [IPHONESE]")."""


@dataclass(frozen=True)
class Reference:
    """What a follow-up points at: ``all`` the products shown, ``one`` of them (``it``: the
    first; ``cheapest``), some by their ``ids``, or ``cheaper`` ones (than ``index`` if set)."""

    kind: str
    index: int | None = None
    indexes: tuple[int, ...] = ()
    """For ``ids``: the products shown that a follow-up names by their ids."""


_NAME_STARTS = re.compile(r"[:;.]\s|\b(?:carry|is|are|vs|and)\s|(?<=\d)\s+for\s", re.I)
_LEAD = re.compile(r"^[\s*_•-]*(?:the\s+)?(?:\d+\.\s*)?[*_]*")
_SAID_BEFORE = re.compile(
    r"(?:we|i|i'd|i'm|you|that|this|it|is|are|here|there|which|so|but|or|my|get|try|pick|"
    r"consider|go|buy|like|if)\b",
    re.I,
)
"""Words a sentence, not a product's name, starts with."""


def _name_before(head: str) -> str:
    """The product's name that ``head`` (a line up to a citation) ends on: after "We carry
    the", a mark, "and the" or a list's number; a name may hold a comma."""
    starts = [0, *(m.end() for m in _NAME_STARTS.finditer(head))]
    names = [_LEAD.sub("", head[at:]).strip().rstrip("*_").strip() for at in starts]
    fitting = [n for n in names if n[:1].isalpha() and not re.search(r"[:;\[\]]", n)]
    # The longest that no sentence's words lead ("We carry", "That is"): the whole name
    plain = [n for n in fitting if not _SAID_BEFORE.match(n)]
    return max(plain, key=len, default="")


def shown_in(answer: str | None) -> list[Shown]:
    """The products ``answer`` cited, in order, each with the first price after it."""
    shown: dict[str, Shown] = {}
    for line in (answer or "").splitlines():
        for match in _CITATION.finditer(line):
            pid = match.group(1)
            price = _PRICE.search(line, match.end())
            next_cite = _CITATION.search(line, match.end())
            if price and next_cite and next_cite.start() < price.start():
                price = None  # that price belongs to the next product
            if pid not in shown:
                name = _name_before(line[: match.start()])
                shown[pid] = Shown(pid, to_number(price.group(1)) if price else None, name)
    return list(shown.values())


_AMOUNT_BEFORE: Final = re.compile(
    r"(?:[$£€]|\b(?:under|over|below|above|to|from|between|budget|max|min|least|most|"
    r"less|more|only|just|spend|pay)\s+)\s*$",
    _I,
)
_UNIT_AFTER: Final = re.compile(
    r"\s*(?:gb|tb|mah|mp|hz|inch|inches|dollars?|euros?|pounds?|bucks|models?|versions?|"
    r"editions?|series)\b",
    _I,
)
_NOT_WANTED: Final = re.compile(
    r"\b(?:not|no|without|except|never|don'?t|doesn'?t|avoid|other\s+than)\b[^.,;!?]*$", _I
)


def _said(text: str, product_id: str) -> list[re.Match[str]]:
    """Where ``text`` names ``product_id``: in square brackets, or as a word of its own; as a
    word, an id of letters alone only as the store writes it ("IPHONESE", not "pixel"),
    one of digits alone only of five or more and never as an amount, a year or a size
    ("under 1000", "2024 models"), any other of four characters or more ("CMP-008")."""
    pid = re.escape(product_id)
    digits = sum(c.isdigit() for c in product_id)
    if len(product_id) < 4 or (digits == len(product_id) and digits < 5):
        return list(re.finditer(rf"\[{pid}\]", text, _I))
    flags = _I if digits else 0
    found = []
    for m in re.finditer(rf"\[{pid}\]|(?<![\w-]){pid}(?![\w-])", text, flags):
        amount = digits == len(product_id) and (
            _AMOUNT_BEFORE.search(text, 0, m.start()) or _UNIT_AFTER.match(text, m.end())
        )
        if m[0].startswith("[") or not amount:
            found.append(m)
    return found


def named_by_id(text: str, shown: list[Shown]) -> tuple[int, ...]:
    """Which products shown ``text`` names by their ids, in the order it names them; not
    one said not wanted ("I'd rather not get 7700352")."""
    found = []
    for n, each in enumerate(shown):
        said = _said(text, each.product_id)
        if said and not _NOT_WANTED.search(text, 0, said[0].start()):
            found.append((said[0].start(), n))
    return tuple(n for _, n in sorted(found))


def _shape(token: str) -> str:
    return re.sub(r"[^\W\d_]", "a", re.sub(r"\d", "9", token.casefold()))


def names_others(text: str, shown: list[Shown]) -> bool:
    """Whether ``text`` names a product not shown by an id shaped as those shown are
    ("compare 7700352 and 7702400", 7702400 not shown): the catalog's to find."""
    shapes = {_shape(s.product_id) for s in shown}
    ids = {s.product_id.casefold() for s in shown}
    for token in set(re.findall(r"(?<![\w-])[\w-]+(?![\w-])", text)):
        other = token.casefold() not in ids and _shape(token) in shapes
        if other and any(c.isdigit() for c in token) and _said(text, token):
            return True
    return False


def ordinals_as(text: str, shown: list[Shown], said_as: Callable[[Shown], str]) -> str:
    """``text`` with each product shown it points at by its place ("the second") said as
    ``said_as`` says it, where it says one (by id or by name)."""
    for said in reversed(list(_ONE.finditer(text))):
        index = _index(said)
        if index is not None and -len(shown) <= index < len(shown) and said_as(shown[index]):
            text = f"{text[: said.start()]}{said_as(shown[index])}{text[said.end() :]}"
    return text


def ids_as_names(text: str, names: dict[str, str]) -> str:
    """``text`` with each product id of ``names`` it says written as that product's name,
    or left out when its name is not known: an id is no amount, title or word to read.
    An id given as its handle is said as the store writes it ("XPS 13/16/512")."""
    for product_id, name in names.items():
        if is_handle(product_id):
            spans = _handled(text, product_id)
        else:
            spans = [m.span() for m in _said(text, product_id)]
        for start, end in reversed(spans):  # a name may hold its id
            text = f"{text[:start]} {name} {text[end:]}"
    return text


_RUN = re.compile(r"[^\s,;!?()]+")
_WRAPS: Final = "`'\"*_[]{}<>\u2018\u2019\u201c\u201d"
"""Quotes, back ticks, emphasis and brackets a shopper may write around an id."""


def _cases(run: str) -> set[str]:
    """The ways a shopper may write an id in another case than the store's: the handle is
    a hash of the exact id, so its case is tried as written, in capitals, in small
    letters and with each word capitalised."""
    return {
        run,
        run.upper(),
        run.lower(),
        " ".join(w[:1].upper() + w[1:].lower() for w in run.split(" ")),
    }


def _handled(text: str, given: str) -> list[tuple[int, int]]:
    """Where ``text`` writes the id the tool gave as the handle ``given``: a run of up to
    six of its words, quotes and brackets around it left out, in its case, in capitals, in
    small letters or capitalised (a store's id with spaces or marks)."""
    words = []
    for m in _RUN.finditer(text):
        word = m[0].rstrip(".:").strip(_WRAPS)
        if word:
            at = m.start() + m[0].index(word)
            words.append((at, at + len(word)))
    found: list[tuple[int, int]] = []
    start = 0
    while start < len(words):
        for end in range(min(len(words), start + 6), start, -1):
            run = " ".join(text[a:b] for a, b in words[start:end])
            if given in {handle(r) for r in _cases(run)}:
                found.append((words[start][0], words[end - 1][1]))
                start = end - 1
                break
        start += 1
    return found


def _index(match: re.Match[str] | None) -> int | None:
    if match is None:
        return None
    if match["n"]:
        return int(match["n"]) - 1
    return -1 if match["o"].lower() == "last" else _ORDINAL[match["o"].lower()]


def reference_in(text: str) -> Reference | None:
    """What ``text`` points at among the products shown before, if it points at them."""
    one = _index(_ONE.search(text))
    if _THE_CHEAPER.search(text):
        return Reference("cheapest")  # "I'll take the cheaper one": one of those shown
    if _CHEAPER.search(text):
        return Reference("cheaper", one)
    if one is not None:
        return Reference("one", one)
    if _ALL.search(text):
        return Reference("all")
    if _IT.search(text):
        return Reference("it", 0)
    return None


def pick(shown: list[Shown], reference: Reference) -> list[Shown]:
    """The shown products ``reference`` means."""
    if reference.kind == "ids":
        return [shown[i] for i in reference.indexes if 0 <= i < len(shown)]
    if reference.kind == "cheapest":
        priced = [s for s in shown if s.price is not None]
        return [min(priced, key=lambda s: s.price or 0.0)] if priced else []
    if reference.kind in ("one", "it", "cheaper") and reference.index is not None:
        index = reference.index
        return [shown[index]] if -len(shown) <= index < len(shown) else []
    return shown


PRIVATE: Final = "other customers' details"
"""A question about the store that no policy answers: refused, never looked up."""
STORE: Final = "questions about the store"
_PRIVATE = re.compile(
    r"\b(?:address|card number|email|phone number|details|data)\b.{0,40}\bcustomers?\b|"
    r"\bcustomers?'?s? (?:address|card|email|phone number|details|data)\b",
    re.IGNORECASE,
)


# A message that would steer the assistant off its job rather than ask the store anything.
_STEERING: Final = re.compile(
    r"\b(?:ignore|disregard|forget|override)\b.{0,40}\b(?:instructions?|rules|prompts?)\b|"
    r"\bsystem prompt\b|\byou are now\b|\bpretend (?:to be|you)\b|\bjailbreak|"
    r"\bno (?:rules|restrictions|limits)\b|\bhow (?:do i |to )?(?:pick a lock|hack|make a bomb)\b",
    re.IGNORECASE,
)


def steers(text: str) -> bool:
    """Whether ``text`` asks the assistant to drop its rules: declined, not asked about."""
    return bool(_STEERING.search(text))


def service_topic(text: str) -> str | None:
    """What ``text`` asks about the store itself, if it does: :data:`PRIVATE`, or
    :data:`STORE` for a question its policies may answer (read as the search first reads
    one: :func:`shared.store.first_words.asks_about_store`)."""
    if _PRIVATE.search(text):
        return PRIVATE
    return STORE if asks_about_store(text) else None


def kind_not_carried(text: str, carried: bool) -> Unsold | None:
    """The kind of product ``text`` asks for that the store does not sell, if any, as the
    catalog search reads it. ``carried``: the text also names a kind the store sells."""
    asked = unsold_in(text, store().sells, lambda: carried)
    return asked[0].kind if asked else None


def asked_unknown(title: str, text: str) -> bool:
    """Whether a capitalised phrase of ``text`` is no title but a name the store is asked
    for that none of the catalog's words are ("Huawei" in "do you sell Huawei?")."""
    said = [n for n in asked_names(text) if n.casefold() == title.casefold()]
    return any(not store().knows(n.casefold()) for n in [*asked_names(title), *said])


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


# Regexes run on the shopper's text; a pasted essay should not make them slow.
MAX_TEXT_CHARS: Final = 2000


_REVIEW_CUE = said_as(
    "reviews?|reviewers?",
    "what do (?:people|users|customers|critics|reviewers|others) (?:say|think)",
    "what are people saying|opinions?|rated|ratings?|worth it|worth (?:the money|buying|the price)",
)
_SHOPPING_CUE = said_as(
    "do you (?:have|sell|stock|carry)|in stock|available|buy|purchase|order|price|cost",
    "how much|sell|want|need|looking for|a copy of",
)
_FOLLOW_UP_CUE = said_as(
    "those|these|them|they|it|that one|which one|which of|ones?|what about|how about",
    "instead|else|another|other",
)
_AND: Final = re.compile(r"^\W*and\b", _I)
"""A message that opens with "and": a follow-up where it names a maker alone ("and Apple?")."""
COMPARE = said_as(
    r"compare|comparison|compared|versus|vs\.?|difference|differences|better|which|or|than"
)
_BOOK_FACT_CUE = said_as(
    "who wrote|written by|author|published|publication|how many pages",
    "what is it about|what's it about",
)
_BOOK_CUE = said_as(
    "books?|novels?|read|reading|authors?|wrote|written|cop(?:y|ies) of|paperback|hardcover",
    "series|titles?|classics?|poems?|poetry|memoirs?|biograph(?:y|ies)",
)
"""Words that say a name is a book's."""
_ABOUT_AUTHOR = said_as(
    "who (?:is|was)",
    "tell me (?:more )?about|know about|(?:best )?known for|famous for",
    "good|any good|worth (?:reading|it)|like his|like her|style",
)
"""Words that ask about an author or their books, not only what the store has by them."""
_THANKS = re.compile(r"^\W*(?:thanks?|thank you|cheers|ok(?:ay)?|great|cool|perfect|bye)\b", _I)
_GREETING = re.compile(
    r"^\W*(?:hi|hello|hey|hiya|howdy|greetings|good (?:morning|afternoon|evening|day))\b|"
    r"\b(?:what can you do|who are you|what do you (?:do|sell|have)|can you help|help me)\b|"
    r"^\W*(?:help|start|menu)\W*$",
    _I,
)
_CLAUSE_SPLIT = re.compile(
    r"(?<!\b[A-Za-z])[.!;]+(?:\s+|$)|\?+\s*|,\s*(?:and\s+|but\s+)?|"
    r"\s+(?:and|also|plus|but)\s+(?=(?:what|how|tell|do|does|is|are|can|could|show|find|give|"
    r"which|who|i|also)\b)",
    _I,
)


@dataclass(frozen=True)
class Intent:
    """What a shopper's message asks for, as far as a few regexes can tell."""

    # The subject: what to search the catalog for.
    categories: tuple[str, ...] = ()
    brands: tuple[str, ...] = ()
    products: tuple[ModelName, ...] = ()
    book_title: str | None = None
    book_author: str | None = None
    # Constraints: how to narrow and rank what the catalog returns.
    systems: tuple[str, ...] = ()
    bounds: dict[str, float] = field(default_factory=dict)
    """Numeric limits by ``lookup_inventory`` field: ``{"minRamGb": 16, "maxPrice": 800}``."""
    use: str | None = None
    sort_by: str | None = None
    # What kind of answer: a comparison, or about the products shown before.
    compare: bool = False
    reference: Reference | None = None
    # What the store does not do.
    service: str | None = None
    not_carried: Unsold | None = None
    # Asks for the other tools, which only the current message can make.
    wants_reviews: bool = False
    review_subject: ModelName | None = None
    review_query: str | None = None
    book_query: str | None = None
    book_shopping: bool = False
    follow_up: bool = False
    left_out: tuple[str, ...] = ()
    """The kinds of what the message says is not wanted ("not the Pixel 9": phones)."""
    carried: bool = False
    """Read with the earlier messages' words: a follow-up of theirs."""
    thanks: bool = False
    greets: bool = False
    text: str = ""
    """The shopper's words, as the last message that set them wrote them."""
    asks: str = ""
    """The words that ask the catalog for a kind of product: the message without its
    review, book-fact and store clauses and the products and titles it names."""

    def names_subject(self) -> bool:
        return bool(
            self.categories
            or self.brands
            or self.products
            or self.book_title
            or self.book_author
            or self.review_subject
            or self.review_query
        )

    def has_constraints(self) -> bool:
        return bool(self.systems or self.bounds or self.use or self.sort_by)

    def outside_store(self) -> bool:
        return bool(self.service or self.not_carried)

    def is_empty(self) -> bool:
        return not (
            self.names_subject()
            or self.has_constraints()
            or self.wants_reviews
            or self.book_query
            or self.outside_store()
        )


def _normalise(text: str) -> str:
    # German, Spanish and French read as the search reads them: one language layer.
    text = in_english(text[:MAX_TEXT_CHARS].replace("\u2019", "'"))
    # "a mac book pro", "zen book 14": a line written in two words is no book asked.
    if joined := names_written_apart(text, store().lines.__contains__):
        text = respell(text, joined)
    # "$1,299" must stay one number when clauses split on commas.
    return negations_as_not(re.sub(r"(?<=\d),(?=\d{3}\b)", "", text))


def _one_model(word: str) -> bool:
    """Whether one word after "cheaper than" names a model or a line of one kind the
    store carries ("the Legion"), or a book ("The Alchemist")."""
    if store().brands_in(word):
        return False
    return (
        bool(models_carried(f"the {word}"))
        or (
            may_name(word)
            and word.casefold() not in MODEL_WORDS
            and len(store().kinds_named(word)) == 1
        )
        or any(
            t.name.casefold() in (word.casefold(), f"the {word}".casefold())
            for t in store().titles_in(f"The {word}", BOOKS)
        )
    )


def _a_number(said: str) -> bool:
    """Whether the number ``said`` is, as the search reads it, a product's whole name in
    digits or in words, articles aside ("cheaper than 1984": Nineteen Eighty-Four's price,
    not $1,984; "cheaper than 500" is an amount)."""
    wanted = {
        tuple(re.findall(r"[^\W_]+", w.casefold())) for w in (said, numbers_in_words(said)[0])
    }
    return any(
        tuple(w for w in re.findall(r"[^\W_]+", t.name.casefold()) if w not in ("the", "a", "an"))
        in wanted
        for t in store().titles
    )


def unbranded_earlier(text: str) -> str:
    """An earlier message's words, for another maker named alone ("and Asus?"), without the
    makers and lines it names (:meth:`Store.unbranded`); a price said against a product is
    kept whole, which the search reads as that product's price ("cheaper than the XPS 13":
    under $1,299), never as words of the product's name ("the 13")."""
    text = costs_less_as_cheaper(text)
    kept: list[str] = []
    rest = text
    while (said := priced_against(rest, models_carried, _one_model, _a_number)) is not None:
        kept.append(rest[said.start() : said.end()])
        rest = f"{rest[: said.start()]} {rest[said.end() :]}"
    return " ".join([store().unbranded(rest), *kept])


def _without(text: str, products: list[ModelName]) -> str:
    # "the iPhone 15" names a product, not a wish for iOS.
    for product in products:
        text = text.replace(product.text, " ")
    return text


def _name_of(said: str) -> str | None:
    title = store().titled(said)
    return title.name if title else None


def parse_text(text: str) -> Intent:
    """Read one user message."""
    written = cased_as_carried(_normalise(text), models_carried, _name_of)
    # What the shopper does not want, the search leaves out: never read as wanted here,
    # but searched with their words, which say it ("a laptop, not Dell and HP").
    # "costs less than the XPS 13" is priced against it, as the search reads it
    against = costs_less_as_cheaper(written)
    cut = without_unwanted(without_priced_against(against, models_carried, _one_model, _a_number))
    text, left_out = cut_models(cut, models_carried)
    categories: list[str] = []
    brands: list[str] = []
    product_systems: list[str] = []
    products: list[ModelName] = []
    book: BookAsk | None = None
    book_shopping = False
    wants_reviews = False
    review_subject: ModelName | None = None
    review_query: str | None = None
    asking: list[str] = []
    for clause in (c.strip() for c in _CLAUSE_SPLIT.split(text) if c and c.strip()):
        if service_topic(clause):
            continue  # "can I return my iPhone 15?" asks about returns, not the iPhone
        listed = store().titles_in(clause, BOOKS)
        if listed and not _REVIEW_CUE.search(clause):
            # The catalog's own titles, as written: "Circe by Madeline Miller" is Circe.
            listed.sort(key=lambda t: clause.casefold().find(t.name.casefold()))
            book = book or BookAsk(title=listed[0].name)
            products += [ModelName(t.name, None, BOOKS) for t in listed]
            book_shopping = book_shopping or bool(_SHOPPING_CUE.search(clause))
            # The rest of the clause may ask for more ("a laptop and a copy of 1984").
            for t in listed:
                clause = re.sub(re.escape(t.name), " ", clause, flags=re.I)
        authors = [] if book else store().authors_in(clause)
        asks_about = bool(_ABOUT_AUTHOR.search(clause) or _BOOK_FACT_CUE.search(clause))
        if (
            authors
            and (BOOKS in categories_in(clause) or asks_about or not categories_in(clause))
            and not _REVIEW_CUE.search(clause)
        ):
            # An author of the catalog's in a clause that asks for no other kind: their
            # facts when asked about, else what the store has by them.
            book = BookAsk(author=authors[0], facts=asks_about)
            book_shopping = book_shopping or bool(_SHOPPING_CUE.search(clause))
            categories.append(BOOKS)
            asking.append(clause)
            continue
        if topic_in(clause):
            categories.append(BOOKS)
            asking.append(clause)
            continue
        ask = book_ask(clause)
        if ask is None and _REVIEW_CUE.search(clause):
            subject, query, ask = review_ask(clause)
            if ask is None:
                wants_reviews = True
                review_subject = review_subject or subject
                review_query = review_query or query
                kinds = categories_in(clause) if subject is None else []
                if kinds:
                    # "which laptops do reviewers like?": the store's laptops too, which
                    # stand when the reviews cannot come
                    asking.append(clause)
                    categories += kinds
                continue
        if ask is not None:
            if not ask.title:
                ask = replace(ask, facts=asks_about)  # "something by Tolkien": the catalog
            book = book or ask
            book_shopping = book_shopping or bool(_SHOPPING_CUE.search(clause))
            continue
        models = [m for m in find_models(clause) if m not in products]
        title = None if book else title_in(_without(clause, models))
        by = re.search(r"\bby\s+([A-Z][\w.'-]+(?:\s+[A-Z][\w.'-]+){0,2})", clause)
        if (
            title
            and (by or _BOOK_CUE.search(clause))
            and not (kind_not_carried(title, False) or asked_unknown(title, clause))
        ):
            # A name none of the store's words know is a book's where something says so;
            # any other is the search's to read ("the Nokia 3310": not carried).
            book = BookAsk(title=title, author=by.group(1) if by else None)
            book_shopping = book_shopping or bool(_SHOPPING_CUE.search(clause))
            clause = clause.replace(by.group(0) if by else title, " ").replace(title, " ")
        # "the ROG Phone 8" is a phone, though most of the ROG line are laptops.
        asking.append(_without(clause, models))
        categories += categories_in(asking[-1])
        # "an iPhone" is Apple's, but "an iPhone or an Android phone" no one brand's.
        lines = line_brands_in(_without(clause, models)) if len(systems_in(clause)) < 2 else []
        brands += store().brands_in(clause) + lines
        product_systems += systems_in(clause)
        products += models
    if wants_reviews and review_subject and not (products or categories or brands):
        # The catalog's facts about it too: the answer stands if the reviews cannot come.
        products.append(review_subject)
    for product in products:
        categories += [product.category] if product.category else []
        if product.brand and product.brand not in brands:
            brands.append(product.brand)
    if not categories:
        categories = [OS_CATEGORY[name] for name in product_systems]
    # "not the Pixel 9, something cheaper": the kind of the model left out.
    kinds = [m.category for name in left_out for m in find_models(name) if m.category]
    use = use_in(text)
    if not (categories or products or book) and use == "basic":
        categories = [COMPUTERS]  # email and the web, as simply and cheaply as can be
    said = parse(store().unnamed(text))
    return Intent(
        categories=unique(categories),
        brands=unique(brands),
        products=tuple(products[:3]),
        book_title=book.title if book else None,
        book_author=book.author if book else None,
        systems=unique(systems_in(_without(text, products))),
        bounds=said.limits,
        use=use,
        sort_by=said.sort,
        compare=len(products) > 1 and bool(COMPARE.search(text)),
        reference=reference_in(text),
        service=service_topic(text),
        not_carried=kind_not_carried(text, bool(categories or products)),
        wants_reviews=wants_reviews,
        review_subject=review_subject,
        review_query=review_query,
        book_query=book.query if book and book.facts else None,
        book_shopping=book_shopping,
        follow_up=bool(_FOLLOW_UP_CUE.search(text))
        or bool(_AND.match(text) and brands and not (categories or products or book)),
        left_out=unique(kinds or ([""] if cut != written else [])),
        text=written,
        asks=" ".join(" ".join(asking).split()),
        thanks=bool(_THANKS.search(text)),
        greets=bool(_GREETING.search(text)),
    )


_KIND_WORD: Final = {COMPUTERS: "computer", MOBILE: "phone", BOOKS: "book"}


def earlier_words(user_texts: list[str]) -> tuple[str, ...]:
    """The words of the two messages before the latest, the latest first, without the
    products they named or a question about the products then shown, and none from
    before a message that asks for a kind of its own."""
    words: list[str] = []
    for earlier in (parse_text(text) for text in reversed(user_texts[-3:-1])):
        if earlier.reference is None and not earlier.outside_store():
            # Each product named said as its kind ("is the computer in stock?"): a
            # follow-up asks for more of its kind, not for it again.
            text = earlier.text
            for product in earlier.products:
                text = text.replace(product.text, _KIND_WORD.get(product.category, "product"))
            words.append(text)
        if categories_in(earlier.asks) and not earlier.follow_up:
            break  # a kind asked in its own words, not a product named
    return tuple(words)


def conversation_intent(user_texts: list[str]) -> Intent:
    """Read the latest user text. A follow-up ("under $500?", "what about a Mac?") is read
    with the earlier messages' words after its own: what it says itself stands, and the
    earlier kind, limits and order fill in what it does not."""
    if not user_texts:
        return Intent()
    current = parse_text(user_texts[-1])
    earlier = [w for w in earlier_words(user_texts) if w.strip()]
    if not earlier or current.outside_store():
        # Naming no kind, the kind of what it says is not wanted ("not the Pixel 9": phones).
        kinds = tuple(k for k in current.left_out if k)
        return current if current.categories or not kinds else replace(current, categories=kinds)
    if current.names_subject():
        if not current.follow_up or current.products or current.book_query:
            return current
    elif not (
        current.has_constraints() or current.follow_up or current.wants_reviews or current.left_out
    ):
        return current
    # The latest earlier message that names a subject, as it was said.
    earlier_intents = (parse_text(text) for text in reversed(user_texts[-3:-1]))
    subject = next((e for e in earlier_intents if e.names_subject()), None)
    if current.wants_reviews and not current.has_constraints():
        # "What do reviewers say about it?": reviews of the earlier subject, no search.
        if subject is None:
            return current
        specific = subject.products or any(b not in store().publishers for b in subject.brands)
        return replace(current, review_query=review_query(subject) if specific else None)
    if subject and subject.book_title and _BOOK_FACT_CUE.search(user_texts[-1]):
        # "Who wrote it?" after a book: its facts, from the book tool.
        return replace(current, book_query=current.book_query or subject.book_title)
    read = parse_text(" . ".join([current.text, *earlier]))
    # A new subject ("what about a Mac?") keeps only the earlier limits and uses.
    switched = current.names_subject()
    kinds = current.categories or (() if switched else read.categories)
    if current.brands and not (current.categories or current.products):
        # "A Samsung one" after phones: that brand's phones, if it makes any.
        made = set().union(*(store().brand_categories.get(b, ()) for b in current.brands))
        kinds = tuple(c for c in read.categories if c in made)
    return replace(
        current,
        categories=kinds,
        brands=current.brands or (() if switched else read.brands),
        book_author=current.book_author or read.book_author,
        book_shopping=current.book_shopping or read.book_shopping or bool(read.book_title),
        carried=True,
    )


def review_query(intent: Intent) -> str:
    """What to ask the review service about: the named product, else brand and kind."""
    if intent.review_query:
        return intent.review_query
    if intent.products:
        return intent.products[0].full_name
    brand = next((b for b in intent.brands if b not in store().publishers), None)
    return review_words(brand, intent.categories[:1] == (MOBILE,), intent.use == "gaming")
