"""Figure 9: the live trace. How soon a step is on the page, and what the channel costs.

Questions run through the dev server with the real handlers, each model call held back
(as a Bedrock call takes time) and each tool slowed, so that a turn's steps come seconds
apart. A reader per question does what the page does: from the moment it posts, it reads
``GET /query/{turnId}/steps`` every ``POLL_INTERVAL_MS`` and notes when each step, in
each status, first shows. The delay is that moment less the time the step says it
happened: the write, the wait for the next poll, and the read.

The cost counts the steps' writes (measured: ``PutItem`` on the steps table, in request
units), and the polls: one API Gateway request and one strongly consistent read unit each,
for as long as a question runs on Bedrock (4 to 15 s, issue 18; the headline at 8 s).
"""

from __future__ import annotations

import json
import math
import threading
import time
import urllib.request
import uuid
from collections.abc import Mapping
from typing import Any

from bench.dynamo import CapacityMeter
from bench.fmt import ms, usd
from bench.fmt import table as fmt_table
from bench.questions import TOKEN_QUESTIONS
from bench.stats import summary as stats
from bench.tools import delayed, real_handler
from shared.trace.steps import POLL_INTERVAL_MS
from storechat.local import LocalStorechat
from storechat.local.runner import STEPS_TABLE
from storechat.server import make_server, running

QUESTIONS = 1000
TURN_SECONDS = (4, 8, 15)
HEADLINE_SECONDS = 8


class _Reader(threading.Thread):
    """The page's side of one question: polls until told to stop."""

    def __init__(self, url: str) -> None:
        super().__init__(daemon=True)
        self.url = url
        self.seen: dict[str, tuple[float, int]] = {}
        self.polls = 0
        self.done = threading.Event()

    def run(self) -> None:
        while not self.done.wait(POLL_INTERVAL_MS / 1000):
            with urllib.request.urlopen(self.url, timeout=10) as response:
                body = json.loads(response.read())
            now = time.time() * 1000
            self.polls += 1
            for step in body["steps"]:
                key = f"{step['step']}|{step['status']}"
                self.seen.setdefault(key, (now, int(step["at"])))


def run(
    web_env: Mapping[str, str], questions: int, model_delay_s: float, tool_delay_s: float
) -> dict[str, Any]:
    overrides = {"converse": delayed(real_handler("converse"), model_delay_s)}
    for key in ("lookup_inventory", "get_computer_reviews", "get_book_info"):
        overrides[key] = delayed(real_handler(key), tool_delay_s)
    delays: list[float] = []
    polls: list[int] = []
    steps_per_question: list[int] = []
    write_units: list[float] = []
    meter = CapacityMeter()
    with (
        LocalStorechat(env=dict(web_env), overrides=overrides) as local,
        meter.installed(),
        running(make_server(local, "127.0.0.1", 0)) as server,
    ):
        local.ask(TOKEN_QUESTIONS[0])  # warm: imports and the catalog snapshot, not counted
        meter.drain()
        for question in TOKEN_QUESTIONS[:questions]:
            turn = uuid.uuid4().hex
            reader = _Reader(f"{server.url}query/{turn}/steps")
            body = json.dumps({"message": question, "turnId": turn}).encode()
            request = urllib.request.Request(f"{server.url}query", data=body, method="POST")
            reader.start()
            with urllib.request.urlopen(request, timeout=60) as response:
                response.read()
            reader.done.set()
            reader.join()
            delays += [seen - at for seen, at in reader.seen.values()]
            polls.append(reader.polls)
            steps_per_question.append(len({key.split("|")[0] for key in reader.seen}))
            write_units.append(sum(c.write_units for c in meter.drain() if c.table == STEPS_TABLE))
    return {
        "questions": questions,
        "poll_interval_ms": POLL_INTERVAL_MS,
        "model_delay_s": model_delay_s,
        "tool_delay_s": tool_delay_s,
        "step_delay_ms": stats(delays),
        "steps_seen": len(delays),
        "steps_per_question": sum(steps_per_question) / len(steps_per_question),
        "polls_per_question_measured": sum(polls) / len(polls),
        "write_units_per_question": sum(write_units) / len(write_units),
    }


def cost(figures: dict[str, Any], prices: dict[str, Any]) -> dict[str, Any]:
    """Per 1,000 questions, for turns of each of ``TURN_SECONDS`` on Bedrock."""
    api = prices["api_gateway_rest"]["per_request"]
    dynamo = prices["dynamodb_on_demand"]
    writes = QUESTIONS * figures["write_units_per_question"] * dynamo["per_write_request_unit"]
    by_turn = {}
    for seconds in TURN_SECONDS:
        # The page's last read comes after the answer is back: one more than the turn holds.
        polls = math.ceil(seconds * 1000 / POLL_INTERVAL_MS) + 1
        reads = QUESTIONS * polls * dynamo["per_read_request_unit"]
        requests = QUESTIONS * polls * api
        by_turn[str(seconds)] = {
            "polls_per_question": polls,
            "api_gateway_usd": requests,
            "dynamodb_read_usd": reads,
            "dynamodb_write_usd": writes,
            "usd": requests + reads + writes,
        }
    return {"headline_seconds": HEADLINE_SECONDS, "by_turn_seconds": by_turn}


def table(r: dict[str, Any]) -> list[str]:
    t = r["trace"]
    delay = t["step_delay_ms"]
    lines = [
        f"{t['questions']} question(s) through the dev server, each model call held "
        f"{t['model_delay_s']:g} s and each tool {t['tool_delay_s']:g} s; a reader polls "
        f"every {t['poll_interval_ms']} ms as the page does. {t['steps_seen']} step versions "
        f"seen ({t['steps_per_question']:.1f} steps a question).",
        "",
    ]
    lines += fmt_table(
        ["From a step to its appearance", "p50", "p99", "max"],
        [["through the channel", ms(delay["p50"]), ms(delay["p99"]), ms(delay["max"])]],
    )
    rows = [
        [
            f"{seconds} s",
            str(c["polls_per_question"]),
            usd(c["api_gateway_usd"]),
            usd(c["dynamodb_read_usd"]),
            usd(c["dynamodb_write_usd"]),
            f"**{usd(c['usd'])}**",
        ]
        for seconds, c in t["cost"]["by_turn_seconds"].items()
    ]
    lines += fmt_table(
        ["Turn on Bedrock", "Polls", "API Gateway", "DynamoDB reads", "Step writes", "Per 1,000"],
        rows,
    )
    lines.append(
        f"Step writes: {t['write_units_per_question']:.1f} write units a question (measured); "
        "each poll is one API Gateway request and one strongly consistent read unit. The "
        "writes are also in section 6's DynamoDB row; the polls are not in its infrastructure "
        "total."
    )
    return lines
