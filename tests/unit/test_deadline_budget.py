"""The time budget at the end of a turn, read from the ASL the stack deploys.

After the model's deadline there must be time for Fallback, a cold
ComposeResponse and SaveTurn before the state machine's own timeout (below API
Gateway's limit), or the shopper gets a 504 and the turn is lost (``shared.config.time_budget``).
"""

from __future__ import annotations

import json
import math

import pytest

import statemachine
from converse.providers import CONNECT_TIMEOUT_S, MAX_READ_TIMEOUT_S, BedrockProvider
from shared.config.time_budget import API_LIMIT_S, FINISH_RESERVE_MS
from shared.runtime.errors import ModelDeadline

ASL = json.loads(statemachine.read_definition())
STATES = ASL["States"]
DEADLINE_MS = statemachine.TUNING_DEFAULTS["DeadlineMs"]


def test_the_model_is_asked_to_answer_by_the_deadline_not_after_it() -> None:
    deadline = STATES["Converse"]["Arguments"]["Payload"]["deadlineMs"]
    assert deadline == "{% $startedMs + ${DeadlineMs} %}"


def test_compose_and_save_fit_between_the_deadline_and_the_execution_timeout() -> None:
    execution_ms = ASL["TimeoutSeconds"] * 1000
    compose_ms = STATES["ComposeResponse"]["TimeoutSeconds"] * 1000
    assert execution_ms < API_LIMIT_S * 1000  # API Gateway's integration limit
    assert execution_ms >= DEADLINE_MS + FINISH_RESERVE_MS
    # A whole compose attempt plus a second of SaveTurn fits in the reserve
    assert compose_ms + 1000 <= FINISH_RESERVE_MS
    # No fixed back-off can push past it: retries are decided by the time left
    assert "Retry" not in STATES["ComposeResponse"] and "Retry" not in STATES["SaveTurn"]
    again = STATES["RetryCompose"]["Choices"][0]["Condition"]
    assert "< ${DeadlineMs}" in again
    save_again = STATES["RetrySaveTurn"]["Choices"][0]["Condition"]
    assert "< ${DeadlineMs} + 2000" in save_again


@pytest.mark.parametrize(
    ("left_s", "expected"),
    [(7.9, 6), (7.0, 6), (2.2, 1), (60.0, MAX_READ_TIMEOUT_S), (None, MAX_READ_TIMEOUT_S)],
)
def test_the_read_timeout_is_rounded_down_and_counts_the_connect_timeout(
    left_s: float | None, expected: int
) -> None:
    seconds = BedrockProvider.read_timeout_s(left_s)
    assert seconds == expected
    if left_s is not None and left_s < MAX_READ_TIMEOUT_S:
        assert seconds + CONNECT_TIMEOUT_S <= left_s
        assert seconds == math.floor(left_s - CONNECT_TIMEOUT_S)


@pytest.mark.parametrize("left_s", [1.9, 0.3, -2.0])
def test_too_little_time_left_means_no_model_call(left_s: float) -> None:
    class NeverCalled:
        def converse(self, **request: object) -> None:
            raise AssertionError("the model was called without time to answer")

    provider = BedrockProvider(None, client=NeverCalled())
    with pytest.raises(ModelDeadline, match="too late to call the model"):
        provider.converse({"modelId": "m", "messages": []}, timeout_s=left_s)
