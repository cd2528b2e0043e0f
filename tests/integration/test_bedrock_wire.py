"""The Bedrock client makes exactly the calls the state machine asks for: counted on the wire.

A Bedrock-shaped stand-in on 127.0.0.1 answers 429, 503, 500 or slowly, and counts the
requests that reach it. botocore retries by itself unless told not to, and its settings
count differently: the client setting ``max_attempts`` counts retries (``1`` makes two
requests) while the variable ``AWS_MAX_ATTEMPTS`` counts attempts, in every retry mode.
A retry hidden in the SDK would keep throttling from ``RetryModelCall``, send a timed-out
call again past the deadline, and bill a call no reservation covers.
"""

from __future__ import annotations

from typing import Any

import boto3
import pytest
from botocore.config import Config

from converse.providers import BedrockProvider, default_client_factory
from converse.request import build_request
from shared.config.pricing import token_prices
from shared.runtime.errors import ModelDeadline, ModelThrottled, ModelUnavailable
from storechat.local import LocalStorechat
from tests.integration.converse_fixtures import asks_for_tools, lookup, replies
from tests.integration.spend import micro_usd, reservations, spent_in_all, states
from tests.integration.two_modes import CLAUDE
from tests.support.fake_bedrock import THROTTLED, UNAVAILABLE, FakeBedrock, Refusal
from tests.support.store import SAMPLE_PROMPT

REQUEST = build_request(
    [{"role": "user", "content": [{"text": "A light laptop?"}]}],
    system_prompt=SAMPLE_PROMPT,
    model_id="m",
    max_tokens=64,
    temperature=0,
    prompt_caching=False,
)
INTERNAL_ERROR = Refusal(500, "InternalServerException", "Internal error.")
SONNET_ON_BEDROCK = f"bedrock:{CLAUDE}"


def provider(bedrock: FakeBedrock) -> BedrockProvider:
    """The Converse function's Bedrock provider, as deployed, pointed at the stand-in."""
    return BedrockProvider(
        None, client_factory=default_client_factory("us-east-1", endpoint_url=bedrock.base_url)
    )


@pytest.mark.parametrize("mode", ["legacy", "standard", "adaptive"])
@pytest.mark.parametrize(
    ("refusal", "error"),
    [
        (THROTTLED, ModelThrottled),
        (UNAVAILABLE, ModelUnavailable),
        (INTERNAL_ERROR, ModelUnavailable),
    ],
)
def test_a_refused_call_is_one_request_whatever_retries_the_environment_asks_for(
    monkeypatch: pytest.MonkeyPatch, mode: str, refusal: Refusal, error: type[Exception]
) -> None:
    # Given an environment that asks botocore for ten attempts, and Bedrock refusing
    monkeypatch.setenv("AWS_RETRY_MODE", mode)
    monkeypatch.setenv("AWS_MAX_ATTEMPTS", "10")
    with FakeBedrock([refusal] * 10) as bedrock:
        # When the Converse function calls the model
        with pytest.raises(error):
            provider(bedrock).converse(REQUEST, timeout_s=10)

        # Then one request went out, and the refusal reaches the state machine by its name
        assert len(bedrock.requests) == 1


def test_a_call_that_times_out_is_sent_once_and_ends_at_its_deadline() -> None:
    # Given a model that answers after 30 s, and a call with 3 s left before the deadline
    with FakeBedrock([replies("late")], delay_s=30) as bedrock:
        # When the Converse function calls it
        with pytest.raises(ModelDeadline):
            provider(bedrock).converse(REQUEST, timeout_s=3)

        # Then it gave up at its read timeout after one request: a retry would have been
        # sent before the error came back
        assert len(bedrock.requests) == 1


@pytest.mark.parametrize(
    ("retries", "requests"),
    [
        (None, 3),  # botocore's default
        ({"max_attempts": 1}, 2),  # the client setting counts retries...
        ({"max_attempts": 1, "mode": "standard"}, 2),
        ({"max_attempts": 0}, 1),
        ({"total_max_attempts": 1, "mode": "standard"}, 1),  # ...this one, every request
    ],
)
def test_what_botocores_retry_settings_send_on_the_wire(
    retries: dict[str, Any] | None, requests: int
) -> None:
    # Why the provider sets total_max_attempts: what each setting makes of one throttled call
    with FakeBedrock([THROTTLED] * 5) as bedrock:
        client = boto3.client(
            "bedrock-runtime",
            region_name="us-east-1",
            endpoint_url=bedrock.base_url,
            config=Config(retries=retries) if retries is not None else None,
        )
        with pytest.raises(client.exceptions.ThrottlingException):
            client.converse(**REQUEST)
        assert len(bedrock.requests) == requests


def test_throttling_reaches_the_state_machine_which_retries_and_gives_back_the_reservation(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Given Bedrock that throttles the first call and answers the next two
    asks = asks_for_tools(lookup(category="COMPUTERS"))
    script = [THROTTLED, asks, replies("Try the [CMP-001].")]
    with FakeBedrock(script) as bedrock:
        monkeypatch.setenv("AWS_ENDPOINT_URL_BEDROCK_RUNTIME", bedrock.base_url)
        with LocalStorechat(model=SONNET_ON_BEDROCK, daily_budget_usd=5.0) as local:
            # When a shopper asks
            result = local.ask("A computer?")
            spent = spent_in_all()

        # Then the state machine saw the throttle and retried it itself: three calls
        # asked for, three requests on the wire
        body = result.body
        assert body is not None and body["outcome"] == "answered", result.cause
        assert len(bedrock.requests) == 3 == body["modelCalls"]
        assert states(result).count("RetryModelCall") == 1
        assert states(result).count("ReleaseSpend") == 1
    # And the day pays for the two answered calls, not for the throttled one, at the
    # prices of the profile called (us.: the list price and its regional premium)
    assert len(reservations(result)) == 3
    called = token_prices(CLAUDE)
    assert spent == micro_usd(asks["usage"], called) + micro_usd(replies("")["usage"], called)


def test_a_model_that_keeps_throttling_gets_three_requests_then_the_shopper_a_fallback(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    with FakeBedrock([THROTTLED] * 10) as bedrock:
        monkeypatch.setenv("AWS_ENDPOINT_URL_BEDROCK_RUNTIME", bedrock.base_url)
        with LocalStorechat(model=SONNET_ON_BEDROCK, daily_budget_usd=5.0) as local:
            result = local.ask("A computer?")
            spent = spent_in_all()
        body = result.body
        assert body is not None and body["fallbackReason"] == "model_error"
        # One call and the two retries RetryModelCall allows, each one request
        assert len(bedrock.requests) == 3 == body["modelCalls"]
    # Nothing was billed, so nothing is counted
    assert spent == 0


def test_a_slow_model_is_called_once_and_the_call_stays_counted(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Given a model slower than the turn's deadline (room for the call to start on a
    # loaded machine)
    tuning = {"DeadlineMs": 6000, "ConverseReserveMs": 1000}
    with FakeBedrock([replies("too late")] * 3, delay_s=30) as bedrock:
        monkeypatch.setenv("AWS_ENDPOINT_URL_BEDROCK_RUNTIME", bedrock.base_url)
        with LocalStorechat(model=SONNET_ON_BEDROCK, tuning=tuning, daily_budget_usd=5.0) as local:
            result = local.ask("A computer?")
            spent = spent_in_all()
        # Then the shopper gets the deadline's fallback in time, after at most one request
        body = result.body
        assert body is not None and body["fallbackReason"] == "deadline", result.cause
        assert len(bedrock.requests) <= 1
    # And the call, which Bedrock may bill, is counted at what was reserved for it
    (reserved,) = reservations(result)
    assert spent == reserved
