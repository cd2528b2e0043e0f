"""The names a shopper asks the store for, read from where they stand: "Huawei" in "do
you sell Huawei phones?", "Nokia" in "anything from Nokia", "kayaks" in "do you have any
kayaks?".

A word counts as a name asked for when it stands before a kind of product ("a Sony
laptop"), after "from" with a capital ("from Nokia"), or alone after "do you have / sell /
carry / stock" at the end of a message, and the search gives it no meaning of its own
(no phrase of :data:`~shared.search.intents.INTENTS`, no stop word, no amount, order or
use) and it is none of the words that stand there without naming anything ("a durable
phone"). Whether the store has it is the catalog's to say: the search reports a name
asked for that no product has as not carried (``SearchResult.not_carried``).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import Final, NamedTuple

from shared.catalog.categories import Category
from shared.catalog.derive import fold
from shared.search.intents import STOP_WORDS
from shared.search.words import kinds_in, parse, parser_words, without_unwanted
from shared.text.languages import in_english

_KIND_AFTER = (
    r"(?:smart ?)?(?:phones?|laptops?|computers?|notebooks?|pcs?|desktops?|smartphones?|"
    r"tablets?|devices?|brand)\b"
)
_SLOT = re.compile(
    rf"(?<![\w-])([A-Za-z][\w&-]*)\s+(?={_KIND_AFTER})|"
    r"\b(?:from|by)\s+([A-Z][\w&.'-]*(?:\s+[A-Z][\w&.'-]*){0,2})",
)
"""A name before the kind of product ("a Sony laptop", "motorola phones"), or after
"from" or "by" with capitals ("anything from Nokia", "books by Stephen King")."""
ASKED_ALONE = re.compile(
    r"\b(?:do|does) (?:you|the store) (?:have|sell|carry|stock)\s+(?:any\s+)?"
    r"(?:([A-Za-z][\w&-]*)\s+)?([A-Za-z][\w&-]*)\W*$",
    re.IGNORECASE,
)
"""One thing asked for by its name alone, with a word before it or none ("do you sell
Nokia?", "do you have any kayaks?", "do you sell gaming chairs?")."""
_TITLE_WORD = r"[A-Z0-9][\w'\u2019:-]*"
_ASKS_FOR = (
    r"(?:[Dd]o|[Dd]oes) (?:you|the store) (?:have|sell|carry|stock)|[Hh]ave you got|"
    r"(?:[Cc]an|[Cc]ould|[Ww]here can) I (?:buy|order)"
)
"""Words that ask the store for what follows them, at the end of the message ("I'm
looking for" may be followed by anything: "Gifts For Dad", "Face ID")."""
_NAME = (
    rf"(?P<name>{_TITLE_WORD}(?:(?:\s*,\s*|\s+)(?:{_TITLE_WORD}|of|the|and|or|a|an|in|on|to|for"
    r"|with|at))*)"
    r"(?P<by>\s+by\s+[A-Z][\w.'-]*(?:\s+[A-Z][\w.'-]*){0,2})?"
)
_NAME_ALONE = re.compile(rf"\b(?:{_ASKS_FOR})\s+(?:any\s+|a copy of\s+)?{_NAME}\W*$")
"""A name asked for alone, capitalised as a title is, with its author or without; or
several listed ("Dune, Circe or Piranesi")."""
_HAD = r"\s+(?:in stock|for sale|sold here)\W*$"
"""Words after a name that ask whether the store has it: "is Dune in stock?"."""
_NAME_HAD = re.compile(rf"\b(?:[Ii]s|[Aa]re)\s+{_NAME}{_HAD}")
"""A name asked about as a thing the store may have: "Is Project Hail Mary in stock?" ("Is
Express Delivery available?" asks about a service)."""
_ONE_NAME = re.compile(
    rf"\b(?:{_ASKS_FOR})\s+(?:any\s+)?([A-Z][\w&-]*)\W*$|"
    rf"\b(?:[Ii]s|[Aa]re)\s+([A-Z][\w&-]*){_HAD}"
)
"""One name asked for alone in the other ways of :data:`_ASKS_FOR` and :data:`_NAME_HAD`,
written with a capital: "Have you got Dune?", "Is Dune in stock?"."""
_NOT_NAMES_SAID = """
new used refurbished unlocked basic simple second durable reliable fancy cool sturdy
quality modern old older latest recent current low mid high top entry dual sim smart
little tiny huge first your my our their his her its this that these those which what
any some another other every each no not only just also decent normal regular good
kids family mobile cell sell sells selling have has stock carry buy want need get see
show find recommend suggest best better cheapest gift gifts present presents
"""
_SAID_AROUND: Final = re.compile(
    r"(?:\s+(?:today|tonight|now|right now|here|there|anymore|any more|still|yet|too|also|"
    r"currently|at the moment|at all|online|in store|in stores|in the store|please|guys))+\W*$",
    re.IGNORECASE,
)
"""Words that end a question about the store without naming anything asked for: "what
laptops do you have today?", "do you sell Huawei here?"."""
_NOTHING_NAMED: Final = frozenset({"anything", "something", "everything", "nothing"})
_NOT_NAMES: Final = frozenset(_NOT_NAMES_SAID.split())
"""Words that stand where a name does without naming anything."""
_BEFORE_A_QUALITY: Final = frozenset({"in", "with", "without", "on", "at", "by", "of"})
"""Words after which the last word is a quality of what is asked for, not it ("in blue")."""


def _means_something(word: str) -> bool:
    """Whether the search reads ``word`` as more than a word to match: a kind, an order,
    a use, a limit or a sale."""
    said = parse(word)
    return bool(
        said.category or said.forms or said.sort or said.uses or said.limits or said.on_sale
    )


def asked_names(text: str) -> list[str]:
    """The names ``text`` asks the store for, as written: those before a kind or after
    "from" first, then one asked for alone."""
    found: list[str] = []
    for said in [*_slots(text), *_alone(text)]:
        word = said.split()[-1].casefold()
        if (
            len(word) < 2
            or word in _NOT_NAMES
            or word in STOP_WORDS
            or fold(word) in parser_words()
            or _means_something(said.split()[-1])
            or said in found
        ):
            continue
        found.append(said)
    return found


def name_asked_alone(text: str) -> str | None:
    """The name a question asks the store for and nothing else, as written, when it is
    capitalised as a title or a maker's model is and has several words, or one before "by"
    and its author: "Project Hail Mary" of "Do you sell Project Hail Mary?", "Dune" of "Do
    you have Dune by Frank Herbert?"; else None ("do you have Samsung phones?")."""
    said = _SAID_AROUND.sub("", text)
    match = _NAME_ALONE.search(said) or _NAME_HAD.search(said)
    if match is None:
        return None
    name = match["name"]
    return name if " " in name or match["by"] else None


def _slots(text: str) -> list[str]:
    return [next(g for g in match.groups() if g) for match in _SLOT.finditer(text)]


def _alone(text: str) -> list[str]:
    """The thing asked for alone, with the word before it where that word says nothing the
    search reads ("office desks"; "chairs" of "gaming chairs", "kayaks" of "cheap kayaks")."""
    said = _SAID_AROUND.sub("", text)
    match = ASKED_ALONE.search(said)
    if match is None:
        other = _ONE_NAME.search(said)
        return [other[1] or other[2]] if other else []
    before, name = match.groups()
    if before and before.casefold() in _NOTHING_NAMED | _BEFORE_A_QUALITY:
        return []  # "anything blorptastic", "any in blue": what it is like, not what it is
    plain = before and before.casefold() not in _NOT_NAMES | STOP_WORDS
    return [f"{before} {name}" if plain and not _means_something(before) else name]


_APART = re.compile(r"\s*(?:[,;&+]|\b(?:and|or|plus|also)\b)\s*", re.IGNORECASE)
_WHICH_IT_IS: Final = re.compile(
    r"\b(?:is|are|isn't|aren't)\s+(?:the|this|that|these|those|it|they|your)\b[^?.!;]*?"
    r"\s(?:an?\s+)?[\w-]+\s+or\s+(?:an?\s+)?[\w-]+\s*(?:[?.!;]|$)",
    re.IGNORECASE,
)
"""A question of which of two kinds a thing is: "is the Surface Pro a laptop or a tablet?"."""
_ASKS_ANEW = re.compile(
    r"^(?:(?:also|maybe|then|and)\s+)?(?:a|an|some|any|one|two|three|a few|a couple of|"
    r"the|another)\b",
    re.IGNORECASE,
)
"""How a part of a message that asks for another thing starts: "a phone", "some books"."""


def beside_named(text: str, names: Sequence[str]) -> str:
    """The parts of ``text`` that ask for products of a kind beside the products it names
    (``names``), else "": "a cheap Android phone" of "the Pixel 9 and a cheap Android
    phone" (:func:`parts_beside_named`)."""
    return " ".join(parts_beside_named(text, names))


def without_parts(text: str, parts: Sequence[str]) -> str:
    """``text`` without each of ``parts`` (of :func:`parts_beside_named`), each once: the
    words about the products named, whose limits are theirs."""
    for part in parts:
        text = text.replace(part, " . ", 1)
    return text


def parts_beside_named(text: str, names: Sequence[str]) -> list[str]:
    """Each part of ``text`` that asks for products of a kind beside the products it names,
    as written. Such a part is one of its own, starts as a thing asked for does, names none
    of them, and reads a kind with a line, a form, an order, a limit or a word of its own
    ("a Samsung phone under $500"; "is the Pixel 9 a cheap phone?" asks about the Pixel 9,
    "is the Surface Pro a laptop or a tablet?" too)."""
    if _WHICH_IT_IS.search(text):
        return []
    found = []
    for part in (p.strip() for p in _APART.split(text)):
        if not _ASKS_ANEW.match(part) or any(n.casefold() in part.casefold() for n in names):
            continue
        words = parse(part)
        limited = words.max_price is not None or words.min_price is not None or words.bounds
        if words.category and (words.lines or words.sort or words.forms or limited or words.groups):
            found.append(part)
    return found


def kinds_apart(text: str, titled: Callable[[str], bool] = lambda _: False) -> list[str]:
    """The parts of ``text`` that each ask for a kind of product of its own, when it asks
    for more than one kind ("a laptop for coding and a book on python": the laptop's words,
    then the book's), else nothing: one search reads one kind. A part asks anew where it
    starts as a thing asked for does ("a", "some", or the kind's word) and names another
    kind ("a book about a boy and his phone" asks for one book); words that name no kind
    go with the part before them ("a laptop with 16 GB and a good battery"), but for a
    book's title (``titled``: "Do you have Animal Farm and a cheap phone?")."""
    if _WHICH_IT_IS.search(text):
        return []  # "is the Surface Pro a laptop or a tablet?" asks what one thing is
    cuts = [0, *(at for m in _APART.finditer(text) for at in (m.start(), m.end())), len(text)]
    parts: list[tuple[int, int, str | None]] = []
    for begin, end in zip(cuts[::2], cuts[1::2], strict=True):
        said = text[begin:end].strip()
        if not said:
            continue
        # A kind said as not wanted ("not a phone, a laptop") asks for nothing.
        kinds = {category for category, _ in kinds_in(without_unwanted(said))}
        kind = next(iter(kinds)) if len(kinds) == 1 else None
        anew = bool(_ASKS_ANEW.match(said) or kinds_in(said.split()[0]))
        if not kinds and titled(said):
            kind, anew = Category.BOOKS, True
        if parts and (kind is None or not anew or parts[-1][2] in (None, kind)):
            first, _, had = parts[-1]
            parts[-1] = (first, end, had or kind)
        else:
            parts.append((begin, end, kind))
    if len({kind for _, _, kind in parts if kind}) < 2:
        return []
    return [text[begin:end].strip(" ,;&+?!") for begin, end, kind in parts if kind]


_SIDES: Final = re.compile(
    r"\s+(?:vs\.?|versus|or|o|compared\s+(?:to|with)|against|(?:better|worse|cheaper|pricier|"
    r"dearer|faster|lighter|heavier|bigger|smaller|more\s+expensive)\s+than)\s+"
    r"(?:(?:the|an?|some)\s+)?",
    re.IGNORECASE,
)
"""Where one side of a comparison ends and the other begins, in English as
:func:`in_english` reads a shopper's German, French or Spanish ("Dell oder HP", "moins
cher que"); Spanish's "o" (or) is read only here, where a side must name a maker."""


class Sides(NamedTuple):
    """The two sides of a comparison, each within its sentence, and the words of the other
    sentences ("I need a laptop for school. Dell or HP?": "Dell", "HP" and the laptop)."""

    left: str
    right: str
    around: str


def sides_compared(text: str) -> Sides | None:
    """The two sides of one comparison in ``text`` ("Dell vs MacBook Air", "is a Dell
    better than a MacBook?", "a Samsung or Apple phone"), else None: whether each names a
    maker or a line is the catalog's to say."""
    text = in_english(text)
    cues = list(_SIDES.finditer(text))
    if len(cues) != 1:
        return None
    # Each side ends with its sentence: "is the iPhone 16 in stock or sold out? my Samsung
    # broke" sets the iPhone against nothing
    before = _SENTENCE_END.split(text[: cues[0].start()])
    after = _SENTENCE_END.split(text[cues[0].end() :])
    left, right = before[-1].strip(), after[0].strip()
    # What the shopper has is no side ("is the XPS 13 better than my old HP?"), said in
    # the clause next to the comparison ("I have a Samsung, the Pixel 9 or an iPhone?"
    # compares the Pixel 9 and an iPhone)
    (had, near_left), (near_right, more) = _clauses(left, last=True), _clauses(right)
    if not (left and right) or any(_OWNED.search(side) for side in (near_left, near_right)):
        return None
    # The clause of what the shopper has goes: the Pixel 9, not the Samsung they have
    left, right = (
        (near_left if _OWNED.search(had) else left),
        (near_right if _OWNED.search(more) else right),
    )
    others = [*before[:-1], *after[1:]]
    around = " ".join(p.strip() for p in others if p.strip() and not _OWNED.search(p))
    return Sides(left.strip(), right.strip(), around)


def _clauses(side: str, *, last: bool = False) -> tuple[str, str]:
    """``side`` cut at its last comma (``last``: the clause after it, and what is before),
    else at its first (the clause before it, and what follows)."""
    if "," not in side:
        return ("", side) if last else (side, "")
    head, tail = side.rsplit(",", 1) if last else side.split(",", 1)
    return head, tail


_SENTENCE_END: Final = re.compile(r"(?<!\bvs)[.!?;]+(?=\s|$)", re.IGNORECASE)
_OWNED: Final = re.compile(
    r"^\W*(?:(?:than|to|with)\s+)?(?:my|mine|our)\b|\bi\s+(?:have|own|had|got)\b", re.IGNORECASE
)
"""What the shopper has, said on a side ("my old HP", "I have a Samsung"): no side of a
comparison; whom it is for is ("an HP for my son")."""
