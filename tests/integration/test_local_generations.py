"""A long local session holds only a few executions: moto forgets the finished ones.

moto keeps every execution of a state machine, every event of it included, for as long as
the state machine exists; the local runner makes a new generation of it every few
questions and deletes the one it replaced (``storechat.local.generations``). What that
does to memory is the bench's to measure (``bench/memory.py``); these tests check what is
kept and that nothing a caller still needs is taken away.
"""

from __future__ import annotations

import gc
import threading
import time
from typing import Any

import boto3
import pytest

from storechat.local import LocalStorechat, generations
from storechat.local.runner import REGION

QUESTION = "Do you have a light Windows laptop under $800?"


def held() -> dict[str, int]:
    """Each state machine moto holds, with how many executions it keeps."""
    sfn = boto3.client("stepfunctions", region_name=REGION)
    return {
        machine["name"]: len(
            sfn.list_executions(stateMachineArn=machine["stateMachineArn"])["executions"]
        )
        for machine in sfn.list_state_machines()["stateMachines"]
    }


def test_a_long_conversation_keeps_only_its_latest_executions(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Given generations of three executions each
    monkeypatch.setattr(generations, "GENERATION_SIZE", 3)
    with LocalStorechat() as local:
        # When a shopper asks ten questions in one conversation
        session = None
        bodies = []
        for turn in range(10):
            body = local.ask(QUESTION if turn % 2 == 0 else "And a cheaper one?", session).body
            assert body is not None and body["outcome"] == "answered"
            session = body["sessionId"]
            bodies.append(body)
        kept = held()

    # Then every question was answered in the one conversation
    assert {body["sessionId"] for body in bodies} == {session}
    # and moto holds the current generation's executions, not the ten
    assert len(kept) == 1 and sum(kept.values()) <= 3, kept


def test_a_generation_whose_execution_still_runs_is_kept_until_it_ends(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Given generations of two, and a model that holds the first question until released
    monkeypatch.setattr(generations, "GENERATION_SIZE", 2)
    release = threading.Event()

    def held_model(event: dict[str, Any], context: Any) -> Any:
        from converse.handler import lambda_handler

        if "hold" in str(event["messages"][0]):
            release.wait(30)
        return lambda_handler(event, context)

    sfn = boto3.client("stepfunctions", region_name=REGION)
    with LocalStorechat(overrides={"converse": held_model}) as local:
        first_arn = local.state_machine_arn
        first = first_arn.rsplit(":", 1)[1]
        # When its caller stops waiting for the held question
        with pytest.raises(TimeoutError):
            local.ask("hold this question", timeout_s=0.5)
        # and more questions replace its generation
        for _ in range(3):
            assert (local.ask(QUESTION).body or {}).get("outcome") == "answered"

        # Then its generation is kept while the execution runs
        assert first in held()
        # and deleted once it has ended, at the next question's end
        release.set()
        deadline = time.monotonic() + 30
        while (
            time.monotonic() < deadline
            and sfn.list_executions(stateMachineArn=first_arn, statusFilter="RUNNING")["executions"]
        ):
            time.sleep(0.1)
        assert (local.ask(QUESTION).body or {}).get("outcome") == "answered"
        assert first not in held()


def test_the_executions_of_a_replaced_generation_leave_the_process(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Given generations of two executions, and six questions asked
    from moto.stepfunctions.parser.backend.execution import Execution

    monkeypatch.setattr(generations, "GENERATION_SIZE", 2)
    with LocalStorechat() as local:
        for _ in range(6):
            assert (local.ask(QUESTION).body or {}).get("outcome") == "answered"
        gc.collect()
        alive = sum(isinstance(o, Execution) for o in gc.get_objects())

    # Then no more of them are left anywhere in the process than the last generations hold
    # (moto kept every one, through its registry of model instances, until told to forget)
    assert alive <= 4, alive
