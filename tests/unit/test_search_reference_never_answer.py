"""The product a price or a spec is said against is never an answer to it: "a book more
expensive than Dune" never shows a Dune, whether a book dearer than every Dune is found or
none is and the search shows the nearest instead. The store here sells its products as a
Shopify export does, a product per variant ("Dune - Paperback", "Dune - Hardcover"), and
the reference is the dearest (or the cheapest) of its kind, so that nothing is beyond it."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from shared.search import SearchIndex, SearchQuery, SearchResult, build_index


def _book(product_id: str, name: str, price: float, author: str, genre: str) -> dict[str, Any]:
    return {
        "productId": product_id,
        "name": name,
        "brand": "Ace",
        "category": "BOOKS",
        "price": price,
        "stock": 5,
        "description": f"A novel by {author}.",
        "specs": {"author": author, "genre": genre, "pages": 400},
    }


def _phone(product_id: str, name: str, brand: str, price: float) -> dict[str, Any]:
    return {
        "productId": product_id,
        "name": name,
        "brand": brand,
        "category": "MOBILE",
        "price": price,
        "stock": 5,
        "description": "A smartphone with a 6.1-inch screen.",
        "specs": {"os": "Android", "storageGb": 128, "screenInches": 6.1, "weightG": 180},
    }


def _laptop(product_id: str, name: str, brand: str, price: float, kg: float) -> dict[str, Any]:
    return {
        "productId": product_id,
        "name": name,
        "brand": brand,
        "category": "COMPUTERS",
        "price": price,
        "stock": 5,
        "description": "A 14-inch laptop for work and school.",
        "specs": {"formFactor": "laptop", "ramGb": 16, "storageGb": 512, "weightKg": kg},
    }


STORE = [
    # Dune's hardcover is the dearest book; The Hobbit's paperback the cheapest
    _book("DUNE-PB", "Dune - Paperback", 10.99, "Frank Herbert", "Science Fiction"),
    _book("DUNE-HC", "Dune - Hardcover", 29.99, "Frank Herbert", "Science Fiction"),
    _book("PHM-PB", "Project Hail Mary - Paperback", 12.99, "Andy Weir", "Science Fiction"),
    _book("PHM-HC", "Project Hail Mary - Hardcover", 28.99, "Andy Weir", "Science Fiction"),
    _book("HOBBIT-PB", "The Hobbit - Paperback", 8.99, "J.R.R. Tolkien", "Fantasy"),
    _book("TBP-PB", "The Three-Body Problem - Paperback", 9.99, "Cixin Liu", "Science Fiction"),
    # The iPhone 15's 512 GB is the dearest phone; the Galaxy A15 the cheapest
    _phone("IP15-128", "Apple iPhone 15 - 128 GB / Black", "Apple", 699.0),
    _phone("IP15-512", "Apple iPhone 15 - 512 GB / Pink", "Apple", 999.0),
    _phone("PIX-8A", "Google Pixel 8a - 128 GB / Obsidian", "Google", 399.0),
    _phone("A15-BLUE", "Samsung Galaxy A15 - 128 GB / Blue Black", "Samsung", 199.99),
    _phone("A15-LIGHT", "Samsung Galaxy A15 - 128 GB / Light Blue", "Samsung", 199.99),
    # The MacBooks are the dearest laptops, and the MacBook Air 13 the lightest
    _laptop("MBA-256", "Apple MacBook Air 13 - 256 GB / Midnight", "Apple", 1099.0, 1.24),
    _laptop("MBA-512", "Apple MacBook Air 13 - 512 GB / Starlight", "Apple", 1299.0, 1.24),
    _laptop("MBP-14", "Apple MacBook Pro 14 - 1 TB", "Apple", 1999.0, 1.55),
    _laptop("HP-15", "HP 15 Laptop - 512 GB", "HP", 549.0, 1.7),
    _laptop("E14", "Lenovo ThinkPad E14 Gen 5 - 512 GB", "Lenovo", 849.0, 1.41),
]
DUNES = {"DUNE-PB", "DUNE-HC"}
IPHONE_15S = {"IP15-128", "IP15-512"}
GALAXY_A15S = {"A15-BLUE", "A15-LIGHT"}
MACBOOKS = {"MBA-256", "MBA-512", "MBP-14"}
MACBOOK_AIRS = {"MBA-256", "MBA-512"}


def _open(products: list[dict[str, Any]], path: Path) -> SearchIndex:
    build_index(products, path)
    return SearchIndex.open(path)


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> Iterator[SearchIndex]:
    opened = _open(STORE, tmp_path_factory.mktemp("reference") / "catalog.sqlite")
    yield opened
    opened.close()


@pytest.fixture(scope="module")
def only_dune(tmp_path_factory: pytest.TempPathFactory) -> Iterator[SearchIndex]:
    """A store whose only books are Dune's two formats."""
    products = [p for p in STORE if p["category"] != "BOOKS" or p["productId"] in DUNES]
    opened = _open(products, tmp_path_factory.mktemp("only-dune") / "catalog.sqlite")
    yield opened
    opened.close()


def search(index: SearchIndex, keywords: str) -> SearchResult:
    return index.search(SearchQuery(keywords=keywords, limit=20))


@pytest.mark.parametrize(
    ("words", "reference", "bound", "value"),
    [
        ("a book more expensive than Dune", DUNES, "minPrice", 30.0),
        ("a book pricier than Dune", DUNES, "minPrice", 30.0),
        ("any books dearer than Dune?", DUNES, "minPrice", 30.0),
        ("a book cheaper than The Hobbit", {"HOBBIT-PB"}, "maxPrice", 8.98),
        ("a book for less than the Hobbit costs", {"HOBBIT-PB"}, "maxPrice", 8.98),
        ("a phone more expensive than the iPhone 15", IPHONE_15S, "minPrice", 999.01),
        ("a phone cheaper than the Galaxy A15", GALAXY_A15S, "maxPrice", 199.98),
        # a line: every product of it
        ("a laptop more expensive than the MacBook", MACBOOKS, "minPrice", 1999.01),
        # a spec said against it, not a price
        ("a laptop lighter than the MacBook Air 13", MACBOOK_AIRS, "maxWeightKg", 1.23),
    ],
)
def test_with_nothing_beyond_it_the_nearest_others_are_shown_never_the_product_itself(
    store: SearchIndex, words: str, reference: set[str], bound: str, value: float
) -> None:
    # Given a store where nothing is beyond the product the shopper compares against
    # When the shopper asks for something past it
    result = search(store, words)
    # Then the search says it dropped the limit it read, and shows the nearest to it
    assert result.understood[bound] == value, words
    assert result.relaxed and result.nearest == {bound: value}, words
    assert result.products, words
    # But never the product compared against: before, "a book more expensive than Dune"
    # showed both Dunes among the nearest, the $29.99 hardcover the nearest of all, as if
    # it were the answer
    assert not reference & set(result.product_ids), (words, result.product_ids)
    assert result.count == len(result.products), words


@pytest.mark.parametrize(
    ("words", "reference", "bound", "value"),
    [
        ("a book no more expensive than Dune", DUNES, "maxPrice", 10.99),
        ("a phone that is not cheaper than the iPhone 15", IPHONE_15S, "minPrice", 999.0),
    ],
)
def test_a_limit_at_its_own_price_finds_other_products(
    store: SearchIndex, words: str, reference: set[str], bound: str, value: float
) -> None:
    # Given a limit at the product's own price ("no more expensive than Dune": $10.99)
    result = search(store, words)
    assert result.understood[bound] == value, words
    # Then other products are found at that limit, or the nearest to it, and not the one
    # compared against: before, the $10.99 Dune paperback was listed among the books at
    # most $10.99, and the $999 iPhone 15 as the phone of at least $999
    assert result.products, words
    assert not reference & set(result.product_ids), (words, result.product_ids)


def test_a_product_dearer_than_the_reference_is_found_as_before(store: SearchIndex) -> None:
    # A book cheaper than Dune is found with no limit dropped; only it, not a Dune
    result = search(store, "a book cheaper than Dune")
    assert result.understood["maxPrice"] == 10.98
    assert not result.relaxed
    assert set(result.product_ids) == {"HOBBIT-PB", "TBP-PB"}


def test_where_the_reference_is_all_of_its_kind_nothing_is_shown(only_dune: SearchIndex) -> None:
    # Given a store whose only books are Dune's paperback and hardcover
    # When the shopper asks for a book more expensive than Dune
    result = search(only_dune, "a book more expensive than Dune")
    # Then no book is shown, rather than the Dunes as the nearest (before: both, the
    # hardcover first), and the limit read is still said
    assert result.understood["minPrice"] == 30.0
    assert result.products == [] and result.count == 0
    assert "price" in result.relaxed


@pytest.mark.parametrize(
    ("words", "reference", "kind", "bound", "value"),
    [
        ("something like Dune but cheaper", DUNES, "BOOKS", "maxPrice", 10.98),
        ("a book like Dune, but a bit cheaper", DUNES, "BOOKS", "maxPrice", 10.98),
        ("a phone like the iPhone 15 but cheaper", IPHONE_15S, "MOBILE", "maxPrice", 698.99),
        ("anything similar to the Pixel 8a but pricier?", {"PIX-8A"}, "MOBILE", "minPrice", 399.01),
    ],
)
def test_like_a_product_but_at_another_price_is_priced_against_it(
    store: SearchIndex, words: str, reference: set[str], kind: str, bound: str, value: float
) -> None:
    # Given a shopper who asks for something like a product, but cheaper (or dearer)
    result = search(store, words)
    # Then it is read as priced against that product, of its kind: before, "something
    # like Dune but cheaper" searched the word "dune" and listed the Dunes themselves,
    # the paperback first
    assert result.understood["category"] == kind, words
    assert result.understood[bound] == value, words
    assert not result.relaxed and result.products, words
    assert not reference & set(result.product_ids), (words, result.product_ids)
