"""Search a snapshot: ranked full text over the products, filtered and sorted by facets.

Ranking. With search words, products are ranked by FTS5's BM25 (name and brand
weigh most), multiplied up by the specs the words' uses care about
(:mod:`~shared.search.intents`); a sold-out product loses a quarter of its
relevance. Products with every word come first; when fewer than ``limit`` have
them all, the best of those with some fill the rest. With ``sortBy`` (given, or
implied by "cheap"), the products with every word (or, if none has them all,
with any) are sorted by it instead, in-stock first. Without words, the filters
are sorted the same way (:mod:`~shared.search.sorting`) by ``sortBy``, by the
spec the words' uses preferred, or cheapest first.

Spelling. A word of the keywords that matches nothing is corrected against the
snapshot's own words before the search is planned (:mod:`~shared.search.correct`);
the result says what was corrected. A format 1 snapshot has no words to correct
against: its searches run as written.

Cost. A word search looks at the first ``examine`` products its words match,
in row order (a hash of the product id, so a fair sample of the catalog); a
word as broad as "battery" in a 200,000-product catalog then answers from a
sample, and its ``count`` is a lower bound. BM25, about half a microsecond per
product, is computed for at most ``rank_window`` of those that pass the
filters. Counting stops at ``count_cap``. Sorts walk the facet's index and stop
at ``limit``; a sort on a facet the category lacks is skipped.

Threads. Each thread gets its own read-only connection (``immutable=1``: the
file never changes under a reader; a newer snapshot is a new file).
"""

from __future__ import annotations

import functools
import itertools
import os
import re
import threading
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from shared.catalog.categories import Category
from shared.catalog.derive import WORD, fold
from shared.catalog.specs import FORM_FACTOR
from shared.search.asked import (
    asked_names,
    kinds_apart,
    name_asked_alone,
    parts_beside_named,
    sides_compared,
    without_parts,
)
from shared.search.build import SnapshotMeta, read_meta
from shared.search.correct import Corrector
from shared.search.driver import connect, database_errors, read_only_uri
from shared.search.errors import SnapshotUnreadable
from shared.search.ids import HANDLES_FORMAT
from shared.search.ids import resolve as resolve_ids
from shared.search.intents import (
    ASKING_WORDS,
    BOOST_COLUMNS,
    BOOST_ORDER,
    BOOSTS,
    LINE_TERMS,
    STOP_WORDS,
)
from shared.search.listing import Listing
from shared.search.named import Named, line_words, named_in
from shared.search.plan import (
    LEVELS,
    Plan,
    brands_named,
    explicit_fields,
    levels_for,
    make_plan,
    named_columns,
)
from shared.search.query import (
    BOUNDS,
    KINDS,
    SECOND_SORT,
    SORTS,
    Hit,
    SearchQuery,
    SearchResult,
    bound_on,
)
from shared.search.schema import filter_token
from shared.search.series import closest_first, name_words
from shared.search.sorting import HIT_COLUMNS, Order, Sorter, hit, order_by, where
from shared.search.unsold import Asked, unsold_in, without_unsold
from shared.search.variants import names_product, without_options
from shared.search.words import (
    MODEL_WORDS,
    Words,
    against_order,
    cased_as_carried,
    costs_less_as_cheaper,
    cut_models,
    degree_words,
    fts_string,
    less_degrees,
    match_all,
    may_name,
    models_written_apart,
    name_clause,
    name_clause_within,
    names_a_kind,
    names_written_apart,
    negated_before,
    numbers_in_words,
    parse,
    parser_words,
    priced_against,
    priced_against_lacked,
    respell,
    without_degrees,
    without_priced_against,
    without_unwanted,
)
from shared.text.languages import in_english

COLUMN_WEIGHTS = "10.0, 6.0, 1.0, 2.0, 1.0, 0.0"  # name, brand, description, specs, tags, filters
COUNT_CAP = 1000
RANK_WINDOW = 1000
EXAMINE = 5_000
_FTS_JOIN = "fts CROSS JOIN products AS p ON p.id = fts.rowid"
NAMES_EXAMINED = 200
"""The names of a model's matches looked through for the model itself, at most."""
_COMPARED_BY = (
    (
        re.compile(
            r"\b(?:cheaper|pricier|dearer|(?:more|less)\s+expensive|more\s+affordable)\b", re.I
        ),
        "price",
    ),
    (re.compile(r"\blighter\b", re.I), "weight"),
)
"""What a comparison compares, and the order each side is searched in: "is the iPhone 15
cheaper than a Galaxy?" is answered by the cheapest Galaxy, "which is lighter, the MacBook
Air or a Dell?" by the lightest Dell, not the most relevant."""
_NEGATED = re.compile(
    r"\b(?:not|no|never|without|except|but|other\s+than|rather\s+than|instead\s+of|avoid)\b|"
    r"n['\u2019]?t\b",
    re.IGNORECASE,
)
_SENTENCE_END = re.compile(r"[.!?](?:\s|$)")
_ARTICLES = frozenset({"the", "a", "an"})
_TITLE_RUN = re.compile(
    r"[A-Z][\w'-]*(?:\s+(?:(?:of|the|and|a|an|in|on|to|for|with|at)\s+)*[A-Z0-9][\w'-]*)*"
)
"""Capitalised words, with the small words a title has between them ("The Lord of the
Rings")."""
NEAREST_NAMED = 2
"""How many of the nearest models of its series stand first for a name the store lacks."""
RELAXED_BRANDS = "relaxedBrands"
"""``understood``'s makers asked for that no product shown is of, none of theirs meeting
what was asked, as the catalog writes them (``["Samsung"]`` of "an HP or Samsung tablet")."""
TIED_MOST = 5
"""The most products tied first in an order said not wanted that are left out ("not the
cheapest book": the five at $8.99); with more, none is first."""


class SearchIndex:
    """A snapshot opened for searching; safe to share between threads."""

    def __init__(self, path: str | os.PathLike[str]) -> None:
        self.path = Path(path)
        self._uri = read_only_uri(self.path)
        self._local = threading.local()
        self._lock = threading.Lock()
        self._connections: dict[threading.Thread, Any] = {}
        """Each thread's connection: a warm Lambda has one; a local run starts a thread
        for every tool call, so the connection of a thread that has ended is closed."""
        self._closed = False
        try:
            db = self._connection()
            self.meta: SnapshotMeta = read_meta(db)
            self._presence = {
                (str(c), str(f)): int(n)
                for c, f, n in db.execute("SELECT category, facet, products FROM category_facets")
            }
            self.brands = [str(b) for (b,) in db.execute("SELECT DISTINCT brand_key FROM products")]
            self.brand_words = frozenset(fold(part) for b in self.brands for part in b.split())
            """Each word of a brand name, folded: a search word that is one names a brand."""
            self.categories = {c for c, f in self._presence if f == "*"}
            # A format 1 snapshot has no words to correct against, and lists nothing.
            self.spelling = self.meta.format_version >= 2
            self.listing = Listing(self._connection, available=self.spelling)
        except database_errors(LookupError, ValueError) as exc:  # also: no or a bad meta row
            self.close()
            raise SnapshotUnreadable(f"{self.path.name}: {exc}") from exc

    @classmethod
    def open(cls, path: str | os.PathLike[str]) -> SearchIndex:
        return cls(path)

    def _connection(self) -> Any:
        connection = getattr(self._local, "connection", None)
        if connection is None:
            with self._lock:
                if self._closed:
                    raise SnapshotUnreadable(f"{self.path.name}: closed")
                for ended in [t for t in self._connections if not t.is_alive()]:
                    self._connections.pop(ended).close()
                connection = connect(self._uri)
                # Read through the page cache instead of copying pages per connection.
                connection.execute("PRAGMA mmap_size = 268435456")
                connection.execute("PRAGMA query_only = 1")
                self._connections[threading.current_thread()] = connection
            self._local.connection = connection
        return connection

    def close(self) -> None:
        with self._lock:
            self._closed = True
            for connection in self._connections.values():
                connection.close()
            self._connections.clear()

    @functools.cached_property
    def forms(self) -> frozenset[str]:
        """The kinds of product the catalog has (``formFactor`` values), read when first
        asked: only a message asking for a kind the store may not sell needs them."""
        rows = self._connection().execute("SELECT DISTINCT form_factor FROM products")
        return frozenset(str(f) for (f,) in rows if f)

    @functools.cached_property
    def spelled_ids(self) -> bool:
        """Whether some product's id cannot be cited as it is written ("XPS 13/16/512",
        with a space): only then are runs of a shopper's words tried as ids. Read when
        first asked, from the handles those ids have (:mod:`~shared.search.ids`)."""
        if self.meta.format_version < HANDLES_FORMAT:
            return False
        row = self._connection().execute("SELECT 1 FROM handles LIMIT 1").fetchone()
        return row is not None

    def has_facet(self, category: str | None, column: str) -> bool:
        """Whether products of ``category`` (any, when None) may have ``column``."""
        if category is None or column == "price":
            return True
        return self._presence.get((category, column), 0) > 0

    def facet_count(self, category: str, column: str) -> int:
        """How many products of ``category`` have ``column`` (``price``: all of them)."""
        if column == "price":
            return self._presence.get((category, "*"), 0)
        return self._presence.get((category, column), 0)

    def search(
        self,
        query: SearchQuery,
        *,
        count_cap: int = COUNT_CAP,
        rank_window: int = RANK_WINDOW,
        examine: int = EXAMINE,
    ) -> SearchResult:
        """Answer ``query``; relax it (see :mod:`~shared.search.plan`) when nothing matches."""
        try:
            search = _Search(self, self._connection(), count_cap, rank_window, examine)
            return search.run(query)
        except database_errors() as exc:
            raise SnapshotUnreadable(f"{self.path.name}: {exc}") from exc

    def resolve(self, asked: Sequence[str]) -> dict[str, str]:
        """Each of ``asked`` (ids as a model writes them) that names a product, with that
        product's id (:mod:`~shared.search.ids`)."""
        try:
            return resolve_ids(self._connection(), asked, self.meta.format_version)
        except database_errors() as exc:
            raise SnapshotUnreadable(f"{self.path.name}: {exc}") from exc

    def corrections(self, query: SearchQuery) -> dict[str, str]:
        """What a search for ``query`` reads instead of its misspelt words, without
        searching: ``{"labtop": "laptop"}``."""
        try:
            search = _Search(self, self._connection(), COUNT_CAP, RANK_WINDOW, EXAMINE)
            words = parse(query.keywords, explicit_fields(query)) if query.keywords else Words()
            return search.corrections(query, words)
        except database_errors() as exc:
            raise SnapshotUnreadable(f"{self.path.name}: {exc}") from exc


@dataclass(frozen=True)
class _Search:
    """One search on one connection: at most ``cap`` matches counted, ``window`` of them
    ranked, and the words' matches looked through up to the ``examine``-th
    (:meth:`_horizon`)."""

    index: SearchIndex
    db: Any
    cap: int
    window: int
    examine: int
    horizons: dict[str, int | None] = field(default_factory=dict)
    """Each text's :meth:`_horizon`, once found: the levels of a relaxed search often
    search the same words again (with a price, then without it)."""

    def run(self, query: SearchQuery) -> SearchResult:
        """``query``'s products, or where its words ask for a kind the store does not sell
        (:mod:`~shared.search.unsold`) and the table names a nearer kind, that kind's; where
        they ask for more than one kind (:func:`~shared.search.asked.kinds_apart`), the
        first kind's, or the kinds' of the parts that name products (whose names the search
        puts first), the other parts of the words in ``understood``'s ``alsoAsked``."""
        if query.keywords and not (query.productName or query.productIds):
            against = self._priced_against(query)
            if against is not query and against.keywords != query.keywords:
                result = self.run(against)
                bounds = {
                    bound: getattr(against, bound)
                    for bound in ("minPrice", "maxPrice", "sortBy")
                    if getattr(against, bound) != getattr(query, bound)
                }
                bounds |= {k: v for k, v in against.bounds.items() if query.bounds.get(k) != v}
                understood = {**result.understood, **bounds}
                if query.category is None and against.category is not None:
                    understood = {"category": Category(against.category), **understood}
                return replace(result, understood=understood)
            said, lacked = self._ids_said(query.keywords)
            if said:
                return self._by_ids(query, said)
            if lacked:
                # "CMP-999" in a store whose ids are "CMP-001"...: an id it does not have.
                result = self._words(query)
                return replace(result, not_carried=[*lacked, *result.not_carried])
        result = self._words(query)
        if not result.count and query.keywords:
            # "Do you have 1984?": a title the catalog writes in words ("Nineteen Eighty-Four")
            spelled, numbers = numbers_in_words(query.keywords)
            again = self._words(replace(query, keywords=spelled)) if numbers else result
            # Only the products whose names write a number so: its title, not every name
            # with a "four" in it.
            hits = [h for h in again.products if any(_writes(h.name, n) for n in numbers)]
            if hits and not again.relaxed:
                return replace(again, products=hits, count=len(hits), count_is_exact=True)
        return result

    def _priced_against(self, query: SearchQuery) -> SearchQuery:
        """``query`` with a price said against products the catalog names ("cheaper than
        the XPS 13", "more expensive than the Inspiron 14") as a limit below the cheapest of
        them or above the dearest, and their kind when none is asked; ``query`` itself when
        the words say none, or name no products of one kind."""
        assert query.keywords is not None
        # Read as English: "ein Handy günstiger als das Pixel" is cheaper than the Pixel
        words = costs_less_as_cheaper(in_english(query.keywords))
        said = priced_against(words, self._models_carried, self._one_product, self._a_number)
        if said is None:
            return query
        # A number alone is the product whose whole name it is ("1984": Nineteen Eighty-Four)
        name = self._number_named(said["name"]) or said["name"]
        before, after = words[: said.start()], words[said.end() :]
        ends = _SENTENCE_END.search(after)
        here, later = (after[: ends.end()], after[ends.end() :]) if ends else (after, "")
        # The kind asked with it ("a phone cheaper than the XPS 13"), not an earlier
        # message's, whose words a follow-up's come before.
        asked = query.category or parse(f"{_SENTENCE_END.split(before)[-1]} {here}").category
        # The products whose name it is, their options aside: a store's variants of one
        # ("Dune - Paperback" and "Dune - Hardcover"; "iPad - 64 GB / Blue" and "iPad - 256
        # GB"), priced against the cheapest or the dearest of them. A line's products ("the
        # MacBook") are priced, not named.
        hits = self._variants_named(name)
        line: str | None = None  # the line's products, which no answer is
        if (
            hits
            or self._models_carried(f"the {name}")
            or " " in name.strip()
            or self._a_title(name)
        ):
            hits = hits or self._named_exactly(SearchQuery(productName=name, limit=5), name)
            prices = [hit.price for hit in hits if hit.price is not None]
            kinds = {hit.category for hit in hits}
        else:
            # A line of one kind ("the MacBook", "the Pixel"): cheaper than every product
            # of it. A name of several kinds' ("the Galaxy": phones, tablets, laptops) is a
            # family, as a brand is, and no one product to price against.
            by_kind = self._line_prices(name)
            kinds = set(by_kind) if len(by_kind) == 1 else set()
            prices = [price for k in kinds for price in by_kind[k]]
            line = self._line_clause(name) if kinds else None
        # What it is said against is no answer to it, first or relaxed: "a book more
        # expensive than Dune" with none dearer shows the nearest others, not a Dune.
        ids = tuple(hit.productId for hit in hits)
        # The kind asked stands; else the model's, else an earlier message's.
        kind = asked or (kinds.pop() if len(kinds) == 1 else parse(f"{before} {after}").category)
        if later:
            # The sentences after are an earlier message's: its own price against a product
            # gives way to this one (in one sentence, they are a range), and all of it where
            # it asks for another kind ("anything cheaper than the MacBook? a phone...").
            other = parse(later).category not in (None, kind)
            later = (
                ""
                if other
                else without_priced_against(
                    later, self._models_carried, self._one_product, self._a_number
                )
            )
        rest = f"{before} {here}{later}"
        order = against_order(said)
        if order not in ("price", "price_desc") and (said["no"] or negated_before(before)):
            return query  # "not lighter than the MacBook Air": no limit the tool can say
        if order not in ("price", "price_desc"):
            # "lighter than the MacBook Air": a limit on that spec past the named products'
            limit = self._spec_past(order, hits, kind) if kind else None
            if limit is None or kind is None:
                return query
            cut = replace(query, keywords=" ".join(rest.split()), category=kind)
            cut = replace(cut, against_ids=ids, against_line=line)
            bound, value = limit
            # An order said in words comes first: "which is cheapest? . laptops lighter than
            # the XPS 13" is the cheapest of them.
            sort = query.sortBy or (None if parse(rest).sort else order)
            return replace(cut, bounds={**query.bounds, bound: value}, sortBy=sort)
        if not prices or kind is None:
            return query
        cheaper = order == "price"
        if said["no"] or negated_before(before):
            # "no more expensive than the iPhone 15": at most its price, "not cheaper": at least
            low, high = (max(prices), None) if cheaper else (None, min(prices))
        elif cheaper:
            # Cheaper than each of them ("the MacBook Air": the 13 and the 15)
            low, high = None, round(min(prices) - 0.01, 2)
        else:
            low, high = round(max(prices) + 0.01, 2), None
        cut = replace(query, keywords=" ".join(rest.split()), category=kind)
        cut = replace(cut, against_ids=ids, against_line=line)
        if low is not None:
            if query.maxPrice is not None and low > query.maxPrice:
                # The latest message's price said against one stands: "more expensive than
                # the iPhone 15" after "cheaper than the iPhone 15", searched with it.
                return cut
            return replace(
                cut, minPrice=low if query.minPrice is None else max(query.minPrice, low)
            )
        assert high is not None
        if query.minPrice is not None and high < query.minPrice:
            return cut
        return replace(cut, maxPrice=high if query.maxPrice is None else min(query.maxPrice, high))

    def _both_sides(self, query: SearchQuery) -> tuple[SearchResult | None, list[str]]:
        """Where the words compare makers or lines, or one with a model ("Dell vs MacBook
        Air", "a Samsung or Apple phone", "is a Dell better than a MacBook?", "Dell, HP or
        Lenovo"), each side's products in turn, each side searched with the others' words
        but its names (a brand said alone, that brand's products): ranked together, one
        side's fill the results. None where something is not wanted, they name a model on
        each side (the search of names finds both), name no maker on one, ask no kind or an
        order, or one side's words find nothing of it; then, with it, the makers said alone
        on a side that finds nothing of what was asked ("HP" of "an HP or Samsung phone"),
        as the catalog writes them: the words searched whole find no product of theirs."""
        assert query.keywords is not None
        said = sides_compared(query.keywords)
        if (
            said is None
            or without_unwanted(query.keywords).split() != query.keywords.split()
            or _NEGATED.search(said.left)
        ):
            return None, []  # "not Apple or Samsung", "not the XPS or a MacBook" compare nothing
        # A list before the last side is a side each ("Dell, HP, or Lenovo"), where each
        # names a maker, or each a line; else the words before the last side are one
        listed = [*(p.strip() for p in said.left.split(",") if p.strip()), said.right]
        sides = listed if self._a_list(listed) else [said.left, said.right]
        models = [self._models_carried(side) for side in sides]
        if len([n for n in self._names_in(query.keywords) if n.carried]) > 1 or not all(
            m or self._names_a_maker(s) for s, m in zip(sides, models, strict=True)
        ):
            return None, []
        # The kind asked of all ("Dell or HP laptops"); with none ("Samsung or Apple"),
        # makers of several kinds, or an order asked ("the cheapest Dell or HP"), which
        # lists in turn would not keep, the words are searched whole; a comparison's own
        # order ("which is lighter, ...") is each side's.
        whole = parse(query.keywords)
        # The kind said, else the one the lines and models named are of ("Samsung Galaxy
        # S24 vs a Pixel": phones)
        named = [kinds for kinds in map(self._line_kinds, sides) if kinds]
        of_lines = set.intersection(*named) if named else set()
        kind = query.category or whole.category or (of_lines.pop() if len(of_lines) == 1 else None)
        english = in_english(query.keywords)
        order = next((key for said, key in _COMPARED_BY if said.search(english)), None)
        if kind is None or query.sortBy or (parse(" ".join(sides)).sort and order is None):
            return None, []
        said_of_all = [self._without_names(side) for side in [*sides, said.around]]
        asked = [
            " ".join([side, *(w for n, w in enumerate(said_of_all) if n != at)])
            for at, side in enumerate(sides)
        ]
        # The form read of all ("Dell vs MacBook Air": laptops, not Dell's desktops)
        form = query.formFactor or (whole.forms[0] if whole.forms else None)
        found = [
            self._run(
                replace(
                    query,
                    keywords=" ".join(words.split()),
                    category=kind,
                    formFactor=form,
                    brandId=query.brandId or self._one_brand(side),
                    sortBy=order,
                )
            )
            for side, words in zip(sides, asked, strict=True)
        ]
        if any(r.relaxed or not r.products for r in found):
            # A maker said alone on a side that has nothing of it: no product of theirs is
            # found once the words are searched whole ("HP or Samsung phones": Samsung's)
            lacking = [
                self._brand_written(brand)
                for side, r in zip(sides, found, strict=True)
                if (r.relaxed or not r.products) and (brand := self._one_brand(side))
            ]
            return None, lacking
        together = _in_turn(found, query.limit)
        return replace(
            together,
            understood={
                "category": Category(kind),
                **({FORM_FACTOR.key: list(whole.forms)} if whole.forms else {}),
                **together.understood,
                "compared": [self._names_said(side) for side in sides],
            },
            ranked_by="relevance",
        ), []

    def _one_brand(self, side: str) -> str | None:
        """The one brand ``side`` names, with no model of it ("Dell", "Acer Chromebook"; not
        "Dell XPS 13"): each side's products are that maker's."""
        if self._models_carried(side):
            return None
        brands = {b for w in WORD.findall(side) for b in brands_named([w], self.index.brands)}
        return brands.pop() if len(brands) == 1 else None

    def _names_a_maker(self, side: str) -> bool:
        """Whether ``side`` names a brand or a product line the catalog carries."""
        return any(self._is_brand(w) for w in WORD.findall(side)) or any(
            self._a_line(w) for w in WORD.findall(side)
        )

    def _a_list(self, parts: list[str]) -> bool:
        """Whether ``parts`` are a list of sides: each names a maker, or each a line and no
        maker ("Pixel, iPhone or Galaxy"; not "Chromebook, HP or Acer", Chromebooks of each)."""
        brands = [any(self._is_brand(w) for w in WORD.findall(part)) for part in parts]
        return all(map(self._names_a_maker, parts)) and len(set(brands)) == 1

    def _a_line(self, word: str) -> bool:
        """Whether ``word`` names a product line: one the table knows ("iPhone") or the
        catalog's names have ("Pixel", "Surface")."""
        return bool(parse(word).lines) or bool(self._line_kinds(word))

    def _line_kinds(self, side: str) -> set[str]:
        """The kinds of product every line word of ``side`` names ("Pixel": phones;
        "Galaxy": phones and laptops); none where it names none, or no kind they share."""
        # A number is no line ("13 or 14 inch", "the iPhone 15 or the 16")
        words = [w for w in WORD.findall(side) if not any(c.isdigit() for c in w)]
        kinds = [set(self._line_prices(w)) for w in words if self._one_model(w)]
        return set.intersection(*kinds) if kinds else set()

    def _names_said(self, side: str) -> str:
        """The brands, lines and models ``side`` names, as written ("Dell", "MacBook Air")."""
        models = self._models_carried(side)
        rest = self._without_names(side, named=True)
        return " ".join([*models, rest]).strip()

    def _without_names(self, side: str, *, named: bool = False) -> str:
        """``side`` without the brands, lines and models it names: the words said of both;
        ``named``: only its brands and lines."""
        for model in self._models_carried(side):
            side = side.replace(model, " ")
        words = [w.strip(",.?!") for w in side.split()]
        # A line after a brand is said of both ("HP or Acer Chromebook"), not its name
        branded = any(self._is_brand(w) for w in words)
        return " ".join(
            w for w in words if named == (self._is_brand(w) or (self._a_line(w) and not branded))
        )

    def _one_model(self, word: str) -> bool:
        """Whether one ``word`` names a model or a line the catalog carries ("Legion",
        "MacBook", "Pixel"), not a brand ("than Apple" compares with a whole maker) nor a
        word the search reads as a kind or a spec ("the laptop", though one is named
        "Surface Laptop")."""
        if self._is_brand(word):
            return False
        # Said as the shopper says it, after "the": a word alone is read as no model.
        # "the Ultra" of several makers' models is no line ("Pro", "Max", "Plus" neither)
        return bool(self._models_carried(f"the {word}")) or (
            may_name(word) and word.casefold() not in MODEL_WORDS and self._a_name(word.casefold())
        )

    def _one_product(self, word: str) -> bool:
        """Whether one ``word`` names a model or a line (:meth:`_one_model`), a book, or
        a store's variants of one product (:meth:`_variants_named`: "Dune" of "Dune -
        Paperback" and "Dune - Hardcover")."""
        return self._one_model(word) or self._a_title(word) or bool(self._variants_named(word))

    def _variants_named(self, said: str) -> list[Hit]:
        """The products whose name is ``said``, their variant's options, articles and
        maker's name aside (:func:`~shared.search.variants.names_product`): "Dune - Paperback"
        and "Dune - Hardcover" for "Dune", "iPad - 64 GB / Blue" and "iPad - 256 GB" for
        "iPad". Looked for among the first :data:`NAMES_EXAMINED` products whose names have
        its words, in one indexed query."""
        clause = name_clause(said)
        if clause is None or not self._may_name(said):
            return []
        sql = (
            "SELECT p.id, p.name, p.brand FROM products AS p WHERE p.id IN "
            "(SELECT rowid FROM fts WHERE fts MATCH ? LIMIT ?)"
        )
        rows = self.db.execute(sql, (clause, NAMES_EXAMINED)).fetchall()
        return self._hits([int(i) for i, name, brand in rows if names_product(said, name, brand)])

    def _in_a_name(self, said: str) -> bool:
        """Whether the words of ``said`` stand in a row in the name of a product."""
        clause = name_clause(said)
        if clause is None:
            return False
        wanted = WORD.findall(said.casefold())
        for name, _ in self._names_matching(clause, NAMES_EXAMINED):
            words = WORD.findall(name.casefold())
            if any(words[i : i + len(wanted)] == wanted for i in range(len(words))):
                return True
        return False

    def _a_title(self, said: str) -> bool:
        """Whether ``said`` is the whole title of a book the catalog carries, articles
        aside ("Alchemist" of "The Alchemist", "Animal Farm")."""
        clause = name_clause(said)
        if clause is None:
            return False
        clause += f" AND {{filters}} : {fts_string(filter_token('cat', Category.BOOKS))}"
        wanted = [w for w in WORD.findall(said.casefold()) if w not in _ARTICLES]
        titles = (WORD.findall(name.casefold()) for name, _ in self._names_matching(clause, 5))
        return any([w for w in t if w not in _ARTICLES] == wanted for t in titles)

    def _number_named(self, said: str) -> str | None:
        """The name of the product whose whole name, articles and a variant's options aside,
        is the number ``said``, in digits or in words ("1984": "Nineteen Eighty-Four"; "1984
        - Paperback": "1984"); None for a number that is no product's name (an amount:
        "cheaper than 500")."""
        if not said.isdigit():
            return None
        for written in dict.fromkeys([said, numbers_in_words(said)[0]]):
            clause = name_clause(written)
            wanted = re.findall(r"[^\W_]+", written.casefold())
            for name, _ in self._names_matching(clause, 20) if clause else []:
                # A store's variants of it too: "1984 - Paperback" is 1984
                title = without_options(name)
                words = [w for w in re.findall(r"[^\W_]+", title.casefold()) if w not in _ARTICLES]
                if words == wanted:
                    return title
        return None

    def _a_number(self, said: str) -> bool:
        """Whether the number ``said`` is a product's whole name (:meth:`_number_named`)."""
        return self._number_named(said) is not None

    def _titled(self, said: str) -> bool:
        """Whether ``said`` names a book the catalog carries by its title, capitalised as
        a title is ("Do you have Animal Farm")."""
        return any(self._a_title(run) for run in _TITLE_RUN.findall(said))

    def _spec_past(self, order: str | None, hits: list[Hit], kind: str) -> tuple[str, float] | None:
        """The spec bound past every product of ``hits`` in the way ``order`` ranks, where
        the catalog tool has a bound that way and they have the spec; else None. Past them
        upward, it is the next value a product of ``kind`` has ("more storage than the
        Galaxy A15", 128 GB: at least 256 GB), or just past theirs when none has more (none
        is found, and the nearest are shown as such); downward, just under them ("lighter
        than the MacBook Air": under 1.23 kg)."""
        ranked = [SORTS.get(order or ""), SECOND_SORT.get(order or "")]
        for column, biggest in (each for each in ranked if each is not None):
            values = [
                float(v) for hit in hits if isinstance(v := hit.specs.get(column), int | float)
            ]
            bound = bound_on(column, at_least=biggest)
            if not (bound and values):
                continue
            if not biggest:
                return bound, round(min(values) - 0.01, 2)
            (above,) = self.db.execute(
                f"SELECT MIN({column}) FROM products WHERE category = ? AND {column} > ?",
                (kind, max(values)),
            ).fetchone()
            return bound, float(above) if above is not None else round(max(values) + 0.01, 2)
        return None

    @staticmethod
    def _line_clause(word: str) -> str | None:
        """The FTS5 query for the products whose names have ``word``, no book ("the Pixel",
        not a novel called "Pixel"): a line's products."""
        clause = name_clause(word)
        if clause is None:
            return None
        return f"{clause} NOT {{filters}} : {fts_string(filter_token('cat', Category.BOOKS))}"

    def _line_prices(self, word: str) -> dict[str, tuple[float, float]]:
        """The lowest and highest price of the products whose names have ``word``, by
        category; no book's ("the Pixel", not a novel called "Pixel")."""
        clause = self._line_clause(word)
        if clause is None:
            return {}
        rows = self.db.execute(
            f"SELECT p.category, min(p.price), max(p.price) FROM {_FTS_JOIN}"
            " WHERE fts MATCH ? AND p.price IS NOT NULL GROUP BY p.category",
            (clause,),
        )
        return {str(kind): (float(low), float(high)) for kind, low, high in rows}

    def _words(self, query: SearchQuery) -> SearchResult:
        lacking: list[str] = []
        if query.keywords and not (query.productName or query.productIds):
            parts = kinds_apart(query.keywords, self._titled)
            # One kind a search: the first part's, or those naming products ("the iPhone 15
            # and a laptop with 16GB RAM": the iPhone 15; a book by its title too), the
            # others' words said for the model.
            naming = [p for p in parts if self._names_in(p) or self._titled(p)]
            if parts and (not naming or len(naming) < len(parts)):
                searched = naming or parts[:1]
                first = self.run(replace(query, keywords=" and ".join(searched)))
                others = [p for p in parts if p not in searched]
                return replace(first, understood={**first.understood, "alsoAsked": others})
            compared, lacking = self._both_sides(query)
            if compared is not None:
                return compared
        return self._makers_let_go(self._kinds_sold(query), lacking)

    def _kinds_sold(self, query: SearchQuery) -> SearchResult:
        """``query``'s products, or where its words ask for a kind the store does not sell,
        the nearer kind's (:meth:`run`)."""
        unsold = self._unsold(query)
        if not unsold:
            return self._of_a_title(query, self._run(query))
        shown = next((a for a in unsold if a.kind.instead), None)
        result = None
        dropped: list[str] = []
        let_go = False
        if shown and query.keywords:
            instead = self._instead(query, shown)
            makers = self._makers_said(query, shown)
            nearer = self._run(instead)
            if makers and nearer.count and not nearer.relaxed:
                # "a Samsung tablet": the maker's products of the nearer kind, where it
                # makes any; "an HP or Samsung tablet": those of each maker that makes any,
                # and the others said let go; where none makes any, that kind's of any
                # maker, and ``relaxed`` says the maker was let go (the products are no
                # Samsung's)
                each = [self._of_makers(instead, maker) for maker in makers]
                kept = [m for m, found in zip(makers, each, strict=True) if found is not None]
                dropped = [
                    self._brand_written(m)
                    for m, found in zip(makers, each, strict=True)
                    if found is None
                ]
                if kept:
                    theirs = [found for found in each if found is not None]
                    nearer = self._makers_together(instead, kept, theirs)
                let_go = not kept
            # What the words asked, read from them: the limits and the order
            read = {
                "minPrice": instead.minPrice if query.minPrice is None else None,
                "maxPrice": instead.maxPrice if query.maxPrice is None else None,
                "sortBy": instead.sortBy if query.sortBy is None else None,
                **{k: v for k, v in instead.bounds.items() if k not in query.bounds},
            }
            said = {k: v for k, v in read.items() if v is not None}
            nearer = replace(nearer, understood={**nearer.understood, **said})
            # Only products of the nearer kind within what was asked stand for it: a store
            # may have none ("a Samsung tablet under $400": no 2-in-1 at $849 instead).
            result = nearer if nearer.count and not nearer.relaxed else None
        if result is None:
            shown, result, dropped = None, self._others_asked(query, unsold), []
        names = [a.kind.name for a in unsold]
        # "headphones" asked alone is the kind's, said once by the kind's name.
        others = [n for n in result.not_carried if not any(a.kind.said.search(n) for a in unsold)]
        return self._makers_let_go(
            replace(
                result,
                not_carried=[*names, *others],
                instead=shown.kind.instead if shown else None,
                relaxed=[*result.relaxed, "brand"] if let_go and shown else result.relaxed,
            ),
            dropped,
        )

    def _of_makers(self, query: SearchQuery, makers: str) -> SearchResult | None:
        """``query``'s products of the ``makers`` said ("hp", "hp samsung"), searched with
        their words; None where it finds none of theirs."""
        found = self._run(replace(query, keywords=f"{makers} {query.keywords}"))
        ours = all(brands_named(makers.split(), [fold(hit.brand)]) for hit in found.products)
        return found if found.count and not found.relaxed and ours else None

    def _makers_together(
        self, query: SearchQuery, makers: list[str], found: list[SearchResult]
    ) -> SearchResult:
        """The products of several makers (``found``: each one's), in turn ("an HP or
        Samsung tablet": HP's first, then Samsung's...), or in the order asked where one is
        (the cheapest of all of them first: their words searched together)."""
        if len(found) > 1 and any(each.ranked_by != "relevance" for each in found):
            together = self._of_makers(query, " ".join(makers))
            if together is not None:
                return together
        return _in_turn(found, query.limit)

    def _makers_said(self, query: SearchQuery, unsold: Asked) -> list[str]:
        """The store's makers the words ask for, beside a kind it does not sell ("Samsung"
        of "the cheapest Samsung tablet", "HP" and "Samsung" of "an HP or Samsung tablet"),
        each as written; none said not wanted, nor a ``brandId`` the query already holds."""
        if query.brandId or not query.keywords:
            return []
        said = re.sub(re.escape(unsold.words), " ", query.keywords, count=1, flags=re.I)
        words = WORD.findall(without_unwanted(said))
        # The words of one maker's name are one maker: "Western Digital"
        makers: dict[tuple[str, ...], list[str]] = {}
        for word in (w for w in words if self._is_brand(w)):
            makers.setdefault(tuple(brands_named([word], self.index.brands)), []).append(word)
        return [" ".join(dict.fromkeys(said)) for said in makers.values()]

    def _brand_written(self, maker: str) -> str:
        """The maker said (``maker``: "samsung") as the catalog writes its brand ("Samsung"),
        where its words are one brand's; else as said."""
        keys = brands_named(maker.split(), self.index.brands)
        row = (
            self.db.execute(
                "SELECT brand FROM products WHERE brand_key = ? LIMIT 1", (keys[0],)
            ).fetchone()
            if len(keys) == 1
            else None
        )
        return str(row[0]) if row and row[0] else maker

    @staticmethod
    def _makers_let_go(result: SearchResult, makers: list[str]) -> SearchResult:
        """``result`` with ``makers`` asked for (as the catalog writes them) that it has no
        product of, because none of theirs meets what was asked, in ``understood``'s
        ``relaxedBrands``: "an HP or Samsung tablet" shows HP's 2-in-1 laptops, and
        Samsung let go; "a Samsung tablet", any maker's, with ``relaxed`` saying ``brand``."""
        said = [*makers, *result.understood.get(RELAXED_BRANDS, [])]
        shown = [h.brand.casefold() for h in result.products]
        dropped = [m for m in dict.fromkeys(said) if not brands_named(m.split(), shown)]
        understood = _without(result.understood, RELAXED_BRANDS)
        if dropped:
            understood[RELAXED_BRANDS] = dropped
        if understood == result.understood:
            return result
        return replace(result, understood=understood)

    def _of_a_title(self, query: SearchQuery, result: SearchResult) -> SearchResult:
        """A book asked for by its title and nothing else ("Do you have Animal Farm?") is
        followed by books only, not a phone whose description has "AniMe"."""
        if not query.keywords or query.productName or query.productIds:
            return result
        runs = (run.split() for run in _TITLE_RUN.findall(query.keywords))
        # a sentence's first word is written with a capital too: "Is Animal Farm in stock?"
        tails = (" ".join(run[i:]) for run in runs for i in range(min(2, len(run))))
        titles = [tail for tail in tails if self._a_title(tail)]
        if not titles or not _for_names_alone(result, titles):
            return result
        books = [hit for hit in result.products if hit.category == Category.BOOKS]
        return (
            result
            if books == result.products
            else replace(result, products=books, count=len(books))
        )

    @staticmethod
    def _instead(query: SearchQuery, unsold: Asked) -> SearchQuery:
        """The search of the kind shown instead of one the store does not sell: that kind,
        under the limits and in the order the words ask ("a cheap tablet under $600": the
        cheapest 2-in-1 laptops under $600), else the kind's own ("a camera": the phones
        with the best camera). The shopper's other words are no filter on a kind they did
        not ask for: "a camera for vlogging" is not the one phone whose text says it."""
        assert query.keywords is not None and unsold.kind.instead is not None
        # the words without the kind's: "about 2-in-1 laptops" would be about $2
        said = parse(re.sub(re.escape(unsold.words), " ", query.keywords, count=1, flags=re.I))
        return replace(
            query,
            keywords=unsold.kind.instead,
            minPrice=query.minPrice if query.minPrice is not None else said.min_price,
            maxPrice=query.maxPrice if query.maxPrice is not None else said.max_price,
            bounds={**said.bounds, **query.bounds},
            sortBy=query.sortBy or said.sort,
        )

    def _ids_said(self, keywords: str) -> tuple[dict[str, str], list[str]]:
        """The products the words name by their id, as the store writes it on its pages
        ("is 21KC0001US in stock?", "CMP-001", an ISBN a bookshop's id): each word that may
        be an id (:func:`_may_be_id`) and no word of a product's name, that is a product's
        id, in any case, with that id; and those that are written as its ids are but are
        none ("CMP-999")."""
        spans = self.index.resolve(_spans(keywords)) if self.index.spelled_ids else {}
        if spans:
            # An id with a space in it ("XPS 13/16/512") is one id, not its words.
            keywords = re.sub("|".join(map(re.escape, spans)), " ", keywords)
        said = [w for w in _ID_WORD.findall(keywords) if _may_be_id(w)]
        if any(w.isdigit() for w in said):
            # A number the words put a limit on is an amount: "a laptop under 10000".
            amounts = {f"{v:g}" for v in parse(keywords).limits.values()}
            said = [w for w in said if not (w.isdigit() and f"{float(w):g}" in amounts)]
        said = [w for w in said if not self._has_name(w)]
        found = self.index.resolve(said) if said else {}
        for word in said:
            if word not in found and sum(c.isdigit() for c in word) >= _CODE_DIGITS:
                # A code only one product's specs hold (an ISBN, a barcode) names it too.
                # Written with hyphens ("978-0-441-17271-9"), a code is held without them.
                code = word.replace("-", "") if re.fullmatch(r"[\d-]+", word) else word
                coded = self._relaxed(SearchQuery(keywords=code, limit=2), parse(code))
                if coded.count == 1 and not coded.relaxed and coded.products:
                    found[word] = coded.products[0].productId
        # An id cited as a model cites ("[CMP-999]") is no shopper's word: the citation
        # check answers for it.
        uncited = set(_ID_WORD.findall(_CITED.sub(" ", keywords)))
        lacked = [w for w in said if w not in found and w in uncited and self._like_an_id(w)]
        return {**spans, **found}, lacked

    def _like_an_id(self, word: str) -> bool:
        """Whether ``word`` is written as the store writes its ids: its letters and the
        mark after them start some product's id ("CMP-999" where "CMP-001" is one)."""
        prefix = _ID_PREFIX.match(word)
        if prefix is None:
            return False
        start = prefix[0].casefold()
        row = self.db.execute(
            "SELECT 1 FROM products WHERE lower(product_id) >= ? AND lower(product_id) < ? LIMIT 1",
            (start, start + "\U0010ffff"),
        ).fetchone()
        return row is not None

    def _by_ids(self, query: SearchQuery, said: dict[str, str]) -> SearchResult:
        """The products the words name by id first, then what the rest of the words ask
        for ("compare CMP-001 with the MacBook Air"); the names of the products named by
        id are ``understood``'s ``named``."""
        ids = tuple(dict.fromkeys(said.values()))
        found = self._run(replace(query, keywords=None, productIds=ids))
        placed = {pid: n for n, pid in enumerate(ids)}
        first = sorted(found.products, key=lambda hit: placed.get(hit.productId, len(ids)))
        rest = query.keywords or ""
        if spaced := [key for key in said if " " in key]:
            rest = re.sub("|".join(map(re.escape, spaced)), " ", rest)
        rest = _ID_WORD.sub(lambda m: " " if m[0] in said else m[0], rest)
        words = parse(rest)
        others = (
            self.run(replace(query, keywords=rest))
            if words.category or words.forms or words.lines or self._names_in(rest)
            else None
        )
        more = [hit for hit in others.products if hit.productId not in placed] if others else []
        understood = {**(others.understood if others else {}), **found.understood}
        understood["named"] = [hit.name for hit in first] + (
            others.understood.get("named", []) if others else []
        )
        return replace(
            found,
            products=(first + more)[: query.limit],
            count=len(first) + (others.count - (len(others.products) - len(more)) if others else 0),
            understood=understood,
            not_carried=others.not_carried if others else [],
            ranked_by="relevance",
        )

    def _others_asked(self, query: SearchQuery, unsold: list[Asked]) -> SearchResult:
        """The search of the words, showing only what they ask for besides the unsold
        kinds: a product named, or a kind or line ("a phone and a case": phones), else
        nothing ("a case for the iPhone 13" is no wish for an iPhone)."""
        whole = self._run(query)
        if whole.understood.get("named") or not query.keywords:
            return whole
        rest = without_unsold(query.keywords, unsold)
        said = parse(rest, explicit_fields(query))
        if said.category or said.forms or said.lines:
            part = self._run(replace(query, keywords=rest))
            return replace(whole, **{f: getattr(part, f) for f in _FOUND})
        return replace(whole, products=[], count=0, count_is_exact=True, relaxed=[])

    def _run(self, query: SearchQuery) -> SearchResult:
        explicit = explicit_fields(query)
        # A model said not wanted ("not the Galaxy A15") is neither searched nor named.
        models: list[str] = []
        as_said = ""  # the keywords as read, degrees and all
        degrees: frozenset[str] = frozenset()
        if query.keywords:
            written = cased_as_carried(query.keywords, self._models_carried, self._name_of)
            as_said, models = cut_models(written, self._models_carried)
            # "reads a lot", "on it all the time": how much, no word to search; but the
            # words are read as said, so "I travel a lot" is still travel (laptops)
            keywords = without_degrees(as_said, self._in_a_name)
            degrees = degree_words(as_said, keywords)
            query = replace(query, keywords=keywords) if keywords != query.keywords else query

        def read(text: str, whole_names: bool = True) -> Words:
            return less_degrees(parse(text, explicit, whole_names=whole_names), degrees)

        words = read(as_said) if query.keywords else Words()
        whole = self._whole_names(words, query.category)
        if not whole:
            assert query.keywords is not None  # only keywords name what is not wanted
            words = read(as_said, whole_names=False)
        unknown, corrected = self._reading(query, words)
        if corrected:
            assert query.keywords is not None  # only keywords have plain words
            words = read(respell(as_said, corrected), whole_names=whole)
        if words.unwanted:
            # Only a name the catalog has is left out: "no rush" leaves out nothing.
            kind = query.category or words.category
            has = [w for w in words.unwanted if self._has_word(w, kind)]
            if not has and not (kind or models or _asks_anything(words)):
                # Words that ask for nothing else ("Pas de deux", "Kein Problem") are a
                # name to search for, not one to leave out.
                said = [fold(word) for name in words.unwanted for word in name.split()]
                words = replace(words, groups=[(w,) for w in said], plain=said)
            words = replace(words, unwanted=has)
        if models:
            words = self._models_left_out(words, models)
        if (words.unwanted or words.excluded) and not (words.category or query.category):
            words = replace(words, category=self._kind_of_names(words))
        refused = self._refused_first(query, words)
        if refused:
            ids = [hit.productId for hits in refused.values() for hit in hits]
            words = replace(words, unwanted_ids=list(dict.fromkeys([*words.unwanted_ids, *ids])))
        result = self._relaxed(query, words)
        if refused:
            names = {order: [hit.name for hit in hits] for order, hits in refused.items()}
            result = replace(result, understood={**result.understood, "refused": names})
        if not result.count and query.productName:
            result = self._named_loosely(query, explicit) or result
        # A name is read as the words were corrected, each as the catalog writes it: "the
        # Pixle 9 Pro" is the Pixel 9 Pro, "the iphnoe 14" the iPhone 14 it lacks.
        as_read = query
        if corrected and query.keywords:
            as_written = {wrong: self._written(right) for wrong, right in corrected.items()}
            as_read = replace(query, keywords=respell(query.keywords, as_written))
        named, lacked = self._named_first(as_read, result, whole)
        if as_read is not query and not (set(named.understood.get("named") or []) - set(lacked)):
            # Corrected into no model the store has, the names are as written: "the
            # Motorola Razr 50" is a model the store lacks, not a Razer.
            uncorrected, lacked_uncorrected = self._named_first(query, result, whole)
            if uncorrected.understood.get("named"):
                as_read, named, lacked = query, uncorrected, lacked_uncorrected
        result = named
        unmet = [word for word in unknown if word not in corrected]
        brand = (query.brandId or "").strip()
        if brand and not any(brand.casefold() in known for known in self.index.brands):
            unmet.append(brand)
        asked = asked_names(query.keywords) if unmet and query.keywords else []
        folded_unmet = {fold(word) for word in unmet}
        absent = [name for name in asked if fold(name.split()[-1]) in folded_unmet]
        absent += [name for name in lacked if fold(name) not in map(fold, absent)]
        if folded_unmet and query.keywords:
            # "a book cheaper than Dune" in a store without it: no price to hold it to, and
            # the name is not carried
            absent += [
                name
                for name in priced_against_lacked(query.keywords)
                if any(fold(w) in folded_unmet for w in WORD.findall(name))
                and fold(name) not in map(fold, absent)
            ]
        if "keywords" in result.relaxed and query.keywords:
            absent += [
                line for line in self._lines_lacked(query.keywords, words) if line not in absent
            ]
        result, titles = self._title_lacked(as_read, result, lacked)
        for title in reversed(titles):
            # The end of the title is no other name: "Little Women" is not "Women" as well.
            tail = fold(title).split()
            absent = [title, *(a for a in absent if fold(a).split() != tail[-len(a.split()) :])]
        return replace(result, corrected=corrected, unknown=unmet, not_carried=absent)

    def _refused_first(self, query: SearchQuery, words: Words) -> dict[str, list[Hit]]:
        """The products each order ``words`` says is not wanted would put first among the
        products that otherwise match ("a laptop but not the cheapest one": the cheapest
        laptop; those tied with it too), by order; none for an order the kind cannot be
        put in, or that the first does not state, nor where they would be all found."""
        refused: dict[str, list[Hit]] = {}
        for order in words.refused:
            ordered = replace(query, sortBy=order, limit=TIED_MOST + 1)
            found = self._relaxed(ordered, replace(words, sort=order))
            if found.ranked_by != order or not found.products:
                continue
            values = [_sorted_on(hit, order) for hit in found.products]
            value = values[0]
            tied = found.products[: next((n for n, v in enumerate(values) if v != value), None)]
            if value is None or len(tied) > TIED_MOST or len(tied) >= found.count:
                continue  # none states it, or every one found is first: no first by it
            refused[order] = tied
        return refused

    def _title_lacked(
        self, query: SearchQuery, result: SearchResult, lacked: list[str]
    ) -> tuple[SearchResult, list[str]]:
        """A name asked for alone that no product's name has every word of (a book's title:
        "Do you sell Project Hail Mary?"), with only the products whose names share a word
        of it ("Harry Potter and the Cursed Child": the other Harry Potter books), not those
        found for some other word ("Mary": Frankenstein, by Mary Shelley; "Galaxy": the
        Samsung Galaxy phones, for "The Hitchhiker's Guide to the Galaxy"); else ``result``
        as it is. A model the store lacks is said so by its line already (``lacked``).
        Titles listed beside one the store has are each their own: "Dune and The Hobbit"
        lacks Dune alone, "The Hobbit and Circe" nothing."""
        title = name_asked_alone(query.keywords) if query.keywords else None
        listed = self._titles_listed(title) if title else []
        if listed:
            lacked = [p for p in listed if (m := _all_words_of(p)) and not self._matches(m)]
            near = [hit for hit in result.products if _near_one_of(hit, listed)]
            if len(near) < len(result.products):
                result = replace(result, products=near, count=len(near), count_is_exact=True)
            return result, lacked
        said = _title_words(title or "")
        # Words that mean something to the search are no title ("Android Phones", "Samsung
        # Phones", "Cheap Laptops"); a product with all of them somewhere is not lacked (an
        # author: "George Orwell"; "The Lord of the Rings", as "Ring" is written).
        meant = set(result.understood) - {"searched", "favours"}
        if (
            not title
            or not said
            or lacked
            or meant
            or self._matches(match_all([(w,) for w in said]))
        ):
            return result, []
        # two words of a longer name: "The Hitchhiker's Guide to the Galaxy" is near no phone
        least = 2 if len(said) > 2 else 1
        near = [hit for hit in result.products if len(said & set(name_words(hit.name))) >= least]
        if len(near) == len(result.products):
            return result, [title]
        return replace(result, products=near, count=len(near), count_is_exact=True), [title]

    def _titles_listed(self, title: str) -> list[str]:
        """The titles ``title`` lists, where one of them is a title the store has: "Dune,
        Circe or Piranesi"; "Dune and The Hobbit", but "Pride and Prejudice or Dune" is two
        and "Crime and Punishment or Frankenstein" two; else none (one title)."""
        parts: list[str] = []
        for chunk in _LISTED.split(title):
            pieces = _AND.split(chunk)
            titled = len(pieces) > 1 and not self._a_title(chunk)
            parts += pieces if titled and any(self._a_title(p) for p in pieces) else [chunk]
        if len(parts) > 1 and any(self._a_title(part) for part in parts):
            return parts
        # None the store has: titles joined by "or" or commas are each asked ("Dune or
        # Neuromancer", "Little Women, Good Omens"); one holding "and" stays whole
        listed = [chunk for chunk in _LISTED.split(title) if chunk]
        if len(listed) > 1 and not self._in_a_name(title):
            return listed
        return []

    def _has_word(self, word: str, category: str | None) -> bool:
        """Whether a brand is ``word``, or a product has it where a name is written
        (:func:`~shared.search.plan.named_columns`)."""
        return bool(brands_named([word], self.index.brands)) or self._matches(
            f"{_columns_named(category)} : {fts_string(fold(word))}"
        )

    def _written(self, word: str) -> str:
        """``word`` as the name of a product has it ("iPhone"), else as it is."""
        name = self._name_of(word) or ""
        return next((w for w in name.split() if w.casefold() == word.casefold()), word)

    def _name_of(self, said: str) -> str | None:
        """The catalog's name of the first product whose name has every word ``said``."""
        return next((name for name, _ in self._names_with(said, 1)), None)

    def _models_carried(self, said: str) -> list[str]:
        """The names of the catalog's models in ``said``."""
        return [each.said for each in self._names_in(said) if each.carried]

    def _models_left_out(self, words: Words, models: list[str]) -> Words:
        """``words`` with the products of the ``models`` not wanted, by id: each the
        product named so with the fewest words besides ("not the Galaxy S24": not the S24
        Ultra), and with no kind said, the kind they are."""
        ids: list[str] = []
        for model in models:
            # Its brackets too: "not the Nothing Phone (2)" is not the Phone (2a).
            by_name = SearchQuery(productName=model, limit=20)
            ids += [h.productId for h in self._named_exactly(by_name, model, brackets=True)]
        if not ids:
            return words
        kinds = {Category(row[0]) for row in self._categories_of(ids)}
        kind = words.category or (kinds.pop() if len(kinds) == 1 else None)
        return replace(
            words, unwanted_ids=list(dict.fromkeys(ids)), unwanted_named=models, category=kind
        )

    def _named_exactly(
        self, by_name: SearchQuery, said: str, *, brackets: bool = False
    ) -> list[Hit]:
        """The products ``by_name`` finds with every word of the name ``said`` and the
        fewest words besides (:func:`_extra_words`); none when it had to relax."""
        exact = self._relaxed(by_name, Words())
        found = [] if exact.relaxed else exact.products
        extra = [_extra_words(said, hit.name, brackets=brackets) for hit in found]
        fewest = min(extra, default=0)
        return [hit for hit, n in zip(found, extra, strict=True) if n == fewest]

    def _categories_of(self, ids: list[str]) -> list[tuple[str]]:
        marks = ", ".join("?" * len(ids))
        return self.db.execute(
            f"SELECT DISTINCT category FROM products WHERE product_id IN ({marks})", ids
        ).fetchall()

    def _whole_names(self, words: Words, category: str | None) -> bool:
        """Whether the names of several words ``words`` says are not wanted are names the
        catalog has ("not Harry Potter"); if one is not ("not Apple Samsung"), each word
        is read as a name of its own."""
        several = [name for name in words.unwanted if " " in name]
        kind = category or words.category
        return all(self._has_word(name, kind) for name in several)

    def _kind_of_names(self, words: Words) -> str | None:
        """The category most products of the brands ``words`` does not want are in, or
        else, when the words search for nothing else, of the products named with the names
        it does not want: "anything but Apple" still asks for what Apple makes, "not the
        MacBook Air, something cheaper" for computers, not for books."""
        # "Pro" or "Ultra" alone is of no one kind ("not the Pro": a phone's or a laptop's).
        named = [n for n in words.unwanted if not set(n.split()) <= MODEL_WORDS]
        said = named + [terms[0] for terms in words.excluded]
        if not said:
            return words.meant
        keys = brands_named(said, self.index.brands)
        if not keys and (words.groups or words.lines or words.meant):
            return words.meant  # "Microsoft Surface not Pro": the Surfaces, whatever a Pro is
        if keys:
            rows = self.db.execute(
                "SELECT category FROM products WHERE brand_key IN"
                f" ({', '.join('?' * len(keys))}) GROUP BY category ORDER BY count(*) DESC"
                " LIMIT 1",
                keys,
            )
        else:
            text = " OR ".join(fts_string(fold(name)) for name in said)
            rows = self.db.execute(
                f"SELECT p.category FROM {_FTS_JOIN} WHERE fts MATCH ? GROUP BY p.category"
                " ORDER BY count(*) DESC LIMIT 1",
                (f"{_columns_named(None)} : ({text})",),
            )
        row = rows.fetchone()
        return Category(row[0]) if row else None

    def _lines_lacked(self, keywords: str, words: Words) -> list[str]:
        """The product lines the words name that no product of the store is ("iPhones" in a
        store without Apple), as written: the search read them, then had to drop them."""
        lacked = []
        for group in words.lines:
            if LINE_TERMS.isdisjoint(group) or any(
                self._has_name(word, books=False) for word in group
            ):
                continue  # a system ("Android") is the specs', which a store may not list
            said = re.search(_any_of(group), keywords, re.IGNORECASE)
            lacked.append(said[0] if said else group[0])
        return lacked

    def corrections(self, query: SearchQuery, words: Words) -> dict[str, str]:
        return self._reading(query, words)[1]

    def _named_loosely(self, query: SearchQuery, explicit: dict[str, Any]) -> SearchResult | None:
        """No product has every word of ``productName`` ("Galaxy S23" where the store has
        the S24): those with the most of them, with the other fields kept, as the closest
        the store has, the nearest model of the series first (:mod:`shared.search.series`);
        None when none has any of them ("Dune" in a store without it)."""
        keywords = " ".join(w for w in (query.productName, query.keywords) if w)
        loose = replace(query, productName=None, keywords=keywords)
        result = self._relaxed(loose, parse(keywords, explicit))
        if not result.count or "keywords" in result.relaxed:
            return None
        closest = closest_first(query.productName or "", result.products)
        return replace(result, products=closest, relaxed=["productName", *result.relaxed])

    def _named_first(
        self, query: SearchQuery, result: SearchResult, whole: bool = True
    ) -> tuple[SearchResult, list[str]]:
        """The products the keywords name first (:mod:`shared.search.named`: "is the iPhone
        15 in stock?"), each of them the product with every word of its name and the fewest
        besides, and for one the store lacks ("the iPhone 14") the nearest models of its
        line; then the rest of ``result``, unsorted: an order asked ("which is lighter?") is
        the model's to read among them. A limit the words set holds for the products named
        too ("the iPhone 15 under $600": not the iPhone 15, which is $699).
        Also the names the store lacks. The names found are ``understood``'s ``named``;
        ``whole``: whether names of several words not wanted are read whole (``_run``'s)."""
        if not query.keywords or query.productName or query.productIds:
            return result, []
        kind = query.category or result.understood.get("category")
        # A product said not wanted ("not the MacBook Air") is no product asked for.
        wanted = without_unwanted(query.keywords, whole_names=whole)
        for apart, model in models_written_apart(wanted, self._a_name_of).items():
            # "galaxy s 24" names the Galaxy S24
            wanted = re.sub(rf"(?<![^\W_]){re.escape(apart)}(?![^\W_])", model, wanted, flags=re.I)
        named = named_in(
            wanted, self._has_name, self._is_brand, self._known, kind, self._names_with
        )
        if not named:
            return result, []
        lacked = [each.said for each in named if not each.carried]
        understood = {**result.understood, "named": [each.said for each in named]}
        if result.nearest:  # nothing met the limits the words set: the nearest stand
            return replace(result, understood=understood), lacked
        said = result.understood
        besides = parts_beside_named(query.keywords, [each.said for each in named])
        # The limits of a kind asked beside them are its own: "the Pixel 9 and a cheap
        # Android phone under $300" holds no Pixel 9 to $300.
        limits = parse(without_parts(query.keywords, besides)).limits if besides else said
        bounds = {**{k: v for k, v in limits.items() if k in BOUNDS}, **query.bounds}
        bounded = bool(bounds) or any(k in limits for k in ("minPrice", "maxPrice"))
        first: list[Hit] = []
        for each in named:
            # The tool's own fields stand ("in stock only"), and the limits the words set.
            by_name = replace(
                query,
                keywords=None,
                productName=each.said,
                minPrice=query.minPrice if query.minPrice is not None else limits.get("minPrice"),
                maxPrice=query.maxPrice if query.maxPrice is not None else limits.get("maxPrice"),
                bounds=bounds,
            )
            if bounded and not each.carried:
                continue  # the limits' products stand; the name is said not carried
            if each.carried:
                first += self._named_exactly(by_name, each.said)
            elif each.line and (loose := self._named_loosely(by_name, {})):
                # Of its line: "Surface Pro 9" is nearest the Surface Pro, not the Pixel 9 Pro.
                line = line_words(each.said)
                near = [h for h in loose.products if line <= set(name_words(h.name))]
                # of the closest one's kind: the Galaxy S24 for "Galaxy S21", no Galaxy Book
                first += [h for h in near if h.category == near[0].category][:NEAREST_NAMED]
        first = list({hit.productId: hit for hit in first}.values())
        seen = {hit.productId for hit in first}
        rest = [hit for hit in result.products if hit.productId not in seen]
        count = max(result.count, len(first))
        if first and besides:
            # A kind asked beside them is its own search: "the Pixel 9 and a cheap Android
            # phone" shows the cheapest Android phones after it, not the other Pixels.
            beside = self._run(replace(query, keywords=" ".join(besides)))
            rest = [hit for hit in beside.products if hit.productId not in seen]
            count = len(first) + len(rest) + max(0, beside.count - len(beside.products))
        if not first and not any(each.carried or each.line for each in named):
            near = _sharing_a_word(rest, result, named)
            count = count if near == rest else len(near)
            rest = near
        elif first and not besides and _for_names_alone(result, [n.said for n in named]):
            # "Do you have the Pixel 7?": the other Pixels, then phones, not a laptop whose
            # name has a 7 too.
            kinds = {hit.category for hit in first}
            near = [hit for hit in rest if hit.category in kinds]
            count = count if near == rest else len(first) + len(near)
            rest = near
        spoken = said.get("category")
        others = (
            all(hit.category != spoken for hit in first)
            if first
            else not any(each.carried for each in named)
        )
        if spoken and not query.category and others and _kind_of_a_name(query.keywords, named):
            # "Honor Magic 6 Pro": "magic" is a genre to the words, but here a phone's name.
            rest = [hit for hit in rest if hit.category != spoken]
            kinds = {hit.category for hit in first}
            understood = _without(understood, "category")
            if len(kinds) == 1:
                understood["category"] = Category(kinds.pop())
        combined = replace(
            result,
            products=(first + rest)[: query.limit],
            count=count,
            understood=understood,
            # An order asked ("which is lighter?") is read among the products named.
            ranked_by="relevance" if first else result.ranked_by,
        )
        return combined, lacked

    def _names_in(self, keywords: str) -> list[Named]:
        """The products ``keywords`` name, as :meth:`_named_first` reads them."""
        return named_in(
            keywords, self._has_name, self._is_brand, self._known, None, self._names_with
        )

    def _unsold(self, query: SearchQuery) -> list[Asked]:
        """The kinds the keywords ask for that the store does not sell; not one said not
        wanted ("a laptop without the charger")."""
        if not query.keywords or query.productName or query.productIds:
            return []
        keywords = without_unwanted(query.keywords)

        def kind_named() -> bool:
            return bool(query.category or parse(keywords).category)

        def named() -> bool:
            words = WORD.findall(keywords)
            return (
                kind_named()
                or bool(parse(keywords).lines or self._names_in(keywords))
                or any(self._is_brand(w) for w in words)
            )

        return unsold_in(keywords, self._sells, kind_named, named)

    def _sells(self, phrase: str) -> bool:
        """Whether a word of ``phrase`` is a kind of the catalog's products, or in the
        name of one that is not a book ("iPad" in a store that sells one)."""
        words = [fold(w) for w in WORD.findall(phrase) if w.casefold() not in STOP_WORDS]
        return any(w in self.index.forms or self._has_name(w, books=False) for w in words)

    def _is_brand(self, word: str) -> bool:
        return fold(word.casefold()) in self.index.brand_words

    def _known(self, word: str) -> bool:
        """Whether any product has ``word`` (its name, specs, description...)."""
        return self._matches(fts_string(word.casefold()))

    def _has_name(self, phrase: str, *, books: bool = True, category: str | None = None) -> bool:
        """Whether a product's name (not a book's, unless ``books``; of ``category``, if
        given) has every word of ``phrase``: a model's whole ("Pixel 8" is not the Pixel 8a,
        which the index holds as "8 a")."""
        clause = name_clause(phrase)
        if clause is None or not self._may_name(phrase):
            return False
        if not books:
            clause += f" NOT {{filters}} : {fts_string(filter_token('cat', Category.BOOKS))}"
        if category:
            clause += f" AND {{filters}} : {fts_string(filter_token('cat', category))}"
        if not any(c.isdigit() for c in phrase):
            return self._matches(clause)
        wanted = set(name_words(phrase, brackets=True))
        names = self._names_matching(clause, NAMES_EXAMINED)
        return any(wanted <= set(name_words(name, brackets=True)) for name, _ in names)

    def _reading(self, query: SearchQuery, words: Words) -> tuple[list[str], dict[str, str]]:
        """The plain words that are none of the index's, and what those it can read as
        another word are read as; first, a name written in two words ("mac book")."""
        joined = self._joined(query.keywords or "")
        if not words.plain or not self.index.spelling:
            return [], joined
        corrector = Corrector(self.db, self._matches, category=query.category)
        unknown = corrector.unknown(words)
        if not unknown:
            return [], joined
        explicit = make_plan(query, LEVELS[0], Words(), self.index.brands).filter_words
        implied = make_plan(query, LEVELS[0], words, self.index.brands).filter_words
        corrected = corrector.corrections(words, unknown, filters=explicit, context=implied)
        return unknown, {**joined, **_as_named(query.keywords or "", unknown, corrected)}

    def _joined(self, keywords: str) -> dict[str, str]:
        """A name written in two words (:func:`names_written_apart`): a brand of the
        catalog ("one plus") or a word of a name of its products that are no books, or
        words of such a name ("ideapad slim"); and a model's token written apart from its
        number, or its number run into a word (:func:`models_written_apart`: "s 24",
        "16pro")."""

        return {
            **names_written_apart(keywords, self._a_name_of),
            **models_written_apart(keywords, self._a_name_of),
        }

    def _a_name_of(self, said: str) -> bool:
        """Whether ``said`` is a brand or a whole word of a name of the catalog's products
        that are no books, or (two words or more) has every word of such a name."""
        if " " in said:
            return self._has_name(said, books=False)
        return self._is_brand(said) or self._a_name(said)

    def _a_name(self, word: str) -> bool:
        """Whether ``word`` is a whole word of a name of the catalog's products that are no
        books ("Zenbook"), as written: not a word it starts or stems from."""
        clause = name_clause(word)
        if clause is None or not self._may_name(word):
            return False
        clause += f" NOT {{filters}} : {fts_string(filter_token('cat', Category.BOOKS))}"
        names = self._names_matching(clause, NAMES_EXAMINED)
        return any(word in WORD.findall(name.casefold()) for name, _ in names)

    def _names_with(self, word: str, most: int) -> list[tuple[str, str | None]]:
        """The names and brands of the first ``most`` products whose names have ``word``."""
        clause = name_clause(word)
        if clause is None or not self._may_name(word):
            return []
        return self._names_matching(clause, most)

    def _may_name(self, said: str) -> bool:
        """False where no product's name can have the words ``said`` (as
        :func:`~shared.search.words.name_clause_within` asks, before the dearer query)."""
        within = name_clause_within(said)
        return within is None or self._matches(within)

    def _names_matching(self, clause: str, most: int) -> list[tuple[str, str | None]]:
        """The names and brands of the first ``most`` products an FTS5 ``clause`` matches."""
        found = self.db.execute(
            "SELECT p.name, p.brand FROM products p WHERE p.id IN "
            "(SELECT rowid FROM fts WHERE fts MATCH ? LIMIT ?)",
            (clause, most),
        ).fetchall()
        return [(str(name), str(brand) or None) for name, brand in found]

    def _matches(self, text: str) -> bool:
        return (
            self.db.execute("SELECT 1 FROM fts WHERE fts MATCH ? LIMIT 1", (text,)).fetchone()
            is not None
        )

    def _relaxed(self, query: SearchQuery, words: Words) -> SearchResult:
        tried: set[tuple[Any, ...]] = set()
        result: SearchResult | None = None
        # Once the words to search are dropped, a level that keeps nothing naming what is wanted (a
        # kind, a brand, a spec, ids) only pages through the catalog, at a price, on sale or
        # in an order: "headphones under $100" is not the store's cheapest books. None goes
        # that far; the words matched nothing, and the result says so.
        bare = make_plan(SearchQuery(inStockOnly=query.inStockOnly), LEVELS[0]).conditions
        for level in levels_for(query, words, self.index.brand_words):
            plan = make_plan(query, level, words, self.index.brands)
            key = (tuple(plan.conditions), tuple(plan.params), plan.match_any, plan.sort)
            if key in tried:
                continue
            # What the words asked for, searched or filtered on ("2-in-1 laptops" in a store
            # with none: not its books), is gone from a level without their text and filters.
            asked = words.groups or ((words.category or words.forms) and not level.words_filters)
            dropped = asked and "keywords" in level.relaxed and not plan.has_text
            if result is not None and dropped and _names_nothing(plan, bare):
                break
            tried.add(key)
            relaxed = [
                name
                for name in level.relaxed
                # Nothing of the words was dropped when they were all filters and kept.
                if (name != "keywords" or words.groups or not level.words_filters)
                and (name != "onSale" or words.on_sale)
            ]
            if plan.nearest:
                prices = [name for name in plan.nearest if name in ("minPrice", "maxPrice")]
                relaxed += [
                    *(["price"] if prices else []),
                    *(n for n in plan.nearest if n not in prices),
                ]
            result = self._answer(plan, query.limit, relaxed)
            if plan.nearest:
                result = replace(result, nearest=dict(plan.nearest))
            if result.count:
                return result
        assert result is not None  # the first level always runs
        return result

    # ------------------------------------------------------------------ answers

    def _answer(self, plan: Plan, limit: int, relaxed: list[str]) -> SearchResult:
        boosts = {
            name: weight
            for name, weight in plan.boosts.items()
            if any(self.index.has_facet(plan.category, c) for c in BOOST_COLUMNS[name])
        }
        said = plan.understood.get("sortBy")
        if said and not self._sortable(plan.category, said):
            # "the best camera" among laptops: no order to keep, the words' ranking stands,
            # and the result says which order none of them could be put in.
            understood = {**_without(plan.understood, "sortBy"), "unsorted": said}
            plan = replace(plan, sort=None, understood=understood)
        if not plan.sort and (leaning := self._leaning(plan, boosts)):
            # The order the words' uses lean to ("for travel": lightest), ranked, not sorted.
            plan = replace(plan, understood={**plan.understood, "favours": leaning})
        if not plan.has_text:
            count, exact = self._count(plan, None, None)
            order = self._order(plan, boosts)
            hits = (
                Sorter(self.index, self.db).sorted(plan, limit, order, small=exact) if count else []
            )
            # The order the words lean to is said by its name ("battery"), also where the
            # kind states it in another column (a phone's mAh).
            ranked_by = (
                plan.sort
                or plan.understood.get("favours")
                or next((name for name, how in SORTS.items() if how == order[:2]), "price")
            )
            if count and not (plan.category or plan.brand or plan.sort or boosts):
                hits, ranked_by = self._every_kind(plan, limit, order, exact), KINDS
            return SearchResult(hits, count, exact, relaxed, plan.understood, ranked_by)
        assert plan.match_any is not None and plan.match_all is not None
        horizon = self._horizon(plan.match_any)
        count, exact, last = self._count_text(plan, plan.match_any, horizon)
        if not count and horizon is not None:
            # None in the sample is not none at all: look at every match before relaxing.
            horizon = None
            count, exact, last = self._count_text(plan, plan.match_any, None)
        if not count:
            return SearchResult([], 0, True, relaxed, plan.understood, "relevance")
        # Where the count saw every product the words match, none is after the last it
        # counted; the products ranked are among the first counted in any case.
        seen = last if exact else None
        first = seen if seen is not None or self.window > self.cap + 1 else last
        exact = exact and horizon is None
        text = plan.match_all
        if plan.match_all != plan.match_any and not self._exists(plan, text, horizon, seen):
            text = plan.match_any
        if plan.sort:
            order = self._order(plan, {})
            hits = self._sorted_text(plan, limit, order, text, horizon, seen)
            return SearchResult(hits, count, exact, relaxed, plan.understood, plan.sort)
        score = self._score(boosts)
        upto = first if text == plan.match_any else seen
        hits = self._ranked(plan, text, horizon, score, limit, upto)
        if len(hits) < limit and text != plan.match_any:
            seen_ids = {hit.productId for hit in hits}
            more = self._ranked(plan, plan.match_any, horizon, score, limit + len(hits), first)
            hits += [hit for hit in more if hit.productId not in seen_ids][: limit - len(hits)]
        return SearchResult(hits, count, exact, relaxed, plan.understood, "relevance")

    def _every_kind(self, plan: Plan, limit: int, order: Order, small: bool) -> list[Hit]:
        """Products of every kind the store sells, taking turns in ``order``: "anything
        under $400" is a laptop, a phone and a book, not the three cheapest books."""
        kinds = [
            Sorter(self.index, self.db).sorted(
                replace(
                    plan,
                    conditions=[*plan.conditions, "p.category = ?"],
                    params=[*plan.params, category],
                    category=category,
                ),
                limit,
                order,
                small=small,
            )
            for category in Category
        ]
        taking_turns = [hit for turn in itertools.zip_longest(*kinds) for hit in turn if hit]
        return taking_turns[:limit]

    def _sortable(self, category: str | None, sort: str) -> bool:
        """Whether products of ``category`` may have the spec ``sort`` orders by."""
        second = SECOND_SORT.get(sort)
        columns = [SORTS[sort][0], *([second[0]] if second else [])]
        return any(self.index.has_facet(category, column) for column in columns)

    def _boost_order(self, category: str | None, name: str) -> tuple[str, bool] | None:
        """The column and way ``name``'s boost orders by in ``category``: its own, else
        another column it reads (a phone's battery in mAh, not hours)."""
        order = BOOST_ORDER[name]
        if order is None:
            return None
        column = next(
            (c for c in (order[0], *BOOST_COLUMNS[name]) if self.index.has_facet(category, c)),
            None,
        )
        return (column, order[1]) if column else None

    def _leaning(self, plan: Plan, boosts: dict[str, float]) -> str | None:
        """The ``sortBy`` the heaviest of ``boosts`` with an order follows, if any."""
        for name, _ in sorted(boosts.items(), key=lambda kv: -kv[1]):
            if self._boost_order(plan.category, name):
                order = BOOST_ORDER[name]
                return next((sort for sort, how in SORTS.items() if how == order), None)
        return None

    def _order(self, plan: Plan, boosts: dict[str, float]) -> Order:
        """The order of a sorted answer: ``sortBy``, else the heaviest boost's facet, else
        cheapest first."""
        if plan.sort:
            column, desc = SORTS[plan.sort]
            second = SECOND_SORT.get(plan.sort)
            if second and not self.index.has_facet(plan.category, column):
                column, desc, second = *second, None  # phones: battery in mAh, not hours
            return column, desc, second
        for name, _ in sorted(boosts.items(), key=lambda kv: -kv[1]):
            if found := self._boost_order(plan.category, name):
                return *found, None
        return "price", False, None

    def _score(self, boosts: dict[str, float]) -> str:
        # Boost names come from the intents table and weights are floats: no user text.
        score = f"bm25(fts, {COLUMN_WEIGHTS})"
        parts = [f"{weight!r} * ({BOOSTS[name]})" for name, weight in sorted(boosts.items())]
        return f"{score} * (1.0 + {' + '.join(parts)})" if parts else score

    # ------------------------------------------------------------------ SQL

    def _horizon(self, text: str) -> int | None:
        """The row id of the ``examine``-th product the words match, if there are more."""
        if text not in self.horizons:
            row = self.db.execute(
                "SELECT rowid FROM fts WHERE fts MATCH ? LIMIT 1 OFFSET ?", (text, self.examine)
            ).fetchone()
            self.horizons[text] = None if row is None else int(row[0])
        return self.horizons[text]

    def _text_source(
        self, plan: Plan, text: str, horizon: int | None, upto: int | None = None
    ) -> tuple[str, list[Any]]:
        """FROM ... WHERE ... of products matching ``text`` and the filters (before the
        horizon, if any; up to the row ``upto``, if given), and its parameters."""
        bounds = [(b, v) for b, v in (("<", horizon), ("<=", upto)) if v is not None]
        rows = [f"fts.rowid {b} ?" for b, _ in bounds]
        sql = f"FROM {_FTS_JOIN} WHERE fts MATCH ? AND {where(plan, rows)}"
        return sql, [text, *plan.params, *(v for _, v in bounds)]

    def _count(self, plan: Plan, text: str | None, horizon: int | None) -> tuple[int, bool]:
        if text is None:
            source = f"FROM products AS p WHERE {where(plan)}"
            params: list[Any] = list(plan.params)
        else:
            source, params = self._text_source(plan, text, horizon)
        sql = f"SELECT count(*) FROM (SELECT 1 {source} LIMIT ?)"
        (found,) = self.db.execute(sql, [*params, self.cap + 1]).fetchone()
        return (self.cap, False) if found > self.cap else (int(found), True)

    @staticmethod
    def _words_only(text: str, horizon: int | None) -> tuple[str, list[Any]]:
        """:meth:`_text_source` of a plan with no filters: the index's rows alone, each of
        them a product's (the build writes both from the same records, row id = id)."""
        if horizon is None:
            return "FROM fts WHERE fts MATCH ?", [text]
        return "FROM fts WHERE fts MATCH ? AND fts.rowid < ?", [text, horizon]

    def _count_text(
        self, plan: Plan, text: str, horizon: int | None
    ) -> tuple[int, bool, int | None]:
        """:meth:`_count` of the products matching ``text``, and the row id of the last
        of those counted."""
        source, params = self._text_source(plan, text, horizon)
        if not plan.conditions:
            source, params = self._words_only(text, horizon)
        sql = f"SELECT count(*), max(rid) FROM (SELECT fts.rowid AS rid {source} LIMIT ?)"
        found, last = self.db.execute(sql, [*params, self.cap + 1]).fetchone()
        if found > self.cap:
            return self.cap, False, int(last)
        return int(found), True, None if last is None else int(last)

    def _exists(self, plan: Plan, text: str, horizon: int | None, upto: int | None = None) -> bool:
        source, params = self._text_source(plan, text, horizon, upto)
        if not plan.conditions:
            source, params = self._words_only(text, horizon)
        return self.db.execute(f"SELECT 1 {source} LIMIT 1", params).fetchone() is not None

    def _ranked(
        self,
        plan: Plan,
        text: str,
        horizon: int | None,
        score: str,
        limit: int,
        upto: int | None = None,
    ) -> list[Hit]:
        """The best ``limit`` of the first ``window`` products matching ``text``; ``upto``:
        a row id none of those is after.

        BM25 weighs every phrase of the query by how many products have it, reading all of
        them, the filter words' too (every product of a category), though their column
        weighs nothing. Where the words alone match few products up to ``upto``, they are
        ranked without the filter words: the filters' own SQL keeps the same products (a
        filter word only narrows, :func:`~shared.search.schema.filter_token`), and each
        product's score is the same.
        """
        words = plan.rank_all if text == plan.match_all else plan.rank_any
        if upto is not None and words and words != text and self._few(words, upto):
            source, params = self._text_source(plan, words, horizon, upto)
        else:
            source, params = self._text_source(plan, text, horizon)
        # Only what orders them is sorted; the best are read whole after.
        sql = (
            "SELECT id FROM (SELECT p.id AS id, p.stock AS stock, p.price AS price,"
            f" {score} AS score {source} LIMIT ?)"
            # Sold out costs a quarter of the relevance rather than sinking a product: the
            # one mystery novel, sold out, still beats a classic whose blurb says
            # "mysterious".
            " ORDER BY score * (CASE WHEN stock > 0 THEN 1.0 ELSE 0.75 END), price, id LIMIT ?"
        )
        ids = [int(row[0]) for row in self.db.execute(sql, [*params, self.window, limit])]
        return self._hits(ids)

    def _hits(self, ids: list[int]) -> list[Hit]:
        """The products of the row ids ``ids``, in that order."""
        if not ids:
            return []
        marks = ", ".join("?" * len(ids))
        sql = f"SELECT {HIT_COLUMNS} FROM products AS p WHERE p.id IN ({marks})"
        rows = {int(row[0]): row for row in self.db.execute(sql, ids)}
        return [hit(rows[i]) for i in ids]

    def _few(self, words: str, upto: int) -> bool:
        """Whether fewer than twice ``window`` products up to the row ``upto`` match
        ``words``: those a search of them without the filter words looks through."""
        sql = "SELECT count(*) FROM (SELECT 1 FROM fts WHERE fts MATCH ? AND rowid <= ? LIMIT ?)"
        (found,) = self.db.execute(sql, (words, upto, 2 * self.window)).fetchone()
        return int(found) < 2 * self.window

    def _sorted_text(
        self,
        plan: Plan,
        limit: int,
        order: Order,
        text: str,
        horizon: int | None,
        upto: int | None = None,
    ) -> list[Hit]:
        """Products matching ``text`` (before the horizon, if any; none after the row
        ``upto``), in one sort."""
        source, params = self._text_source(plan, text, horizon, upto)
        sql = (
            f"SELECT {HIT_COLUMNS} {source} ORDER BY p.stock <= 0, p.{order[0]} IS NULL,"
            f" {order_by(order)}, p.price, p.id LIMIT ?"
        )
        return [hit(row) for row in self.db.execute(sql, [*params, limit])]


_FOUND = ("products", "count", "count_is_exact", "relaxed", "understood", "ranked_by", "nearest")
"""What a search found, as against what it read in the words (unknown, corrected...)."""


_ID_WORD = re.compile(r"[^\W_](?:[\w/.-]*[^\W_])?")
"""A word that may be an id as a store writes them: letters, digits and the marks inside
("CMP-001", "21KC0001US", "SKU/2004-01")."""
_AMOUNT_WORD = re.compile(
    r"\d+(?:[.,]\d+)?-?(?:gb|tb|mb|kg|g|lbs?|oz|mah|mp|hz|in|inch|h|w|mm|cm|k|m|p|st|nd|rd|th)",
    re.IGNORECASE,
)


_CITED = re.compile(r"\[[^\]]{0,40}\]")
_CODE_DIGITS = 8
"""Digits of a code a product's specs may hold that names one product: an ISBN, a barcode."""
_ID_PREFIX = re.compile(r"[^\W\d_]+[-_/.]")
"""An id's letters and the mark after them: "CMP-" of "CMP-999"."""


def _asks_anything(words: Words) -> bool:
    """Whether ``words`` ask for anything besides the names they do not want."""
    return bool(
        words.groups
        or words.lines
        or words.forms
        or words.limits
        or words.sort
        or words.excluded
        or words.unwanted_genres
        or words.boosts
        or words.on_sale
    )


def _columns_named(category: str | None) -> str:
    """Where a name not wanted is looked for: the kind's columns
    (:func:`~shared.search.plan.named_columns`), or with no kind asked, the specs too ("not
    by Rowling": an author)."""
    return named_columns(category) if category else "{name brand specs}"


_CODE_MARK = re.compile(r"\w[/.#_-]\w")
_SPAN_EDGES = "?!,;:\"'()[]."
_MAX_SPAN_WORDS = 4
"""The most words an id with spaces in it is tried as ("XPS 13/16/512", "AB 12 C 3")."""


def _spans(keywords: str) -> list[str]:
    """Each run of two to :data:`_MAX_SPAN_WORDS` words of ``keywords``, as written but
    for the marks around it ("is XPS 13/16/512 in stock?": "XPS 13/16/512", ...), that
    may be an id with a space in it: one of its words is written as ids are, not as
    words are (:func:`_coded`). Plain words ("usb c", "iphone 15 pink") are searched as
    words, whatever a store's ids spell: they are what shoppers write for other things."""
    words = [w.strip(_SPAN_EDGES) for w in keywords.split()]
    return [
        " ".join(words[start:end])
        for start in range(len(words))
        for end in range(start + 2, min(start + _MAX_SPAN_WORDS, len(words)) + 1)
        if words[start] and words[end - 1] and any(map(_coded, words[start:end]))
    ]


def _coded(word: str) -> bool:
    """Whether ``word`` is written as a code, not a word or an amount: a mark inside it
    ("13/16/512", "A-7"), letters and digits mixed ("X1", "S24"; not "16GB"), or four
    digits or more with a leading zero or past a year's ("0042", "77001")."""
    if _CODE_MARK.search(word):
        return True
    digits = sum(c.isdigit() for c in word)
    if digits and any(c.isalpha() for c in word):
        return not _AMOUNT_WORD.fullmatch(word)
    return digits == len(word) >= 4 and (word[0] == "0" or len(word) >= 5)


def _may_be_id(word: str) -> bool:
    """Whether ``word`` may be a product's id: letters and digits ("CMP-001", "S24X1";
    not an amount or an ordinal: "16GB", "2nd"), five digits or more ("2004001": fewer are
    a price or a model's number), or letters in capitals ("FAIRPHONEFIVE")."""
    digits = sum(c.isdigit() for c in word)
    if digits and any(c.isalpha() for c in word):
        return not _AMOUNT_WORD.fullmatch(word)
    if digits:
        return digits >= 5
    return len(word) >= 4 and word.isupper()


def _any_of(words: Sequence[str]) -> str:
    return r"(?<![\w-])(?:" + "|".join(re.escape(w) for w in words) + r")(?![\w-])"


def _names_nothing(plan: Plan, bare: list[str]) -> bool:
    """Whether ``plan`` filters by nothing but the price, a sale and stock (``bare``), and
    what the shopper does not want ("a laptop, not Dell and HP" in a store with no other
    laptops is not its books)."""
    kept = [c for c in plan.conditions if "price" not in c and " NOT IN " not in c]
    return kept == bare


def _sorted_on(hit: Hit, order: str) -> float | None:
    """The value of ``hit`` that ``order`` sorts by (its price, its weight...), or of the
    ties' order (a phone's battery in mAh); None when it states neither."""
    columns = [SORTS[order][0], SECOND_SORT.get(order, ("", False))[0]]
    values = [hit.price if column == "price" else hit.specs.get(column) for column in columns]
    return next((float(v) for v in values if isinstance(v, int | float)), None)


def _in_turn(found: list[SearchResult], limit: int) -> SearchResult:
    """The products of each of ``found`` in turn (the first's first, then the second's
    first...), at most ``limit``, counted together, with what each read (its lists joined):
    the sides of a comparison, or the makers asked for ("an HP or Samsung tablet"). One
    result is itself, cut to ``limit``."""
    products: dict[str, Hit] = {}
    for turn in itertools.zip_longest(*(r.products for r in found)):
        products |= {hit.productId: hit for hit in turn if hit and hit.productId not in products}
    understood: dict[str, Any] = {}
    for result in reversed(found):
        understood |= {
            key: list(dict.fromkeys([*value, *understood[key]]))
            if isinstance(value, list) and isinstance(understood.get(key), list)
            else value
            for key, value in result.understood.items()
        }
    return replace(
        found[0],
        products=list(products.values())[:limit],
        count=sum(r.count for r in found),
        count_is_exact=all(r.count_is_exact for r in found),
        understood=understood,
    )


def _without(understood: dict[str, Any], key: str) -> dict[str, Any]:
    return {k: v for k, v in understood.items() if k != key}


def _kind_of_a_name(keywords: str, named: list[Named]) -> bool:
    """Whether the kind the words ask for is said only inside the names they say: the
    words without the names ask for no kind, or for another."""
    spoken = parse(keywords).category
    outside = keywords
    for each in named:
        outside = outside.replace(each.said, " ")
    if spoken is None or parse(outside).category == spoken:
        return False
    # A name's own kind word is the kind asked for: "the Nothing Phone 2a", "Book 2".
    return not any(
        names_a_kind(word) and parse(word).category == spoken
        for each in named
        for word in each.said.split()
    )


def _sharing_a_word(hits: list[Hit], result: SearchResult, named: list[Named]) -> list[Hit]:
    """Of products found for names the catalog has no word of and nothing else, those
    whose name has a word of letters of them: "the Xiaomi Redmi Note 13" is near no product
    whose name only has "13" too. Products found for other words ("the Huawei P60, or a
    phone with a good camera"), for what the words mean (a kind, a limit, a use) or with the
    words dropped stand."""
    if not _for_names_alone(result, [each.said for each in named]):
        return hits
    said = {w for each in named for w in name_words(each.said) if w.isalpha()}
    return [hit for hit in hits if said & set(name_words(hit.name))]


_LISTED = re.compile(r"\s*(?:,|\bor\b)\s*", re.IGNORECASE)
"""Between titles listed: "Dune, Circe or Piranesi"."""
_AND = re.compile(r"\s*(?:&|\band\b)\s*", re.IGNORECASE)
"""Between titles listed, or within one: "Dune and The Hobbit", "Pride and Prejudice"."""


def _title_words(title: str) -> set[str]:
    """The words of a title asked for that a product's name must have: not the words that
    say nothing, but those of asking ("The List", "Top Secret")."""
    return {
        w for w in name_words(title) if w.isalpha() and (w not in STOP_WORDS or w in ASKING_WORDS)
    }


def _all_words_of(name: str) -> str:
    """A match of the products with every word of the title ``name``."""
    said = _title_words(name)
    return match_all([(w,) for w in sorted(said)]) if said else ""


def _near_one_of(hit: Hit, titles: list[str]) -> bool:
    """Whether ``hit`` is one of ``titles`` or near one: two words of a title of three or
    more, every word of a shorter ("The Hobbit" for "The Hobbit"; no Piranesi for "Brave
    New World", no Pride and Prejudice for "Jane Eyre")."""
    have = set(name_words(hit.name))
    for title in titles:
        said = _title_words(title)
        if said and len(said & have) >= (2 if len(said) > 2 else len(said)):
            return True
    return False


def _for_names_alone(result: SearchResult, said: list[str]) -> bool:
    """Whether ``result`` was found for the words of the names ``said`` and nothing else:
    no other word searched, nothing meant (a kind, a limit, a use), none dropped."""
    names = {w for name in said for w in name_words(name)}
    searched = result.understood.get("searched") or []
    # The search writes a model's letters and digits apart: "s 21" is "S21"'s word.
    covered = all(set(name_words(t)) <= names or t.replace(" ", "") in names for t in searched)
    meant = set(result.understood) - {"searched", "named"}
    return "keywords" not in result.relaxed and not meant and covered


def _extra_words(asked: str, name: str, *, brackets: bool = False) -> int:
    """How many words ``name`` and the name ``asked`` for do not share: "Apple iPhone 15"
    is the iPhone 15 before "Apple iPhone 15 Pro" is, and "Galaxy S24+" is the S24+
    before the S24 (the search reads no plus sign, the names' words do); ``brackets``:
    with the words in brackets ("Phone (2a)")."""
    said, named = name_words(asked, brackets=brackets), name_words(name, brackets=brackets)
    return len(set(named) ^ set(said))


def _writes(name: str, number: str) -> bool:
    """Whether ``name`` has the words of ``number`` in a row ("Nineteen Eighty-Four")."""
    return f" {number} " in f" {' '.join(WORD.findall(name.casefold().replace('-', ' ')))} "


_CAPITALISED = re.compile(r"(?<=[^\W_] )[A-Z][a-z]+\b")
"""A word written with a capital after another word: "Prince" of "The Prince"."""


def _read_as_nothing(keywords: str, word: str, right: str) -> bool:
    """Whether reading ``word`` as ``right``, a word of the phrase table that means
    nothing alone, changes nothing the words mean but what is searched ("The Prince" as
    "The price"; not "undr 700")."""
    if right not in parser_words() or parse(right) != Words():
        return False
    meant = (
        replace(parse(t), groups=[], plain=[]) for t in (keywords, respell(keywords, {word: right}))
    )
    return next(meant) == next(meant)


def _as_named(keywords: str, unknown: list[str], corrected: dict[str, str]) -> dict[str, str]:
    """``corrected`` but for a word of a name (asked alone or for, or written with a
    capital) read as a word of the phrase table that means nothing where it stands ("do
    you have the prince" is no "the price"), and for a word of a name asked alone that has
    other words no product has, read as another word the search gives a meaning to: "Le
    Petit Prince" is a title the store lacks, not "Le Petit price"; "Samsung Phnoes" is
    Samsung phones."""
    title = name_asked_alone(keywords)
    said = {fold(w.casefold()) for w in WORD.findall(title or "")}
    strange = said & set(unknown)
    # Nor is a word of a name (asked alone or for, or written with a capital after the
    # first) read as a word of the phrase table that means nothing where it stands: "do
    # you have the prince" asks for a title, not "the price" (but "undr $500" is under
    # $500, "waterprof" waterproof: slips of no name).
    named = said | {fold(w.casefold()) for w in _CAPITALISED.findall(keywords)}
    named |= {fold(w.casefold()) for name in asked_names(keywords) for w in WORD.findall(name)}
    corrected = {
        w: r for w, r in corrected.items() if w not in named or not _read_as_nothing(keywords, w, r)
    }
    # A word of it read as nothing at all ("petit") makes it a name; slips each read as a
    # word ("Chep Andriod Phoens") are a wish, as written with capitals.
    if len(strange) < 2 or all(word in corrected for word in strange):
        return corrected
    meaningful = parser_words()
    return {w: r for w, r in corrected.items() if w not in strange or r not in meaningful}
