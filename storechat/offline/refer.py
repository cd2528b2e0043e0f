"""What a follow-up points at ("of those", "the second one", "cheaper ones"): the
products cited (``[productId]``) in the previous answer, each with the first price after it.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Final

from storechat.offline.product import to_number

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
    or left out when its name is not known: an id is no amount, title or word to read."""
    for product_id, name in names.items():
        for said in reversed(_said(text, product_id)):  # a name may hold its id
            text = f"{text[: said.start()]} {name} {text[said.end() :]}"
    return text


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
