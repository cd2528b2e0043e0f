"""The offline model given a catalog search the loop ran on the shopper's words first.

Each request is built as the loop builds it with search first: the shopper's message, an
assistant ``toolUse`` of ``lookup_inventory`` with those words, and its ``toolResult``
from the real catalog tool on the sample catalog. The model answers at once when that
search serves its plan, asks only for what is missing, and otherwise asks for its own
search as it would have without one.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from lookup_inventory.first import FirstAsk, ordering_shown
from lookup_inventory.logic import run
from shared.api.contract import ToolUse
from shared.products.catalog_data import load_catalog
from shared.products.table import shown_products
from shared.search import SearchIndex, build_index
from storechat.offline import OfflineModel
from storechat.offline.notes import GREETING
from storechat.offline.store import Store
from tests.support.searched import searched_as
from tests.unit.test_lookup_inventory import Table
from tests.unit.test_offline_model import (
    CITATION,
    TOOL_NAMES,
    answer_text,
    failure,
    make_request,
    success,
    tool_uses,
    user,
)

CATALOG = load_catalog()
BY_ID = {p["productId"]: p for p in CATALOG}
GIVEN_ID = "search-first"
Messages = list[dict[str, Any]]


@pytest.fixture(scope="module")
def index(tmp_path_factory: pytest.TempPathFactory) -> Iterator[SearchIndex]:
    """A snapshot of the sample catalog, as the indexer built it."""
    path = tmp_path_factory.mktemp("given") / "catalog.sqlite"
    build_index(CATALOG, path)
    opened = SearchIndex.open(path)
    yield opened
    opened.close()


def lookup(
    index: SearchIndex, tool_input: dict[str, Any], catalog: list[dict[str, Any]] = CATALOG
) -> dict[str, Any]:
    """The catalog tool's toolResult for one call on ``catalog``'s index, as JSON carries
    it to the model, without its toolUseId."""
    use = ToolUse(toolUseId="t", name="lookup_inventory", input=tool_input)
    output = run(use, index=lambda: index, source=Table(catalog), max_results=4).dump()
    result: dict[str, Any] = json.loads(json.dumps(output["toolResult"], default=str))
    del result["toolUseId"]
    return result


def searched_first_in(
    own: list[dict[str, Any]], question: str, tmp_path: Path, earlier: Messages | None = None
) -> Messages:
    """:func:`searched_first` in a store of its own: ``own``'s catalog, indexed."""
    build_index(own, tmp_path / "own.sqlite")
    index = SearchIndex.open(tmp_path / "own.sqlite")
    try:
        return searched_first(index, question, earlier, catalog=own)
    finally:
        index.close()


def searched_first(
    index: SearchIndex,
    question: str,
    earlier: Messages | None = None,
    catalog: list[dict[str, Any]] = CATALOG,
    searched: dict[str, Any] | None = None,
) -> Messages:
    """The first request's messages: ``earlier`` turns, the shopper's words, the search of
    them (or what the loop searched for a follow-up, ``searched``) and its result."""
    words = searched or {"keywords": " ".join(question.split())}
    result = {"toolUseId": GIVEN_ID, **lookup(index, words, catalog)}
    return [
        *(earlier or []),
        user(question),
        {
            "role": "assistant",
            "content": [
                {
                    "toolUse": {
                        "toolUseId": GIVEN_ID,
                        "name": "lookup_inventory",
                        "input": words,
                    }
                }
            ],
        },
        {"role": "user", "content": [{"toolResult": result}]},
    ]


def given_ids(messages: Messages) -> list[str]:
    result = next(
        b["toolResult"]
        for m in messages
        for b in m["content"]
        if b.get("toolResult", {}).get("toolUseId") == GIVEN_ID
    )
    return [p["productId"] for p in shown_products(result["content"][0]["json"]["products"])]


def answered(messages: Messages, reply: dict[str, Any], *results: dict[str, Any]) -> Messages:
    """``messages`` with the model's reply and a toolResult for each of its toolUses."""
    uses = tool_uses(reply)
    assert len(uses) == len(results), uses
    return [
        *messages,
        reply["output"]["message"],
        {
            "role": "user",
            "content": [
                {"toolResult": {"toolUseId": u["toolUseId"], **r}}
                for u, r in zip(uses, results, strict=True)
            ],
        },
    ]


def answered_first(model: OfflineModel, index: SearchIndex, asked: str) -> tuple[str, Messages]:
    """The model's answer to ``asked`` searched first, and that turn as the next request's
    earlier messages."""
    shown = answer_text(model.converse(make_request(searched_first(index, asked))))
    return shown, [user(asked), {"role": "assistant", "content": [{"text": shown}]}]


def cited(text: str) -> list[str]:
    return CITATION.findall(text)


# ----------------------------------------------------------------- answered at once


def test_a_catalog_question_the_search_serves_is_answered_in_one_call(
    index: SearchIndex,
) -> None:
    # Given the search of "Do you have Dell laptops?", which found Dell laptops
    messages = searched_first(index, "Do you have Dell laptops?")

    # When the model gets the first request
    reply = OfflineModel().converse(make_request(messages))

    # Then it answers at once with the Dell laptops the search found
    assert reply["stopReason"] == "end_turn"
    text = answer_text(reply)
    assert text.startswith("Our Dell laptops:\n1. ")
    ids = cited(text)
    assert ids and set(ids) <= set(given_ids(messages))
    assert all(BY_ID[pid]["brand"] == "Dell" for pid in ids)


def test_a_budget_the_search_read_too_is_answered_in_one_call(index: SearchIndex) -> None:
    # Given the search of a question with a budget, which the search read as one
    messages = searched_first(index, "Show me laptops under $600")

    # When the model gets the first request
    reply = OfflineModel().converse(make_request(messages))

    # Then it answers at once, each laptop it names within the budget
    assert reply["stopReason"] == "end_turn"
    text = answer_text(reply)
    assert text.startswith("Our laptops under $600:")
    ids = cited(text)
    assert len(ids) == 3 and set(ids) <= set(given_ids(messages))
    assert all(BY_ID[pid]["price"] <= 600 for pid in ids)


@pytest.mark.parametrize(
    ("question", "said"),
    [
        ("Do you have a laptop under $200?", "I couldn't find any laptops under $200 in stock."),
        ("A phone with a 300 MP camera",
         "I couldn't find any phones with at least 300 MP camera in stock."),
        # The search gave books for this before: any product under $700
        ("laptops with 32 GB RAM under $700",
         "I couldn't find any laptops with at least 32 GB RAM under $700 in stock."),
    ],
)  # fmt: skip
def test_limits_none_meets_are_answered_with_the_nearest_the_search_gave_in_one_call(
    index: SearchIndex, question: str, said: str
) -> None:
    # Given the search of a question whose limits no product meets: it gave the nearest
    messages = searched_first(index, question)

    # When the model gets the first request
    reply = OfflineModel().converse(make_request(messages))

    # Then it answers at once: none meets them, and the nearest with what differs
    assert reply["stopReason"] == "end_turn"
    text = answer_text(reply)
    assert text.startswith(said + "\nThe nearest we have:\n1. ")
    assert "(you asked for" in text
    assert cited(text) and set(cited(text)) <= set(given_ids(messages))


@pytest.mark.parametrize(
    ("question", "limits"),
    [
        ("a small laptop with a screen under 11 inches", {"maxScreenInches": 11}),
        ("a small laptop with a screen under 14 inches", {"maxScreenInches": 14}),
        ("Show me phones with a screen of at least 6.7 inches", {"minScreenInches": 6.7}),
    ],
)
def test_a_direction_word_is_read_the_same_by_the_search_and_the_model(
    index: SearchIndex, question: str, limits: dict[str, float]
) -> None:
    # Given the search of a screen size with a direction word: the search once read
    # "under 14 inches" and "at least 6.7 inches" as a size class (14 to 14.99, 6.65 to
    # 6.75) and the model as a most or a least, so the model had to search again
    messages = searched_first(index, question)
    searched = messages[-1]["content"][0]["toolResult"]["content"][0]["json"]
    read = searched.get("nearestTo") or searched["understood"]
    assert {k: v for k, v in read.items() if k in limits} == limits
    assert not {"minScreenInches", "maxScreenInches"} - set(limits) & set(read)

    # When the model gets the first request
    reply = OfflineModel().converse(make_request(messages))

    # Then both read the same limit, and the answer is the search's, in one call
    assert reply["stopReason"] == "end_turn"
    text = answer_text(reply)
    assert cited(text) and set(cited(text)) <= set(given_ids(messages))
    if "nearestTo" in searched:
        assert "(you asked for" in text


def test_a_named_product_the_search_found_is_confirmed_in_one_call(index: SearchIndex) -> None:
    messages = searched_first(index, "How much is the ASUS Zenbook 14 OLED (UX3405)?")

    reply = OfflineModel().converse(make_request(messages))

    assert reply["stopReason"] == "end_turn"
    assert answer_text(reply) == (
        "We carry the ASUS Zenbook 14 OLED (UX3405) [CMP-001]: in stock (24 available), "
        "$999; 16 GB RAM, 1.2 kg, 15 h battery."
    )


def test_a_model_said_by_its_token_alone_is_confirmed_in_one_call(index: SearchIndex) -> None:
    # Given the search of a model said with no line ("the S24"), which named it
    messages = searched_first(index, "is the S24 in stock?")

    reply = OfflineModel().converse(make_request(messages))

    # Then the product of that name with no more words is confirmed, not asked about
    assert reply["stopReason"] == "end_turn"
    assert answer_text(reply).startswith("We carry the Samsung Galaxy S24 [MOB-007]: in stock")


def test_a_kind_the_shopper_has_is_not_shown_beside_one_the_store_does_not_sell(
    index: SearchIndex,
) -> None:
    # Given the search of a wish for an accessory the store does not sell, for a phone
    # the shopper has
    messages = searched_first(index, "I broke my phone screen, do you sell screen protectors?")

    reply = OfflineModel().converse(make_request(messages))

    # Then the answer says so once, and shows no phones
    assert answer_text(reply) == (
        "Sorry, we don't carry screen protectors. I can help you find computers, phones and books."
    )


def test_an_author_the_store_has_no_book_by_is_said_not_carried(index: SearchIndex) -> None:
    # Given the search of books by an author the catalog has none of
    messages = searched_first(index, "any books by Stephen King?")

    reply = OfflineModel().converse(make_request(messages))

    # Then the answer says so first, in the shopper's words, before the books it has
    text = answer_text(reply)
    assert text.startswith("Sorry, we don't carry anything by Stephen King.\nOur books:")
    assert text.count("Stephen King") == 1


def test_two_lines_named_are_no_one_brands(index: SearchIndex) -> None:
    # Given the search of phones of either of two lines, one of them a brand's own
    messages = searched_first(index, "iPhone or Android phone under 500?")

    reply = OfflineModel().converse(make_request(messages))

    # Then phones of both are recommended: the iPhone does not make it a wish for Apple
    text = answer_text(reply)
    assert text.startswith("Our Android/iOS phones under $500:")
    assert "MOB-006" in cited(text) and "MOB-012" in cited(text)


def test_products_compared_by_name_that_the_search_named_are_compared_in_one_call(
    index: SearchIndex,
) -> None:
    # Given the search of two products named, which gives both first
    messages = searched_first(index, "compare the iPhone 15 and the Galaxy S24")
    assert given_ids(messages)[:2] == ["MOB-005", "MOB-007"]

    # When the model gets the first request
    reply = OfflineModel().converse(make_request(messages))

    # Then it compares them at once, with no lookup of its own
    assert reply["stopReason"] == "end_turn"
    text = answer_text(reply)
    assert text.startswith("Here is how they compare:")
    assert set(cited(text)) == {"MOB-005", "MOB-007"}


def test_a_product_the_search_says_is_not_carried_is_answered_in_one_call(
    index: SearchIndex,
) -> None:
    # Given the search of a model the store lacks, which says so and gives its nearest first
    messages = searched_first(index, "Do you have the iPhone 14?")

    reply = OfflineModel().converse(make_request(messages))

    # Then the model says it is not carried, once, and offers those nearest
    assert reply["stopReason"] == "end_turn"
    text = answer_text(reply)
    assert text.startswith("Sorry, we don't carry the Apple iPhone 14.\nThe closest we have:")
    assert text.count("don't carry") == 1
    assert cited(text) == given_ids(messages)[:2] == ["MOB-005", "MOB-001"]


def test_a_product_named_with_a_genres_word_is_confirmed_in_one_call(tmp_path: Path) -> None:
    # Given a store of computers and phones, one whose name has a book genre's word
    # ("magic"): the search lets go of its words, then finds the phone by its name
    phone = {
        **BY_ID["MOB-007"],
        "productId": "5109001",
        "name": "Honor Magic 6 Pro",
        "brand": "Honor",
        "price": 699.0,
    }
    own = [*(p for p in CATALOG if p["category"] != "BOOKS"), phone]
    messages = searched_first_in(own, "is the Honor Magic 6 Pro in stock?", tmp_path)

    # When the model gets the first request
    reply = OfflineModel(store=lambda: Store.of_products(own)).converse(make_request(messages))

    # Then it confirms the phone at once, not after a search of its own
    assert reply["stopReason"] == "end_turn"
    assert answer_text(reply).startswith("We carry the Honor Magic 6 Pro [5109001]: in stock")


def test_a_product_not_carried_whose_name_has_a_word_near_another_is_said_in_one_call(
    index: SearchIndex,
) -> None:
    # Given the search of a phone the store lacks, "Note" one letter from "not"
    messages = searched_first(index, "is the Xiaomi Redmi Note 13 in stock?")

    reply = OfflineModel().converse(make_request(messages))

    # Then the model says so at once, by the name as written, and searches nothing else
    assert reply["stopReason"] == "end_turn"
    text = answer_text(reply)
    assert text.startswith("Sorry, we don't carry the Xiaomi Redmi Note 13.")
    assert "matching" not in text


def test_an_order_on_a_spec_no_product_states_is_not_said_as_theirs(tmp_path: Path) -> None:
    # Given a store whose laptops state no weight
    own = [
        {**p, "specs": {k: v for k, v in p["specs"].items() if k != "weightKg"}}
        for p in CATALOG
        if p["category"] == "COMPUTERS"
    ]
    messages = searched_first_in(own, "what is your lightest laptop?", tmp_path)

    # When the model answers
    reply = OfflineModel(store=lambda: Store.of_products(own)).converse(make_request(messages))

    # Then it says it cannot put them in that order, and never calls them lightest first
    text = answer_text(reply)
    assert "None of them lists its weight: I can't order them by it." in text
    assert "lightest" not in text
    assert cited(text)


@pytest.mark.parametrize(
    ("question", "heading", "unwanted"),
    [
        ("a laptop but not a Chromebook", "Our laptops other than Chromebook:", "Chromebook"),
        ("any phone except an iPhone", "Our phones other than iPhone:", "iPhone"),
        (
            "I want a phone that's not Apple or Samsung",
            "Our phones other than Apple or Samsung:",
            "Samsung",
        ),
    ],
)
def test_what_the_shopper_does_not_want_is_neither_shown_nor_asked_for(
    index: SearchIndex, question: str, heading: str, unwanted: str
) -> None:
    # Given the search of words that say what the shopper does not want, which left it out
    messages = searched_first(index, question)

    # When the model answers
    reply = OfflineModel().converse(make_request(messages))

    # Then it recommends the rest, never reads the unwanted as wanted, shows none of it,
    # and says in its heading what it left out
    text = answer_text(reply)
    assert reply["stopReason"] == "end_turn"
    first, _, rest = text.partition("\n")
    assert first == heading
    assert "couldn't find" not in text and unwanted not in rest
    assert cited(text)


@pytest.mark.parametrize(
    ("question", "unwanted"),
    [
        ("an iphone but not the iphone se", "MOB-006"),
        ("a samsung phone, not the galaxy a15 or a35", "MOB-011"),
    ],
)
def test_a_model_not_wanted_in_lower_case_is_not_looked_up(
    index: SearchIndex, question: str, unwanted: str
) -> None:
    # Given a shopper who writes no capitals: the model is read as not wanted, as
    # "not the iPhone SE" is (it used to be looked up by name and shown)
    messages = searched_first(index, question)

    reply = OfflineModel().converse(make_request(messages))

    text = answer_text(reply)
    assert reply["stopReason"] == "end_turn"
    assert text.startswith("Our ") and " other than " in text.partition("\n")[0]
    assert unwanted not in text and "MOB-012" not in text
    assert cited(text)


def test_a_least_price_is_said_as_a_price_in_the_heading(index: SearchIndex) -> None:
    # "Our laptops at least $1,500" read as if the laptops were at least something
    messages = searched_first(index, "laptops over $1500")
    text = answer_text(OfflineModel().converse(make_request(messages)))
    assert text.partition("\n")[0] == "Our laptops priced at least $1,500:"
    assert cited(text)


@pytest.mark.parametrize(
    ("question", "named"),
    [
        ("a laptop cheaper than the xps 13", "CMP-007"),
        ("something cheaper than the Legion", "CMP-018"),  # one word, one model carried
    ],
)
def test_products_cheaper_than_one_named_are_shown_not_that_one(
    index: SearchIndex, question: str, named: str
) -> None:
    # "a laptop cheaper than the XPS 13" used to be answered with the XPS 13 itself
    messages = searched_first(index, question)
    reply = OfflineModel().converse(make_request(messages))
    text = answer_text(reply)
    assert named not in text and BY_ID[named]["name"].split()[1] not in text
    assert text.startswith("Our ") and cited(text)
    price = BY_ID[named]["price"]
    assert all(BY_ID[pid]["price"] < price for pid in cited(text))


@pytest.mark.parametrize(
    ("question", "line", "heading"),
    [
        ("a phone cheaper than the Pixel", "Pixel", "Our phones under $499:"),
        ("anything cheaper than the MacBook?", "MacBook", "Our computers under $1,099:"),
        ("something more expensive than the Pixel", "Pixel", "Our phones priced at least $1,099:"),
    ],
)
def test_a_price_against_a_line_is_said_at_the_line_s_price(
    index: SearchIndex, question: str, line: str, heading: str
) -> None:
    # "a phone cheaper than the Pixel" showed the Pixels, "Our phones:" and no price
    messages = searched_first(index, question)
    text = answer_text(OfflineModel().converse(make_request(messages)))
    assert text.partition("\n")[0] == heading
    assert cited(text) and line not in text


@pytest.mark.parametrize(
    ("question", "heading"),
    [
        # the store's book "Nineteen Eighty-Four" is $9.99: under its price, not $1,984
        ("a book cheaper than 1984", "Our books under $9.98:"),
        ("a book cheaper than 500", "Our books under $500:"),  # no title: an amount
        ("a phone cheaper than $500", "Our phones under $500:"),
        # "costs less than" is "cheaper than": the XPS 13 is $1,299, and no model asked
        ("a laptop that costs less than the XPS 13", "Our laptops under $1,299:"),
        ("a phone for less than the iPhone 15 costs", "Our phones under $699:"),
    ],
)
def test_a_price_said_against_a_product_is_the_search_s_limit(
    index: SearchIndex, question: str, heading: str
) -> None:
    # "a book cheaper than 1984" was headed "Our books under $1,984:"
    messages = searched_first(index, question)
    text = answer_text(OfflineModel().converse(make_request(messages)))
    assert text.partition("\n")[0] == heading
    assert cited(text)


@pytest.mark.parametrize(
    ("question", "left_out", "refused"),
    [
        (
            "I want a laptop but not the cheapest one",
            "Leaving out the cheapest, the HP Chromebook 14a (14a-nf0000).",
            ("cheapest here",),
        ),
        (
            "not the lightest or the cheapest laptop",
            "Leaving out the lightest, the Microsoft Surface Laptop Go 3, and the cheapest,"
            " the HP Chromebook 14a (14a-nf0000).",
            ("lightest", "cheapest"),
        ),
        (
            "an iPhone but not the most expensive one",
            "Leaving out the priciest, the Apple iPhone 16 Pro Max.",
            (),
        ),
    ],
)
def test_the_first_of_an_order_not_wanted_is_said_left_out_and_no_other_called_so(
    index: SearchIndex, question: str, left_out: str, refused: tuple[str, ...]
) -> None:
    # "a laptop but not the cheapest one" showed the rest with no word of the one left out,
    # and called the cheapest of them "cheapest here"
    messages = searched_first(index, question)
    text = answer_text(OfflineModel().converse(make_request(messages)))
    assert text.partition("\n")[0] == left_out
    assert not [said for said in refused if f"{said} here" in text] and cited(text)


def test_the_words_no_product_has_are_said_as_dropped_not_the_whole_question(
    index: SearchIndex,
) -> None:
    # Given the search of a kind with a word no product has
    messages = searched_first(index, "Do you sell refurbished phones?")

    text = answer_text(OfflineModel().converse(make_request(messages)))

    # Then the answer names that word as what matched nothing, and shows the kind
    assert text.startswith("Nothing in the catalog matched “refurbished”, so without it:")
    assert cited(text)


def test_an_accessory_not_carried_is_the_whole_answer(index: SearchIndex) -> None:
    # Given the search of an accessory for a product the shopper has, which shows nothing
    messages = searched_first(index, "a case for the iPhone 13")

    reply = OfflineModel().converse(make_request(messages))

    # Then the model says it is not carried, at once, and claims nothing about phones
    assert reply["stopReason"] == "end_turn"
    text = answer_text(reply)
    assert text.startswith("Sorry, we don't carry cases.")
    assert "couldn't find" not in text and not cited(text)
    assert text.count("I can help") == 1


def test_products_the_search_found_by_a_word_the_model_reads_nothing_in_are_the_answer(
    tmp_path: Path,
) -> None:
    # Given a store whose phones are named by their brand, asked for in the plural
    own = [
        {**BY_ID["MOB-012"], "productId": "P1", "name": "Fairphone 5", "brand": "Fairphone"},
        {**BY_ID["MOB-011"], "productId": "P2", "name": "Galaxy A35", "brand": "Samsung"},
    ]
    messages = searched_first_in(own, "do you have any Fairphones here?", tmp_path)

    reply = OfflineModel(store=lambda: Store.of_products(own)).converse(make_request(messages))

    # Then what the search found with that word is shown, not a question back
    assert cited(answer_text(reply)) == ["P1"]


def test_a_sale_asked_for_alone_is_what_is_on_sale_or_that_nothing_is(
    index: SearchIndex, tmp_path: Path
) -> None:
    # Given the sample store, where nothing is on sale
    messages = searched_first(index, "do you have anything on sale?")
    text = answer_text(OfflineModel().converse(make_request(messages)))
    # Then the answer says so, and lists no product of the catalog at large
    assert text.startswith("Nothing is on sale right now.") and not cited(text)

    # Given a store with two products on sale
    own = [
        {**BY_ID[pid], "compareAtPrice": BY_ID[pid]["price"] + 100} if pid in SALE else BY_ID[pid]
        for pid in ("CMP-023", "MOB-011", "MOB-012", "BK-015")
    ]
    messages = searched_first_in(own, "do you have anything on sale?", tmp_path)
    reply = OfflineModel(store=lambda: Store.of_products(own)).converse(make_request(messages))
    # Then those are the answer
    text = answer_text(reply)
    assert text.startswith("Our products on sale:") and sorted(cited(text)) == sorted(SALE)
    # all of them: none more is said to be
    assert "more" not in text


SALE = ("CMP-023", "MOB-011")


def test_a_sale_with_more_on_it_than_the_answer_lists_says_how_many_more(
    tmp_path: Path,
) -> None:
    # Given a store with 8 computers on sale, of which the catalog tool returns 4
    computers = [p["productId"] for p in CATALOG if p["category"] == "COMPUTERS"][:8]
    own = [
        {**p, "compareAtPrice": p["price"] + 100} if p["productId"] in computers else p
        for p in CATALOG
    ]
    messages = searched_first_in(own, "any deals?", tmp_path)
    reply = OfflineModel(store=lambda: Store.of_products(own)).converse(make_request(messages))
    # Then the shopper sees 3 of them, and that 5 more are on sale
    text = answer_text(reply)
    assert len(cited(text)) == 3 and set(cited(text)) <= set(computers)
    assert text.endswith("\n5 more are on sale; ask to see them.")

    # Given the tool's count as a lower bound ("9+": at least 9 match)
    messages[-1]["content"][0]["toolResult"]["content"][0]["json"]["count"] = "9+"
    reply = OfflineModel(store=lambda: Store.of_products(own)).converse(make_request(messages))
    # Then the shopper reads that at least 6 more are
    assert answer_text(reply).endswith("\nAt least 6 more are on sale; ask to see them.")

    # Given one more on sale than the answer lists
    messages[-1]["content"][0]["toolResult"]["content"][0]["json"]["count"] = 4
    reply = OfflineModel(store=lambda: Store.of_products(own)).converse(make_request(messages))
    # Then it is said as one
    assert answer_text(reply).endswith("\n1 more is on sale; ask to see it.")


def test_an_accessory_for_a_brands_own_line_is_the_whole_answer_said_once(
    tmp_path: Path,
) -> None:
    # Given a store whose phone is named by its brand and a number
    own = [{**BY_ID["MOB-012"], "productId": "P1", "name": "Fairphone 5", "brand": "Fairphone"}]
    messages = searched_first_in(own, "a case for my Fairphone 5", tmp_path)

    reply = OfflineModel(store=lambda: Store.of_products(own)).converse(make_request(messages))

    # Then the answer says so once, and offers what the store sells once
    text = answer_text(reply)
    assert text.startswith("Sorry, we don't carry cases.")
    assert text.count("I can help") == 1 and not cited(text)


@pytest.mark.parametrize(
    ("question", "kind", "instead"),
    [
        ("Do you sell tablets?", "tablets", "2-in-1 laptops"),
        ("a PS5 under $900", "game consoles", "gaming laptops"),
    ],
)
def test_a_kind_the_search_says_is_not_carried_is_answered_from_its_nearest_kind(
    index: SearchIndex, question: str, kind: str, instead: str
) -> None:
    # Given the search of a kind the store does not sell, which shows the nearest kind
    messages = searched_first(index, question)

    reply = OfflineModel().converse(make_request(messages))

    # Then the model says so and offers what the search showed, with no lookup of its own
    assert reply["stopReason"] == "end_turn"
    text = answer_text(reply)
    assert text.startswith(f"Sorry, we don't carry {kind}.\nThe closest we have are {instead}:")
    assert text.count("don't carry") == 1
    assert cited(text) and set(cited(text)) <= set(given_ids(messages))


def test_a_product_confirmed_for_one_name_is_not_offered_as_the_closest_to_another(
    index: SearchIndex,
) -> None:
    # Given the search of one model the store has and one it lacks, of the same line
    messages = searched_first(index, "compare the iPhone 15 and the iPhone 14")

    reply = OfflineModel().converse(make_request(messages))

    # Then the one it has is confirmed, and the closest to the other are others
    text = answer_text(reply)
    assert text.startswith("We carry the Apple iPhone 15 [MOB-005]")
    assert "Sorry, we don't carry the Apple iPhone 14." in text
    assert cited(text).count("MOB-005") == 1 and len(cited(text)) == 3


def test_a_product_the_model_read_as_a_reviews_subject_is_not_looked_up_again(
    index: SearchIndex,
) -> None:
    # Given the search of a message whose review clause names a product the search names too
    question = "Show me Dell laptops, reviews of the XPS 13, and tell me about the book Dune."
    messages = searched_first(index, question)

    reply = OfflineModel().converse(make_request(messages))

    # Then the model asks for the reviews and the book, and no lookup of the product
    asked = [(u["name"], u["input"]) for u in tool_uses(reply)]
    assert [name for name, _ in asked].count("lookup_inventory") <= 1
    assert {"keywords": "XPS 13"} not in [i for _, i in asked]


def test_products_named_as_only_the_search_reads_them_are_compared_in_one_call(
    tmp_path: Path,
) -> None:
    # Given a store of its own whose line is a kind's word ("Framework Laptop 13"), which
    # the model's own reading of names does not take for a model
    def laptop(pid: str, name: str, brand: str, price: float, ram: int | None) -> dict[str, Any]:
        return {
            "productId": pid, "name": name, "brand": brand, "category": "COMPUTERS",
            "price": price, "stock": 5, "description": "A laptop.",
            "specs": {"formFactor": "laptop", **({"ramGb": ram} if ram else {})},
        }  # fmt: skip

    own = [
        laptop("100200", "Framework Laptop 13", "Framework", 1049.0, 16),
        laptop("100201", "Framework Laptop 16", "Framework", 1799.0, 32),
        laptop("100202", "Lenovo ThinkPad X1 Carbon Gen 12", "Lenovo", 1899.0, None),
    ]
    messages = searched_first_in(
        own, "compare the Framework Laptop 13 and the ThinkPad X1 Carbon", tmp_path
    )
    model = OfflineModel(store=lambda: Store.of_products(own))

    # When the model gets the first request
    reply = model.converse(make_request(messages))

    # Then it compares the two the search named, at once
    assert reply["stopReason"] == "end_turn"
    text = answer_text(reply)
    assert text.startswith("Here is how they compare:")
    assert cited(text) == ["100200", "100202"]
    # and a product with no specs listed is said with its price and stock alone
    assert "- Lenovo ThinkPad X1 Carbon Gen 12 [100202]: $1,899, in stock (5 available)." in text


def test_a_kind_not_carried_in_a_store_without_its_nearer_kind_is_said_in_one_call(
    tmp_path: Path,
) -> None:
    # Given a store of phones and books, which has no 2-in-1 laptops to offer for tablets
    own = [p for p in CATALOG if p["category"] in ("MOBILE", "BOOKS")]
    messages = searched_first_in(own, "Do you sell tablets?", tmp_path)

    # When the model gets the first request
    reply = OfflineModel(store=lambda: Store.of_products(own)).converse(make_request(messages))

    # Then it says tablets are not carried, at once, and offers nothing in their place
    assert reply["stopReason"] == "end_turn"
    text = answer_text(reply)
    assert text.startswith("Sorry, we don't carry tablets.")
    assert "couldn't find" not in text and not cited(text)


@pytest.mark.parametrize(
    ("question", "says"),
    [
        ("Do you sell iPhones?", "Sorry, we don't carry iPhones.\nOur phones:"),
        ("an iPhone 15", "Sorry, we don't carry iPhone.\nOur phones:"),
    ],
)
def test_a_line_the_store_lacks_is_said_as_written_and_its_system_not_claimed(
    tmp_path: Path, question: str, says: str
) -> None:
    # Given a store without Apple, whose phones list no operating system
    own = [
        {**BY_ID["MOB-012"], "productId": "P1", "specs": {}},
        {**BY_ID["MOB-011"], "productId": "P2", "specs": {}},
    ]
    messages = searched_first_in(own, question, tmp_path)

    reply = OfflineModel(store=lambda: Store.of_products(own)).converse(make_request(messages))

    # Then the line is not carried, as the shopper wrote it, and its phones are not called
    # iOS phones: the system was searched as words, which the search dropped
    text = answer_text(reply)
    assert text.startswith(says), text
    assert "iOS" not in text and set(cited(text)) == {"P1", "P2"}


# ----------------------------------------------------------------- its own search instead


@pytest.mark.parametrize(
    ("question", "heading", "spec", "lightest"),
    [
        ("Which phone has the biggest battery?", "Our phones (longest battery first)",
         "batteryMah", False),
        ("What is the lightest laptop?", "Our laptops (lightest first)", "weightKg", True),
        # French, read by the search as the English order
        ("Quel est le téléphone le plus léger ?", "Our phones (lightest first)", "weightG",
         True),
    ],
)  # fmt: skip
def test_an_order_the_search_kept_is_answered_in_one_call(
    index: SearchIndex, question: str, heading: str, spec: str, lightest: bool
) -> None:
    # Given the search of a question that asks for an order, which sorted by it
    messages = searched_first(index, question)

    # When the model gets the first request
    reply = OfflineModel().converse(make_request(messages))

    # Then it answers at once, leading with the product first in that order in stock
    assert reply["stopReason"] == "end_turn"
    text = answer_text(reply)
    assert text.startswith(heading + ":\n1. ")
    category = BY_ID[cited(text)[0]]["category"]
    kinds = [p for p in CATALOG if p["category"] == category and p["stock"] > 0]
    values = [p["specs"][spec] for p in kinds if spec in p["specs"]]
    best = min(values) if lightest else max(values)
    assert BY_ID[cited(text)[0]]["specs"][spec] == best


def test_an_order_a_use_leans_to_the_search_ranked_toward_is_answered_in_one_call(
    index: SearchIndex,
) -> None:
    # Given the search of a gaming laptop under $2000, whose order comes from the use
    # ("for gaming": most RAM), which ranked toward that order without sorting by it
    messages = searched_first(index, "A gaming laptop under $2000")

    # When the model gets the first request
    reply = OfflineModel().converse(make_request(messages))

    # Then it answers at once with gaming laptops the search found, claiming no order
    assert reply["stopReason"] == "end_turn"
    text = answer_text(reply)
    assert text.startswith("Our laptops for gaming under $2,000:\n1. ")
    ids = cited(text)
    assert ids and set(ids) <= set(given_ids(messages))
    for pid in ids:
        assert BY_ID[pid]["specs"]["formFactor"] in ("laptop", "2-in-1")
        assert BY_ID[pid]["price"] <= 2000 and "RTX" in BY_ID[pid]["specs"]["gpu"]


def _laptops_in_stock() -> list[dict[str, Any]]:
    return [
        p
        for p in CATALOG
        if p["category"] == "COMPUTERS"
        and p["stock"] > 0
        and p["specs"].get("formFactor") in ("laptop", "2-in-1")
    ]


@pytest.mark.parametrize(
    ("question", "spec", "first"),
    [
        # a use is all that was asked of a kind: every laptop, lightest leaning first
        # (the lightest laptop's description says neither "light" nor "travel")
        ("a laptop for travel", "weightKg", min),
        # "on one charge" is said by the order; no laptop has to say "charge"
        ("Which laptop lasts the longest on one charge?", "batteryHours", max),
    ],
)
def test_an_order_the_search_read_over_every_match_is_answered_in_one_call(
    index: SearchIndex, question: str, spec: str, first: Any
) -> None:
    # Given the search of words that ask for an order, read by the search for every model
    messages = searched_first(index, question)

    # When the model gets the first request
    reply = OfflineModel().converse(make_request(messages))

    # Then it answers at once from the search, with the laptop first in that order of
    # all the laptops in stock, not of those whose text says the shopper's words
    assert reply["stopReason"] == "end_turn"
    ids = cited(answer_text(reply))
    assert ids and set(ids) <= set(given_ids(messages))
    best = first(p["specs"][spec] for p in _laptops_in_stock() if p["specs"].get(spec))
    assert best in [BY_ID[pid]["specs"][spec] for pid in ids]


def test_a_spec_limit_in_the_shoppers_words_is_answered_in_one_call(index: SearchIndex) -> None:
    # Given the search of "weighs under 1.3 kg": "weighs" says the limit, and once
    # narrowed the search to the one laptop whose description says it
    messages = searched_first(index, "I need a laptop that weighs under 1.3 kg")

    reply = OfflineModel().converse(make_request(messages))

    # Then the model answers from the search, with every light laptop it could show
    assert reply["stopReason"] == "end_turn"
    ids = cited(answer_text(reply))
    light = [p for p in _laptops_in_stock() if p["specs"]["weightKg"] <= 1.3]
    assert len(ids) == min(3, len(light)) >= 2
    assert all(BY_ID[pid]["specs"]["weightKg"] <= 1.3 for pid in ids)


def test_a_line_the_search_showed_whole_is_answered_in_one_call(index: SearchIndex) -> None:
    # Given the search of "Which MacBook is best for travel?", which required the line
    # (every product found is a MacBook) and showed every MacBook it counted
    messages = searched_first(index, "Which MacBook is best for travel?")
    found = messages[-1]["content"][0]["toolResult"]["content"][0]["json"]
    assert found["understood"]["line"] == ["macbook"]
    macbooks = [p["productId"] for p in CATALOG if "MacBook" in p["name"]]
    assert sorted(given_ids(messages)) == sorted(macbooks)

    # When the model gets the first request
    reply = OfflineModel().converse(make_request(messages))

    # Then it answers at once, the lightest MacBook first: "travel" only ranked them
    assert reply["stopReason"] == "end_turn"
    ids = cited(answer_text(reply))
    assert set(ids) <= set(macbooks)
    weights = [BY_ID[pid]["specs"]["weightKg"] for pid in macbooks]
    assert BY_ID[ids[0]]["specs"]["weightKg"] == min(weights)


def test_a_good_camera_the_search_ranked_toward_is_answered_in_one_call(
    index: SearchIndex,
) -> None:
    # Given the search of "a good camera", which ranked phones toward their cameras
    messages = searched_first(index, "Which phone has a good camera?")
    searched = messages[-1]["content"][0]["toolResult"]["content"][0]["json"]
    assert searched["understood"]["favours"] == "camera"

    # When the model gets the first request
    reply = OfflineModel().converse(make_request(messages))

    # Then it takes the search's reading and answers at once (it searches the same words):
    # a wish for a good camera, not an order, led by a phone of the best camera in stock
    assert reply["stopReason"] == "end_turn"
    text = answer_text(reply)
    assert text.startswith("Our phones for photos:\n1. ")
    phones = [p for p in CATALOG if p["category"] == "MOBILE" and p["stock"] > 0]
    best = max(p["specs"]["cameraMp"] for p in phones)
    assert BY_ID[cited(text)[0]]["specs"]["cameraMp"] == best
    assert set(cited(text)) <= set(given_ids(messages))


def test_a_brand_carried_from_an_earlier_turn_gets_the_models_own_search(
    index: SearchIndex,
) -> None:
    # Given an answer about Dell laptops, and the search of the follow-up's words alone
    model = OfflineModel()
    turn_one = searched_first(index, "Do you have Dell laptops?")
    shown = answer_text(model.converse(make_request(turn_one)))
    earlier = [
        user("Do you have Dell laptops?"),
        {"role": "assistant", "content": [{"text": shown}]},
    ]
    messages = searched_first(index, "Any under $1000?", earlier)
    assert not any(BY_ID[pid]["brand"] == "Dell" for pid in given_ids(messages))

    # When the model gets the follow-up's first request
    first = model.converse(make_request(messages))

    # Then it searches itself, the follow-up's words with the earlier message's after them:
    # Dell laptops under $1000
    (own,) = tool_uses(first)
    assert own["input"] == {"keywords": "Any under $1000? Do you have Dell laptops?"}
    read = searched_as(own["input"])
    assert (read["category"], read["maxPrice"], read["searched"]) == ("COMPUTERS", 1000, ["dell"])
    # And answers with those, none of what the search of the words alone found
    final = model.converse(make_request(answered(messages, first, lookup(index, own["input"]))))
    ids = cited(answer_text(final))
    assert ids and all(BY_ID[pid]["brand"] == "Dell" and BY_ID[pid]["price"] <= 1000 for pid in ids)


def test_a_follow_up_the_loop_narrowed_is_answered_from_its_search_in_one_call(
    index: SearchIndex,
) -> None:
    # Given an answer about laptops for university, and the follow-up "Only Windows ones
    # under $700", which the loop searched as the search before narrowed
    model = OfflineModel()
    asked = "I need a laptop for university."
    _, earlier = answered_first(model, index, asked)
    narrowed = {"keywords": f"{asked} windows", "maxPrice": 700}
    messages = searched_first(index, "Only Windows ones under $700", earlier, searched=narrowed)

    # When the model gets the follow-up's first request
    reply = model.converse(make_request(messages))

    # Then it takes the loop's reading and answers at once, with Windows laptops under $700
    assert reply["stopReason"] == "end_turn"
    text = answer_text(reply)
    assert text.startswith("Our Windows ")
    ids = cited(text)
    assert ids and set(ids) <= set(given_ids(messages))
    assert all(BY_ID[pid]["price"] <= 700 for pid in ids)
    assert all("Windows" in BY_ID[pid]["specs"]["os"] for pid in ids)


@pytest.mark.parametrize("question", ["Tell me about the S24", "what about the S24?"])
def test_a_model_asked_about_by_its_number_is_no_book(index: SearchIndex, question: str) -> None:
    # Given the search of "tell me about the S24", which found the Galaxy S24
    messages = searched_first(index, question)

    # When the model answers
    reply = OfflineModel().converse(make_request(messages))

    # Then it is the phone, in one call: no book called "the S24" asked of the book service
    text = answer_text(reply)
    assert reply["stopReason"] == "end_turn" and "book" not in text
    assert cited(text)[:1] == ["MOB-007"]


def test_a_model_named_by_a_token_the_search_splits_is_answered_not_asked_about(
    index: SearchIndex,
) -> None:
    # Given the search of "do you have the 8a?", which found the Pixel 8a by "8 a"
    messages = searched_first(index, "do you have the 8a?")

    # When the model answers
    text = answer_text(OfflineModel().converse(make_request(messages)))

    # Then it shows the Pixel 8a: "I'm not sure what you're looking for" asked again
    assert cited(text)[:1] == ["MOB-018"]


@pytest.mark.parametrize(
    ("question", "cheaper"),
    [
        ("is the pixel 8a cheaper than the iphone se?", "MOB-006"),
        ("Is the Galaxy S24 cheaper than the iPhone 15?", "MOB-005"),
    ],
)
def test_is_one_cheaper_than_the_other_is_answered_with_which(
    index: SearchIndex, question: str, cheaper: str
) -> None:
    # Given the search of two models asked "is one cheaper than the other?"
    model = OfflineModel()
    messages = searched_first(index, question)
    reply = model.converse(make_request(messages))
    if reply["stopReason"] == "tool_use":
        messages = answered(messages, reply, *(lookup(index, u["input"]) for u in tool_uses(reply)))
        reply = model.converse(make_request(messages))

    # Then the answer says which is cheaper: two "We carry ..." lines said nothing of it
    text = answer_text(reply)
    assert text.startswith("Cheaper: ") and cited(text)[0] == cheaper


def test_a_line_against_a_kind_shows_each_side_not_only_the_lines_brand(
    index: SearchIndex,
) -> None:
    # Given the search of "Surface Laptop Go or Chromebook?", which found the Surface and
    # the Chromebooks
    messages = searched_first(index, "Surface Laptop Go or Chromebook?")

    # When the model answers
    text = answer_text(OfflineModel().converse(make_request(messages)))

    # Then both sides are in it: a Chromebook is no Microsoft laptop left out
    brands = {BY_ID[pid]["brand"] for pid in cited(text)}
    oses = {BY_ID[pid]["specs"]["os"] for pid in cited(text)}
    assert "Microsoft" in brands and "ChromeOS" in oses


def test_a_follow_up_the_loop_narrowed_is_held_to_its_search_not_to_older_messages(
    index: SearchIndex,
) -> None:
    # Given iPhones asked for, then laptops under $900, and "Which is the lightest?", which
    # the loop searched as the laptops under $900, lightest first
    model = OfflineModel()
    earlier: Messages = []
    for asked in (
        "Phones under $500",
        "What about an iPhone instead?",
        "I need a laptop under $900",
    ):
        _, turn = answered_first(model, index, asked)
        earlier += turn
    narrowed = {"keywords": "I need a laptop under $900", "sortBy": "weight"}
    messages = searched_first(index, "Which is the lightest?", earlier, searched=narrowed)

    # When the model gets the first request
    reply = model.converse(make_request(messages))

    # Then it answers with those laptops, lightest first, held to no Apple brand from the
    # iPhone asked two messages before ("I couldn't find any Apple laptops")
    text = answer_text(reply)
    assert reply["stopReason"] == "end_turn" and "Apple" not in text
    ids = cited(text)
    assert ids and ids == given_ids(messages)[: len(ids)]
    weights = [BY_ID[pid]["specs"]["weightKg"] for pid in ids]
    assert weights == sorted(weights) and all(BY_ID[pid]["price"] <= 900 for pid in ids)


def test_a_new_kind_the_loop_searched_under_the_limits_before_is_answered_in_one_call(
    index: SearchIndex,
) -> None:
    # Given a turn whose words say no budget, and "What about a MacBook instead?", which the
    # loop searched under the budget of the session's last search ($1,500)
    model = OfflineModel()
    asked = "Which of those is the lightest?"
    earlier = [user(asked), {"role": "assistant", "content": [{"text": "Of those, ..."}]}]
    question = "What about a MacBook instead?"
    carried = {"keywords": question, "maxPrice": 1500}
    messages = searched_first(index, question, earlier, searched=carried)

    # When the model gets the first request
    reply = model.converse(make_request(messages))

    # Then it takes the loop's reading and answers at once, with MacBooks under $1,500
    assert reply["stopReason"] == "end_turn"
    ids = cited(answer_text(reply))
    assert ids and set(ids) <= set(given_ids(messages))
    assert all("MacBook" in BY_ID[pid]["name"] and BY_ID[pid]["price"] <= 1500 for pid in ids)


def test_products_shown_the_loop_ordered_are_no_search_the_model_makes_of_the_words(
    index: SearchIndex,
) -> None:
    # Given Dell laptops shown, and "What is your most expensive laptop?", which the loop
    # fetched as the laptops shown, dearest first
    model = OfflineModel()
    asked = "Show me Dell laptops"
    shown, earlier = answered_first(model, index, asked)
    ordered = {"productIds": cited(shown), "sortBy": "price_desc"}
    question = "What is your most expensive laptop?"
    messages = searched_first(index, question, earlier, searched=ordered)

    # When the model gets the follow-up's first request
    reply = model.converse(make_request(messages))

    # Then it searches the catalog itself, as it reads the words: it points at none shown
    (own,) = tool_uses(reply)
    assert "productIds" not in own["input"]
    assert own["input"]["keywords"].startswith(question)


def test_cheaper_ones_the_loop_searched_under_the_cheapest_shown_are_answered_in_one_call(
    index: SearchIndex,
) -> None:
    # Given Windows laptops with 16 GB shown, and "Any cheaper ones?", which the loop
    # searched as that search under the cheapest of them
    model = OfflineModel()
    asked = "Windows laptops with 16GB RAM"
    shown, earlier = answered_first(model, index, asked)
    cheapest = min(BY_ID[pid]["price"] for pid in cited(shown))
    below = {"keywords": asked, "maxPrice": round(cheapest - 0.01, 2)}
    messages = searched_first(index, "Any cheaper ones?", earlier, searched=below)

    # When the model gets the follow-up's first request
    reply = model.converse(make_request(messages))

    # Then it answers at once with cheaper ones, each still a Windows laptop with 16 GB
    assert reply["stopReason"] == "end_turn"
    text = answer_text(reply)
    assert f"cheaper than ${cheapest:,.0f}" in text
    ids = cited(text)
    assert ids and set(ids) <= set(given_ids(messages))
    assert all(BY_ID[pid]["price"] < cheapest for pid in ids)
    assert all(BY_ID[pid]["specs"]["ramGb"] >= 16 for pid in ids)


def test_cheaper_ones_than_those_shown_are_searched_whatever_the_loop_handed_over(
    index: SearchIndex,
) -> None:
    # Given laptops shown, and "Anything cheaper?" handed over as those laptops, cheapest
    # first (what the loop searched for it before it read "anything" as asking for others)
    model = OfflineModel()
    asked = "Show me Dell laptops"
    shown, earlier = answered_first(model, index, asked)
    ids = cited(shown)
    ordered = {"productIds": ids, "sortBy": "price"}
    messages = searched_first(index, "Anything cheaper?", earlier, searched=ordered)

    # When the model gets the follow-up's first request
    reply = model.converse(make_request(messages))

    # Then it searches itself for ones cheaper than the cheapest shown
    (own,) = tool_uses(reply)
    cheapest = min(BY_ID[pid]["price"] for pid in ids)
    assert own["input"]["maxPrice"] < cheapest


def _both_ways(
    index: SearchIndex, asked: str, follow_up: str, searched: dict[str, Any] | None = None
) -> list[str]:
    """The answers to ``follow_up`` after ``asked``: with the model first, and with the
    loop's search first (``searched``: what the loop searched for it, else its words)."""
    model = OfflineModel()
    _, earlier = answered_first(model, index, asked)
    answers = []
    for messages in (
        [*earlier, user(follow_up)],
        searched_first(index, follow_up, earlier, searched=searched),
    ):
        reply = model.converse(make_request(messages))
        while reply["stopReason"] == "tool_use":
            results = (lookup(index, u["input"]) for u in tool_uses(reply))
            messages = answered(messages, reply, *results)
            reply = model.converse(make_request(messages))
        answers.append(answer_text(reply))
    return answers


@pytest.mark.parametrize(
    ("asked", "follow_up", "heading", "brand", "budget"),
    [
        ("Show me gaming laptops", "And Asus?", "Our ASUS laptops for gaming:", "ASUS", 9999),
        (
            "I need a laptop for college",
            "What about Dell instead?",
            "Our Dell laptops for a student:",
            "Dell",
            9999,
        ),
        (
            "a light laptop for travel under $1000",
            "how about Lenovo",
            "Our Lenovo laptops for travel under $1,000:",
            "Lenovo",
            1000,
        ),
        ("Show me MacBooks", "and Dell?", "Our Dell laptops:", "Dell", 9999),
    ],
)
def test_another_maker_named_alone_keeps_the_use_form_and_budget_asked_before(
    index: SearchIndex, asked: str, follow_up: str, heading: str, brand: str, budget: float
) -> None:
    # Given laptops (for a use, within a budget) shown, then another maker named alone
    for text in _both_ways(index, asked, follow_up):
        # Then the shopper sees that maker's laptops for that use, within that budget
        # (before, "And Asus?" after gaming laptops showed "Our ASUS computers": a
        # Chromebook and two Vivobooks, none for gaming)
        assert text.startswith(heading), text
        ids = cited(text)
        assert ids and all(BY_ID[pid]["brand"] == brand for pid in ids)
        assert all(BY_ID[pid]["specs"]["formFactor"] == "laptop" for pid in ids)
        assert all(BY_ID[pid]["price"] <= budget for pid in ids)
        if "gaming" in heading:
            assert all("RTX" in BY_ID[pid]["specs"]["gpu"] for pid in ids)


def test_another_maker_named_alone_is_held_to_the_form_and_budget_asked_before(
    index: SearchIndex,
) -> None:
    # Given laptops under $800 shown, then "And Apple?"
    for text in _both_ways(index, "Laptops under $800", "And Apple?"):
        # Then the shopper is told Apple has no laptop under $800 and sees the nearest
        # MacBooks: before, the Mac mini, a desktop, was "Our Apple computers under $800"
        assert text.startswith("I couldn't find any Apple laptops under $800"), text
        ids = cited(text)
        assert ids and all(BY_ID[pid]["brand"] == "Apple" for pid in ids)
        assert all(BY_ID[pid]["specs"]["formFactor"] == "laptop" for pid in ids)


@pytest.mark.parametrize(
    ("asked", "follow_up", "heading", "brand", "price"),
    [
        (
            "a laptop that costs less than the XPS 13",
            "and Asus?",
            "Our ASUS laptops under $1,299:",
            "ASUS",
            1299,
        ),
        (
            "a phone cheaper than the Pixel 9",
            "and Samsung?",
            "Our Samsung phones under $799:",
            "Samsung",
            799,
        ),
    ],
)
def test_another_maker_named_alone_keeps_a_price_said_against_a_product_as_its_amount(
    index: SearchIndex, asked: str, follow_up: str, heading: str, brand: str, price: float
) -> None:
    # Given products cheaper than a product shown, then another maker named alone
    for text in _both_ways(index, asked, follow_up):
        # Then the shopper sees that maker's products under that product's price: before,
        # the product's words were searched ("I couldn't find any ASUS laptops in stock.
        # The nearest we have: Dell XPS 13 9340 ... by Dell, not ASUS")
        assert text.startswith(heading), text
        ids = cited(text)
        assert ids and all(BY_ID[pid]["brand"] == brand for pid in ids), text
        assert all(BY_ID[pid]["price"] < price for pid in ids), text


def test_another_maker_the_loop_added_to_the_search_before_is_said_in_the_heading(
    index: SearchIndex,
) -> None:
    # Given Samsung phones shown, then "What about Google?", which the loop searched as
    # the search before with the maker's name added
    asked = "Show me Samsung phones"
    searched = {"keywords": f"{asked} google"}
    for text in _both_ways(index, asked, "What about Google?", searched):
        # Then the shopper sees Google's phones under a heading that says so: before, with
        # the loop's search, "Our phones" (its words name two makers)
        assert text.startswith("Our Google phones:"), text
        ids = cited(text)
        assert ids and all(BY_ID[pid]["brand"] == "Google" for pid in ids)


def test_the_shoppers_words_as_the_model_would_search_them_are_its_own_search(
    index: SearchIndex,
) -> None:
    # Given a kind the model cannot tell, which it would pass to the search as written
    messages = searched_first(index, "cheap lapptopp for school")

    reply = OfflineModel().converse(make_request(messages))

    # Then the given search is that search: answered at once, read as the search read it
    assert reply["stopReason"] == "end_turn"
    text = answer_text(reply)
    assert text.startswith("I read “lapptopp” as “laptop”.\nOur laptops for a student (cheapest")
    assert set(cited(text)) <= set(given_ids(messages))


def test_a_product_named_with_a_slip_is_the_product_the_search_read(index: SearchIndex) -> None:
    # Given a product named with a slip, which the search read as "pixel"
    messages = searched_first(index, "is the pixle 9 pro any good")
    assert '"pixle": "pixel"' in json.dumps(messages[-1])

    # When the model answers, asking the catalog for anything more it needs
    reply = OfflineModel().converse(make_request(messages))
    for _ in range(2):
        if reply["stopReason"] != "tool_use":
            break
        results = [lookup(index, use["input"]) for use in tool_uses(reply)]
        messages = answered(messages, reply, *results)
        reply = OfflineModel().converse(make_request(messages))

    # Then it says how it read the slip and confirms that product, not a list of its line
    assert answer_text(reply).startswith(
        "I read “pixle” as “pixel”.\nWe carry the Google Pixel 9 Pro [MOB-016]: in stock"
    )


def test_how_the_search_read_the_shoppers_words_is_said(index: SearchIndex) -> None:
    # Given a search that read "chep" as "cheap" and found Chromebooks, cheapest first:
    # the model searches the shopper's words as they came, every one of them
    messages = searched_first(index, "Do you sell chep Chromebooks?")
    assert '"chep": "cheap"' in json.dumps(messages[-1])

    reply = OfflineModel().converse(make_request(messages))

    # Then the answer says how the words were read, so a misreading would be seen, and
    # lists the Chromebooks the search found
    text = answer_text(reply)
    assert text.startswith("I read “chep” as “cheap”.\nOur ChromeOS computers")
    assert set(cited(text)) <= set(given_ids(messages))


@pytest.mark.parametrize(
    ("question", "named", "nearest"),
    [
        # The search found the Blade 14, in stock, with the Blade 16
        ("Do you have the Razer Blade 16?", "the Razer Blade 16 (2024) [CMP-037]",
         "The nearest we have in stock:\n1. Razer Blade 14 (2024) [CMP-036]"),
        # The iMac alone: the catalog tool gave the nearest in stock with it
        ("is the iMac in stock?", "the Apple iMac 24 (M3) [CMP-014]",
         "The nearest we have in stock:\n1. Apple Mac mini (M2) [CMP-015]"),
    ],
)  # fmt: skip
def test_a_named_product_out_of_stock_gets_the_nearest_in_stock_in_one_call(
    index: SearchIndex, question: str, named: str, nearest: str
) -> None:
    # Given the search of a product the store has out of stock
    messages = searched_first(index, question)

    # When the model gets the first request
    reply = OfflineModel().converse(make_request(messages))

    # Then it answers at once: its card, out of stock, and the nearest in stock
    assert reply["stopReason"] == "end_turn"
    text = answer_text(reply)
    assert text.startswith(f"We carry {named}: out of stock right now")
    assert nearest in text
    result = messages[-1]["content"][0]["toolResult"]["content"][0]["json"]
    offered = [
        p["productId"] for p in shown_products(result.get("inStockInstead", {}).get("products"))
    ]
    assert set(cited(text)) <= {*given_ids(messages), *offered}


# ----------------------------------------------------------------- only what is missing


XPS_REVIEWS = {
    "query": "Dell XPS 13",
    "results": [
        {"title": "Dell XPS 13 review: still the one to beat", "url": "https://r.example/1"}
    ],
}


XPS_13 = {"keywords": "What do reviews say about the Dell XPS 13?"}
THE_HOBBIT = {"keywords": "Tell me about the book The Hobbit"}


def test_a_review_question_asks_for_the_reviews_and_the_product_found_by_name(
    index: SearchIndex,
) -> None:
    # Given the search of a review question, which found the Dell XPS 13
    messages = searched_first(index, "What do reviews say about the Dell XPS 13?")
    model = OfflineModel()
    ids = given_ids(messages)

    # When the model gets the first request, Then it asks for the reviews, and for the
    # search of the words again (the loop shrinks the search before the answer; searched
    # again, the tool gives a sold-out product named its nearest in stock)
    first = model.converse(make_request(messages))
    assert [(u["name"], u["input"]) for u in tool_uses(first)] == [
        ("get_computer_reviews", {"query": "Dell XPS 13"}),
        ("lookup_inventory", XPS_13),
    ]
    assert "CMP-007" in ids

    # And with them it answers about the laptop the search found, and the reviews
    fetched = lookup(index, XPS_13)
    final = model.converse(make_request(answered(messages, first, success(XPS_REVIEWS), fetched)))
    assert final["stopReason"] == "end_turn"
    text = answer_text(final)
    assert text.startswith("We carry the Dell XPS 13 9340 [CMP-007]: in stock")
    assert "What reviewers say about Dell XPS 13: “Dell XPS 13 review: still the one" in text


def _shrunk(messages: Messages, ids: list[str]) -> Messages:
    """``messages`` with the given search's result shrunk to a brief, as the loop does."""
    brief = {"earlierResult": "10 products", "productIds": ids}
    shrunk = list(messages)
    place = next(i for i, m in enumerate(shrunk) if given_result(m))
    shrunk[place] = {
        "role": "user",
        "content": [
            {
                "toolResult": {
                    "toolUseId": GIVEN_ID,
                    "status": "success",
                    "content": [{"json": brief}],
                }
            }
        ],
    }
    return shrunk


def given_result(message: dict[str, Any]) -> bool:
    return any(b.get("toolResult", {}).get("toolUseId") == GIVEN_ID for b in message["content"])


def test_a_search_shrunk_to_a_brief_is_answered_from_the_products_fetched_beside(
    index: SearchIndex,
) -> None:
    # Given a review question whose search served, the model's round of the reviews and
    # the search's products by id, and the loop that has shrunk the search to a brief
    messages = searched_first(index, "What do reviews say about the Dell XPS 13?")
    model = OfflineModel()
    ids = given_ids(messages)
    first = model.converse(make_request(messages))
    fetched = lookup(index, {"productIds": ids})
    messages = _shrunk(answered(messages, first, success(XPS_REVIEWS), fetched), ids)

    # When the model gets the results, Then it answers from them, with no round more
    final = model.converse(make_request(messages))
    assert final["stopReason"] == "end_turn"
    text = answer_text(final)
    assert text.startswith("We carry the Dell XPS 13 9340 [CMP-007]: in stock")
    assert "What reviewers say about Dell XPS 13" in text


def test_a_search_shrunk_to_a_brief_with_no_products_fetched_beside_is_fetched_again(
    index: SearchIndex,
) -> None:
    # Given a review question whose search served, a round of the reviews alone, and the
    # loop that has shrunk the search to a brief
    messages = searched_first(index, "What do reviews say about the Dell XPS 13?")
    model = OfflineModel()
    ids = given_ids(messages)
    reviews_only = {
        "output": {
            "message": {
                "role": "assistant",
                "content": [
                    {"text": "Let me check what reviewers say about Dell XPS 13."},
                    {
                        "toolUse": {
                            "toolUseId": "tooluse_off_2_0",
                            "name": "get_computer_reviews",
                            "input": {"query": "Dell XPS 13"},
                        }
                    },
                ],
            }
        }
    }
    messages = _shrunk(answered(messages, reviews_only, success(XPS_REVIEWS)), ids)

    # When the model gets the reviews, Then it asks for the laptop the search found again
    again = model.converse(make_request(messages))
    (fetch,) = tool_uses(again)
    assert fetch["input"] == XPS_13

    # And answers from them, with the reviews
    final = model.converse(make_request(answered(messages, again, lookup(index, fetch["input"]))))
    text = answer_text(final)
    assert text.startswith("We carry the Dell XPS 13 9340 [CMP-007]: in stock")
    assert "What reviewers say about Dell XPS 13" in text


def test_a_book_question_asks_for_the_books_facts_and_the_book_by_title(index: SearchIndex) -> None:
    # Given the search of a question about a book, which found it
    messages = searched_first(index, "Tell me about the book The Hobbit")
    model = OfflineModel()

    # When the model gets the first request, Then it asks for the book's facts, and for
    # the search that found the book again
    first = model.converse(make_request(messages))
    assert [(u["name"], u["input"]) for u in tool_uses(first)] == [
        ("get_book_info", {"query": "The Hobbit"}),
        ("lookup_inventory", THE_HOBBIT),
    ]

    # And answers with the book in stock and its facts
    facts = {
        "query": "The Hobbit",
        "results": [{"title": "The Hobbit", "authors": ["J.R.R. Tolkien"], "year": 1937}],
    }
    fetched = lookup(index, THE_HOBBIT)
    final = model.converse(make_request(answered(messages, first, success(facts), fetched)))
    text = answer_text(final)
    assert text.startswith("We carry The Hobbit [BK-020]: in stock")
    assert "“The Hobbit” by J.R.R. Tolkien (1937)" in text


@pytest.mark.parametrize(
    ("question", "author", "ids"),
    [
        ("Is 1984 by George Orwell a good book?", "George Orwell", {"BK-011", "BK-010"}),
        ("Who is the author J.R.R. Tolkien?", "J.R.R. Tolkien", {"BK-020", "BK-021"}),
    ],
)
def test_a_question_about_an_author_gets_the_facts_and_the_authors_books(
    index: SearchIndex, question: str, author: str, ids: set[str]
) -> None:
    # Given the search of a question about an author or their book
    messages = searched_first(index, question)
    model = OfflineModel()

    # When the model gets the first request, Then it asks for the author's facts and the
    # catalog, in one round
    first = model.converse(make_request(messages))
    uses = tool_uses(first)
    assert sorted(u["name"] for u in uses) == ["get_book_info", "lookup_inventory"]
    results = [
        success({"query": u["input"]["query"], "results": [{"title": "", "authors": [author]}]})
        if u["name"] == "get_book_info"
        else lookup(index, u["input"])
        for u in uses
    ]

    # And answers with the author's books the store has, and nothing else
    final = model.converse(make_request(answered(messages, first, *results)))
    assert final["stopReason"] == "end_turn"
    assert set(cited(answer_text(final))) == ids


@pytest.mark.parametrize(
    "question", ["Do you have books by Tolkien?", "Something by Tolkien.", "Tolkien books"]
)
def test_what_the_store_has_by_an_author_is_answered_in_one_call(
    index: SearchIndex, question: str
) -> None:
    # Given the search of a question that asks only what the store has by an author
    messages = searched_first(index, question)

    # When the model gets the first request
    reply = OfflineModel().converse(make_request(messages))

    # Then it lists the author's books the search found at once, asking no book facts
    assert reply["stopReason"] == "end_turn"
    text = answer_text(reply)
    assert text.startswith("Our books:\n1. The Hobbit [BK-020]: by J.R.R. Tolkien")
    assert set(cited(text)) == {"BK-020", "BK-021"}


# ----------------------------------------------------------------- no search needed


@pytest.mark.parametrize(
    ("question", "reply"),
    [
        ("hello", GREETING),
        ("thanks!", "You're welcome!"),
    ],
)
def test_a_greeting_is_greeted_whatever_the_search_found(
    index: SearchIndex, question: str, reply: str
) -> None:
    messages = searched_first(index, question)

    response = OfflineModel().converse(make_request(messages))

    assert response["stopReason"] == "end_turn"
    assert answer_text(response).startswith(reply)


def test_a_store_question_asks_the_stores_policies_whatever_the_search_found(
    index: SearchIndex,
) -> None:
    messages = searched_first(index, "Can I return a laptop after 30 days?")

    response = OfflineModel().converse(
        make_request(messages, tools=(*TOOL_NAMES, "get_store_policies"))
    )

    assert [u["name"] for u in tool_uses(response)] == ["get_store_policies"]


def test_a_sold_out_book_with_its_facts_asked_gets_the_nearest_by_the_same_author(
    index: SearchIndex,
) -> None:
    # Given the search of a sold-out book, which found it and its nearest in stock
    messages = searched_first(index, "Harry Potter and the Deathly Hallows in stock?")
    model = OfflineModel()

    # When the model asks for the book's facts and the search that found it again
    first = model.converse(make_request(messages))
    (facts, again) = tool_uses(first)
    assert facts["name"] == "get_book_info"
    assert again["input"] == {"keywords": "Harry Potter and the Deathly Hallows in stock?"}
    final = model.converse(
        make_request(answered(messages, first, failure("down"), lookup(index, again["input"])))
    )

    # Then the answer says it is sold out and offers the nearest in stock by its author
    text = answer_text(final)
    assert text.startswith("We carry Harry Potter and the Deathly Hallows [BK-005]: out of stock")
    assert "The nearest we have in stock, by the same author:\n1. " in text
    offered = cited(text)[1:]
    assert offered and all(BY_ID[pid]["specs"]["author"] == "J.K. Rowling" for pid in offered)


def test_models_of_one_line_listed_after_its_name_are_each_confirmed_in_one_call(
    index: SearchIndex,
) -> None:
    # Given the search of three models of one line, the line said once
    messages = searched_first(index, "Galaxy S24, S24+ or S24 Ultra?")

    # When the model gets the first request
    reply = OfflineModel().converse(make_request(messages))

    # Then each is confirmed from the search, in the order named, with no call of its own
    assert reply["stopReason"] == "end_turn"
    assert cited(answer_text(reply)) == ["MOB-007", "MOB-008", "MOB-009"]


def test_a_review_question_about_a_kind_not_carried_asks_for_no_products_by_id(
    index: SearchIndex,
) -> None:
    # Given the search of "What do reviewers say about smartwatches?", which found nothing
    # the store carries, nor a kind to show in their place
    messages = searched_first(index, "What do reviewers say about smartwatches?")
    model = OfflineModel()
    assert given_ids(messages) == []

    # When the model gets the first request, Then it asks for the reviews alone: there is
    # nothing to fetch again ({"productIds": []} is no request the catalog takes)
    first = model.converse(make_request(messages))
    asked = [(u["name"], u["input"]) for u in tool_uses(first)]
    assert [name for name, _ in asked] == ["get_computer_reviews"]

    # And with them it says the store does not carry tablets, and no tool failed
    final = model.converse(make_request(answered(messages, first, success({"results": []}))))
    text = answer_text(final)
    assert text.startswith("Sorry, we don't carry smartwatches.")
    assert "could not" not in text and "did not work" not in text


def test_a_review_question_about_a_kind_not_sold_shows_the_kind_in_its_place(
    index: SearchIndex,
) -> None:
    # Given the search of "What do reviewers say about tablets?", which showed the 2-in-1
    # laptops in their place
    messages = searched_first(index, "What do reviewers say about tablets?")
    model = OfflineModel()
    assert given_ids(messages) == ["CMP-022", "CMP-031"]

    # When the reviews come back (with the 2-in-1s fetched again beside them)
    first = model.converse(make_request(messages))
    asked = [(u["name"], u["input"]) for u in tool_uses(first)]
    assert asked[0][0] == "get_computer_reviews"
    results = [success({"results": []}), *(lookup(index, i) for _, i in asked[1:])]
    final = model.converse(make_request(answered(messages, first, *results)))

    # Then the answer says tablets are not carried and offers the 2-in-1 laptops
    text = answer_text(final)
    assert text.startswith("Sorry, we don't carry tablets.\nThe closest we have are 2-in-1")
    assert "[CMP-022]" in text


@pytest.mark.parametrize(
    ("question", "ids"),
    [
        ("tell me about CMP-008", ["CMP-008"]),
        ("Tell me more about cmp-008 and CMP-001", ["CMP-008", "CMP-001"]),
        ("what about 7700352?", ["7700352"]),
        ("is PHONESE any good?", ["PHONESE"]),
    ],
)
def test_a_product_named_by_its_id_is_confirmed_with_no_amount_or_title_read_in_it(
    question: str, ids: list[str], tmp_path: Path
) -> None:
    # Given a store whose ids are all digits or have none, and the search of a message
    # naming products by their ids, which found them by id
    own = [
        *CATALOG,
        {**BY_ID["MOB-007"], "productId": "7700352", "name": "Samsung Galaxy A35 5G"},
        {**BY_ID["MOB-001"], "productId": "PHONESE", "name": "Apple iPhone SE"},
    ]
    messages = searched_first_in(own, question, tmp_path)

    # When the model gets the first request
    reply = OfflineModel(store=lambda: Store.of_products(own)).converse(make_request(messages))

    # Then it confirms each at once: no id read as a price ("about 7700352" is no budget
    # of $8.9 million), a book's title to look up or a book's facts to ask for
    assert reply["stopReason"] == "end_turn"
    text = answer_text(reply)
    assert [line.split("[")[1].split("]")[0] for line in text.splitlines()] == ids
    assert all(line.startswith("We carry the ") for line in text.splitlines())
    assert not re.search(r"\bbooks?\b|under \$", text)


def _briefed(messages: Messages) -> Messages:
    """``messages`` with the last round's results shrunk to the brief the loop keeps of an
    earlier round: a summary and the ids shown."""
    last = messages[-1]
    briefs = []
    for block in last["content"]:
        result = block["toolResult"]
        shown = shown_products(result["content"][0]["json"].get("products") or [])
        brief = {"earlierResult": "searched", "productIds": [p["productId"] for p in shown]}
        briefs.append({"toolResult": {**result, "content": [{"json": brief}]}})
    return [*messages[:-1], {"role": "user", "content": briefs}]


def test_reviews_of_a_product_named_by_its_id_read_no_amount_on_any_call(tmp_path: Path) -> None:
    # Given a store whose ids are all digits, and the search of "what do reviews say about
    # 7700352?", which found the phone by its id
    own = [*CATALOG, {**BY_ID["MOB-007"], "productId": "7700352", "name": "Samsung Galaxy A35 5G"}]
    build_index(own, tmp_path / "own.sqlite")
    index = SearchIndex.open(tmp_path / "own.sqlite")
    model = OfflineModel(store=lambda: Store.of_products(own))
    messages = searched_first(index, "what do reviews say about 7700352?", catalog=own)

    # When the model asks its tools (reviews fail: no key) until it answers
    reply = model.converse(make_request(messages))
    for _ in range(3):
        if reply["stopReason"] != "tool_use":
            break
        results = [
            lookup(index, u["input"], own)
            if u["name"] == "lookup_inventory"
            else failure("no key", "not_configured")
            for u in tool_uses(reply)
        ]
        messages = answered(_briefed(messages), reply, *results)
        reply = model.converse(make_request(messages))
    index.close()

    # Then the reviews were of that phone, and no call read "about 7700352" as a budget
    # of $8.9 million or "7700352" as a book's title
    text = answer_text(reply)
    assert "7700352" in text and not re.search(r"\$8,|\bbooks?\b", text), text
    asked = [
        u["input"]
        for m in messages
        for u in tool_uses({"output": {"message": m}})
        if m["role"] == "assistant"
    ]
    assert {"query": "Samsung Galaxy A35 5G"} in asked


def test_a_book_s_pages_asked_are_the_catalog_s_when_its_facts_cannot_be_had(
    index: SearchIndex,
) -> None:
    # Given the search of a question about a book's pages, and the book service down
    messages = searched_first(index, "How many pages is Harry Potter and the Philosopher's Stone?")
    model = OfflineModel()
    first = model.converse(make_request(messages))
    (facts, again) = tool_uses(first)
    assert facts["name"] == "get_book_info"
    final = model.converse(
        make_request(answered(messages, first, failure("down"), lookup(index, again["input"])))
    )

    # Then the answer gives the pages the catalog lists, beside the book (it gave none)
    text = answer_text(final)
    assert text.startswith(
        "We carry Harry Potter and the Philosopher's Stone [BK-001]: in stock (55 available),"
        " $10.99; by J.K. Rowling, paperback, 1997, 352 pages."
    )


def test_a_book_s_pages_are_said_once_the_book_service_s_when_it_gives_them(
    index: SearchIndex,
) -> None:
    # Given the book service's facts with its own page count for an edition
    messages = searched_first(index, "Tell me about the book The Hobbit")
    model = OfflineModel()
    first = model.converse(make_request(messages))
    facts = {
        "query": "The Hobbit",
        "results": [{"title": "The Hobbit", "authors": ["J.R.R. Tolkien"], "pages": 300}],
    }
    final = model.converse(
        make_request(answered(messages, first, success(facts), lookup(index, THE_HOBBIT)))
    )

    # Then the answer says the service's pages alone, not the catalog's beside them
    text = answer_text(final)
    assert "300 pages" in text
    assert len(re.findall(r"\d+ pages", text)) == 1, text


def _asked_and_answered(index: SearchIndex, messages: Messages) -> str:
    """The model's answer to ``messages``, each round of its tool calls run on ``index``."""
    model = OfflineModel()
    reply = model.converse(make_request(messages))
    for _ in range(2):
        if reply["stopReason"] != "tool_use":
            break
        results = [lookup(index, use["input"]) for use in tool_uses(reply)]
        messages = answered(messages, reply, *results)
        reply = model.converse(make_request(messages))
    return answer_text(reply)


@pytest.mark.parametrize("first", [True, False])
def test_two_products_sold_out_are_each_given_their_own_nearest_in_stock(
    index: SearchIndex, first: bool
) -> None:
    # Given two products named, both sold out, with or without a search first
    question = "Are the Razer Blade 16 and the Surface Pro in stock?"
    messages = searched_first(index, question) if first else [user(question)]

    # When the model answers
    text = _asked_and_answered(index, messages)

    # Then the Surface Pro is never offered the Razer Blade 16's nearest in stock
    surface = text[text.index("Microsoft Surface Pro") :]
    assert "Razer" not in surface, text
    assert text.startswith("We carry the Razer Blade 16 (2024) [CMP-037]: out of stock")


@pytest.mark.parametrize("first", [True, False])
def test_each_product_not_carried_is_said_and_offered_its_own_closest(
    index: SearchIndex, first: bool
) -> None:
    # Given two models the store does not carry, of two makers
    question = "Do you have the iPhone 14 or the Pixel 7?"
    messages = searched_first(index, question) if first else [user(question)]

    text = _asked_and_answered(index, messages)

    # Then each is said not carried, and the closest to the Pixel 7 are no iPhones
    assert "Sorry, we don't carry the Apple iPhone 14." in text
    pixel = text[text.index("Sorry, we don't carry the Google Pixel 7.") :]
    assert "iPhone" not in pixel and "Pixel" in pixel.split("\n", 1)[1], text


def test_models_the_search_says_are_not_carried_are_said_so(index: SearchIndex) -> None:
    # Given models of one line, two of them not carried, which the model does not read
    text = _asked_and_answered(index, searched_first(index, "Galaxy S24, S23+ or S22 Ultra?"))

    # Then the answer says which it does not carry, and confirms the one it does
    assert "Sorry, we don't carry Galaxy S23+." in text
    assert "Sorry, we don't carry Galaxy S22 Ultra." in text
    assert "We carry the Samsung Galaxy S24 [MOB-007]" in text


def test_the_closest_to_a_model_not_carried_are_of_its_line_not_the_other_named(
    index: SearchIndex,
) -> None:
    # Given a model the store lacks named beside one it carries, of another maker
    text = _asked_and_answered(
        index, searched_first(index, "Do you have the iPhone 14 or the Galaxy S24?")
    )

    # Then the closest to the iPhone 14 are iPhones, and the Galaxy is confirmed on its own
    closest = text[: text.index("We carry the Samsung Galaxy S24")]
    assert closest.startswith("Sorry, we don't carry the Apple iPhone 14.\nThe closest we have:")
    assert "iPhone 15" in closest and "Galaxy" not in closest, text


def test_a_title_the_search_says_the_store_lacks_is_said_so_not_asked_about(
    index: SearchIndex,
) -> None:
    # Given the search of a book's title no product has, which says it is not carried
    messages = searched_first(index, "Do you sell Project Hail Mary?")

    # When the model gets the first request
    reply = OfflineModel().converse(make_request(messages))

    # Then it says so at once, offers nothing found for a word of it, and asks the shopper
    # nothing ("Is it a computer, a phone or a book?")
    text = answer_text(reply)
    assert text.startswith("Sorry, we don't carry Project Hail Mary.")
    assert cited(text) == [] and "?" not in text


def test_a_title_the_search_says_the_store_lacks_is_answered_with_the_closest_it_found(
    index: SearchIndex,
) -> None:
    # Given the search of a title the store has under another name: not carried, with
    # the books sharing its words
    messages = searched_first(index, "Do you have Harry Potter and the Sorcerer's Stone?")

    # When the model gets the first request
    reply = OfflineModel().converse(make_request(messages))

    # Then it says the title is not carried and offers those books, the nearest first
    text = answer_text(reply)
    assert text.startswith(
        "Sorry, we don't carry Harry Potter and the Sorcerer's Stone.\nThe closest we have:"
    )
    assert cited(text)[0] == "BK-001"


# ----------------------------------------------------------------- named by an id of digits

IPAD = {
    "productId": "7702001",
    "name": "Apple iPad (10th generation) - 64 GB / Blue",
    "brand": "Apple",
    "category": "COMPUTERS",
    "price": 349.0,
    "stock": 8,
    "specs": {"formFactor": "tablet", "storageGb": 64, "screenInches": 10.9},
}
GALAXY = {
    **BY_ID["MOB-012"],
    "productId": "7700151",
    "name": "Samsung Galaxy A15 - 128 GB / Blue Black",
    "price": 199.99,
    "stock": 14,
}
DIGITS = [*(p for p in CATALOG if p["category"] != "BOOKS"), IPAD, GALAXY]


def asked_by_itself(index: SearchIndex, question: str, own: list[dict[str, Any]]) -> str:
    """The answer to ``question`` with no search first: the model's own searches, each run
    on ``own``'s index."""
    model = OfflineModel(store=lambda: Store.of_products(own))
    messages: Messages = [user(question)]
    reply = model.converse(make_request(messages))
    while reply["stopReason"] == "tool_use":
        uses = tool_uses(reply)
        messages = answered(messages, reply, *(lookup(index, u["input"], own) for u in uses))
        reply = model.converse(make_request(messages))
    return answer_text(reply)


@pytest.mark.parametrize("search_first", [True, False])
@pytest.mark.parametrize(
    ("question", "said"),
    [
        ("is 7702001 in stock?", "We carry the Apple iPad (10th generation) - 64 GB / Blue"),
        ("is 7700151 in stock?", "We carry the Samsung Galaxy A15 - 128 GB / Blue Black"),
        (
            "is the Samsung Galaxy A15 - 128 GB / Blue Black in stock?",
            "We carry the Samsung Galaxy A15 - 128 GB / Blue Black",
        ),
    ],
)
def test_a_product_named_by_its_id_asks_for_nothing_its_name_says(
    tmp_path: Path, search_first: bool, question: str, said: str
) -> None:
    # Given a store whose ids are all digits and whose names say "64 GB" and "128 GB"
    build_index(DIGITS, tmp_path / "own.sqlite")
    index = SearchIndex.open(tmp_path / "own.sqlite")
    try:
        # When the shopper asks whether one, named by its id, is in stock
        if search_first:
            messages = searched_first(index, question, catalog=DIGITS)
            model = OfflineModel(store=lambda: Store.of_products(DIGITS))
            text = answer_text(model.converse(make_request(messages)))
        else:
            text = asked_by_itself(index, question, DIGITS)
    finally:
        index.close()

    # Then it gets that product's stock and price, its name's "64 GB" no RAM asked for
    # ("no RAM listed (you asked for at least 64 GB RAM)") and its "128 GB" no heading
    # ("Samsung phones with at least 128 GB storage")
    assert text.startswith(said), text
    assert "in stock (" in text and "$" in text
    assert "you asked" not in text and "at least" not in text and "couldn't" not in text


@pytest.mark.parametrize("search_first", [True, False])
def test_a_limit_said_beside_a_product_named_by_its_id_still_counts(
    tmp_path: Path, search_first: bool
) -> None:
    build_index(DIGITS, tmp_path / "own.sqlite")
    index = SearchIndex.open(tmp_path / "own.sqlite")
    question = "is 7702001 under $300?"
    try:
        if search_first:
            messages = searched_first(index, question, catalog=DIGITS)
            model = OfflineModel(store=lambda: Store.of_products(DIGITS))
            text = answer_text(model.converse(make_request(messages)))
        else:
            text = asked_by_itself(index, question, DIGITS)
    finally:
        index.close()

    # The price asked is the one limit said, the name's "64 GB" none
    assert "(you asked for under $300)" in text and "RAM" not in text, text


@pytest.mark.parametrize(
    ("follow_up", "fits", "ordered_by", "heading"),
    [
        (
            "Which of those are under $360?",
            lambda p: p["price"] <= 360,
            None,
            "Of those, the ones under $360:",
        ),
        ("Sort those by weight", lambda p: True, "weightKg", "Of those, lightest first:"),
    ],
)
def test_a_follow_up_about_those_shown_is_held_to_the_search_s_reading_of_its_words(
    index: SearchIndex, follow_up: str, fits: Any, ordered_by: str | None, heading: str
) -> None:
    # Given laptops shown, then a follow-up about "those" that states a limit or an order
    model = OfflineModel()
    shown, earlier = answered_first(model, index, "Show me laptops")
    messages = [*earlier, user(follow_up)]

    # When the model looks up the laptops shown and the catalog tool reads the words with them
    reply = model.converse(make_request(messages))
    (use,) = tool_uses(reply)
    assert use["input"] == {"productIds": cited(shown), "keywords": follow_up}
    text = answer_text(
        model.converse(make_request(answered(messages, reply, lookup(index, use["input"]))))
    )

    # Then the answer shows only laptops shown before that meet the limit, in the order asked
    assert text.startswith(heading)
    ids = cited(text)
    assert ids and set(ids) <= set(cited(shown))
    assert all(fits(BY_ID[pid]) for pid in ids)
    assert len(ids) < len(cited(shown)) or ordered_by
    if ordered_by:
        values = [BY_ID[pid]["specs"][ordered_by] for pid in ids]
        assert values == sorted(values), text


def test_a_limit_none_of_those_shown_meets_is_said_with_the_nearest_the_search_gave(
    index: SearchIndex,
) -> None:
    # Given the cheapest laptops shown, then "Which of those have 16GB RAM?", which none has
    model = OfflineModel()
    shown, earlier = answered_first(model, index, "What are your cheapest laptops?")
    messages = [*earlier, user("Which of those have 16GB RAM?")]

    # When the catalog tool reads the words with the laptops shown, and gives the nearest
    reply = model.converse(make_request(messages))
    (use,) = tool_uses(reply)
    assert use["input"] == {
        "productIds": cited(shown),
        "keywords": messages[-1]["content"][0]["text"],
    }
    result = lookup(index, use["input"])
    text = answer_text(model.converse(make_request(answered(messages, reply, result))))

    # Then the answer says none has it, and how each of the nearest falls short
    assert text.startswith("None of those in stock has all you asked (at least 16 GB RAM)."), text
    ids = cited(text)
    assert ids and set(ids) <= set(cited(shown))
    assert text.count("(you asked for at least 16 GB RAM)") == len(ids)


@pytest.mark.parametrize(
    ("asked", "follow_up"),
    [
        ("Do you have Windows laptops?", "Of those, which is the lightest?"),
        ("Show me laptops", "Which of those has the longest battery?"),
        ("What phones do you have?", "Sort those by price"),
        ("Show me Dell laptops", "Which of them is the most expensive?"),
    ],
)
def test_those_shown_the_loop_fetched_in_the_order_asked_are_answered_in_one_call(
    index: SearchIndex, asked: str, follow_up: str
) -> None:
    # Given products shown, then a follow-up that only asks for an order among them, which
    # the loop fetched first as those products by id in that order
    model = OfflineModel()
    shown, earlier = answered_first(model, index, asked)
    ordered = ordering_shown(FirstAsk(message=follow_up, hasHistory=True, shown=cited(shown)))
    assert ordered is not None and ordered["productIds"] == cited(shown)
    messages = searched_first(index, follow_up, earlier, searched=ordered)

    # When the model gets the follow-up's first request
    reply = model.converse(make_request(messages))

    # Then it answers at once, asking the catalog for nothing more: one model call, the
    # loop's one lookup
    assert reply["stopReason"] == "end_turn", tool_uses(reply)
    # And the shopper reads the answer the model gives from its own lookup of those
    # products with their words, going first
    alone = [*earlier, user(follow_up)]
    own = model.converse(make_request(alone))
    (use,) = tool_uses(own)
    assert use["input"] == {"productIds": cited(shown), "keywords": follow_up}
    result = lookup(index, use["input"])
    assert answer_text(reply) == answer_text(
        model.converse(make_request(answered(alone, own, result)))
    )
