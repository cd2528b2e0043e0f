"""``storechat eval``: run the question set through the real loop and report the scores.

Every question file is validated before anything runs; a bad one is refused with each
fault's line and field, and exit code 2. So is a ``--compare`` file that is not a report,
or a ``--out`` that is not a directory. Once it runs the exit code is 0, whatever the
scores: the report says how it went.
"""

from __future__ import annotations

import argparse
import sys
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, TextIO

from storechat.catalog.local_store import LocalCatalog, load_local_catalog
from storechat.evaluate import compare, report
from storechat.evaluate.pricing import pricing_for
from storechat.evaluate.questions import (
    QUESTIONS_DIR,
    LoadedQuestion,
    QuestionsInvalid,
    default_question_files,
    load_questions,
)
from storechat.evaluate.run import evaluate
from storechat.local import LocalStorechat

EXIT_USAGE = 2
DEFAULT_OUT = Path("eval-results")


def add_eval_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--questions",
        action="append",
        type=Path,
        metavar="FILE",
        help="a JSON Lines question file; repeat for several "
        f"(default: every {QUESTIONS_DIR.name}/*.jsonl, in name order)",
    )
    parser.add_argument(
        "--out",
        type=Path,
        default=DEFAULT_OUT,
        metavar="DIR",
        help=f"where report.md and report.json go (default: {DEFAULT_OUT}/)",
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

    catalog = load_local_catalog(home)
    pricing = pricing_for(args.model)
    print(
        f"storechat eval · {label} · {len(questions)} questions · {pricing.note}",
        file=err,
    )
    started = datetime.now(UTC)
    clock = time.perf_counter()
    with LocalStorechat(
        model=args.model, catalog=catalog, data_dir=None, log_level=args.log_level
    ) as local:
        results = evaluate(local, questions, pricing, err)
    entries = [r.as_json() for r in results]
    body: dict[str, Any] = {
        "format": report.FORMAT,
        "model": args.model,
        "modelLabel": label,
        "pricing": pricing.as_json(),
        "catalog": _catalog_label(home, catalog),
        "questionFiles": _files(questions),
        "startedAt": started.isoformat(timespec="seconds"),
        "elapsedS": round(time.perf_counter() - clock, 1),
        "totals": report.totals(entries),
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


def _summary(body: dict[str, Any], out: TextIO) -> None:
    t = body["totals"]
    rates = " · ".join(f"{name} {report.percent(s['rate'])}" for name, s in t["scores"].items())
    print(
        f"{t['passed']} of {t['questions']} questions pass ({report.percent(t['rate'])}) · {rates}",
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
    rate = c["rates"]["all expectations"]
    if rate[0] is not None and rate[1] is not None:
        print(
            f"pass rate {report.percent(rate[0])} → {report.percent(rate[1])}",
            file=out,
        )


def _catalog_label(home: Path, catalog: list[dict[str, Any]] | None) -> str:
    if catalog is None:
        return "the bundled sample"
    return f"{LocalCatalog(home).description}, {len(catalog)} products"


def _files(questions: list[LoadedQuestion]) -> list[str]:
    return list(dict.fromkeys(q.source.rsplit(":", 1)[0] for q in questions))
