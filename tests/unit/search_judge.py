"""The judge of the search's judged sets: does a product satisfy what the shopper meant?

A judged set (``search_judgements.json``, ``search_typo_judgements.json``) holds
searches in shoppers' words and, for each, the constraints a right product meets;
:func:`judge` searches each one in an index and counts the first results that meet
them. The constraint names are listed in each file's ``about``.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from shared.search import SearchIndex, SearchQuery

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
            raise AssertionError(f"unknown constraint {name!r}")
    return [name for name, ok in checks.items() if not ok]


def judged_queries(path: Path) -> list[dict[str, Any]]:
    queries: list[dict[str, Any]] = json.loads(path.read_text(encoding="utf-8"))["queries"]
    return queries


@dataclass
class Verdict:
    """How a judged set fared: searches that found nothing, results judged, and searches
    whose every judged result is right."""

    queries: int
    zero: list[str] = field(default_factory=list)
    judged: int = 0
    satisfied: int = 0
    passed: int = 0
    """Searches that found something and whose every judged result satisfies them."""
    misses: list[str] = field(default_factory=list)

    @property
    def zero_rate(self) -> float:
        return len(self.zero) / self.queries

    @property
    def precision(self) -> float:
        """Of the results judged, the share that satisfies its search (an empty answer
        judges nothing: it counts in ``zero_rate``)."""
        return self.satisfied / self.judged if self.judged else 0.0

    @property
    def pass_rate(self) -> float:
        return self.passed / self.queries


def judge(
    index: SearchIndex, queries: list[dict[str, Any]], records: dict[str, dict[str, Any]]
) -> Verdict:
    """Search every query of a judged set and judge its first ``top`` results (five unless
    the query says fewer)."""
    verdict = Verdict(len(queries))
    for query in queries:
        result = index.search(SearchQuery.from_input(query["input"]))
        if not result.products:
            verdict.zero.append(query["ask"])
            continue
        right = 0
        shown = result.products[: query.get("top", 5)]
        for rank, hit in enumerate(shown, start=1):
            failed = unmet(records[hit.productId], query["must"])
            right += not failed
            if failed:
                verdict.misses.append(
                    f"{query['ask']!r} #{rank} {hit.name}: fails {', '.join(failed)}"
                )
        verdict.judged += len(shown)
        verdict.satisfied += right
        verdict.passed += right == len(shown)
    return verdict
