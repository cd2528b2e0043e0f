"""Tracing stays on; the X-Ray SDK is loaded only where subsegments pay, and never at import."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

import registry

ROOT = Path(__file__).resolve().parents[2]
LAMBDA_ENV = {"AWS_LAMBDA_FUNCTION_NAME": "probe", "AWS_REGION": "us-east-1"}


def _probe(module: str, env: dict[str, str], *, invoke: bool) -> dict[str, bool]:
    """Import a handler in a fresh interpreter (optionally call its tracer's wrapper)."""
    script = f"""
import json, sys
import {module} as handler
from shared.runtime.observability import tracer
before = "aws_xray_sdk.core" in sys.modules
if {invoke!r}:
    tracer.capture_lambda_handler(lambda event, context: None)
    wrapped = tracer.capture_lambda_handler(lambda event, context: "ok")
    try:
        wrapped({{}}, None)
    except Exception:
        pass
print(json.dumps({{"at_import": before, "after_call": "aws_xray_sdk.core" in sys.modules}}))
"""
    result = subprocess.run(
        [sys.executable, "-c", script],
        cwd=ROOT,
        env={"PATH": "/usr/bin:/bin", **env},
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    loaded: dict[str, bool] = json.loads(result.stdout.strip().splitlines()[-1])
    return loaded


@pytest.mark.parametrize("function", registry.FUNCTIONS, ids=lambda f: f.key)
def test_no_handler_loads_the_xray_sdk_when_imported(function: registry.Function) -> None:
    loaded = _probe(function.module, LAMBDA_ENV, invoke=False)
    assert loaded["at_import"] is False


def test_a_function_with_subsegments_loads_the_sdk_at_its_first_call() -> None:
    traced = _probe("lookup_inventory.handler", LAMBDA_ENV, invoke=True)
    assert traced == {"at_import": False, "after_call": True}
    untraced = _probe(
        "compose_response.handler",
        {**LAMBDA_ENV, "POWERTOOLS_TRACE_DISABLED": "true"},
        invoke=True,
    )
    assert untraced == {"at_import": False, "after_call": False}
