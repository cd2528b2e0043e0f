"""``python -m bench --quick`` writes the whole results table. No timing is asserted here."""

from __future__ import annotations

import json
import numbers
import re
from pathlib import Path
from typing import Any

import pytest

from bench.__main__ import main
from bench.report import SECTIONS


def _number(value: Any) -> bool:
    return isinstance(value, numbers.Real) and not isinstance(value, bool)


def test_quick_run_writes_every_section_with_measured_numbers(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # Given the smoke profile, When the benchmark runs in-process
    assert main(["--quick", "--out", str(tmp_path)]) == 0

    # Then it wrote the Markdown and the JSON, and printed the table
    markdown = (tmp_path / "results.md").read_text(encoding="utf-8")
    results = json.loads((tmp_path / "results.json").read_text(encoding="utf-8"))
    assert "## Summary" in capsys.readouterr().out

    # And the Markdown has every section, in order
    positions = [markdown.index(heading) for heading in SECTIONS]
    assert positions == sorted(positions)

    # And every headline figure is a number, in the JSON and in the table
    assert results["summary"]
    for row in results["summary"]:
        assert re.search(r"\d", row["value"]), row
        assert row["value"] in markdown

    # Tokens: both modes were measured, and the naive tool sends the model more
    tokens = results["tokens"]
    assert tokens["questions"]
    assert 0 < tokens["totals"]["compact_input"] < tokens["totals"]["naive_input"]
    assert 0 < tokens["caching"]["share_served"] < 1
    assert all(row["bytes"] > 0 for row in tokens["naive_at_scale"])

    # Payload: four scenarios, each with peaks read from the history
    payload = results["payload"]
    assert len(payload["scenarios"]) == 4
    for scenario in payload["scenarios"]:
        for peak in ("state_input", "state_output", "converse_payload"):
            assert scenario["peaks"][peak]["bytes"] > 0, (scenario["name"], peak)
    assert payload["fields_measured"]

    # Parallel tools: three tools ran and the round was timed from the history
    parallel = results["parallel"]
    assert all(run["tools_run"] == 3 for run in parallel["runs"])
    assert _number(parallel["round_ms"]) and _number(parallel["sum_of_tools_ms"])

    # Tool Lambdas: latency, import and memory figures are numbers
    lam = results["lambdas"]
    for row in lam["latency"]:
        for kind in ("hit_ms", "miss_ms"):
            assert row[kind]["n"] > 0 and _number(row[kind]["p50"]) and _number(row[kind]["p99"])
    assert {row["server"] for row in lam["latency"]} == {"fast", "moto"}
    assert all(_number(v["import_ms"]["p50"]) for v in lam["imports"].values())
    assert all(m["rss_peak_mb"] > 0 for m in lam["memory"])

    # End to end and cost
    assert results["e2e"]["questions"] > 0 and _number(results["e2e"]["wall_ms"]["p99"])
    cost = results["cost"]
    for arch in ("arm64", "x86_64"):
        assert cost["infrastructure"]["by_architecture"][arch]["total_usd"] > 0
    assert set(cost["tokens"]) == {"compact", "naive", "cached"}
    assert all(t["usd"] > 0 for t in cost["tokens"].values())

    # And the run says how long it took (measured, never compared with a limit here)
    assert _number(results["meta"]["run_seconds"])
