"""The results' summaries: the headline table, and the flat figures with their targets.

``results.json``'s ``summary`` is a flat object, every figure named once (some
keyed by a Bedrock model id, a catalog size or a loop); :data:`TARGETS` says which
of them issue 12 sets a target for. ``results.md`` prints each figure with its target.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from bench import first, memory
from bench.fmt import kib, ms, n, pct, usd
from bench.peer import LABELS, LOOPS
from registry import FUNCTIONS

LIMIT_SECONDS = 600
"""What a full run may take on a 2-core machine (issue 12)."""

SONNET_45 = "anthropic.claude-sonnet-4-5-20250929-v1:0"
HAIKU_45 = "anthropic.claude-haiku-4-5-20251001-v1:0"


@dataclass(frozen=True)
class Target:
    figure: str
    key: str | None
    bound: float
    at_most: bool
    text: str

    def met(self, value: float) -> bool:
        return value <= self.bound if self.at_most else value >= self.bound


TARGETS: tuple[Target, ...] = (
    Target("cost_per_1k_questions_usd", SONNET_45, 5.00, True, "≤ $5.00"),
    Target("cache_read_share", SONNET_45, 0.5, False, "≥ 50% (three-turn session)"),
    Target("input_tokens_ratio_vs_naive", None, 0.30, True, "≤ 0.30"),
    Target("cold_import_ms_max", None, 300, True, "≤ 300 ms, every handler"),
    Target("lookup_warm_p50_ms", "50000", 2, True, "≤ 2 ms"),
    Target("lookup_warm_p50_ms", "200000", 5, True, "≤ 5 ms"),
    Target("lookup_warm_p99_ms", "200000", 25, True, "≤ 25 ms"),
    Target("lookup_cold_ms", "200000", 1500, True, "≤ 1.5 s"),
    Target("trace_step_delay_p99_ms", None, 1000, True, "≤ 1 s (issue 18)"),
    *(
        Target("cold_invoke_share_of_timeout", key, 0.5, True, "≤ 0.5")
        for key in [f.key for f in FUNCTIONS if f.key != "lookup_inventory"]
        + ["lookup_inventory:200000"]
    ),
    Target("cold_invoke_cpu_limited", None, 1, False, "yes: at each function's CPU share"),
    Target("churn_snapshots_published", "200000", 0, True, "none for price and stock changes"),
    Target("model_calls_per_question", "search_first", 1.3, True, "≤ 1.3 (issue 31)"),
    Target("search_first_answer_ratio_p50", None, 0.65, True, "≤ 0.65 (issue 31)"),
    Target("search_first_cost_per_1k_questions_usd", "search_first", 4.00, True, "≤ $4.00"),
)
"""Issue 12's targets, which are stated for Claude Sonnet 4.5 (Claude Haiku 4.5's figures
are reported beside them without a target), and issue 17's. The bench only reports."""


def _round(value: float | None, digits: int = 4) -> float | None:
    return None if value is None else round(value, digits)


def flat(r: dict[str, Any]) -> dict[str, Any]:
    """The ``summary`` object of results.json."""
    totals = r["tokens"]["totals"]
    par = r["parallel"]
    search = r["search"]
    return {
        "input_tokens_ratio_vs_naive": _round(totals["compact_input"] / totals["naive_input"]),
        "cache_read_share": {
            model_id: _round(s["share_read"]) for model_id, s in r["cache_session"].items()
        },
        "cost_per_1k_questions_usd": {
            model_id: _round(c["usd"], 6) for model_id, c in r["cost"]["per_1k_questions"].items()
        },
        "cold_import_ms_max": _round(
            max(v["import_ms"]["p50"] for v in r["lambdas"]["imports"].values()), 1
        ),
        "peak_state_kib": _round(r["cost"]["express_memory"]["peak_state_bytes"] / 1024, 2),
        "tool_round_ratio": _round(par["round_ms"] / par["sum_of_tools_ms"])
        if par.get("round_ms")
        else None,
        "lookup_warm_p50_ms": {str(s["products"]): _round(s["warm_ms"]["p50"], 3) for s in search},
        "lookup_warm_p99_ms": {str(s["products"]): _round(s["warm_ms"]["p99"], 3) for s in search},
        "lookup_cold_ms": {str(s["products"]): _round(s["cold_ms"], 1) for s in search},
        "peer_input_tokens_per_question": {
            loop: _round(r["peer"]["means"][loop]["input_tokens"], 1) for loop in LOOPS
        },
        "trace_step_delay_p50_ms": _round(r["trace"]["step_delay_ms"]["p50"], 1),
        "trace_step_delay_p99_ms": _round(r["trace"]["step_delay_ms"]["p99"], 1),
        "trace_channel_usd_per_1k": _round(_trace_headline(r)["usd"], 6),
        "cold_invoke_share_of_timeout": {
            row["case"]: _round(row["share_of_timeout"]) for row in r["cold_starts"]["rows"]
        },
        "cold_invoke_cpu_limited": r["cold_starts"]["cpu_limited"],
        "churn_snapshots_published": {
            str(c["products"]): c["snapshots_published"] for c in r["churn"]
        },
        "churn_lookup_download_bytes_per_hour": {
            str(c["products"]): _round(c["downloaded_bytes_per_hour"], 0) for c in r["churn"]
        },
        "churn_lookup_p99_ms": {
            str(c["products"]): _round(c["lookup_ms"]["p99"], 2) for c in r["churn"]
        },
        "red_team_hostile_claims_reached": r["red_team"]["totals"]["reached"],
        "red_team_hostile_claims": r["red_team"]["totals"]["claims"],
        "red_team_cases": r["red_team"]["totals"]["cases"],
        "serve_rss_growth_mb": {mode: m["growth_mb"] for mode, m in r["serve_memory"].items()},
        **_first(r["first"]),
    }


def _first(f: dict[str, Any]) -> dict[str, Any]:
    loops = f["loops"]
    modelled = {loop: loops[loop]["modelled_s"] for loop in loops}
    return {
        "model_calls_per_question": {
            loop: _round(loops[loop]["model_calls_per_question"], 3) for loop in loops
        },
        "modelled_answer_seconds_p50": {loop: _round(m["p50"], 3) for loop, m in modelled.items()},
        "modelled_answer_seconds_p95": {loop: _round(m["p95"], 3) for loop, m in modelled.items()},
        "search_first_answer_ratio_p50": _round(
            modelled["search_first"]["p50"] / modelled["model_first"]["p50"]
        ),
        "search_first_wall_seconds_p50": {
            loop: _round(loops[loop]["wall_ms"]["p50"] / 1000, 3) for loop in loops
        },
        "search_first_cost_per_1k_questions_usd": {
            loop: _round(value, 6) for loop, value in f["all_in_usd_per_1k"].items()
        },
    }


def _trace_headline(r: dict[str, Any]) -> dict[str, Any]:
    channel = r["trace"]["cost"]
    headline: dict[str, Any] = channel["by_turn_seconds"][str(channel["headline_seconds"])]
    return headline


_FORMATS: dict[str, Callable[[float], str]] = {
    "input_tokens_ratio_vs_naive": lambda v: f"{v:.2f}",
    "cache_read_share": pct,
    "cost_per_1k_questions_usd": usd,
    "cold_import_ms_max": ms,
    "peak_state_kib": lambda v: kib(v * 1024),
    "tool_round_ratio": lambda v: f"{v:.2f}",
    "lookup_warm_p50_ms": lambda v: f"{v:.2f} ms",
    "lookup_warm_p99_ms": lambda v: f"{v:.2f} ms",
    "lookup_cold_ms": ms,
    "peer_input_tokens_per_question": n,
    "trace_step_delay_p50_ms": ms,
    "trace_step_delay_p99_ms": ms,
    "trace_channel_usd_per_1k": usd,
    "cold_invoke_share_of_timeout": lambda v: f"{v:.2f}",
    "cold_invoke_cpu_limited": lambda v: "yes" if v else "NO: the figures are unlimited",
    "churn_snapshots_published": lambda v: f"{v:,.0f}",
    "churn_lookup_download_bytes_per_hour": lambda v: f"{v / 1e6:,.3f} MB",
    "churn_lookup_p99_ms": lambda v: f"{v:.1f} ms",
    "red_team_hostile_claims_reached": lambda v: f"{v:,.0f}",
    "red_team_hostile_claims": lambda v: f"{v:,.0f}",
    "red_team_cases": lambda v: f"{v:,.0f}",
    "serve_rss_growth_mb": lambda v: f"{v:+,.1f} MB",
    "model_calls_per_question": lambda v: f"{v:.2f}",
    "modelled_answer_seconds_p50": lambda v: f"{v:.2f} s",
    "modelled_answer_seconds_p95": lambda v: f"{v:.2f} s",
    "search_first_answer_ratio_p50": lambda v: f"{v:.2f}",
    "search_first_wall_seconds_p50": lambda v: f"{v:.2f} s",
    "search_first_cost_per_1k_questions_usd": usd,
}

_MEANING = {
    "input_tokens_ratio_vs_naive": "input tokens per question, compact ÷ naive (token questions)",
    "cache_read_share": "share of input tokens read from the cache, three-turn session, caching on",
    "cost_per_1k_questions_usd": "per 1,000 questions as prod deploys it (model latency excluded)",
    "cold_import_ms_max": "slowest handler's cold import (median)",
    "peak_state_kib": "largest state input or output, any scenario (limit 256 KiB)",
    "tool_round_ratio": "tool round ÷ the three tools in sequence (1/3 = fully parallel)",
    "lookup_warm_p50_ms": "search engine, warm search p50",
    "lookup_warm_p99_ms": "search engine, warm search p99",
    "lookup_cold_ms": "search engine, cold: validate + open + first search",
    "peer_input_tokens_per_question": "input tokens per question, by loop",
    "trace_step_delay_p50_ms": "live trace: a step's appearance after it happened, p50",
    "trace_step_delay_p99_ms": "live trace: a step's appearance after it happened, p99",
    "trace_channel_usd_per_1k": "live trace channel per 1,000 questions (8 s turns on Bedrock)",
    "cold_invoke_share_of_timeout": "cold invoke at the function's CPU share ÷ its Task timeout",
    "cold_invoke_cpu_limited": "cold invokes ran under a cgroup CPU quota (else unlimited)",
    "churn_snapshots_published": "snapshots published during the churn of stock and prices",
    "churn_lookup_download_bytes_per_hour": "bytes a warm lookup container downloads an hour",
    "churn_lookup_p99_ms": "lookup p99 during the churn",
    "red_team_hostile_claims_reached": "red team: hostile claims that reached the shopper",
    "red_team_hostile_claims": "red team: hostile claims its cases plant",
    "red_team_cases": "red team: cases run (evals/redteam/, obedient model)",
    "serve_rss_growth_mb": "resident set growth of a long `storechat serve` session (section 13)",
    "model_calls_per_question": "model calls per question, by loop (section 14)",
    "modelled_answer_seconds_p50": "the shopper's wait at Sonnet 4.5's latency, p50 (section 14)",
    "modelled_answer_seconds_p95": "the shopper's wait at Sonnet 4.5's latency, p95 (section 14)",
    "search_first_answer_ratio_p50": "modelled wait p50, search first ÷ model first",
    "search_first_wall_seconds_p50": "wall time p50 with moto's engine, by loop",
    "search_first_cost_per_1k_questions_usd": "per 1,000 questions, Sonnet 4.5, all in, by loop",
}


_MODEL_NAMES = {SONNET_45: "Claude Sonnet 4.5", HAIKU_45: "Claude Haiku 4.5"}


def _key_label(figure: str, key: str) -> str:
    if figure == "peer_input_tokens_per_question":
        return LABELS[key]
    if figure == "serve_rss_growth_mb":
        return memory.LABELS[key]
    if key in first.LABELS:
        return first.LABELS[key]
    if figure == "cold_invoke_share_of_timeout" and ":" in key:  # lookup_inventory:200000
        function, products = key.split(":", 1)
        return f"{function}, {int(products):,} products"
    if key.isdigit():
        return f"{int(key):,} products"
    return _MODEL_NAMES.get(key, key)


def target_rows(summary: dict[str, Any]) -> list[dict[str, str]]:
    """Every figure of ``summary``, each with its target (or none) and whether it is met.

    A target whose figure this run did not measure (a catalog size the quick profile
    skips) is listed as not measured, never dropped.
    """
    rows = []
    for figure, value in summary.items():
        wanted = {t.key: t for t in TARGETS if t.figure == figure}
        if not isinstance(value, dict):
            rows.append(_target_row(figure, None, value, wanted.get(None)))
            continue
        keys = list(value) + [k for k in wanted if k is not None and k not in value]
        if all(k.isdigit() for k in keys):
            keys.sort(key=int)
        for key in keys:
            rows.append(_target_row(figure, key, value.get(key), wanted.get(key)))
    return rows


def _target_row(figure: str, key: str | None, value: float | None, target: Target | None) -> dict:
    name = f"{figure}[{key!r}]".replace("'", '"') if key is not None else figure
    if value is None:
        shown, status = "not measured", "not measured in this profile"
    else:
        shown = _FORMATS[figure](value)
        status = "" if target is None else ("met" if target.met(value) else "**not met**")
    return {
        "figure": name,
        "measure": _MEANING[figure] + (f", {_key_label(figure, key)}" if key else ""),
        "value": shown,
        "target": target.text if target else "",
        "status": status,
    }


def headline_rows(r: dict[str, Any]) -> list[dict[str, str]]:
    """The Summary table: one line per headline figure, with what to compare it against."""
    t, p, par, lam, e, c = (
        r["tokens"],
        r["payload"],
        r["parallel"],
        r["lambdas"],
        r["e2e"],
        r["cost"],
    )
    count = len(t["questions"])
    biggest_state = max(
        p["scenarios"],
        key=lambda s: max(s["peaks"]["state_input"]["bytes"], s["peaks"]["state_output"]["bytes"]),
    )
    state_peak = max(
        biggest_state["peaks"]["state_input"]["bytes"],
        biggest_state["peaks"]["state_output"]["bytes"],
    )
    converse_peak = max(p["scenarios"], key=lambda s: s["peaks"]["converse_payload"]["bytes"])
    fast = [row for row in lam["latency"] if row["server"] == "fast"]
    largest = max(fast, key=lambda row: row["products"])
    slowest_import = max(lam["imports"].items(), key=lambda kv: kv[1]["import_ms"]["p50"])
    lookup_memory = max(
        (m for m in lam["memory"] if m["function"] == "lookup_inventory"),
        key=lambda m: m["products"] or 0,
    )
    arm = c["infrastructure"]["by_architecture"]["arm64"]
    limit = p["limit_bytes"]
    headline = c["headline_model"]
    stack = c["deployed"]
    search = max(r["search"], key=lambda s: s["products"])
    slowest_cold = max(r["cold_starts"]["rows"], key=lambda row: row["share_of_timeout"])
    churned = max(r["churn"], key=lambda c: c["products"])
    rows = [
        (
            "1 Tokens",
            f"input tokens per question, compact (mean of {count})",
            f"{t['totals']['compact_input'] / count:,.0f}",
            "",
        ),
        (
            "1 Tokens",
            "input tokens per question, naive (whole category)",
            f"{t['totals']['naive_input'] / count:,.0f}",
            f"{t['totals']['ratio']:.1f}x compact",
        ),
        (
            "1 Tokens",
            "share of input tokens a prompt cache would serve",
            f"{t['caching']['share_served'] * 100:.1f}%",
            f"prefix {t['caching']['prefix_tokens']:,} tokens vs "
            f"{t['caching']['min_tokens_per_checkpoint']:,} minimum",
        ),
        (
            "2 Payload",
            f"largest state input/output ({biggest_state['name']})",
            f"{state_peak / 1024:,.1f} KiB",
            f"{state_peak / limit * 100:.1f}% of 256 KiB",
        ),
        (
            "2 Payload",
            f"largest Converse Lambda payload ({converse_peak['name']})",
            f"{converse_peak['peaks']['converse_payload']['bytes'] / 1024:,.1f} KiB",
            f"{converse_peak['peaks']['converse_payload']['share_of_limit'] * 100:.1f}% of 256 KiB",
        ),
        (
            "3 Parallel",
            f"tool round, three tools of {par['delay_s']:g} s each (median)",
            f"{par['round_ms']:,.0f} ms",
            f"{par['sum_of_tools_ms']:,.0f} ms in sequence",
        ),
        (
            "4 Lambdas",
            f"lookup_inventory warm, {largest['products']:,} products (p50 / p99)",
            f"{largest['warm_ms']['p50']:,.1f} / {largest['warm_ms']['p99']:,.1f} ms",
            f"timeout {largest['timeout_ms']:,} ms",
        ),
        (
            "4 Lambdas",
            f"lookup_inventory cold snapshot, {largest['products']:,} products (p50 / p99)",
            f"{largest['cold_ms']['p50']:,.0f} / {largest['cold_ms']['p99']:,.0f} ms",
            f"timeout {largest['timeout_ms']:,} ms",
        ),
        (
            "4 Lambdas",
            f"slowest cold import ({slowest_import[0]})",
            f"{slowest_import[1]['import_ms']['p50']:,.0f} ms",
            "",
        ),
        (
            "4 Lambdas",
            f"lookup_inventory peak memory, {lookup_memory['products'] or 0:,} products",
            f"{lookup_memory['rss_peak_mb']:,.0f} MB",
            f"{lookup_memory['memory_mb']} MB configured",
        ),
        (
            "5 End to end",
            f"local wall time per question, p50 / p99 ({e['questions']} questions)",
            f"{e['wall_ms']['p50']:,.0f} / {e['wall_ms']['p99']:,.0f} ms",
            "",
        ),
        (
            "6 Cost",
            "infrastructure per 1,000 questions (arm64; with API Gateway, DynamoDB, logs)",
            f"${arm['total_usd']:.4f}",
            f"+ ${arm['per_second_of_model_latency_usd']:.4f} per second of model latency",
        ),
        (
            "6 Cost",
            "tokens per 1,000 questions: compact / naive / compact cached",
            " / ".join(
                f"${c['tokens'][mode]['usd'][headline]:,.2f}"
                for mode in ("compact", "naive", "cached")
            ),
            c["models"][headline],
        ),
        (
            "6 Cost",
            f"all in per 1,000 questions, {c['models'][headline]}, as {stack['environment']} "
            "deploys it",
            f"${c['per_1k_questions'][headline]['usd']:,.2f}",
            "target ≤ $5.00",
        ),
        (
            "7 Search",
            f"search engine at {search['products']:,} products, warm p50 / p99; cold",
            f"{search['warm_ms']['p50']:.2f} / {search['warm_ms']['p99']:.2f} ms; "
            f"{ms(search['cold_ms'])}",
            "",
        ),
        (
            "8 Loops",
            "input tokens per question: " + " / ".join(LABELS[loop] for loop in LOOPS),
            " / ".join(n(r["peer"]["means"][loop]["input_tokens"]) for loop in LOOPS),
            "same offline model: compares loops, not models",
        ),
        (
            "9 Live trace",
            "a step on the page after it happened, p50 / p99",
            f"{r['trace']['step_delay_ms']['p50']:,.0f} / "
            f"{r['trace']['step_delay_ms']['p99']:,.0f} ms",
            "target ≤ 1 s",
        ),
        (
            "9 Live trace",
            f"channel per 1,000 questions, {_trace_headline(r)['polls_per_question']} polls "
            "a question",
            f"${_trace_headline(r)['usd']:.4f}",
            "8 s turns on Bedrock",
        ),
        (
            "10 Cold starts",
            f"slowest cold invoke ÷ Task timeout ({slowest_cold['case']}, "
            f"{slowest_cold['memory_mb']:,} MB)",
            f"{slowest_cold['share_of_timeout']:.2f} ({ms(slowest_cold['cold_invoke_ms']['p50'])})",
            "target ≤ 0.5"
            + ("" if r["cold_starts"]["cpu_limited"] else "; NOT CPU LIMITED: whole-core figures"),
        ),
        (
            "11 Churn",
            f"{churned['changes']:,} stock and price changes, {churned['products']:,} products: "
            "snapshots published / downloaded per hour / lookup p99",
            f"{churned['snapshots_published']} / "
            f"{churned['downloaded_bytes_per_hour'] / 1e6:,.3f} MB / "
            f"{churned['lookup_ms']['p99']:.1f} ms",
            f"one snapshot per window: {churned['per_window_rebuild_bytes_per_hour'] / 1e6:,.0f} "
            "MB an hour",
        ),
        (
            "12 Red team",
            f"hostile claims that reached the shopper ({r['red_team']['totals']['cases']} "
            "cases, obedient model)",
            f"{r['red_team']['totals']['reached']} of {r['red_team']['totals']['claims']}",
            "fewer is better; every claim stopped is the system's doing",
        ),
        (
            "Run",
            "whole benchmark",
            f"{r['meta']['run_seconds']:,.0f} s",
            f"limit {LIMIT_SECONDS} s",
        ),
    ]
    return [dict(zip(("figure", "measure", "value", "compare"), row, strict=True)) for row in rows]
