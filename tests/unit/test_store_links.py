"""A card's links: the product's page and "Add to cart", from the catalog and the store's
settings alone, by platform, and none where the catalog gives no safe way."""

from __future__ import annotations

from typing import Any

import pytest

from compose_response.logic import ComposeInput, compose
from shared.store.settings import Store
from shared.store.store_links import cart_link, links, product_page


def store(**change: Any) -> Store:
    return Store.model_validate(
        {
            "name": "Test Store",
            "url": "https://shop.example.com",
            "platform": "shopify",
            "policies": "policies.md",
            "contact": "help@shop.example.com",
            **change,
        }
    )


# Records as the catalog holds them, with the fields the platforms give (BRIEF's contract).
SHOPIFY = {
    "productId": "HP-14-SILVER",
    "name": "HP 14 Laptop",
    "stock": 3,
    "url": "https://shop.example.com/products/hp-14?variant=44012",
    "platformProductId": "8801",
    "platformVariantId": "44012",
}
WOO_SIMPLE = {"productId": "BK-1", "name": "Circe", "stock": 9, "platformProductId": "120"}
WOO_VARIATION = {
    "productId": "TS-RED-M",
    "name": "Tee, red, M",
    "stock": 2,
    "platformProductId": "310",
    "platformVariantId": "318",
}


def test_shopify_adds_the_variant_to_the_shoppers_cart() -> None:
    assert links(SHOPIFY, store()) == (
        "https://shop.example.com/products/hp-14?variant=44012",
        "https://shop.example.com/cart/add?id=44012&quantity=1",
    )


def test_a_shopify_product_without_a_known_variant_has_no_button() -> None:
    # Shopify's product CSV has no variant ids: the page link stays, the button goes
    record = {**SHOPIFY, "platformVariantId": None}
    assert links(record, store()) == (SHOPIFY["url"], None)
    assert cart_link({**SHOPIFY, "platformVariantId": "44012&id=1"}, store()) is None


def test_woocommerce_adds_a_product_and_a_variation_with_its_parent() -> None:
    woo = store(platform="woocommerce", url="https://books.example/shop")
    assert cart_link(WOO_SIMPLE, woo) == "https://books.example/shop/?add-to-cart=120&quantity=1"
    assert cart_link(WOO_VARIATION, woo) == (
        "https://books.example/shop/?add-to-cart=310&variation_id=318&quantity=1"
    )
    assert cart_link({**WOO_SIMPLE, "platformProductId": None}, woo) is None


def test_a_custom_platform_fills_its_template_with_the_ids_url_encoded() -> None:
    custom = store(
        platform="custom",
        cartUrlTemplate="https://shop.example.com/basket/add/{productId}?v={platformVariantId}",
    )
    record = {**SHOPIFY, "productId": "A B/#1"}
    assert cart_link(record, custom) == "https://shop.example.com/basket/add/A%20B%2F%231?v=44012"
    # A placeholder the record cannot fill: no button rather than a broken link
    assert cart_link({**record, "platformVariantId": None}, custom) is None


@pytest.mark.parametrize("stock", [0, None, "3", True, -1])
def test_no_button_for_a_product_out_of_stock_or_of_unknown_stock(stock: Any) -> None:
    assert cart_link({**SHOPIFY, "stock": stock}, store()) is None


@pytest.mark.parametrize(
    ("url", "page"),
    [
        ("/products/hp-14", "https://shop.example.com/products/hp-14"),
        ("https://shop.example.com/products/hp-14", "https://shop.example.com/products/hp-14"),
        ("javascript:alert(1)", None),
        ("data:text/html,<b>hi</b>", None),
        ("http://shop.example.com/products/hp-14", None),
        ("https://user@shop.example.com/x", None),
        ("https://shop.example.com/a b", None),
        ("", None),
        (42, None),
    ],
)
def test_only_a_web_address_a_shopper_may_follow_is_a_page_link(url: Any, page: str | None) -> None:
    assert product_page({**SHOPIFY, "url": url}, store()) == page


def test_a_store_on_this_machine_links_over_http() -> None:
    local = store(url="http://127.0.0.1:9292")
    record = {**SHOPIFY, "url": "http://127.0.0.1:9292/products/hp-14"}
    assert links(record, local) == (
        "http://127.0.0.1:9292/products/hp-14",
        "http://127.0.0.1:9292/cart/add?id=44012&quantity=1",
    )


def test_the_response_carries_the_links_made_here_and_never_the_models() -> None:
    # Given a ledger record with a hostile page address and the model's own link in its text
    event = ComposeInput.model_validate(
        {
            "sessionId": "s",
            "outcome": "answered",
            "answer": "The HP 14 [HP-14-SILVER] suits school. Get it at https://evil.example/deal.",
            "products": [
                {**SHOPIFY, "price": 349, "cartUrl": "https://evil.example/cart"},
                {**WOO_SIMPLE, "price": 9, "url": "javascript:alert(1)"},
            ],
        }
    )
    body = compose(event, store=store())
    (card,) = body.model_dump()["products"]
    assert "evil.example" not in body.answer  # the model's link went with its sentence
    # Then the card's links are the store's, made from the record's ids
    assert card["url"] == SHOPIFY["url"]
    assert card["cartUrl"] == "https://shop.example.com/cart/add?id=44012&quantity=1"
    # And without the store's settings a card has no cart link at all
    (bare,) = compose(event).model_dump()["products"]
    assert "cartUrl" not in bare and "url" not in bare
