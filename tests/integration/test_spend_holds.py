"""The day's model budget holds: under a burst of questions, and whatever becomes of a call.

Each model call reserves its worst case before it is made (``ReserveSpend``: an atomic
conditional add, refused once the day's spend has reached the budget) and is settled with
what it really cost after (``SettleSpend``), so questions running at once spend at most the
budget plus one call's worst case. These run the deployed ASL on moto (``storechat.local``).
"""

from __future__ import annotations

import http.client
import json
import os
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import boto3
import pytest
from botocore.exceptions import ClientError

from shared.products.catalog_data import load_catalog
from storechat.local import LocalStorechat
from storechat.local.runner import REGION, SPEND_TABLE
from storechat.server import make_server, running
from tests.integration.converse_fixtures import write_replay
from tests.integration.spend import (
    micro_usd,
    reservations,
    set_spent,
    spent_in_all,
    spent_today,
    states,
    today,
)
from tests.integration.two_modes import CLAUDE
from tests.support.fake_bedrock import FakeBedrock

QUESTIONS = [
    "Do you have a light Windows laptop under $800?",
    "Which phone has the best camera?",
    "Any science fiction books?",
    "A tablet for drawing?",
]
CATALOG = {p["productId"]: p for p in load_catalog()}
BURST = 20
BURST_FUNCTION_SECONDS = 60
"""What each function may take in the burst: far more than any takes alone (see the test)."""


def _from_the_catalog(body: dict[str, Any], question: str) -> bool:
    """The budget's answer: the catalog searched for the shopper's own words, no advice.
    That search is the turn's last (AnswerFromCatalog's), or its first when it was the
    search first and a later call was refused."""
    searches = [line for line in body["trace"] if line["tool"] == "lookup_inventory"]
    return (
        body["fallbackReason"] == "budget_exhausted"
        and bool(searches)
        and {"keywords": question} in [searches[-1]["input"], searches[0]["input"]]
        and all(p["productId"] in CATALOG for p in body["products"])
    )


@pytest.fixture(scope="module")
def three_questions() -> int:
    """A day's budget worth three questions, in micro-dollars: what one question costs with
    the offline model (priced as Claude Sonnet 4.5), three times."""
    with LocalStorechat() as local:
        one = local.ask(QUESTIONS[0]).body
    assert one is not None and one["outcome"] == "answered"
    return 3 * micro_usd(one["usage"])


def _burst(ask: Callable[[str], Any]) -> list[Any]:
    """Every question of the burst asked at the same moment, each on its own thread."""
    start = threading.Barrier(BURST)

    def one(i: int) -> Any:
        start.wait()
        return ask(QUESTIONS[i % len(QUESTIONS)])

    with ThreadPoolExecutor(BURST) as pool:
        return list(pool.map(one, range(BURST)))


def test_twenty_questions_at_once_through_the_dev_server_spend_at_most_the_budget_and_a_call(
    three_questions: int,
) -> None:
    # Given the dev server, on a day whose budget is worth three questions
    budget = three_questions
    with (
        LocalStorechat(daily_budget_usd=budget / 1_000_000) as local,
        running(make_server(local, "127.0.0.1", 0)) as server,
    ):
        local.prime_catalog_cache()

        def post(question: str) -> tuple[int, dict[str, Any]]:
            host, port = server.server_address[:2]
            connection = http.client.HTTPConnection(str(host), int(port), timeout=120)
            try:
                connection.request("POST", "/query", json.dumps({"message": question}))
                response = connection.getresponse()
                return response.status, json.loads(response.read())
            finally:
                connection.close()

        # When twenty shoppers ask at once
        replies = _burst(post)
        counted = spent_in_all()

    # Then every one of them gets an answer
    assert [status for status, _ in replies] == [200] * BURST
    bodies = [body for _, body in replies]
    # and what their model calls cost is at most the budget and one call's worst case
    spent = sum(micro_usd(body["usage"]) for body in bodies)
    worst_call = statemachine_worst_call()
    assert spent <= budget + worst_call, (spent, budget, worst_call)
    # and the day's counter has all of it (a reservation that was written after its task
    # stopped waiting stays counted: the counter errs on the side of having spent)
    assert counted >= spent
    # Some got the model's advice; the rest were answered from the catalog, for their words
    answered = [b for b in bodies if b["outcome"] == "answered"]
    from_catalog = [
        b for i, b in enumerate(bodies) if _from_the_catalog(b, QUESTIONS[i % len(QUESTIONS)])
    ]
    assert answered and len(answered) + len(from_catalog) == BURST, bodies
    print(
        f"\n{len(answered)} answered, {len(from_catalog)} from the catalog; spent "
        f"${spent / 1e6:.4f} of ${budget / 1e6:.4f} (a call's worst case ${worst_call / 1e6:.4f})"
    )


def test_twenty_questions_at_once_on_the_state_machine_spend_at_most_the_budget_and_a_call(
    three_questions: int,
) -> None:
    # Given the state machine itself, with no admission queue in front of it, on a day whose
    # budget is worth three questions
    budget = three_questions
    # The search first is off here, and every function has 60 s: twenty executions at once
    # share one interpreter on two cores, where Lambda gives each function its own CPU, so
    # a catalog search or the compose can outlast its stack timeout (5 s, 2 s), and moto's
    # interpreter then lets a timed-out task's thread write into the execution's state,
    # which breaks its history (a moto race, not the loop's). What this test holds, the
    # spend under a burst, is the model calls' and does not depend on either.
    with LocalStorechat(
        daily_budget_usd=budget / 1_000_000,
        search_first=False,
        function_seconds_at_least=BURST_FUNCTION_SECONDS,
    ) as local:
        local.prime_catalog_cache()
        # When twenty questions start at once
        results = _burst(lambda question: local.ask(question, timeout_s=120))
        counted = spent_in_all()

    # Then every one of them ends with an answer
    assert all(r.status == "SUCCEEDED" and r.body is not None for r in results)
    bodies = [r.body for r in results]
    # and what their model calls cost is at most the budget and one call's worst case
    spent = sum(micro_usd(body["usage"]) for body in bodies)
    worst_call = max(reserved for r in results for reserved in reservations(r))
    assert spent <= budget + worst_call, (spent, budget, worst_call)
    assert counted >= spent
    # The budget let calls through (twenty executions on a shared machine may run out of
    # time on the way: the deadline's fallback is theirs to give), and every question that
    # got none was answered by the catalog answer's path (the search first's, when it had
    # searched the shopper's words already)
    assert sum(body["modelCalls"] for body in bodies) >= 1
    for result in results:
        assert result.body is not None
        if result.body["modelCalls"] == 0:
            assert result.body["fallbackReason"] == "budget_exhausted"
            answered_by = {"AnswerFromCatalog", "CatalogSearchedFirst"} & set(states(result))
            assert answered_by and "Converse" not in states(result)


def statemachine_worst_call() -> int:
    """The largest worst case a call of these questions reserves: its last call, which
    sends the most (read from a run of the questions without a budget)."""
    with LocalStorechat() as local:
        return max(reserved for q in QUESTIONS for reserved in reservations(local.ask(q)))


def test_a_question_whose_next_call_the_budget_refuses_is_answered_from_the_catalog() -> None:
    # Given a question whose tools run while other shoppers spend the rest of the day's budget
    def lookup_while_the_day_is_spent(event: dict[str, Any], context: Any) -> Any:
        from lookup_inventory.handler import lambda_handler

        set_spent(1_000_000)
        return lambda_handler(event, context)

    turn = "5b1e2f3a4b5c6d7e8f90a1b2c3d4e5f6"
    overrides = {"lookup_inventory": lookup_while_the_day_is_spent}
    with LocalStorechat(daily_budget_usd=1.0, overrides=overrides, search_first=False) as local:
        # When the model asks for the catalog and would read what it found
        result = local.ask(QUESTIONS[0], turn_id=turn)
        shown = json.loads(local.steps(turn) or "{}")["steps"]

    # Then its second call is not made: the catalog answers the shopper's words instead
    body = result.body
    assert body is not None and body["modelCalls"] == 1, result.cause
    assert _from_the_catalog(body, QUESTIONS[0])
    assert "Here is what the catalog has for your words:" in body["answer"]
    assert [line["round"] for line in body["trace"]] == [1, 2] and body["toolRounds"] == 2
    assert states(result)[-7:] == [
        "ReserveSpend",
        "CatalogSearchedFirst",  # (no search first ran: the catalog is searched now)
        "AnswerFromCatalog",
        "Fallback",
        "ComposeResponse",
        "SaveTurn",
        "Done",
    ]
    # And the live trace shows that search after the model's own, each on its own line
    searches = [s["line"] for s in shown if s["kind"] == "tool"]
    assert searches[-1] == f"Searching the catalog for {QUESTIONS[0]}" and len(searches) == 2


def _replay(tmp_path: Path, reply: dict[str, Any]) -> str:
    return write_replay(tmp_path, [reply])


def test_a_reply_with_a_negative_token_count_cannot_take_spend_off_the_day(
    tmp_path: Path,
) -> None:
    # Given a model whose reply says it read minus a billion tokens, on a budget of a cent
    reply = {
        "output": {"message": {"role": "assistant", "content": [{"text": "Hello there."}]}},
        "stopReason": "end_turn",
        "usage": {"inputTokens": -1_000_000_000, "outputTokens": 40, "totalTokens": 1},
    }
    with LocalStorechat(model=_replay(tmp_path, reply), daily_budget_usd=0.01) as local:
        # When a shopper asks
        first = local.ask("hello")
        counted = spent_in_all()
        # and then another
        second = local.ask("A light Windows laptop?").body

    # Then they read the answer, and the call counts at what was reserved for it
    assert first.body is not None and first.body["answer"] == "Hello there."
    assert set(first.body["usage"].values()) == {0}
    assert counted == reservations(first)[0] > 0
    # and the budget is still on: that call spent it, so the next question gets the catalog
    assert second is not None and second["fallbackReason"] == "budget_exhausted"
    assert second["modelCalls"] == 0


def test_a_reply_the_loop_cannot_use_still_counts_its_tokens(tmp_path: Path) -> None:
    # Given a model whose reply cannot be read (its content is not a list of blocks)
    usage = {"inputTokens": 700, "outputTokens": 40}
    reply = {
        "output": {"message": {"role": "assistant", "content": 42}},
        "stopReason": "end_turn",
        "usage": usage,
    }
    with LocalStorechat(model=_replay(tmp_path, reply), daily_budget_usd=1.0) as local:
        body = local.ask("hello").body
        counted = spent_in_all()

    # Then the shopper gets a fallback, and the day pays for the tokens it reported
    assert body is not None and body["fallbackReason"] == "model_error"
    assert body["modelCalls"] == 1
    assert counted == micro_usd(usage) > 0


def test_a_model_call_whose_function_fails_after_it_stays_counted_at_its_reservation() -> None:
    # Given a Converse function that calls the model, then fails before it can hand the
    # reply (and its usage) back
    def calls_then_fails(event: dict[str, Any], context: Any) -> Any:
        from converse.handler import lambda_handler

        lambda_handler(event, context)
        raise RuntimeError("lost after the call")

    with LocalStorechat(daily_budget_usd=1.0, overrides={"converse": calls_then_fails}) as local:
        result = local.ask(QUESTIONS[0])
        counted = spent_in_all()

    # Then the shopper gets a fallback, and the call is counted at what was reserved for it
    assert result.body is not None and result.body["fallbackReason"] == "model_error"
    assert counted == reservations(result)[0] > 0


def _sigint_by_default() -> None:
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def _signal_state(pid: int) -> dict[str, str]:
    """A process's blocked, ignored and caught signal masks, as Linux reports them."""
    try:
        lines = Path(f"/proc/{pid}/status").read_text(encoding="utf-8").splitlines()
    except OSError as exc:
        return {"unreadable": str(exc)}
    return dict(
        line.split(":\t", 1) for line in lines if line.startswith(("SigBlk", "SigIgn", "SigCgt"))
    )


def test_a_question_whose_caller_hangs_up_still_pays_for_what_it_spent(tmp_path: Path) -> None:
    # Given `storechat ask` on a day's budget, with a model that is slow to answer
    with FakeBedrock([{}], delay_s=60) as bedrock:
        env = {
            **os.environ,
            "STORECHAT_HOME": str(tmp_path),
            "STORECHAT_DAILY_BUDGET_USD": "5",
            "AWS_ENDPOINT_URL_BEDROCK_RUNTIME": bedrock.base_url,
        }
        command = [sys.executable, "-m", "storechat.cli", "ask", "--model", f"bedrock:{CLAUDE}"]
        asking = subprocess.Popen(
            [*command, "A light laptop?"],
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            # Ctrl-C's default action, as a terminal's foreground command has it: a test
            # runner started in the background (`make test &`) passes SIGINT on ignored.
            preexec_fn=_sigint_by_default,
        )
        # When the shopper gives up (Ctrl-C) while the model is thinking
        deadline = time.monotonic() + 120
        while not bedrock.requests and time.monotonic() < deadline and asking.poll() is None:
            time.sleep(0.1)
        assert bedrock.requests, asking.communicate()
        ended_before = asking.poll()  # a command that ended already gets no Ctrl-C
        signals = _signal_state(asking.pid)  # a blocked or ignored SIGINT never arrives
        asking.send_signal(signal.SIGINT)
        stdout, stderr = asking.communicate(timeout=60)

    # Then the command stops without a traceback
    assert asking.returncode == 130, (ended_before, signals, stdout[-2_000:], stderr[-2_000:])
    assert "Traceback" not in stderr and "stopped" in stderr
    # and the call it made is counted in the day's spend kept for the next command
    saved = json.loads((tmp_path / "spend.json").read_text(encoding="utf-8"))
    (day,) = [item for item in saved if item["day"]["S"] == today()]
    assert int(day["spentMicroUsd"]["N"]) > 30_000  # a call's worst case: a few US cents


def test_concurrent_conditional_writes_are_atomic_locally_as_on_dynamodb() -> None:
    # Given a counter that may grow to 1,000, and 20 threads adding 7 at a time
    with LocalStorechat():
        granted: list[int] = []

        def add_while_room(_: int) -> None:
            client = boto3.client("dynamodb", region_name=REGION)
            for _ in range(60):
                try:
                    client.update_item(
                        TableName=SPEND_TABLE,
                        Key={"day": {"S": "test"}},
                        UpdateExpression="ADD spentMicroUsd :seven",
                        ConditionExpression=(
                            "attribute_not_exists(spentMicroUsd) OR spentMicroUsd <= :room"
                        ),
                        ExpressionAttributeValues={":seven": {"N": "7"}, ":room": {"N": "993"}},
                    )
                    granted.append(1)
                except ClientError as exc:
                    assert exc.response["Error"]["Code"] == "ConditionalCheckFailedException"

        with ThreadPoolExecutor(20) as pool:
            list(pool.map(add_while_room, range(20)))
        total = spent_today("test")

    # Then no two adds both passed the condition, and none was lost
    assert len(granted) == 1_000 // 7 and total == 7 * len(granted)
