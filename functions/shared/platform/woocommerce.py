"""A WooCommerce product as its REST API (``wc/v3/products``) and its webhooks describe it,
as a :class:`~shared.platform.product.PlatformProduct`.

A webhook's body is the product's REST resource, the same object the API's pages hold.
A variable product lists only the ids of its variations there; the API reads them from
``products/<id>/variations``, and each becomes one variant of the product (its own SKU,
price, stock, picture and options, the parent's other attributes shared). The price is
the ``price`` WooCommerce itself charges today (the sale price while the sale is on),
and the regular price is then the price before it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any
from urllib.parse import quote

from shared.platform.mapping import names_maker
from shared.platform.payload import (
    PayloadError,
    amount,
    field_text,
    items,
    platform_id,
    units_of,
)
from shared.platform.product import PlatformProduct, PlatformVariant

NOT_PUBLISHED = {"draft": "a draft", "pending": "pending review", "private": "private"}


def product_page(store: str | None, product_id: str) -> str:
    """WordPress's link to the post ``product_id`` on ``store``: the store redirects it to
    the product's page, whatever its permalinks are. Empty without a store address."""
    if not store or not product_id:
        return ""
    return f"{store.rstrip('/')}/?p={quote(product_id, safe='')}"


def kind(payload: Mapping[str, Any]) -> str:
    """``simple``, ``variable``, ``variation`` or ``grouped`` (plugin kinds read as the
    kind they extend: ``variable-subscription`` is variable)."""
    text = field_text(payload, "type").casefold() or "simple"
    if text.endswith("variation"):
        return "variation"
    if text.startswith("variable"):
        return "variable"
    return "grouped" if text == "grouped" else "simple"


def rest_product(
    payload: Any,
    store_url: str | None,
    variations: Sequence[Any] | None = None,
) -> PlatformProduct:
    """A product of the REST API or a webhook's body; ``variations``: a variable
    product's variations (``products/<id>/variations``)."""
    if not isinstance(payload, Mapping):
        raise PayloadError("the body is not a JSON object (a WooCommerce product)")
    product_id = platform_id(payload.get("id"), "id")
    what = kind(payload)
    attributes = items(payload.get("attributes"), "attributes")
    shared_attributes = tuple(
        (field_text(a, "name"), tuple(str(o) for o in items(a.get("options"), "options")))
        for a in attributes
        if not (what == "variable" and a.get("variation") is True)
        and field_text(a, "name")
        and a.get("options")
    )
    brands = [field_text(b, "name") for b in items(payload.get("brands"), "brands")]
    page = field_text(payload, "permalink") or product_page(store_url, product_id)
    if what == "variable":
        given = [v for v in (variations or []) if isinstance(v, Mapping)]
        # A variation the store turned off (private) is not for sale, as its CSV row is not.
        sold = [v for v in given if not _not_sold(v)]
        variants = tuple(_variant(v, payload, parent=True) for v in sold)
        not_sold = _not_sold(payload) or (
            ""
            if variants
            else f"its variations are not for sale ({_not_sold(given[0])})"
            if given
            else "a variable product with no variations"
        )
    else:
        variants = (_variant(payload, payload, parent=False),)
        not_sold = _not_sold(payload)
        if what == "grouped":
            not_sold = "a grouped product (its products have rows of their own)"
    return PlatformProduct(
        title=field_text(payload, "name"),
        vendor=brands[0] if brands else "",
        categories=tuple(
            field_text(c, "name") for c in items(payload.get("categories"), "categories")
        ),
        tags=tuple(field_text(t, "name") for t in items(payload.get("tags"), "tags")),
        description=(field_text(payload, "short_description"), field_text(payload, "description")),
        attributes=shared_attributes,
        custom_fields=maker_fields(payload.get("meta_data")),
        images=tuple(field_text(image, "src") for image in items(payload.get("images"), "images")),
        platform_id=product_id,
        url=page,
        not_sold=not_sold,
        variants=variants,
        option_joiner=", ",
    )


def maker_fields(meta: Any) -> tuple[tuple[str, str], ...]:
    """The product's custom fields (``meta_data``) that name its maker (``book_author``,
    ``publisher``), as the export's ``Meta:`` columns are read: a key that begins with
    ``_`` is a plugin's own, and a value that is not text says nothing here."""
    found = []
    for entry in meta if isinstance(meta, list) else []:
        key = entry.get("key") if isinstance(entry, Mapping) else None
        value = entry.get("value") if isinstance(entry, Mapping) else None
        if (
            isinstance(key, str)
            and isinstance(value, str)
            and value.strip()
            and not key.startswith("_")
            and names_maker(key)
        ):
            found.append((key, value.strip()))
    return tuple(found)


def not_sold(payload: Mapping[str, Any]) -> str:
    """Why the product itself is not for sale (a draft, private, hidden); "" when it is."""
    return _not_sold(payload)


def _not_sold(payload: Mapping[str, Any]) -> str:
    status = field_text(payload, "status").casefold()
    if status in NOT_PUBLISHED:
        return f"{NOT_PUBLISHED[status]} (status: {status})"
    if field_text(payload, "catalog_visibility").casefold() == "hidden":
        return "hidden from the store's catalog (catalog_visibility: hidden)"
    return ""


def _variant(
    data: Mapping[str, Any], product: Mapping[str, Any], *, parent: bool
) -> PlatformVariant:
    own_id = platform_id(data.get("id"), "variations.id" if parent else "id")
    problems: list[tuple[str, str]] = []
    try:
        price = amount(data.get("price"))
        regular = amount(data.get("regular_price"))
        sale = amount(data.get("sale_price"))
    except ValueError as exc:
        price = regular = sale = None
        problems.append(("price", str(exc)))
    on_sale = data.get("on_sale") is True and sale is not None
    if price is None and not problems:
        price = sale if on_sale else regular
    options = (
        tuple(
            (field_text(a, "name"), field_text(a, "option"))
            for a in items(data.get("attributes"), "attributes")
            if field_text(a, "name") and field_text(a, "option")
        )
        if parent
        else ()
    )
    image = data.get("image") if parent else None
    texts = (field_text(data, "description"),) if parent and field_text(data, "description") else ()
    status = field_text(data, "stock_status")
    return PlatformVariant(
        sku=field_text(data, "sku"),
        fallback_id=f"wc-{own_id}",
        title=field_text(data, "name") if parent else "",
        options=options,
        price=price,
        compare_at_price=regular if on_sale else None,
        inventory=(stock := _stock(data, product)),
        untracked=(untracked := stock is None and status.casefold() == "instock"),
        stock_status=status if stock is None and not untracked else "",
        image=field_text(image, "src") if isinstance(image, Mapping) else "",
        barcode=field_text(data, "global_unique_id") or field_text(product, "global_unique_id"),
        platform_id=own_id if parent else "",
        url=field_text(data, "permalink") if parent else "",
        description=texts,
        problems=tuple(problems),
    )


def _stock(data: Mapping[str, Any], product: Mapping[str, Any]) -> int | None:
    """The count when WooCommerce manages the stock (a variation's may be its parent's);
    0 when it says out of stock; None (not counted) otherwise: "instock" with no count is
    sold uncounted (``PlatformVariant.untracked``), "onbackorder" with none is left to
    the import's default count, as a product whose status says nothing."""
    managed = data.get("manage_stock")
    source = product if managed == "parent" else data
    if source.get("manage_stock") is True or managed == "parent":
        counted = units_of(source.get("stock_quantity"))
        if counted is not None:
            return counted
    if field_text(data, "stock_status").casefold() == "outofstock":
        return 0
    return None
