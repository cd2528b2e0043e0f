"""A product as the ledger holds it: the record a catalog tool found, which the response
shows and checks the answer against.

Not :class:`shared.products.product.Product`, on purpose. The ledger holds what the tools
return, and they return less than an import file must hold: the search snapshot keeps
no description, a store's table may hold a product without a brand or a picture. A
missing field is unknown (the fact check skips it, the card leaves it out), never a
reason to hide the product. What is there must be what a product holds: an id the
citations can name, a name, a price that is a number, specs of the shop's value kinds.
A record that is not one is refused here, once, with a warning in the log, and the
answer may not cite it (:mod:`compose_response.citations` removes the claim).

A dump is the record as the tool returned it: the fields it did not have stay out, a
whole-number price stays an ``int``, and fields a store adds beyond these pass through.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable
from typing import Annotated, Any, NamedTuple

from pydantic import (
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    StrictBool,
    StrictInt,
    StrictStr,
    TypeAdapter,
    ValidationError,
)

from shared.catalog.categories import CategoryName
from shared.config.metric_names import SERVICE
from shared.products.product import FiniteFloat, ImageUrl, PageAddress, ProductId, Unsaid
from shared.runtime.tool_errors import describe_validation_error
from shared.text.sanitize import clean_value

Price = Annotated[StrictInt, Field(ge=0)] | Annotated[FiniteFloat, Field(ge=0)]
"""A price as the catalog wrote it: ``349`` stays ``349``, ``349.5`` a float."""
LedgerSpecValue = StrictBool | StrictInt | FiniteFloat | StrictStr | list[StrictStr]
"""A spec's value, of the kinds :data:`shared.products.product.SpecValue` allows (its length caps
are the import's business: the ledger cuts text as the tool cut it)."""


def _id_text(value: Any) -> Any:
    # A platform that writes its id as a number (WooCommerce's API does) means that id.
    return str(value) if isinstance(value, int) and not isinstance(value, bool) else value


PlatformId = Annotated[StrictStr, BeforeValidator(_id_text)]
"""A platform's id as text."""


class LedgerProduct(BaseModel):
    """One product the tools found, as the response shows it. Field order is
    :class:`~shared.products.product.Product`'s, the order the catalog's records are written in."""

    model_config = ConfigDict(extra="allow")

    productId: ProductId
    name: Annotated[StrictStr, Field(min_length=1)]
    brand: Annotated[StrictStr | None, Unsaid] = None
    category: Annotated[CategoryName | None, Unsaid] = None
    price: Annotated[Price | None, Unsaid] = None
    compareAtPrice: Annotated[Price | None, Unsaid] = None
    """The price before a sale; on sale when above ``price``."""
    description: Annotated[StrictStr | None, Unsaid] = None
    stock: Annotated[Annotated[StrictInt, Field(ge=0)] | None, Unsaid] = None
    stockTracked: Annotated[StrictBool | None, Unsaid] = None
    """False for a product the store sells uncounted: in stock, its ``stock`` no count."""
    specs: Annotated[dict[StrictStr, LedgerSpecValue] | None, Unsaid] = None
    imageUrl: Annotated[ImageUrl | None, Unsaid] = None
    url: Annotated[PageAddress | None, Unsaid] = None
    tags: Annotated[list[StrictStr] | None, Unsaid] = None
    platformProductId: Annotated[PlatformId | None, Unsaid] = None
    platformVariantId: Annotated[PlatformId | None, Unsaid] = None

    @property
    def on_sale(self) -> bool:
        """Whether the record says the product is on sale: a price before it, above it."""
        return (
            self.compareAtPrice is not None
            and self.price is not None
            and self.compareAtPrice > self.price
        )

    @property
    def uncounted(self) -> bool:
        """Whether the store sells it without counting it (``shared.products.stock``)."""
        return self.stockTracked is False

    def spec(self, key: str) -> Any:
        """The value of spec ``key``; None when the record has none."""
        return (self.specs or {}).get(key)


# The standard logger that Powertools' Logger (shared.runtime.observability) writes through: in a
# function its lines are the same JSON, and this module's types, which the tools' schemas
# and so the CDK app import, load no Powertools.
_log = logging.getLogger(SERVICE)

LedgerIndex = dict[str, LedgerProduct]
"""The ledger's products by id, as the answer's citations look them up."""

_PRODUCT = TypeAdapter(LedgerProduct)


class Sorted(NamedTuple):
    """Records sorted: the products among them, parsed, and how many were refused."""

    products: list[LedgerProduct]
    refused: int


def sort_records(records: Iterable[Any]) -> Sorted:
    """The records that are products, parsed; each one that is not is logged, left out
    and counted.

    One record that is not a product must not cost the shopper the others, and what the
    answer says about the one left out is then unverifiable.
    """
    kept: list[LedgerProduct] = []
    refused = 0
    for record in records:
        if isinstance(record, LedgerProduct):
            kept.append(record)
            continue
        try:
            kept.append(_PRODUCT.validate_python(record))
        except ValidationError as exc:
            refused += 1
            _log.warning(
                "ledger record refused: not a product",
                extra={
                    "productId": record.get("productId") if isinstance(record, dict) else None,
                    "problems": describe_validation_error(exc),
                },
            )
    return Sorted(kept, refused)


def clean_record(record: dict[str, Any], limit: int) -> dict[str, Any]:
    """``record`` with its text cleaned and cut to ``limit``
    (:func:`shared.text.sanitize.clean_value`), but its ``productId`` exactly as the catalog
    holds it: an id is an identity, and a SKU's own spaces are part of it."""
    cleaned: dict[str, Any] = clean_value(record, limit)
    if "productId" in record:
        cleaned["productId"] = record["productId"]
    return cleaned


def products_of(records: Iterable[Any]) -> list[LedgerProduct]:
    """The records that are products, parsed (:func:`sort_records`, uncounted)."""
    return sort_records(records).products


def _products_only(records: Any) -> Any:
    # Anything but a list is left to the list's own validation to refuse.
    return products_of(records) if isinstance(records, list) else records


LedgerProducts = Annotated[list[LedgerProduct], BeforeValidator(_products_only)]
"""The ledger's products, parsed once where they enter a function: the records that
are not products are dropped there."""
