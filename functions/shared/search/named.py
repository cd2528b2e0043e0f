"""The products a shopper names in their words: "the iPhone 15", "a Galaxy S23 or a Pixel
8a", "the MacBook Air 13", "the Nokia 3310".

A product is named by a word of the catalog's names that leads one (a line or a brand:
"iPhone", "Galaxy", "XPS"; not a qualifier such as "Pro" or "Gen"), the qualifiers after
it ("Air", "Z Fold") and a model token, a word with a digit that is no amount and no year
("15", "S23", "8a"; not "16GB", "15-inch", "$500", "1,2 kg", "2024"), then the qualifiers
and tokens that go on ("Galaxy S24 Ultra", "iPhone 15 Pro Max"; a comma or a possessive
ends it), with the words before it that the names have with it ("Samsung Galaxy S24")
and the words after it of the same product's name ("Zenbook 14 OLED (UX3405)"); a kind's
word after it is the kind's ("a Dell XPS 13 laptop"). So is a line and its qualifiers
alone where a name has them ("MacBook Air"), a line of one product by its word after
"the" ("the iMac"), and each model listed after a line's name ("the Galaxy S24, S24+ or
S24 Ultra"). Whether the store has it is the catalog's to say: ``has_name`` tells
whether a product's name has every word of a phrase (of a product other than a book,
``books=False``).

Not carried is said only where it is plain: a model of a product line (a word of the names
that is no brand, or a brand whose products are named by it and a number: "iPhone 14",
"Pixel 7", "Fairphone 3"; not "Dell 20" or "HP 50% off") of the kind asked, that no name
has, and a model of a name the catalog has no word of at all, capitalised, after "the" or
"a", with a model token of letters and digits, of three digits or more, or of fewer where
the question ends or goes on to another name, no ordinal ("the Nokia 3310", "a Huawei
P60", "the Pixel 9?"; not "for Mum 70th", "Grafikkarte RTX4060", "the Top 3 phones"). A
product the shopper has or compares against ("my old iPhone 8", "I have a Pixel 6", "like
the iPhone 16"; one the store lacks after "than") is no product they ask the store for,
and names nothing; nor does a word the search gives a meaning of its own ("Windows 11"),
a part ("Core i7": the catalog's specs have it), a citation ("[CMP-999]"), or a book's
word ("a Python 3 book").
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Final

from shared.catalog.derive import fold
from shared.search.intents import STOP_WORDS
from shared.search.series import name_words
from shared.search.unsold import ACCESSORY
from shared.search.words import MONEY, parse, parser_words
from shared.text.languages import in_english

_WORD = re.compile(r"\d+(?:[.,]\d+)+[^\W\d_]*|[^\W_]+(?:[.'][^\W_]+)*\+?")
_AMOUNT = re.compile(
    r"\d+(?:[.,]\d+)?(?:gb|tb|mb|kg|g|lbs?|oz|mah|mp|hz|in|inch|inches|h|hrs?|w|mm|cm|k|%)?",
    re.IGNORECASE,
)
_YEAR = re.compile(r"(?:19|20)\d\d")
_UNITS: Final = frozenset(
    re.findall(
        r"\w+",
        "gb tb mb kg g lb lbs oz mah mp hz inch inches zoll h hr hrs hours stunden w watt mm "
        "cm k percent year years day days month months week weeks pack pcs pieces star stars "
        "core cores",
    )
) | frozenset(MONEY)
QUALIFIERS: Final = frozenset(
    re.findall(
        r"\w+",
        "pro max plus ultra mini air lite flip fold fe go s se z xl studio carbon slim edge "
        "neo duo gen series edition note phone laptop book",
    )
)
"""Words that go on a model's name and lead none: "Air" in "MacBook Air 13"."""
_PLURAL = re.compile(r"[^\W\d_]*\d+s")
"""A model token in the plural: "15s", "S24s"."""
_DAYS: Final = frozenset(
    {
        *("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"),
        *("day", "week", "weekend", "sale", "sales", "deal", "deals", "offer", "offers"),
        *("promo", "promotion", "event"),
    }
)
"""Words of a sale's name, not a product's: "the Cyber Monday 2 for 1 deal"."""
_MONTHS: Final = frozenset(
    re.findall(
        r"\w+",
        "january february march april may june july august september october november "
        "december jan feb mar apr jun jul aug sep sept oct nov dec",
    )
)
"""A month and a day are a date, no model: "by Dec 20"."""
_PLAYED = re.compile(
    r"\b(?:run|runs|running|play|plays|playing|for|with|on)\s+(?:the|a|an)\s+$", re.IGNORECASE
)
"""Words before a name the catalog has no word of that make it a game or a thing used,
not a product asked for: "a laptop that can run the Sims 4", "for the Witcher 3"."""
_NUMBERED_BY: Final = frozenset({"gen", "series", "edition"})
"""Qualifiers a number of their own follows: "Gen 12"."""
_LINE_QUALIFIERS: Final = QUALIFIERS - frozenset(
    re.findall(r"\w+", "s gen series edition note phone laptop book")
)
"""Qualifiers that name a model with its line and no model token: "MacBook Air"."""
_OWNED = re.compile(
    r"\b(?:my|our|old|from|(?<!'d )(?<!ould )like|replace|replacing|replaced|"
    r"upgrad(?:e|ing)(?!\W+to\b)|had|broke|broken|bought|"
    r"(?:i|we|he|she|they|husband|wife|son|daughter|mum|mom|dad|partner|friend)"
    r"(?:'m| am| is| are)? (?:currently |still )?(?:have|has|own|owns|use|uses|using|got)|"
    r"i've got|similar to|alternative to|compared (?:to|with)|successor (?:of|to)|"
    r"instead of|rather than|replacement for|"
    r"(?:cases?|covers?|sleeves?|skins?|chargers?|cables?|protectors?|styluses|stylus) for)"
    r"[^\w,:;.?!]+(?:\w+[^\w,:;.?!]+){0,2}$",
    re.IGNORECASE,
)
"""Words before a name that say the shopper has it or compares against it ("my old", "my
wife uses a", "similar to the", "a case for my"), in the same clause: "for my mum, the
Galaxy A15" asks for it, as do "I'd like the" and "upgrade to the"."""
_OWNED_AFTER = re.compile(
    r"^[^\w,:;.?!]+(?:that |which )?(?:i|we)(?:'ve|'m| have| am| already)? ?"
    r"(?:have|own|got|use|using|bought|had)\b",
    re.IGNORECASE,
)
"""Words after a name that say the shopper has it: "is the iPhone 12 I have still good?"."""
_FOR_IT = re.compile(rf"^[^\w,:;.?!]+{ACCESSORY}\b", re.IGNORECASE)
"""An accessory after a name, which it is for: "an iPhone 13 case" asks for a case."""
_AGAINST = re.compile(r"\bthan\W+(?:\w+\W+){0,1}$", re.IGNORECASE)
"""A model the store lacks after "than" is one compared against, not asked for."""
_JOINS = re.compile(r"\s+(?:a|an|the|some|any|another|one|two|my)\b", re.IGNORECASE)
"""Words after "plus" that make it join another wish, not end a model's name."""
_DETERMINER = re.compile(r"\b(?:the|a|an)\s+$", re.IGNORECASE)
_THE_BEFORE = re.compile(r"\b(?:the|this|that)\s+$", re.IGNORECASE)
"""Words before a line of one product that name it ("is the iMac in stock?"); not "a Mac",
a kind of its products."""
_BARE_TOKEN = re.compile(r"[^\W\d_]{1,3}\d+[^\W_]*\+?")
"""A model token that names a model with no line before it: "S24", "X1", "P60"."""
_ORDINAL = re.compile(r"\d+(?:st|nd|rd|th|e|er|fps|p)", re.IGNORECASE)
_CITED = re.compile(r"\[[^\]]{0,40}\]")
_MONEY_BEFORE = re.compile(r"[$€£]\s*$")
_BETWEEN: Final = frozenset(
    re.findall(r"\w+", "a an the and or vs versus with without for of to in on at by from is are")
) | {"than", "under", "over"}
"""Words between two names or before a limit, never the rest of a name."""
MAX_NAMED = 3
"""More names than a question compares: the first three are looked up."""
MAX_TRIED = 6
"""Places in the words that look like a name, looked up at most: a long message of
numbers costs a few lookups, not one per word."""
MAX_SOLE_TRIED = 3
"""Words alone looked up as a line of one product, at most: the first three that may be."""
MAX_NAME_WORDS = 6


@dataclass(frozen=True)
class Named:
    """A product named in the shopper's words, as written, and whether the store has it."""

    said: str
    carried: bool
    line: bool = True
    """Whether the catalog has other products of its line ("iPhone" for the iPhone 14);
    not for a name it has no word of ("Nokia 3310")."""


HasName = Callable[..., bool]
"""``has_name(phrase, books=True)``: whether a product's name has every word of ``phrase``."""


def line_words(said: str) -> frozenset[str]:
    """The words of a name said that are its line's and brand's, not its model's:
    "apple", "macbook" in "Apple MacBook Ultra 20"."""
    words = (w.casefold() for w in _WORD.findall(said))
    return frozenset(w for w in words if w.isalpha() and w not in QUALIFIERS)


def _token(text: str, words: list[re.Match[str]], at: int) -> bool:
    """Whether ``words[at]`` is a model's token: a digit in it, no amount and no year."""
    token = words[at].group()
    if not any(ch.isdigit() for ch in token) or _YEAR.fullmatch(token):
        return False
    if re.fullmatch(r"x\d{1,2}", token):
        return False  # a count: "the iPhone 15 x2" (a model writes its X large: "X1")
    if _MONEY_BEFORE.search(text[: words[at].start()]):
        return False
    if token.isdigit() and (
        text.startswith(("-", "%", " %"), words[at].end())
        or re.match(r"\s+in\s+1\b", text[words[at].end() :])
    ):
        return False  # a number in a compound or a share: "2-in-1", "2 in 1", "50% off"
    following = words[at + 1].group().casefold() if at + 1 < len(words) else ""
    return not (_AMOUNT.fullmatch(token) and (following in _UNITS or not token.isdigit()))


def _qualifier(word: str) -> bool:
    return _own(word).casefold() in QUALIFIERS


def _own(word: str) -> str:
    """``word`` without a possessive: "Ultra" of "the Galaxy S24 Ultra's camera"."""
    return word.removesuffix("'s")


def _ends(word: str) -> bool:
    """Whether a possessive ends the name at ``word``."""
    return word != _own(word)


@functools.lru_cache(maxsize=4096)
def _leads(word: str) -> bool:
    """Whether ``word`` may lead a product's name: a word that says something, no
    qualifier, no month, and no meaning of the search's but a line's ("iPhone", not
    "laptop"). Of the word alone, so kept: a search reads each word of its text again."""
    if not (word.isalpha() and len(word) > 1) or word.casefold() in STOP_WORDS | _MONTHS:
        return False
    if _qualifier(word):
        return False
    meant = parse(word)
    return bool(meant.lines) or not (
        meant.category or meant.forms or meant.sort or meant.uses or meant.limits
    )


def _goes_on(word: str) -> bool:
    """Whether ``word`` may be more of a name: "Samsung" before "Galaxy S24"."""
    return len(word) > 1 and word.casefold() not in _BETWEEN


def _kind_word(word: str) -> bool:
    """Whether ``word`` means something to the search and names no model ("laptop", not
    "Max")."""
    return _means_something(word) and word.casefold() not in _LINE_QUALIFIERS


def _means_something(word: str) -> bool:
    """Whether the search gives ``word`` a meaning of its own: "Windows" in "Windows 11"."""
    return fold(word.casefold()) in parser_words()


def _model_at(text: str, words: list[re.Match[str]], at: int) -> int:
    """Where the model starting at ``words[at]`` ends (its words' end), or ``at`` when no
    model starts there: qualifiers, then a model token, then more of either."""
    end = at + 1
    while end < len(words) and _qualifier(words[end].group()) and end - at < MAX_NAME_WORDS:
        end += 1
        if _ends(words[end - 1].group()):
            return end
    if end >= len(words) or not _token(text, words, end):
        return at
    end += 1
    while end < len(words) and end - at < MAX_NAME_WORDS and not _ends(words[end - 1].group()):
        word = _own(words[end].group())
        if word.casefold() == "s" and not (end + 1 < len(words) and _token(text, words, end + 1)):
            break  # "S" leads a model ("Galaxy S 24") but ends none: "the S24 Ultra S Pen"
        # A number goes on after a generation ("Carbon Gen 12"), a token of letters always.
        numbered = word[0].isalpha() or words[end - 1].group().casefold() in _NUMBERED_BY
        if not (_qualifier(word) or (_token(text, words, end) and numbered)):
            break
        if not _spaced(text, words, end):
            break  # a comma ends it: "the Galaxy S24, S24+ or S24 Ultra"
        end += 1
    return end


def _spaced(text: str, words: list[re.Match[str]], at: int, within: str = "") -> bool:
    """Whether only spaces (and the marks ``within``) stand between ``words[at]`` and the
    word before it."""
    return not text[words[at - 1].end() : words[at].start()].strip(" \t\n" + within)


def _line_model_at(words: list[re.Match[str]], at: int, has_name: HasName) -> int:
    """Where a model said as its line and qualifiers alone ends ("MacBook Air", "Surface
    Pro", "Galaxy Z Fold"), or ``at``: only where some name has those words, and only
    qualifiers that are no kind of product ("a Galaxy phone" asks for a kind)."""
    end = at
    while (
        end + 1 < len(words)
        and end - at < MAX_NAME_WORDS
        and _own(words[end + 1].group()).casefold() in _LINE_QUALIFIERS
        and not _ends(words[end].group())
    ):
        end += 1
    if end == at or not has_name(" ".join(_own(w.group()) for w in words[at : end + 1])):
        return at
    return end + 1


def _before_token(text: str, words: list[re.Match[str]], at: int, end: int) -> list[re.Match[str]]:
    """The words of ``words[at:end]`` after its first and before its model token: "Redmi
    Note" of "Xiaomi Redmi Note 13 Pro"."""
    between: list[re.Match[str]] = []
    for index in range(at + 1, end):
        if _token(text, words, index):
            break
        between.append(words[index])
    return between


def _leads_a_model(text: str, words: list[re.Match[str]], at: int) -> bool:
    """Whether a model starts at ``words[at]`` by the usual reading ("iPhone 16 Pro Max")."""
    return at < len(words) and _leads(words[at].group()) and _model_at(text, words, at) > at


def _line_of_words_at(text: str, words: list[re.Match[str]], at: int, has_name: HasName) -> int:
    """Where a model said as a brand, a line of ordinary words and a model token ends
    ("Honor Magic 6", "Nothing Phone 2": "magic" and "phone" mean something to the search),
    or ``at``: only where a name other than a book's has them all."""
    end = at + 1
    while (
        end + 1 < len(words)
        and end - at < MAX_NAME_WORDS
        and words[end].group().isalpha()
        and _spaced(text, words, end)
        and not _ends(words[end - 1].group())
    ):
        end += 1
        if _spaced(text, words, end, within="(") and _token(text, words, end):
            said = " ".join(_own(w.group()) for w in words[at : end + 1])
            if has_name(said, books=False):
                return end + 1
    return at


def _capitalised_model_at(text: str, words: list[re.Match[str]], at: int) -> int:
    """Where a model said as a name no product has ends: one or two more capitalised words
    and a model token, then its qualifiers ("the Xiaomi Redmi Note 13", "the Honor Magic 6
    Pro"), or ``at``. Whether it names a model the store lacks is :func:`named_in`'s to say."""
    end = at + 1
    while (
        end < len(words)
        and end - at <= 2
        and words[end].group()[:1].isupper()
        and words[end].group().isalpha()
        and _spaced(text, words, end)
    ):
        end += 1
    if end == at + 1 or end >= len(words) or not _spaced(text, words, end):
        return at
    if not _token(text, words, end):
        return at
    end += 1
    while (
        end < len(words)
        and end - at < MAX_NAME_WORDS
        and _qualifier(words[end].group())
        and _spaced(text, words, end)
        and not _ends(words[end - 1].group())
    ):
        end += 1
    return end


NamesWith = Callable[[str, int], list[tuple[str, str | None]]]
"""``names_with(word, most)``: the names and brands of the first ``most`` products whose
names have ``word``."""
NAMES_SEEN = 20


def _numbered(word: str, names: list[tuple[str, str | None]]) -> bool:
    """Whether a product's name is ``word`` and a model token ("Fairphone 5"): a brand
    that is a line of its own, whose number names a model ("the Fairphone 3")."""
    for name, _ in names:
        said = name_words(name)
        if said[:1] == [word.casefold()] and len(said) > 1 and any(c.isdigit() for c in said[1]):
            return True
    return False


def leads_name(word: str, name: str, brand: str | None) -> bool:
    """Whether ``word`` leads the product ``name``, a line's place, and says it with no
    qualifier: its first word, or the first after its brand's ("iMac" in "Apple iMac 24
    (M3)"; not "Mac" in "Apple Mac mini (M2)", the mini of the Macs)."""
    words, owner = name_words(name), name_words(brand or "")
    rest = words[len(owner) :] if owner and words[: len(owner)] == owner else words
    return rest[:1] == [word.casefold()] and not (rest[1:] and _qualifier(rest[1]))


def _plain_model(text: str, words: list[re.Match[str]], end: int) -> bool:
    """Whether the name ending at ``words[end - 1]`` ends in a model token that names a
    model on its own: letters and digits ("P60", "8a"), three digits or more ("3310"), or
    a number where the name ends the question or a word between names follows ("the
    Pixel 9?", "the Pixel 9 or the Pixel 8"; not "the Top 3 laptops")."""
    token = words[end - 1].group()
    if any(ch.isalpha() for ch in token) or len(token) >= 3:
        return True
    after = words[end].group().casefold() if end < len(words) else ""
    return not after or after in _BETWEEN or after in ("vs", "in")


_LISTED_BETWEEN = re.compile(r"(?:[\s,/&]|\b(?:or|and|vs|versus|the|a|an)\b)*", re.IGNORECASE)
"""What may stand between models of one line listed: "S24, S24+ or the S24 Ultra"."""


def _line_of(said: str, end: int) -> tuple[str, str, int] | None:
    """A name's words before its model token and that token ("Galaxy", "S24"), and the
    place in the words where it ended; None for a name with no token."""
    parts = said.split()
    first = next((n for n, w in enumerate(parts) if any(ch.isdigit() for ch in w)), 0)
    return (" ".join(parts[:first]), parts[first], end) if first else None


def _shape(token: str) -> str:
    """A model token's letters before its number: "s" for "S24+", "" for "15" and "8a"."""
    return re.match(r"[^\W\d_]*", token.casefold())[0]  # type: ignore[index]


def _listed_on(text: str, words: list[re.Match[str]], at: int, listed: tuple[str, str, int]) -> int:
    """Where a model of the line just named ends, when ``words[at]`` lists one right
    after it ("S24+" after "the Galaxy S24, "): a token of the same shape, with nothing
    but commas, "or", "and" and "the" between them; else ``at``."""
    _, token, ended = listed
    between = text[words[ended - 1].end() : words[at].start()]
    if at < ended or not _LISTED_BETWEEN.fullmatch(between) or not between.strip(" "):
        return at
    if not _token(text, words, at) or _shape(words[at].group()) != _shape(token):
        return at
    end = at + 1
    while end < len(words) and end - at < MAX_NAME_WORDS and not _ends(words[end - 1].group()):
        if not _qualifier(words[end].group()):
            break
        end += 1
    # The list ends the question, a clause, or goes on: "and 2 cases" lists no model.
    if end == len(words) or _ends(words[end - 1].group()) or not _spaced(text, words, end):
        return end
    after = words[end].group().casefold()
    bare = end == at + 1 and words[at].group().isdigit()  # "2 screen protectors": a count
    return end if after in _BETWEEN or (_means_something(after) and not bare) else at


@dataclass
class _Reading:
    """One text's words and the catalog's predicates, as :func:`named_in` reads them."""

    text: str
    words: list[re.Match[str]]
    has_name: HasName
    is_brand: Callable[[str], bool]
    names_with: NamesWith | None
    sole_tried: int = 0

    def span_at(self, at: int, listed: tuple[str, str, int] | None) -> tuple[int, str]:
        """Where a name starting at ``words[at]`` ends (``at``: none starts there), and
        the words of the line it is a model of when the text said them before ("Galaxy"
        for "S24+" in "the Galaxy S24, S24+")."""
        text, words = self.text, self.words
        lead = words[at].group()
        end = _model_at(text, words, at) if _leads(lead) else at
        if end == at and listed and (more := _listed_on(text, words, at, listed)) > at:
            return more, listed[0]  # a model of the line just named
        if not _leads(lead):
            return self._bare_model_at(at), ""
        if end == at and self.is_brand(lead) and not _leads_a_model(text, words, at + 1):
            end = _line_of_words_at(text, words, at, self.has_name)
        if end > at or self.is_brand(lead):
            return end, ""  # a brand and a qualifier name no model: "an Apple Pro laptop"
        end = _line_model_at(words, at, self.has_name)
        if end == at and not self.has_name(lead):
            end = _capitalised_model_at(text, words, at)
        if (
            end == at
            and self.names_with
            and self.sole_tried < MAX_SOLE_TRIED
            and _THE_BEFORE.search(text[: words[at].start()])
        ):
            self.sole_tried += 1
            having = self.names_with(lead, 2)
            sole = len(having) == 1 and leads_name(lead, *having[0])
            end = at + 1 if sole and self.has_name(lead, books=False) else at
        return end, ""

    def _bare_model_at(self, at: int) -> int:
        """Where a model said by its token alone ends ("is the S24 in stock?", "the X1
        Carbon"), or ``at``: a token of letters then digits after "the", "a" or at the start
        of a clause (not "with an M3 chip": a part), that a name other than a book's has
        whole, and its qualifiers."""
        text, words = self.text, self.words
        token = _own(words[at].group())
        before = text[: words[at].start()]
        if not (
            _BARE_TOKEN.fullmatch(token)
            and (_DETERMINER.search(before) or not before.strip(" \t\n,;:.?!"))
            and not _PLAYED.search(before)
            and _token(text, words, at)
            and self.has_name(token, books=False)
        ):
            return at
        end = at + 1
        while end < len(words) and end - at < MAX_NAME_WORDS and _qualifier(words[end].group()):
            if _ends(words[end - 1].group()):
                break
            end += 1
        return end

    def grown(self, start: int, end: int, phrase: str, carried: bool, line: bool) -> str:
        """The name as said, grown by the words before it that the names have with it
        ("Samsung Galaxy S24"; for a model of a line the store lacks, on their own:
        "Apple MacBook Ultra 20") and the words after it of the same product's name
        ("Zenbook 14 OLED (UX3405)", its bracket closed)."""
        text, words, has_name = self.text, self.words, self.has_name
        while (
            start
            and line
            and _spaced(text, words, start)
            and _goes_on(before := words[start - 1].group())
        ):
            joined = has_name(f"{before} {phrase}")
            if not (joined or (not carried and _leads(before) and has_name(before))):
                break
            start, phrase = start - 1, f"{before} {phrase}"
        while (
            carried
            and end < len(words)
            and end - start < 2 * MAX_NAME_WORDS
            and not _ends(words[end - 1].group())
            and _spaced(text, words, end, within="()-")
            and _goes_on(after := _own(words[end].group()))
            and not _means_something(after)
            and has_name(f"{phrase} {after}")
        ):
            end, phrase = end + 1, f"{phrase} {after}"
        begin, stop = words[start].start(), words[end - 1].end()
        if text.startswith(")", stop) and text.count("(", begin, stop) > text.count(
            ")", begin, stop
        ):
            stop += 1
        return text[begin:stop].removesuffix("'s")


def named_in(
    text: str,
    has_name: HasName,
    is_brand: Callable[[str], bool],
    known: Callable[[str], bool],
    category: str | None = None,
    names_with: NamesWith | None = None,
) -> list[Named]:
    """The products ``text`` names, in the order it names them (at most :data:`MAX_NAMED`),
    read as the search reads other languages ("Gewicht 1,2 kg" is a weight). ``is_brand``:
    whether a word is a brand's; ``known``: whether any product (its name, specs or
    description) has the word; ``category``: the kind the words ask for, whose products
    alone a line the store lacks a model of is one of ("Gorilla Glass Victus 2" on a
    phone is no HP Victus); ``names_with``: the names with a word, for a line of one
    product, which its word names where it leads the name (:func:`leads_name`: "is the
    iMac in stock?"; not "a Mac"), and a brand that is a line of its own (:func:`_numbered`)."""
    # "[CMP-999]" cites a product by its id, which is no name.
    text = _CITED.sub(" ", in_english(text)).replace("\u2019", "'")
    words = list(_WORD.finditer(text))
    reading = _Reading(text, words, has_name, is_brand, names_with)
    found: list[Named] = []
    tried = at = 0
    listed: tuple[str, str, int] | None = None
    while at < len(words) and len(found) < MAX_NAMED and tried < MAX_TRIED:
        end, line_said = reading.span_at(at, listed)
        if (
            end == at
            or _OWNED.search(text[: words[at].start()])
            or _OWNED_AFTER.search(text[words[end - 1].end() :])
            or _FOR_IT.search(text[words[end - 1].end() :])
        ):
            at = max(end, at + 1)
            continue
        tried += 1
        said_words = [line_said] if line_said else []
        # A listed model's line is the last of the line's words said: "Galaxy" of "Samsung Galaxy".
        lead = line_said.split()[-1] if line_said else words[at].group()
        phrase = " ".join([*said_words, *(_own(w.group()) for w in words[at:end])])
        carried = has_name(phrase)
        plural = False
        last = _own(words[end - 1].group())
        if not carried and end - 1 > at and _kind_word(last):
            # A kind's word after a model is the kind's: "the Dell XPS 13 laptop" is the
            # XPS 13, "an HP 17 laptop" the HP 17.
            shorter = " ".join([*said_words, *(_own(w.group()) for w in words[at : end - 1])])
            if any(c.isdigit() for c in shorter):
                end, phrase, carried = end - 1, shorter, has_name(shorter)
        if (
            not carried
            and end - 1 > at
            and last == "plus"
            and _JOINS.match(text[words[end - 1].end() :])
        ):
            # "plus" in lower case joins another wish: "the iPhone 15 plus a cheap laptop"
            # (not "is the iPhone 15 Plus a good phone?")
            shorter = " ".join([*said_words, *(_own(w.group()) for w in words[at : end - 1])])
            if has_name(shorter):
                end, phrase, carried = end - 1, shorter, True
        if not carried and _PLURAL.fullmatch(words[end - 1].group()):
            # "any iPhone 15s left?": more than one of the model, where the store has it.
            one = phrase[:-1]
            plural = has_name(one)
            phrase, carried = (one, True) if plural else (phrase, carried)
        before_it = text[: words[at].start()]
        if carried:
            line = True
        elif _AGAINST.search(before_it):
            at = end
            continue
        elif has_name(lead, books=False, category=category) and (
            not is_brand(lead)
            or (names_with is not None and _numbered(lead, names_with(lead, NAMES_SEEN)))
        ):
            line = True  # a model of a line the store carries
        elif (
            _DETERMINER.search(before_it)
            and not _PLAYED.search(before_it)
            and lead[0].isupper()
            and _plain_model(text, words, end)
            and not _ORDINAL.fullmatch(words[end - 1].group())
            and not (_means_something(lead) or known(lead))
            # A number alone says nothing of a name: "9" is in many products' specs; nor does
            # a capitalised word after the name's first that no product's name has ("the
            # Honor Magic 6", "Phone"); one a name has is that product's ("the Midnight
            # MacBook Air 13").
            and not any(
                (has_name(w.group()) or w.group().casefold() in _MONTHS | _DAYS)
                if w.group()[:1].isupper()
                else known(w.group())
                for w in _before_token(text, words, at, end)
            )
        ):
            line = False  # a model of a name the catalog has no word of
        else:
            at += 1
            continue
        if line_said:
            said = f"{line_said} {reading.grown(at, end, phrase, carried, line=False)}"
        else:
            said = reading.grown(at, end, phrase, carried, line)
        said = said[:-1] if plural and said.endswith("s") else said
        if all(fold(said.casefold()) != fold(n.said.casefold()) for n in found):
            found.append(Named(said, carried, line))
        listed = _line_of(said, end)
        at = end
    return found
