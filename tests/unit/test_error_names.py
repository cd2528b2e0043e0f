"""The error names the state machine matches are the names the Lambdas raise."""

from __future__ import annotations

import json

import statemachine
from shared.runtime import errors
from storechat.local import aws


def _error_equals(node: object) -> set[str]:
    found: set[str] = set()
    if isinstance(node, dict):
        for key, value in node.items():
            if key == "ErrorEquals":
                found.update(value)
            else:
                found |= _error_equals(value)
    elif isinstance(node, list):
        for item in node:
            found |= _error_equals(item)
    return found


def test_every_custom_error_in_the_asl_is_a_class_the_lambdas_raise() -> None:
    matched = _error_equals(json.loads(statemachine.read_definition()))
    services = ("States.", "Lambda.", "Sandbox.", "DynamoDb.", "DynamoDB.")
    custom = {name for name in matched if not name.startswith(services)}
    assert custom == set(errors.RETRYABLE_MODEL_ERRORS) | set(errors.LOST_MODEL_ERRORS) | {
        "ModelContextOverflow",
        "ModelDeadline",
    }
    for name in custom:
        assert issubclass(getattr(errors, name), errors.StorechatError)


def test_retryable_model_errors_go_back_through_the_deadline_check() -> None:
    definition = json.loads(statemachine.read_definition())
    states = definition["States"]
    catchers = states["Converse"]["Catch"]
    # A call the model refused gives its reserved spend back, then is retried
    refused = next(c for c in catchers if c["Next"] == "ReleaseSpend")
    assert refused["ErrorEquals"] == list(errors.RETRYABLE_MODEL_ERRORS)
    assert states["ReleaseSpend"]["Next"] == "RetryModelCall"
    # A call that may have been billed keeps it, and is retried the same way
    lost = next(c for c in catchers if c["Next"] == "RetryModelCall")
    assert lost["ErrorEquals"][: len(errors.LOST_MODEL_ERRORS)] == list(errors.LOST_MODEL_ERRORS)
    # No blind Retry of anything that may have called the model: only an invoke Lambda
    # throttled (the function never ran) is retried in place; every other retry passes
    # BackOff, then CheckDeadline, then reserves its spend again
    (blind,) = states["Converse"]["Retry"]
    assert blind["ErrorEquals"] == ["Lambda.TooManyRequestsException"]
    assert states["BackOff"]["Next"] == "CheckDeadline"
    assert states["CheckDeadline"]["Default"] == "PriceModelCall"
    assert states["PriceModelCall"]["Next"] == "ReserveSpend"
    assert states["ReserveSpend"]["Next"] == "Converse"
    assert catchers[-1]["ErrorEquals"] == ["States.ALL"]


def test_the_replay_models_error_has_no_state_in_the_deployed_definition() -> None:
    # Given the definition the stack deploys
    definition = json.loads(statemachine.read_definition())
    # Then nothing in it names the replay model's error: only the local copy fails the
    # execution on it
    assert "ReplayExhausted" not in json.dumps(definition)
    local = json.loads(aws.with_replay_guard(statemachine.read_definition()))
    assert local["States"]["Converse"]["Catch"][0]["ErrorEquals"] == ["ReplayExhausted"]
    assert local["States"]["ReplayExhausted"]["Type"] == "Fail"
    assert issubclass(errors.ReplayExhausted, errors.StorechatError)
