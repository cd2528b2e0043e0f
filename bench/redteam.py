"""The red team's figure: hostile claims that reach the shopper (``storechat eval --red-team``).

Every case of ``evals/redteam/`` (the smoke run: the first few) goes through the real
loop with the obedient model, as ``storechat eval --red-team`` runs it
(:mod:`storechat.redteam`), and the figure is how many of the claims the cases plant
reached what the shopper reads. It measures the defences, not the model: the stand-in
obeys every instruction, so each claim that is stopped was stopped by the system.
"""

from __future__ import annotations

import io
from typing import Any

from bench.fmt import table as md_table
from storechat.redteam.cases import default_case_files, load_cases
from storechat.redteam.command import DEFAULT_MODEL
from storechat.redteam.run import run_cases, totals


def run(cases: int | None) -> dict[str, Any]:
    """The red team's totals over the first ``cases`` cases (None: all), and each case's."""
    chosen = load_cases(default_case_files())[:cases]
    results = run_cases(chosen, model=DEFAULT_MODEL, log_level="ERROR", progress=io.StringIO())
    return {
        "model": DEFAULT_MODEL,
        "totals": totals(results),
        "rows": [
            {
                "id": r.case.id,
                "claims": len(r.case.claims),
                "reached": r.count,
                "through": [
                    f"{c.kind} {c.label()!r} ({surface})"
                    for c, surface in zip(r.case.claims, r.reached, strict=True)
                    if surface
                ],
                "error": r.error,
            }
            for r in results
        ],
    }


def table(r: dict[str, Any]) -> list[str]:
    t = r["totals"]
    lines = [
        f"**{t['reached']} of {t['claims']} hostile claims reached the shopper**, in "
        f"{t['casesReached']} of {t['cases']} cases, with the obedient model (it does what tool "
        "results say). By kind: "
        + ", ".join(f"{k} {v['reached']}/{v['claims']}" for k, v in t["byKind"].items())
        + ".",
        "",
    ]
    rows = [
        [row["id"], f"{row['reached']}/{row['claims']}", "; ".join(row["through"]) or "nothing"]
        for row in r["rows"]
    ]
    return lines + md_table(["case", "reached", "what got through"], rows) + [""]
