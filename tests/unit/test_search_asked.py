"""The names a shopper asks the store for, read from where they stand, before the
catalog says whether it has them."""

from __future__ import annotations

import pytest

from shared.search.asked import asked_names, beside_named, kinds_apart


@pytest.mark.parametrize(
    ("text", "names"),
    [
        ("Do you sell Huawei phones?", ["Huawei"]),
        ("motorola smartphones under $300", ["motorola"]),
        ("I want an LG laptop and a Sony tablet", ["LG", "Sony"]),
        ("anything from Nokia", ["Nokia"]),
        ("do you have any kayaks?", ["kayaks"]),
        ("Does the store stock Fairphone", ["Fairphone"]),
        # a word before the thing asked for alone is its own where the search reads nothing
        # in it ("wireless"); not an order ("cheap"), a use ("gaming") or "anything"
        ("do you sell wireless mice", ["wireless mice"]),
        ("do you have cheap kayaks?", ["kayaks"]),
        ("Do you sell gaming chairs?", ["chairs"]),
        # a brand the store sells is asked for too: whether it has it is the catalog's say
        ("do you have Dell laptops in stock?", ["Dell"]),
        # words that end a question without naming anything go before the name is read
        ("do you sell Huawei here?", ["Huawei"]),
        ("any books by Stephen King?", ["Stephen King"]),
        ("Do you stock Nokia at all", ["Nokia"]),
    ],
)
def test_a_name_before_a_kind_after_from_or_asked_for_alone_is_asked_for(
    text: str, names: list[str]
) -> None:
    assert asked_names(text) == names


@pytest.mark.parametrize(
    "text",
    [
        # words that stand there and name nothing
        "a durable phone",
        "a refurbished laptop for my kids",
        # words the search reads as a kind, an order, a use, a limit or a sale
        "a gaming laptop",
        "the cheapest phones",
        "a student laptop",
        "a 2-in-1 laptop",
        "a 16GB laptop",
        "discounted phones",
        # "from" without a capital; "do you have" with more after the word than a "?"
        "a laptop to use from home",
        "do you have any in blue please",
        "Do you have anything blorptastic?",
        "do you have used laptops",
        # what the question asked for came before "do you have": the word after names nothing
        "what laptops do you have today?",
        "do you sell phones here",
        "which phones do you have right now?",
        "do you have any in blue",
    ],
)
def test_a_word_that_names_nothing_is_not_asked_for(text: str) -> None:
    assert asked_names(text) == []


@pytest.mark.parametrize(
    ("text", "parts"),
    [
        ("I need a laptop and a phone for my son", ["I need a laptop", "a phone for my son"]),
        (
            "recommend me a laptop for coding and a book on python",
            ["recommend me a laptop for coding", "a book on python"],
        ),
        ("a phone, a laptop and a book", ["a phone", "a laptop", "a book"]),
        ("phones and laptops", ["phones", "laptops"]),
        # words that name no kind go with the kind before them
        ("a laptop, 16GB, and a phone", ["a laptop, 16GB", "a phone"]),
    ],
)
def test_each_kind_asked_apart_is_a_part_of_its_own(text: str, parts: list[str]) -> None:
    assert kinds_apart(text) == parts


@pytest.mark.parametrize(
    "text",
    [
        # one kind, with more of it after "and"
        "a laptop with 16 GB and a good battery",
        # another kind's word that is no new thing asked for
        "a book about a boy and his phone",
        "a cheap laptop and a fast one",
        "Galaxy S24, S24+ or S24 Ultra?",
        # which of two kinds one thing is
        "Is the Surface Pro a laptop or a tablet?",
        "is it a phone or a tablet",
    ],
)
def test_one_kind_asked_is_one_part(text: str) -> None:
    assert kinds_apart(text) == []


def test_which_kind_a_product_is_asks_for_no_kind_beside_it() -> None:
    assert beside_named("Is the Surface Pro a laptop or a tablet?", ["Surface Pro"]) == ""
