"""From a :class:`SearchQuery` to what the engine runs: SQL filters, FTS5 text, a ranking.

A search that finds nothing is asked again with less (:data:`LEVELS`): first
without the search words; then without its limits (the price and the specs' bounds,
given or said: "under $200", "at least 64 GB RAM"), the products nearest them first (the
cheapest, the most RAM), of the kind asked for (a spec's bound said with a price first keeps
the spec's: the cheapest that meet it first); then without the filters the words
implied ("laptop" -> laptops, "on sale") but with the limits; then without the price
bounds too. Before the kind goes, "on sale" goes alone: "laptops on sale" in a store
with no discount are its laptops, told none is on sale, never whatever else it sells.
Words that name what the shopper wants (a product line or a brand the store
carries: "a MacBook under $500", "a Dell under $200") are the subject, not a detail: the
limits go first, and the products of that line or brand nearest them are the answer
(:data:`SUBJECT_LEVELS`). The result says what was dropped, and which limits the
products are nearest (``nearest``), so the model can tell the shopper ("nothing under
$200; the nearest is $249").
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass, field
from typing import Any

from shared.catalog.derive import fold, includes
from shared.catalog.specs import FORM_FACTOR
from shared.search.correct import TEXT_COLUMNS
from shared.search.query import BOUNDS, SECOND_SORT, SORTS, SearchQuery
from shared.search.schema import filter_token
from shared.search.words import (
    Words,
    any_of,
    fts_string,
    match_all,
    match_any,
    name_clause,
    parse,
)


@dataclass(frozen=True)
class Level:
    relaxed: tuple[str, ...]
    words_text: bool = True
    words_filters: bool = True
    price: bool = True
    limits: bool = True
    """False: no price nor spec bounds, the products nearest them first (:func:`nearest`)."""
    on_sale: bool = True
    """False: "on sale" in the words is no filter."""
    specs_first: bool = False
    """True: where specs' bounds and a price are both set, the specs' kept and the price
    dropped, the products nearest it first; otherwise the level before it again."""


LEVELS: tuple[Level, ...] = (
    Level(()),
    Level(("keywords",), words_text=False),
    Level(("keywords",), words_text=False, specs_first=True),
    Level(("keywords",), words_text=False, limits=False),
    Level(("keywords", "onSale"), words_text=False, on_sale=False),
    Level(("keywords", "onSale"), words_text=False, on_sale=False, limits=False),
    Level(("keywords", "onSale"), words_text=False, words_filters=False),
    Level(("keywords", "onSale", "price"), words_text=False, words_filters=False, price=False),
)
NO_WORDS_LEVELS: tuple[Level, ...] = (Level(()), Level((), limits=False))
SUBJECT_LEVELS: tuple[Level, ...] = (
    LEVELS[0],
    Level((), specs_first=True),
    Level((), limits=False),
    *LEVELS[1:],
)
"""For words that name a line or a brand: its products nearest the limits, before any
product without those words."""


@dataclass
class Plan:
    conditions: list[str] = field(default_factory=list)
    params: list[Any] = field(default_factory=list)
    match_all: str | None = None
    """FTS5 query for products with every search word (and the product name)."""
    match_any: str | None = None
    """FTS5 query for products with at least one search word (and the product name)."""
    rank_all: str | None = None
    """``match_all`` without the filter words, and ``rank_any`` ``match_any``: the same
    BM25 for each product the filters keep (a filter word's column weighs nothing), without
    reading every product of the category to weigh its word."""
    rank_any: str | None = None
    groups: int = 0
    category: str | None = None
    brand: bool = False
    boosts: dict[str, float] = field(default_factory=dict)
    """Named boosts (:data:`~shared.search.intents.BOOSTS`) and their weights."""
    sort: str | None = None
    understood: dict[str, Any] = field(default_factory=dict)
    nearest: dict[str, float] = field(default_factory=dict)
    """The limits dropped (``maxPrice``, ``minRamGb``...) with their values, in the order
    the products are nearest them: the first one's."""

    filter_words: list[str] = field(default_factory=list)
    """The selective categorical filters (category, brand) again, as FTS5 filter words:
    FTS5 intersects them with the search words before a row is read. Form factor and
    stock keep most of a category and would only slow the intersection."""

    def where(self, condition: str, *params: Any) -> None:
        self.conditions.append(condition)
        self.params.extend(params)

    def filter_words_for(self, kind: str, values: Collection[str]) -> None:
        tokens = " OR ".join(fts_string(filter_token(kind, v)) for v in values)
        self.filter_words.append(f"{{filters}} : ({tokens})")

    @property
    def has_text(self) -> bool:
        return self.match_any is not None


def nearest(limit: str) -> str:
    """The ``sortBy`` that puts first the products nearest a limit none of them met: for
    ``maxPrice`` the cheapest, for ``minRamGb`` the most RAM, for ``maxWeightKg`` the
    lightest."""
    if limit in ("minPrice", "maxPrice"):
        return "price" if limit == "maxPrice" else "price_desc"
    column, op = BOUNDS[limit]
    biggest_first = op == ">="
    for table in (SORTS, SECOND_SORT):
        for name, how in table.items():
            if how == (column, biggest_first):
                return name
    return "price"


def brands_named(said: Collection[str], brands: Collection[str]) -> list[str]:
    """The store's brands (casefolded, as the snapshot lists them) that a word of ``said``
    is a word of ("apple": "apple")."""
    folded = {fold(word) for word in said}
    return sorted(b for b in brands if folded & {fold(w) for w in b.split()})


def named_columns(category: str | None) -> str:
    """Where a name the shopper does not want is written: a product's name or brand, and
    for books their specs too (the author); never the prose of descriptions, nor other
    specs ("not a Pro" leaves out the Surface Pro, not each laptop with Windows 11 Pro)."""
    return "{name brand specs}" if category == "BOOKS" else "{name brand}"


def _leave_out(plan: Plan, words: Words, brands: Collection[str] | None) -> None:
    """What the shopper does not want, at every level: the lines said (no product whose
    text has a term of them) and the store's brands said ("not Apple or Samsung"), which
    ``understood`` gives as ``without``."""
    for terms in words.excluded:
        text = " OR ".join(fts_string(term) for term in terms)
        plan.where(
            "p.id NOT IN (SELECT rowid FROM fts WHERE fts MATCH ?)", f"{TEXT_COLUMNS} : ({text})"
        )
    keys = brands_named(words.unwanted, brands or ())
    if keys:
        plan.where(f"p.brand_key NOT IN ({', '.join('?' * len(keys))})", *keys)
    # Another name ("not a ThinkPad", "not Tolkien") is no product that is written with it.
    named = [fold(w) for w in words.unwanted if not brands_named([w], brands or ())]
    if named:
        text = " OR ".join(fts_string(word) for word in named)
        plan.where(
            "p.id NOT IN (SELECT rowid FROM fts WHERE fts MATCH ?)",
            f"{named_columns(plan.category)} : ({text})",
        )
    for terms in words.unwanted_genres:
        plan.where(
            "p.id NOT IN (SELECT rowid FROM fts WHERE fts MATCH ?)",
            f"{{specs tags}} : {any_of(terms)}",
        )
    if words.unwanted_ids:
        ids = words.unwanted_ids
        plan.where(f"p.product_id NOT IN ({', '.join('?' * len(ids))})", *ids)
    genres = [terms[0] for terms in words.unwanted_genres]
    said = [terms[0] for terms in words.excluded] + keys + named + genres
    if left_out := said + words.unwanted_named:
        plan.understood["without"] = left_out


def levels_for(
    query: SearchQuery, words: Words, brand_words: Collection[str] = ()
) -> tuple[Level, ...]:
    """How a query may relax: only its limits when it names products by id ("which of
    those is under $500?": none, and the nearest first); its limits before its words when
    they name a product line or a brand (a word of ``brand_words``, folded)."""
    if query.productIds or not query.keywords:
        return NO_WORDS_LEVELS
    return SUBJECT_LEVELS if names_subject(words, brand_words) else LEVELS


def names_subject(words: Words, brand_words: Collection[str]) -> bool:
    """Whether ``words`` name a product line, or a brand by a word of ``brand_words``."""
    return bool(words.lines) or any(fold(word) in brand_words for word in words.plain)


def explicit_fields(query: SearchQuery) -> dict[str, Any]:
    """The tool fields a word may not override (see :func:`~shared.search.words.parse`)."""
    return {
        "category": query.category,
        FORM_FACTOR.key: query.formFactor.casefold() if query.formFactor else None,
        "sortBy": query.sortBy,
    }


def make_plan(
    query: SearchQuery,
    level: Level,
    words: Words | None = None,
    brands: Collection[str] | None = None,
) -> Plan:
    """The plan for ``query`` at ``level``; ``brands`` (casefolded brand names in the
    snapshot) turns ``brandId``, a part of a brand name, into an indexed match."""
    explicit = explicit_fields(query)
    if words is None:
        words = parse(query.keywords, explicit) if query.keywords else Words()
    plan = Plan()
    derived = level.words_filters
    category = query.category or (words.category if derived else None)
    plan.category = category
    if category:
        plan.where("p.category = ?", category)
        plan.filter_words_for("cat", [category])
        if category != query.category:
            plan.understood["category"] = category
    forms: tuple[str, ...] = ()
    if explicit[FORM_FACTOR.key]:
        forms = includes(FORM_FACTOR, explicit[FORM_FACTOR.key])
    elif derived:
        forms = words.forms
    if forms:
        plan.where(f"p.form_factor IN ({', '.join('?' * len(forms))})", *forms)
        if not explicit[FORM_FACTOR.key]:
            plan.understood[FORM_FACTOR.key] = list(forms)
    if query.brandId:
        plan.brand = True
        part = query.brandId.strip().casefold()
        if brands is None:
            plan.where("instr(p.brand_key, ?) > 0", part)
        else:
            keys = sorted(b for b in brands if part in b) or [part]
            plan.where(f"p.brand_key IN ({', '.join('?' * len(keys))})", *keys)
            plan.filter_words_for("brand", keys)
    if query.os:
        plan.where("instr(p.os_key, ?) > 0", query.os.strip().casefold())
    _leave_out(plan, words, brands)
    # The products a price or a spec is said against are no answer to it, at every level:
    # "a book more expensive than Dune", with no book dearer, shows the nearest others,
    # never the hardcover Dune.
    if query.against_ids:
        ids = list(dict.fromkeys(query.against_ids))
        plan.where(f"p.product_id NOT IN ({', '.join('?' * len(ids))})", *ids)
    if query.against_line:
        plan.where("p.id NOT IN (SELECT rowid FROM fts WHERE fts MATCH ?)", query.against_line)
    if query.productIds:
        ids = list(dict.fromkeys(query.productIds))
        plan.where(f"p.product_id IN ({', '.join('?' * len(ids))})", *ids)
    if query.inStockOnly:
        plan.where("p.stock > 0")
    if derived and level.on_sale and words.on_sale:
        plan.where("p.compare_at_price > p.price")
        plan.understood["onSale"] = True
    prices: dict[str, float] = {}
    for name, given, said in (
        ("minPrice", query.minPrice, words.min_price),
        ("maxPrice", query.maxPrice, words.max_price),
    ):
        value = given if given is not None else said if derived else None
        if value is not None:
            prices[name] = value
    bounds = {**(words.bounds if derived else {}), **query.bounds}
    if not level.limits:
        # Spec bounds first: the spec a shopper names is what the nearest are nearest in.
        plan.nearest = {**bounds, **prices}
    elif level.specs_first and bounds and prices:
        # The specs a shopper names stand, and the price gives: "16 GB under $500" is the
        # cheapest with 16 GB, not the most memory at any price.
        plan.nearest = dict(prices)
    elif level.price:
        for name, value in prices.items():
            plan.where(f"p.price {'>=' if name == 'minPrice' else '<='} ?", value)
            if getattr(query, name) is None:
                plan.understood[name] = value
    if level.limits:
        for name, value in sorted(bounds.items()):
            column, op = BOUNDS[name]
            plan.where(f"p.{column} {op} ?", value)
            if name not in query.bounds:
                plan.understood[name] = value
    if derived and words.shown:
        plan.understood["howMany"] = words.shown  # "show me 2 laptops": for the model to show
    plan.sort = query.sortBy or (words.sort if derived else None)
    if plan.sort and not query.sortBy:
        plan.understood["sortBy"] = plan.sort
    if plan.nearest and not query.sortBy:
        plan.sort = nearest(next(iter(plan.nearest)))
    plan.boosts = dict(words.boosts)
    named = name_clause(query.productName) if query.productName else None
    groups = words.groups if level.words_text else []
    plan.groups = len(groups)
    if groups:
        # The words left to search once filters and orders took theirs, each as the
        # shopper wrote it: a model can tell what its keywords narrowed by.
        plan.understood["searched"] = [group[0] for group in groups]
        if lines := [group[0] for group in words.lines if group in groups]:
            # Every product found is of the lines named; the other words only rank.
            plan.understood["line"] = lines
    every = [part for part in (named, match_all(groups, words.lines) if groups else None) if part]
    some = [part for part in (named, match_any(groups, words.lines) if groups else None) if part]
    if some:  # words to search: FTS5 applies the categorical filters as it matches them
        plan.match_all = " AND ".join([*every, *plan.filter_words])
        plan.match_any = " AND ".join([*some, *plan.filter_words])
        plan.rank_all, plan.rank_any = " AND ".join(every), " AND ".join(some)
    return plan
