"""The CDK app reads declarations (names, schemas, the ASL), never the functions' runtime:
no Powertools, no handler, no boto3 or botocore. Checked in a fresh interpreter, where
nothing else has loaded them first."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from infra import names

_PROBE = """
import importlib, json, pkgutil, sys
import app, infra
for module in pkgutil.iter_modules(infra.__path__):
    importlib.import_module(f"infra.{module.name}")
print(json.dumps(sorted(sys.modules)))
"""


@pytest.fixture(scope="module")
def loaded() -> list[str]:
    """What a fresh interpreter has loaded once it imports app.py and every module of infra/."""
    result = subprocess.run(
        [sys.executable, "-c", _PROBE],
        cwd=names.ROOT,
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    modules: list[str] = json.loads(result.stdout.strip().splitlines()[-1])
    return modules


def _packages(loaded: list[str], *roots: str) -> list[str]:
    return [m for m in loaded if m.split(".")[0] in roots]


def test_the_cdk_app_loads_no_powertools_and_no_function_handler(loaded: list[str]) -> None:
    # Given a fresh interpreter, When it imports app.py and every module of infra/
    # Then it has read the metric names, and loaded neither Powertools nor any handler
    assert "shared.config.metric_names" in loaded and "infra.monitoring" in loaded
    assert _packages(loaded, "aws_lambda_powertools") == []
    assert [
        m for m in loaded if m.endswith(".handler") or m == "shared.runtime.observability"
    ] == []


def test_the_cdk_app_reads_the_catalog_tables_names_without_its_writer_or_boto3(
    loaded: list[str],
) -> None:
    # Given a fresh interpreter, When it imports app.py and every module of infra/
    # Then it has read the catalog table's key names (its index among them), and loaded
    # neither the Lambdas' table writer nor boto3
    assert "shared.products.table_names" in loaded and "infra.data" in loaded
    assert "shared.products.catalog_writes" not in loaded
    assert _packages(loaded, "boto3", "s3transfer") == []


def test_the_cdk_app_sizes_a_converse_request_without_botocore(loaded: list[str]) -> None:
    # Given a fresh interpreter, When it imports app.py and every module of infra/
    # Then it has read how a Converse request is built (the state machine's token bound
    # counts its fixed bytes), and loaded no botocore: only checking a request's shape
    # needs botocore's model, and the CDK app checks none
    assert "converse.request" in loaded and "statemachine" in loaded
    assert _packages(loaded, "botocore") == []
