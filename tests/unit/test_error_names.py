"""The error names the state machine matches are the names the Lambdas raise."""

from __future__ import annotations

import json

import statemachine
from shared import errors
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
    assert custom == set(errors.RETRYABLE_MODEL_ERRORS) | {"ModelContextOverflow", "ModelDeadline"}
    for name in custom:
        assert issubclass(getattr(errors, name), errors.StorechatError)


def test_retryable_model_errors_go_back_through_the_deadline_check() -> None:
    definition = json.loads(statemachine.read_definition())
    catchers = definition["States"]["Converse"]["Catch"]
    retry = next(c for c in catchers if c["Next"] == "RetryModelCall")
    assert retry["ErrorEquals"] == list(errors.RETRYABLE_MODEL_ERRORS)
    # No blind Retry for them: every retry passes BackOff, then CheckDeadline
    blind = [
        r for r in definition["States"]["Converse"]["Retry"] if "ModelThrottled" in r["ErrorEquals"]
    ]
    assert blind == []
    assert definition["States"]["BackOff"]["Next"] == "CheckDeadline"
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
