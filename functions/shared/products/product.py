"""A product record, declared once: what the catalog table, the bundled catalog and an
imported catalog file hold.

A row of an import file is either a product or a deletion. A deletion is a row whose
``deleted`` is true: ``{"productId": "CMP-001", "deleted": true}`` in JSON Lines, or a
CSV row whose ``deleted`` column says ``true`` (``yes`` and ``1`` also count); its other
fields are ignored. A product row may carry ``"deleted": false``, which changes nothing.

No AWS imports here: the local CLI validates import files with it and a Lambda may too.
"""

from __future__ import annotations

import re
import unicodedata
from decimal import Decimal
from typing import Annotated, Any, Final, Literal
from urllib.parse import urlsplit

from pydantic import (
    AfterValidator,
    BaseModel,
    ConfigDict,
    Field,
    StrictBool,
    StrictInt,
    StrictStr,
    StringConstraints,
    TypeAdapter,
    ValidationError,
    ValidatorFunctionWrapHandler,
    WrapValidator,
    field_validator,
    model_validator,
)
from pydantic_core import PydanticCustomError

from shared.catalog.categories import CategoryName
from shared.text.sanitize import has_control_characters

MAX_PRODUCT_ID = 255
"""Shopify's limit for a SKU, the longest id a store's platform gives."""
_HIDDEN_CATEGORIES = frozenset({"Cc", "Cf", "Co", "Cs", "Cn", "Zl", "Zp"})
"""Controls (tab and newline too), formatting characters (zero-width, bidi), private use,
surrogates, unassigned code points and line or paragraph separators: none of them can be
read on a screen, so an id holding one could never be told from another."""


def _readable_id(value: str) -> str:
    if any(unicodedata.category(char) in _HIDDEN_CATEGORIES for char in value):
        raise PydanticCustomError("product_id", "must not contain control or invisible characters")
    return value


ProductId = Annotated[
    str,
    Field(min_length=1, max_length=MAX_PRODUCT_ID),
    StringConstraints(strip_whitespace=True),
    AfterValidator(_readable_id),
]
"""A product's id: any SKU a store has, as it writes it (its ends stripped of spaces),
1 to 255 characters, none of them control or invisible. Nothing else is asked of its
shape: a citation recognises a product by its id, not by what the id looks like
(``compose_response.known``), and one that cannot be written safely in a citation is
cited by a handle (``shared.products.citing``)."""
_PRODUCT_ID: TypeAdapter[str] = TypeAdapter(ProductId)


def is_product_id(text: str) -> bool:
    """Whether ``text`` could be a product's id, exactly as written (ends included)."""
    try:
        return _PRODUCT_ID.validate_python(text) == text
    except ValidationError:
        return False


MAX_SPECS = 50
MAX_SPEC_TEXT = 1000
MAX_NAME = 200
MAX_DESCRIPTION = 4000
TRUE_WORDS = frozenset({"true", "yes", "1"})
FALSE_WORDS = frozenset({"false", "no", "0", ""})


def _no_control_characters(value: str) -> str:
    # Names and descriptions reach the model and the page; a hidden character there is
    # either a mistake or an attempt to smuggle something past a reviewer.
    if has_control_characters(value):
        raise PydanticCustomError(
            "control_characters", "must not contain control or invisible formatting characters"
        )
    return value


def _two_decimals(value: float) -> float:
    # repr() gives the shortest text that reads back as the same float, so 17.99 is
    # "17.99" here even though the float itself is not exactly 17.99.
    exponent = Decimal(repr(value)).as_tuple().exponent
    if isinstance(exponent, int) and exponent < -2:
        raise PydanticCustomError("decimal_places", "must have at most 2 decimal places")
    return value


NoControlCharacters = AfterValidator(_no_control_characters)
FiniteFloat = Annotated[float, Field(strict=True, allow_inf_nan=False)]
_SPEC_KEY = re.compile(r"[A-Za-z][A-Za-z0-9_]{0,63}")


def _spec_key(value: str) -> str:
    if not _SPEC_KEY.fullmatch(value):
        raise PydanticCustomError(
            "spec_key",
            "a spec name is a letter followed by up to 63 letters, digits or underscores",
        )
    return value


SpecKey = Annotated[str, AfterValidator(_spec_key)]

MAX_IMAGE_URL = 2000
"""Within the 2,000 characters the response keeps of any text (lookup_inventory's
full_record), so an address reaches the card whole."""
MAX_URL = MAX_IMAGE_URL
MAX_TAGS = 50
MAX_TAG = 60
MAX_PLATFORM_ID = 255


def _web_address(value: str) -> str:
    # The page puts it in an <img src> or an <a href>: a web address and nothing else
    # (no javascript:, no data: of any size, no spaces a card would have to guess about).
    parts = urlsplit(value)
    if parts.scheme not in ("https", "http") or not parts.hostname or re.search(r"\s", value):
        raise PydanticCustomError("web_address", "must be an http:// or https:// web address")
    return value


WebAddress = Annotated[
    str, Field(max_length=MAX_URL), NoControlCharacters, AfterValidator(_web_address)
]
"""A product's picture or page: an http(s) address, nothing a page could run."""
ImageUrl = WebAddress


def _page_address(value: str) -> str:
    # A page of the storefront may be written as its path ("/products/zenbook-14"): the
    # response makes it absolute on the store's address (shared.store.store_links).
    if value.startswith("/") and not value.startswith("//"):
        if re.search(r"[\s\\]", value):
            raise PydanticCustomError("web_address", "a page's path has no spaces")
        return value
    return _web_address(value)


PageAddress = Annotated[
    str, Field(max_length=MAX_URL), NoControlCharacters, AfterValidator(_page_address)
]
"""A product's page: an http(s) address, or a path on the storefront (``/products/x``)."""
Tag = Annotated[StrictStr, Field(min_length=1, max_length=MAX_TAG), NoControlCharacters]
"""One of a product's tags: a word or a few the search matches ("gaming", "kids")."""
Tags = Annotated[list[Tag], Field(max_length=MAX_TAGS)]
PlatformId = Annotated[
    StrictStr, Field(min_length=1, max_length=MAX_PLATFORM_ID), NoControlCharacters
]
"""The store platform's own id of a product or variant (Shopify's variant id, WooCommerce's
product id), as text: what a cart link needs."""


def _one_spec_error(value: Any, handler: ValidatorFunctionWrapHandler) -> Any:
    # A union reports one error per member it tried; a reader wants one sentence.
    try:
        return handler(value)
    except ValidationError as exc:
        for error in exc.errors():
            if error["type"] in ("control_characters", "string_too_long", "too_long"):
                raise PydanticCustomError(error["type"], error["msg"]) from None
        raise PydanticCustomError(
            "spec_value",
            "a spec value must be text, a number, true/false or a list of text",
        ) from None


def _unsaid(value: Any) -> bool:
    return value is None


def _counted(value: Any) -> bool:
    return value is True


_FALSE_WORDS: Final = frozenset({"false", "f", "no", "n", "0", "off"})


def _says_false(value: Any) -> bool:
    """Whether ``value`` is a false the model reads as one (``false``, ``"FALSE"``,
    ``"no"``, ``0``)."""
    if isinstance(value, bool):
        return not value
    if isinstance(value, int | float):
        return value == 0
    return isinstance(value, str) and value.strip().casefold() in _FALSE_WORDS


Unsaid = Field(exclude_if=_unsaid)
"""An optional field: absent from a dump when the product has none."""
Price = Annotated[float, Field(ge=0, allow_inf_nan=False), AfterValidator(_two_decimals)]


SpecText = Annotated[StrictStr, Field(max_length=MAX_SPEC_TEXT), NoControlCharacters]
SpecValue = Annotated[
    StrictBool
    | StrictInt
    | FiniteFloat
    | SpecText
    | Annotated[list[SpecText], Field(max_length=MAX_SPECS)],
    WrapValidator(_one_spec_error),
]


class Product(BaseModel):
    """One product. Field order is the bundled catalog's, so a dump reads like it."""

    # Its validator is built at its first use: only what writes the catalog (the import,
    # the platforms' sync and webhooks) validates products, and every function imports this
    # module for the fields the ledger shares with it.
    model_config = ConfigDict(extra="forbid", str_strip_whitespace=True, defer_build=True)

    productId: ProductId
    name: Annotated[str, Field(min_length=1, max_length=MAX_NAME), NoControlCharacters]
    brand: Annotated[str, Field(min_length=1, max_length=100), NoControlCharacters]
    category: CategoryName
    price: Price
    compareAtPrice: Annotated[Price | None, Unsaid] = None
    """The price before a sale: the product is on sale when it is above ``price``."""
    description: Annotated[
        str, Field(min_length=1, max_length=MAX_DESCRIPTION), NoControlCharacters
    ]
    stock: Annotated[int, Field(ge=0)]
    stockTracked: Annotated[bool, Field(exclude_if=_counted)] = True
    """False when the store sells the product without counting it (WooCommerce's "Manage
    stock?" off, Shopify's inventory not tracked): it is in stock and its ``stock`` is no
    count (``shared.products.stock``). Left out of a dump when true, so a record written
    before it existed is counted, and a counted one is stored as before."""
    specs: Annotated[dict[SpecKey, SpecValue], Field(max_length=MAX_SPECS)] = {}
    # The optional fields are left out of a dump when there is none, so a product
    # without them is stored and exported exactly as before they existed.
    imageUrl: Annotated[ImageUrl | None, Unsaid] = None
    url: Annotated[PageAddress | None, Unsaid] = None
    """The product's page on the store."""
    tags: Annotated[Tags | None, Unsaid] = None
    platformProductId: Annotated[PlatformId | None, Unsaid] = None
    platformVariantId: Annotated[PlatformId | None, Unsaid] = None
    platformInventoryItemId: Annotated[PlatformId | None, Unsaid] = None
    """Shopify's inventory item of the variant: what its stock webhooks
    (``inventory_levels/update``) name."""

    @model_validator(mode="before")
    @classmethod
    def _no_count(cls, data: Any) -> Any:
        # Sold uncounted, a product has no count: an empty or missing stock is 0, not a
        # stock the record must give ("stockTracked": false with no "stock").
        if (
            isinstance(data, dict)
            and data.get("stock") in (None, "")
            and _says_false(data.get("stockTracked"))
        ):
            return {**data, "stock": 0}
        return data

    @field_validator("category", mode="before")
    @classmethod
    def _upper(cls, value: Any) -> Any:
        # "computers" means COMPUTERS, as it does to the catalog tool.
        return value.strip().upper() if isinstance(value, str) else value


class ProductDeletion(BaseModel):
    """A row that removes the product with this id (see the module docstring)."""

    model_config = ConfigDict(defer_build=True)  # as Product's

    productId: ProductId
    deleted: Literal[True] = True


def _is_deletion(row: dict[str, Any]) -> bool:
    """True when ``row`` asks for its product to be deleted.

    Raises ``ValueError`` when ``deleted`` is there but is neither true nor false.
    """
    flag = row.get("deleted", False)
    if isinstance(flag, bool):
        return flag
    if isinstance(flag, str) and flag.strip().lower() in TRUE_WORDS | FALSE_WORDS:
        return flag.strip().lower() in TRUE_WORDS
    raise ValueError("deleted must be true or false")


def validate_row(row: dict[str, Any], *, strict: bool = True) -> Product | ProductDeletion:
    """A product or a deletion from one row of an import file.

    ``strict`` refuses text where a number belongs (``"stock": "3"``): right for JSON,
    where a number has its own syntax; CSV passes ``strict=False`` because every cell
    is text. Raises pydantic's ``ValidationError`` naming each bad field.
    """
    try:
        deletion = _is_deletion(row)
    except ValueError as exc:
        raise ValidationError.from_exception_data(
            "Product",
            [
                {
                    "type": PydanticCustomError("deleted", str(exc)),
                    "loc": ("deleted",),
                    "input": row.get("deleted"),
                }
            ],
        ) from None
    if deletion:
        return ProductDeletion.model_validate({"productId": row.get("productId")}, strict=strict)
    fields = {key: value for key, value in row.items() if key != "deleted"}
    return Product.model_validate(fields, strict=strict)
