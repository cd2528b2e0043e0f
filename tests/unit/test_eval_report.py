"""The report's totals, its Markdown and JSON, ``--compare``, the floor, and the prices."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from shared.config.pricing import PRICE_LIST_PATH
from storechat.evaluate import report
from storechat.evaluate.compare import (
    ReportInvalid,
    below_floor,
    below_floors,
    compare,
    floor_of,
    floors_of,
    load_report,
    markdown,
)
from storechat.evaluate.pricing import pricing_for

NO_SCORES = {"constraints": None, "facts": None, "citations": True, "tools": None, "outcome": None}


def entry(qid: str, kind: str, passed: bool, **fields: Any) -> dict[str, Any]:
    scores = {**NO_SCORES, **fields.pop("scores", {})}
    return {
        "id": qid,
        "kind": kind,
        "source": f"evals/q.jsonl:{qid}",
        "turns": [f"question {qid}"],
        "passed": passed,
        "scores": scores,
        "constraintShare": None,
        "corrections": 0,
        "factsChecked": None,
        "factAccuracy": None,
        "failures": [] if passed else ["outcome: declines: answered 'Hi'"],
        "checks": [],
        "outcome": "answered",
        "fallbackReason": None,
        "products": [],
        "tools": [],
        "answer": "Hi | there",
        "usage": {
            "inputTokens": 1000,
            "cacheReadInputTokens": 0,
            "cacheWriteInputTokens": 0,
            "outputTokens": 100,
        },
        "modelCalls": 2,
        "toolRounds": 1,
        "latencyMs": 400,
        "costUsd": 0.0045,
        **fields,
    }


def run(*questions: dict[str, Any], started: str = "2026-11-30T10:00:00+00:00") -> dict[str, Any]:
    entries = list(questions)
    return {
        "format": report.FORMAT,
        "model": "offline",
        "modelLabel": "offline model",
        "pricing": {"modelId": "m", "name": "M", "note": "priced as M"},
        "catalog": "the bundled sample",
        "questionFiles": ["evals/q.jsonl"],
        "startedAt": started,
        "elapsedS": 1.0,
        "totals": report.totals(entries),
        "questions": entries,
    }


QUESTIONS = [
    entry("a", "budget", True, scores={"constraints": True}, constraintShare=1.0),
    entry(
        "b",
        "budget",
        False,
        scores={"constraints": False, "outcome": False},
        constraintShare=0.5,
        corrections=2,
        latencyMs=1200,
    ),
    entry("c", "hostile", False, scores={"outcome": False}, costUsd=None),
]


def test_totals_give_pass_rates_per_score_and_per_kind() -> None:
    t = report.totals(QUESTIONS)
    assert (t["questions"], t["passed"]) == (3, 1)
    assert t["scores"]["constraints"] == {"questions": 2, "passed": 1, "rate": 0.5}
    assert t["scores"]["outcome"] == {"questions": 2, "passed": 0, "rate": 0.0}
    assert t["scores"]["tools"] == {"questions": 0, "passed": 0, "rate": None}
    assert t["kinds"] == {
        "budget": {"questions": 2, "passed": 1, "rate": 0.5},
        "hostile": {"questions": 1, "passed": 0, "rate": 0.0},
    }
    assert t["constraintShare"] == 0.75
    assert t["facts"]["corrections"] == 2 and t["facts"]["questionsWithCorrections"] == 1
    assert t["usage"]["inputTokens"] == 3000 and t["perQuestion"]["outputTokens"] == 100
    assert t["latencyMs"]["max"] == 1200 and t["latencyMs"]["p50"] == 400
    assert t["costUsd"] is None  # one question could not be priced: no total is made up


def test_the_markdown_has_the_totals_a_row_per_question_and_what_failed(tmp_path: Path) -> None:
    written = report.write(tmp_path / "out", run(*QUESTIONS))
    assert [p.name for p in written] == ["report.md", "report.json"]
    md = (tmp_path / "out" / "report.md").read_text(encoding="utf-8")
    assert "**1 of 3 questions pass (33.3%)**" in md
    assert "| constraints | 2 | 1 | 50.0% |" in md
    assert "| hostile | 1 | 0 | 0.0% |" in md
    assert "| 2 | b | budget | **fail** | ✗ | · | ✓ | · | ✗ | 1,000 / 100 | 2 | 1,200 |" in md
    assert "- **c** (hostile, `evals/q.jsonl:c`): “question c”" in md
    assert "Hi \\| there" in md  # a pipe in an answer does not break the table
    assert "fact accuracy: the fact check corrected 2 facts, in 1 of 3 questions" in md
    saved = json.loads((tmp_path / "out" / "report.json").read_text(encoding="utf-8"))
    assert saved["totals"]["passed"] == 1 and len(saved["questions"]) == 3


def test_compare_lists_what_got_better_and_worse(tmp_path: Path) -> None:
    old = run(*QUESTIONS)
    new = run(
        entry("a", "budget", False, scores={"constraints": False}),
        entry("b", "budget", True, scores={"constraints": True, "outcome": True}),
        entry("d", "hostile", True, scores={"outcome": True}),
        started="2026-11-30T11:00:00+00:00",
    )
    c = compare(old, new)
    assert c["better"] == ["b"]
    assert c["worse"] == [{"id": "a", "failures": ["outcome: declines: answered 'Hi'"]}]
    assert (c["added"], c["removed"]) == (["d"], ["c"])
    assert c["rates"]["all expectations"] == [pytest.approx(1 / 3), pytest.approx(2 / 3)]
    text = "\n".join(markdown(c))
    assert "- better (passes now, failed before): b" in text
    assert "- worse (fails now, passed before): a" in text
    assert "| all expectations | 33.3% | 66.7% | +33.3 points |" in text
    assert "| kind budget | 50.0% | 50.0% | +0.0 points |" in text


def test_a_report_file_is_read_back_and_anything_else_is_refused(tmp_path: Path) -> None:
    report.write(tmp_path, run(*QUESTIONS))
    assert load_report(tmp_path / "report.json")["totals"]["questions"] == 3
    for text, says in [("{", "not valid JSON"), ("[]", "not a storechat eval report")]:
        bad = tmp_path / "bad.json"
        bad.write_text(text, encoding="utf-8")
        with pytest.raises(ReportInvalid, match=says):
            load_report(bad)
    with pytest.raises(ReportInvalid, match="cannot be read"):
        load_report(tmp_path / "missing.json")


def test_the_floor_is_the_score_rounded_down_and_a_drop_below_it_is_named() -> None:
    t = report.totals(QUESTIONS)
    floor = floor_of(t)
    assert floor["passRate"] == 0.33 and floor["scores"]["constraints"] == 0.5
    assert floor["kinds"] == {"budget": 0.5, "hostile": 0.0}
    assert below_floor(t, floor) == []
    raised = {**floor, "passRate": 0.5, "kinds": {"hostile": 0.1, "absent": None}}
    assert below_floor(t, raised) == ["passRate: 0.33333 < 0.5", "kinds.hostile: 0 < 0.1"]


def test_the_offline_and_replay_models_are_priced_as_the_model_they_stand_in_for() -> None:
    offline = pricing_for("offline")
    assert offline.name == "Claude Sonnet 4.5"
    assert "stands in for" in offline.note
    listed = json.loads(PRICE_LIST_PATH.read_text(encoding="utf-8"))
    prices = listed["models"][offline.model_id]
    cost = offline.cost({"inputTokens": 1000, "outputTokens": 1000, "cacheReadInputTokens": 1000})
    assert cost == pytest.approx(
        prices["per_1k_input"] + prices["per_1k_output"] + prices["per_1k_cache_read"]
    )
    assert pricing_for("replay:/tmp/x.json").model_id == offline.model_id


def test_a_bedrock_model_is_found_through_its_inference_profile() -> None:
    haiku = pricing_for("bedrock:us.anthropic.claude-haiku-4-5-20251001-v1:0")
    # priced as called: the us. profile costs the model's regional premium over the list
    assert haiku.name == "Claude Haiku 4.5 (us profile, +10 %)" and "stands in" not in haiku.note
    assert pricing_for("bedrock").name == "Claude Sonnet 4.5 (us profile, +10 %)"  # the default


def test_a_model_without_a_list_price_has_no_cost(tmp_path: Path) -> None:
    unknown = pricing_for("bedrock:example.not-a-listed-model-v1:0")
    assert unknown.cost({"inputTokens": 10}) is None
    assert "not in model_prices.json" in unknown.note
    missing = pricing_for("offline", tmp_path / "none.json")
    assert missing.cost({"inputTokens": 10}) is None and "cannot be read" in missing.note


HELD_OUT = [
    entry("h1", "typo", False, set="heldout", scores={"constraints": False}),
    entry("h2", "typo", True, set="heldout", scores={"constraints": True}),
    entry("h3", "unclear", False, set="heldout", scores={"outcome": False}),
    entry("h4", "typo", False, set="heldout", scores={"constraints": False}),
]


def run_with_sets(*questions: dict[str, Any], started: str = "2026-12-02T10:00:00+00:00") -> Any:
    body = run(*questions, started=started)
    body["sets"] = report.by_set(body["questions"])
    body["sets"]["heldout"]["catalogs"] = ["the bundled sample and heldout/catalog.jsonl"]
    return body


def test_each_set_has_its_own_totals_and_a_question_without_a_set_is_development() -> None:
    sets = report.by_set([*QUESTIONS, *HELD_OUT])
    assert list(sets) == ["development", "heldout"]
    assert (
        sets["development"]["totals"]["questions"],
        sets["development"]["totals"]["passed"],
    ) == (
        3,
        1,
    )
    held = sets["heldout"]["totals"]
    assert (held["questions"], held["passed"]) == (4, 1)
    assert held["kinds"]["typo"] == {"questions": 3, "passed": 1, "rate": pytest.approx(1 / 3)}
    assert "not read while changing it" in sets["heldout"]["label"]
    assert list(report.by_set(QUESTIONS)) == ["development"]


def test_the_markdown_reports_each_set_apart(tmp_path: Path) -> None:
    # Given a run of both sets
    report.write(tmp_path, run_with_sets(*QUESTIONS, *HELD_OUT))
    md = (tmp_path / "report.md").read_text(encoding="utf-8")
    # Then a table sets them side by side, and each has its totals, kinds and questions
    assert "| development | 3 | 1 | 33.3% | 50.0% | n/a | 100.0% | n/a | 0.0% |" in md
    assert "| heldout | 4 | 1 | 25.0% | 33.3% | n/a | 100.0% | n/a | 0.0% |" in md
    development, held_out = md.split("## development: ")[1].split("## heldout: ")
    assert "**1 of 3 questions pass (33.3%)**" in development and "h1" not in development
    assert "**1 of 4 questions pass (25.0%)**" in held_out and "| b |" not in held_out
    assert "| typo | 3 | 1 | 33.3% |" in held_out
    assert "- answered from the bundled sample and heldout/catalog.jsonl" in held_out
    assert "### What failed" in held_out and "- **h3** (unclear" in held_out


def test_compare_reads_each_set_of_both_reports() -> None:
    # Given a report from before sets (development only) and a run of both sets
    old = run(*QUESTIONS)
    new = run_with_sets(
        entry("a", "budget", True), *QUESTIONS[1:], *HELD_OUT, started="2026-12-02T11:00:00+00:00"
    )
    # When they are compared
    c = compare(old, new)
    # Then each set is compared on its own; the held-out set was not run before
    assert c["sets"]["development"]["rates"]["all expectations"] == [
        pytest.approx(1 / 3),
        pytest.approx(1 / 3),
    ]
    assert c["sets"]["heldout"]["rates"]["all expectations"] == [None, 0.25]
    assert c["sets"]["heldout"]["kinds"]["typo"] == [None, pytest.approx(1 / 3)]
    text = "\n".join(markdown(c))
    assert "### heldout" in text and "| kind unclear | n/a | 0.0% |  |" in text
    assert c["added"] == ["h1", "h2", "h3", "h4"]


def test_a_floor_file_holds_each_set_to_its_own_floor() -> None:
    sets = report.by_set([*QUESTIONS, *HELD_OUT])
    floors = floors_of(sets)
    assert floors["sets"]["heldout"]["passRate"] == 0.25
    assert floors["sets"]["heldout"]["kinds"] == {"typo": 0.33, "unclear": 0.0}
    assert below_floors(sets, floors) == []
    raised = {"sets": {**floors["sets"], "heldout": {"passRate": 0.3}}}
    assert below_floors(sets, raised) == ["heldout passRate: 0.25000 < 0.3"]
    only_development = report.by_set(QUESTIONS)
    assert below_floors(only_development, floors) == ["heldout: no questions of this set were run"]
