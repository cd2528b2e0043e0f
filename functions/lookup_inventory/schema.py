"""What the model may ask ``lookup_inventory`` for: the tool's input, declared once.

The model's tool spec is generated from this model (``registry``), so the
descriptions below are what the model reads, on every call: they stay short. Every
field is a :class:`shared.search.SearchQuery` field or a spec bound of
:data:`shared.search.BOUNDS`, under the same name. The spec bounds, the sorts and the
categories come from the catalog's vocabulary (:mod:`shared.catalog`), with their
descriptions and the live trace's words.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, create_model, field_validator

from shared.catalog.categories import PLURALS, CategoryName
from shared.catalog.derive import bounds, kinds, sorts
from shared.products.citing import is_handle
from shared.products.currency import DEFAULT_CURRENCY, InStoreCurrency, amount
from shared.products.product import ProductId
from shared.tools.tool_steps import Words, field_words

_SORTS = sorts()
if TYPE_CHECKING:
    SortBy = str
else:
    SortBy = Literal[tuple(sort.name for _, sort in _SORTS)]
MAX_PRODUCT_IDS = 10
MAX_KEYWORDS_CHARS = 120
DEFAULT_PAGE = 4
"""Products shown when the model does not ask for more: enough to recommend three and say
why the fourth lost; every one shown is read again on each later call of the turn."""
MAX_PAGE = 12
"""The most one result shows, for a shopper who asks to see or compare many."""
MAX_OFFSET = 88
"""How deep a search pages: the index ranks at most ``shared.search.query.MAX_LIMIT``
(100) matches for one call, and the last page must fit in them. Not imported from there:
the Converse function reads this module for the tool spec, and loads no search engine."""


def _bound(description: str) -> Any:
    """A numeric spec bound: products without the spec never pass it."""
    return Field(gt=0, allow_inf_nan=False, description=description)


def _sort_description() -> str:
    # Grouped by direction, not spelled out per value: the enum already lists the values,
    # and the model reads this text on every call of every turn.
    smallest = [sort.name for _, sort in _SORTS if not sort.biggest_first]
    largest = [sort.name for _, sort in _SORTS if sort.biggest_first]
    return (
        "Order, in stock first, instead of relevance (price without keywords). Smallest first: "
        f"{', '.join(smallest)}; largest first: {', '.join(largest)}"
    )


DESCRIPTION = (
    "Search the store's catalog by relevance to keywords, with filters. Returns count ('+': "
    "at least), the best few products as a table (columns named once, then a row per product: "
    "id, name, brand, category, current price and stock (stockTracked false: in stock, no "
    "count), key specs, summary; null where a "
    "product has none; a value every product shares is given once, in 'same'), nextOffset "
    "to page on, how the keywords were read, and misspellings it corrected ('corrected'). "
    "With no match it drops the keywords, then the limits (the nearest to them first), and "
    "says so in 'relaxed' (makers let go in 'relaxedBrands'); words no product has are in "
    "'notInCatalog'; an amount in another currency, read as the store's, in 'currencySaid'. "
    "Products the keywords "
    "name come first ('understood': 'named'); keywords asking for more than one kind search "
    "the first, the rest in 'understood': 'alsoAsked' (search each); a brand, model or thing "
    "asked for by name that the store does not sell is in 'notCarried', its line's nearest "
    "models first; so is a kind of product it does not sell, with the nearest kind it shows "
    "instead in 'showingInstead'. A first product out of stock comes with the nearest in "
    "stock ('inStockInstead')."
)


class _Search(BaseModel):
    """The fields before the spec bounds (the tool spec lists them in this order)."""

    model_config = ConfigDict(extra="forbid", str_strip_whitespace=True)

    productName: Annotated[
        str | None,
        Field(
            min_length=1, max_length=120, description="Words that must appear in the product name"
        ),
    ] = None
    brandId: Annotated[
        str | None,
        Field(
            min_length=1,
            max_length=60,
            # No examples: the brands are the catalog's, and a list here would be the code's.
            description="Brand, as results name it",
        ),
    ] = None
    category: Annotated[
        CategoryName | None,
        Field(description="Product category"),
        Words({str(category): words for category, words in PLURALS.items()}),
    ] = None
    keywords: Annotated[
        str | None,
        Field(
            min_length=1,
            max_length=MAX_KEYWORDS_CHARS,
            description=(
                "The shopper's words, e.g. 'laptop for video editing'; ranked, not all required"
            ),
        ),
    ] = None
    minPrice: Annotated[
        float | None,
        Field(ge=0, le=1_000_000, allow_inf_nan=False, description="Lowest price"),
        InStoreCurrency(),
    ] = None
    maxPrice: Annotated[
        float | None,
        Field(gt=0, le=1_000_000, allow_inf_nan=False, description="Highest price"),
        InStoreCurrency(),
    ] = None
    inStockOnly: Annotated[
        bool | None, Field(description="Only products in stock"), Words("in stock")
    ] = None

    @field_validator("category", mode="before")
    @classmethod
    def _upper(cls, value: Any) -> Any:
        # Models write a category in lower case as often as in capitals; both mean the same.
        return value.strip().upper() if isinstance(value, str) else value


def _kind_fields() -> dict[str, Any]:
    """A filter for each spec that says what kind of product it is (``formFactor``)."""
    specs = {spec.key: spec for spec, _ in kinds()}
    fields: dict[str, Any] = {}
    for key, spec in specs.items():
        values = [kind for owner, kind in kinds() if owner.key == key]
        description = spec.kinds.description if spec.kinds else spec.label
        fields[key] = (
            Annotated[
                Literal[tuple(kind.value for kind in values)] | None,
                Field(description=description),
                Words({kind.value: kind.plural for kind in values}),
            ],
            None,
        )
    return fields


if TYPE_CHECKING:
    _WithBounds = _Search
else:
    _WithBounds = create_model(
        "_WithBounds",
        __base__=_Search,
        **_kind_fields(),
        **{
            bound.name: (
                Annotated[float | None, _bound(bound.description), Words(bound.step)],
                None,
            )
            for _, bound in bounds()
        },
    )


class InventoryInput(_WithBounds):
    """What the model may ask for. Unknown keys are refused, not ignored."""

    productIds: Annotated[
        list[ProductId] | None,
        Field(
            min_length=1,
            max_length=MAX_PRODUCT_IDS,
            description="Product ids to fetch, e.g. ones cited earlier",
        ),
    ] = None
    limit: Annotated[
        int | None,
        Field(
            ge=1,
            le=MAX_PAGE,
            description=(
                f"Products to show, {DEFAULT_PAGE} by default; up to {MAX_PAGE} to see or "
                "compare many (a larger page has no summaries)"
            ),
        ),
    ] = None
    offset: Annotated[
        int | None,
        Field(
            ge=0,
            le=MAX_OFFSET,
            description="Matches to skip: a result's nextOffset, for the next page",
        ),
        Words("past the first {}"),
    ] = None
    sortBy: Annotated[
        SortBy | None,
        Field(description=_sort_description()),
        Words({sort.name: sort.step for _, sort in _SORTS}),
    ] = None

    @field_validator("offset")
    @classmethod
    def _first_page(cls, value: int | None) -> int | None:
        # An offset of 0 is the first page, as no offset is (and reads so in the trace).
        return value or None

    # -- the live trace ----------------------------------------------------------------------

    def step(self, currency: str = DEFAULT_CURRENCY) -> str:
        """This search in the shopper's words, its prices in the store's ``currency``:
        "Searching the catalog for gaming laptops under $1,500"."""
        if self.productIds:
            return f"Looking up {_products_words(self.productIds)} in the catalog"
        kinds_asked = field_words(self, [spec.key for spec, _ in kinds()])
        (category,) = kinds_asked[:1] or field_words(self, ["category"]) or ["products"]
        subject = self.keywords or (f"“{self.productName}”" if self.productName else category)
        asked = [getattr(self, spec.key) for spec, _ in kinds() if getattr(self, spec.key, None)]
        if self.keywords and asked and str(asked[0]).casefold() not in self.keywords.casefold():
            subject = f"{self.keywords} {kinds_asked[0]}"  # "gaming" laptops
        if self.brandId and self.brandId.casefold() not in subject.casefold():
            subject = f"{self.brandId} {subject}"
        price = _price_words(self.minPrice, self.maxPrice, currency)
        said = {"category", "sortBy", *(spec.key for spec, _ in kinds())}
        rest = field_words(self, [name for name in type(self).model_fields if name not in said])
        order = "".join(f", {words}" for words in field_words(self, ["sortBy"]))
        return " ".join(["Searching the catalog for", subject, *price, *rest]) + order

    @classmethod
    def found(cls, result: dict[str, Any]) -> str:
        """How the search ended, from what the model was told: "12 found", "8 found
        (read 'samsng' as 'samsung')"."""
        count = result.get("count")
        corrected = result.get("corrected")
        read = f" (read {corrected_words(corrected)})" if isinstance(corrected, dict) else ""
        if count in (0, "0"):
            return "nothing found" + read
        return f"{count} found{read}" if count is not None else "done"


def _products_words(ids: list[str]) -> str:
    """The products asked for, as the shopper may read them: their ids, and a count of
    those asked for by handle, which is the model's word, not the store's."""
    named = [pid for pid in dict.fromkeys(ids) if not is_handle(pid)]
    others = len(dict.fromkeys(ids)) - len(named)
    noun = "product" if others == 1 else "products"
    if others and named:
        named.append(f"{others} more {noun}")
    elif others:
        named.append("a product" if others == 1 else f"{others} products")
    return ", ".join(named[:-1]) + f" and {named[-1]}" if len(named) > 1 else named[0]


def corrected_words(corrected: dict[str, str]) -> str:
    """How the trace says what a search read instead of the words it was given."""
    return ", ".join(f"{wrong!r} as {right!r}" for wrong, right in corrected.items())


def _price_words(low: float | None, high: float | None, currency: str) -> list[str]:
    def said(value: float) -> str:
        return amount(value, currency, whole=True)

    if low and high:
        return [f"between {said(low)} and {said(high)}"]
    if high:
        return [f"under {said(high)}"]
    if low:
        return [f"over {said(low)}"]
    return []
