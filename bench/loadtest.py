"""A bounded load test of the dev server on loopback, with the offline model.

``python -m bench.loadtest --shoppers 20 --questions 50`` starts ``storechat
serve`` in-process on 127.0.0.1 (a free port), lets each shopper hold one session
and ask its questions one after another over HTTP, then checks that no request
failed and that every turn was saved to its session. It prints throughput and
latency percentiles. Traffic never leaves the loopback interface.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import threading
import time
import urllib.error
import urllib.request
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import boto3

QUESTIONS = (
    "What Windows PC do you have which is best for a high school student?",
    "Which of those is the lightest?",
    "Do you have Samsung phones under $900?",
    "Any books by J.R.R. Tolkien?",
    "I need a gaming laptop under $2000",
    "Show me Apple laptops for travel",
)


@dataclass
class LoadReport:
    shoppers: int
    questions_each: int
    requests: int
    failures: int
    lost_turns: int
    wall_s: float
    throughput_rps: float
    p50_ms: float
    p99_ms: float
    max_ms: float
    statuses: dict[str, int] = field(default_factory=dict)

    def lines(self) -> list[str]:
        return [
            f"load: {self.shoppers} shoppers x {self.questions_each} questions = "
            f"{self.requests} requests in {self.wall_s:.1f} s",
            f"  throughput {self.throughput_rps:.2f} requests/s; latency p50 {self.p50_ms:.0f} ms, "
            f"p99 {self.p99_ms:.0f} ms, max {self.max_ms:.0f} ms",
            f"  failed requests: {self.failures}; lost session turns: {self.lost_turns}; "
            f"statuses: {self.statuses}",
        ]


def _post(url: str, body: dict[str, Any], timeout_s: float) -> tuple[int, dict[str, Any]]:
    request = urllib.request.Request(
        url, data=json.dumps(body).encode(), headers={"Content-Type": "application/json"}
    )
    try:
        with urllib.request.urlopen(request, timeout=timeout_s) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as exc:
        return exc.code, json.loads(exc.read() or b"{}")


def _percentile(values: list[float], q: float) -> float:
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q / 100 * (len(ordered) - 1)))]


def _turns_saved(session_id: str) -> int:
    from storechat.local.runner import REGION, SESSIONS_TABLE

    paginator = boto3.client("dynamodb", region_name=REGION).get_paginator("query")
    return sum(
        page["Count"]
        for page in paginator.paginate(
            TableName=SESSIONS_TABLE,
            KeyConditionExpression="sessionId = :s",
            ExpressionAttributeValues={":s": {"S": session_id}},
            Select="COUNT",
        )
    )


def run_load(shoppers: int, questions: int, *, timeout_s: float = 60) -> LoadReport:
    from storechat.local import LocalStorechat
    from storechat.server import make_server, running

    latencies: list[float] = []
    statuses: dict[str, int] = {}
    sessions: dict[int, str] = {}
    lock = threading.Lock()

    with LocalStorechat() as local, running(make_server(local, "127.0.0.1", 0)) as server:
        url = f"{server.url.rstrip('/')}/query"

        def shopper(n: int) -> None:
            session: str | None = None
            for i in range(questions):
                body: dict[str, Any] = {"message": QUESTIONS[(n + i) % len(QUESTIONS)]}
                if session:
                    body["sessionId"] = session
                started = time.perf_counter()
                try:
                    status, answer = _post(url, body, timeout_s)
                except (OSError, ValueError) as exc:
                    status, answer = 0, {"error": type(exc).__name__}
                elapsed = (time.perf_counter() - started) * 1000
                with lock:
                    latencies.append(elapsed)
                    statuses[str(status)] = statuses.get(str(status), 0) + 1
                if status == 200:
                    session = answer["sessionId"]
            if session:
                with lock:
                    sessions[n] = session

        threads = [threading.Thread(target=shopper, args=(n,)) for n in range(shoppers)]
        started = time.perf_counter()
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        wall = time.perf_counter() - started
        saved = {n: _turns_saved(sid) for n, sid in sessions.items()}

    requests = shoppers * questions
    failures = requests - statuses.get("200", 0)
    lost = sum(questions - saved.get(n, 0) for n in range(shoppers))
    return LoadReport(
        shoppers=shoppers,
        questions_each=questions,
        requests=requests,
        failures=failures,
        lost_turns=lost,
        wall_s=round(wall, 2),
        throughput_rps=round(requests / wall, 2),
        p50_ms=round(statistics.median(latencies), 1),
        p99_ms=round(_percentile(latencies, 99), 1),
        max_ms=round(max(latencies), 1),
        statuses=statuses,
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="bench.loadtest", description=__doc__.splitlines()[0])
    parser.add_argument("--shoppers", type=int, default=20)
    parser.add_argument("--questions", type=int, default=50)
    parser.add_argument("--out", type=Path, help="also write the report as JSON here")
    args = parser.parse_args(argv)
    if args.shoppers < 1 or args.questions < 1 or args.shoppers * args.questions > 5000:
        print("error: need 1+ shoppers and questions, at most 5,000 requests", file=sys.stderr)
        return 2
    report = run_load(args.shoppers, args.questions)
    print("\n".join(report.lines()))
    if args.out:
        args.out.parent.mkdir(parents=True, exist_ok=True)
        args.out.write_text(json.dumps(asdict(report), indent=2) + "\n", encoding="utf-8")
    return 0 if report.failures == 0 and report.lost_turns == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
