"""The ``storechat`` CLI as a store owner runs it, in tests: a temporary ``$STORECHAT_HOME``
and a deployed stack made of moto's DynamoDB.

Import the fixtures into a test module (``from tests.support.catalog_cli import home,
stack, storechat``) to use them there.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import boto3
import pytest
from botocore.stub import Stubber
from moto import mock_aws

from infra import names
from storechat.cli import main

REGION = "us-east-1"
STACK = "Storechat-test"
TABLE = "Storechat-test-CatalogTable-1A2B3C"


@dataclass
class Run:
    code: int
    out: str
    err: str


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    path = tmp_path / "home"
    monkeypatch.setenv("STORECHAT_HOME", str(path))
    return path


@pytest.fixture
def storechat(home: Path, capsys: pytest.CaptureFixture[str]) -> Any:
    def run(*args: str) -> Run:
        code = main(list(args))
        captured = capsys.readouterr()
        return Run(code, captured.out, captured.err)

    return run


@pytest.fixture
def stack(monkeypatch: pytest.MonkeyPatch) -> Iterator[Any]:
    """A deployed stack: a catalog table in moto, and CloudFormation naming it.

    moto's CloudFormation needs packages this project does not install, so
    ``describe_stacks`` is answered by a Stubber on every CloudFormation client made.
    """
    outputs = [{"OutputKey": names.Outputs.CATALOG_TABLE_NAME, "OutputValue": TABLE}]
    described = {
        "Stacks": [
            {
                "StackName": STACK,
                "CreationTime": "2026-01-01T00:00:00Z",
                "StackStatus": "CREATE_COMPLETE",
                "Outputs": outputs,
            }
        ]
    }

    class DeployedSession(boto3.Session):
        def client(self, service_name: str, *args: Any, **kwargs: Any) -> Any:
            client = super().client(service_name, *args, **kwargs)
            if service_name == "cloudformation":
                stubber = Stubber(client)
                stubber.add_response("describe_stacks", described, {"StackName": STACK})
                stubber.activate()
            return client

    with mock_aws():
        boto3.client("dynamodb", region_name=REGION).create_table(
            TableName=TABLE,
            BillingMode="PAY_PER_REQUEST",
            AttributeDefinitions=[
                {"AttributeName": names.CATALOG_PARTITION_KEY, "AttributeType": "S"}
            ],
            KeySchema=[{"AttributeName": names.CATALOG_PARTITION_KEY, "KeyType": "HASH"}],
        )
        monkeypatch.setattr(boto3, "Session", DeployedSession)
        # boto3.client() keeps the session it makes; the next test must not inherit it.
        monkeypatch.setattr(boto3, "DEFAULT_SESSION", None)
        yield ["--stack", STACK, "--region", REGION]
