from __future__ import annotations

import json
from typing import Any

import pytest

from storechat.local.runner import RunResult


@pytest.fixture(autouse=True)
def _no_real_aws(monkeypatch: pytest.MonkeyPatch) -> None:
    # moto intercepts every call, but make sure nothing could reach a real account.
    monkeypatch.setenv("AWS_ACCESS_KEY_ID", "testing")
    monkeypatch.setenv("AWS_SECRET_ACCESS_KEY", "testing")
    monkeypatch.setenv("AWS_SESSION_TOKEN", "testing")
    monkeypatch.delenv("AWS_PROFILE", raising=False)
    monkeypatch.delenv("BRAVE_API_KEY", raising=False)


def converse_inputs(result: RunResult) -> list[dict[str, Any]]:
    """The payload of every Converse call the execution made, in order."""
    payloads = []
    for event in result.events:
        details = event.get("taskScheduledEventDetails")
        if details and details.get("resource") == "invoke":
            parameters = json.loads(details["parameters"])
            if "converse" in parameters.get("FunctionName", ""):
                payloads.append(parameters["Payload"])
    return payloads
