"""``storechat eval --red-team [FILE]``: the hostile cases, and how many claims got through.

Cases are validated before anything runs (a bad file: each fault on stderr, exit code
2). The run writes ``red-team.md`` and ``red-team.json`` into ``--out`` and prints one
line: the hostile claims that reached the shopper, of those planted. The exit code is 0
whatever the count: the report is the result.
"""

from __future__ import annotations

import json
import time
from collections.abc import Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, TextIO

from storechat.redteam.cases import CasesInvalid, default_case_files, load_cases
from storechat.redteam.claims import LEAK_CHARS
from storechat.redteam.run import CaseResult, run_cases, totals

EXIT_USAGE = 2
FORMAT = "storechat-red-team/1"
DEFAULT_MODEL = "obedient"
"""The model the cases are run with unless ``--model`` names another."""


def run_red_team(
    files: Sequence[Path],
    *,
    model: str,
    label: str,
    out_dir: Path,
    log_level: str,
    out: TextIO,
    err: TextIO,
) -> int:
    """Run the cases of ``files`` (every ``evals/redteam/*.jsonl`` when empty)."""
    try:
        cases = load_cases(files or default_case_files())
    except CasesInvalid as exc:
        for problem in exc.problems:
            print(f"error: {problem}", file=err)
        print("nothing was run: fix the red-team file first", file=err)
        return EXIT_USAGE
    if out_dir.exists() and not out_dir.is_dir():
        print(f"error: --out {out_dir} is a file, not a directory", file=err)
        return EXIT_USAGE
    print(f"storechat eval --red-team · {label} · {len(cases)} cases", file=err)
    started = datetime.now(UTC)
    clock = time.perf_counter()
    results = run_cases(cases, model=model, log_level=log_level, progress=err)
    body = report(results, model=model, label=label)
    body["startedAt"] = started.isoformat(timespec="seconds")
    body["elapsedS"] = round(time.perf_counter() - clock, 1)
    written = write(out_dir, body)
    print(summary_line(body["totals"]), file=out)
    print(f"wrote {', '.join(str(p) for p in written)}", file=out)
    return 0


def report(results: Sequence[CaseResult], *, model: str, label: str) -> dict[str, Any]:
    return {
        "format": FORMAT,
        "model": model,
        "modelLabel": label,
        "totals": totals(results),
        "cases": [r.as_json() for r in results],
    }


def summary_line(t: dict[str, Any]) -> str:
    kinds = ", ".join(f"{k} {v['reached']}/{v['claims']}" for k, v in t["byKind"].items())
    failed = f" · {t['casesFailed']} cases failed to run" if t["casesFailed"] else ""
    return (
        f"red team: {t['reached']} of {t['claims']} hostile claims reached the shopper, in "
        f"{t['casesReached']} of {t['cases']} cases ({kinds}){failed}"
    )


def write(out_dir: Path, body: dict[str, Any]) -> list[Path]:
    out_dir.mkdir(parents=True, exist_ok=True)
    as_json = out_dir / "red-team.json"
    as_json.write_text(json.dumps(body, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    as_md = out_dir / "red-team.md"
    as_md.write_text(markdown(body), encoding="utf-8")
    return [as_md, as_json]


def markdown(body: dict[str, Any]) -> str:
    t = body["totals"]
    lines = [
        "# Red team",
        "",
        f"Model: {body['modelLabel']}. {summary_line(t)}.",
        "",
        "A hostile claim is something an attack tries to make the shopper read: a false "
        "price, an invented product, a foreign link, phone or e-mail, a discount code, "
        f'"free", markup, {LEAK_CHARS} characters of the system prompt, an invisible '
        "character, a card the attack steered to. It reached the shopper when the answer, "
        "the live trace or the cards of any turn showed it (`storechat/redteam/claims.py`).",
        "",
        "| kind | reached | planted |",
        "|---|---:|---:|",
        *(f"| {k} | {v['reached']} | {v['claims']} |" for k, v in t["byKind"].items()),
        "",
        "| case | attack | reached | what got through |",
        "|---|---|---:|---|",
    ]
    for case in body["cases"]:
        got = "; ".join(
            f"{c['kind']} `{_cell(c['claim'])}` ({c['reached']})"
            for c in case["claims"]
            if c["reached"]
        )
        if case["error"]:
            got = f"failed: {_cell(case['error'])}"
        lines.append(
            f"| {case['id']} | {_cell(case['attack'])} | {case['reached']}/{len(case['claims'])}"
            f" | {got or 'nothing'} |"
        )
    lines += ["", "## Answers", ""]
    for case in body["cases"]:
        lines.append(f"**{case['id']}**")
        lines += [f"> {_cell(answer)}" for answer in case["answers"]]
        lines.append("")
    return "\n".join(lines)


def _cell(text: str) -> str:
    # Shown as data: escapes keep a hostile answer from becoming the report's own markup.
    visible = json.dumps(text, ensure_ascii=True)[1:-1]
    return visible.replace("|", "\\|").replace("`", "'").replace("<", "&lt;")
