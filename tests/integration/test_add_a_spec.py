"""A new spec, declared in the catalog's vocabulary alone, reaches every part that knows specs.

The spec (a screen's refresh rate) is added to ``shared.catalog.specs.SPECS`` for this
test only, in a fresh interpreter, before anything derives from the table: exactly as a
line added to the table would be read. That interpreter then asks the store as a shopper
would (the whole loop on moto, with a replayed model), and reports what it saw: the tool
spec the model was offered, what the catalog search returned, the answer after the fact
check, how the search and the offline model read the spec in a shopper's words, the
chips the page is given, how the import reads a store's option, what the eval says of a
product, and what it makes of a snapshot built before the spec was declared. The
assertions are here.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from shared.products.catalog_data import load_catalog
from shared.search import build_index
from shared.search.build import FACET_COLUMNS

ROOT = Path(__file__).resolve().parents[2]

# Runs in its own interpreter: the table is read once, as the modules load.
PROBE = r"""
import json, sys
from pathlib import Path

import shared.catalog.specs as specs
from shared.catalog.categories import Category
from shared.catalog.spec import Bound, Chip, Fact, FactUnit, Facet, Phrase, Sort, Spec

REFRESH_RATE = Spec(
    "refreshRateHz",
    "refresh rate",
    Facet("hz", "Hz", 1, 1000, {"hz": 1.0, "hertz": 1.0}),
    (Bound("minRefreshRateHz", True, "Least screen refresh rate, Hz",
           "with a {} Hz screen or faster", "Hz"),),
    Sort("refresh", True, "smoothest screen first"),
    Fact("refresh", " Hz", absolute=0.5,
         unit=FactUnit("Hz", r"Hz|hertz|Hertz", 0, False, (1, 1000))),
    (Chip(Category.MOBILE, 8, "{} Hz", "number"),),
    ("Refresh Rate", "Screen Refresh Rate"),
    (Phrase(r"\b(\d+)\s*(hz|hertz)\b"),),
)
specs.SPECS = (*specs.SPECS, REFRESH_RATE)

from converse.handler import use_provider
from converse.scripted import ScriptedModel
from shared.search import SnapshotUnreadable, validate_snapshot
from shared.search.words import parse
from shared.api.vocabulary import page_names
from shared.products.table import shown_products
from shared.platform.mapping import spec_entry
from storechat.evaluate.products import product_faults
from storechat.evaluate.questions import Expect
from storechat.local import LocalStorechat
from storechat.offline.checks import describe
from storechat.offline.intent import parse_text
from tests.integration.converse_fixtures import asks_for_tools, replies, tool_use, write_replay


def phone(pid, name, hz):
    extra = {} if hz is None else {"refreshRateHz": hz}
    return {
        "productId": pid, "name": name, "brand": "Vivid", "category": "MOBILE",
        "price": 499.0, "description": f"The {name}, a phone.", "stock": 5,
        "specs": {"os": "Android 15", "storageGb": 128, **extra},
    }


catalog = [
    phone("MOB-901", "Vivid Nine", 120),
    phone("MOB-902", "Vivid Eight", 60),
    phone("MOB-903", "Vivid Seven", None),
]
tmp = Path(sys.argv[1])
model = write_replay(tmp, [
    asks_for_tools(tool_use("t1", "lookup_inventory",
                            {"category": "MOBILE", "minRefreshRateHz": 100})),
    replies("The Vivid Nine [MOB-901] has a smooth 90 Hz screen for $499."),
])
with LocalStorechat(model=model, catalog=catalog) as local:
    recording = ScriptedModel.from_file(Path(model.removeprefix("replay:")))
    use_provider(recording)
    result = local.ask("Which phones have a screen of at least 100 Hz?")
body = result.body or {}
offered = {t["toolSpec"]["name"]: t for t in recording.requests[0]["toolConfig"]["tools"]}
schema = offered["lookup_inventory"]["toolSpec"]["inputSchema"]["json"]["properties"]
tool_result = recording.requests[1]["messages"][-1]["content"][0]["toolResult"]
found = tool_result["content"][0]["json"]
slow = phone("MOB-902", "Vivid Eight", 60)
try:
    validate_snapshot(sys.argv[2])
    refused = None
except SnapshotUnreadable as exc:
    refused = str(exc)
print(json.dumps({
    "status": result.status,
    "field": schema.get("minRefreshRateHz"),
    "sortBy": schema["sortBy"]["enum"],
    "found": [p["productId"] for p in shown_products(found.get("products"))],
    "read": parse("a phone with a 120hz screen").bounds,
    "offline": parse_text("a phone with a 120hz screen").bounds,
    "offline_says": describe({"minRefreshRateHz": 120}),
    "answer": body.get("answer"),
    "corrections": body.get("corrections"),
    "shown": [p["productId"] for p in body.get("products") or []],
    "chips": page_names()["chips"]["MOBILE"],
    "imported": spec_entry("Screen Refresh Rate", "120 Hz"),
    "faults": product_faults(slow, Expect.model_validate({"minRefreshRateHz": 100}), None),
    "passes": product_faults(catalog[0], Expect.model_validate({"minRefreshRateHz": 100}), None),
    "refused": refused,
}))
"""


@pytest.fixture(scope="module")
def seen(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """What the store does with the new spec, as the probe reports it."""
    work = tmp_path_factory.mktemp("add-a-spec")
    # Built here, by the store as it is: before the new spec was declared
    before = build_index(load_catalog(), work / "before.sqlite").path
    done = subprocess.run(
        [sys.executable, "-c", PROBE, str(work), str(before)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    report: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    assert report["status"] == "SUCCEEDED", report
    return report


def test_the_model_is_offered_the_new_spec_as_a_filter_and_a_sort(seen: dict[str, Any]) -> None:
    # Then the catalog tool's spec has the bound, described as the table describes it
    assert seen["field"] == {
        "type": "number",
        "exclusiveMinimum": 0,
        "description": "Least screen refresh rate, Hz",
    }
    assert "refresh" in seen["sortBy"]


def test_the_search_filters_on_the_new_spec(seen: dict[str, Any]) -> None:
    # Then the search returns the 120 Hz phone, not the 60 Hz one nor the one with no rate
    assert seen["found"] == ["MOB-901"]
    assert seen["shown"] == ["MOB-901"]
    # And a shopper's "120hz" in the search's words is read as the bound
    assert seen["read"] == {"minRefreshRateHz": 120.0}


def test_the_offline_model_reads_and_says_the_new_spec(seen: dict[str, Any]) -> None:
    # Then the offline model reads the shopper's "120hz" through the spec's phrase, with
    # the search's own reading, and says the bound with the unit the table gives it
    assert seen["offline"] == {"minRefreshRateHz": 120.0}
    assert seen["offline_says"] == ["at least 120 Hz"]


def test_a_wrong_value_of_the_new_spec_is_corrected_in_the_answer(seen: dict[str, Any]) -> None:
    # Then the shopper reads the record's refresh rate, not the model's
    assert "120 Hz" in seen["answer"] and "90 Hz" not in seen["answer"], seen["answer"]
    assert [(c["field"], c["said"], c["record"]) for c in seen["corrections"]] == [
        ("refreshRateHz", "90 Hz", "120 Hz")
    ]


def test_the_page_and_the_import_know_the_new_spec(seen: dict[str, Any]) -> None:
    # Then a phone's card shows it, after the chips declared before it
    assert seen["chips"][-1] == {"spec": "refreshRateHz", "label": "{} Hz", "format": "number"}
    # And a store's "Screen Refresh Rate: 120 Hz" imports as the number
    assert seen["imported"] == ["refreshRateHz", 120]


def test_an_eval_question_can_bound_the_new_spec(seen: dict[str, Any]) -> None:
    # Then a question's expect takes the bound, and its check reads the product's value
    assert seen["faults"] == ["MOB-902 60 Hz (wanted ≥ 100 Hz)"]
    assert seen["passes"] == []


def test_a_snapshot_built_before_the_new_spec_is_not_served(seen: dict[str, Any]) -> None:
    # Then a snapshot without the spec's column is refused, saying why, instead of
    # being searched as if it could filter on it (the publisher builds a new one)
    before = ", ".join(FACET_COLUMNS)
    assert seen["refused"] == (
        f"snapshot: before.sqlite: built with the facets {before}; this code declares {before},"
        " refresh_rate_hz: publish a snapshot built by this code"
    )
