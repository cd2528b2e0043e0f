"""What a shopper wants to learn is the topic searched, not the word "learning": "books for
learning python" finds the book whose title, blurb or genre says Python first, and where
none does, the search says the words matched nothing rather than offer the books whose
blurbs say someone "learns" something."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from shared.products.catalog_data import load_catalog
from shared.search import SearchIndex, SearchQuery, SearchResult, build_index

CATALOG = load_catalog()
# Blurbs of the sample store that say someone learns something: no book to learn from
LEARNS = {p["productId"] for p in CATALOG if "learns" in p["description"]}
PYTHON_BOOK = {
    "productId": "BK-PYTHON",
    "name": "Automate the Boring Stuff",
    "brand": "No Starch Press",
    "category": "BOOKS",
    "price": 29.99,
    "stock": 5,
    "description": "Practical programming for total beginners: write Python programs that "
    "do in minutes what would take you hours by hand.",
    "specs": {"author": "Al Sweigart", "genre": "Programming", "pages": 592},
}
COOKBOOK = {
    **PYTHON_BOOK,
    "productId": "BK-COOK",
    "name": "Salt, Fat, Acid, Heat",
    "description": "Mastering the elements of good cooking, with recipes and drawings.",
    "specs": {"author": "Samin Nosrat", "genre": "Cookbook", "pages": 480},
}


def _open(products: list[dict[str, Any]], path: Path) -> SearchIndex:
    build_index(products, path)
    return SearchIndex.open(path)


@pytest.fixture(scope="module")
def sample(tmp_path_factory: pytest.TempPathFactory) -> Iterator[SearchIndex]:
    """The sample store: no book on Python."""
    opened = _open(CATALOG, tmp_path_factory.mktemp("sample") / "catalog.sqlite")
    yield opened
    opened.close()


@pytest.fixture(scope="module")
def with_topics(tmp_path_factory: pytest.TempPathFactory) -> Iterator[SearchIndex]:
    """The sample store with a book on Python and a cookbook."""
    products = [*CATALOG, PYTHON_BOOK, COOKBOOK]
    opened = _open(products, tmp_path_factory.mktemp("topics") / "catalog.sqlite")
    yield opened
    opened.close()


def search(index: SearchIndex, keywords: str) -> SearchResult:
    return index.search(SearchQuery(keywords=keywords, limit=8))


@pytest.mark.parametrize(
    ("words", "book"),
    [
        ("books for learning python", "BK-PYTHON"),
        ("a book to learn Python", "BK-PYTHON"),
        ("any books for learning to cook?", "BK-COOK"),
    ],
)
def test_a_book_on_the_topic_to_learn_is_found_alone(
    with_topics: SearchIndex, words: str, book: str
) -> None:
    # Given a store with a book whose blurb says Python (or cooking)
    result = search(with_topics, words)
    # Then that book is shown, first and alone: before, "books for learning python" also
    # showed The Alchemist and Harry Potter, whose blurbs say the hero "learns"
    assert result.product_ids == [book], words
    assert not result.relaxed, words
    assert "learning" not in result.understood.get("searched", []), words


@pytest.mark.parametrize("words", ["books for learning python", "books to learn Python"])
def test_with_no_book_on_the_topic_the_search_says_its_words_matched_nothing(
    sample: SearchIndex, words: str
) -> None:
    # Given a store with no book on Python, whose blurbs say of some heroes that they learn
    assert LEARNS
    result = search(sample, words)
    # Then the search says it dropped the words, the topic no product has, and shows books
    # for what they are: before, it showed The Alchemist and Harry Potter as matching
    # "learning python", with nothing relaxed
    assert result.relaxed == ["keywords"], words
    assert result.unknown == ["python"], words
    assert result.understood["category"] == "BOOKS", words
    assert result.products and not (LEARNS & set(result.product_ids[:2])), words


def test_machine_learning_is_a_topic(sample: SearchIndex) -> None:
    # "learning" after a word is the topic's own ("machine learning"), searched as before
    result = search(sample, "books on machine learning")
    assert result.understood["searched"] == ["machine", "learning"]
