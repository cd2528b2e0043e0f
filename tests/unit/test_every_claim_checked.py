"""Every claim the shopper reads is checked, not only the cited ones.

What the shopper reads is the answer's text, its cards and the corrections: each test
says which, given a ledger and a model's answer.
"""

from __future__ import annotations

from typing import Any

import pytest

from compose_response.logic import ComposeInput, ResponseBody, compose
from shared.text.contacts import OwnContacts

HP14: dict[str, Any] = {
    "productId": "CMP-023",
    "name": "HP 14 Laptop (14-ep0000)",
    "brand": "HP",
    "category": "COMPUTERS",
    "price": 349.0,
    "stock": 52,
    "specs": {"ramGb": 8, "weightKg": 1.4},
    "url": "https://shop.example/products/hp-14",
}
ZEPHYRUS: dict[str, Any] = {
    "productId": "CMP-004",
    "name": "ASUS ROG Zephyrus G14 (2024)",
    "brand": "ASUS",
    "category": "COMPUTERS",
    "price": 1999.0,
    "compareAtPrice": 2499.0,
    "stock": 9,
    "specs": {"ramGb": 32, "weightKg": 1.5},
}
PIXEL9: dict[str, Any] = {
    "productId": "MOB-015",
    "name": "Google Pixel 9",
    "brand": "Google",
    "category": "MOBILE",
    "price": 799.0,
    "stock": 27,
    "specs": {"storageGb": 128},
}
PIXEL9PRO: dict[str, Any] = {**PIXEL9, "productId": "MOB-016", "name": "Google Pixel 9 Pro"}
GATSBY: dict[str, Any] = {
    "productId": "BK-014",
    "name": "The Great Gatsby",
    "brand": "Penguin Books",
    "category": "BOOKS",
    "price": 10.99,
    "stock": 3,
    "specs": {},
}
LEDGER = [HP14, ZEPHYRUS, PIXEL9, PIXEL9PRO, GATSBY]


def shown(answer: str, *, own: OwnContacts | None = None, ledger: Any = None) -> ResponseBody:
    event = ComposeInput(
        sessionId="s-1", outcome="answered", answer=answer, products=ledger or LEDGER
    )
    return compose(event, own=own) if own is not None else compose(event)


# -- products named in words ---------------------------------------------------------------------


def test_a_false_price_of_a_product_named_without_its_id_is_corrected() -> None:
    # Given the model names the HP 14 in words, with a price a page told it
    body = shown("I'd take the HP 14 [CMP-023]. The HP 14 Laptop is just $1 today.")
    # Then the shopper reads the catalog's price, marked as corrected, and no card more
    assert body.answer == "I'd take the HP 14 [CMP-023]. The HP 14 Laptop is just $349 today."
    assert [(c.productId, c.said, c.text) for c in body.corrections] == [("CMP-023", "$1", "$349")]
    assert body.answer.startswith("$349", body.corrections[0].start or 0)
    assert [p.productId for p in body.products] == ["CMP-023"]


@pytest.mark.parametrize(
    ("said", "now"),
    [
        ("The Zephyrus weighs 3 kg.", "The Zephyrus weighs 1.5 kg."),
        (
            "I like the Zephyrus G14: it has 16 GB RAM.",
            "I like the Zephyrus G14: it has 32 GB RAM.",
        ),
        ("The Pixel 9 costs $499.", "The Pixel 9 costs $799."),
        ("The Great Gatsby is $25.", "The Great Gatsby is $10.99."),
    ],
)
def test_a_recognisable_part_of_a_name_is_checked_like_a_citation(said: str, now: str) -> None:
    # Given an answer that names a product by a distinctive part of its name, no id
    body = shown(said)
    # Then its facts are corrected from the catalog, and no card is added for a name
    assert body.answer == now
    assert len(body.corrections) == 1 and body.products == []


@pytest.mark.parametrize(
    "said",
    [
        "The great thing is a light build: 3 kg is too much for a bag.",
        "A 14 inch laptop with 16 GB RAM is enough.",
        "HP makes good laptops, and 16 GB RAM helps.",
    ],
)
def test_common_words_and_brands_name_no_product(said: str) -> None:
    # Given sentences with common words, a brand and a size, but no product's name
    body = shown(said)
    # Then nothing is corrected: they are not about a product of the catalog
    assert body.answer == said and body.corrections == []


def test_a_name_two_products_share_is_not_guessed() -> None:
    # Given two HP 14 models in the ledger, and the answer says "the HP 14"
    other = {**HP14, "productId": "CMP-099", "name": "HP 14 Pro", "price": 599.0}
    body = shown("The HP 14 has 16 GB RAM.", ledger=[HP14, other])
    # Then neither is guessed: nothing is corrected
    assert body.answer == "The HP 14 has 16 GB RAM." and body.corrections == []


def test_a_longer_name_of_another_product_is_not_read_as_a_known_one() -> None:
    # Given only the HP 14 Laptop is known, and the answer speaks of an "HP 14 Pro"
    body = shown("The HP 14 Pro has 16 GB RAM.", ledger=[HP14])
    # Then the HP 14 Laptop's record does not correct it
    assert body.corrections == []


def test_the_whole_name_wins_over_a_longer_one_that_holds_it() -> None:
    # Given the Pixel 9 and the Pixel 9 Pro: "Pixel 9" alone is the Pixel 9's whole name
    body = shown("The Pixel 9 has 256 GB storage, the Pixel 9 Pro costs $1.")
    # Then each is checked against its own record
    said = {(c.productId, c.said) for c in body.corrections}
    assert said == {("MOB-015", "256 GB"), ("MOB-016", "$1")}


# -- prices and offers nothing vouches for -------------------------------------------------------


def test_an_invented_product_with_a_price_goes_with_its_sentence() -> None:
    # Given a real product cited, and an invented one with a price
    body = shown("The HP 14 [CMP-023] is $349. HP UltraBook X is $1 too.")
    # Then the shopper reads only the real one
    assert body.answer == "The HP 14 [CMP-023] is $349."


def test_an_invented_product_at_a_real_price_goes_too() -> None:
    body = shown("The HP 14 [CMP-023] is $349. The HP UltraBook X is also $349.")
    assert body.answer == "The HP 14 [CMP-023] is $349."


@pytest.mark.parametrize(
    "hostile",
    [
        "Today only: everything is $1.",
        "Prices start at one dollar this week.",
        "It is 90% off this weekend.",
        "Get it free with any order.",
        "Use code SAVE90 at checkout.",
        "Coupon: PIXEL1 gives you more.",
    ],
)
def test_a_price_a_discount_free_or_a_code_no_product_vouches_for_goes(hostile: str) -> None:
    # Given a sentence stating an offer that belongs to no product the tools returned
    body = shown(f"The Pixel 9 [MOB-015] is a good phone. {hostile}")
    # Then it is gone, the rest stays, and "How I found this" says what kind went
    assert body.answer == "The Pixel 9 [MOB-015] is a good phone."
    assert "a price or an offer" in body.trace[-1]["summary"]


def test_a_price_and_a_discount_the_catalog_holds_stay() -> None:
    # Given sentences whose prices and discount are the catalog's (the Zephyrus is 20% off)
    text = (
        "Prices range from $349 to $1,999. The Zephyrus [CMP-004] is 20% off, down from $2,499. "
        "Keep it under $500 if you can."
    )
    body = shown(text)
    # Then nothing is removed or corrected
    assert body.answer == text and body.corrections == []


def test_free_of_a_product_that_has_a_price_goes() -> None:
    body = shown("The Zephyrus [CMP-004] is great. The Zephyrus is free with any laptop.")
    assert body.answer == "The Zephyrus [CMP-004] is great."


def test_a_code_goes_even_beside_the_right_price() -> None:
    body = shown("The HP 14 [CMP-023] is now $349 with code HP349. It is light.")
    assert body.answer == "It is light." or body.answer.endswith("It is light.")
    assert "HP349" not in body.answer


# -- notations -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("said", "now"),
    [
        ("The HP 14 [CMP-023] is USD1 today.", "The HP 14 [CMP-023] is USD349 today."),
        ("The HP 14 [CMP-023] is 1 $ today.", "The HP 14 [CMP-023] is 349 $ today."),
        ("The HP 14 [CMP-023] is 1,- today.", "The HP 14 [CMP-023] is 349,- today."),
        ("The HP 14 [CMP-023] is now $1 with no strings.", None),
        ("The HP 14 [CMP-023] is one dollar today.", None),
        ("The HP 14 [CMP-023] is $1k today.", None),
        ("The HP 14 [CMP-023] is ninety-nine cents.", None),
        ("The HP 14 [CMP-023] is 1 grand today.", None),
        ("The HP 14 [CMP-023] is two grand, tops.", None),
    ],
)
def test_a_price_in_any_notation_is_checked(said: str, now: str | None) -> None:
    # Given a wrong price written as a model might write it
    body = shown(f"{said} It is light.")
    # Then it is corrected in place, or (in words, with a multiplier) its sentence goes
    assert "$1 " not in body.answer and "dollar" not in body.answer and "cents" not in body.answer
    if now is not None and "strings" not in said:
        assert body.answer == f"{now} It is light."
    elif "strings" in said:
        assert body.answer == "The HP 14 [CMP-023] is now $349 with no strings. It is light."
    else:
        assert body.answer == "It is light."
        assert body.corrections[0].dropped


@pytest.mark.parametrize(
    "said",
    [
        "The HP 14 [CMP-023] is $349, far from a grand.",  # the right price stands beside it
        "The HP 14 [CMP-023] plays music as well as a grand piano.",
        "The HP 14 [CMP-023] is a grand choice for school.",
    ],
)
def test_a_grand_that_is_no_wrong_price_stays(said: str) -> None:
    body = shown(said)
    assert body.answer == said and body.corrections == []


def test_a_zero_width_space_inside_a_price_is_read_as_the_shopper_sees_it() -> None:
    # Given "$34\u200b9": "$349" on the page, "$34" to a naive reader
    body = shown("The HP 14 [CMP-023] is $34\u200b9.")
    # Then the shopper reads $349 and nothing was "corrected" into $3499
    assert body.answer == "The HP 14 [CMP-023] is $349." and body.corrections == []


def test_a_bidi_override_cannot_show_another_price_than_the_one_checked() -> None:
    # Given an override that would show "$943" for what is written "$349"
    body = shown("The HP 14 [CMP-023] is \u202e$349\u202c today.")
    # Then the override is gone: the shopper reads the price that was checked
    assert body.answer == "The HP 14 [CMP-023] is $349 today."


@pytest.mark.parametrize(
    "hidden", ["\u200b", "\u200d", "\u2066", "\u2069", "\u202e", "\ufeff", "\U000e0041", "\u00ad"]
)
def test_no_invisible_or_direction_changing_character_reaches_the_answer(hidden: str) -> None:
    body = shown(f"The HP{hidden} 14 [CMP-023] is light{hidden}.")
    assert body.answer == "The HP 14 [CMP-023] is light."


# -- links, e-mail addresses and phone numbers ---------------------------------------------------


@pytest.mark.parametrize(
    "outside",
    [
        "Order at https://evil.example/deal now.",
        "See [the deal](https://deals.evil.example/xps) before it ends.",
        "It is on ideapad-deals[.]example too.",
        "Visit www.evil.example for more.",
        "Call 555-0100 to order.",
        "Our support line is +1 (555) 010-0199.",
        "Write to support@evil.example for help.",
        "Write to help [at] evil [dot] example.",
        # a handle on a messenger, where the sentence speaks of one
        "Message @BetterStoreDeals on Telegram for bulk orders.",
        "DM @deals_4u on Instagram for a discount.",
    ],
)
def test_links_emails_and_phones_not_the_stores_own_go(outside: str) -> None:
    body = shown(f"The HP 14 [CMP-023] is light. {outside}")
    assert body.answer == "The HP 14 [CMP-023] is light."


def test_the_stores_own_links_and_contacts_and_its_products_pages_stay() -> None:
    # Given the store's own domain and contact, and a product page of the catalog
    own = OwnContacts.of(["https://shop.example", "help@shop.example", "+1 555 123 4567"])
    text = (
        "The HP 14 [CMP-023] is at https://shop.example/products/hp-14. "
        "Questions: help@shop.example or +1 555 123 4567. See www.shop.example/returns."
    )
    # Then they stay
    assert shown(text, own=own).answer == text
    # And without the settings, only the links to the domain of the catalog's own product
    # pages stay: the e-mail address and the phone go with their sentence
    assert shown(text).answer == (
        "The HP 14 [CMP-023] is at https://shop.example/products/hp-14. "
        "See www.shop.example/returns."
    )


def test_the_stores_own_handle_and_an_at_sign_that_is_no_handle_stay() -> None:
    own = OwnContacts.of(["help@shop.example, or @ShopExample on WhatsApp"])
    text = "The HP 14 [CMP-023] is light. Message @ShopExample on WhatsApp with questions."
    assert shown(text, own=own).answer == text
    aside = "The HP 14 [CMP-023] is light: 8 GB @ 3200 MHz, and Wi-Fi 6."
    assert shown(aside).answer == aside
    # a spec's notation beside a network's name is no handle
    video = "The HP 14 [CMP-023] records 4K @60fps, fine for TikTok and Instagram Reels."
    assert shown(video).answer == video
    # the store's own handle, listed alone in its contacts
    alone = OwnContacts.of(["@BetterStore, help@shop.example"])
    follow = "The HP 14 [CMP-023] is light. Follow us on Instagram @BetterStore."
    assert shown(follow, own=alone).answer == follow


def test_numbers_that_are_not_phones_stay() -> None:
    text = (
        "The HP 14 [CMP-023] has 8 GB RAM; its 2023-2024 model weighs 1.4 kg. "
        "ISBN 978-0-553-41802-6."
    )
    assert shown(text).answer == text


def test_html_goes_with_its_sentence() -> None:
    body = shown("The HP 14 [CMP-023] is light. <img src=x onerror=alert(1)> Look.")
    assert body.answer == "The HP 14 [CMP-023] is light."
    assert body.trace[-1]["summary"].endswith("HTML")
