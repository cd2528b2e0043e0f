"""A product's links on the storefront: its page, and the address that adds it to the cart.

Built here, once, for every client: the response builder puts them on the response's
products (``url``, ``cartUrl``), so the chat page, the widget and ``storechat ask``
show the same links, and none of them knows a platform's cart rules. Each link is made
from the catalog's record (its ``url``, ``stock`` and the platform's ids) and the
store's settings (the storefront's address, the platform, a custom cart template),
never from anything the model wrote. Only ``https:`` links are made, and ``http:`` for
a store on this machine; a record that gives no safe way gets no link.

The cart link, by platform:

* Shopify: ``{store}/cart/add?id={variant}&quantity=1`` for the product's variant id
  (its ``platformVariantId``; Shopify's product CSV has none, its webhooks and Admin API
  do). It adds to the shopper's cart and opens the cart page, where the widget follows.
* WooCommerce: ``{store}/?add-to-cart={id}&quantity=1``, and for a variation its
  parent with ``&variation_id={variation}`` (``platformProductId`` is the parent and
  ``platformVariantId`` the variation).
* Custom: the store's ``cartUrlTemplate``, each placeholder filled, URL-encoded.

No cart link for a product out of stock, or whose stock is not known.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any, NamedTuple
from urllib.parse import quote, urlencode, urljoin

from shared.store.settings import Store, web_address

_NUMERIC_ID = re.compile(r"[0-9]{1,20}")


class Links(NamedTuple):
    url: str | None
    """The product's page on the storefront."""
    cartUrl: str | None
    """The address that adds one of it to the cart."""


def _safe(url: str) -> str | None:
    try:
        return web_address(url)
    except ValueError:
        return None


def _text(value: Any) -> str | None:
    if isinstance(value, bool) or not isinstance(value, str | int):
        return None
    text = str(value).strip()
    return text or None


def product_page(record: Mapping[str, Any], store: Store) -> str | None:
    """The catalog's ``url`` of the product, made absolute on the storefront, if safe."""
    url = record.get("url")
    if not isinstance(url, str) or not url.strip():
        return None
    # A path ("/products/hp-14") is a page of the storefront.
    return _safe(urljoin(f"{store.url}/", url.strip()))


def in_stock(record: Mapping[str, Any]) -> bool:
    """A count above 0, or a product the store sells uncounted (``"stockTracked": false``).

    ``shared.products.stock.in_stock``'s rule, written again because this package sits on
    the same layer as ``shared.products`` and may not import it;
    ``tests/unit/test_stock_rule_shared.py`` keeps the two the same."""
    if record.get("stockTracked") is False:
        return True
    stock = record.get("stock")
    return isinstance(stock, int | float) and not isinstance(stock, bool) and stock > 0


def cart_link(record: Mapping[str, Any], store: Store) -> str | None:
    """The address that adds one of the product to the cart, or None (module docstring)."""
    if not in_stock(record):
        return None
    product = _text(record.get("platformProductId"))
    variant = _text(record.get("platformVariantId"))
    if store.platform == "shopify":
        if variant is None or not _NUMERIC_ID.fullmatch(variant):
            return None
        return _safe(f"{store.url}/cart/add?{urlencode({'id': variant, 'quantity': 1})}")
    if store.platform == "woocommerce":
        if product is None or not _NUMERIC_ID.fullmatch(product):
            return None
        query: dict[str, str | int] = {"add-to-cart": product}
        if variant is not None and variant != product:
            if not _NUMERIC_ID.fullmatch(variant):
                return None
            query["variation_id"] = variant
        query["quantity"] = 1
        return _safe(f"{store.url}/?{urlencode(query)}")
    return _from_template(record, store, product, variant)


def _from_template(
    record: Mapping[str, Any], store: Store, product: str | None, variant: str | None
) -> str | None:
    template = store.cartUrlTemplate or ""
    values = {
        "productId": _text(record.get("productId")),
        "platformProductId": product,
        "platformVariantId": variant,
    }
    missing = False

    def fill(match: re.Match[str]) -> str:
        nonlocal missing
        value = values.get(match.group(1))
        if value is None:
            missing = True
            return ""
        return quote(value, safe="")

    url = re.sub(r"\{([^{}]*)\}", fill, template)
    return None if missing else _safe(url)


def links(record: Mapping[str, Any], store: Store | None) -> Links:
    """Both links of a product record; none without the store's settings."""
    if store is None:
        return Links(None, None)
    return Links(product_page(record, store), cart_link(record, store))
