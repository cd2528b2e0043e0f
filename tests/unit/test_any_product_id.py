"""A store's SKUs are whatever its platform allows: the answer's checks still hold.

Products here have ids of every shape a real store has: numbers, letters only, lower case,
dots, slashes, ``#``, spaces, brackets, 255 characters. The model cites each as the catalog
tool gave it (the id, or its handle when the id cannot be cited safely); the shopper reads
the answer as these tests assert it.
"""

from __future__ import annotations

import copy
from collections.abc import Sequence
from typing import Any

import pytest

from compose_response.logic import ComposeInput, compose
from shared.products.catalog_table import CatalogRead
from shared.products.citing import cite_as, handle, is_handle
from shared.text.contacts import OwnContacts

IDS = {
    "numeric": "100201",
    "letters only": "BK-THE-MARTIAN-PA",
    "lower case": "bk-project-hail-mary",
    "dots": "bk.artemis.pb",
    "slash": "MLK03LL/A",
    "hash": "#4411",
    "spaces": "BK THE MARTIAN HC",
    "brackets": "Sony WH-1000 [black]",
    "255 characters": "SKU-" + "x" * 251,
    "letters and digits": "CMP-023",
}


def record(pid: str, price: float) -> dict[str, Any]:
    return {"productId": pid, "name": f"Book {price:g}", "category": "BOOKS", "price": price}


RECORDS = {pid: record(pid, 10.0 + i) for i, pid in enumerate(IDS.values())}


def shopper_sees(answer: str, *ids: str, **event: Any) -> dict[str, Any]:
    products = [RECORDS[pid] for pid in ids or RECORDS]
    return compose(
        ComposeInput(sessionId="s-1", outcome="answered", answer=answer, products=products),
        **event,
    ).model_dump()


@pytest.mark.parametrize("kind", list(IDS))
def test_a_product_of_any_id_is_carded_and_its_wrong_price_corrected(kind: str) -> None:
    # Given a product whose id is of this kind, as the catalog tool gave it to the model
    pid = IDS[kind]
    price = RECORDS[pid]["price"]
    # When the model cites it with a wrong price
    body = shopper_sees(f"I'd pick {RECORDS[pid]['name']} [{cite_as(pid)}] for $999.")
    # Then the shopper reads the catalog's price and the product's own id, and sees its card
    assert body["answer"] == f"I'd pick {RECORDS[pid]['name']} [{pid}] for ${price:.0f}."
    assert [p["productId"] for p in body["products"]] == [pid]
    assert [(c["productId"], c["said"]) for c in body["corrections"]] == [(pid, "$999")]
    assert body["unverifiedCitations"] == []


def test_an_id_that_cannot_be_cited_safely_is_cited_by_a_handle_the_shopper_never_sees() -> None:
    unsafe = [pid for pid in IDS.values() if cite_as(pid) != pid]
    assert unsafe == [IDS["spaces"], IDS["brackets"], IDS["255 characters"]]
    answer = " ".join(f"Try {RECORDS[pid]['name']} [{handle(pid)}]." for pid in unsafe)
    body = shopper_sees(answer)
    assert [p["productId"] for p in body["products"]] == unsafe
    assert not any(handle(pid) in body["answer"] for pid in unsafe)
    assert all(f"[{pid}]" in body["answer"] for pid in unsafe)


@pytest.mark.parametrize(
    "invented",
    [
        "999999",
        "BK-ZEPHYR-ULTRA",
        "zephyr-ultra",
        "bk.zephyr.pb",
        "#9999",
        "ZEPHYR/ULTRA",
        handle("no such product"),
    ],
)
def test_an_invented_id_of_any_form_is_removed_with_its_claim(invented: str) -> None:
    # Given a reply like the one that reached a shopper unchanged with numeric SKUs
    answer = f"The Martian [100201] costs $999. Or take the Zephyr Ultra [{invented}] for $199."
    body = shopper_sees(answer, "100201")
    # Then the invented product is gone with its sentence, and the real one is corrected
    assert body["answer"] == "The Martian [100201] costs $10."
    assert [p["productId"] for p in body["products"]] == ["100201"]
    assert body["unverifiedCitations"] == [invented]
    assert "Zephyr" not in body["answer"] and invented not in body["answer"]


@pytest.mark.parametrize(
    "written",
    [
        "[ CMP-023 ]",
        "[cmp-023]",
        "(CMP-023)",
        "( cmp-023 )",
        "\uff08CMP-023\uff09",  # fullwidth round brackets
        "\uff3bCMP-023\uff3d",  # fullwidth brackets
        "[\uff23\uff2d\uff30\uff0d\uff10\uff12\uff13]",  # fullwidth letters and digits
        "\u3010CMP-023\u3011",
        "[CMP\u2013023]",  # an en dash
        "[`CMP-023`]",
        "[CMP-023\u200b]",  # a zero-width space
    ],
)
def test_a_near_miss_of_a_known_id_is_read_as_the_product_it_names(written: str) -> None:
    # When the model writes a known id nearly right, with a wrong price
    body = shopper_sees(f"The Book 19 {written} costs $999.", "CMP-023", "100201")
    # Then the shopper reads the product's id as the catalog writes it, and its card
    assert body["answer"].startswith("The Book 19 [CMP-023]")
    assert body["answer"].endswith(" costs $19.")
    assert body["products"][0]["productId"] == "CMP-023"
    assert body["corrections"][0]["productId"] == "CMP-023"


def test_a_numeric_sku_in_round_brackets_is_the_product_and_its_price_is_checked() -> None:
    body = shopper_sees("The Martian (100201) costs $999.", "100201")
    assert body["answer"] == "The Martian [100201] costs $10."
    assert [p["productId"] for p in body["products"]] == ["100201"]


def test_several_ids_in_one_pair_of_brackets_are_several_citations() -> None:
    body = shopper_sees("Both [CMP-023, 100201] are in stock.", "CMP-023", "100201")
    assert body["answer"] == "Both [CMP-023], [100201] are in stock."
    assert [p["productId"] for p in body["products"]] == ["CMP-023", "100201"]
    body = shopper_sees("Try these [CMP-023, CMP-999].", "CMP-023")
    assert body["answer"] == "Try these [CMP-023]."
    assert body["unverifiedCitations"] == ["CMP-999"]


@pytest.mark.parametrize(
    "written",
    [
        "[ cmp-999 ]",
        "[Cmp-999]",
        "\uff3b\uff23\uff2d\uff30\uff0d\uff19\uff19\uff19\uff3d",
        "[`999999`]",
    ],
)
def test_a_near_miss_of_an_invented_id_is_removed_never_shown_raw(written: str) -> None:
    body = shopper_sees(f"The Martian [100201] is fine. The Zephyr {written} is lighter.")
    assert body["answer"] == "The Martian [100201] is fine."


def test_prose_in_round_brackets_stays() -> None:
    # Given a store whose SKUs are numbers, one of them "2014", which no tool returned
    records = [record("100201", 10.0)]
    answer = (
        "The Martian (2014) by Andy Weir [100201] is a fine read (about 380 pages, "
        "paperback). See [the author's page](https://example.com) (see below). [ ] gift wrap"
    )
    # (and whose own domain is example.com: a link elsewhere would go, shared.text.contacts)
    body = compose(
        ComposeInput(sessionId="s-1", outcome="answered", answer=answer, products=records),
        own=OwnContacts.of(["example.com"]),
    ).model_dump()
    # Then a number in round brackets is still a year, and words in them still words
    assert body["answer"] == answer
    assert [p["productId"] for p in body["products"]] == ["100201"]


class Catalog:
    """The catalog table as the response builder reads it."""

    def __init__(self, products: list[dict[str, Any]]) -> None:
        self.products = {p["productId"]: p for p in products}
        self.asked: list[list[str]] = []

    def products_by_id(self, ids: Sequence[str], *, deadline_s: float | None) -> CatalogRead:
        self.asked.append(list(ids))
        return CatalogRead([copy.deepcopy(self.products[i]) for i in ids if i in self.products])


def test_an_earlier_turns_product_cited_by_its_handle_is_read_fresh_and_shown() -> None:
    # Given an earlier turn that showed a product whose id has spaces, now $8 in the table
    pid = IDS["spaces"]
    table = Catalog([{**RECORDS[pid], "price": 8.0}])
    # When the follow-up cites it by the handle the tool gave in that turn, with its old price
    body = compose(
        ComposeInput(
            sessionId="s-1",
            outcome="answered",
            answer=f"Yes, {RECORDS[pid]['name']} [{handle(pid)}] costs $16.",
            earlier=[pid],
        ),
        catalog=table,
    ).model_dump()
    # Then the shopper reads today's price and the product's id, and sees its card
    assert body["answer"] == f"Yes, {RECORDS[pid]['name']} [{pid}] costs $8."
    assert [p["productId"] for p in body["products"]] == [pid]
    assert table.asked == [[pid]]


@pytest.mark.parametrize(
    "invented", ["ZEPHYR ULTRA 2", "BK THE ZEPHYR", "Sony WH-9000 [black]", "zephyr ultra.pb"]
)
def test_an_invented_id_with_spaces_is_a_claim_too(invented: str) -> None:
    # Given a store whose SKUs hold spaces, When the model invents one in that form
    body = shopper_sees(f"Try [{IDS['spaces']}]. Or the Zephyr [{invented}] for $199.")
    # Then the sentence about it goes
    assert body["answer"] == f"Try [{IDS['spaces']}]."
    assert [p["productId"] for p in body["products"]] == [IDS["spaces"]]


def test_a_handle_is_written_as_one_and_an_id_that_looks_like_one_is_not_confused() -> None:
    assert is_handle(handle("any id at all")) and handle("x y") == handle("x y")
    assert handle("x y") != handle("x  y")
    # A catalog id spelt like another's handle is cited as itself: the exact id wins.
    lookalike = handle(IDS["spaces"])
    records = [record(lookalike, 3.0), RECORDS[IDS["spaces"]]]
    body = compose(
        ComposeInput(
            sessionId="s-1",
            outcome="answered",
            answer=f"Take [{lookalike}] for $999.",
            products=records,
        )
    ).model_dump()
    assert [p["productId"] for p in body["products"]] == [lookalike]
