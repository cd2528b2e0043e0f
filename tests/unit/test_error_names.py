"""The error names the state machine matches are the names the Lambdas raise."""

from __future__ import annotations

import json

import statemachine
from shared import errors


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
    custom = {name for name in matched if not name.startswith(("States.", "Lambda.", "DynamoDb."))}
    assert custom == set(errors.RETRYABLE_MODEL_ERRORS) | {"ReplayExhausted"}
    for name in custom:
        assert issubclass(getattr(errors, name), errors.StorechatError)


def test_the_converse_retry_matches_exactly_the_retryable_model_errors() -> None:
    definition = json.loads(statemachine.read_definition())
    retriers = definition["States"]["Converse"]["Retry"]
    assert retriers[0]["ErrorEquals"] == list(errors.RETRYABLE_MODEL_ERRORS)
    assert retriers[0]["JitterStrategy"] == "FULL" and retriers[0]["MaxAttempts"] <= 3
