"""``storechat eval``: run the question set through the real loop and report the scores.

Every question file, and every companion catalog beside one, is validated before
anything runs; a bad one is refused with each fault's line and field, and exit code 2.
So is a ``--compare`` file that is not a report, or a ``--out`` that is not a
directory. Once it runs the exit code is 0, whatever the scores: the report says how it
went, each set (development, held out) apart.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import Counter
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, TextIO

from storechat.catalog.local_store import LocalCatalog
from storechat.evaluate import compare, report
from storechat.evaluate.catalogs import CatalogInvalid, ServedCatalog, served_catalogs
from storechat.evaluate.pricing import pricing_for
from storechat.evaluate.questions import (
    HELD_OUT_DIR,
    QUESTIONS_DIR,
    SETS,
    LoadedQuestion,
    QuestionsInvalid,
    default_question_files,
    load_questions,
)
from storechat.evaluate.run import evaluate
from storechat.local import LocalStorechat
from storechat.redteam.command import run_red_team

EXIT_USAGE = 2
DEFAULT_OUT = Path("eval-results")


def add_eval_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--questions",
        action="append",
        type=Path,
        metavar="FILE",
        help="a JSON Lines question file; repeat for several (default: every "
        f"{QUESTIONS_DIR.name}/*.jsonl, then every {QUESTIONS_DIR.name}/{HELD_OUT_DIR.name}/"
        "*.jsonl, the held-out set)",
    )
    parser.add_argument(
        "--out",
        type=Path,
        default=DEFAULT_OUT,
        metavar="DIR",
        help=f"where report.md and report.json go (default: {DEFAULT_OUT}/)",
    )
    parser.add_argument(
        "--red-team",
        nargs="*",
        type=Path,
        metavar="FILE",
        help="run the hostile cases instead of questions (default: every "
        f"{QUESTIONS_DIR.name}/redteam/*.jsonl) and count the hostile claims that reach the "
        "shopper; the model is the obedient stand-in unless --model names another",
    )
    parser.add_argument(
        "--compare",
        type=Path,
        metavar="OLD.json",
        help="an earlier report.json: show what got better and what got worse",
    )


def run_eval(
    args: argparse.Namespace,
    *,
    home: Path,
    label: str,
    out: TextIO | None = None,
    err: TextIO | None = None,
) -> int:
    """Run ``storechat eval`` with parsed ``args``; the catalog is ``home``'s, as for ``ask``."""
    out, err = out or sys.stdout, err or sys.stderr
    if args.red_team is not None:
        return run_red_team(
            args.red_team,
            model=args.model,
            label=label,
            out_dir=args.out,
            log_level=args.log_level,
            out=out,
            err=err,
        )
    files = list(args.questions or default_question_files())
    if not files:
        print(f"error: no question files in {QUESTIONS_DIR}: pass --questions FILE", file=err)
        return EXIT_USAGE
    try:
        questions = load_questions(files)
    except QuestionsInvalid as exc:
        for problem in exc.problems:
            print(f"error: {problem}", file=err)
        print("nothing was run: fix the question file first", file=err)
        return EXIT_USAGE
    try:
        earlier = compare.load_report(args.compare) if args.compare else None
    except compare.ReportInvalid as exc:
        print(f"error: --compare {exc}", file=err)
        return EXIT_USAGE
    if args.out.exists() and not args.out.is_dir():
        print(f"error: --out {args.out} is a file, not a directory", file=err)
        return EXIT_USAGE
    try:
        served = served_catalogs(questions, home)
    except CatalogInvalid as exc:
        for problem in exc.problems:
            print(f"error: {problem}", file=err)
        print("nothing was run: fix the catalog file first", file=err)
        return EXIT_USAGE

    pricing = pricing_for(args.model)
    counts = Counter(q.set for q in questions)
    per_set = ", ".join(f"{counts[name]} {name}" for name in SETS if counts[name])
    print(
        f"storechat eval · {label} · {len(questions)} questions ({per_set}) · {pricing.note}",
        file=err,
    )

    def open_system(catalog: ServedCatalog) -> LocalStorechat:
        return LocalStorechat(
            model=args.model,
            catalog=catalog.products,
            data_dir=None,
            log_level=args.log_level,
            search_first=args.settings.search_first,
        )

    started = datetime.now(UTC)
    clock = time.perf_counter()
    results = evaluate(open_system, questions, served, pricing, err)
    entries = [r.as_json() for r in results]
    body: dict[str, Any] = {
        "format": report.FORMAT,
        "model": args.model,
        "modelLabel": label,
        "pricing": pricing.as_json(),
        "catalog": LocalCatalog(home).description,
        "questionFiles": _files(questions),
        "startedAt": started.isoformat(timespec="seconds"),
        "elapsedS": round(time.perf_counter() - clock, 1),
        "totals": report.totals(entries),
        "sets": _sets(entries, questions, served),
        "questions": entries,
    }
    comparison = compare.compare(earlier, body) if earlier else None
    if comparison:
        body["comparison"] = comparison
    written = report.write(args.out, body, compare.markdown(comparison) if comparison else ())
    _summary(body, out)
    if comparison:
        _changes(comparison, out)
    print(f"wrote {', '.join(str(p) for p in written)}", file=out)
    return 0


def _sets(
    entries: list[dict[str, Any]], questions: list[LoadedQuestion], served: list[ServedCatalog]
) -> dict[str, Any]:
    """Each set's totals, with its question files and the catalogs it was answered from."""
    catalog_of = {position: c.label for c in served for position in c.positions}
    sets = report.by_set(entries)
    for name, s in sets.items():
        mine = [i for i, q in enumerate(questions) if q.set == name]
        s["files"] = _files([questions[i] for i in mine])
        s["catalogs"] = list(dict.fromkeys(catalog_of[i] for i in mine))
    return sets


def _summary(body: dict[str, Any], out: TextIO) -> None:
    t = body["totals"]
    sets = body["sets"]
    for name, s in sets.items() if len(sets) > 1 else [("", {"totals": t})]:
        mine = s["totals"]
        rates = " · ".join(
            f"{score} {report.percent(r['rate'])}" for score, r in mine["scores"].items()
        )
        print(
            f"{name + ': ' if name else ''}{mine['passed']} of {mine['questions']} questions "
            f"pass ({report.percent(mine['rate'])}) · {rates}",
            file=out,
        )
    per = t["perQuestion"]
    cost = "" if per["costUsd"] is None else f" · ${per['costUsd']:.5f}"
    print(
        f"a question: {per['inputTokens']:,.0f} input / {per['outputTokens']:,.0f} output "
        f"tokens · {per['modelCalls']:.2f} model calls · {t['latencyMs']['mean']:,.0f} ms"
        f"{cost}",
        file=out,
    )


def _changes(c: dict[str, Any], out: TextIO) -> None:
    print(f"better: {', '.join(c['better']) or 'none'}", file=out)
    print(f"worse: {', '.join(w['id'] for w in c['worse']) or 'none'}", file=out)
    for w in c["worse"]:
        print(f"  {w['id']}: {'; '.join(w['failures'])}", file=out)
    sets = c.get("sets") or {}
    for name, rates in sets.items() if len(sets) > 1 else [("", c)]:
        before, now = rates["rates"]["all expectations"]
        print(
            f"{name + ' ' if name else ''}pass rate {report.percent(before)} → "
            f"{report.percent(now)}",
            file=out,
        )


def _files(questions: list[LoadedQuestion]) -> list[str]:
    return list(dict.fromkeys(q.source.rsplit(":", 1)[0] for q in questions))
