"""Run every figure in turn and gather them into one results dictionary."""

from __future__ import annotations

import json
import math
import os
import platform
import subprocess
import sys
import time
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from typing import Any, TypeVar

import moto

import statemachine
from bench import (
    as_deployed,
    asset,
    churn,
    coldstart,
    cost,
    first,
    history,
    lambdas,
    peer,
    redteam,
    scenarios,
    search,
    summary,
    trace,
)
from bench import memory as serve_session
from bench.catalog import Catalogs
from bench.profile import Profile
from bench.questions import TOKEN_QUESTIONS
from bench.scenarios import Asked
from bench.stats import summary as stats
from bench.summary import LIMIT_SECONDS
from bench.tools import canned_web
from registry import functions_by_key

T = TypeVar("T")


class Clock:
    """Times each section and says what it is doing on stderr (stdout carries the table)."""

    def __init__(self) -> None:
        self.started = time.perf_counter()
        self.sections: dict[str, float] = {}

    @contextmanager
    def section(self, name: str) -> Iterator[None]:
        print(f"bench: {name} ...", file=sys.stderr, flush=True)
        started = time.perf_counter()
        try:
            yield
        finally:
            self.sections[name] = time.perf_counter() - started
            print(f"bench: {name} took {self.sections[name]:.1f} s", file=sys.stderr, flush=True)

    def run(self, name: str, work: Callable[[], T]) -> T:
        with self.section(name):
            return work()

    @property
    def elapsed(self) -> float:
        return time.perf_counter() - self.started


def _commit() -> str:
    try:
        done = subprocess.run(
            ["git", "rev-parse", "--short", "HEAD"],
            capture_output=True,
            text=True,
            timeout=10,
            check=False,
            cwd=lambdas.REPO_ROOT,
        )
    except OSError:
        return "unknown"
    dirty = ""
    status = subprocess.run(
        ["git", "status", "--porcelain"],
        capture_output=True,
        text=True,
        timeout=10,
        check=False,
        cwd=lambdas.REPO_ROOT,
    )
    if status.stdout.strip():
        dirty = " (with uncommitted changes)"
    return (done.stdout.strip() or "unknown") + dirty


# --------------------------------------------------------------------------- figures


def _tokens(
    compact: list[Asked], naive: list[Asked], cached: list[Asked], prices: dict[str, Any]
) -> dict[str, Any]:
    from shared.products.catalog_data import load_catalog

    rows: list[dict[str, Any]] = []
    for c, v, k in zip(compact, naive, cached, strict=True):
        rows.append(
            {
                "question": c.question,
                "tools": c.tools,
                "compact_input": c.input_sent,
                "naive_input": v.input_sent,
                "ratio": v.input_sent / c.input_sent if c.input_sent else 0.0,
                "compact_output": c.tokens("outputTokens"),
                "naive_output": v.tokens("outputTokens"),
                "cached_uncached": k.tokens("inputTokens"),
                "cache_read": k.tokens("cacheReadInputTokens"),
                "cache_write": k.tokens("cacheWriteInputTokens"),
            }
        )
    totals: dict[str, float] = {
        key: sum(r[key] for r in rows)
        for key in (
            "compact_input",
            "naive_input",
            "compact_output",
            "naive_output",
            "cached_uncached",
            "cache_read",
            "cache_write",
        )
    }
    totals["ratio"] = totals["naive_input"] / totals["compact_input"]
    sent = totals["cached_uncached"] + totals["cache_read"] + totals["cache_write"]
    prefix = max(
        (u["cacheWriteInputTokens"] or u["cacheReadInputTokens"] for a in cached for u in a.usages),
        default=0,
    )
    minimum = prices["models"][prices["headline_model"]]["min_tokens_per_cache_checkpoint"]
    return {
        "catalog_products": len(load_catalog()),
        "questions": rows,
        "totals": totals,
        "caching": {
            "sent": sent,
            "cache_read": totals["cache_read"],
            "cache_write": totals["cache_write"],
            "share_served": totals["cache_read"] / sent if sent else 0.0,
            "share_written": totals["cache_write"] / sent if sent else 0.0,
            "prefix_tokens": prefix,
            "min_tokens_per_checkpoint": minimum,
            "prefix_below_minimum": prefix < minimum,
        },
    }


def _cache_session(by_model: dict[str, list[Asked]], prices: dict[str, Any]) -> dict[str, Any]:
    """Per model id: the share of the session's input tokens read from the cache."""
    out: dict[str, Any] = {}
    for model_id, asked in by_model.items():
        usages = [u for a in asked for u in a.usages]
        uncached = sum(u.get("inputTokens", 0) for u in usages)
        read = sum(u.get("cacheReadInputTokens", 0) for u in usages)
        write = sum(u.get("cacheWriteInputTokens", 0) for u in usages)
        sent = uncached + read + write
        # The largest cache read or write of one call: the longest prefix a checkpoint held.
        prefix = max(
            (
                max(u.get(k, 0) for k in ("cacheReadInputTokens", "cacheWriteInputTokens"))
                for u in usages
            ),
            default=0,
        )
        model = prices["models"][model_id]
        out[model_id] = {
            "name": model["name"],
            "turns": len(asked),
            "statuses": [f"{a.status} {a.outcome}" for a in asked],
            "model_calls": len(usages),
            "uncached": uncached,
            "read": read,
            "write": write,
            "sent": sent,
            "share_read": read / sent if sent else 0.0,
            "prefix_tokens": prefix,
            "min_tokens_per_checkpoint": model["min_tokens_per_cache_checkpoint"],
            "prefix_below_minimum": prefix < model["min_tokens_per_cache_checkpoint"],
        }
    return out


def _naive_at_scale(profile: Profile, catalogs: Catalogs) -> list[dict[str, Any]]:
    """How big the naive tool's one result would be as the catalog grows (no execution)."""
    from lookup_inventory.records import full_record

    rows = []
    for plan in profile.latency:
        records = [
            full_record(p)
            for p in catalogs.products(plan.products)
            if p["category"] == lambdas.LOOKUP_CATEGORY
        ]
        text = json.dumps(
            {"count": len(records), "products": records}, separators=(",", ":"), ensure_ascii=False
        )
        rows.append(
            {
                "products": plan.products,
                "category_items": len(records),
                "bytes": len(text.encode("utf-8")),
                # The offline model's rule: one token per four characters.
                "tokens": math.ceil(len(text) / 4),
            }
        )
    return rows


def _scenario(name: str, asked: list[Asked]) -> dict[str, Any]:
    peaks = history.PayloadPeaks()
    for a in asked:
        peaks.merge(a.peaks)
    outcomes = Counter(f"{a.status} {a.outcome or ''}".strip() for a in asked)
    last = asked[-1]
    result = ", ".join(f"{v} x {k}" if v > 1 else k for k, v in outcomes.items())
    if len(asked) == 1:
        result += f", {last.tool_rounds} round(s), {len(last.tools)} tool call(s)"
        if last.fallback_reason:
            result += f", fallback: {last.fallback_reason}"
    return {
        "name": name,
        "executions": len(asked),
        "result": result,
        "peaks": peaks.as_dict(),
    }


def _fields(asked: list[Asked]) -> tuple[dict[str, list[str]], list[str]]:
    seen: dict[str, set[str]] = {}
    for a in asked:
        for kind, fields in a.fields_seen.items():
            seen.setdefault(kind, set()).update(fields)
    measured = {k: sorted(v) for k, v in sorted(seen.items()) if v}
    missing = sorted(k for k, v in seen.items() if not v)
    return measured, missing


def _notes(results: dict[str, Any], profile: Profile) -> list[str]:
    notes = [
        "Tokens are the offline model's count (ceil(characters / 4) of compact JSON), not "
        "Claude's tokenizer, and leave out the tool-use framing Bedrock adds. Ratios between "
        "modes are the meaningful part; absolute counts on Bedrock will differ.",
        "Prompt caching: the offline model counts cache reads and writes by Bedrock's rules "
        "for the model it stands in for (minimum tokens per checkpoint, at most four, exact "
        "prefix, five idle minutes), but with its own token counts; whether a real prefix "
        "reaches a model's minimum depends on Claude's tokenizer. See the Tokens section.",
        "Lookup latency leaves out DynamoDB's and S3's own service time and the network: the "
        "fresh reads are served from pre-encoded items in-process and the snapshot from moto's "
        "S3 in memory; on Lambda a cold start also downloads the snapshot over the network. "
        "The moto row shows what moto's own serialization adds.",
        "Handler times in sections 4 to 9 were measured in-process on a shared 2-core machine, "
        "on whole cores. A Lambda's CPU share scales with its memory (a full vCPU at 1,769 "
        "MB); section 10 measures each function's cold invoke at that share.",
        "Express durations come from local executions with an offline model that answers in "
        "milliseconds; on AWS each Bedrock call adds seconds to both the Converse Lambda and "
        "the execution. The cost table therefore adds, per architecture, what each second of "
        "model latency per call costs per 1,000 questions instead of guessing a latency.",
        "Cold import times are from a local interpreter importing a copy of the code asset "
        "with its bytecode, compiled by the bench's Python as the deployed asset's is by "
        "python3.13; a Lambda cold start also starts the runtime and reads the deployment "
        "package, which is not measured here.",
        "The review and book tools ran unchanged against a canned local HTTP server (no "
        "network): their real API latency is not included.",
        "Powertools logs at WARNING and metrics and tracing are off locally: their cost per "
        "call on Lambda (EMF flush, X-Ray segments) is not in the handler times.",
        "Costs count API Gateway requests, DynamoDB request units and the conversations log's "
        "CloudWatch ingestion (and its data protection scan); they leave out the functions' own "
        "logs, API Gateway's access log, X-Ray traces, S3 requests, storage and data transfer. "
        "Each question starts a new session, so LoadHistory finds nothing (a follow-up reads "
        "the earlier turns).",
        "The three-loop comparison uses one offline model for all three loops: it compares "
        "what each loop sends and how often, not what a real model would answer.",
    ]
    if not results["cold_starts"]["cpu_limited"]:
        notes.append(
            "Section 10's cold invokes ran WITHOUT a CPU limit "
            f"({results['cold_starts']['how']}): they are whole-core figures and flatter "
            "every function."
        )
    lam = results["lambdas"]
    biggest = max(
        (row for row in lam["latency"] if row["server"] == "fast"), key=lambda r: r["products"]
    )
    share = biggest["cold_ms"]["p99"] / biggest["timeout_ms"]
    if share > 0.5:
        notes.append(
            f"At {biggest['products']:,} products a cold snapshot load and search takes "
            f"{biggest['cold_ms']['p50']:,.0f} ms (p50) and {biggest['cold_ms']['p99']:,.0f} ms "
            f"(p99), {share:.0%} of lookup_inventory's {biggest['timeout_ms'] / 1000:g} s "
            f"timeout, on this machine; a {functions_by_key()['lookup_inventory'].memory_mb} MB "
            "Lambda gets a fraction of a vCPU and downloads the snapshot over the network, so "
            "its first lookup after a cold start could time out."
        )
    for m in lam["memory"]:
        if m["rss_peak_mb"] > m["memory_mb"]:
            notes.append(
                f"{m['function']} peaked at {m['rss_peak_mb']:.0f} MB with "
                f"{m['products'] or 0:,} products, above its {m['memory_mb']} MB."
            )
    if profile.name != "full":
        notes.append(
            f"This is the `{profile.name}` smoke profile: sizes and sample counts are tiny and "
            "the figures are not meaningful."
        )
    return notes


# --------------------------------------------------------------------------- the run


def collect(profile: Profile) -> dict[str, Any]:
    if profile.token_questions > profile.e2e_questions:
        raise ValueError("the end-to-end questions must include the token questions")
    clock = Clock()
    load_at_start = os.getloadavg()[0]
    started_utc = datetime.now(UTC).isoformat(timespec="seconds")
    catalogs = Catalogs(profile.seed)
    prices = cost.load_prices()
    with canned_web() as web:
        main = clock.run(
            "end to end, compact tokens, payloads", lambda: scenarios.run_main(profile, web)
        )
        naive = clock.run("naive tokens", lambda: scenarios.run_naive(profile, web))
        cached = clock.run("prompt caching", lambda: scenarios.run_cached(profile, web))
        parallel = clock.run("parallel tools", lambda: scenarios.run_parallel(profile, web))
        five = clock.run(
            f"five rounds at {profile.big_catalog:,} products",
            lambda: scenarios.run_five_rounds(profile, web, catalogs),
        )
        cache_sessions = clock.run(
            "three-turn cached sessions",
            lambda: {
                model_id: scenarios.run_cache_session(web, model_id, profile.cache_session_turns)
                for model_id in prices["models"]
            },
        )
        searching_first = clock.run(
            "search first against model first",
            lambda: first.run(profile.token_questions, profile.first_follow_ups, web, prices),
        )
        loops = clock.run(
            "three loops side by side",
            lambda: peer.run(TOKEN_QUESTIONS[: profile.token_questions], web),
        )
        live = clock.run(
            "live trace",
            lambda: trace.run(
                web,
                profile.trace_questions,
                model_delay_s=profile.trace_model_delay_s,
                tool_delay_s=round(profile.tool_delay_s / 4, 2),
            ),
        )
        cold = clock.run(
            "cold invokes at each function's CPU share",
            lambda: coldstart.run(
                profile.cold_catalogs,
                profile.cold_runs,
                catalogs,
                web,
                parallel=profile.cold_parallel,
            ),
        )
    latency = clock.run("lookup latency", lambda: lambdas.warm_latency(profile, catalogs))
    memory = clock.run("handler memory", lambda: lambdas.memory(profile, catalogs))
    imports = clock.run("cold imports", lambda: lambdas.cold_imports(profile))
    naive_at_scale = clock.run("naive result sizes", lambda: _naive_at_scale(profile, catalogs))
    engine = clock.run(
        "search engine",
        lambda: search.run(profile.search_sizes, queries=profile.search_queries),
    )
    red_team = clock.run("red team", lambda: redteam.run(profile.red_team_cases))
    churned = clock.run(
        f"a catalog that changes all day, {profile.churn_products:,} products",
        lambda: churn.run(profile.churn_products, profile.churn_seconds, catalogs),
    )
    serve_memory = clock.run(
        f"a long dev-server session, {profile.serve_questions} questions",
        lambda: serve_session.run(profile.serve_questions, profile.serve_every),
    )

    e2e = main["e2e"]
    compact = e2e[: profile.token_questions]
    results: dict[str, Any] = {}
    results["tokens"] = _tokens(compact, naive, cached, prices)
    results["tokens"]["naive_at_scale"] = naive_at_scale
    results["cache_session"] = _cache_session(cache_sessions, prices)

    everything = e2e + main["three_tools"] + main["session"] + naive + cached + [five["asked"]]
    measured, missing = _fields(everything)
    session = main["session"]
    results["payload"] = {
        "limit_bytes": history.LIMIT_BYTES,
        "scenarios": [
            _scenario("one round (first token question)", e2e[:1]),
            _scenario("three tools in one turn", main["three_tools"]),
            _scenario(
                f"5 rounds x 3 tools, {five['catalog']:,} products, replay model",
                [five["asked"]],
            ),
            _scenario(f"{len(session)}-turn session", session),
        ],
        "fields_measured": measured,
        "fields_missing": missing,
        "session_series": {
            "converse_payload_bytes": [a.peaks.converse_payload.bytes for a in session],
            "state_peak_bytes": [
                max(a.peaks.state_input.bytes, a.peaks.state_output.bytes) for a in session
            ],
        },
        "five_rounds_warmup_ms": five["warm_ms"],
    }
    par = dict(parallel)
    par["speedup"] = par["sum_of_tools_ms"] / par["round_ms"] if par.get("round_ms") else 0.0
    results["parallel"] = par
    results["lambdas"] = {
        "latency": latency,
        "imports": imports,
        "import_repeats": profile.import_repeats,
        "imports_code": asset.describe(),
        "memory": memory,
    }
    results["e2e"] = {
        "questions": len(e2e),
        "statuses": dict(Counter(f"{a.status} {a.outcome}" for a in e2e)),
        "wall_ms": stats([a.wall_ms for a in e2e]),
        "execution_ms": stats([a.execution_ms for a in e2e]),
        "handler_share": sum(s for a in e2e for _, s in a.lambda_calls)
        * 1000
        / sum(a.execution_ms for a in e2e),
        "states_entered_mean": sum(a.states_entered for a in e2e) / len(e2e),
        "rows": [a.row() for a in e2e],
    }
    definition = statemachine.read_definition().encode("utf-8")
    peak_state = max(
        max(s["peaks"]["state_input"]["bytes"], s["peaks"]["state_output"]["bytes"])
        for s in results["payload"]["scenarios"]
    )
    map_items = statemachine.TUNING_DEFAULTS["MaxToolsPerRound"]
    infrastructure = cost.infrastructure(e2e, prices)
    tokens = cost.tokens({"compact": compact, "naive": naive, "cached": cached}, prices)
    stack = cost.deployed()
    results["cost"] = {
        "prices_taken": prices["taken"],
        "region": prices["region"],
        "models": {model_id: m["name"] for model_id, m in prices["models"].items()},
        "headline_model": prices["headline_model"],
        "deployed": stack,
        "infrastructure": infrastructure,
        "tokens": tokens,
        "per_1k_questions": cost.per_1k_questions(infrastructure, tokens, stack),
        "express_memory": {
            "definition_bytes": len(definition),
            "peak_state_bytes": peak_state,
            "map_items": map_items,
            "estimate_mb": cost.express_memory_estimate_mb(len(definition), peak_state, map_items),
        },
    }
    live["cost"] = trace.cost(live, prices)
    results["trace"] = live
    results["cost"]["live_trace"] = live["cost"]
    one_round = [a for a in e2e if a.tool_rounds == 1] or e2e
    results["cost"]["logging"] = as_deployed.logging(one_round, [five["asked"]], prices)
    results["cost"]["waf"] = as_deployed.waf(live["cost"], prices)
    results["cost"]["tokens_as_called"] = as_deployed.tokens_as_called(tokens, stack)
    results["cost"]["as_deployed"] = as_deployed.as_deployed(results["cost"], live["cost"])
    results["search"] = engine
    results["peer"] = loops
    headline = prices["headline_model"]
    infra_usd = results["cost"]["per_1k_questions"][headline]["infrastructure_usd"]
    searching_first["all_in_usd_per_1k"] = first.all_in_usd(searching_first, infra_usd, headline)
    results["first"] = searching_first
    results["cold_starts"] = cold
    results["churn"] = [churned]
    results["red_team"] = red_team
    results["serve_memory"] = serve_memory
    results["notes"] = _notes(results, profile)
    results["meta"] = {
        "profile": profile.name,
        "seed": profile.seed,
        "started_utc": started_utc,
        "commit": _commit(),
        "python": platform.python_version(),
        "moto": moto.__version__,
        "platform": platform.platform(),
        "cpus": os.cpu_count(),
        "functions": {
            k: {"memory_mb": f.memory_mb, "timeout_s": f.timeout_s}
            for k, f in functions_by_key().items()
        },
        "section_seconds": {k: round(v, 2) for k, v in clock.sections.items()},
        "run_seconds": clock.elapsed,
        "load_average": [load_at_start, os.getloadavg()[0]],
        "limit_seconds": LIMIT_SECONDS,
    }
    results["summary"] = summary.flat(results)
    results["headline"] = summary.headline_rows(results)
    return results
