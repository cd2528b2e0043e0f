"""Orders said in words ("the lightest", "most storage", "the best camera") sort the search
exactly as the tool's own ``sortBy`` does, for every model: the result says the order it
applied, and the order's words never have to be in a product's description."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from lookup_inventory.logic import run
from shared.api.contract import ToolUse
from shared.products.catalog_data import load_catalog
from shared.products.table import shown_products
from shared.search import SearchIndex, SearchQuery, build_index
from shared.search.words import parse
from tests.unit.test_lookup_inventory import Table

CATALOG = load_catalog()


@pytest.fixture(scope="module")
def index(tmp_path_factory: pytest.TempPathFactory) -> Iterator[SearchIndex]:
    path = tmp_path_factory.mktemp("orders") / "catalog.sqlite"
    build_index(CATALOG, path)
    opened = SearchIndex.open(path)
    yield opened
    opened.close()


def told(index: SearchIndex, tool_input: dict[str, Any]) -> dict[str, Any]:
    """What a model reads from one ``lookup_inventory`` call."""
    use = ToolUse(toolUseId="t1", name="lookup_inventory", input=tool_input)
    out = run(use, index=lambda: index, source=Table(CATALOG), max_results=8).dump()
    seen: dict[str, Any] = out["toolResult"]["content"][0]["json"]
    # The products are a table (shared.products.table): read here as one object each.
    return {**seen, "products": shown_products(seen["products"])} if "products" in seen else seen


def shown(seen: dict[str, Any]) -> list[str]:
    return [p["productId"] for p in seen["products"]]


@pytest.mark.parametrize(
    ("words", "sort"),
    [
        ("Which iPhone has the most storage?", "storage"),
        ("the phone with the biggest storage", "storage"),
        ("a laptop with more storage", "storage"),
        ("the lightest laptop", "weight"),
        ("a laptop with the least weight", "weight"),
        ("which laptop weighs the least", "weight"),
        ("phone with the longest battery", "battery"),
        ("the longest-lasting laptop", "battery"),
        ("Which phone has the best camera under $800?", "camera"),
        ("a phone with a better camera", "camera"),
        ("the laptop with the biggest screen", "screen"),
        ("a phone with a larger display", "screen"),
        ("the smallest phone", "screen_asc"),
        ("the most expensive laptop", "price_desc"),
        ("your priciest phone", "price_desc"),
        ("the cheapest android phone", "price"),
        ("the most RAM", "ram"),
        ("the newest phone", "newest"),
        ("the smallest storage iphone", "storage_asc"),
        ("the phone with the smallest battery", "battery_asc"),
        # German, Spanish and French, read as the English the search knows
        ("Welches Handy hat die beste Kamera?", "camera"),
        ("Welcher Laptop ist am leichtesten?", "weight"),
        ("el portátil más ligero", "weight"),
        ("le téléphone le plus léger", "weight"),
        ("el móvil más caro", "price_desc"),
        ("display laptops by price", "price"),
        ("phones with more megapixels", "camera"),
    ],
)
def test_an_order_in_words_is_the_search_sort(words: str, sort: str) -> None:
    assert parse(words).sort == sort


@pytest.mark.parametrize(
    ("words", "sort"),
    [
        ("show me Samsung phones sorted by price", "price"),
        ("laptops sorted by weight", "weight"),
        ("laptops sorted by RAM", "ram"),
        ("phones ordered by price, highest first", "price_desc"),
        ("Samsung phones, price: high to low", "price_desc"),
        ("a laptop ranked by weight heaviest first", "weight_desc"),
        ("laptops ordered by screen size from smallest to biggest", "screen_asc"),
        ("sort them by battery life", "battery"),
        ("phones sorted by camera, lowest first", "camera_asc"),
        ("phones sorted by cost", "price"),
        ("list phones by price", "price"),
        ("show me laptops by price, cheapest first", "price"),
        ("sort the Samsung phones by battery life", "battery"),
        ("list all the Dell laptops by weight", "weight"),
        # a wish with "by" before the order does not hide it
        ("show me laptops by HP sorted by price", "price"),
        ("show me phones by Samsung, ranked by RAM", "ram"),
        ("a phone with a great display by Samsung sorted by price", "price"),
    ],
)
def test_an_order_asked_by_the_specs_name_is_the_search_sort(words: str, sort: str) -> None:
    # "sorted by price" says the order by the spec's name, not by a degree ("cheapest")
    read = parse(words)
    assert read.sort == sort
    # and its words are no words to find: "sorted" is in no product's text
    assert not {"sorted", "ordered", "ranked", "first", "high", "low"} & {g[0] for g in read.groups}


@pytest.mark.parametrize(
    "words",
    [
        "a book ordered by my teacher",
        "books listed by Penguin",
        "a laptop ranked by reviewers",
        "show me books by Tolkien",
        "list phones by Samsung",
    ],
)
def test_by_after_order_words_that_name_no_spec_sorts_nothing(words: str) -> None:
    assert parse(words).sort is None


@pytest.mark.parametrize(
    ("words", "kept"),
    [
        ("list phones by price", "mobile"),
        ("sort the Samsung phones by battery life", "samsung"),
        ("show me Dell laptops by weight", "dell"),
    ],
)
def test_what_an_order_sorts_is_still_what_is_searched(words: str, kept: str) -> None:
    # "list phones by price" orders phones: the words between the verb and "by" stay
    read = parse(words)
    assert read.sort is not None
    assert kept in {w for g in read.groups for w in g} | {f"{read.category}".casefold()}


def test_smaller_alone_is_no_order_before_the_one_asked() -> None:
    # "smaller" says no spec: the battery asked for is the order
    assert parse("a smaller phone with a bigger battery").sort == "battery"


def test_a_degree_said_is_the_order_before_a_spec_named() -> None:
    # "the lightest laptops sorted by price": the lightest, as before "sorted by" was read
    assert parse("the lightest laptops sorted by price").sort == "weight"


def test_an_order_asked_by_name_sorts_the_search(index: SearchIndex) -> None:
    seen = told(index, {"keywords": "show me Samsung phones sorted by price"})
    prices = [p["price"] for p in seen["products"]]
    assert seen["understood"]["sortBy"] == "price"
    assert len(prices) > 2 and prices == sorted(prices), prices


@pytest.mark.parametrize(
    ("words", "sort", "shown"),
    [
        ("show me 2 laptops by price", "price", 2),
        ("list three phones by price", "price", 3),
        ("top 5 phones by battery", "battery", 5),
    ],
)
def test_how_many_to_show_is_no_word_to_find_and_hides_no_order(
    words: str, sort: str, shown: int
) -> None:
    # "show me 2 laptops by price" asks for two laptops, cheapest first: no "2" to find
    read = parse(words)
    assert read.sort == sort
    assert read.groups == []
    assert read.shown == shown


def test_the_result_says_how_many_the_shopper_asked_to_see(index: SearchIndex) -> None:
    # a model shows that many (before, the number was dropped unsaid: three were shown)
    assert told(index, {"keywords": "show me 2 phones by price"})["understood"]["howMany"] == 2
    assert "howMany" not in told(index, {"keywords": "show me 14 laptops"})["understood"]
    assert "howMany" not in told(index, {"keywords": "show me 5 star books"})["understood"]


@pytest.mark.parametrize(
    "words",
    [
        "list all laptops",
        "what are your top laptops?",
        "top rated laptops",
        "best reviewed laptops",
        "your most popular laptops",
        "give me 3 laptops",
        "what's your best-selling laptop?",
        "your top picks in laptops",
    ],
)
def test_words_of_asking_for_the_best_ones_do_not_narrow_the_kind(
    index: SearchIndex, words: str
) -> None:
    # When a shopper asks for the best or all of a kind, in words no product's text says
    seen = told(index, {"keywords": words})
    # Then every laptop is found, and no word is said not carried
    everyone = told(index, {"keywords": "laptops"})
    assert seen["count"] == everyone["count"] > 20
    assert not seen.get("notCarried")
    assert not seen["understood"].get("searched")


def test_a_number_that_is_a_kind_or_an_amount_is_not_how_many() -> None:
    assert parse("show me 2 in 1 laptops").forms == ("2-in-1",)
    assert parse("show me 16 GB laptops").bounds == {"minRamGb": 16.0}


@pytest.mark.parametrize(
    ("words", "number"),
    [
        ("show me the 16 pro", "16"),
        ("show me 24 ultra", "24"),
        ("show me 2 sim phones", "2"),
        ("recommend 8 core laptops", "8"),
    ],
)
def test_a_models_or_a_specs_number_is_not_how_many(words: str, number: str) -> None:
    # "show me the 16 Pro" names the iPhone 16 Pro: its number is searched for
    assert number in {g[0] for g in parse(words).groups}


@pytest.mark.parametrize(
    "words",
    [
        "a phone with a good camera",
        "a laptop with a big screen",
        "long battery life",
        "a light laptop",
    ],
)
def test_a_plain_wish_ranks_and_does_not_sort(words: str) -> None:
    # "a good camera" is a use: it ranks toward the camera, but is no order
    read = parse(words)
    assert read.sort is None
    assert read.boosts


@pytest.mark.parametrize(
    ("words", "sort"),
    [
        # before, each sorted by the very order it refuses: the priciest iPhone first
        ("I want an iphone but not the most expensive one", None),
        ("anything but the cheapest laptop", None),
        ("I don't want the heaviest laptop", None),
        ("a phone, except the lightest", None),
        # an order said after the one refused is the order
        ("a phone that is not the cheapest but has the best camera", "camera"),
        # "but" alone refuses nothing
        ("a cheap phone but the best camera", "camera"),
        # nor does what says it alone is wanted
        ("I don't want anything but the cheapest laptop", "price"),
        ("I want nothing except the cheapest phone", "price"),
        ("never anything but the cheapest laptop", "price"),
        # other ways of refusing one, and two refused together
        ("I'm not interested in the cheapest laptop", None),
        ("don't show me the cheapest phone", None),
        ("a laptop that does not have to be the cheapest", None),
        ("I don't want the cheapest or the heaviest laptop", None),
    ],
)
def test_an_order_said_not_wanted_is_no_order(words: str, sort: str | None) -> None:
    read = parse(words)
    assert read.sort == sort
    # nor are its words, or the words that refuse it, searched ("not" found nothing, and
    # the search said so)
    assert not {"not", "expensive", "cheapest", "heaviest", "lightest", "show"} & set(read.plain)


def test_the_tools_own_sort_wins_and_the_orders_words_still_do_not_narrow() -> None:
    read = parse("the lightest laptop", {"sortBy": "price"})
    assert read.sort is None
    assert read.groups == []


def test_the_result_states_the_order_it_applied_and_sorts_as_sortby_does(
    index: SearchIndex,
) -> None:
    # Given the shopper's words, and the same search with the tool's own sortBy
    seen = told(index, {"keywords": "Which iPhone has the most storage?"})
    fielded = told(index, {"keywords": "iphone", "sortBy": "storage"})

    # Then the result says the order, and shows the iPhones in that very order
    assert seen["understood"]["sortBy"] == "storage"
    assert shown(seen) == shown(fielded)
    storages = [p["specs"]["storageGb"] for p in seen["products"]]
    assert storages == sorted(storages, reverse=True)


def test_an_orders_words_do_not_narrow_the_search(index: SearchIndex) -> None:
    # Given "the lightest laptop", a word few laptops' descriptions say
    computers = [p for p in CATALOG if p["category"] == "COMPUTERS"]
    assert sum("lightest" in str(p).casefold() for p in computers) < len(computers) / 2
    seen = told(index, {"keywords": "What is the lightest laptop?"})

    # Then every laptop is a match, lightest first, and no words were dropped to find them
    laptops = told(index, {"keywords": "laptop"})
    assert seen["count"] == laptops["count"] and "relaxed" not in seen
    assert seen["understood"]["sortBy"] == "weight"
    assert "searched" not in seen["understood"]
    weights = [p["specs"]["weightKg"] for p in seen["products"]]
    assert weights == sorted(weights)


def test_a_use_states_the_order_it_leans_to(index: SearchIndex) -> None:
    # "for travel" ranks toward light laptops, and says so; it sorts nothing
    seen = told(index, {"keywords": "a laptop for travel"})
    assert seen["understood"]["favours"] == "weight"
    assert "sortBy" not in seen["understood"]


@pytest.mark.parametrize(
    "words", ["a phone with good battery life", "a mobile with a big battery under $600"]
)
def test_a_phone_s_battery_use_leans_to_its_mah(index: SearchIndex, words: str) -> None:
    # Phones state their battery in mAh, not hours: "good battery life" still leads with
    # the biggest batteries, and the tool keeps that order (it used to show the cheapest)
    seen = told(index, {"keywords": words})
    assert seen["understood"]["favours"] == "battery"
    mah = [p["specs"]["batteryMah"] for p in seen["products"]]
    assert mah[0] == max(mah)
    largest = max(p["specs"]["batteryMah"] for p in CATALOG if p["category"] == "MOBILE")
    assert mah[0] == largest


def test_an_order_on_a_spec_the_kind_lacks_is_not_stated(index: SearchIndex) -> None:
    # Laptops have no camera spec: "the best camera" cannot order them
    result = index.search(SearchQuery(keywords="the laptop with the best camera"))
    assert result.products and "sortBy" not in result.understood
    assert result.ranked_by != "camera"


@pytest.mark.parametrize(
    ("words", "searched"),
    [
        ("Do you have books by Tolkien?", ["tolkien"]),
        ("novels by J.R.R. Tolkien", ["tolkien"]),
        ("Is 1984 by George Orwell a good book?", ["1984", "orwell"]),
    ],
)
def test_an_author_after_by_is_searched_by_the_surname(
    index: SearchIndex, words: str, searched: list[str]
) -> None:
    # The catalog may name an author with initials: the given names only narrow
    seen = told(index, {"keywords": words})
    assert seen["understood"]["searched"] == searched
    author = searched[-1]
    assert seen["products"] and all(author in str(p).casefold() for p in seen["products"])


def test_a_brand_after_by_keeps_every_word() -> None:
    # Only books take an author: "laptops by Lenovo Yoga" searches both words
    assert parse("laptops by Lenovo Yoga").groups == [("lenovo",), ("yoga",)]


@pytest.mark.parametrize(
    ("words", "refused"),
    [
        ("I want a laptop but not the cheapest one", ["price"]),
        ("an iPhone but not the most expensive one", ["price_desc"]),
        ("a laptop, not the lightest", ["weight"]),
        ("a phone but not the one with the most storage", ["storage"]),
        ("I don't want the cheapest or the heaviest laptop", ["price", "weight_desc"]),
        ("a phone that is not the cheapest but has the best camera", ["price"]),
        ("nothing but the cheapest laptop", []),
        ("the cheapest laptop", []),
    ],
)
def test_an_order_said_not_wanted_is_read_as_refused(words: str, refused: list[str]) -> None:
    # "not the lightest" was read as a name left out (none is), and refused nothing
    read = parse(words)
    assert read.refused == refused
    assert not read.unwanted


def first_by(index: SearchIndex, words: str) -> dict[str, Any]:
    """The product the order in ``words`` puts first."""
    return told(index, {"keywords": words})["products"][0]


@pytest.mark.parametrize(
    ("words", "ordered", "order"),
    [
        ("I want a laptop but not the cheapest one", "the cheapest laptop", "price"),
        ("an iPhone but not the most expensive one", "the most expensive iPhone", "price_desc"),
        ("a laptop, not the lightest", "the lightest laptop", "weight"),
        ("a phone but not the one with the most storage", "the phone with most storage", "storage"),
    ],
)
def test_the_product_an_order_said_not_wanted_puts_first_is_left_out(
    index: SearchIndex, words: str, ordered: str, order: str
) -> None:
    # Given the product the refused order would put first among the products asked for
    first = first_by(index, ordered)
    seen = told(index, {"keywords": words})

    # Then the shopper is not shown it (before, "not the cheapest laptop" showed the $249
    # Chromebook first), and the result says which it left out, for the model to say so
    assert first["productId"] not in shown(seen)
    assert seen["products"]
    assert seen["understood"]["refused"] == {order: [first["name"]]}
    assert "sortBy" not in seen["understood"]
    assert "without" not in seen["understood"]


def test_two_orders_said_not_wanted_leave_out_each_ones_first(index: SearchIndex) -> None:
    cheapest = first_by(index, "the cheapest laptop")
    heaviest = first_by(index, "the heaviest laptop")
    seen = told(index, {"keywords": "I don't want the cheapest or the heaviest laptop"})

    assert not {cheapest["productId"], heaviest["productId"]} & set(shown(seen))
    assert seen["understood"]["refused"] == {
        "price": [cheapest["name"]],
        "weight_desc": [heaviest["name"]],
    }


def test_the_products_tied_first_in_a_refused_order_are_all_left_out(index: SearchIndex) -> None:
    # Given several books at the lowest price
    books = [p for p in CATALOG if p["category"] == "BOOKS"]
    low = min(p["price"] for p in books)
    tied = {p["productId"] for p in books if p["price"] == low}
    assert 1 < len(tied) < len(books)
    seen = told(index, {"keywords": "a book, but not the cheapest"})

    # Then none of them is "not the cheapest" book shown
    assert seen["products"] and not tied & set(shown(seen))
    assert len(seen["understood"]["refused"]["price"]) == len(tied)


def test_an_order_wanted_alone_still_sorts_and_leaves_nothing_out(index: SearchIndex) -> None:
    cheapest = first_by(index, "the cheapest laptop")
    seen = told(index, {"keywords": "nothing but the cheapest laptop"})

    assert shown(seen)[0] == cheapest["productId"]
    assert seen["understood"]["sortBy"] == "price"
    assert "refused" not in seen["understood"]


def test_a_refused_order_the_kind_has_no_spec_for_leaves_nothing_out(index: SearchIndex) -> None:
    # Laptops state no camera: none is the one with the best camera
    every = told(index, {"keywords": "a laptop"})
    seen = told(index, {"keywords": "a laptop but not the one with the best camera"})

    assert "refused" not in seen["understood"]
    assert shown(seen) == shown(every)
