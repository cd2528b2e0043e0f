"""A long dev-server session's memory: the process's resident set over many questions.

``python -m bench.memory --questions 300`` serves the page in-process (the offline model,
127.0.0.1, a free port), asks the questions over HTTP in conversations of five turns, one
after another, and prints the resident set size (``VmRSS``, after a garbage collection) at
the start and every ``--every`` questions, as JSON. ``--keep-executions`` gives the state
machine one generation for the whole run (``storechat.local.generations``), so that moto
keeps every execution as it did before the runner forgot finished ones: the "before"
figure. :func:`run` measures both, each in its own interpreter, since a process's resident
set hardly shrinks once it has grown.
"""

from __future__ import annotations

import argparse
import gc
import json
import subprocess
import sys
import time
import urllib.request
from pathlib import Path
from typing import Any

from bench.fmt import table

REPO_ROOT = Path(__file__).resolve().parent.parent
TURNS_PER_CONVERSATION = 5
QUESTIONS = (
    "What Windows PC do you have which is best for a high school student?",
    "Which of those is the lightest?",
    "Do you have Samsung phones under $900?",
    "Any books by J.R.R. Tolkien?",
    "I need a gaming laptop under $2000",
)
MODES = {"kept": True, "forgotten": False}
"""Each mode by its name in the results, and whether moto keeps every execution in it."""


def rss_mb() -> float:
    """This process's resident set, in MB, after a collection (the figure ``ps`` shows)."""
    gc.collect()
    for line in Path("/proc/self/status").read_text(encoding="ascii").splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    raise RuntimeError("no VmRSS in /proc/self/status")


def _executions_held() -> int:
    import boto3

    from storechat.local.runner import REGION

    sfn = boto3.client("stepfunctions", region_name=REGION)
    pages = sfn.get_paginator("list_executions")
    return sum(
        len(page["executions"])
        for machine in sfn.list_state_machines()["stateMachines"]
        for page in pages.paginate(stateMachineArn=machine["stateMachineArn"])
    )


def session(questions: int, every: int, *, keep_executions: bool) -> dict[str, Any]:
    """Ask ``questions`` through the dev server; the resident set every ``every`` of them."""
    from storechat.local import LocalStorechat, generations
    from storechat.server import make_server, running

    if keep_executions:
        generations.GENERATION_SIZE = questions + 1
    samples: list[tuple[int, float]] = []
    statuses: dict[str, int] = {}
    with LocalStorechat() as local, running(make_server(local, "127.0.0.1", 0)) as server:
        url = f"{server.url.rstrip('/')}/query"
        local.prime_catalog_cache()
        samples.append((0, rss_mb()))
        started = time.perf_counter()
        conversation: str | None = None
        for asked in range(1, questions + 1):
            body: dict[str, Any] = {"message": QUESTIONS[(asked - 1) % len(QUESTIONS)]}
            if conversation and (asked - 1) % TURNS_PER_CONVERSATION:
                body["sessionId"] = conversation
            request = urllib.request.Request(
                url, json.dumps(body).encode(), {"Content-Type": "application/json"}
            )
            with urllib.request.urlopen(request, timeout=120) as response:
                statuses[str(response.status)] = statuses.get(str(response.status), 0) + 1
                conversation = json.loads(response.read())["sessionId"]
            if asked % every == 0 or asked == questions:
                samples.append((asked, rss_mb()))
        wall = time.perf_counter() - started
        held = _executions_held()
    first, last = samples[0][1], samples[-1][1]
    return {
        "questions": questions,
        "keep_executions": keep_executions,
        "samples": [{"questions": q, "rss_mb": round(mb, 1)} for q, mb in samples],
        "rss_start_mb": round(first, 1),
        "rss_end_mb": round(last, 1),
        "growth_mb": round(last - first, 1),
        "growth_kb_per_question": round((last - first) * 1024 / questions, 1),
        "executions_held_at_end": held,
        "statuses": statuses,
        "wall_s": round(wall, 1),
    }


LABELS = {
    "kept": "moto keeps every execution (before)",
    "forgotten": "finished executions forgotten (now)",
}


def run(questions: int, every: int) -> dict[str, Any]:
    """Both modes, each in an interpreter of its own, side by side (a resident set is the
    process's own, so the two do not disturb each other's figure)."""
    running: dict[str, subprocess.Popen[str]] = {}
    for name, keep in MODES.items():
        command = [sys.executable, "-m", "bench.memory", "--questions", str(questions)]
        command += ["--every", str(every), *(["--keep-executions"] if keep else [])]
        running[name] = subprocess.Popen(
            command, cwd=REPO_ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
        )
    results: dict[str, Any] = {}
    for name, child in running.items():
        out, err = child.communicate(timeout=3600)
        if child.returncode != 0:
            raise RuntimeError(f"bench.memory ({name}) failed: {err[-2000:]}")
        results[name] = json.loads(out)
    return results


def table_lines(r: dict[str, Any]) -> list[str]:
    """The section's table: one row per mode."""
    rows = [
        [
            LABELS[name],
            f"{m['questions']:,}",
            f"{m['rss_start_mb']:,.0f} MB",
            f"{m['rss_end_mb']:,.0f} MB",
            f"{m['growth_mb']:+,.0f} MB",
            f"{m['growth_kb_per_question']:+,.0f} KB",
            f"{m['executions_held_at_end']:,}",
        ]
        for name, m in r.items()
    ]
    samples = " · ".join(
        f"{name}: " + ", ".join(f"{s['rss_mb']:,.0f}" for s in m["samples"])
        for name, m in r.items()
    )
    return [
        "`storechat serve` in-process with the offline model, asked one question after "
        f"another over HTTP, in conversations of {TURNS_PER_CONVERSATION}; the resident set "
        "after a garbage collection (`python -m bench.memory`). Each mode runs in its own "
        "interpreter; both at once.",
        "",
        *table(
            [
                "Mode",
                "Questions",
                "RSS at start",
                "RSS at end",
                "Growth",
                "Per question",
                "Executions moto holds at the end",
            ],
            rows,
        ),
        f"RSS along the way (MB): {samples}.",
        "",
    ]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="bench.memory", description=__doc__.splitlines()[0])
    parser.add_argument("--questions", type=int, default=300)
    parser.add_argument("--every", type=int, default=50)
    parser.add_argument("--keep-executions", action="store_true")
    args = parser.parse_args(argv)
    if not 1 <= args.questions <= 5000 or args.every < 1:
        print("error: 1 to 5,000 questions, sampled every 1 or more", file=sys.stderr)
        return 2
    result = session(args.questions, args.every, keep_executions=args.keep_executions)
    print(json.dumps(result))
    return 0


if __name__ == "__main__":
    sys.exit(main())
