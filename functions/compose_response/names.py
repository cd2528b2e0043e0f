"""Products an answer names in words, without a citation: "the HP 14", "the Zephyrus".

A model writes a product's name far more often than its id, and a page that misleads
it writes the name ("the HP 14 Laptop is just $1 today"). Such a sentence is about a
product the tools returned as surely as one with a citation, so its facts are checked
the same way (:mod:`compose_response.facts`). Which words name a product:

* its name, or a run of consecutive words of it (with its brand before them too:
  "Dell Alienware m16"), in any case: "HP 14", "Zephyrus G14", "Great Gatsby";
* that run names **one** product of those known: a run two of them share ("HP 14" for the
  HP 14 Laptop and the HP 14 Pro) names neither, and is not guessed;
* that run is a name as written: every word of it that is not a common word is written
  with a capital or a digit ("the great thing" is not *The Great Gatsby*); it is more than
  the brand alone, and holds a word of the product's own title (its brand and its name
  before a variant's options) that is neither a common word (:data:`COMMON`) nor an amount
  or a unit ("128", "GB", "128GB", "6.1-inch", "4K": :func:`amount`). "HP", "the laptop",
  "14" and "128 GB" name nothing;
* a variant's options name nothing alone: a store names a variant "<title> - <option>,
  <option>" (or "<title> - <option> / <option>"), and "Mint" or "256 GB, Midnight" are
  what many products are, not one. The part after the last " - " is read as options when
  each word of it is a common word, an amount, or a value of the product's specs, or when
  another known product has the same title before it;
* a single word names a product only when it is unlike an ordinary word: a capital or a
  digit inside it ("MacBook", "G14"), or a capitalised word not at the start of a sentence
  ("I'd take the Zephyrus");
* the words after it are not more of another name: "HP 14" in "the HP 14 Pro", when the
  HP 14 Pro is not known, names nothing (a capitalised word or a number that follows and
  is not in the product's own name; nor a "+": "Galaxy S24+" is not the Galaxy S24);
* nor the words before it: a run right after a word of the product's name and a number
  its name does not hold names nothing, nor does the rest of it ("Pro XL" in "the Pixel 10
  Pro XL" is not the Pixel 9 Pro XL, nor is "XL").
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Final

from compose_response.known import Marked
from shared.products.ledger import LedgerIndex, LedgerProduct

COMMON: Final = frozenset(
    """a an and the of in on for with to by at or new my your our
    laptop laptops notebook computer pc desktop phone smartphone mobile tablet book novel
    edition series model version gen generation inch inches oled lcd wifi 5g 4g lte
    pro max plus ultra mini air lite slim go one se fe x s e neo core
    gaming business home student school work office travel creator
    black white silver gray grey blue green red gold pink purple
    paperback hardcover hardback ebook audiobook vol volume part
    chromebook ultrabook convertible touch screen display keyboard""".split()  # noqa: SIM905
)
"""Words common to many product names or to ordinary sentences: never a name alone."""

UNITS: Final = frozenset(
    """kb mb gb tb pb kib mib gib tib bit bits byte bytes mah ah wh kwh mwh w kw v mv
    hz khz mhz ghz mp mpx px ppi dpi fps nits nit db dba ms sec secs min mins hr hrs
    mm cm m km in inch inches ft feet yd oz lb lbs mg g kg ml cl l fl qt gal
    k p x gbps mbps kbps tops rpm pk pack pcs pc ct core cores thread threads""".split()  # noqa: SIM905
)
"""Units after an amount ("128 GB", "5000 mAh", "6.1-inch"): no name alone, nor an amount."""

_AMOUNT = re.compile(r"\d+(?:[.,]\d+)*(?:[-x\u00d7/]\d+(?:[.,]\d+)*)*(?:-?([^\W\d_]+))?")
_OPTION_TAIL = " - "

_ASIDE = re.compile(r"\([^()]*\)")
TOKEN = re.compile(r"[^\W_]+(?:[-'\u2019.][^\W_]+)*")
NAME_TOKEN = re.compile(r"[^\W_]+(?:[-'\u2019.][^\W_]+)*\+?")
"""A word of a name, with a "+" after it ("S24+", "razr+")."""
BETWEEN = re.compile(r"[ \u00a0\-]{1,3}")
_SENTENCE_START = re.compile(r"(?:^|[.!?:\n]\s*|[-*•]\s|\d[.)]\s)[\"'\u201c(*_]*$")
_LOWER_VARIANTS: Final = frozenset(
    "pro max plus ultra mini air lite se fe neo xl fold flip 5g".split()  # noqa: SIM905
)
"""Words after a model's number that name another variant of it ("galaxy s24 ultra"): a name
before one, in any case, is not read as the model without it."""
MAX_WORDS: Final = 8
"""The longest run of a name's words that is read as it."""


def word_tokens(text: str) -> list[re.Match[str]]:
    return list(TOKEN.finditer(text))


def amount(word: str) -> bool:
    """Whether ``word`` (case-folded) is an amount or a unit: "128", "gb", "128gb",
    "6.1-inch", "16x512", "4k". An amount is what many products have, never a name."""
    if word in UNITS:
        return True
    whole = _AMOUNT.fullmatch(word)
    return whole is not None and (whole.group(1) is None or whole.group(1) in UNITS)


def _folded(text: str) -> list[str]:
    return [m.group().casefold() for m in word_tokens(text)]


def spec_words(product: LedgerProduct) -> set[str]:
    words: set[str] = set()
    for value in (product.specs or {}).values():
        for item in value if isinstance(value, list) else [value]:
            if isinstance(item, str):
                words.update(_folded(item))
    return words


def _title(product: LedgerProduct, heads: dict[str, int]) -> str:
    """``product``'s name without its variant's options: "Samsung Galaxy S24 FE" of
    "Samsung Galaxy S24 FE - 256 GB, Mint" (the module docstring says when)."""
    head, joined, tail = product.name.rpartition(_OPTION_TAIL)
    if not joined or not _folded(head):
        return product.name
    if heads.get(head.casefold(), 0) > 1:
        return head  # its siblings: the same title, other options
    known = spec_words(product)
    if all(w in COMMON or w in known or amount(w) for w in _folded(tail)):
        return head
    return product.name


def strong(word: str) -> bool:
    """A word unlike an ordinary one: a digit, or a capital after its first letter."""
    return any(c.isdigit() for c in word) or any(c.isupper() for c in word[1:])


@dataclass(frozen=True)
class Named:
    """Where a product is named in words, and which."""

    start: int
    end: int
    product_id: str


class ProductNames:
    """The names of the known products, read in an answer."""

    def __init__(self, products: Iterable[LedgerProduct]) -> None:
        runs: dict[tuple[str, ...], set[str]] = {}
        whole: dict[tuple[str, ...], set[str]] = {}
        self._words: dict[str, frozenset[str]] = {}
        self._plus: dict[str, frozenset[str]] = {}
        """Each product's words written with a "+" after them ("S24+")."""
        self._brands: set[str] = set()
        products = list(products)
        heads: dict[str, int] = {}
        for product in products:
            head, joined, _ = product.name.rpartition(_OPTION_TAIL)
            if joined:
                heads[head.casefold()] = heads.get(head.casefold(), 0) + 1
        for product in products:
            words = [m.group() for m in word_tokens(product.name)]
            short = [m.group() for m in word_tokens(_ASIDE.sub(" ", product.name))]
            brand = [m.group() for m in word_tokens(product.brand or "")]
            self._brands.add(" ".join(brand).casefold())
            self._words[product.productId] = frozenset(w.casefold() for w in [*words, *brand])
            self._plus[product.productId] = frozenset(
                m.group().casefold()
                for m in NAME_TOKEN.finditer(product.name)
                if m.group()[-1] == "+"
            )
            # The words that can make a run name it: its title's, not its options' nor amounts.
            naming = {
                w
                for w in [*_folded(_title(product, heads)), *(w.casefold() for w in brand)]
                if w not in COMMON and not amount(w)
            }
            naming |= {_with_plus(w, self._plus[product.productId]) for w in naming}
            spellings = [words, short]
            for name in (words, short):
                if brand and [w.casefold() for w in name[: len(brand)]] != [
                    w.casefold() for w in brand
                ]:
                    spellings.append([*brand, *name])
                else:
                    spellings.append(name[len(brand) :])
            plus = self._plus[product.productId]
            for spelling in spellings:
                # "S24+" is a word of its own: the Galaxy S24+'s, never the Galaxy S24's
                folded = tuple(_with_plus(w.casefold(), plus) for w in spelling)
                # and its "+" said in words: "Galaxy S24 plus"
                for said in dict.fromkeys((folded, _worded(folded))):
                    whole.setdefault(said, set()).add(product.productId)
                    for size in range(1, min(len(said), MAX_WORDS) + 1):
                        for at in range(len(said) - size + 1):
                            run = said[at : at + size]
                            if naming.intersection(run):
                                runs.setdefault(run, set()).add(product.productId)
        self._runs = {run: ids for run, ids in runs.items() if self._may_name(run)}
        # A run two products share names the one whose whole name it is ("Pixel 9" beside
        # the "Pixel 9 Pro XL"), when only one is.
        for run, ids in whole.items():
            if run in self._runs and len(ids) == 1 and len(self._runs[run]) > 1:
                self._runs[run] = set(ids)
        self._longest = max((len(run) for run in self._runs), default=0)

    def _may_name(self, run: tuple[str, ...]) -> bool:
        return " ".join(run) not in self._brands

    def find(self, text: str) -> list[Named]:
        """Where ``text`` names a known product in words (the rules in the module docstring)."""
        tokens = word_tokens(text)
        found: list[Named] = []
        at = 0
        while at < len(tokens):
            named = self._longest_at(text, tokens, at)
            if named is None:
                at += 1
                continue
            size, product_id = named
            if product_id is None:
                at += size  # "Pro XL" of "Pixel 10 Pro XL": no part of another's name
                continue
            found.append(Named(tokens[at].start(), tokens[at + size - 1].end(), product_id))
            at += size
        return found

    def _longest_at(
        self, text: str, tokens: list[re.Match[str]], at: int
    ) -> tuple[int, str | None] | None:
        """The words from ``at`` on that name one product, and its id; its id None when
        they go on another model's name (:meth:`_goes_on`), which names nothing."""
        for size in range(min(self._longest, len(tokens) - at), 0, -1):
            words = tokens[at : at + size]
            if any(
                not BETWEEN.fullmatch(text[a.end() : b.start()])
                for a, b in itertools.pairwise(words)
            ):
                continue
            said = tuple(
                w.group().casefold() + ("+" if text.startswith("+", w.end()) else "") for w in words
            )
            ids = self._runs.get(said)
            if ids is None:
                continue
            if len(ids) > 1:
                return None  # shared by two products: not guessed, nor a shorter run of it
            product_id = next(iter(ids))
            if self._goes_on(text, tokens, at, product_id):
                return size, None
            ends = self._ends_there(text, tokens, at + size, product_id)
            if ends and (
                self._written_as_name(text, words)
                or self._a_model_in_lower_case(text, tokens, words, at + size)
            ):
                return size, product_id
            return None
        return None

    def _written_as_name(self, text: str, words: list[re.Match[str]]) -> bool:
        written = [w.group() for w in words]
        if any(not (w[0].isupper() or strong(w)) for w in written if w.casefold() not in COMMON):
            return False  # "the great thing" is not The Great Gatsby
        if len(written) > 1:
            return True
        word = written[0]
        if strong(word):
            return True
        return not _SENTENCE_START.search(text[: words[0].start()])

    @staticmethod
    def _a_model_in_lower_case(
        text: str, tokens: list[re.Match[str]], words: list[re.Match[str]], after: int
    ) -> bool:
        """Whether ``words`` are a model's name written in lower case, a word and a model's
        number ("hp 14", "the pixel 9", "galaxy s24"), not followed by another number that
        would make it another model's ("hp 14 2")."""
        written = [w.group() for w in words]
        if len(written) < 2 or not any(c.isdigit() for w in written for c in w):
            return False
        if not any(c.isalpha() for w in written for c in w):
            return False
        if after < len(tokens) and BETWEEN.fullmatch(text[words[-1].end() : tokens[after].start()]):
            following = tokens[after].group().casefold()
            if following[0].isdigit():
                return False
        return not text.startswith("+", words[-1].end())

    def _goes_on(self, text: str, tokens: list[re.Match[str]], at: int, product_id: str) -> bool:
        """Whether the words from ``at`` go on another model's name: right after a word of
        the product's name and a number it does not hold ("Pixel 10" before "Pro XL", of
        the Pixel 9 Pro XL; not "the 2024" before "MacBook Air")."""
        if at < 2:
            return False
        word, number, first = tokens[at - 2], tokens[at - 1], tokens[at]
        if text[word.end() : number.start()] != " " or text[number.end() : first.start()] != " ":
            return False
        said = number.group().casefold()
        if not any(c.isdigit() for c in said) or said in self._words[product_id]:
            return False
        return word.group().casefold() in self._words[product_id]

    def _ends_there(
        self, text: str, tokens: list[re.Match[str]], after: int, product_id: str
    ) -> bool:
        last = tokens[after - 1]
        if (
            text.startswith("+", last.end())
            and last.group().casefold() + "+" not in self._plus[product_id]
        ):
            return False  # "Galaxy S24+" is not the Galaxy S24
        if after >= len(tokens) or text[last.end() : tokens[after].start()] != " ":
            return True  # the end of the text, or punctuation: the name ends there
        following = tokens[after].group()
        if (
            following.casefold() == "plus"
            and f"{last.group().casefold()}+" not in (self._plus[product_id])
        ):
            return False  # "Galaxy S24 plus": the S24+ said in words, not the S24
        if text.startswith("+", tokens[after].end()):
            # "Galaxy S24+": a word of its with a "+", or more of another name
            return following.casefold() + "+" in self._plus[product_id]
        if following.casefold() in self._words[product_id]:
            return True  # a word of the same name, not read because the run stopped
        if following.casefold() in _LOWER_VARIANTS:
            return False  # "galaxy s24 ultra", in any case: another variant's name
        return not (following[0].isupper() or following[0].isdigit())


def _worded(words: tuple[str, ...]) -> tuple[str, ...]:
    """``words`` with each "+" after a word said as the word "plus" ("s24+": "s24 plus")."""
    return tuple(
        w for word in words for w in ((word[:-1], "plus") if word[-1:] == "+" else (word,))
    )


def _with_plus(word: str, plus: frozenset[str]) -> str:
    """``word`` of a name with the "+" the name writes after it ("s24" as "s24+")."""
    return f"{word}+" if f"{word}+" in plus else word


def mark_names(marked: Marked, text: str, index: LedgerIndex, keyed: LedgerIndex) -> str:
    """``text`` (``marked``'s, after its checks) with each product named in words as a
    mark of its own (:meth:`~compose_response.known.Marked.name`), added to ``keyed``, so
    that the fact check reads it as it reads a citation. ``index`` holds the products
    that can be named: those the session's tools returned that compose knows."""
    for found in reversed(ProductNames(index.values()).find(text)):
        mark = marked.name(text[found.start : found.end], found.product_id)
        if mark is None:
            continue
        keyed[mark] = index[found.product_id]
        text = f"{text[: found.start]}[{mark}]{text[found.end :]}"
    return text
