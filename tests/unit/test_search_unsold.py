"""A kind of product the store does not sell, said by the search for every model: not
carried, by the kind's name, with the nearest kind the store sells where there is one;
and never for a kind the store's own catalog has, or one that is a feature of a product."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from lookup_inventory.logic import run
from shared.api.contract import ToolUse
from shared.products.catalog_data import load_catalog
from shared.search import SearchIndex, SearchQuery, SearchResult, build_index
from shared.search.unsold import KINDS

CATALOG = load_catalog()
KIND_OF = {p["productId"]: (p.get("specs") or {}).get("formFactor") for p in CATALOG}
CATEGORY_OF = {p["productId"]: p["category"] for p in CATALOG}

CAMERA = {
    "productId": "CAM-001",
    "name": "Fujifilm X-T5 Mirrorless Camera",
    "brand": "Fujifilm",
    "category": "MOBILE",
    "price": 1699.0,
    "stock": 4,
    "specs": {"cameraMp": 40},
    "description": "A 40 MP mirrorless camera with in-body stabilisation.",
}


def _open(products: list[dict[str, Any]], path: Path) -> SearchIndex:
    build_index(products, path)
    return SearchIndex.open(path)


@pytest.fixture(scope="module")
def index(tmp_path_factory: pytest.TempPathFactory) -> Iterator[SearchIndex]:
    opened = _open(CATALOG, tmp_path_factory.mktemp("unsold") / "catalog.sqlite")
    yield opened
    opened.close()


def search(index: SearchIndex, keywords: str, **fields: Any) -> SearchResult:
    return index.search(SearchQuery(keywords=keywords, limit=5, **fields))


@pytest.mark.parametrize(
    ("words", "kind"),
    [
        ("Do you have TVs?", "TVs"),
        ("any drones?", "drones"),
        ("I need wireless headphones under $100.", "headphones"),
        ("Can I buy a laser printer from you?", "printers"),
        ("a Kindle for my mum", "e-readers"),
    ],
)
def test_a_kind_with_no_nearer_kind_is_not_carried_and_shows_nothing(
    index: SearchIndex, words: str, kind: str
) -> None:
    # Given the sample store, which sells computers, phones and books
    # When a shopper asks for a kind it does not sell
    result = search(index, words)
    # Then the search says the kind is not carried, once, by its name, and shows nothing
    assert result.not_carried == [kind]
    assert result.instead is None
    assert result.products == []


@pytest.mark.parametrize(
    ("words", "kind", "instead"),
    [
        ("Do you sell tablets?", "tablets", "2-in-1 laptops"),
        ("Do you have an iPad?", "tablets", "2-in-1 laptops"),
        # A tab, though the store sells Galaxy phones
        ("any Galaxy Tab S9?", "tablets", "2-in-1 laptops"),
        ("I want a mirrorless camera", "cameras", "phones with the best cameras"),
        ("a PS5 under $900", "game consoles", "gaming laptops"),
        ("Do you sell monitors?", "monitors", "all-in-one computers"),
    ],
)
def test_a_kind_with_a_nearer_kind_shows_that_kind(
    index: SearchIndex, words: str, kind: str, instead: str
) -> None:
    result = search(index, words)
    # Then it is not carried, and the products are the nearest kind's, as the table names it
    assert result.not_carried == [kind]
    assert result.instead == instead
    assert result.products
    if instead == "2-in-1 laptops":
        assert {KIND_OF[hit.productId] for hit in result.products} == {"2-in-1"}
    if instead == "phones with the best cameras":
        assert result.understood.get("sortBy") == "camera"


def test_the_shoppers_other_words_hold_for_the_nearer_kind(index: SearchIndex) -> None:
    # Given a console asked for under a budget
    result = search(index, "a PS5 under $900")
    # Then the gaming laptops shown are within it
    assert result.understood.get("maxPrice") == 900
    assert all(hit.price is not None and hit.price <= 900 for hit in result.products)


def test_the_nearer_kind_is_ranked_by_its_own_words_not_the_shoppers_others(
    index: SearchIndex,
) -> None:
    # Given a camera asked for a use whose word one phone's text has ("vlogging")
    result = search(index, "do you have a camera for vlogging?")
    # Then the phones shown in its place are those with the best camera, best first, not
    # the one phone that says the word
    assert result.not_carried == ["cameras"]
    assert result.understood.get("sortBy") == "camera"
    cameras = [hit.specs.get("camera_mp") for hit in result.products]
    assert len(cameras) > 1 and cameras == sorted(cameras, reverse=True), cameras


@pytest.mark.parametrize(
    ("words", "order"),
    [
        ("the cheapest camera", "price"),
        ("a cheap camera for my daughter", "price"),
        ("a camera under $300", "camera"),
    ],
)
def test_a_camera_asked_by_its_price_or_use_alone_is_not_carried(
    index: SearchIndex, words: str, order: str
) -> None:
    # Given a camera asked with no verb of asking: a price, an order or a use beside it
    result = search(index, words)
    # Then it is not carried, and the phones shown in its place are in the order asked:
    # not the cheapest books of the store
    assert result.not_carried == ["cameras"]
    assert result.instead == "phones with the best cameras"
    assert result.understood.get("sortBy") == order
    assert result.products
    assert {CATEGORY_OF[hit.productId] for hit in result.products} == {"MOBILE"}
    if "$300" in words:
        assert all(hit.price is not None and hit.price <= 300 for hit in result.products)


def test_no_nearer_kind_is_shown_outside_the_limits_asked(index: SearchIndex) -> None:
    # Given a tablet under a budget no 2-in-1 laptop is within
    result = search(index, "a Samsung tablet under $400")
    # Then only the kind is said not carried: no 2-in-1 at twice the budget instead
    assert result.not_carried == ["tablets"] and result.instead is None
    assert result.products == []


def test_the_order_the_shopper_asks_holds_for_the_nearer_kind(index: SearchIndex) -> None:
    result = search(index, "a cheap tablet")
    assert result.not_carried == ["tablets"]
    assert result.understood.get("sortBy") == "price"
    prices = [hit.price for hit in result.products]
    assert len(prices) > 1 and prices == sorted(prices), prices


@pytest.mark.parametrize(
    "words",
    [
        "a laptop that drives two external monitors",  # a feature of the kind asked
        "a phone with a great camera",  # the phone's camera, not a camera
        "How many megapixels is the Galaxy S24 Ultra's camera?",
        "a cheap Windows laptop",
        # A camera said with no kind asked is a product's feature where the words make it so
        "what has the best camera?",
        "I need something with a good camera for vlogging",
        "How good is the Pixel 9 camera?",
        "Does the Galaxy S24 Ultra have a good camera?",
        "the best camera phone under $500",
        # a camera said with no price of its own is a feature wished for
        "how's the camera?",
        "a good camera and a long battery",
        "I take a lot of photos, I need a good camera",
        # a question of what a product is, not a wish for the kind
        "Is the Surface Pro a laptop or a tablet?",
        "is the Surface Pro basically a tablet",
        # a port for headphones is the phone's
        "I need a phone with a headphone jack",
        "does the Pixel 9 have a headphone jack?",
    ],
)
def test_a_kind_the_store_sells_or_a_feature_is_never_said_not_carried(
    index: SearchIndex, words: str
) -> None:
    result = search(index, words)
    assert result.not_carried == [] and result.instead is None
    assert result.products


@pytest.mark.parametrize(
    ("words", "kinds"),
    [
        # The product an accessory is for is the shopper's, not one asked for
        ("a case for the iPhone 13", ["cases"]),
        ("screen protector for galaxy s24", ["screen protectors"]),
        ("I need a charger for my MacBook", ["chargers and cables"]),
        # An accessory after the product it is for
        ("iPhone 13 case", ["cases"]),
        ("Do you have the Galaxy S24 Ultra case?", ["cases"]),
        ("Do you have HP 67 ink?", ["ink and toner"]),
        ("I'll take the Pixel 8a just in case", []),
        ("is the iPhone 15 covered by the warranty?", []),
        ("Can I buy a printer and some ink cartridges from you?", ["printers", "ink and toner"]),
        # What comes with a product, and "in case", ask for no accessory
        ("does the Pixel 8a come with a charger?", []),
        ("a laptop with a stylus", []),
        ("in case it breaks, is there a warranty?", []),
    ],
)
def test_an_accessory_is_asked_for_only_as_the_thing_wanted(
    index: SearchIndex, words: str, kinds: list[str]
) -> None:
    assert search(index, words).not_carried == kinds


def test_a_store_that_sells_the_kind_is_searched_as_any_other(tmp_path: Path) -> None:
    # Given a store whose own catalog has a camera, by its name
    opened = _open([*CATALOG, CAMERA], tmp_path / "camera.sqlite")
    try:
        # When a shopper asks for one
        result = search(opened, "Do you sell mirrorless cameras?")
    finally:
        opened.close()
    # Then it is found, and nothing is said not carried
    assert result.not_carried == [] and result.instead is None
    assert result.products[0].productId == "CAM-001"


def test_a_name_asked_alone_is_said_once_by_the_kinds_name(index: SearchIndex) -> None:
    # "headphones" asked alone is also a name asked for: said once, as the kind
    result = search(index, "do you have headphones")
    assert result.not_carried == ["headphones"]


def test_every_kind_is_read_by_its_own_name() -> None:
    # Each kind's name is what the shopper may write, so an answer naming it reads true
    for kind in KINDS:
        assert kind.said.search(kind.name), kind.name


def test_the_catalog_tool_says_it_for_any_model(index: SearchIndex) -> None:
    # Given the catalog tool, as any model calls it
    call = ToolUse(toolUseId="t1", name="lookup_inventory", input={"keywords": "any tablets?"})
    output = run(call, index=lambda: index, source=None, max_results=8)
    told = output.tool_result["content"][0]["json"]
    # Then its result says the kind is not carried and which kind it shows instead
    assert told["notCarried"] == ["tablets"]
    assert told["showingInstead"] == "2-in-1 laptops"
    assert told["products"]


def test_the_catalog_tool_says_which_maker_it_let_go(index: SearchIndex) -> None:
    # Given the catalog tool, as any model calls it
    words = {"keywords": "an HP or Samsung tablet"}
    call = ToolUse(toolUseId="t1", name="lookup_inventory", input=words)
    output = run(call, index=lambda: index, source=None, max_results=8)
    told = output.tool_result["content"][0]["json"]
    # Then its result names the maker none of whose products is shown
    assert told["understood"]["relaxedBrands"] == ["Samsung"]
    assert told["products"] and told["showingInstead"] == "2-in-1 laptops"


def test_a_store_without_the_nearer_kind_shows_nothing_in_its_place(tmp_path: Path) -> None:
    # Given a store of phones and books, with no 2-in-1 laptops
    phones_and_books = [p for p in CATALOG if p["category"] in ("MOBILE", "BOOKS")]
    opened = _open(phones_and_books, tmp_path / "no-laptops.sqlite")
    try:
        # When a shopper asks for tablets, or for 2-in-1 laptops themselves
        tablets = search(opened, "Do you sell tablets?")
        two_in_ones = search(opened, "Do you sell 2-in-1 laptops?")
    finally:
        opened.close()
    # Then tablets are not carried and nothing stands for them, and no search of a kind
    # the store lacks falls back to its books and phones
    assert (tablets.not_carried, tablets.instead, tablets.products) == (["tablets"], None, [])
    assert two_in_ones.products == []


@pytest.mark.parametrize(
    ("words", "shown"),
    [
        # The product an accessory is for, and the rest of the words, ask for nothing else
        ("a case for the iPhone 13", set()),
        ("I need a charger for my MacBook", set()),
        ("I need wireless headphones under $100.", set()),
        # A kind the shopper has is not asked for either
        ("I broke my phone screen, do you sell screen protectors?", set()),
        ("do you sell chargers? my old laptop's died", set()),
        # A kind asked for besides, or a product named, is shown
        ("a phone and a case", {"MOBILE"}),
        ("a laptop and a printer", {"COMPUTERS"}),
        ("headphones for my son and a laptop", {"COMPUTERS"}),
    ],
)
def test_only_what_the_words_ask_for_besides_an_unsold_kind_is_shown(
    index: SearchIndex, words: str, shown: set[str]
) -> None:
    result = search(index, words)
    assert result.not_carried
    assert {CATEGORY_OF[hit.productId] for hit in result.products} == shown


def test_a_product_named_beside_an_unsold_kind_is_shown(index: SearchIndex) -> None:
    result = search(index, "Is there a smartwatch that works with the Galaxy S24?")
    assert result.not_carried == ["smartwatches"]
    assert result.products[0].name == "Samsung Galaxy S24"


@pytest.mark.parametrize(
    ("words", "makers"),
    [
        ("cheapest samsung tablet", ["Samsung"]),
        ("a Samsung tablet under $1000", ["Samsung"]),
        ("do you have an Apple iPad?", ["Apple"]),
        ("an apple or samsung tablet", ["Apple", "Samsung"]),
    ],
)
def test_a_maker_let_go_for_the_nearer_kind_is_said(
    index: SearchIndex, words: str, makers: list[str]
) -> None:
    # Given the sample store, whose only 2-in-1 laptops are HP's and Microsoft's
    # When a shopper asks for a tablet of a maker that makes none of them
    result = search(index, words)
    # Then the 2-in-1 laptops are shown instead, and the result says the maker was let go
    # (before, nothing said so: an HP and a Surface stood for "Samsung tablets"), and which
    # one, as the catalog writes it (before, ``relaxed`` said "brand" alone)
    assert result.not_carried == ["tablets"]
    assert result.instead == "2-in-1 laptops"
    assert result.products
    assert "brand" in result.relaxed
    assert result.understood["relaxedBrands"] == makers


@pytest.mark.parametrize(
    ("words", "let_go"),
    [
        ("an hp or samsung tablet", ["Samsung"]),
        ("a Samsung or HP tablet", ["Samsung"]),
        ("the cheapest HP or Samsung tablet", ["Samsung"]),
        ("an HP, Apple or Samsung tablet", ["Apple", "Samsung"]),
    ],
)
def test_a_maker_of_the_nearer_kind_is_kept_and_another_said_let_go(
    index: SearchIndex, words: str, let_go: list[str]
) -> None:
    # Given the sample store, whose only 2-in-1 laptops are HP's and Microsoft's
    # When a shopper asks for a tablet of either of two makers, one of which makes none
    result = search(index, words)
    # Then the HP 2-in-1 laptops are shown instead, nothing relaxed, and the makers that
    # make none are said let go (before, Samsung was dropped without a word)
    assert result.instead == "2-in-1 laptops"
    assert result.products
    assert {hit.brand for hit in result.products} == {"HP"}
    assert "brand" not in result.relaxed
    assert result.understood["relaxedBrands"] == let_go


def test_makers_of_the_nearer_kind_each_count(tmp_path: Path) -> None:
    # Given a store whose 2-in-1 laptops are HP's, Microsoft's and Samsung's
    galaxy = next(p for p in CATALOG if p["productId"] == "CMP-027")
    book360 = {
        **galaxy,
        "productId": "SAM-360",
        "name": "Samsung Galaxy Book4 360",
        "price": 899.0,
        "specs": {**galaxy["specs"], "formFactor": "2-in-1"},
    }
    opened = _open([*CATALOG, book360], tmp_path / "two-makers.sqlite")
    try:
        # When a shopper asks for a tablet of either maker, or the cheapest of them
        either = search(opened, "an HP or Samsung tablet")
        cheapest = search(opened, "the cheapest HP or Samsung tablet")
        under = search(opened, "an HP or Samsung tablet under $880")
    finally:
        opened.close()
    # Then each maker's 2-in-1 laptops are shown, none let go; the cheapest first where
    # that is asked
    for result in (either, cheapest):
        assert {hit.brand for hit in result.products} == {"HP", "Samsung"}
        assert "relaxedBrands" not in result.understood
        assert "brand" not in result.relaxed
    prices = [hit.price for hit in cheapest.products]
    assert prices == sorted(prices)  # type: ignore[type-var]
    # And under a price only one of them meets, the other is said let go
    assert {hit.brand for hit in under.products} == {"HP"}
    assert under.understood["relaxedBrands"] == ["Samsung"]


@pytest.mark.parametrize(
    ("words", "brand"),
    [("a HP tablet", "HP"), ("the cheapest Microsoft tablet", "Microsoft")],
)
def test_a_maker_of_the_nearer_kind_is_kept(index: SearchIndex, words: str, brand: str) -> None:
    # Given the sample store, whose only 2-in-1 laptops are HP's and Microsoft's
    # When a shopper asks for a tablet of a maker that makes one of them
    result = search(index, words)
    # Then only that maker's 2-in-1 laptops are shown instead, nothing let go (before,
    # another maker's stood beside them)
    assert result.instead == "2-in-1 laptops"
    assert result.products
    assert {hit.brand for hit in result.products} == {brand}
    assert "brand" not in result.relaxed
    assert "relaxedBrands" not in result.understood


def test_a_maker_not_wanted_is_not_let_go(index: SearchIndex) -> None:
    # When the shopper says which maker they do not want
    result = search(index, "a tablet, but not a Samsung")
    # Then nothing is said dropped
    assert result.instead == "2-in-1 laptops"
    assert "brand" not in result.relaxed
