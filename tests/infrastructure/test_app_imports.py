"""The CDK app reads declarations (names, schemas, the ASL), never the functions' runtime:
no Powertools, no handler. Checked in a fresh interpreter, where nothing else has loaded
them first."""

from __future__ import annotations

import json
import subprocess
import sys

from infra import names

_PROBE = """
import importlib, json, pkgutil, sys
import app, infra
for module in pkgutil.iter_modules(infra.__path__):
    importlib.import_module(f"infra.{module.name}")
print(json.dumps(sorted(sys.modules)))
"""


def test_the_cdk_app_loads_no_powertools_and_no_function_handler() -> None:
    # Given a fresh interpreter, When it imports app.py and every module of infra/
    result = subprocess.run(
        [sys.executable, "-c", _PROBE],
        cwd=names.ROOT,
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    loaded: list[str] = json.loads(result.stdout.strip().splitlines()[-1])

    # Then it has read the metric names, and loaded neither Powertools nor any handler
    assert "shared.metric_names" in loaded and "infra.monitoring" in loaded
    assert [m for m in loaded if m.split(".")[0] == "aws_lambda_powertools"] == []
    assert [m for m in loaded if m.endswith(".handler") or m == "shared.observability"] == []
