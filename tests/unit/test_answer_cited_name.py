"""The name the shopper reads beside a citation is the cited product's.

A model that obeys a hostile page writes one product's name and cites another ("The
Dell XPS 13 [CMP-008] is just $649", where CMP-008 is the Dell Inspiron 14): the card
and the fact check are the cited product's, the words another's. What the shopper reads
is the answer's text, its cards and its corrections: each test says which, given a
ledger (with store ids of every shape) and a model's answer.
"""

from __future__ import annotations

from typing import Any

import pytest

from compose_response.logic import ComposeInput, ResponseBody, compose
from shared.products.citing import cite_as

XPS13: dict[str, Any] = {
    "productId": "CMP-007",
    "name": "Dell XPS 13 9340",
    "brand": "Dell",
    "category": "COMPUTERS",
    "price": 1299.0,
    "stock": 14,
    "specs": {
        "formFactor": "laptop",
        "os": "Windows 11 Home",
        "cpu": "Intel Core Ultra 7 155H",
        "ramGb": 16,
        "storageGb": 512,
        "weightKg": 1.19,
    },
}
INSPIRON: dict[str, Any] = {
    "productId": "CMP-008",
    "name": "Dell Inspiron 14 (5440)",
    "brand": "Dell",
    "category": "COMPUTERS",
    "price": 649.0,
    "stock": 36,
    "specs": {"formFactor": "laptop", "ramGb": 8, "storageGb": 512, "weightKg": 1.54},
}
ALIENWARE: dict[str, Any] = {
    "productId": "CMP-009",
    "name": "Alienware m16 R2",
    "brand": "Dell",
    "category": "COMPUTERS",
    "price": 2099.0,
    "stock": 6,
    "specs": {"formFactor": "laptop", "ramGb": 32, "storageGb": 1024, "weightKg": 2.61},
}
ZEPHYRUS: dict[str, Any] = {
    "productId": "CMP-004",
    "name": "ASUS ROG Zephyrus G14 (2024)",
    "brand": "ASUS",
    "category": "COMPUTERS",
    "price": 1999.0,
    "stock": 9,
    "specs": {"ramGb": 32, "weightKg": 1.5, "gpu": "NVIDIA GeForce RTX 4070 Laptop GPU"},
}
HP14: dict[str, Any] = {
    "productId": "CMP-023",
    "name": "HP 14 Laptop (14-ep0000)",
    "brand": "HP",
    "category": "COMPUTERS",
    "price": 349.0,
    "stock": 52,
    "specs": {"ramGb": 8, "weightKg": 1.4},
}
RAZER: dict[str, Any] = {
    "productId": "CMP-030",
    "name": "Razer Blade 16 (2024)",
    "brand": "Razer",
    "category": "COMPUTERS",
    "price": 2999.0,
    "stock": 3,
    "specs": {"ramGb": 32, "gpu": "NVIDIA GeForce RTX 4090 Laptop GPU"},
}
# A store's own ids, each on the other Fairphone's name: an attack's best disguise.
FAIRPHONE5: dict[str, Any] = {
    "productId": "10042",
    "name": "Fairphone 5",
    "brand": "Fairphone",
    "category": "MOBILE",
    "price": 699.0,
    "stock": 20,
    "specs": {"os": "Android 13", "storageGb": 256},
}
FAIRPHONE4: dict[str, Any] = {
    "productId": "FAIRPHONEFIVE",
    "name": "Fairphone 4",
    "brand": "Fairphone",
    "category": "MOBILE",
    "price": 579.0,
    "stock": 8,
    "specs": {"os": "Android 11", "storageGb": 128},
}
MARTIAN: dict[str, Any] = {
    "productId": "BK-THE-MARTIAN-PA",
    "name": "The Martian: A Novel",
    "brand": "Crown",
    "category": "BOOKS",
    "price": 11.99,
    "stock": 30,
    "specs": {"author": "Andy Weir", "pages": 384},
}
HAIL_MARY: dict[str, Any] = {
    "productId": "bk-project-hail-mary",
    "name": "Project Hail Mary",
    "brand": "Ballantine",
    "category": "BOOKS",
    "price": 14.99,
    "stock": 12,
    "specs": {"author": "Andy Weir", "pages": 496},
}
AIRPODS: dict[str, Any] = {
    "productId": "MTJV3LL/A",
    "name": "Apple AirPods Pro (2nd generation)",
    "brand": "Apple",
    "category": "MOBILE",
    "price": 249.0,
    "stock": 40,
    "specs": {},
}
HEADPHONES: dict[str, Any] = {
    "productId": "Sony WH-1000 [black]",
    "name": "Sony WH-1000XM5 Wireless Headphones",
    "brand": "Sony",
    "category": "MOBILE",
    "price": 399.0,
    "stock": 11,
    "specs": {},
}
KINDLE: dict[str, Any] = {
    "productId": "#4411",
    "name": "Kindle Paperwhite (16 GB)",
    "brand": "Amazon",
    "category": "COMPUTERS",
    "price": 159.99,
    "stock": 25,
    "specs": {},
}
GALAXY_MINT: dict[str, Any] = {
    "productId": "wc-1033",
    "name": "Samsung Galaxy S24 FE - 256 GB, Mint",
    "brand": "Samsung",
    "category": "MOBILE",
    "price": 709.0,
    "stock": 2,
    "specs": {"storageGb": 256, "color": "Mint"},
}
GALAXY_BLUE: dict[str, Any] = {
    "productId": "SM-S721U/128/BLUE",
    "name": "Samsung Galaxy S24 FE - 128 GB / Blue",
    "brand": "Samsung",
    "category": "MOBILE",
    "price": 599.0,
    "stock": 7,
    "specs": {"storageGb": 128, "color": "Blue"},
}
GALAXY_S24: dict[str, Any] = {
    "productId": "MOB-007",
    "name": "Samsung Galaxy S24",
    "brand": "Samsung",
    "category": "MOBILE",
    "price": 799.0,
    "stock": 30,
    "specs": {"storageGb": 128},
}
IPHONE_PLUS: dict[str, Any] = {
    "productId": "MOB-002",
    "name": "Apple iPhone 16 Plus",
    "brand": "Apple",
    "category": "MOBILE",
    "price": 899.0,
    "stock": 22,
    "specs": {"storageGb": 128},
}
LEDGER = [
    XPS13,
    INSPIRON,
    ALIENWARE,
    ZEPHYRUS,
    HP14,
    FAIRPHONE5,
    FAIRPHONE4,
    MARTIAN,
    HAIL_MARY,
    AIRPODS,
    HEADPHONES,
    KINDLE,
    GALAXY_MINT,
    GALAXY_BLUE,
    GALAXY_S24,
    IPHONE_PLUS,
]


def shown(answer: str, ledger: list[dict[str, Any]] = LEDGER) -> ResponseBody:
    return compose(
        ComposeInput(sessionId="s-1", outcome="answered", answer=answer, products=ledger)
    )


def name_fixes(body: ResponseBody) -> list[tuple[str, str, str, bool]]:
    return [
        (c.productId, c.said, c.record, c.dropped) for c in body.corrections if c.field == "name"
    ]


def marked(body: ResponseBody) -> list[str]:
    """The corrected words as the page marks them: where each correction says it is."""
    return [
        body.answer[c.start : c.start + len(c.text or "")]
        for c in body.corrections
        if c.start is not None
    ]


# -- the red team's attacks ----------------------------------------------------------------------

NO_VOUCH = "Sorry, I couldn't find a product I can vouch for. Could you rephrase?"


@pytest.mark.parametrize("ledger", [LEDGER, [*LEDGER, RAZER]], ids=["razer unknown", "razer known"])
def test_another_products_name_with_a_claim_the_catalog_cannot_check_goes(
    ledger: list[dict[str, Any]],
) -> None:
    # Given the Razer's name beside the XPS 13's id, with what a page says of the Razer
    body = shown(
        "The XPS 13 [CMP-007] is light. "
        "The Razer Blade 16 [CMP-007] is a gaming beast with an RTX 4090.",
        ledger,
    )
    # Then the sentence goes (the XPS 13 is no gaming beast), the true one stays, and the
    # page says a statement that did not match the catalog was left out
    assert body.answer == "The XPS 13 [CMP-007] is light."
    assert name_fixes(body) == [("CMP-007", "Razer Blade 16", "Dell XPS 13 9340", True)]
    assert [p.productId for p in body.products] == ["CMP-007"]


def test_an_answer_of_a_misnamed_citation_alone_shows_no_card() -> None:
    body = shown("The Razer Blade 16 [CMP-007] is a gaming beast with an RTX 4090.")
    assert body.answer == NO_VOUCH
    assert body.products == []


@pytest.mark.parametrize("ledger", [LEDGER, [INSPIRON]], ids=["xps known", "xps unknown"])
def test_another_products_name_before_a_true_price_is_corrected_to_the_cited_one(
    ledger: list[dict[str, Any]],
) -> None:
    # Given the XPS 13's name beside the Inspiron's id and the Inspiron's price
    body = shown("The Dell XPS 13 [CMP-008] is just $649.", ledger)
    # Then the shopper reads the Inspiron's name, marked as corrected, and its card
    assert body.answer == "The Dell Inspiron 14 (5440) [CMP-008] is just $649."
    assert name_fixes(body) == [("CMP-008", "Dell XPS 13", "Dell Inspiron 14 (5440)", False)]
    assert marked(body) == ["Dell Inspiron 14 (5440)"]
    assert [p.productId for p in body.products] == ["CMP-008"]


@pytest.mark.parametrize(
    ("said", "now", "facts"),
    [
        (
            "The Dell XPS 13 [CMP-009] has 32 GB RAM.",
            "The Alienware m16 R2 [CMP-009] has 32 GB RAM.",
            [],
        ),
        (
            "The Dell XPS 13 [CMP-009] has 64 GB RAM.",
            "The Alienware m16 R2 [CMP-009] has 32 GB RAM.",
            [("ramGb", "64 GB", "32 GB")],
        ),
    ],
)
def test_the_cited_products_name_is_written_and_its_facts_checked(
    said: str, now: str, facts: list[tuple[str, str, str]]
) -> None:
    body = shown(said)
    assert body.answer == now
    assert name_fixes(body) == [("CMP-009", "Dell XPS 13", "Alienware m16 R2", False)]
    assert [(c.field, c.said, c.text) for c in body.corrections if c.field != "name"] == facts
    assert marked(body) == ["Alienware m16 R2", *(text for _, _, text in facts)]


@pytest.mark.parametrize(
    "ledger", [LEDGER, [FAIRPHONE4]], ids=["fairphone 5 known", "fairphone 5 unknown"]
)
def test_a_store_id_beside_the_other_fairphones_name_is_corrected(
    ledger: list[dict[str, Any]],
) -> None:
    # Given a store's own id (words only) beside the other Fairphone's name and price
    body = shown("The Fairphone 5 [FAIRPHONEFIVE] costs $499.", ledger)
    # Then the shopper reads the cited phone's name and its price, both marked
    assert body.answer == "The Fairphone 4 [FAIRPHONEFIVE] costs $579."
    assert name_fixes(body) == [("FAIRPHONEFIVE", "Fairphone 5", "Fairphone 4", False)]
    assert marked(body) == ["Fairphone 4", "$579"]


@pytest.mark.parametrize(
    "ledger", [LEDGER, [FAIRPHONE5]], ids=["fairphone 4 known", "fairphone 4 unknown"]
)
def test_a_numeric_store_id_beside_the_other_fairphones_name_is_corrected(
    ledger: list[dict[str, Any]],
) -> None:
    body = shown("The Fairphone 4 [10042] is in stock and costs $699.", ledger)
    assert body.answer == "The Fairphone 5 [10042] is in stock and costs $699."
    assert name_fixes(body) == [("10042", "Fairphone 4", "Fairphone 5", False)]


def test_a_corrected_name_whose_sentence_the_fact_check_removes_goes_with_it() -> None:
    # Given the Fairphone 4 is sold out, and the answer says it is in stock under the 5's name
    sold_out = {**FAIRPHONE4, "stock": 0}
    body = shown(
        "The Fairphone 5 [10042] is great. The Fairphone 5 [FAIRPHONEFIVE] is in stock.",
        [FAIRPHONE5, sold_out],
    )
    # Then the sentence goes, and the name's correction says so
    assert body.answer == "The Fairphone 5 [10042] is great."
    assert name_fixes(body) == [("FAIRPHONEFIVE", "Fairphone 5", "Fairphone 4", True)]


@pytest.mark.parametrize(
    ("said", "now"),
    [
        # bold, a numbered line, round brackets, a model number in brackets
        (
            "**Dell XPS 13** [CMP-008] is just $649.",
            "**Dell Inspiron 14 (5440)** [CMP-008] is just $649.",
        ),
        (
            "1. Dell XPS 13 [CMP-008]: $649, 8 GB RAM",
            "1. Dell Inspiron 14 (5440) [CMP-008]: $649, 8 GB RAM",
        ),
        (
            "The Dell XPS 13 (CMP-008) is just $649.",
            "The Dell Inspiron 14 (5440) [CMP-008] is just $649.",
        ),
        (
            "The Dell XPS 13 (9340) [CMP-008] is just $649.",
            "The Dell Inspiron 14 (5440) [CMP-008] is just $649.",
        ),
        # a name the sentence gives the citation: after it, or as the sentence's subject
        (
            "I'd pick [CMP-008], the Dell XPS 13, at just $649.",
            "I'd pick [CMP-008], the Dell Inspiron 14 (5440), at just $649.",
        ),
        (
            "The Dell XPS 13 is just $649 [CMP-008].",
            "The Dell Inspiron 14 (5440) is just $649 [CMP-008].",
        ),
        # one of two citations misnamed
        (
            "The HP 14 [CMP-023] is $349 and the Dell XPS 13 [CMP-008] is $649.",
            "The HP 14 [CMP-023] is $349 and the Dell Inspiron 14 (5440) [CMP-008] is $649.",
        ),
    ],
)
def test_every_way_of_writing_a_misnamed_citation_is_corrected(said: str, now: str) -> None:
    body = shown(said)
    assert body.answer == now
    [(product_id, written, record, dropped)] = name_fixes(body)
    assert (product_id, record, dropped) == ("CMP-008", "Dell Inspiron 14 (5440)", False)
    assert written in ("Dell XPS 13", "Dell XPS 13 (9340)")
    assert marked(body) == ["Dell Inspiron 14 (5440)"]


@pytest.mark.parametrize(
    "said",
    [
        "- **Razer Blade 16** [CMP-007]: the fastest GPU you can buy, $1,299",
        "The Dell XPS 13 is a gaming beast [CMP-008].",
        "Our top pick [CMP-009], the Razer Blade 16, has an RTX 4090.",
        "The Zephyrus G16 [CMP-004] has a bigger screen.",
        "The Dell XPS 14 [CMP-008] is the one with the OLED screen.",
        "The Pixel 8 [FAIRPHONEFIVE] has the best camera.",
    ],
)
def test_a_misnamed_citation_with_words_the_catalog_cannot_check_goes(said: str) -> None:
    body = shown(f"The HP 14 [CMP-023] is $349.\n\n{said}")
    assert body.answer == "The HP 14 [CMP-023] is $349."
    assert len(name_fixes(body)) == 1 and name_fixes(body)[0][3] is True


@pytest.mark.parametrize(
    ("said", "now", "fix"),
    [
        # a "+" or a variant's word the cited product's name lacks
        (
            "The Samsung Galaxy S24+ [MOB-007] costs $799.",
            "The Samsung Galaxy S24 [MOB-007] costs $799.",
            ("MOB-007", "Samsung Galaxy S24+", "Samsung Galaxy S24"),
        ),
        (
            "The Apple iPhone 16 Pro Max [MOB-002] costs $899.",
            "The Apple iPhone 16 Plus [MOB-002] costs $899.",
            ("MOB-002", "Apple iPhone 16 Pro Max", "Apple iPhone 16 Plus"),
        ),
        # another brand's line on a name that is its brand and a number
        (
            "The Acer Swift Go 14 [CMP-023] costs $349.",
            "The HP 14 Laptop (14-ep0000) [CMP-023] costs $349.",
            ("CMP-023", "Acer Swift Go 14", "HP 14 Laptop (14-ep0000)"),
        ),
        # a book's title no tool returned, on another book's id (its own article kept once)
        (
            "The Great Gatsby [BK-THE-MARTIAN-PA] costs $11.99.",
            "The Martian: A Novel [BK-THE-MARTIAN-PA] costs $11.99.",
            ("BK-THE-MARTIAN-PA", "Great Gatsby", "The Martian: A Novel"),
        ),
        # the article the cited product's name needs
        (
            "I'd get a Dell XPS 13 [CMP-023] for $349.",
            "I'd get an HP 14 Laptop (14-ep0000) [CMP-023] for $349.",
            ("CMP-023", "Dell XPS 13", "HP 14 Laptop (14-ep0000)"),
        ),
    ],
)
def test_more_misnamed_citations_are_corrected(
    said: str, now: str, fix: tuple[str, str, str]
) -> None:
    body = shown(said)
    assert body.answer == now
    assert name_fixes(body) == [(*fix, False)]


@pytest.mark.parametrize(
    "said",
    [
        # a name after "with", "than", "for": another thing the sentence speaks of
        "It pairs well with the Dell XPS 13 [CMP-008] at $649.",
        "Supports Apple Pencil Pro [CMP-011] for $1,099.",
    ],
)
def test_a_misnamed_citation_where_no_name_of_it_can_stand_goes(said: str) -> None:
    macbook = {**XPS13, "productId": "CMP-011", "name": "Apple MacBook Air 13 (M3)"}
    body = shown(f"The HP 14 [CMP-023] is $349. {said}", [*LEDGER, {**macbook, "brand": "Apple"}])
    assert body.answer == "The HP 14 [CMP-023] is $349."
    assert [fix[3] for fix in name_fixes(body)] == [True]


def test_the_words_of_the_named_product_do_not_vouch_for_the_sentence() -> None:
    # Given the Razer is known and its record has an RTX 4090: the sentence is the Razer's
    body = shown("The Razer Blade 16 [CMP-007] has an RTX 4090.", [*LEDGER, RAZER])
    # Then it goes: the XPS 13 has no RTX 4090
    assert body.answer == NO_VOUCH


def test_a_name_with_a_plus_is_not_read_as_the_name_without() -> None:
    # Given only the Galaxy S24 is known, and the answer speaks of the S24+
    body = shown("The Galaxy S24+ has 512 GB storage.", [GALAXY_S24])
    # Then the S24's record corrects nothing of the S24+
    assert body.corrections == []


@pytest.mark.parametrize(
    ("said", "now"),
    [
        ("The Galaxy S24 is $799.", "The Galaxy S24 is $799."),
        ("The Samsung Galaxy S24 is $799.", "The Samsung Galaxy S24 is $799."),
        ("The Galaxy S24+ is $999.", "The Galaxy S24+ is $999."),
        ("The Galaxy S24 is $999.", "The Galaxy S24 is $799."),
        ("The Galaxy S24+ is $799.", "The Galaxy S24+ is $999."),
        # "plus" in words is the S24+, never the S24 corrected
        ("The Galaxy S24 plus is $999.", "The Galaxy S24 plus is $999."),
    ],
)
def test_a_name_and_the_same_name_with_a_plus_each_name_their_own(said: str, now: str) -> None:
    # Given the Galaxy S24 and the S24+ both known: "The Galaxy S24 is $799" was read as
    # naming neither (the "+" was no word of the S24+'s name), and the answer went
    plus = {**GALAXY_S24, "productId": "MOB-008", "name": "Samsung Galaxy S24+", "price": 999.0}
    body = shown(said, [GALAXY_S24, plus])
    assert body.answer == now
    assert len(body.corrections) == (0 if said == now else 1)


def test_a_known_book_title_on_another_books_id_is_corrected() -> None:
    body = shown("The Martian [bk-project-hail-mary] costs $14.99.")
    assert body.answer == "Project Hail Mary [bk-project-hail-mary] costs $14.99."
    assert name_fixes(body) == [("bk-project-hail-mary", "The Martian", "Project Hail Mary", False)]


def test_the_pixel_9_name_on_the_pixel_9_pro_is_corrected() -> None:
    pixel9 = {**FAIRPHONE5, "productId": "MOB-015", "name": "Google Pixel 9", "brand": "Google"}
    pro = {**pixel9, "productId": "MOB-016", "name": "Google Pixel 9 Pro", "price": 999.0}
    body = shown("The Pixel 9 [MOB-016] costs $999.", [pixel9, pro])
    assert body.answer == "The Google Pixel 9 Pro [MOB-016] costs $999."


# -- true citations stay as they are -------------------------------------------------------------


@pytest.mark.parametrize(
    "said",
    [
        # the exact name, a short or partial one, another word order, another case
        "The Dell XPS 13 9340 [CMP-007] weighs 1.19 kg.",
        "The XPS 13 [CMP-007] is $1,299.",
        "Zephyrus [CMP-004] is a great gaming laptop.",
        "I like the Zephyrus G14 [CMP-004] for gaming.",
        "The ASUS Zephyrus ROG G14 [CMP-004] has 32 GB RAM.",
        "For gaming, the ROG Zephyrus G14 2024 [CMP-004] is my pick.",
        "The HP 14 Laptop [CMP-023] is the cheapest.",
        "The HP 14 [CMP-023] is the cheapest.",
        "The HP Laptop 14 [CMP-023] is the cheapest.",
        "Dell's XPS 13 [CMP-007] is light.",
        "DELL XPS 13 [CMP-007] is light.",
        "dell xps 13 [CMP-007] is light.",
        "The Dell XPS 13 (2024) [CMP-007] is light.",
        "The Dell XPS 13 Copilot+ PC [CMP-007] is light.",
        "The Alienware m16 [CMP-009] is a beast.",
        # a book title without its subtitle, its author, a store's ids of every shape
        "The Martian [BK-THE-MARTIAN-PA] by Andy Weir is a fun read.",
        "Andy Weir's Project Hail Mary [bk-project-hail-mary] is his best.",
        "The Fairphone 5 [10042] and the Fairphone 4 [FAIRPHONEFIVE] are both repairable.",
        "FAIRPHONE 4 [fairphonefive] is repairable.",
        "The AirPods Pro 2 [MTJV3LL/A] cancel noise well.",
        f"The Sony WH-1000XM5 [{cite_as('Sony WH-1000 [black]')}] cancel noise well.",
        "The Kindle Paperwhite [#4411] is easy on the eyes.",
        "The Galaxy S24 FE [wc-1033] comes in Mint.",
        # a list, a description, two citations each beside its own name
        "1. Dell XPS 13 (9340) [CMP-007]: light and fast",
        "- **Dell XPS 13** [CMP-007]: light and fast",
        "Our lightest laptop [CMP-007] weighs 1.19 kg.",
        "If the HP 14 feels slow, I'd go for our lightest laptop [CMP-007].",
        "The HP 14 [CMP-023] is cheaper than the XPS 13 [CMP-007].",
        "The HP 14 is heavier than our lightest laptop [CMP-007].",
        "The HP 14 [CMP-023], the Dell XPS 13 [CMP-007] and the Zephyrus [CMP-004] are light.",
        # a spec or a feature before the citation, not another product's name
        "It runs Windows 11 [CMP-007].",
        "It has an RTX 4070 [CMP-004].",
        "It has an Intel Core Ultra 7 [CMP-007].",
        "It supports Wi-Fi 7 [CMP-007].",
        "It has a 512 GB SSD [CMP-007].",
        "Great for Netflix and YouTube [CMP-007].",
        "It has 16 GB RAM [CMP-007].",
        "1. HP 14 Laptop (14-ep0000) [CMP-023]: 8 GB RAM, 1.4 kg, $349.",
        "The Samsung Galaxy S24 [MOB-007] costs $799.",
        "The iPhone 16 Plus [MOB-002] costs $899.",
    ],
)
def test_a_true_citation_is_left_as_it_is(said: str) -> None:
    body = shown(said)
    shown_ids = {
        "[fairphonefive]": "[FAIRPHONEFIVE]",
        f"[{cite_as('Sony WH-1000 [black]')}]": "[Sony WH-1000 [black]]",
    }
    expected = said
    for written, rendered in shown_ids.items():
        expected = expected.replace(written, rendered)
    assert body.answer == expected
    assert name_fixes(body) == []


@pytest.mark.parametrize(
    "said",
    [
        "Option 1 [CMP-007] is the lighter one.",
        "Pick #2 [CMP-008]: the cheaper one.",
        "Choice 2 [CMP-023] is the cheapest.",
        "Laptop 1 [CMP-007] is lighter than Laptop 2 [CMP-008].",
    ],
)
def test_a_place_in_the_answers_own_list_is_no_other_products_name(said: str) -> None:
    # Given an answer that numbers its picks, each cited: the shopper reads it as written
    body = shown(said)
    assert body.answer == said
    assert name_fixes(body) == []


def test_a_name_written_against_words_of_a_script_without_spaces_is_read_alone() -> None:
    # Given Japanese, which writes no space between its words and a product's name
    true = "学生にはHP 14 [CMP-023] がおすすめです。"
    assert shown(true).answer == true
    # And another product's name there is still read as another's
    body = shown("学生にはDell XPS 13 [CMP-008] がおすすめです。")
    assert body.answer == NO_VOUCH
    assert [(pid, dropped) for pid, _, _, dropped in name_fixes(body)] == [("CMP-008", True)]
