"""The name beside a citation, checked against the cited product.

A page that misleads a model makes it write one product's name and cite another ("The
Dell XPS 13 [CMP-008] is just $649", CMP-008 being the Inspiron): the card and the fact
check are the cited product's, the words another's. The name of a citation is the words
right before it ("Dell XPS 13 [..]", "**Dell XPS 13** [..]", "Dell XPS 13 (9340) [..]"),
or, when none stand there, the name the sentence gives it ("[..], the Dell XPS 13,",
"[..] (Dell XPS 13)", "[..] is the Dell XPS 13.", or the one name of a sentence the
citation ends, with no comparison and no clause between: "The Dell XPS 13 is $649
[..]."). That name is another product's when it is a known product other than the cited
one (as :mod:`compose_response.names` reads it), or when it is product-like (capitalised
words and a model token: a number, a word with a digit or an inner capital, a variant's
"Pro", "Max", "+"; for a book, a title) and :func:`names_another` says so: it holds a
word the record does not write, and shares none of the words that tell the cited product
from others, or none of the kind it differs in ("Fairphone 5" of the Fairphone 4, "Dell
XPS 14" of the Inspiron 14), or a variant's word the cited name lacks. A spec or a
feature before a citation ("Windows 11 [..]", "Wi-Fi 7 [..]", "512 GB SSD [..]") names
no product. Then the name becomes the cited product's, a correction (``field``
``name``), when it stands where a name can (after an article, a verb, at the sentence's
start; not after "with", "for", "than") and the rest of its sentence says nothing a
record cannot vouch for (words that name no product, the cited records' own words, and
facts the fact check reads, which it then checks); otherwise the sentence goes (its
bullet, in a list), a correction marked removed. What a model writes in lower case
("moto g", "razr+"), a name with no model token that no tool returned ("Razer Blade",
"Apple Mac mini"), or a near relative with the cited product's brand and number ("HP
Pavilion 14" of the HP 14 Laptop) is not caught.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Final

from compose_response import money
from compose_response.amounts import other_prices
from compose_response.compare import Claim, field_of
from compose_response.facts import stated
from compose_response.known import Marked
from compose_response.names import (
    BETWEEN,
    COMMON,
    UNITS,
    amount,
    spec_words,
    strong,
    word_tokens,
)
from compose_response.text import BULLET, CITATION, kept_lines, segments
from compose_response.units import halfwidth, quantities
from shared.catalog.categories import Category
from shared.products.ledger import LedgerIndex, LedgerProduct

_IDEOGRAPHS = "\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff"
_LETTERS = rf"[^\W_{_IDEOGRAPHS}]+"
_WORD = re.compile(rf"[{_IDEOGRAPHS}]+|{_LETTERS}(?:[-'\u2019.]{_LETTERS})*")
"""A word as a name is read: a run of kana, ideographs or hangul is a word apart from the
letters beside it ("学生にはHP 14" is "学生には", "HP", "14"), as such scripts write no space."""
_NAME_WORD = re.compile(rf"[{_IDEOGRAPHS}]+|{_LETTERS}(?:[-'\u2019.]{_LETTERS})*\+?")
_YEAR = re.compile(r"(?:19|20)\d\d")
_FEATURES: Final = frozenset(
    """wi-fi wifi bluetooth usb usb-c usb-a thunderbolt hdmi displayport android windows ios
    ipados macos chromeos linux ubuntu intel amd nvidia geforce rtx gtx radeon snapdragon
    exynos dimensity tensor ryzen core gen ddr4 ddr5 lpddr4x lpddr5 lpddr5x pcie nvme ip67 ip68
    gorilla dolby qi magsafe""".split()  # noqa: SIM905
)
"""First words of a feature or a part, which a citation may follow ("Wi-Fi 7 [..]"): no
product's name."""
FEATURE_WORDS: Final = _FEATURES
"""The first words of a feature or a part (:data:`_FEATURES`), for other checks."""
_VARIANTS: Final = frozenset("pro max plus ultra mini air lite se fe neo".split())  # noqa: SIM905
"""Words that tell a line's variants apart ("iPhone 16 Pro Max", "Galaxy S24 FE"): common
to many names, so no name alone; but one the cited product's name lacks is another's."""
_ORDINAL = re.compile(r"(\d+)(?:st|nd|rd|th)")
_LABELS: Final = frozenset(
    """option options choice pick picks number no item alternative recommendation suggestion
    step tier rank top runner-up winner contender candidate""".split()  # noqa: SIM905
)
"""Words that number a place in the answer's own list, not a product: "Option 1"."""
_DESCRIBING: Final = frozenset(
    "premium flagship budget classic original standard deluxe latest newest".split()  # noqa: SIM905
)
"""Words a model adds to a product's name that name no other product."""
_CONNECTORS: Final = frozenset("of the to for de du la le von in on a an".split())  # noqa: SIM905
"""Lower-case words inside a title ("The Lord of the Rings"), never at its edges."""
_BEFORE_NAME: Final = frozenset(
    """the a an our my your this that these those its their his her
    buy get choose pick try consider take grab check see meet""".split()  # noqa: SIM905
)
"""Words before a name that are not part of it: "The", "Our", "Buy"."""
_COMPARING: Final = frozenset(
    """than vs versus like unlike compared comparison over instead rather or nor alternative
    alternatively also too so while whereas but other another both either neither same similar
    sibling successor predecessor replaces replaced upgrade""".split()  # noqa: SIM905
)
"""Words that set two products side by side: the name in such a sentence is not the one
the sentence gives its citation."""
_PLAIN: Final = frozenset(
    """a an the it its this that these is are was were be has have had comes come with and
    also at for of in on to from as up just only now currently today right costs cost priced
    price prices sells sell selling retails goes go ram memory storage ssd drive unified
    weighs weigh weight weighing battery life lasts last runs run hours hour screen display
    camera stock available sold out ships pages page published yes i i'd our my top pick
    choice recommend recommended suggest get buy take choose grab consider try about around
    roughly approximately nearly""".split()  # noqa: SIM905
)
"""Words that say nothing of which product a sentence is about: a sentence of these, of
the cited product's own words and of facts the fact check reads is as true of the cited
product as of any, once its facts are checked."""
_GAP_CHARS = " \t\u00a0*_\"'\u201c\u201d\u2018\u2019"
_GIVEN = re.compile(
    r"(?:\s*,\s*|\s*\(\s*|\s+[-\u2013\u2014]\s+|\s*:\s*|\s+is\s+|\s*=\s*)(?:(?:the|a|an)\s+)?"
)
"""What gives a citation the name that follows it: "[..], the Dell XPS 13,", "[..] (Dell XPS
13)", "[..] is the Dell XPS 13."."""
_GIVEN_END = re.compile(r"[*_\"'\u201d\u2019]*(?:\s*[,;:)\u2013\u2014]|\s+-\s|[.!?](?:\s|$)|\s*$)")
_CLOSES = re.compile(r"[\s*_\"'\u201d\u2019.!?:)]*")
_BREAKS = re.compile(r"[,;:\u2013\u2014]|\s-\s")


_ELIDED = re.compile(r"^(?:l|d|qu)'(?=[^\W\d_])")


def _word(token: str) -> str:
    """A word of a name as it is compared: case-folded, without a possessive ("Dell's"),
    an ordinal as its number ("2nd generation" is "2")."""
    word = token.rstrip("+").casefold().replace("\u2019", "'")
    word = _ELIDED.sub("", word)  # French and Italian "l'iMac", "d'Apple": the article goes
    if word.endswith("'s"):
        word = word[:-2]
    ordinal = _ORDINAL.fullmatch(word)
    return ordinal.group(1) if ordinal else word


def _said(words: Iterable[str]) -> list[str]:
    """``words`` as they are compared; a "+" after a model token is the word "plus"
    ("S24+"; not "Copilot+")."""
    said: list[str] = []
    for word in words:
        plus = word.endswith("+") and strong(word)
        said += [_word(word), "plus"] if plus else [_word(word)]
    return said


def _words(text: str) -> list[str]:
    return _said(m.group() for m in _NAME_WORD.finditer(text))


def _naming(word: str) -> bool:
    """Whether ``word`` can tell one product from another: not a common word, a unit, an
    amount with a unit or a year ("16" and "G14" can, "16GB" and "2024" cannot)."""
    if word in COMMON or word in _DESCRIBING or _YEAR.fullmatch(word):
        return False
    return word.isdigit() or not amount(word)


def _name_like(token: str) -> bool:
    return token[0].isupper() or strong(token)


def _without_amounts(words: list[str]) -> list[str]:
    """``words`` without an amount and the unit after it ("16 GB" of "16 GB RAM")."""
    kept: list[str] = []
    for at, word in enumerate(words):
        following = words[at + 1].casefold() if at + 1 < len(words) else ""
        if amount(word.casefold()) and following in UNITS:
            continue
        if word.casefold() in UNITS and at and amount(words[at - 1].casefold()):
            continue
        kept.append(word)
    return kept


def _model_token(word: str) -> bool:
    """A word that tells a model: with a digit ("16", "G14", "S24+"), a variant's word
    ("Pro"), or mixed case ("iPhone", "MacBook"); not an acronym ("SSD", "HDMI")."""
    folded = _word(word)
    if any(c.isdigit() for c in word):
        return _naming(folded)
    if folded in _VARIANTS:
        return word[0].isupper()
    return strong(word) and not word.isupper()


def _product_like(words: list[str]) -> bool:
    """Capitalised words and a model token ("Razer Blade 16", "Fairphone 5", "Galaxy S24+",
    "Surface Pro"), or one word of letters and digits ("G14"); not an amount ("16 GB RAM"),
    nor a single other word ("YouTube", "SSD")."""
    words = _without_amounts(words)
    if words and _word(words[0]) in _LABELS:
        return False  # "Option 1 [..]", "Pick #2 [..]": a place in the answer's list
    if len(words) == 1:
        word = _word(words[0])
        return _naming(word) and any(c.isdigit() for c in word) and any(c.isalpha() for c in word)
    named = any(any(c.isalpha() for c in _word(w)) and _naming(_word(w)) for w in words)
    return named and any(map(_model_token, words))


def a_product_named(words: list[str]) -> bool:
    """Whether ``words`` are product-like: capitalised words and a model token, a number,
    a variant's word or an inner capital ("Galaxy Book Pro", "MacBook Air"; not "Google
    Photos", "16 GB RAM", "Option 1")."""
    return _product_like(words)


def a_model_named(words: list[str]) -> bool:
    """Whether ``words`` name a model by its number, whoever makes it ("HP Spectre x360 14",
    "Galaxy S24", "iPhone 15 Pro"): product-like, with a word of digits that is neither a
    year nor an amount, and not a feature or a part ("Windows 11", "Wi-Fi 7", "Core i7")."""
    said = _without_amounts(words)
    if len(said) < 2 or _word(said[0]) in _FEATURES:
        return False
    numbered = any(_model(w) and _naming(_word(w)) for w in said)
    return numbered and _product_like(said)


def _a_spec(said: list[str], product: LedgerProduct) -> bool:
    """Whether a product-like run is a spec, not a name: its first naming word is a
    feature's ("Wi-Fi 7", "Android 14") or a word of ``product``'s specs that is not of
    its name ("Windows 11", "RTX 4070")."""
    first = next((w for w in said if _naming(w) and any(c.isalpha() for c in w)), None)
    if first is None:
        return False
    if first in _FEATURES:
        return True
    named = {*_words(product.name), *_words(product.brand or "")}
    return first not in named and first in {_word(w) for w in spec_words(product)}


def _title_like(words: list[str], first: bool) -> bool:
    """A book's title as written: capitalised words ("Great Expectations"), one alone only
    where it does not start the sentence ("the Piranesi")."""
    naming = [
        w for w in words if w[0].isupper() and any(c.isalpha() for c in w) and _naming(_word(w))
    ]
    return len(naming) >= 2 or (len(naming) == 1 and not first)


def _own_words(product: LedgerProduct, *, described: bool = False) -> set[str]:
    """The words the record itself writes: its name, its brand, its specs' values (an
    author's too) and, when ``described``, the words of its description (not its numbers)."""
    words = {*_words(product.name), *_words(product.brand or "")}
    words |= {_word(w) for w in spec_words(product)}
    if described:
        words |= {w for w in _words(product.description or "") if not _model(w)}
    return words


def _distinguishing(product: LedgerProduct) -> set[str]:
    """The words of ``product``'s name that tell it from others: not its brand's."""
    brand = set(_words(product.brand or ""))
    return {w for w in _words(product.name) if w not in brand and _naming(w)}


def _model(word: str) -> bool:
    return any(c.isdigit() for c in word)


def names_another(words: list[str], product: LedgerProduct, *, first: bool = False) -> bool:
    """Whether a name written as ``words`` (``first`` in its sentence) is another product's
    than ``product``'s. It must be product-like (capitalised words and a model token), or
    for a book a title; then it is another's when it holds

    * a variant's word ``product``'s name lacks ("iPhone 16 Pro Max" of the iPhone 16 Plus);
    * or a word the record does not write (its name, brand, specs; a device's description),
      and: for a book, any such word ("Great Expectations" of The Great Gatsby); else none
      of the words that tell ``product`` from others ("Razer Blade 16" of the Dell XPS 13),
      or none of those of the kind it differs in: a model token ("Fairphone 5" of the
      Fairphone 4, "Zephyrus G16" of the Zephyrus G14) or a line ("Dell XPS 14" of the Dell
      Inspiron 14; "Acer Swift Go 14" of the HP 14 Laptop, whose name has no line but its
      brand).
    """
    words = _without_amounts(words)
    # A title is compared with a title: a book whose name has no word of its own ("Book
    # 10") has none to compare.
    book = product.category == Category.BOOKS and any(
        not _model(w) for w in _distinguishing(product)
    )
    device = _product_like(words)
    if not (device or (book and _title_like(words, first))):
        return False
    if _a_spec(_said(words), product):
        return False
    said = set(_said(words))
    if device and any(w in _VARIANTS and w not in _words(product.name) for w in said):
        return True
    foreign = [w for w in said if _naming(w) and w not in _own_words(product, described=not book)]
    if not foreign:
        return False
    if book and any(not _model(w) for w in foreign):
        return True
    mine = _distinguishing(product)
    if not mine & said:
        return True
    brand = set(_words(product.brand or ""))
    for model in (True, False):
        theirs = {w for w in mine if _model(w) == model}
        missing = not theirs & said if theirs else not (model or brand & said)
        if missing and any(_model(w) == model for w in foreign):
            return True
    return False


@dataclass(frozen=True)
class _Written:
    """Words that name the product of a citation: where, as written, and which known
    product they name (None when no known product is named: a product-like name)."""

    start: int
    end: int
    words: list[str]
    product_id: str | None
    """The known product these words name (a name's mark), or None."""
    first: bool = False
    """Whether they start their sentence (a capitalised word there may be any word)."""


@dataclass(frozen=True)
class Misnamed:
    """A citation whose product was written with another product's name."""

    product_id: str
    said: str
    """The name as the model wrote it."""
    record: str
    """The cited product's name."""
    mark: str | None
    """The mark that now stands for the cited product's name; None when the sentence went."""


def _runs(segment: str, start: int = 0) -> list[tuple[int, int, list[str]]]:
    """The runs of name-like words in ``segment`` from ``start``: capitalised words or model
    tokens next to each other, without the words before a name ("The", "Our")."""
    runs: list[tuple[int, int, list[str]]] = []
    current: list[re.Match[str]] = []

    def close() -> None:
        words = list(current)
        while words and (
            words[0].group().casefold() in _BEFORE_NAME
            or not _name_like(words[0].group())
            or words[0].group().casefold() in _CONNECTORS
        ):
            words.pop(0)
        while words and not _name_like(words[-1].group()):
            words.pop()
        if words:
            runs.append((words[0].start(), words[-1].end(), [w.group() for w in words]))
        current.clear()

    for token in _NAME_WORD.finditer(segment, start):
        word = token.group()
        joined = bool(current) and bool(
            BETWEEN.fullmatch(segment[current[-1].end() : token.start()])
        )
        fits = _name_like(word) or (bool(current) and word.casefold() in _CONNECTORS)
        if current and (not joined or not fits):
            close()
        if fits and (current or _name_like(word)):
            current.append(token)
    close()
    return runs


class _Reader:
    """What names the product of each citation in a sentence."""

    def __init__(self, segment: str, marked: Marked) -> None:
        self.segment = segment
        self.marked = marked
        bullet = BULLET.match(segment)
        self.begin = bullet.end() if bullet else 0
        self.runs = _runs(segment, self.begin)

    def _name_mark(self, match: re.Match[str] | None) -> _Written | None:
        if match is None or match.group(1) not in self.marked.names:
            return None
        named = self.marked.marks[match.group(1)]
        return _Written(match.start(), match.end(), [named.written], named.product_id)

    def _run(self, start: int, end: int, words: list[str]) -> _Written:
        ahead = CITATION.sub("", self.segment[self.begin : start])
        return _Written(start, end, words, None, first=not re.search(r"[^\W_]", ahead))

    def _run_ending(self, end: int) -> _Written | None:
        for start, run_end, words in self.runs:
            if run_end == end:
                return self._run(start, run_end, words)
        return None

    def _aside(self, inner: str) -> bool:
        """Whether ``inner`` is what brackets after a name hold: words, or names' marks
        ("9340", "15-fb1000"), and no citation."""
        if "(" in inner or any(
            m.group(1) not in self.marked.names for m in CITATION.finditer(inner)
        ):
            return False
        return not re.search(r"[\[\]]", CITATION.sub("", inner))

    def before(self, at: int) -> _Written | None:
        """The name right before the citation at ``at``: "Dell XPS 13 [..]", "**Dell XPS
        13** [..]", "Dell XPS 13 (9340) [..]"."""
        text = self.segment
        end = len(text[:at].rstrip(_GAP_CHARS))
        aside: tuple[int, int] | None = None
        opening = text.rfind("(", self.begin, end) if text[:end].endswith(")") else -1
        inner = text[opening + 1 : end - 1]
        if opening >= 0 and self._aside(inner):
            aside = (opening, end)
            end = len(text[:opening].rstrip(_GAP_CHARS))
        found = self._name_mark(re.search(CITATION.pattern + "$", text[:end])) or self._run_ending(
            end
        )
        if found is None or aside is None:
            return found
        inside = [m.group() for m in word_tokens(_shown(inner, self.marked))]
        plain = text[found.end : aside[0]].strip(" \u00a0") == ""
        if not plain or not inside or len(inside) > 3 or not all(map(_name_like, inside)):
            return found
        return _Written(
            found.start, aside[1], [*found.words, *inside], found.product_id, found.first
        )

    def given(self, cited: re.Match[str], marks: list[re.Match[str]]) -> _Written | None:
        """A name the sentence gives the citation ``cited`` when none stands before it:
        after it ("[..], the Dell XPS 13,", "[..] (Dell XPS 13)", "[..] is the Dell XPS
        13."), or as the only name of a sentence it ends ("The Dell XPS 13 is $649 [..].")."""
        text = self.segment
        after = _GIVEN.match(text, cited.end())
        if after is not None:
            at = after.end()
            found = self._name_mark(CITATION.match(text, at))
            if found is None:
                found = next((self._run(s, e, w) for s, e, w in self.runs if s == at), None)
            if found is not None and _GIVEN_END.match(text, found.end):
                return found
        if _CLOSES.fullmatch(text, cited.end()) is None or len(marks) != 1:
            return None
        if _COMPARING.intersection(w.casefold() for w in _WORD.findall(text)):
            return None
        names = [
            written
            for m in CITATION.finditer(text, 0, cited.start())
            if (written := self._name_mark(m)) is not None
        ]
        names += [
            self._run(s, e, w) for s, e, w in self.runs if e <= cited.start() and _product_like(w)
        ]
        if len(names) != 1 or _BREAKS.search(text, names[0].end, cited.start()):
            return None
        return names[0]


def _tokens_of(words: list[str]) -> list[str]:
    return [m.group() for w in words for m in _NAME_WORD.finditer(w)]


def _names_something(written: _Written | None) -> bool:
    if written is None:
        return False
    return written.product_id is not None or any(
        any(c.isalpha() for c in _word(w)) and _naming(_word(w))
        for w in _without_amounts(written.words)
    )


def _misnamed(written: _Written, product: LedgerProduct) -> bool:
    if written.product_id is not None:
        # Another known product's name, unless its words are a spec of the cited one's
        # ("Intel Core Ultra 7" in a laptop's name is also a processor).
        return written.product_id != product.productId and not _a_spec(
            _said(_tokens_of(written.words)), product
        )
    return names_another(written.words, product, first=written.first)


def _true_of_any(
    segment: str, spans: list[tuple[int, int]], records: list[LedgerProduct], store: str
) -> bool:
    """Whether ``segment``, without the names in ``spans``, says only what is true of the
    cited products once their facts are checked: words that name no product (:data:`_PLAIN`),
    the records' own words, and facts the fact check reads and the records hold."""
    view = halfwidth(segment)
    bullet = BULLET.match(segment)
    skip = [*spans, *(m.span() for m in CITATION.finditer(segment))]
    if bullet:
        skip.append((0, bullet.end()))
    found = [*quantities(view), *(q for q in other_prices(view, store) if q.kind == "price")]
    for quantity in found:
        claim = Claim(quantity.kind, quantity.start, quantity.end, quantity=quantity)
        if stated(claim, view) and any(field_of(claim, r) for r in records):
            skip.append((quantity.start, quantity.end))
    own: set[str] = set()
    for record in records:
        own |= _own_words(record)
    for token in _WORD.finditer(segment):
        if any(a <= token.start() and token.end() <= b for a, b in skip):
            continue
        word = _word(token.group())
        if word not in own and ((word not in _PLAIN and word not in UNITS) or _model(word)):
            return False
    return True


def correct_cited_names(
    marked: Marked, text: str, keyed: LedgerIndex, store: str = money.DEFAULT_CURRENCY
) -> tuple[str, list[Misnamed]]:
    """``text`` (``marked``'s, its names marked: :func:`mark_names`) where no citation stands
    beside another product's name: that name becomes the cited product's (a mark of its
    own, added to ``keyed``, so that the fact check reads its facts) when the sentence
    says nothing else a record cannot vouch for; otherwise the sentence goes, or its
    bullet. ``keyed`` maps each mark to its record; ``store`` is the store's currency."""
    fixes: list[Misnamed] = []
    lines: list[tuple[str, str | None]] = []
    for line in text.split("\n"):
        kept: list[str] = []
        whole = True
        for segment in segments(line):
            checked = _check_names(segment, marked, keyed, store, fixes)
            if checked is None:
                whole = False
            else:
                kept.append(checked)
        if whole:
            lines.append((line, "".join(kept)))
        elif kept and not BULLET.match(line):
            lines.append((line, "".join(kept).rstrip()))
        else:
            lines.append((line, None))
    if not fixes:
        return text, []
    return re.sub(r"\n{3,}", "\n\n", "\n".join(kept_lines(lines))).strip(), fixes


_DETERMINERS: Final = frozenset("the a an our my your this that these those its".split())  # noqa: SIM905
_OTHER_THING: Final = frozenset(
    """with without for to than like unlike from on in of by at into onto over under about
    against including plus vs versus via through per""".split()  # noqa: SIM905
)
"""Words after which a name is another thing the sentence speaks of ("comes with the Apple
Pencil Pro [..]"), not the product it cites: such a name is not rewritten."""


def _renamable(segment: str, begin: int, written: _Written, known: set[str]) -> bool:
    """Whether ``written`` stands where the cited product's name can: after an article, a
    verb or the start of the sentence ("The Dell XPS 13 [..]", "I'd get a Dell XPS 13
    [..]"); not after "with", "for", "than" (its sentence goes instead). A name that starts
    the sentence with no article must start as a name does, not with a verb ("Supports
    Apple Pencil Pro [..]"): with a model token or a word of a product the answer names."""
    words = [w.casefold() for w in _WORD.findall(CITATION.sub(" ", segment[begin : written.start]))]
    article = False
    while words and words[-1] in _DETERMINERS:
        words.pop()
        article = True
    if words:
        return words[-1] not in _OTHER_THING
    if article or written.product_id is not None:
        return True
    return strong(written.words[0]) or _word(written.words[0]) in known


def _check_names(
    segment: str, marked: Marked, keyed: LedgerIndex, store: str, fixes: list[Misnamed]
) -> str | None:
    """``segment`` with its misnamed citations' names corrected, or None when it goes."""
    marks = [
        m
        for m in CITATION.finditer(segment)
        if m.group(1) not in marked.names and m.group(1) in keyed
    ]
    if not marks:
        return segment
    reader = _Reader(segment, marked)
    wrong: dict[tuple[int, int], tuple[_Written, LedgerProduct]] = {}
    for cited in marks:
        product = keyed[cited.group(1)]
        written = reader.before(cited.start())
        if not _names_something(written):
            written = reader.given(cited, marks)
        if written is not None and _misnamed(written, product):
            wrong.setdefault((written.start, written.end), (written, product))
    if not wrong:
        return segment
    said = {span: _shown(segment[span[0] : span[1]], marked) for span in wrong}
    # The products the sentence still speaks of: not those of the names it loses.
    records = [
        keyed[m.group(1)]
        for m in CITATION.finditer(segment)
        if m.group(1) in keyed and not any(a <= m.start() < b for a, b in wrong)
    ]
    known = {w for record in keyed.values() for w in _own_words(record)}
    begin = reader.begin
    if all(_renamable(segment, begin, w, known) for w, _ in wrong.values()) and _true_of_any(
        segment, list(wrong), records, store
    ):
        fixed = segment
        named: list[Misnamed] = []
        for span in sorted(wrong, reverse=True):
            product = wrong[span][1]
            mark = marked.name(product.name, product.productId)
            if mark is None:
                break
            keyed[mark] = product
            fixed = f"{_article(fixed[: span[0]], product.name)}[{mark}]{fixed[span[1] :]}"
            named.append(Misnamed(product.productId, said[span], product.name, mark))
        else:
            fixes.extend(reversed(named))
            return fixed
    fixes.extend(
        Misnamed(product.productId, said[span], product.name, None)
        for span, (_, product) in sorted(wrong.items())
    )
    return None


_ARTICLE = re.compile(r"\b([Aa]n?|[Tt]he)(\s+[*_\"'\u201c]*)$")
_AN_LETTERS = "aeiou"
_AN_INITIALS = "aefhilmnorsx"
"""Initials read with a vowel sound when spelt out ("an HP", "an MSI")."""


def _article(before: str, name: str) -> str:
    """``before`` (what precedes a name now ``name``) with the article ``name`` needs: "an"
    or "a", none when the name has its own ("the The Martian")."""
    found = _ARTICLE.search(before)
    if found is None or not name.split():
        return before
    first = name.split()[0]
    if first.casefold() in ("the", "a", "an"):
        return before[: found.start()] + found.group(2)
    if found.group(1).casefold() == "the":
        return before
    spelt = first.isupper() and len(first) <= 4 and first.isalpha()
    an = first[0].casefold() in (_AN_INITIALS if spelt else _AN_LETTERS)
    article = ("An" if found.group(1)[0] == "A" else "an") if an else found.group(1)[0]
    return before[: found.start()] + article + found.group(2)


def _shown(text: str, marked: Marked) -> str:
    """``text`` as the shopper would have read it: a name's mark as its words."""
    return CITATION.sub(
        lambda m: marked.marks[m.group(1)].written if m.group(1) in marked.names else m.group(),
        text,
    )
