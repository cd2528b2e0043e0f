"""Relevance of the catalog search on shoppers' requests, judged (issue 11, part 3).

``search_judgements.json`` holds requests in shoppers' words and, for each, what a
right product satisfies. Every request is searched in an index of the bundled
catalog; two figures come out, printed and held to the issue's bar:

* zero-result rate: requests that found nothing (at most 5 %);
* top-five precision: of the first results judged (five, or fewer where fewer right
  products exist), the share that satisfies the request (at least 90 %).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from shared.products.catalog_data import load_catalog
from shared.search import SearchIndex, SearchQuery, build_index
from tests.unit.search_judge import judge, judged_queries, unmet

JUDGEMENTS = Path(__file__).with_name("search_judgements.json")
MAX_ZERO_RESULT_RATE = 0.05
MIN_TOP_PRECISION = 0.90


@pytest.fixture(scope="module")
def index(tmp_path_factory: pytest.TempPathFactory) -> SearchIndex:
    path = tmp_path_factory.mktemp("relevance") / "catalog.sqlite"
    build_index(load_catalog(), path)
    return SearchIndex.open(path)


def test_the_judged_set_is_large_enough_and_well_formed() -> None:
    queries = judged_queries(JUDGEMENTS)
    assert len(queries) >= 40
    for query in queries:
        assert set(query) <= {"ask", "input", "must", "top"}, query
        assert query["must"], query
        SearchQuery.from_input(query["input"])  # only fields the tool takes


def test_relevance_on_shoppers_requests(
    index: SearchIndex, capsys: pytest.CaptureFixture[str]
) -> None:
    records = {record["productId"]: record for record in load_catalog()}
    verdict = judge(index, judged_queries(JUDGEMENTS), records)
    with capsys.disabled():
        print(
            f"\nsearch relevance on {verdict.queries} judged requests: zero-result rate "
            f"{verdict.zero_rate:.1%} ({len(verdict.zero)}), top-five precision "
            f"{verdict.precision:.1%} ({verdict.satisfied}/{verdict.judged} results satisfy "
            "their request)"
        )
        for line in verdict.misses:
            print(f"  miss: {line}")
    assert verdict.zero_rate <= MAX_ZERO_RESULT_RATE, f"no result for: {verdict.zero}"
    assert verdict.precision >= MIN_TOP_PRECISION, "\n".join(verdict.misses)


@pytest.mark.parametrize(
    ("record", "must", "failed"),
    [
        ({"category": "MOBILE", "specs": {"weightG": 170}}, {"maxWeightKg": 0.2}, []),
        ({"category": "MOBILE", "specs": {"weightG": 240}}, {"maxWeightKg": 0.2}, ["maxWeightKg"]),
        ({"category": "COMPUTERS", "specs": {"ramGb": 8}}, {"minRamGb": 16}, ["minRamGb"]),
        ({"category": "COMPUTERS", "specs": {}}, {"minRamGb": 16}, ["minRamGb"]),
        ({"category": "COMPUTERS", "specs": {"gpu": "Intel Iris Xe"}}, {"dedicatedGpu": True},
         ["dedicatedGpu"]),
    ],
)  # fmt: skip
def test_the_judge_reads_specs_as_a_shopper_would(
    record: dict[str, Any], must: dict[str, Any], failed: list[str]
) -> None:
    full = {"name": "X", "brand": "B", "description": "", "price": 1.0, **record}
    assert unmet(full, must) == failed
