"""What a search asks and what it answers.

:class:`SearchQuery` takes the ``lookup_inventory`` tool's input fields under
their tool names (``category``, ``keywords``, ``maxPrice``, ``sortBy``...) so
that a validated tool input maps onto it with :meth:`SearchQuery.from_input`,
plus the numeric spec bounds of :data:`BOUNDS`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, fields
from typing import Any

from shared.catalog.categories import CATEGORIES
from shared.catalog.derive import bounds, sorts, tie_sorts

# sortBy -> (facet column, biggest first). Products without the spec go last,
# in-stock products before sold-out ones, ties by price; a SECOND_SORT orders the
# ties of its sort (phones have no battery hours: then battery_mah).
SORTS: dict[str, tuple[str, bool]] = {
    sort.name: (column, sort.biggest_first) for column, sort in sorts()
}
SECOND_SORT: dict[str, tuple[str, bool]] = {
    sort.name: (column, sort.biggest_first) for column, sort in tie_sorts()
}
KINDS = "kinds"
"""The order of an answer that names no kind, word or order ("anything under $400"): each
kind the store sells in turn, the cheapest of each first."""


# Spec bound field -> (facet column, SQL comparison). Unknown specs never pass a bound.
BOUNDS: dict[str, tuple[str, str]] = {
    bound.name: (declared.column, ">=" if bound.at_least else "<=") for declared, bound in bounds()
}


def bound_on(column: str, *, at_least: bool) -> str | None:
    """The bound field that limits facet ``column`` from below (``at_least``) or from
    above, if the tool has one: ``("weight_kg", at_least=False)`` is ``maxWeightKg``."""
    way = ">=" if at_least else "<="
    return next((name for name, limit in BOUNDS.items() if limit == (column, way)), None)


MAX_LIMIT = 100
_SEARCH_ONLY = ("against_ids", "against_line")
"""The fields the search fills from the keywords, which no tool input sets."""


@dataclass(frozen=True)
class SearchQuery:
    category: str | None = None
    keywords: str | None = None
    productName: str | None = None
    brandId: str | None = None
    minPrice: float | None = None
    maxPrice: float | None = None
    inStockOnly: bool = False
    sortBy: str | None = None
    productIds: tuple[str, ...] | None = None
    formFactor: str | None = None
    os: str | None = None
    limit: int = 8
    bounds: Mapping[str, float] = field(default_factory=dict)
    """Spec bounds by :data:`BOUNDS` name: ``{"minRamGb": 16, "maxWeightKg": 1.5}``."""
    against_ids: tuple[str, ...] = ()
    """The products a price or a spec is said against, by id ("a book cheaper than Dune":
    each of the store's Dunes, paperback and hardcover), which are no answer to it: left out
    of what is found, and of what a relaxed search shows as nearest. Read from the keywords
    by the search, never a tool field."""
    against_line: str | None = None
    """The same of a product line said against ("a laptop cheaper than the MacBook": every
    MacBook), as the FTS5 query that finds its products."""

    def __post_init__(self) -> None:
        if self.category is not None:
            # Models write a category in lower case as often as in capitals.
            object.__setattr__(self, "category", self.category.strip().upper())
            if self.category not in CATEGORIES:
                raise ValueError(f"category must be one of {CATEGORIES}, got {self.category!r}")
        if self.sortBy is not None and self.sortBy not in SORTS:
            raise ValueError(f"sortBy must be one of {tuple(SORTS)}, got {self.sortBy!r}")
        unknown = set(self.bounds) - set(BOUNDS)
        if unknown:
            raise ValueError(f"unknown spec bounds: {sorted(unknown)}")
        if not 1 <= self.limit <= MAX_LIMIT:
            raise ValueError(f"limit must be between 1 and {MAX_LIMIT}, got {self.limit}")

    @classmethod
    def from_input(cls, data: Mapping[str, Any], *, limit: int = 8) -> SearchQuery:
        """A query from tool input: known fields by name, bounds by their :data:`BOUNDS`
        names, None values ignored. Anything else is refused."""
        names = {f.name for f in fields(cls)} - {"bounds", "limit", *_SEARCH_ONLY}
        given = {k: v for k, v in data.items() if v is not None}
        unknown = set(given) - names - set(BOUNDS) - {"limit"}
        if unknown:
            raise ValueError(f"unknown search fields: {sorted(unknown)}")
        kwargs: dict[str, Any] = {k: v for k, v in given.items() if k in names}
        if "productIds" in kwargs:
            kwargs["productIds"] = tuple(kwargs["productIds"])
        bounds = {k: float(v) for k, v in given.items() if k in BOUNDS}
        return cls(**kwargs, bounds=bounds, limit=int(given.get("limit", limit)))


@dataclass(frozen=True)
class Hit:
    """A product found: its id and the fields the index holds (price and stock as of
    the snapshot; read them fresh from the table before showing them)."""

    productId: str
    name: str
    brand: str
    category: str
    price: float | None
    stock: int
    specs: dict[str, Any]
    """Facets the product has, by column name (``ram_gb``, ``os``, ``form_factor``...)."""
    compareAtPrice: float | None = None
    """The price before a sale, as of the snapshot."""


@dataclass(frozen=True)
class SearchResult:
    products: list[Hit]
    count: int
    """Products that match the filters (and at least one search word, if any)."""
    count_is_exact: bool
    """False when ``count`` is a lower bound: counting stops at a cap, and a search whose
    words match very many products counts in a sample of them."""
    relaxed: list[str] = field(default_factory=list)
    """What was dropped to find anything: ``["keywords"]``, then ``["keywords", "price"]``."""
    understood: dict[str, Any] = field(default_factory=dict)
    """What the keywords were taken to mean: ``{"category": "MOBILE", "maxPrice": 500,
    "sortBy": "storage", "searched": ["samsung"]}``: filters, the order they asked for
    ("most storage"), or, ranked by relevance, the order their uses lean to (``favours``:
    ``"weight"`` for "travel"), and the words searched (a product with any of them is
    counted, those with all of them rank first)."""
    ranked_by: str = "price"
    """``relevance``, the sort applied (``price``, ``ram``...), or :data:`KINDS`."""
    nearest: dict[str, float] = field(default_factory=dict)
    """The limits dropped to find anything (``{"maxPrice": 200.0, "minRamGb": 64.0}``),
    in ``relaxed`` as ``price`` and their names: the products are the nearest to the
    first of them (``ranked_by``: the cheapest, the most RAM), unless ``sortBy`` said
    another order."""
    corrected: dict[str, str] = field(default_factory=dict)
    """Words of the keywords that matched nothing, and what they were read as instead:
    ``{"labtop": "laptop", "harrypotter": "harry potter"}``."""
    unknown: list[str] = field(default_factory=list)
    """What was asked for that the catalog does not know: words of the keywords that are
    none of its words and were read as none of them, and a ``brandId`` no brand of it
    contains. The store's unmet demand (``storechat insights``)."""
    not_carried: list[str] = field(default_factory=list)
    """The names the keywords ask the store for (:mod:`shared.search.asked`: "Huawei" in
    "Huawei phones", "kayaks" in "do you have any kayaks?"), as written, that are of
    ``unknown``: a brand or a thing the store does not sell; and the kinds of product
    they ask for that it does not sell (:mod:`shared.search.unsold`: "TVs")"""
    instead: str | None = None
    """The kind shown in place of one of those, where a nearer kind is known ("2-in-1
    laptops" for tablets): the products are that kind's."""

    @property
    def product_ids(self) -> list[str]:
        return [hit.productId for hit in self.products]
