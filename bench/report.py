"""One results document: ``results.json`` (everything) and ``results.md`` (the tables)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

SECTIONS = (
    "## Summary",
    "## 1. Tokens",
    "## 2. Payload",
    "## 3. Parallel tools",
    "## 4. Tool Lambdas",
    "## 5. Local end to end",
    "## 6. Cost per 1,000 questions",
    "## What these figures do not measure",
    "## Run",
)
"""Every heading results.md has, in order (the smoke test checks them)."""


def n(value: float, digits: int = 0) -> str:
    return f"{value:,.{digits}f}"


def ms(value: float | None) -> str:
    if value is None:
        return "n/a"
    return f"{value:,.0f} ms" if value >= 100 else f"{value:,.1f} ms"


def kib(value: float) -> str:
    return f"{value / 1024:,.1f} KiB"


def usd(value: float) -> str:
    if value >= 1:
        return f"${value:,.2f}"
    return f"${value:.4f}" if value >= 0.0001 else f"${value:.6f}"


def pct(value: float) -> str:
    return f"{value * 100:.1f}%"


def _table(header: list[str], rows: list[list[str]]) -> list[str]:
    lines = ["| " + " | ".join(header) + " |", "|" + "|".join(" --- " for _ in header) + "|"]
    lines += ["| " + " | ".join(cell.replace("|", "\\|") for cell in row) + " |" for row in rows]
    return [*lines, ""]


# --------------------------------------------------------------------------- sections


def _summary(r: dict[str, Any]) -> list[str]:
    rows = [[s["figure"], s["measure"], s["value"], s["compare"]] for s in r["summary"]]
    return _table(["Figure", "Measure", "Value", "Against"], rows)


def _tokens(r: dict[str, Any]) -> list[str]:
    t = r["tokens"]
    lines = [
        f"Input tokens sent to the model per question, summed over the question's model calls "
        f"(offline model, bundled catalog of {t['catalog_products']} products). *Compact*: "
        f"storechat's lookup_inventory. *Naive*: every product of the category, every field. "
        f"*Cached*: compact with `PROMPT_CACHING=true`; uncached + cache read + cache write "
        f"add up to what was sent.",
        "",
    ]
    rows = []
    for q in t["questions"]:
        rows.append(
            [
                q["question"],
                ", ".join(q["tools"]) or "none",
                n(q["compact_input"]),
                n(q["naive_input"]),
                f"{q['ratio']:.1f}x",
                f"{n(q['cached_uncached'])} / {n(q['cache_read'])} / {n(q['cache_write'])}",
            ]
        )
    tot = t["totals"]
    rows.append(
        [
            f"**Total ({len(t['questions'])} questions)**",
            "",
            f"**{n(tot['compact_input'])}**",
            f"**{n(tot['naive_input'])}**",
            f"**{tot['ratio']:.1f}x**",
            f"**{n(tot['cached_uncached'])} / {n(tot['cache_read'])} / {n(tot['cache_write'])}**",
        ]
    )
    lines += _table(
        [
            "Question",
            "Tools (compact)",
            "Compact",
            "Naive",
            "Naive / compact",
            "Cached: uncached / read / write",
        ],
        rows,
    )
    c = t["caching"]
    lines += [
        f"Output tokens: {n(tot['compact_output'])} compact, {n(tot['naive_output'])} naive.",
        "",
        f"**Prompt caching.** A cache would serve {pct(c['share_served'])} of the input tokens "
        f"sent ({n(c['cache_read'])} of {n(c['sent'])}); {pct(c['share_written'])} were cache "
        f"writes. The cached prefix (system prompt and tool specs) is {n(c['prefix_tokens'])} "
        f"tokens by the offline model's count; Claude Sonnet 4.5 on Bedrock creates a cache "
        f"checkpoint only after at least {n(c['min_tokens_per_checkpoint'])} tokens"
        + (
            ", so on Bedrock this prefix would probably not be cached at all "
            "(to check with a real call: Bedrock's tokenizer and tool framing count more)."
            if c["prefix_below_minimum"]
            else "."
        ),
        "",
        "Naive tool result for one broad lookup (COMPUTERS, every field) by catalog size, "
        "against Step Functions' 256 KiB state limit:",
        "",
    ]
    rows = [
        [
            n(s["products"]),
            n(s["category_items"]),
            kib(s["bytes"]),
            n(s["tokens"]),
            f"{s['bytes'] / r['payload']['limit_bytes']:.1f}x",
        ]
        for s in t["naive_at_scale"]
    ]
    lines += _table(["Products", "In the category", "Bytes", "Tokens (≈)", "Of 256 KiB"], rows)
    return lines


def _payload(r: dict[str, Any]) -> list[str]:
    p = r["payload"]
    lines = [
        "Peak sizes per scenario, in compact UTF-8 JSON, against the 256 KiB limit "
        "(state input/output, a task result, one variable, the variables one `Assign` sets). "
        "A cell reads bytes (share of 256 KiB) and where the peak was.",
        "",
    ]
    rows = []
    for s in p["scenarios"]:
        k = s["peaks"]

        def cell(name: str, k: dict[str, Any] = k) -> str:
            return f"{kib(k[name]['bytes'])} ({pct(k[name]['share_of_limit'])}) {k[name]['where']}"

        rows.append(
            [
                s["name"],
                s["result"],
                cell("state_input"),
                cell("state_output"),
                cell("variable"),
                cell("assign_total"),
                cell("converse_payload"),
            ]
        )
    lines += _table(
        [
            "Scenario",
            "Result",
            "State input",
            "State output",
            "One variable",
            "One Assign",
            "Converse Lambda payload",
        ],
        rows,
    )
    measured = ", ".join(f"{k} ({'/'.join(v)})" for k, v in p["fields_measured"].items())
    lines += [
        f"Measured from moto's history events: {measured}. "
        f"No payload in: {', '.join(p['fields_missing']) or 'none'}.",
        "",
    ]
    session = p.get("session_series")
    if session:
        lines += [
            f"{len(session['converse_payload_bytes'])}-turn session, Converse payload per turn "
            "(bytes): " + ", ".join(n(b) for b in session["converse_payload_bytes"]) + ".",
            "",
        ]
    return lines


def _parallel(r: dict[str, Any]) -> list[str]:
    p = r["parallel"]
    rows = [
        [
            str(i + 1),
            run["status"],
            str(run["tools_run"]),
            ms(run["round_ms"]),
            ms(run["sum_of_tools_ms"]),
            ", ".join(ms(x) for x in run["tool_ms"]),
        ]
        for i, run in enumerate(p["runs"])
    ]
    lines = [
        f"One turn, three tools (lookup_inventory, get_computer_reviews, get_book_info), each "
        f"delayed {p['delay_s']:g} s before its real handler runs. Round = `RunTools` entered "
        f"to `AppendToolResults` entered, from the history timestamps (millisecond precision).",
        "",
    ]
    lines += _table(["Run", "Status", "Tools", "Tool round", "Sum of the three", "Each tool"], rows)
    lines += [
        f"Median: round {ms(p['round_ms'])} against {ms(p['sum_of_tools_ms'])} in sequence "
        f"({p['speedup']:.1f}x).",
        "",
    ]
    return lines


def _lambdas(r: dict[str, Any]) -> list[str]:
    lam = r["lambdas"]
    lines = [
        "**Warm latency of lookup_inventory** (handler called directly; event = the first token "
        "question's lookup: COMPUTERS, keywords=windows). *fast*: the table served from "
        "pre-encoded pages through botocore's real parsing; *moto*: moto serves it.",
        "",
    ]
    rows = []
    for row in lam["latency"]:
        rows.append(
            [
                n(row["products"]),
                row["server"],
                n(row["category_items"]),
                f"{ms(row['hit_ms']['p50'])} / {ms(row['hit_ms']['p99'])} (n={row['hit_ms']['n']})",
                f"{ms(row['miss_ms']['p50'])} / {ms(row['miss_ms']['p99'])} "
                f"(n={row['miss_ms']['n']})",
                ms(row["timeout_ms"]),
            ]
        )
    lines += _table(
        ["Products", "Server", "In the category", "Hit p50 / p99", "Miss p50 / p99", "Timeout"],
        rows,
    )
    lines += [
        "p99 is nearest-rank: with fewer than 100 samples it is the slowest one.",
        "",
        "**Cold import** of each handler module in a fresh interpreter (median of "
        f"{lam['import_repeats']}), and where the time goes (`-X importtime`, self time):",
        "",
    ]
    rows = [
        [
            key,
            ms(v["import_ms"]["p50"]),
            f"{v['rss_after_import_mb']:.0f} MB",
            ", ".join(f"{h['package']} {ms(h['ms'])}" for h in v["heaviest_imports"]),
        ]
        for key, v in lam["imports"].items()
    ]
    lines += _table(["Handler", "Import", "Memory after import", "Heaviest imports"], rows)
    lines += [
        "**Memory** (peak resident set, VmHWM) of a process holding only the handler, after "
        "import and three calls; first call cold, then (lookup_inventory) a warm miss and a hit:",
        "",
    ]
    rows = [
        [
            m["function"],
            n(m["products"]) if m["products"] else "",
            f"{m['rss_peak_mb']:.0f} MB",
            f"{m['memory_mb']} MB",
            f"{ms(m['first_call_ms'])} / {ms(m['second_call_ms'])} / {ms(m['third_call_ms'])}",
        ]
        for m in lam["memory"]
    ]
    lines += _table(["Handler", "Products", "Peak memory", "Configured", "Calls 1 / 2 / 3"], rows)
    return lines


def _e2e(r: dict[str, Any]) -> list[str]:
    e = r["e2e"]
    w, x = e["wall_ms"], e["execution_ms"]
    statuses = ", ".join(f"{k} {v}" for k, v in e["statuses"].items())
    lines = [
        f"{e['questions']} questions, one runner kept warm (one question before, not counted), "
        f"offline model, bundled catalog. *Wall*: from `StartExecution` until the runner's "
        f"polling sees the execution finished (the polling interval is included). "
        f"*Execution*: first to last history event. Statuses: {statuses}.",
        "",
    ]
    lines += _table(
        ["", "p50", "p99", "mean", "min", "max"],
        [
            ["Wall", ms(w["p50"]), ms(w["p99"]), ms(w["mean"]), ms(w["min"]), ms(w["max"])],
            ["Execution", ms(x["p50"]), ms(x["p99"]), ms(x["mean"]), ms(x["min"]), ms(x["max"])],
        ],
    )
    lines += [
        f"The handlers' own time is {pct(e['handler_share'])} of the execution time "
        f"(sum of every Lambda call over the sum of executions): the rest is the engine, "
        f"moto's interpreter evaluating the ASL and its JSONata. "
        f"{e['states_entered_mean']:.1f} states entered per question on average.",
        "",
    ]
    return lines


def _cost(r: dict[str, Any]) -> list[str]:
    c = r["cost"]
    infra = c["infrastructure"]
    lines = [
        f"Prices: `bench/prices.json`, taken {c['prices_taken']} ({c['region']}), list prices "
        f"to be checked. Infrastructure from the {infra['questions']} end-to-end questions; "
        f"tokens from the {c['tokens']['compact']['questions']} token questions.",
        "",
        "**Infrastructure** (measured durations; each Lambda call billed per 1 ms at its "
        "configured memory; Express per 100 ms at 64 MB):",
        "",
    ]
    rows = []
    for arch, a in infra["by_architecture"].items():
        rows.append(
            [
                arch,
                usd(infra["express_request_usd"]),
                usd(infra["express_duration_usd"]),
                usd(infra["lambda_request_usd"]),
                usd(a["lambda_duration_usd"]),
                f"**{usd(a['total_usd'])}**",
                usd(a["per_second_of_model_latency_usd"]),
            ]
        )
    lines += _table(
        [
            "Lambda",
            "Express requests",
            "Express duration",
            "Lambda requests",
            "Lambda duration",
            "Infrastructure",
            "+ per 1 s of model latency per call",
        ],
        rows,
    )
    funcs = infra["functions"]
    lines += [
        "Per question: "
        + "; ".join(
            f"{k} {f['calls_per_question']:.2f} calls x {ms(f['mean_billed_ms'])} at "
            f"{f['memory_mb']} MB"
            for k, f in funcs.items()
        )
        + f"; Express {ms(infra['express_billed_ms_mean'])} billed, "
        f"{infra['state_transitions_per_question']:.1f} state transitions "
        f"(as a Standard workflow: {usd(infra['standard_workflow_usd'])} per 1,000).",
        "",
        f"Express memory by AWS's rule (50 MB + definition + peak state data x "
        f"{c['express_memory']['map_items']} Map items): "
        f"{c['express_memory']['estimate_mb']:.1f} MB, inside the 64 MB billed.",
        "",
        f"**Tokens** ({c['model']}):",
        "",
    ]
    rows = [
        [
            mode,
            n(t["input_per_question"]),
            n(t["cache_read_per_question"]),
            n(t["cache_write_per_question"]),
            n(t["output_per_question"]),
            f"**{usd(t['usd'])}**",
        ]
        for mode, t in c["tokens"].items()
    ]
    lines += _table(
        ["Mode", "Input / question", "Cache read", "Cache write", "Output", "Per 1,000 questions"],
        rows,
    )
    return lines


def _notes(r: dict[str, Any]) -> list[str]:
    return [f"- {note}" for note in r["notes"]] + [""]


def _run(r: dict[str, Any]) -> list[str]:
    m = r["meta"]
    rows = [[name, f"{seconds:.1f} s"] for name, seconds in m["section_seconds"].items()]
    lines = [
        f"Profile `{m['profile']}`, seed {m['seed']}, started {m['started_utc']}, "
        f"commit {m['commit']}, Python {m['python']}, moto {m['moto']}, "
        f"{m['cpus']} CPUs ({m['platform']}).",
        "",
        f"**Whole run: {m['run_seconds']:.1f} s** (limit {m['limit_seconds']} s). "
        f"Load average (1 min) {m['load_average'][0]:.1f} at the start and "
        f"{m['load_average'][1]:.1f} at the end: the machine is shared, and other work "
        f"slows every timing.",
        "",
    ]
    return lines + _table(["Section", "Time"], rows)


def markdown(results: dict[str, Any]) -> str:
    lines = ["# storechat benchmark", ""]
    lines += [
        "How to read each figure: `docs/bench.md`. Every number below was measured by "
        "`python -m bench` on the machine described at the end.",
        "",
    ]
    parts = (_summary, _tokens, _payload, _parallel, _lambdas, _e2e, _cost, _notes, _run)
    for heading, part in zip(SECTIONS, parts, strict=True):
        lines += [heading, "", *part(results)]
    return "\n".join(lines).rstrip() + "\n"


def write(results: dict[str, Any], out: Path) -> tuple[Path, Path]:
    out.mkdir(parents=True, exist_ok=True)
    md_path, json_path = out / "results.md", out / "results.json"
    md_path.write_text(markdown(results), encoding="utf-8")
    json_path.write_text(json.dumps(results, indent=2) + "\n", encoding="utf-8")
    return md_path, json_path
