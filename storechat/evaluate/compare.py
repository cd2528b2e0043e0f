"""What got better and what got worse between two reports, and the floor a run must hold.

:func:`compare` matches questions by id: a question that passes now and failed before
is *better*, the reverse *worse*; a question in only one report is listed apart. Rates
are compared per score and per kind, in all and for each set (development, held out)
apart, and the run's figures (tokens, model calls, latency, cost per question) side by
side. A report from before sets reads as the development set alone.

:func:`below_floor` holds one set's totals to a floor::

    {"passRate": 0.5, "constraintShare": 0.9,
     "scores": {"constraints": 0.8, ...}, "kinds": {"budget": 0.6, ...}}

Every rate named there must be reached; a rate the floor does not name is free. A floor
file holds one such floor per set (``{"sets": {"development": {...}, "heldout": {...}}}``),
which :func:`below_floors` checks and :func:`floors_of` writes.
"""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

from storechat.evaluate.report import FORMAT, by_set, percent, table


class ReportInvalid(Exception):
    """A file ``--compare`` (or a floor check) cannot read."""


def load_report(path: Path) -> dict[str, Any]:
    try:
        report = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError) as exc:
        raise ReportInvalid(f"{path}: cannot be read: {exc}") from exc
    except ValueError as exc:
        raise ReportInvalid(f"{path}: not valid JSON ({exc})") from exc
    if not isinstance(report, dict) or report.get("format") != FORMAT:
        raise ReportInvalid(f"{path}: not a storechat eval report ({FORMAT})")
    return report


def compare(old: dict[str, Any], new: dict[str, Any]) -> dict[str, Any]:
    before = {q["id"]: q for q in old["questions"]}
    after = {q["id"]: q for q in new["questions"]}
    both = [qid for qid in after if qid in before]
    to, tn = old["totals"], new["totals"]
    earlier = by_set(old["questions"])
    return {
        "old": {"model": old.get("model"), "startedAt": old.get("startedAt")},
        "new": {"model": new.get("model"), "startedAt": new.get("startedAt")},
        "better": [qid for qid in both if after[qid]["passed"] and not before[qid]["passed"]],
        "worse": [
            {"id": qid, "failures": after[qid]["failures"]}
            for qid in both
            if before[qid]["passed"] and not after[qid]["passed"]
        ],
        "added": [qid for qid in after if qid not in before],
        "removed": [qid for qid in before if qid not in after],
        **_rates(to, tn),
        "sets": {
            name: _rates(earlier.get(name, {}).get("totals") or {}, s["totals"])
            for name, s in by_set(new["questions"]).items()
        },
        "perQuestion": {
            key: [to["perQuestion"].get(key), value] for key, value in tn["perQuestion"].items()
        }
        | {"latencyMs": [to["latencyMs"]["mean"], tn["latencyMs"]["mean"]]},
    }


def _rates(to: dict[str, Any], tn: dict[str, Any]) -> dict[str, Any]:
    """The pass rates of two runs' totals side by side (``to`` empty: not run before)."""
    scores, kinds = to.get("scores") or {}, to.get("kinds") or {}
    return {
        "rates": {
            "all expectations": [to.get("rate"), tn["rate"]],
            **{n: [scores.get(n, {}).get("rate"), s["rate"]] for n, s in tn["scores"].items()},
            "constraint share": [to.get("constraintShare"), tn.get("constraintShare")],
        },
        "kinds": {k: [kinds.get(k, {}).get("rate"), s["rate"]] for k, s in tn["kinds"].items()},
    }


def markdown(c: dict[str, Any]) -> list[str]:
    lines = [
        "## Compared with the earlier run",
        "",
        f"Earlier: `{c['old']['model']}` at {c['old']['startedAt']}; "
        f"now: `{c['new']['model']}` at {c['new']['startedAt']}.",
        "",
        f"- better (passes now, failed before): {', '.join(c['better']) or 'none'}",
        f"- worse (fails now, passed before): {', '.join(w['id'] for w in c['worse']) or 'none'}",
    ]
    lines += [f"  - {w['id']}: {'; '.join(w['failures'])}" for w in c["worse"]]
    if c["added"]:
        lines.append(f"- new questions: {', '.join(c['added'])}")
    if c["removed"]:
        lines.append(f"- questions no longer asked: {', '.join(c['removed'])}")
    lines.append("")
    sets = c.get("sets") or {}
    if len(sets) < 2:
        lines += _rate_table(c)
    for name, rates in sets.items() if len(sets) > 1 else ():
        lines += [f"### {name}", "", *_rate_table(rates)]
    figures = [
        [key, _figure(a), _figure(b), _delta(a, b, rate=False)]
        for key, (a, b) in c["perQuestion"].items()
    ]
    return lines + table(["per question", "before", "now", "change"], figures)


def _rate_table(c: dict[str, Any]) -> list[str]:
    rows = [
        [name, percent(a), percent(b), _delta(a, b, rate=True)]
        for name, (a, b) in [
            *c["rates"].items(),
            *((f"kind {k}", v) for k, v in c["kinds"].items()),
        ]
    ]
    return table(["pass rate", "before", "now", "change"], rows)


def below_floors(sets: dict[str, Any], floors: dict[str, Any]) -> list[str]:
    """:func:`below_floor` for every set a floor file names (``sets`` as :func:`by_set`
    gives them); a set the floor names but the run did not ask is a problem too."""
    problems = []
    for name, floor in (floors.get("sets") or {}).items():
        if name not in sets:
            problems.append(f"{name}: no questions of this set were run")
            continue
        problems += [f"{name} {problem}" for problem in below_floor(sets[name]["totals"], floor)]
    return problems


def floors_of(sets: dict[str, Any], step: float = 0.01) -> dict[str, Any]:
    """A floor for each set, at what it scored (``sets`` as :func:`by_set` gives them)."""
    return {"sets": {name: floor_of(s["totals"], step) for name, s in sets.items()}}


def below_floor(totals: dict[str, Any], floor: dict[str, Any]) -> list[str]:
    """Each rate of ``totals`` under the floor's, as ``name: got < floor``; none: it holds."""
    pairs: list[tuple[str, Any, Any]] = [
        ("passRate", totals.get("rate"), floor.get("passRate")),
        ("constraintShare", totals.get("constraintShare"), floor.get("constraintShare")),
    ]
    for group, source in (("scores", totals["scores"]), ("kinds", totals["kinds"])):
        for name, wanted in (floor.get(group) or {}).items():
            pairs.append((f"{group}.{name}", (source.get(name) or {}).get("rate"), wanted))
    return [
        f"{name}: {_figure(got)} < {wanted}"
        for name, got, wanted in pairs
        if wanted is not None and (got is None or got < wanted)
    ]


def floor_of(totals: dict[str, Any], step: float = 0.01) -> dict[str, Any]:
    """A floor at what ``totals`` scored, rounded down to ``step``."""

    def down(rate: float | None) -> float | None:
        return None if rate is None else round(math.floor(rate / step + 1e-9) * step, 4)

    return {
        "passRate": down(totals["rate"]),
        "constraintShare": down(totals.get("constraintShare")),
        "scores": {name: down(s["rate"]) for name, s in totals["scores"].items()},
        "kinds": {name: down(s["rate"]) for name, s in totals["kinds"].items()},
    }


def _figure(value: Any) -> str:
    if value is None:
        return "n/a"
    if isinstance(value, float):
        if value == 0:
            return "0"
        return f"{value:.5f}" if abs(value) < 1 else f"{value:,.2f}"
    return f"{value:,}" if isinstance(value, int) else str(value)


def _delta(a: Any, b: Any, *, rate: bool) -> str:
    if not isinstance(a, int | float) or not isinstance(b, int | float):
        return ""
    if rate:
        return f"{(b - a) * 100:+.1f} points"
    if a == 0:
        return ""
    return f"{(b - a) / a * 100:+.1f}%"
