"""What a search asked for that the catalog does not carry, in the search's own reading:
words none of the catalog's (and not read as one of them), and a brand it does not have.
``storechat insights`` reports these as the store's unmet demand."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from lookup_inventory.logic import run
from shared.api.contract import ToolUse
from shared.products.catalog_data import load_catalog
from shared.search import SearchIndex, SearchQuery, build_index

CATALOG = load_catalog()


@pytest.fixture(scope="module")
def index(tmp_path_factory: pytest.TempPathFactory) -> Iterator[SearchIndex]:
    path = tmp_path_factory.mktemp("demand") / "catalog.sqlite"
    build_index(CATALOG, path)
    opened = SearchIndex.open(path)
    yield opened
    opened.close()


def search(index: SearchIndex, **fields: Any) -> Any:
    return index.search(SearchQuery.from_input(fields))


def test_a_brand_the_catalog_does_not_carry_is_unknown(index: SearchIndex) -> None:
    result = search(index, brandId="Fairphone", category="MOBILE")
    assert result.unknown == ["Fairphone"]
    # and a brand it carries, even written in part or in another case, is not
    assert search(index, brandId="samsung").unknown == []


def test_words_none_of_the_catalogs_are_unknown_and_found_nothing(index: SearchIndex) -> None:
    result = search(index, keywords="garmin smartwatch")
    assert {w.casefold() for w in result.unknown} == {"garmin", "smartwatch"}
    # nothing else named what was wanted: no product stands in for them
    assert (result.count, result.relaxed) == (0, [])


def test_a_misspelt_word_the_search_reads_as_the_catalogs_is_not_unknown(
    index: SearchIndex,
) -> None:
    result = search(index, keywords="samsnug phone")
    assert result.corrected == {"samsnug": "samsung"}
    assert result.unknown == []


def test_the_catalog_tool_puts_the_demand_on_its_trace_line(index: SearchIndex) -> None:
    call = ToolUse(toolUseId="t1", name="lookup_inventory", input={"keywords": "garmin watch"})
    output = run(call, index=lambda: index, source=None, max_results=8)
    demand = output.dump()["trace"]["demand"]
    assert demand["unknown"] == ["garmin"]
    searched = search(index, keywords="garmin watch")
    assert (demand["found"], demand["relaxed"]) == (searched.count, searched.relaxed)
    # and a lookup by id asks for nothing the store might lack: no demand on its line
    by_id = ToolUse(
        toolUseId="t2", name="lookup_inventory", input={"productIds": [CATALOG[0]["productId"]]}
    )
    assert (
        "demand" not in run(by_id, index=lambda: index, source=None, max_results=8).dump()["trace"]
    )
