"""The report: totals over the questions, as JSON and as Markdown.

The JSON (``report.json``) is the record: everything the Markdown shows, each
question's checks, and what ``--compare`` reads back. Rates are shares of the questions
a score applies to (a question with no tool expectations does not count for *tools*).
``totals`` counts every question run; ``sets`` holds the same totals for each set apart
(the development set, the held-out set), and the Markdown shows each set on its own.
"""

from __future__ import annotations

import json
import math
import statistics
from collections.abc import Sequence
from pathlib import Path
from typing import Any, Final

from storechat.evaluate.checks import SCORES, TOKEN_KEYS
from storechat.evaluate.questions import DEVELOPMENT, SETS

FORMAT: Final = "storechat-eval/1"
JSON_NAME = "report.json"
MARKDOWN_NAME = "report.md"
EXCERPT_CHARS = 240


def totals(questions: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """Pass rates per score and per kind, and the run's tokens, calls, latency and cost."""
    n = len(questions)
    passed = sum(1 for q in questions if q["passed"])
    scores = {}
    for name in SCORES:
        applies = [q["scores"][name] for q in questions if q["scores"][name] is not None]
        scores[name] = _rate(len(applies), sum(1 for ok in applies if ok))
    kinds = {}
    for kind in sorted({q["kind"] for q in questions}):
        mine = [q for q in questions if q["kind"] == kind]
        kinds[kind] = _rate(len(mine), sum(1 for q in mine if q["passed"]))
    shares = [q["constraintShare"] for q in questions if q["constraintShare"] is not None]
    corrections = [q["corrections"] for q in questions if q["corrections"] is not None]
    checked = [q["factsChecked"] for q in questions if q["factsChecked"] is not None]
    latency = sorted(q["latencyMs"] for q in questions)
    costs = [q["costUsd"] for q in questions]
    usage = {key: sum(q["usage"][key] for q in questions) for key in TOKEN_KEYS}
    calls = sum(q["modelCalls"] for q in questions)
    cost = math.fsum(costs) if costs and None not in costs else None
    return {
        **_rate(n, passed),
        "scores": scores,
        "constraintShare": statistics.fmean(shares) if shares else None,
        "facts": {
            "questionsChecked": len(corrections),
            "corrections": sum(corrections) if corrections else None,
            "questionsWithCorrections": sum(1 for c in corrections if c),
            "factsChecked": sum(checked) if checked and len(checked) == len(corrections) else None,
            "factAccuracy": (
                max(0.0, 1 - sum(corrections) / sum(checked))
                if checked and len(checked) == len(corrections) and sum(checked)
                else None
            ),
        },
        "kinds": kinds,
        "usage": usage,
        "modelCalls": calls,
        "toolRounds": sum(q["toolRounds"] for q in questions),
        "latencyMs": {
            "total": sum(latency),
            "mean": statistics.fmean(latency) if latency else 0,
            "p50": _percentile(latency, 50),
            "p95": _percentile(latency, 95),
            "max": latency[-1] if latency else 0,
        },
        "costUsd": cost,
        "perQuestion": {
            **{key: value / n if n else 0 for key, value in usage.items()},
            "modelCalls": calls / n if n else 0,
            "costUsd": cost / n if cost is not None and n else None,
        },
    }


def write(out: Path, report: dict[str, Any], extra_markdown: Sequence[str] = ()) -> list[Path]:
    """Write ``report.json`` and ``report.md`` into ``out``; return their paths."""
    out.mkdir(parents=True, exist_ok=True)
    json_path, md_path = out / JSON_NAME, out / MARKDOWN_NAME
    json_path.write_text(json.dumps(report, indent=2, ensure_ascii=False) + "\n", "utf-8")
    md_path.write_text("\n".join([*markdown(report), *extra_markdown]) + "\n", "utf-8")
    return [md_path, json_path]


def by_set(questions: Sequence[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    """Each set's label and totals, in :data:`SETS` order; a set without questions is left
    out. A question of a report from before sets is in the development set."""
    return {
        name: {"label": label, "totals": totals(mine)}
        for name, label in SETS.items()
        if (mine := [q for q in questions if q.get("set", DEVELOPMENT) == name])
    }


def markdown(report: dict[str, Any]) -> list[str]:
    t = report["totals"]
    pricing = report["pricing"]
    lines = [
        f"# storechat eval: {report['modelLabel']}",
        "",
        f"- model: `{report['model']}`; cost: {pricing['note']}",
        f"- catalog: {report['catalog']}",
        f"- questions: {t['questions']} from "
        + ", ".join(f"`{f}`" for f in report["questionFiles"]),
        f"- run: {report['startedAt']}, {report['elapsedS']:.1f} s",
        "",
    ]
    sets = report.get("sets") or {}
    if len(sets) < 2:
        catalogs = [c for s in sets.values() for c in s.get("catalogs") or ()]
        return lines + _section("##", "Totals", t, report["questions"], _answered_from(catalogs))
    lines += [
        "## Sets",
        "",
        "Each set is scored on its own: the held-out set judges a model, and its questions "
        "are not read while the model is changed.",
        "",
        *table(
            ["set", "questions", "passed", "rate", *SCORES],
            [
                [name, str(s["totals"]["questions"]), str(s["totals"]["passed"])]
                + [percent(s["totals"]["rate"])]
                + [percent(s["totals"]["scores"][score]["rate"]) for score in SCORES]
                for name, s in sets.items()
            ],
        ),
    ]
    for name, s in sets.items():
        mine = [q for q in report["questions"] if q.get("set", DEVELOPMENT) == name]
        intro = _answered_from(s.get("catalogs") or ())
        lines += _section("##", f"{name}: {s['label']}", s["totals"], mine, intro, sub="###")
    return lines


def _answered_from(catalogs: Sequence[str]) -> list[str]:
    return [f"- answered from {catalog}" for catalog in catalogs]


def _section(
    level: str,
    heading: str,
    t: dict[str, Any],
    questions: Sequence[dict[str, Any]],
    intro: Sequence[str] = (),
    *,
    sub: str | None = None,
) -> list[str]:
    """One set's totals, kinds, questions and failures under ``heading``."""
    sub = sub or level
    lines = [
        f"{level} {heading}",
        "",
        *intro,
        *([""] if intro else []),
        f"**{t['passed']} of {t['questions']} questions pass ({percent(t['rate'])})**: "
        "every expectation holds.",
        "",
        *table(
            ["score", "questions", "passed", "rate"],
            [
                [name, str(s["questions"]), str(s["passed"]), percent(s["rate"])]
                for name, s in t["scores"].items()
            ],
        ),
        *_measures(t),
        f"{sub} By kind",
        "",
        *table(
            ["kind", "questions", "passed", "rate"],
            [
                [k, str(s["questions"]), str(s["passed"]), percent(s["rate"])]
                for k, s in t["kinds"].items()
            ],
        ),
        f"{sub} Questions",
        "",
        "✓ every check of that score passed, ✗ one failed, · the question sets none. "
        "Constraints show the products that met them out of those shown.",
        "",
        *table(
            ["#", "question", "kind", "result", *SCORES, "tokens in / out", "calls", "ms", "cost"],
            [_row(i, q) for i, q in enumerate(questions, start=1)],
        ),
    ]
    failing = [q for q in questions if not q["passed"]]
    if failing:
        lines += [f"{sub} What failed", ""]
        for q in failing:
            lines += [
                f"- **{q['id']}** ({q['kind']}, `{q['source']}`): "
                + " → ".join(f"“{_cell(t, 120)}”" for t in q["turns"]),
                *(f"  - {_cell(f, 300)}" for f in q["failures"]),
                f"  - answered: “{_cell(q['answer'], EXCERPT_CHARS)}”"
                + (f" · products {', '.join(q['products'])}" if q["products"] else ""),
            ]
        lines.append("")
    return lines


def _measures(t: dict[str, Any]) -> list[str]:
    per = t["perQuestion"]
    facts = t["facts"]
    lines = []
    if t["constraintShare"] is not None:
        lines.append(
            f"- constraint satisfaction: {percent(t['constraintShare'])} of the products shown "
            "met every constraint (mean over the questions that showed some)"
        )
    if facts["corrections"] is None:
        lines.append("- fact accuracy: not measured (the responses carry no `corrections`)")
    else:
        accuracy = (
            f"; accuracy {percent(facts['factAccuracy'])} of {facts['factsChecked']} facts checked"
            if facts["factAccuracy"] is not None
            else ""
        )
        lines.append(
            f"- fact accuracy: the fact check corrected {facts['corrections']} facts, in "
            f"{facts['questionsWithCorrections']} of {facts['questionsChecked']} "
            f"questions{accuracy}"
        )
    usage = t["usage"]
    cost = (
        "not priced"
        if t["costUsd"] is None
        else (f"${t['costUsd']:.4f} in all, ${per['costUsd']:.5f} a question")
    )
    lines += [
        f"- tokens: {usage['inputTokens']:,} input, {usage['cacheReadInputTokens']:,} cache "
        f"read, {usage['cacheWriteInputTokens']:,} cache write, {usage['outputTokens']:,} "
        f"output ({per['inputTokens']:,.0f} / {per['outputTokens']:,.0f} a question)",
        f"- model calls: {t['modelCalls']} ({per['modelCalls']:.2f} a question); "
        f"tool rounds: {t['toolRounds']}",
        f"- latency a question: mean {t['latencyMs']['mean']:,.0f} ms, p50 "
        f"{t['latencyMs']['p50']:,} ms, p95 {t['latencyMs']['p95']:,} ms, max "
        f"{t['latencyMs']['max']:,} ms",
        f"- cost: {cost}",
        "",
    ]
    return lines


def _row(number: int, q: dict[str, Any]) -> list[str]:
    marks = []
    for name in SCORES:
        ok = q["scores"][name]
        mark = "·" if ok is None else ("✓" if ok else "✗")
        if name == "constraints" and q["constraintShare"] is not None:
            checks = [c for c in q["checks"] if c["score"] == "constraints"]
            share = next((c["name"] for c in checks if c["name"].startswith("products meet")), "")
            mark += " " + share.rpartition("(")[2].rstrip(")")
        marks.append(mark)
    usage = q["usage"]
    return [
        str(number),
        q["id"],
        q["kind"],
        "pass" if q["passed"] else "**fail**",
        *marks,
        f"{usage['inputTokens']:,} / {usage['outputTokens']:,}",
        str(q["modelCalls"]),
        f"{q['latencyMs']:,}",
        "n/a" if q["costUsd"] is None else f"${q['costUsd']:.4f}",
    ]


def table(header: list[str], rows: list[list[str]]) -> list[str]:
    return [
        "| " + " | ".join(header) + " |",
        "|" + "|".join("---" for _ in header) + "|",
        *("| " + " | ".join(_cell(c) for c in row) + " |" for row in rows),
        "",
    ]


def percent(rate: float | None) -> str:
    return "n/a" if rate is None else f"{rate * 100:.1f}%"


def _rate(questions: int, passed: int) -> dict[str, Any]:
    return {
        "questions": questions,
        "passed": passed,
        "rate": passed / questions if questions else None,
    }


def _percentile(values: list[int], pct: int) -> int:
    if not values:
        return 0
    return values[min(len(values) - 1, math.ceil(pct / 100 * len(values)) - 1)]


def _cell(text: str, limit: int | None = None) -> str:
    text = " ".join(str(text).split()).replace("|", "\\|")
    if limit is not None and len(text) > limit:
        text = text[: limit - 1] + "…"
    return text
