"""Titles asked for together, none of which the store has ("do you have Dune or
Neuromancer?"), are each said not carried on their own, not as one name "Dune or
Neuromancer"; a title that itself holds "and" or a comma stays whole."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from shared.products.catalog_data import load_catalog
from shared.search import SearchIndex, SearchQuery, SearchResult, build_index


@pytest.fixture(scope="module")
def index(tmp_path_factory: pytest.TempPathFactory) -> Iterator[SearchIndex]:
    path = tmp_path_factory.mktemp("apart") / "catalog.sqlite"
    build_index(load_catalog(), path)
    opened = SearchIndex.open(path)
    yield opened
    opened.close()


def search(index: SearchIndex, keywords: str) -> SearchResult:
    return index.search(SearchQuery(keywords=keywords, limit=5))


@pytest.mark.parametrize(
    ("words", "lacked"),
    [
        ("do you have Dune or Neuromancer?", ["Dune", "Neuromancer"]),
        ("Do you have Little Women or Good Omens?", ["Little Women", "Good Omens"]),
        ("do you sell Dune, Neuromancer or Good Omens?", ["Dune", "Neuromancer", "Good Omens"]),
    ],
)
def test_titles_none_carried_are_each_not_carried(
    index: SearchIndex, words: str, lacked: list[str]
) -> None:
    # Given the sample store, which has none of these books
    # When a shopper asks for several titles at once
    result = search(index, words)
    # Then each is said not carried on its own (before: "Dune or Neuromancer", one name
    # the store was told it lacks)
    assert result.not_carried == lacked
    assert result.products == []


@pytest.mark.parametrize(
    ("words", "lacked"),
    [
        ("do you have Pride and Prejudice or Dune?", ["Dune"]),
        ("do you have Harry Potter and the Philosopher's Stone or Dune?", ["Dune"]),
        ("Do you have The Lion, the Witch and the Wardrobe?", []),
        ("do you have Pride and Prejudice?", []),
    ],
)
def test_a_title_holding_and_or_a_comma_is_not_split(
    index: SearchIndex, words: str, lacked: list[str]
) -> None:
    # Given the sample store, which has these titles with "and" and a comma
    result = search(index, words)
    # Then no part of such a title is said not carried
    assert result.not_carried == lacked
