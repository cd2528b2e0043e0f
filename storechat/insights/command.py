"""``storechat insights [--stack NAME] [--days N] [--json] [--as-eval FILE]``.

Reads the turns of a deployed stack's sessions table (``--stack``, with the operator's
AWS credentials, as ``storechat doctor`` does), or the local ones (``storechat serve``,
``ask`` and ``chat`` keep them in ``.storechat/sessions.json``), and prints the period's
figures (:mod:`storechat.insights.report`). ``--as-eval FILE`` also writes the answers
rated down as eval questions (``storechat.evaluate.questions``): the question, what was
shown and the shopper's comment as a note, for a team to say what a right answer is.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, TextIO

from storechat.doctor.deployed import Output, StackUnreadable, connect
from storechat.evaluate.questions import Question
from storechat.insights.report import figures, in_period
from storechat.insights.turns import Read, local_items, read_items, table_items

EXIT_UNREADABLE = 1
SESSIONS_FILE = "sessions.json"
FEEDBACK_KIND = "feedback"


def add_insights_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--stack", help="a deployed stack, e.g. Storechat-prod (default: local)")
    parser.add_argument("--region", help="the stack's Region (default: your AWS configuration's)")
    parser.add_argument("--profile", help="the AWS profile to use")
    parser.add_argument("--days", type=_days, default=7, help="the period: the last N days (7)")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    parser.add_argument(
        "--as-eval",
        type=Path,
        metavar="FILE",
        help="also write the answers rated down as eval questions (JSON lines) to FILE",
    )


def _days(text: str) -> int:
    days = int(text)
    if days < 1:
        raise argparse.ArgumentTypeError("--days must be 1 or more")
    return days


def run_insights(args: argparse.Namespace, *, out: TextIO = sys.stdout) -> int:
    now = datetime.now(UTC)
    console: tuple[str, str] | None = None
    try:
        if args.stack:
            stack = connect(args.stack, region=args.region, profile=args.profile)
            table = stack.outputs.get(Output.SESSIONS_TABLE_NAME)
            if not table:
                raise StackUnreadable(f"stack {args.stack!r} has no {Output.SESSIONS_TABLE_NAME}")
            read = read_items(table_items(stack.client("dynamodb"), table))
            source = f"stack {args.stack}, table {table}"
            arn = stack.outputs.get(Output.STATE_MACHINE_ARN)
            console = (stack.region, arn) if arn else None
        else:
            path = args.settings.home / SESSIONS_FILE
            read = read_items(local_items(path))
            source = f"local, {path}"
    except (StackUnreadable, OSError, ValueError) as exc:
        print(f"error: cannot read the turns: {exc}", file=sys.stderr)
        return EXIT_UNREADABLE
    turns = in_period(read.turns, args.days, now)
    report = figures(turns, days=args.days, now=now, console=console)
    if args.json:
        json.dump({**report, "source": source, "unreadable": read.unreadable}, out, indent=2)
        out.write("\n")
    else:
        print_report(report, source, read, out)
    if args.as_eval:
        written = write_eval(args.as_eval, report["ratedDown"])
        print(f"wrote {written} question(s) rated down to {args.as_eval}", file=sys.stderr)
    return 0


def _rows(entries: Sequence[dict[str, Any]], key: str, out: TextIO) -> None:
    if not entries:
        print("  (none)", file=out)
    for entry in entries:
        print(f"  {entry['count']:>4}  {entry[key]}", file=out)


def print_report(report: dict[str, Any], source: str, read: Read, out: TextIO) -> None:
    period = report["period"]
    outcomes = report["outcomes"]
    reasons = ", ".join(f"{r} {n}" for r, n in report["fallbackReasons"].items())
    print(f"storechat insights: the last {period['days']} day(s), {source}", file=out)
    print(f"  from {period['from']} to {period['to']}", file=out)
    if read.unreadable:
        print(f"  ({read.unreadable} item(s) not read: not turns this version knows)", file=out)
    print(file=out)
    print(f"Questions      {report['questions']:>6}  in {report['sessions']} session(s)", file=out)
    print(f"Answered       {outcomes['answered']:>6}", file=out)
    why = f"  ({reasons})" if reasons else ""
    print(f"Fallback       {outcomes['fallback']:>6}{why}", file=out)
    print(f"Refused        {outcomes['refused']:>6}", file=out)
    if outcomes["truncated"]:
        print(f"Truncated      {outcomes['truncated']:>6}", file=out)
    print(file=out)
    print(
        f"Searches that found nothing: {report['searchesFoundNothing']} of "
        f"{report['searches']}, for:",
        file=out,
    )
    _rows(report["foundNothingFor"], "text", out)
    print("Asked for, not carried (words and brands the catalog does not know):", file=out)
    _rows(report["notCarried"], "text", out)
    print("Questions asked most:", file=out)
    _rows(report["topQuestions"], "text", out)
    print(file=out)
    ratings = report["ratings"]
    print(f"Rated helpful: {ratings['up']}, not helpful: {ratings['down']}", file=out)
    for entry in report["ratedDown"]:
        print(f"  {entry['at'][:16].replace('T', ' ')}  {entry['question']}", file=out)
        if entry["comment"]:
            print(f"      comment: {entry['comment']}", file=out)
        print(f"      shown: {', '.join(entry['shown']) or 'no products'}", file=out)
        where = f" (find it by name in {entry['console']})" if entry["console"] else ""
        print(f"      execution: {entry['execution']}{where}", file=out)
    print(file=out)
    for title, key in (
        ("Products shown most:", "shown"),
        ("Products clicked most:", "clicked"),
        ("Products added to cart most:", "addedToCart"),
    ):
        print(title, file=out)
        _rows(report["products"][key], "productId", out)


def eval_question(entry: dict[str, Any]) -> dict[str, Any]:
    """An answer rated down as an eval question, with nothing expected yet: what a right
    answer is, the team writes in ``expect`` from the note and what was shown (until then
    ``storechat eval`` refuses the question, which would pass whatever the answer).
    Raises ValueError for a question the eval could never send."""
    name = entry.get("turnId") or entry["execution"]
    question = {
        "id": f"{FEEDBACK_KIND}-{str(name).lower()[:24]}",
        "kind": FEEDBACK_KIND,
        "turns": [entry["question"]],
        "expect": {},
        "shown": entry["shown"],
        "note": entry["comment"] or "rated not helpful, without a comment",
    }
    # Every rule of a question but the expectation the team is to write.
    Question.model_validate({**question, "expect": {"minProducts": 0}})
    return question


def write_eval(path: Path, rated_down: Sequence[dict[str, Any]]) -> int:
    """Add each answer rated down to ``path`` (JSON lines) unless its id is there already;
    returns how many were added."""
    lines = path.read_text(encoding="utf-8").splitlines() if path.exists() else []
    have = {json.loads(line).get("id") for line in lines if line.strip()}
    added = []
    for entry in rated_down:
        try:
            question = eval_question(entry)
        except ValueError as exc:  # a question the /query contract would refuse
            print(f"warning: not written: {entry['question'][:60]!r}: {exc}", file=sys.stderr)
            continue
        if question["id"] not in have:
            have.add(question["id"])
            added.append(json.dumps(question, ensure_ascii=False))
    if added:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text("\n".join([*lines, *added]) + "\n", encoding="utf-8")
    return len(added)
