"""The stop reasons are declared once, as botocore's Converse model has them, and the
state machine reads the finished ones from that declaration."""

from __future__ import annotations

import json
import re

import botocore.session

import statemachine
from shared.api import stop_reasons


def test_the_declared_stop_reasons_are_the_converse_models() -> None:
    model = botocore.session.get_session().get_service_model("bedrock-runtime")
    assert set(stop_reasons.STOP_REASONS) == set(model.shape_for("StopReason").enum)


def test_the_asl_routes_finished_replies_by_the_one_substitution() -> None:
    # Given the definition as written
    definition = statemachine.read_definition()
    # Then no list of finished stop reasons is spelled in it
    assert not re.search(r"\['end_turn'|'stop_sequence', 'tool_use'\]", definition)
    route = json.loads(definition)["States"]
    conditions = _route_conditions(route)
    finished = [c for c in conditions if "${FinishedStopReasons}" in c]
    assert len(finished) >= 4
    # And, filled, the substitution is exactly the declared finished reasons
    filled = statemachine.loop_substitutions(search_first=True)["FinishedStopReasons"]
    assert filled == "['end_turn', 'stop_sequence', 'tool_use']"
    assert set(stop_reasons.FINISHED) <= set(stop_reasons.STOP_REASONS)


def _route_conditions(states: dict[str, object]) -> list[str]:
    found: list[str] = []
    for state in states.values():
        if isinstance(state, dict):
            for choice in state.get("Choices", []):
                found.append(str(choice.get("Condition", "")))
            for branch in state.get("Branches", []):
                found += _route_conditions(branch["States"])
            if "ItemProcessor" in state:
                found += _route_conditions(state["ItemProcessor"]["States"])
    return found
