"""The search reads a shopper's German, Spanish and French as the English its phrase
table knows (issue 21), for every model: the kind of product, the budget and the wish."""

from __future__ import annotations

import pytest

from shared.search.words import parse
from shared.text.languages import in_english


@pytest.mark.parametrize(
    ("keywords", "category", "max_price"),
    [
        ("Quiero un portátil para programar por menos de 900 dólares", "COMPUTERS", 900),
        ("quiero un portatil por menos de 900 dolares", "COMPUTERS", 900),
        ("Ich suche ein Handy unter 400 Euro", "MOBILE", 400),
        ("un ordinateur portable pour moins de 800 euros", "COMPUTERS", 800),
        ("un libro de fantasía", "BOOKS", None),
    ],
)
def test_a_foreign_kind_and_budget_become_the_searchs_filters(
    keywords: str, category: str, max_price: float | None
) -> None:
    words = parse(keywords)
    assert words.category == category
    assert words.max_price == max_price
    # The words that say nothing about a product are not searched for
    assert not {"quiero", "un", "ich", "suche", "ein", "de", "por"} & set(words.plain)


def test_spanish_with_and_without_are_no_words_to_search() -> None:
    assert parse("¿Tienen un móvil con la mejor cámara?").plain == []
    assert parse("un portátil con pantalla grande sin Windows").plain == []


def test_a_foreign_wish_ranks_as_the_english_one() -> None:
    assert parse("ein Handy mit guter Kamera").boosts == parse("phone camera").boosts
    # "the best camera" is an order, in German as in English (test_search_orders)
    assert parse("Welches Handy hat die beste Kamera?").sort == "camera"
    assert parse("un portátil ligero").boosts == parse("a light laptop").boosts
    assert parse("ein günstiges Handy").sort == "price"


def test_french_elisions_and_german_superlatives_are_read() -> None:
    assert parse("l'ordinateur le plus léger").category == "COMPUTERS"
    assert in_english("Welcher Laptop ist am leichtesten?") == "which Laptop is lightest?"


def test_english_is_read_as_before() -> None:
    # "handy" is an English adjective; only the German noun, with its capital, is a phone
    assert parse("a handy laptop").category == "COMPUTERS"
    assert in_english("a handy portable laptop for the office") == (
        "a handy portable laptop for the office"
    )
    assert in_english("Harry Potter and the Philosopher's Stone") == (
        "Harry Potter and the Philosopher's Stone"
    )


@pytest.mark.parametrize(
    ("keywords", "unwanted"),
    [
        ("kein Apple, ein Laptop", ["apple"]),
        ("ein Handy, aber nicht Samsung", ["samsung"]),
        ("un téléphone, pas Samsung", ["samsung"]),
        ("un portátil excepto Dell", ["dell"]),
        ("un móvil pero no Samsung", ["samsung"]),
    ],
)
def test_a_brand_not_wanted_in_german_french_or_spanish_is_left_out(
    keywords: str, unwanted: list[str]
) -> None:
    # Before, "kein Apple" searched for Apple: the cue was a word the search did not know
    assert parse(keywords).unwanted == unwanted, keywords


@pytest.mark.parametrize("keywords", ["ein Laptop nicht über 800 Euro", "nicht mehr als 800 Euro"])
def test_a_german_limit_said_with_nicht_is_the_english_one(keywords: str) -> None:
    words = parse(keywords)
    assert words.limits == {"maxPrice": 800.0}
    assert not words.plain, keywords  # no word left over to search for


@pytest.mark.parametrize(
    "keywords",
    [
        "un téléphone pour mon fils de 12 ans",
        "ein Laptop für meinen Sohn, 12 Jahre alt",
        "ein Handy für meinen 12-jährigen Sohn",
        "un portátil para mi hijo de 12 años",
    ],
)
def test_a_child_s_age_in_german_french_or_spanish_is_the_english_one(keywords: str) -> None:
    # "mon fils de 12 ans" searched "mon", "fils", "12" and "ans": the OnePlus 12 first
    words = parse(keywords)
    assert words.plain == [] and words.groups == []
    assert words.boosts == parse("a phone for my 12 year old son").boosts


def test_years_of_no_child_stay_as_written() -> None:
    # only a number's "años" beside a word for a child is an age: a title, a warranty or
    # years of updates are not
    assert in_english("Cien años de soledad") == "Cien años of soledad"
    for said in (
        "3 Jahren Garantie",
        "2 Jahre Garantie",
        "7 años de actualizaciones",
        "laptop pour mon fils, garantie 2 ans",  # a child near, and a warranty nearer
        "Samsung mit 7 Jahren Updates für meinen Sohn",
    ):
        assert "year old" not in in_english(said), said


def test_a_german_range_with_bis_is_a_range() -> None:
    words = parse("Laptop von 500 bis 800 Euro")
    assert (words.min_price, words.max_price) == (500, 800)
