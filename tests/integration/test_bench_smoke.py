"""``python -m bench --quick`` writes the whole results table. No timing is asserted here.

The bench runs as ``make bench`` runs it: its own interpreter, started from the
repository, with none of the Powertools settings a test or a shell might have exported.
"""

from __future__ import annotations

import json
import numbers
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import registry
from bench.report import SECTIONS

REPO_ROOT = Path(__file__).resolve().parents[2]
HANG_GUARD_S = 600
"""Only so that a hung run fails instead of blocking CI; not a speed bound."""


def _number(value: Any) -> bool:
    return isinstance(value, numbers.Real) and not isinstance(value, bool)


def _fresh_shell_environment() -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("POWERTOOLS_")}
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(REPO_ROOT), env.get("PYTHONPATH")]))
    return env


def test_quick_run_writes_every_section_with_measured_numbers(tmp_path: Path) -> None:
    # Given the smoke profile and a shell without POWERTOOLS_* settings
    # When the benchmark runs as its own process
    done = subprocess.run(
        [sys.executable, "-m", "bench", "--quick", "--out", str(tmp_path)],
        cwd=REPO_ROOT,
        env=_fresh_shell_environment(),
        capture_output=True,
        text=True,
        timeout=HANG_GUARD_S,
        check=False,
    )

    # Then it succeeds, and prints the table with its figures
    assert done.returncode == 0, done.stderr[-4000:]
    assert "Traceback" not in done.stderr, done.stderr[-4000:]
    assert "## Summary" in done.stdout

    # And it wrote the Markdown and the JSON
    markdown = (tmp_path / "results.md").read_text(encoding="utf-8")
    results = json.loads((tmp_path / "results.json").read_text(encoding="utf-8"))
    assert results["meta"]["profile"] == "quick"

    # And the Markdown has every section, in order
    positions = [markdown.index(heading) for heading in SECTIONS]
    assert positions == sorted(positions)

    # And every headline figure is a number, in the JSON, in the file and on stdout
    assert results["headline"]
    for row in results["headline"]:
        assert re.search(r"\d", row["value"]), row
        assert row["value"] in markdown
        assert row["value"] in done.stdout

    # And the flat summary holds every figure issue 12 asks for, each printed with its target
    summary = results["summary"]
    models = set(results["cost"]["models"])
    sizes = {str(row["products"]) for row in results["search"]}
    for name in ("input_tokens_ratio_vs_naive", "cold_import_ms_max", "peak_state_kib"):
        assert _number(summary[name]) and summary[name] > 0, name
    assert _number(summary["tool_round_ratio"])
    for name in ("cache_read_share", "cost_per_1k_questions_usd"):
        assert set(summary[name]) == models and all(map(_number, summary[name].values())), name
    for name in ("lookup_warm_p50_ms", "lookup_warm_p99_ms", "lookup_cold_ms"):
        assert set(summary[name]) == sizes and all(map(_number, summary[name].values())), name
    assert set(summary["peer_input_tokens_per_question"]) == {"storechat", "strands", "naive"}

    # And issue 17's: every function's cold invoke against its timeout, whether the CPU
    # share was applied (and said so when it was not), and the churn's figures
    shares = summary["cold_invoke_share_of_timeout"]
    keys = {key.split(":")[0] for key in shares}
    assert keys == {f.key for f in registry.FUNCTIONS} and all(map(_number, shares.values()))
    assert isinstance(summary["cold_invoke_cpu_limited"], bool)
    if not summary["cold_invoke_cpu_limited"]:
        assert "NOT CPU LIMITED" in markdown and "CPU NOT LIMITED" in done.stderr
    for name in ("churn_snapshots_published", "churn_lookup_download_bytes_per_hour"):
        assert all(map(_number, summary[name].values())) and summary[name], name
    assert all(v > 0 for v in summary["churn_lookup_p99_ms"].values())
    # And the red team's count: the first cases of evals/redteam/, each claim counted once
    assert summary["red_team_cases"] == 3 and summary["red_team_hostile_claims"] >= 3
    assert 0 <= summary["red_team_hostile_claims_reached"] <= summary["red_team_hostile_claims"]
    assert len(results["red_team"]["rows"]) == 3
    # And the long dev-server session's memory, before and after: its figures are printed
    # (the bench measures memory; a test never asserts it), and moto held every execution
    # in the one mode, the last few in the other
    assert set(summary["serve_rss_growth_mb"]) == {"kept", "forgotten"}
    assert all(map(_number, summary["serve_rss_growth_mb"].values()))
    served = results["serve_memory"]
    assert all(m["statuses"] == {"200": m["questions"]} for m in served.values())
    assert served["kept"]["executions_held_at_end"] == served["kept"]["questions"]
    assert served["forgotten"]["executions_held_at_end"] < served["kept"]["questions"]
    # And searching first against the model going first: both loops asked every question,
    # each model call and wait counted, and the figure that compares them
    searched = results["first"]
    assert len(searched["questions"]) == 4  # two token questions and two session turns
    for loop in ("search_first", "model_first"):
        assert summary["model_calls_per_question"][loop] >= 1, loop
        assert summary["modelled_answer_seconds_p50"][loop] >= 1.8, loop  # a call's first token
        assert summary["search_first_cost_per_1k_questions_usd"][loop] > 0, loop
    assert _number(summary["search_first_answer_ratio_p50"])
    assert "## 14. Search first against model first" in markdown
    for name in summary:
        assert f"`{name}" in markdown, name
    assert "≤ $5.00" in markdown and "not measured in this profile" in markdown

    # Tokens: both modes were measured, and the naive tool sends the model more
    tokens = results["tokens"]
    assert tokens["questions"]
    assert 0 < tokens["totals"]["compact_input"] < tokens["totals"]["naive_input"]
    assert tokens["totals"]["cache_read"] + tokens["totals"]["cache_write"] > 0
    assert all(s["sent"] > 0 and s["turns"] == 3 for s in results["cache_session"].values())
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

    # Tool Lambdas: latency, import and memory figures are numbers; the warm-latency
    # section called the handler directly more than 100 times in one process
    lam = results["lambdas"]
    for row in lam["latency"]:
        for kind in ("warm_ms", "cold_ms"):
            assert row[kind]["n"] > 0 and _number(row[kind]["p50"]) and _number(row[kind]["p99"])
    assert any(row["warm_ms"]["n"] + row["cold_ms"]["n"] > 100 for row in lam["latency"])
    assert {row["server"] for row in lam["latency"]} == {"fast", "moto"}
    assert all(_number(v["import_ms"]["p50"]) for v in lam["imports"].values())
    assert all(m["rss_peak_mb"] > 0 for m in lam["memory"])

    # End to end and cost
    assert results["e2e"]["questions"] > 0 and _number(results["e2e"]["wall_ms"]["p99"])
    cost = results["cost"]
    for arch in ("arm64", "x86_64"):
        assert cost["infrastructure"]["by_architecture"][arch]["total_usd"] > 0
    assert set(cost["tokens"]) == {"compact", "naive", "cached"}
    assert all(usd > 0 for t in cost["tokens"].values() for usd in t["usd"].values())
    infra = cost["infrastructure"]
    assert infra["api_gateway_usd"] > 0 and infra["logs_ingestion_usd"] > 0
    assert infra["dynamodb_read_units_per_question"] > 0
    assert infra["dynamodb_write_units_per_question"] > 0

    # Three loops: every question went through each loop, its tools answered, and the
    # stand-in saw the model calls and the request sizes
    for row in results["peer"]["questions"]:
        for loop, figures in row["loops"].items():
            assert figures["model_calls"] > 0 and figures["largest_request_bytes"] > 0, loop
            assert figures["input_tokens"] > 0 and figures["tool_errors"] == 0, (loop, row)

    # And the run says how long it took (measured, never compared with a limit here)
    assert _number(results["meta"]["run_seconds"])
