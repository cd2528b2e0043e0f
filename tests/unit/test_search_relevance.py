"""Relevance of the catalog search on shoppers' requests, judged (issue 11, part 3).

``search_judgements.json`` holds requests in shoppers' words and, for each, what a
right product satisfies. Every request is searched in an index of the bundled
catalog; two figures come out, printed and held to the issue's bar:

* zero-result rate: requests that found nothing (at most 5 %);
* top-five precision: of the first results judged (five, or fewer where fewer right
  products exist), the share that satisfies the request (at least 90 %).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from shared.catalog_data import load_catalog
from shared.search import SearchIndex, SearchQuery, build_index

JUDGEMENTS = Path(__file__).with_name("search_judgements.json")
MAX_ZERO_RESULT_RATE = 0.05
MIN_TOP_PRECISION = 0.90
# bound -> (spec key, True when the bound is a minimum)
SPEC_BOUNDS = {
    "minRamGb": ("ramGb", True),
    "minStorageGb": ("storageGb", True),
    "minBatteryHours": ("batteryHours", True),
    "minBatteryMah": ("batteryMah", True),
    "minCameraMp": ("cameraMp", True),
    "minScreenInches": ("screenInches", True),
    "maxScreenInches": ("screenInches", False),
}
DEDICATED = ("rtx", "gtx", "geforce", "radeon rx", "arc a")


def _any_in(options: list[str], text: str) -> bool:
    return any(option.casefold() in text.casefold() for option in options)


def _weight_kg(specs: dict[str, Any]) -> float | None:
    if isinstance(specs.get("weightKg"), int | float):
        return float(specs["weightKg"])
    if isinstance(specs.get("weightG"), int | float):
        return float(specs["weightG"]) / 1000
    return None


def unmet(record: dict[str, Any], must: dict[str, Any]) -> list[str]:
    """The constraints of ``must`` that ``record`` (a full catalog record) fails."""
    specs: dict[str, Any] = record.get("specs") or {}
    text = " ".join([record["name"], record["description"], *map(str, specs.values())])
    checks: dict[str, bool] = {}
    for name, wanted in must.items():
        if name == "category":
            checks[name] = record["category"] == wanted
        elif name in ("brand", "name"):
            checks[name] = _any_in(wanted, record[name])
        elif name in ("os", "author", "genre"):
            checks[name] = _any_in(wanted, str(specs.get(name, "")))
        elif name == "formFactor":
            checks[name] = specs.get("formFactor") in wanted
        elif name == "text":
            checks[name] = _any_in(wanted, text)
        elif name == "minPrice":
            checks[name] = record["price"] >= wanted
        elif name == "maxPrice":
            checks[name] = record["price"] <= wanted
        elif name == "maxWeightKg":
            weight = _weight_kg(specs)
            checks[name] = weight is not None and weight <= wanted
        elif name == "dedicatedGpu":
            checks[name] = _any_in(list(DEDICATED), str(specs.get("gpu", ""))) == wanted
        elif name in SPEC_BOUNDS:
            key, minimum = SPEC_BOUNDS[name]
            value = specs.get(key)
            # 0 means "none": a desktop's battery, a tower's screen
            if not isinstance(value, int | float) or value <= 0:
                checks[name] = False
            else:
                checks[name] = value >= wanted if minimum else value <= wanted
        else:
            raise AssertionError(f"unknown constraint {name!r} in {JUDGEMENTS.name}")
    return [name for name, ok in checks.items() if not ok]


@pytest.fixture(scope="module")
def index(tmp_path_factory: pytest.TempPathFactory) -> SearchIndex:
    path = tmp_path_factory.mktemp("relevance") / "catalog.sqlite"
    build_index(load_catalog(), path)
    return SearchIndex.open(path)


def _judgements() -> list[dict[str, Any]]:
    queries: list[dict[str, Any]] = json.loads(JUDGEMENTS.read_text(encoding="utf-8"))["queries"]
    return queries


def test_the_judged_set_is_large_enough_and_well_formed() -> None:
    queries = _judgements()
    assert len(queries) >= 40
    for query in queries:
        assert set(query) <= {"ask", "input", "must", "top"}, query
        assert query["must"], query
        SearchQuery.from_input(query["input"])  # only fields the tool takes


def test_relevance_on_shoppers_requests(
    index: SearchIndex, capsys: pytest.CaptureFixture[str]
) -> None:
    records = {record["productId"]: record for record in load_catalog()}
    zero: list[str] = []
    judged = satisfied = 0
    misses: list[str] = []
    for query in _judgements():
        result = index.search(SearchQuery.from_input(query["input"]))
        if not result.products:
            zero.append(query["ask"])
            continue
        for rank, hit in enumerate(result.products[: query.get("top", 5)], start=1):
            failed = unmet(records[hit.productId], query["must"])
            judged += 1
            satisfied += not failed
            if failed:
                misses.append(f"{query['ask']!r} #{rank} {hit.name}: fails {', '.join(failed)}")
    queries = len(_judgements())
    zero_rate = len(zero) / queries
    precision = satisfied / judged
    with capsys.disabled():
        print(
            f"\nsearch relevance on {queries} judged requests: zero-result rate "
            f"{zero_rate:.1%} ({len(zero)}), top-five precision {precision:.1%} "
            f"({satisfied}/{judged} results satisfy their request)"
        )
        for line in misses:
            print(f"  miss: {line}")
    assert zero_rate <= MAX_ZERO_RESULT_RATE, f"no result for: {zero}"
    assert precision >= MIN_TOP_PRECISION, "\n".join(misses)


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
