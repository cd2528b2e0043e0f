"""Answers about particular products: one the shopper named, two compared, one shown before.

A named product is the catalog product whose name has every word of the shopper's,
with the fewest words besides ("Galaxy S24" is the S24, not the S24 Ultra). If the
store carries it, it is the answer, with its stock (and when it is out of stock, the
nearest in stock: of its line or brand, a book's by its author, genre or subject); if
not, the answer says so and offers the closest of its line. A comparison names the
spec that decides it.
"""

from __future__ import annotations

from typing import Final

from shared.catalog.categories import Category
from shared.catalog.specs import AUTHOR, GENRE, PAGES
from storechat.offline.checks import Constraints, money, shortfalls
from storechat.offline.facts import FEATURES, LOWER_IS_BETTER, asked_first, priced, product_facts
from storechat.offline.names import ModelName, matches
from storechat.offline.notes import Line
from storechat.offline.product import Listed
from storechat.offline.vocabulary import BOOKS

CLOSEST_SHOWN: Final = 2
SUBJECT: Final = "subject"
"""What books in stock instead share with one that is not, when no author or genre is."""


def stock(p: Listed) -> str:
    if p.stock is None:
        return "in stock"
    return f"in stock ({p.stock:g} available)" if p.stock > 0 else "out of stock right now"


def the(name: str) -> str:
    """ "the Apple iPhone 15", but "The Hobbit"."""
    return name if name.lower().startswith("the ") else f"the {name}"


def card(p: Listed, first: tuple[str, ...] = (), *, pages: bool = True) -> str:
    """A product with its stock, price and key facts: what a shopper asking about it wants;
    a book's pages as the catalog lists them, unless ``pages`` is False (the book service
    gave its own)."""
    price = f", {priced(p)}" if p.price is not None else ""
    facts = product_facts(p, list(first), limit=3)
    if pages and p.category == BOOKS and (count := p.spec(PAGES.key)) is not None:
        facts.append(f"{count:g} pages")  # "How many pages is it?": the catalog says
    listed = f"; {', '.join(facts)}" if facts else ""
    return f"{p.name} [{p.product_id}]: {stock(p)}{price}{listed}"


def _cards(products: list[Listed]) -> list[Line]:
    """Products numbered, each a card; all but the first droppable."""
    return [Line(f"{n}. {card(p)}.", droppable=n > 1) for n, p in enumerate(products, 1)]


def _unmet(p: Listed, c: Constraints) -> list[Line]:
    missed = "; ".join(m.says for m in shortfalls(p, c))
    return [Line(f"It doesn't meet all you asked: {missed}.")] if missed else []


# What the products in stock instead share with one that is not, as the answer says it
# (the catalog tool's ``inStockInstead.sharing``); any other is said plainly.
_SHARING_HEAD: Final = {
    AUTHOR.key: "The nearest we have in stock, by the same author:",
    GENRE.key: "The nearest we have in stock, in the same genre ({genre}):",
    SUBJECT: "Nothing by the same author or in the same genre is in stock; on a similar subject:",
}


def _in_stock_instead(named: Listed, instead: list[Listed], sharing: str) -> list[Line]:
    """What the catalog tool offered in stock instead, in its order (the nearest first)."""
    others = [p for p in instead if p.in_stock and p.product_id != named.product_id]
    if not others:
        return [Line("Nothing close to it is in stock right now.")] if sharing else []
    head = _SHARING_HEAD.get(sharing, "The nearest we have in stock:")
    return [Line(head.format(genre=named.text(GENRE.key))), *_cards(others[:CLOSEST_SHOWN])]


def named_lines(
    model: ModelName,
    found: list[Listed],
    instead: list[Listed] | None,
    c: Constraints,
    sharing: str = "",
    *,
    pages: bool = True,
) -> list[Line]:
    """The answer about a product the shopper named: carried (with its stock) or not
    (with the closest the catalog search found for its name, the nearest model first).
    ``instead``: for one out of stock, what the catalog tool offered in stock instead
    (None: the others it found), and what they share with it (``sharing``); ``pages``:
    whether a book's card says the catalog's pages (not when the book service said its own)."""
    carried = matches(model, found)
    fitting = [p for p in carried if not shortfalls(p, c)]
    carried = fitting if len(fitting) == 1 else carried
    if len(carried) == 1:
        # "We carry the Dell XPS 13", but "We carry Circe": a title takes no article.
        named = card(carried[0], pages=pages)
        named = named if carried[0].category == BOOKS else the(named)
        lines = [Line(f"We carry {named}."), *_unmet(carried[0], c)]
        if not carried[0].in_stock:
            # What the tool offered in stock instead, else the others it found with it.
            near = found if instead is None else instead
            lines += _in_stock_instead(carried[0], near, sharing)
        return lines
    if carried:
        shown = "" if len(carried) <= 3 else "; the first 3"
        return [
            Line(f"We carry {len(carried)} models matching “{model.text}”{shown}:"),
            *_cards(carried[:3]),
        ]
    return [Line(f"Sorry, we don't carry {the(model.full_name)}."), *closest_lines(found)]


def closest_lines(found: list[Listed]) -> list[Line]:
    """The products in stock the search found closest to a name the store lacks."""
    others = [p for p in found if p.in_stock][:CLOSEST_SHOWN]
    return [Line("The closest we have:"), *_cards(others)] if others else []


def shown_one_lines(p: Listed | None, c: Constraints) -> list[Line]:
    if p is None:
        return [Line("I couldn't find that product in the catalog any more.")]
    # What was asked of it is said first: "does the second one come with Windows?"
    return [Line(f"That is {the(card(p, asked_first(c, p.category)))}."), *_unmet(p, c)]


# -- comparisons --------------------------------------------------------------------------------

# What decides a comparison: the feature, and how its winner is said.
_DECIDERS: Final = {
    "weight": "lighter",
    "price": "cheaper",
    "battery": "longer battery life",
    "ram": "more RAM",
    "storage": "more storage",
    "screen": "bigger screen",
    "camera": "higher-resolution camera",
}
_GENERAL: Final[dict[str, tuple[str, ...]]] = {
    Category.COMPUTERS: ("price", "weight", "battery", "ram"),
    Category.MOBILE: ("price", "camera", "battery", "storage"),
}


def _value_fact(p: Listed, feature: str) -> str:
    if feature == "price":
        return money(p.price) if p.price is not None else ""
    return next(iter(product_facts(p, [feature], limit=1)), "")


def _winner(a: Listed, b: Listed, feature: str) -> Listed | None:
    va, vb = FEATURES[feature](a), FEATURES[feature](b)
    if va is None or vb is None or va == vb:
        return None
    better_a = va < vb if feature in LOWER_IS_BETTER else va > vb
    return a if better_a else b


def compare_lines(a: Listed, b: Listed, sort_by: str | None) -> list[Line]:
    """Two products side by side, led by the spec the shopper asked about."""
    word = _DECIDERS.get(sort_by or "")
    lines = [Line("Here is how they compare:")]
    if sort_by and word:
        win = _winner(a, b, sort_by)
        lines = [Line(f"They are level on {sort_by}: neither is {word}.")]
        if win is not None:
            lose = b if win is a else a
            lines = [
                Line(
                    f"{word[0].upper()}{word[1:]}: {win.name} [{win.product_id}], "
                    f"{_value_fact(win, sort_by)} vs {_value_fact(lose, sort_by)} for "
                    f"{lose.name} [{lose.product_id}]."
                )
            ]
    for p in (a, b):
        first = [sort_by] if sort_by and word and sort_by != "price" else []
        facts = product_facts(p, first, limit=3)
        said = [*facts, *([money(p.price)] if p.price is not None else []), stock(p)]
        lines.append(Line(f"- {p.name} [{p.product_id}]: {', '.join(said)}."))
    if not word:
        wins = []
        for feature in _GENERAL.get(a.category, _GENERAL[Category.COMPUTERS]):
            if (win := _winner(a, b, feature)) is not None:
                wins.append(f"{_DECIDERS[feature]}: {win.name}")
        if wins:
            summary = "; ".join(wins)
            lines.append(Line(summary[0].upper() + summary[1:] + "."))
    return lines
