"""The local copy's widened function timeouts, for a burst on one interpreter: every Lambda
task (a Map's too) gets at least the seconds given, and nothing else changes."""

from __future__ import annotations

import json
from typing import Any

import statemachine


def _tasks(states: dict[str, Any], into: dict[str, Any]) -> dict[str, Any]:
    for name, state in states.items():
        into[name] = state
        for inner in ("ItemProcessor", "Iterator"):
            if isinstance(state.get(inner), dict):
                _tasks(state[inner]["States"], into)
    return into


def test_every_function_gets_at_least_the_seconds_and_nothing_else_changes() -> None:
    definition = statemachine.read_definition()
    before = _tasks(json.loads(definition)["States"], {})
    after = _tasks(
        json.loads(statemachine.with_function_seconds_at_least(definition, 60))["States"], {}
    )

    functions = {n for n, s in before.items() if "lambda:invoke" in str(s.get("Resource", ""))}
    top = json.loads(definition)["States"]
    # the catalog search first, the model, the compose, and the tools inside the Map
    assert {"SearchCatalogFirst", "Converse", "ComposeResponse"} <= functions
    assert functions - set(top)
    for name in functions:
        assert after[name]["TimeoutSeconds"] == max(before[name]["TimeoutSeconds"], 60)
    # the spend checks and every other state are as the stack deploys them
    for name in set(before) - functions:
        if "ItemProcessor" not in before[name]:  # a Map holds the functions it runs
            assert after[name] == before[name]
