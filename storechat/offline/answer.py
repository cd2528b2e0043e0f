"""The final answer, written only from what the tools returned.

Each lookup is answered by its purpose (:class:`~storechat.offline.plan.Call`): a
search recommends the products that meet every stated constraint, or says none does
and offers the nearest with what differs; a product named is confirmed with its stock
from the search of the words that name it, or said not carried with the closest; two
named products are compared; products shown before are narrowed or sorted. What the
store does not do is said first.
"""

from __future__ import annotations

import re
from dataclasses import replace
from typing import Any, Final

from shared.catalog.categories import PLURALS, Category
from shared.catalog.derive import fold, sorted_on
from shared.catalog.specs import AUTHOR, FORM_FACTOR, GENRE, PAGES
from shared.search.asked import ASKED_ALONE, parts_beside_named, without_parts
from shared.search.series import name_words
from shared.search.words import cut_models, parse
from shared.text.languages import in_english
from storechat.offline.checks import (
    FEATURES,
    LOWER_IS_BETTER,
    MEASURE_OF,
    NEAREST_SHOWN,
    Constraints,
    Miss,
    asked_first,
    describe,
    facts_of,
    highlights,
    money,
    priced,
    product_facts,
    shortfalls,
    sift,
)
from storechat.offline.intent import COMPARE, Intent, ids_as_names, parse_text
from storechat.offline.messages import as_searched, ids_named, plain
from storechat.offline.notes import (
    ASK_REPLY,
    GREETING,
    OFFER,
    Line,
    book_line,
    failure_line,
    fit,
    reviews_line,
    service_line,
)
from storechat.offline.plan import Ask, Done
from storechat.offline.product import Listed, ModelName, matches, models_carried
from storechat.offline.store import (
    BOOK_INFO,
    BOOKS,
    COMPUTERS,
    FORM_PLURAL,
    LOOKUP,
    MOBILE,
    OS_CATEGORY,
    OS_LABEL,
    REVIEWS,
    SORT_PHRASE,
    USE_PHRASE,
    form_heads,
    systems_in,
)

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
    # A store's export may name the genre its own way ("Book Genre"): no "()" for it.
    genre = named.text(GENRE.key)
    head = head.format(genre=genre) if genre else head.replace(" ({genre})", "")
    return [Line(head), *_cards(others[:CLOSEST_SHOWN])]


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


MAX_ANSWER_CHARS: Final = 900
RECOMMENDED: Final = 3  # products recommended for one search, at most
_PRICES: Final = ("minPrice", "maxPrice")


def _noun(c: Constraints) -> str:
    if c.category == BOOKS and c.brand:
        return "titles"  # not "Penguin Books books"
    if c.forms and c.category != BOOKS:
        return " and ".join(FORM_PLURAL.get(f, f) for f in form_heads(c.forms))
    return PLURALS[Category(c.category)] if c.category else "products"


def _qualifiers(c: Constraints) -> str:
    """What narrows the noun: " for a student with at least 16 GB RAM under $800"."""
    text = ""
    if c.product_name:
        text += f" matching “{plain(c.product_name, 60)}”"
    if c.on_sale:
        text += " on sale"
    if c.use and c.category != BOOKS:
        text += f" {USE_PHRASE[c.use]}"
    specs = {k: v for k, v in c.bounds.items() if k not in _PRICES and k != "maxWeightKg"}
    if specs:
        text += " with " + " and ".join(describe(specs))
    if "maxWeightKg" in c.bounds:
        text += " weighing " + describe({"maxWeightKg": c.bounds["maxWeightKg"]})[0]
    if c.cheaper_than is not None:
        return text + f" cheaper than {money(c.cheaper_than)}"
    prices = describe({k: c.bounds[k] for k in _PRICES if k in c.bounds})
    # "phones priced at least $400", not "phones at least $400"
    return text + "".join(" " + p.replace("at least ", "priced at least ", 1) for p in prices)


def _describe(c: Constraints) -> str:
    parts = [c.brand or "", "/".join(OS_LABEL[s] for s in c.systems), _noun(c)]
    return " ".join(p for p in parts if p) + _qualifiers(c)


def _other_than(c: Constraints) -> str:
    return f" other than {' or '.join(c.without)}" if c.without else ""


def _relax(c: Constraints) -> str:
    options = []
    if (most := c.bounds.get("maxPrice")) is not None:
        options.append(f"raising the budget above {money(most)}")
    if any(k not in _PRICES for k in c.bounds):
        options.append("fewer requirements")
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


def _nearest(near: list[tuple[Listed, list[Miss]]], c: Constraints, of_those: bool) -> list[Line]:
    lines = [Line("The nearest of those:" if of_those else "The nearest we have:")]
    for n, (p, missed) in enumerate(near[:NEAREST_SHOWN], start=1):
        # What differs first; the price stays the first amount after the citation.
        facts = [f for f in facts_of(p, c) if not any(m.says.startswith(f) for m in missed)]
        said = "; ".join([*(m.says for m in missed), *([", ".join(facts)] if facts else [])])
        lines.append(Line(f"{n}. {p.name} [{p.product_id}]: {said}.", n > 1))
    return lines


def _heading(c: Constraints, of_those: bool) -> str:
    order = SORT_PHRASE.get(c.sort_by or "")
    in_order = f" ({order})" if order else ""
    if not of_those:
        # What was left out is said, so the shopper sees it was read ("other than Dell");
        # "Our", not "Best": no tool ranks the store's products by how good they are.
        return f"Our {_describe(c)}{_other_than(c)}{in_order}:"
    systems = "/".join(OS_LABEL[s] for s in c.systems)
    narrowed = _qualifiers(c) + (f" running {systems}" if systems else "")
    if narrowed:
        return f"Of those, the ones{narrowed}{in_order}:"
    return f"Of those, {order}:" if order else "Of those:"


def _unstated(shown: list[Listed], sort_by: str | None) -> str | None:
    """What the order asked ranks by, when none of ``shown`` states it ("weight")."""
    specs = sorted_on(sort_by)
    if not specs or any(p.amount(spec) is not None for p in shown for spec in specs):
        return None
    return specs[0].label


def product_section(
    products: list[Listed],
    c: Constraints,
    limit: int,
    *,
    of_those: bool = False,
    lead: str | None = None,
) -> list[Line]:
    """Products that meet every constraint, in the catalog tool's order (it sorts by the
    order asked); else none, and the nearest (the search gives the nearest to limits
    none meets)."""
    sifted = sift(products, c)
    lines: list[Line] = []
    if sifted.fits:
        shown = sifted.fits[:limit]
        unstated = _unstated(shown, c.sort_by)
        # An order none of them can be put in is not said as theirs.
        heading = _heading(replace(c, sort_by=None) if unstated else c, of_those)
        lines.append(Line(f"{lead}:" if lead else heading))
        if unstated:
            lines.append(Line(f"None of them lists its {unstated}: I can't order them by it."))
        lines += [
            Line(
                f"{n}. {p.name} [{p.product_id}]: {highlights(p, sifted.fits, c)}"
                f"{', '.join(facts_of(p, c))}.",
                droppable=n > 1,
            )
            for n, p in enumerate(shown, start=1)
        ]
    else:
        near = sifted.near
        if of_those:
            asked = [*describe(c.bounds), *(f"runs {OS_LABEL[s]}" for s in c.systems)]
            lines.append(Line(f"None of those in stock has all you asked ({', '.join(asked)})."))
        else:
            # A title the catalog has nothing of is not out of stock: "Dune"
            where = "in our catalog" if c.product_name and not products else "in stock"
            # Nothing else is what was left out: no advice would find more.
            relax = "" if near or c.without else f" {_relax(c)}"
            none = f"I couldn't find any {_describe(c)} {where}{_other_than(c)}.{relax}"
            lines.append(Line(none))
        if near:
            lines += _nearest(near, c, of_those)
    if sifted.out_of_stock:
        names = " and ".join(p.name for p in sifted.out_of_stock[:2])
        verb = "is" if len(sifted.out_of_stock) == 1 else "are"
        lines.append(Line(f"{names} would also fit but {verb} out of stock.", droppable=True))
    if sifted.wrong_os and sifted.fits:
        label = "/".join(OS_LABEL[s] for s in c.systems)
        lines.append(Line(f"I left out {sifted.wrong_os} that don't run {label}.", droppable=True))
    return lines


def constraints_for(done: Done, intent: Intent) -> Constraints:
    """The shopper's constraints on one lookup's results: its category and brand, and what
    the shopper stated. A search of the shopper's words is held to what the search reads
    in them (a follow-up's words first, then the earlier messages'), and to the limits the
    lookup gives itself; any other lookup to what ``intent`` says."""
    request = done.call.input
    understood = done.outcome.understood
    category = request.get("category") or understood.get("category") or _one_kind(done)
    category = category if category in (COMPUTERS, MOBILE, BOOKS) else None
    words = request.get("keywords")
    searched = done.call.purpose in ("search", "cheaper") and isinstance(words, str)
    # An id the search found a product by is that product's name, no amount or title
    ids = {p.product_id: p.name for p in _products(done)} | ids_named(done.outcome)
    said = ids_as_names(str(words), ids)
    read = parse_text(as_searched(said, done.outcome.corrected)) if searched else intent
    given = {k: float(v) for k, v in request.items() if k in MEASURE_OF and _is_number(v)}
    # A limit the search read and this model did not ("cheaper than the MacBook": under
    # $1,098.99, a cent below the cheapest MacBook) is said at the price it is against.
    # Of products shown, the limits are all the search's reading of the words with them,
    # those it kept or, none of them meeting all, those it shows the nearest to (or the
    # order alone the loop read in them)
    among = done.call.purpose == "shown" and bool({"keywords", "sortBy"} & set(request))
    nearest = (done.outcome.data or {}).get("nearestTo") if among else None
    found = {
        k: _at_price(k, float(v))
        for k, v in {**understood, **(nearest if isinstance(nearest, dict) else {})}.items()
        if k in MEASURE_OF and _is_number(v)
    }
    bounds = found | given if among else {**(found if searched else {}), **read.bounds, **given}
    brand, name = request.get("brandId"), request.get("productName")
    # Of makers the words name, the one asked ("what about Google?" after Samsung phones)
    makers = [b for b in read.brands if b in intent.brands] or read.brands
    if brand is None and searched and len(makers) == 1 and not understood.get("compared"):
        # the shopper's own words, as the search read them; not one side's of a comparison
        # ("Surface Laptop Go or Chromebook?": the Chromebooks are no Microsoft's)
        brand = makers[0]
    return Constraints(
        category=category,
        # A system is searched as words: with the words dropped, the products may run any;
        # a side of a comparison that says none runs any ("the Dell or the MacBook").
        systems=()
        if _dropped(done) or _a_side_runs_any(understood)
        else tuple(s for s in read.systems if category in (None, OS_CATEGORY[s])),
        use=read.use,
        sort_by=request.get("sortBy")
        or understood.get("sortBy")
        or (None if among else read.sort_by),
        favours=understood.get("favours"),
        brand=plain(brand, 40) if isinstance(brand, str) else None,
        product_name=name if isinstance(name, str) else None,
        # the kinds of computer the search read in the words ("2-in-1 laptops")
        forms=tuple(understood.get(FORM_FACTOR.key) or ()) if category in (None, COMPUTERS) else (),
        bounds={k: v for k, v in bounds.items() if category != BOOKS or k in _PRICES},
        cheaper_than=done.call.limit if done.call.purpose == "cheaper" else None,
        on_sale=bool(understood.get("onSale")),
        without=_as_said(understood.get("without"), str(words or intent.text)),
        refused=tuple(refused) if isinstance(refused := understood.get("refused"), dict) else (),
    )


def _at_price(field: str, limit: float) -> float:
    """A price limit a cent past a price (``maxPrice`` 1,098.99) as that price (1,099)."""
    cents = round(limit % 1, 2)
    if field == "maxPrice" and cents == 0.99:
        return round(limit + 0.01, 2)
    return round(limit - 0.01, 2) if field == "minPrice" and cents == 0.01 else limit


def _a_side_runs_any(understood: dict[str, Any]) -> bool:
    """Whether a side of a comparison the search made says no system ("the Dell")."""
    sides = understood.get("compared")
    return isinstance(sides, list) and not all(systems_in(str(side)) for side in sides)


def _as_said(left_out: object, text: str) -> tuple[str, ...]:
    """The words the search left out (folded: "hp"), as the shopper wrote them ("HP")."""
    words = [w for w in left_out if isinstance(w, str)] if isinstance(left_out, list) else []
    found = (re.search(rf"(?<!\w){re.escape(w)}\w*", text, re.IGNORECASE) for w in words)
    return tuple(m[0] if m else w for m, w in zip(found, words, strict=True))


def _is_number(value: object) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def _one_kind(done: Done) -> str | None:
    """The one category of all a search of words found ("anything by Tolkien": books)."""
    kinds = {p.get("category") for p in done.outcome.rows}
    return next(iter(kinds)) if len(kinds) == 1 and isinstance(next(iter(kinds)), str) else None


def _products(done: Done, seen: set[str] | None = None, field: str = "products") -> list[Listed]:
    """The products a lookup returned; ``seen``: ids an earlier section showed, left out;
    ``field``: ``inStockInstead`` for those it offered in stock instead."""
    data = done.outcome.data or {}
    raw = data.get("products") or []
    if field != "products":
        given = data.get(field)
        raw = given.get("products") or [] if isinstance(given, dict) else []
    # The category the lookup named, or the search read in its words: left out of each.
    read = done.outcome.understood.get("category")
    category = str(done.call.input.get("category") or read or "")
    parsed = (Listed.parse(item, position, category) for position, item in enumerate(raw))
    products = [p for p in parsed if p is not None and p.product_id not in (seen or ())]
    if seen is not None:
        seen.update(p.product_id for p in products)
    return products


def _restore(done: list[Done]) -> list[Done]:
    """Round 1's lookups with the products round 2 fetched again for them (``again``)."""
    restored = list(done)
    for item in done:
        if item.call.purpose == "again" and item.call.index < len(done):
            restored[item.call.index] = Done(done[item.call.index].call, item.outcome)
    return [d for d in restored if d.call.purpose != "again"]


def not_understood(done: Done) -> bool:
    """Whether a search of no kind of product found nothing its words asked for: the
    search read no kind in them and found nothing (or had to drop them). The shopper is
    asked what they mean."""
    data = done.outcome.data or {}
    request = done.call.input
    return (
        not request.get("category")
        and not request.get("brandId")
        and not done.outcome.understood.get("category")
        and (_dropped(done) or not data.get("products"))
    )


def _read(done: Done) -> bool:
    """Whether the search read words this model read nothing in: a kind, a line or a sale
    ("a cheep chromebok", "anything on sale?"), a slip it corrected ("the pixle 9 pro"), or
    a product's name ("any Fairphones?", "is 2004001 in stock?"). Else what it found for
    "is it any good?" answers nothing that was asked."""
    data, understood = done.outcome.data or {}, done.outcome.understood
    found = bool(data.get("products") and not data.get("relaxed"))
    names = [w for n in understood.get("named") or [] for w in re.findall(r"\w+", str(n))]
    searched = understood.get("searched") or []
    named = found and any(_names_have(data, said) for said in (searched, names))
    return bool(
        understood.get("category")
        or understood.get("line")
        or understood.get("onSale")
        or (found and done.outcome.corrected)
        or named
        or (found and _kinds_have(data, searched))
    )


_KINDS: Final = ("category", GENRE.key, FORM_FACTOR.key, "format")


def _kinds_have(data: dict[str, Any], searched: list[Any]) -> bool:
    """Whether each word searched names what every product found is filed under, its
    category, genre, form or format as the tool gives them: the kind whole, or its head
    noun (its last word) as the end of the word ("cookbooks": books; "hardcovers"), never
    a modifier ("coming" of "Coming-of-age fiction"); a kind this model has no word of,
    not words only a description has ("cancel", "cracked")."""
    products = [p for p in data.get("products") or [] if isinstance(p, dict)]
    if not searched or not products:
        return False

    def filed(product: dict[str, Any]) -> tuple[set[str], set[str]]:
        """The head nouns of its kinds (their last words) and its kinds whole."""
        specs = product.get("specs") if isinstance(product.get("specs"), dict) else {}
        values = (product.get(k, (specs or {}).get(k)) for k in _KINDS)
        kinds = [
            [fold(w) for w in re.findall(r"\w+", v.casefold())]
            for v in values
            if isinstance(v, str)
        ]
        return {k[-1] for k in kinds if k}, {"".join(k) for k in kinds if k}

    def names(word: str, product: dict[str, Any]) -> bool:
        heads, whole = filed(product)
        said = fold(word.casefold())
        # The kind's head noun ends the word ("cookbooks": books), never a modifier
        # ("coming" of "Coming-of-age fiction", "classic", "political").
        return said in whole or any(said.endswith(head) for head in heads if len(head) > 3)

    return all(names(str(word), p) for word in searched for p in products)


def _names_have(data: dict[str, Any], searched: list[Any]) -> bool:
    """Whether each word searched is in the name or brand of the first product found: the
    words named it ("Fairphones"), not only what its description says."""
    first = next(iter(data.get("products") or []), None)
    if not searched or not isinstance(first, dict):
        return False
    written = f"{first.get('name', '')} {first.get('brand', '')}".casefold()
    said = " ".join(fold(word) for word in re.findall(r"\w+", written))
    # a model token the search split ("8a" searched as "8 a") is the name's as written
    return all(
        fold(str(word).casefold()) in said
        or fold(str(word).casefold()).replace(" ", "") in said.split()
        for word in searched
    )


def _dropped(done: Done, what: str = "keywords") -> bool:
    """Whether the tool had to drop ``what`` ("keywords", "on sale") to find anything."""
    return what in ((done.outcome.data or {}).get("relaxed") or [])


def _words_dropped(done: Done) -> str | None:
    """The search words a lookup had to drop to find anything: those the catalog tool says
    no product has (``notInCatalog``), else those the search reads as words to search
    ("sci-fi" of "I'm looking for a good sci-fi novel"), else all it was sent."""
    data = done.outcome.data or {}
    words = done.call.input.get("keywords")
    if not isinstance(words, str) or not _dropped(done) or not data.get("products"):
        return None
    unknown = [w for w in data.get("notInCatalog") or [] if isinstance(w, str)]
    # A model said not wanted was left out, not searched ("not the Pixel 9 Pro XL").
    searched = [group[0] for group in parse(cut_models(words, models_carried)[0]).groups]
    return plain(" ".join(unknown or searched) or words, 60)


def corrections_line(lookups: list[Done]) -> Line | None:
    """What the search read instead of a misspelt word, as it said."""
    read = {wrong: right for d in lookups for wrong, right in d.outcome.corrected.items()}
    if not read:
        return None
    said = ", ".join(f"“{plain(k, 40)}” as “{plain(v, 40)}”" for k, v in read.items())
    return Line(f"I read {said}.", droppable=True)


def currency_line(lookups: list[Done]) -> Line | None:
    """That the shopper's amount was in another currency than the store's, which the
    catalog tool read as the store's without converting it (``currencySaid``)."""
    said = next((d.outcome.data.get("currencySaid") for d in lookups if d.outcome.data), None)
    if not isinstance(said, dict) or not said.get("said") or not said.get("store"):
        return None
    theirs, ours = plain(str(said["said"]), 8), plain(str(said["store"]), 8)
    return Line(f"Our prices are in {ours}: I read your amount in {theirs} as {ours}, unconverted.")


def _lookup_lines(ask: Ask, lookups: list[Done], pages: bool = True) -> list[Line]:
    intent, lines = ask.intent, []
    models = intent.products
    # A search of a product's name answers for it; a search of the words, for each they name.
    named = [
        Done(replace(d.call, index=n), d.outcome)
        for d in lookups
        if d.call.purpose in ("named", "names")
        for n in (range(len(models)) if d.call.purpose == "names" else [d.call.index])
        if n < len(models)
    ]
    pair = [matches(models[d.call.index], _products(d))[:1] for d in named]
    if intent.compare and len(pair) == 2 and all(pair):
        lines += compare_lines(pair[0][0], pair[1][0], intent.sort_by)
        named = []
    confirmed: set[str] = set()
    # A kind asked beside them has its own system and form ("the iPhone 15 and a cheap
    # Android phone": the iPhone is no Android phone that fell short).
    beside = any(d.call.purpose == "search" for d in lookups)
    # and its own limits ("the Pixel 9 and a cheap Android phone under $300")
    parts = parts_beside_named(ask.said, [m.text for m in models]) if beside else []
    own = parse(without_parts(ask.said, parts)).limits
    for d in named:
        c = constraints_for(d, ask.current)
        if beside:
            bounds = {k: v for k, v in c.bounds.items() if not parts or k in own}
            c = replace(c, systems=(), forms=(), bounds=bounds)
        # What the catalog tool offered in stock instead of it ("for" it), if anything:
        # a search naming two offers it for one of them alone
        offered = (d.outcome.data or {}).get("inStockInstead")
        offered = offered if isinstance(offered, dict) else {}
        model = models[d.call.index]
        ids = {p.product_id for p in matches(model, _products(d))}
        if offered.get("for") and offered["for"] not in ids:
            offered = {}
        near = _products(d, field="inStockInstead") if offered.get("products") else None
        sharing = str(offered.get("sharing") or ("none" if offered.get("for") else ""))
        # A product confirmed for one name is no closest to another ("the iPhone 15
        # and the iPhone 14": the 15 is said once).
        found = [p for p in _products(d) if p.product_id not in confirmed] or _products(d)
        # A model the store lacks is said as the search wrote it: "iPhone 14" of "iphnoe 14"
        lacked = (n for n in _not_carried(d) if n.casefold() == model.text.casefold())
        written = replace(model, text=next(lacked, model.text))
        lines += named_lines(written, found, near, c, sharing, pages=pages)
        confirmed |= {p.product_id for p in matches(model, found)}
    seen: set[str] = set()
    for d in lookups:
        purpose = d.call.purpose
        if purpose in ("search", "cheaper") and not _products(d) and _not_carried(d):
            # "a case for the iPhone 13": what is not carried is the answer, which a kind
            # not carried already closed with what the store sells.
            lines += [] if intent.not_carried else [Line(OFFER)]
        elif purpose == "search" and _dropped(d, "on sale") and not _read(d):
            # "anything on sale?": nothing is, and the rest of the catalog answers nothing
            lines += [Line("Nothing is on sale right now."), Line(OFFER)]
        elif purpose == "search" and intent.is_empty() and _not_carried(d) and not _read(d):
            # A title the store lacks ("Harry Potter and the Sorcerer's Stone"): the
            # products the search found sharing its words
            lines += closest_lines(_products(d)) or [Line(OFFER)]
        elif purpose == "search" and (not_understood(d) or (intent.is_empty() and not _read(d))):
            lines.append(Line(OFFER if _not_carried(d) else ASK_REPLY))
        elif purpose == "search" and (two := _two_named(ask, d) or _two_sides(ask, d)):
            # "which is cheaper, 7700352 or 7702400?": the two the search found by name or
            # id; "is the Dell cheaper than the MacBook Air?": one of each side
            lines += compare_lines(*two, ask.current.sort_by)
        elif purpose in ("search", "cheaper"):
            if _dropped(d, "on sale"):
                lines.append(Line("Nothing of that is on sale right now; without the discount:"))
            # What the store does not carry, said already, is why the words were dropped.
            elif (dropped := _words_dropped(d)) and not (_not_carried(d) or intent.not_carried):
                lines.append(Line(f"Nothing in the catalog matched “{dropped}”, so without it:"))
            lines += _refused_lines(d)
            asked = ((d.outcome.data or {}).get("understood") or {}).get("howMany")
            limit = asked if isinstance(asked, int) and asked > 0 else RECOMMENDED - bool(seen)
            products, c = _products(d, seen), constraints_for(d, intent)
            lines += product_section(products, c, limit)
            lines += _more_on_sale(d, products, c, limit)
        elif purpose == "shown":
            lines += _shown_lines(ask, d)
        elif purpose == "instead" and intent.not_carried and _products(d):
            # Only the stated limits: "tablets" asked for no form or system of laptop.
            sort_by = d.outcome.understood.get("sortBy")
            c = replace(constraints_for(d, intent), systems=(), forms=(), use=None, sort_by=sort_by)
            lead = f"The closest we have are {intent.not_carried.instead}"
            lines += product_section(_products(d), c, RECOMMENDED, lead=lead)
    return lines


def _more_on_sale(done: Done, products: list[Listed], c: Constraints, limit: int) -> list[Line]:
    """How many more the catalog tool counts on sale than the answer lists ("any deals?"
    in a store with 8 on sale, 3 listed): "5 more are on sale; ask to see them.". Its
    ``count`` "8+" is at least 8: "At least 5 more ...". Said only when each product it
    returned is one the answer would list, so its count is of those."""
    count = (done.outcome.data or {}).get("count")
    if not c.on_sale or _dropped(done, "on sale") or not products:
        return []
    said = str(count) if _is_number(count) or isinstance(count, str) else ""
    at_least, total = said.endswith("+"), said.removesuffix("+")
    fits = sift(products, c).fits
    if not total.isdigit() or len(fits) < len(products):
        return []
    more = int(total) - min(limit, len(fits))
    if more <= 0:
        return []
    many = f"At least {more}" if at_least else f"{more}"
    one = more == 1 and not at_least
    verb, them = ("is", "it") if one else ("are", "them")
    return [Line(f"{many} more {verb} on sale; ask to see {them}.", droppable=True)]


def _refused_lines(done: Done) -> list[Line]:
    """What the search left out as first in an order the shopper said not to want ("a laptop
    but not the cheapest one"): "Leaving out the cheapest, the HP Chromebook 14a."."""
    refused = done.outcome.understood.get("refused")
    said = [
        f"the {SORT_PHRASE[order].removesuffix(' first')}, {' and '.join(map(the, names))}"
        for order, names in (refused.items() if isinstance(refused, dict) else ())
        if order in SORT_PHRASE and names
    ]
    return [Line(f"Leaving out {', and '.join(said)}.")] if said else []


def _book_pages(done: Done) -> bool:
    """Whether the book service's first book (the one the answer describes) has pages."""
    books = [b for b in (done.outcome.data or {}).get("results") or [] if isinstance(b, dict)]
    return bool(books and books[0].get(PAGES.key))


def _two_named(ask: Ask, done: Done) -> tuple[Listed, Listed] | None:
    """The two products a search of words asking to compare found first, when they are the
    two the words name (``understood``'s ``named``)."""
    named = done.outcome.understood.get("named")
    products = _products(done)[:2]
    if not (COMPARE.search(ask.said) and isinstance(named, list) and len(named) == 2):
        return None
    # each the product of its name, as the catalog names it or as the shopper did
    # ("pixel 8a": the Google Pixel 8a)
    if len(products) == 2 and all(
        n == p.name or _names(str(n), p) for n, p in zip(named, products, strict=True)
    ):
        return products[0], products[1]
    return None


def _two_sides(ask: Ask, done: Done) -> tuple[Listed, Listed] | None:
    """The first product of each side of the comparison a search read (``understood``'s
    ``compared``), where a side names a model or the words ask which is more ("is a Dell
    better than a MacBook?"); makers said alone ("Dell or HP laptops?") are a list of each."""
    understood = done.outcome.understood
    sides = understood.get("compared")
    if not (isinstance(sides, list) and len(sides) == 2):
        return None
    if not (understood.get("named") or re.search(r"\bthan\b", in_english(ask.said), re.I)):
        return None
    products = _products(done)
    a, b = (next((p for p in products if _names(str(s), p)), None) for s in sides)
    return (a, b) if a is not None and b is not None and a is not b else None


def _names(said: str, p: Listed) -> bool:
    """Whether every word of ``said`` is in ``p``'s brand and name."""
    words = re.findall(r"\w+", f"{p.brand} {p.name}".casefold())
    return set(re.findall(r"\w+", said.casefold())) <= set(words)


def _shown_lines(ask: Ask, done: Done) -> list[Line]:
    products = _products(done)
    c = constraints_for(done, ask.current)
    if ask.reference is not None and ask.reference.kind in ("one", "it", "cheapest"):
        return shown_one_lines(products[0] if products else None, c)
    by_ids = ask.reference is not None and ask.reference.kind == "ids"
    if by_ids and len(products) == 2 and COMPARE.search(ask.said):
        return compare_lines(products[0], products[1], ask.current.sort_by)
    return product_section(products, c, RECOMMENDED, of_those=True)


def _not_carried(done: Done) -> list[str]:
    """The names asked for that the catalog tool says no product has (``notCarried``)."""
    said = (done.outcome.data or {}).get("notCarried") or []
    return [plain(n, 40) for n in said if isinstance(n, str)] if isinstance(said, list) else []


def _one_of(name: str, models: tuple[ModelName, ...]) -> bool:
    """Whether ``name`` is one of the products the answer names, each in its own section."""
    words = set(name_words(name, brackets=True))
    read = (set(name_words(m.text, brackets=True)) for m in models)
    return any(words <= each or each <= words for each in read)


def _as_named(name: str, said: str) -> str:
    """A name not carried as the answer writes it: "huawei" before "phones" is a brand,
    Huawei; "kayaks" asked for alone is a kind, as written; a name after "by" is an
    author's or a maker's ("anything by Stephen King")."""
    if re.search(rf"\bby\s+{re.escape(name)}\b", said, re.IGNORECASE):
        return f"anything by {name}"
    alone = ASKED_ALONE.search(said)
    as_written = alone and name in (alone[2], f"{alone[1]} {alone[2]}")
    return name if as_written or not name.islower() else name[:1].upper() + name[1:]


def _scope_lines(ask: Ask, lookups: list[Done]) -> list[Line]:
    intent = ask.intent
    kind = intent.not_carried
    # A product named and not carried is said by its own section, with the closest.
    names = dict.fromkeys(
        name
        for d in lookups
        for name in _not_carried(d)
        if not ((kind and kind.said.search(name)) or _one_of(name, intent.products))
    )
    lines = [Line(f"Sorry, we don't carry {_as_named(n, ask.said)}.") for n in names]
    if kind:
        instead = [d for d in lookups if d.call.purpose == "instead"]
        close = bool(instead and _products(instead[0]))
        tail = "" if close else " I can help you find computers, phones and books."
        lines.append(Line(f"Sorry, we don't carry {kind.name}.{tail}"))
    return lines


def compose_answer(ask: Ask, done: list[Done]) -> str:
    """The final answer, built only from what the tools returned."""
    intent = ask.intent
    done = _restore(done)
    lookups = [d for d in done if d.call.name == LOOKUP and d.outcome.data is not None]
    # A book's pages once: the book service's, else the catalog's
    pages = not any(
        d.call.name == BOOK_INFO and d.outcome.failure is None and _book_pages(d) for d in done
    )
    lines = _scope_lines(ask, lookups) + _lookup_lines(ask, lookups, pages)
    if (read := corrections_line(lookups)) and any(n.text not in (ASK_REPLY, OFFER) for n in lines):
        lines.insert(0, read)  # not before a question back: nothing was answered as read
    if money := currency_line(lookups):
        lines.insert(0, money)
    for d in done:
        if d.outcome.failure is None and d.call.name == REVIEWS:
            lines.append(Line(reviews_line(d.outcome)))
        elif d.outcome.failure is None and d.call.name == BOOK_INFO:
            lines.append(Line(book_line(d.outcome)))
    for d in done:
        if d.outcome.failure is not None:
            lines.append(Line(failure_line(d.outcome, catalog_ok=bool(lookups))))
    if intent.service:
        lines.append(Line(service_line(intent.service)))
    if not lines:
        lines.append(Line("I have nothing from my tools to answer with. " + GREETING))
    return fit(lines, MAX_ANSWER_CHARS)
