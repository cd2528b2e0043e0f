"""A deployed stack as ``storechat doctor`` sees it: its outputs, and the clients and the
HTTP it checks them with, all with the operator's own AWS credentials.

The output keys are ``infra.names.Outputs``' (a test keeps them equal); this package does
not import the CDK app.
"""

from __future__ import annotations

import urllib.error
import urllib.request
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Final

import boto3
from botocore.config import Config
from botocore.exceptions import BotoCoreError, ClientError, NoCredentialsError, NoRegionError


class Output:
    """The stack outputs the checks read."""

    API_URL: Final = "ApiUrl"
    QUERY_URL: Final = "QueryUrl"
    WEB_URL: Final = "WebUrl"
    SPEND_TABLE_NAME: Final = "SpendTableName"
    SESSIONS_TABLE_NAME: Final = "SessionsTableName"
    STATE_MACHINE_ARN: Final = "StateMachineArn"
    BRAVE_SECRET_ARN: Final = "BraveSecretArn"
    CATALOG_INDEX_BUCKET: Final = "CatalogIndexBucketName"
    ALARM_TOPIC_ARN: Final = "AlarmTopicArn"
    MODEL_ID: Final = "ModelId"
    MODEL_REGION: Final = "ModelRegion"
    WEB_ACL_ARN: Final = "WebAclArn"


NO_WEB_ACL: Final = "none"
"""``WebAclArn`` of an environment without ``client_rate_limit`` (``infra.names``)."""
POINTER_KEY: Final = "catalog-index/latest.json"
"""The search snapshot's pointer in its bucket (``infra.names.CATALOG_INDEX_POINTER_KEY``)."""

_CLIENT_CONFIG = Config(retries={"mode": "standard", "max_attempts": 3}, read_timeout=30)
HTTP_TIMEOUT_S: Final = 10.0


class StackUnreadable(Exception):
    """The stack cannot be found or read; the message says what to do."""


@dataclass(frozen=True)
class HttpAnswer:
    status: int
    headers: Mapping[str, str]
    body: bytes


Fetch = Callable[[str, str, Mapping[str, str]], HttpAnswer]
"""``fetch(method, url, headers)``: one HTTP request, whatever its status."""


def fetch(method: str, url: str, headers: Mapping[str, str]) -> HttpAnswer:
    """One HTTP request with the standard library; an HTTP error status is an answer."""
    request = urllib.request.Request(url, method=method, headers=dict(headers))
    try:
        with urllib.request.urlopen(request, timeout=HTTP_TIMEOUT_S) as response:
            return HttpAnswer(response.status, dict(response.headers.items()), response.read())
    except urllib.error.HTTPError as exc:
        return HttpAnswer(exc.code, dict(exc.headers.items()), exc.read())


@dataclass
class DeployedStack:
    """A stack's name, Region and outputs, and how to reach what they name."""

    name: str
    region: str
    outputs: Mapping[str, str]
    client: Callable[..., Any]
    """``client(service, region=None)``: a boto3 client (the stack's Region by default)."""
    http: Fetch = field(default=fetch)

    def output(self, key: str) -> str:
        try:
            return self.outputs[key]
        except KeyError:
            raise StackUnreadable(
                f"stack {self.name!r} has no {key} output: deploy this version of storechat "
                "to it first (npx cdk deploy)"
            ) from None


def session_client(session: Any) -> Callable[..., Any]:
    def client(service: str, region: str | None = None) -> Any:
        return session.client(service, region_name=region, config=_CLIENT_CONFIG)

    return client


def connect(stack: str, *, region: str | None = None, profile: str | None = None) -> DeployedStack:
    """The deployed stack ``stack``, read with the operator's AWS credentials."""
    try:
        session = boto3.Session(profile_name=profile, region_name=region)
        if not session.region_name:
            raise NoRegionError()
    except NoRegionError as exc:
        raise StackUnreadable("no AWS region: pass --region or set AWS_REGION") from exc
    except BotoCoreError as exc:  # a profile that does not exist
        raise StackUnreadable(f"cannot use your AWS configuration: {exc}") from exc
    client = session_client(session)
    return read_stack(stack, str(session.region_name), client)


def read_stack(stack: str, region: str, client: Callable[..., Any]) -> DeployedStack:
    """The stack's outputs, through ``client``'s CloudFormation."""
    try:
        described = client("cloudformation").describe_stacks(StackName=stack)["Stacks"][0]
    except NoCredentialsError as exc:
        raise StackUnreadable(
            "no AWS credentials: sign in (aws sso login, or a profile with --profile) first"
        ) from exc
    except ClientError as exc:
        message = exc.response.get("Error", {}).get("Message", str(exc))
        if "does not exist" in message:
            raise StackUnreadable(
                f"stack {stack!r} not found in {region}: deploy it (npx cdk deploy -c env=...) "
                "or pass the Region it is in (--region)"
            ) from exc
        raise StackUnreadable(f"cannot read stack {stack!r}: {message}") from exc
    except BotoCoreError as exc:
        raise StackUnreadable(f"cannot read stack {stack!r}: {exc}") from exc
    outputs = {o["OutputKey"]: o["OutputValue"] for o in described.get("Outputs") or []}
    return DeployedStack(stack, region, outputs, client)
