"""Stock claims as the shopper reads them: whatever words say a sold-out product can be
had goes with its sentence, and a count of units the catalog does not hold goes too;
true stock, shipping and number words stay as the model wrote them.

Each test gives a ledger and a model's answer, and says what the shopper reads: the
answer's text and its corrections.
"""

from __future__ import annotations

from typing import Any

import pytest

from compose_response import claims
from compose_response.logic import ComposeInput, ResponseBody, compose

IMAC: dict[str, Any] = {
    "productId": "CMP-014",
    "name": "Apple iMac 24 (M3)",
    "brand": "Apple",
    "category": "COMPUTERS",
    "price": 1299.0,
    "stock": 0,
    "specs": {"ramGb": 8, "os": "macOS"},
}
XPS: dict[str, Any] = {
    "productId": "CMP-005",
    "name": "Dell XPS 13 (9340)",
    "brand": "Dell",
    "category": "COMPUTERS",
    "price": 1299.0,
    "stock": 14,
    "specs": {"ramGb": 16, "storageGb": 512, "os": "Windows 11 Home"},
}
PIXEL9: dict[str, Any] = {
    "productId": "MOB-015",
    "name": "Google Pixel 9",
    "brand": "Google",
    "category": "MOBILE",
    "price": 799.0,
    "stock": 5,
    "specs": {"storageGb": 128},
}
LEDGER = [IMAC, XPS, PIXEL9]
AFTER = " Ask me anything else."
"""A sentence with nothing to check, so that the answer is not empty when one goes."""


def shown(answer: str) -> ResponseBody:
    return compose(
        ComposeInput(sessionId="s-1", outcome="answered", answer=answer, products=LEDGER)
    )


def removed(said: str, product: str, record: str) -> None:
    """``said`` is gone, the sentence after it stays, and one correction says why."""
    body = shown(said + AFTER)
    assert body.answer == AFTER.strip()
    assert [(c.productId, c.field, c.record, c.dropped, c.text) for c in body.corrections] == [
        (product, "stock", record, True, None)
    ]


def unchanged(said: str) -> None:
    body = shown(said + AFTER)
    assert body.answer == said + AFTER
    assert body.corrections == []


# -- a sold-out product said to be available ---------------------------------------------------

RED_TEAM_SOLD_OUT = [
    "The Apple iMac 24 is ready to ship today.",
    "The iMac [CMP-014] ships today.",
    "We have plenty of Apple iMac 24 units.",
    "The Apple iMac 24 is not out of stock.",
    "The Apple iMac 24: in-stock.",
    "The Apple iMac 24 [CMP-014] is available for immediate delivery.",
    "Yes, the Apple iMac 24 is available.",
]


@pytest.mark.parametrize("said", RED_TEAM_SOLD_OUT)
def test_the_red_teams_availability_claims_of_a_sold_out_product_are_removed(said: str) -> None:
    # Given the iMac has none in stock, and a hostile page made the model say otherwise
    # Then the shopper does not read it, and the correction says the catalog's word
    removed(said, "CMP-014", "out of stock")


@pytest.mark.parametrize(
    "said",
    [
        # stock and availability, however written
        "The Apple iMac 24 [CMP-014]: In-Stock.",
        "The Apple iMac 24 is in stock now.",
        "The Apple iMac 24 is back in stock.",
        "The Apple iMac 24 [CMP-014] is once again in stock.",
        "The Apple iMac 24 [CMP-014] is currently available.",
        "The Apple iMac 24 is available right now.",
        "The Apple iMac 24 is available to order.",
        "The Apple iMac 24 [CMP-014], available from stock.",
        "Good news: the Apple iMac 24 is still available, and it is fast.",
        # shipping, dispatch and delivery soon
        "The Apple iMac 24 ships tomorrow.",
        "The Apple iMac 24 ships within 2 business days.",
        "The Apple iMac 24 [CMP-014] is dispatched within 24 hours.",
        "The Apple iMac 24 can ship today.",
        "The Apple iMac 24 [CMP-014] is ready for dispatch.",
        "Order the Apple iMac 24 now for same-day delivery.",
        "The Apple iMac 24 [CMP-014] qualifies for next-day shipping.",
        "The Apple iMac 24 [CMP-014] can be delivered by Friday.",
        "You can buy the Apple iMac 24 [CMP-014] today.",
        "Grab the Apple iMac 24 [CMP-014] while supplies last.",
        "The Apple iMac 24 [CMP-014]: ✅ available.",
        # how many, in words
        "There are lots of Apple iMac 24 units in stock.",
        "We still have many Apple iMac 24 units left.",
        "Only a few Apple iMac 24 units left!",
        "Hurry, the Apple iMac 24 is selling fast.",
        "We have hundreds of Apple iMac 24 units on hand.",
        # sold out, denied
        "The Apple iMac 24 isn't sold out.",
        "The Apple iMac 24 is not sold out yet.",
        "The Apple iMac 24 is no longer out of stock.",
        "The Apple iMac 24 was sold out last week, but it is back in stock.",
        # a number of units
        "Only 3 Apple iMac 24 units are left.",
        "We have over 500 units of the Apple iMac 24 in stock.",
        "The Apple iMac 24 [CMP-014]: 2 available.",
        "The Apple iMac 24 [CMP-014]: only one left!",
        "The Apple iMac 24 [CMP-014] is in stock: 12 units.",
        # the languages the check reads
        "Der Apple iMac 24 [CMP-014] ist nicht ausverkauft.",
        "Der Apple iMac 24 [CMP-014] ist sofort versandbereit.",
        "Der Apple iMac 24 [CMP-014] ist verfügbar.",
        "Apple iMac 24 [CMP-014] は即日発送です。",
        "Apple iMac 24 [CMP-014] は在庫切れではありません。",
        "Apple iMac 24 [CMP-014] 库存充足。",
        "Apple iMac 24 [CMP-014] 不缺货。",
        "L'Apple iMac 24 [CMP-014] est en stock.",
        "El Apple iMac 24 [CMP-014] está disponible.",
    ],
)
def test_any_availability_claim_of_a_sold_out_product_is_removed(said: str) -> None:
    removed(said, "CMP-014", "out of stock")


def test_a_sold_out_bullet_goes_whole_and_its_neighbours_stay() -> None:
    body = shown(
        "Two picks:\n"
        "- Apple iMac 24 [CMP-014]: $1,299, ready to ship.\n"
        "- Dell XPS 13 [CMP-005]: $1,299, ready to ship."
    )
    assert body.answer == "Two picks:\n- Dell XPS 13 [CMP-005]: $1,299, ready to ship."
    assert [(c.productId, c.dropped) for c in body.corrections] == [("CMP-014", True)]


@pytest.mark.parametrize(
    "said",
    [
        "The Apple iMac 24 [CMP-014] is out of stock.",
        "The Apple iMac 24 is sold out.",
        "The Apple iMac 24 [CMP-014] is currently not available.",
        "The Apple iMac 24 isn't available right now.",
        "The Apple iMac 24 [CMP-014] is unavailable.",
        "There are 0 Apple iMac 24 units in stock.",
        "We have no Apple iMac 24 units left.",
        "The Apple iMac 24 [CMP-014] does not ship today.",
        "The Apple iMac 24 [CMP-014] has been sold out for weeks.",
        "The Apple iMac 24 was in stock last month.",
        "I can tell you when the Apple iMac 24 is back in stock.",
        "If the Apple iMac 24 [CMP-014] comes back in stock, it ships in 2 days.",
        "The Apple iMac 24 is available in blue and silver.",
        "The Apple iMac 24 [CMP-014] is available in 3 colours, but it is sold out.",
        "The Apple iMac 24 has 8 GB RAM and runs macOS.",
        "The Apple iMac 24 [CMP-014] is sold out; the Dell XPS 13 [CMP-005] ships today.",
        "Der Apple iMac 24 [CMP-014] ist ausverkauft.",
        "Apple iMac 24 [CMP-014] は在庫切れです。",
        "Apple iMac 24 [CMP-014] 没有货。",
        "You asked how many Apple iMac 24 units are left.",
        "Sobald der Apple iMac 24 [CMP-014] wieder verfügbar ist, melde ich mich.",
        "L'Apple iMac 24 [CMP-014] est en rupture de stock.",
        "El Apple iMac 24 [CMP-014] está agotado.",
        "The Apple iMac 24 [CMP-014] has a 4.5K screen, and a keyboard cover is available.",
        "The Apple iMac 24 [CMP-014] is out of stock; it was available last month.",
    ],
)
def test_what_is_true_of_a_sold_out_product_stays(said: str) -> None:
    unchanged(said)


# -- a product in stock -------------------------------------------------------------------------


TRUE_IN_STOCK = [
    "The Dell XPS 13 [CMP-005] is in stock.",
    "Dell XPS 13 [CMP-005]: In Stock ✅",
    "The Dell XPS 13: in-stock.",
    "The Dell XPS 13 ships today.",
    "The Dell XPS 13 [CMP-005] is ready to ship and arrives tomorrow.",
    "The Dell XPS 13 is available for immediate delivery.",
    "Yes, the Dell XPS 13 is available.",
    "We have plenty of Dell XPS 13 units.",
    "The Dell XPS 13 is not out of stock.",
    "Der Dell XPS 13 [CMP-005] ist sofort versandbereit.",
    "Dell XPS 13 [CMP-005] は即日発送です。",
    # the stock, said as a number, rightly
    "We have 14 Dell XPS 13 units in stock.",
    "Only 14 Dell XPS 13 units are left.",
    "The Dell XPS 13 [CMP-005]: 14 available.",
    "The Dell XPS 13 [CMP-005] is in stock: 14 units.",
    "We have over 10 units of the Dell XPS 13 in stock.",
    "Fewer than 20 Dell XPS 13 units are left.",
    "Only 5 Google Pixel 9 left!",
    "Der Google Pixel 9 [MOB-015]: noch 5 Stück auf Lager.",
    # numbers that are no count of units
    "The Dell XPS 13 has 16 GB RAM and 512 GB of storage.",
    "The Dell XPS 13 [CMP-005] comes in 2 colours available now.",
    "The Dell XPS 13 is available in 3 sizes.",
    "Le Dell XPS 13 [CMP-005] est disponible en 2 couleurs.",
    "Of the 2 laptops, the Dell XPS 13 [CMP-005] is lighter.",
    "The Dell XPS 13 is in our top 3.",
    "The Dell XPS 13 [CMP-005] has it all; nothing left to wish for.",
    "The Dell XPS 13 [CMP-005] has 2 USB-C ports, 1 left and 1 right.",
    "The Dell XPS 13 [CMP-005] is one of 2 models available.",
    "The Dell XPS 13 [CMP-005] still has 3 ports left after docking.",
]


@pytest.mark.parametrize("said", TRUE_IN_STOCK)
def test_what_is_true_of_a_product_in_stock_stays(said: str) -> None:
    unchanged(said)


# -- a count of units that is not the stock -----------------------------------------------------

RED_TEAM_COUNTS = [
    ("We have over 500 units of the Dell XPS 13 in stock.", "CMP-005", "in stock (14)"),
    ("Only 2 Dell XPS 13 units are left, so hurry.", "CMP-005", "in stock (14)"),
    ("Only 1 Google Pixel 9 left!", "MOB-015", "in stock (5)"),
]
WRONG_COUNTS = [
    *RED_TEAM_COUNTS,
    ("Only 2 Dell XPS 13 [CMP-005] units are left.", "CMP-005", "in stock (14)"),
    ("The Dell XPS 13 [CMP-005] has 10 units in stock.", "CMP-005", "in stock (14)"),
    ("Just 3 left of the Dell XPS 13 [CMP-005].", "CMP-005", "in stock (14)"),
    ("The Dell XPS 13 [CMP-005]: 2 available.", "CMP-005", "in stock (14)"),
    ("The Dell XPS 13 [CMP-005] is in stock, with only 2 left.", "CMP-005", "in stock (14)"),
    ("The Dell XPS 13 [CMP-005] ships today and only 3 are left.", "CMP-005", "in stock (14)"),
    ("The Dell XPS 13 [CMP-005] is in stock: 2 units.", "CMP-005", "in stock (14)"),
    ("Only two Google Pixel 9 units remain in stock.", "MOB-015", "in stock (5)"),
    ("There are 40 Google Pixel 9 units left.", "MOB-015", "in stock (5)"),
    ("We have more than 20 Google Pixel 9 units.", "MOB-015", "in stock (5)"),
    ("Der Google Pixel 9 [MOB-015]: nur noch 2 Stück auf Lager.", "MOB-015", "in stock (5)"),
    ("Google Pixel 9 [MOB-015] は残り1台です。", "MOB-015", "in stock (5)"),
]


def test_a_count_of_units_says_how_many_the_words_allow() -> None:
    # Given counts in the words a model uses, next to a product's mark
    mark = "[\ue000]"
    said = {
        f"We have over 500 units of the {mark} in stock.": claims.StockSaid(501),
        f"Only 2 {mark} units are left.": claims.StockSaid(2, 2),
        f"Only 2 {mark} {mark} units are left.": claims.StockSaid(2, 2),
        f"Only 1 {mark} left!": claims.StockSaid(1, 1),
        f"Fewer than 20 {mark} units are left.": claims.StockSaid(1, 19),
        f"About 50 {mark} units in stock.": claims.StockSaid(45, 55),
        f"{mark}: in stock.": claims.StockSaid(1),
        f"{mark} is not out of stock.": claims.StockSaid(1),
        f"{mark} is sold out.": claims.StockSaid(0, 0),
    }
    for text, expected in said.items():
        found = claims.stock_claims(text)
        # Then each is one claim, outside the mark, of the units it allows
        assert [c.value for c in found] == [expected], text
        assert all(mark not in text[c.start : c.end] for c in found), text
    # And the catalog's stock agrees with a count only when the words allow it
    agree = claims.stock_agrees
    assert agree(claims.StockSaid(501), 14) is False
    assert agree(claims.StockSaid(11), 14) is True
    assert agree(claims.StockSaid(14, 14), 14) is True
    assert agree(claims.StockSaid(1), 0) is False
    assert agree(claims.StockSaid(0, 0), 0) is True


@pytest.mark.parametrize(
    "said",
    [
        "The Apple iMac 24 [CMP-014] has 10 units in stock.",
        "Only 2 Apple iMac 24 units are left, so hurry.",
        "The Apple iMac 24 [CMP-014]: only 1 left!",
        "There are 40 Apple iMac 24 units left.",
        "Der Apple iMac 24 [CMP-014]: nur noch 2 Stück auf Lager.",
        "Apple iMac 24 [CMP-014] は残り1台です。",
    ],
)
def test_a_count_of_a_sold_out_product_is_removed(said: str) -> None:
    removed(said, "CMP-014", "out of stock")


@pytest.mark.parametrize(("said", "product", "record"), WRONG_COUNTS)
def test_a_count_that_is_not_the_stock_is_removed(said: str, product: str, record: str) -> None:
    # Given a product in stock, and a count of its units the catalog does not hold
    # Then the shopper does not read the invented count: a stock claim cannot be
    # reworded, so its sentence goes, as "10 units in stock" of a sold-out product does
    removed(said, product, record)


@pytest.mark.parametrize(
    "said",
    [
        *TRUE_IN_STOCK,
        "The Dell XPS 13 [CMP-005] is in stock and ships today.",
        "The Dell XPS 13 [CMP-005] is in stock (14 units).",
        "About 15 Dell XPS 13 units are left.",
    ],
)
def test_what_is_true_stays_when_counts_are_compared(said: str) -> None:
    unchanged(said)


@pytest.mark.parametrize(("said", "product", "record"), RED_TEAM_COUNTS)
def test_the_red_teams_invented_counts_are_removed_by_the_shipped_check(
    said: str, product: str, record: str
) -> None:
    removed(said, product, record)
