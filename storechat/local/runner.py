"""The local loop: the real ASL file, in moto's Step Functions interpreter.

``LocalStorechat`` starts moto, creates the catalog and sessions tables,
seeds the catalog, registers the state machine from ``statemachine/`` with the
same placeholders the CDK stack fills, and runs one execution per question.
Sessions can be kept in a data file so that they survive between CLI calls.
"""

from __future__ import annotations

import functools
import json
import logging
import os
import sys
import threading
import time
import uuid
from collections.abc import Iterator, Mapping
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass, field
from decimal import Decimal
from pathlib import Path
from typing import Any

import boto3
from moto import mock_aws

import statemachine
from shared import registry
from storechat.local import moto_patches
from storechat.local.lambdas import Dispatcher, Handler, local_arn
from storechat.local.payload import payload_peaks
from storechat.offline import OFFLINE_MODEL_ID

# moto's interpreter logs every caught task failure with the whole state's parse tree;
# the loop handles those failures on purpose, so they are not news for a local user.
logging.getLogger("moto.stepfunctions.parser").setLevel(logging.CRITICAL)

REGION = "us-east-1"
ACCOUNT = "123456789012"
CATALOG_TABLE = "storechat-catalog"
CATEGORY_INDEX = "byCategory"
SESSIONS_TABLE = "storechat-sessions"
STATE_MACHINE = "storechat-local"

BULK_SEED_THRESHOLD = 2_000

# Handler modules that cache settings, clients or providers at "cold start".
_FUNCTION_PACKAGES = (
    "converse",
    "lookup_inventory",
    "get_computer_reviews",
    "get_book_info",
    "compose_response",
    "shared",
)


@dataclass
class RunResult:
    """One execution: the response body (when it succeeded) and what happened on the way."""

    status: str
    body: dict[str, Any] | None
    error: str | None
    cause: str | None
    events: list[dict[str, Any]] = field(default_factory=list)
    elapsed_ms: int = 0
    execution_arn: str = ""

    @property
    def states_entered(self) -> list[tuple[str, int]]:
        """(state name, ms since start) for each state entered, in order."""
        if not self.events:
            return []
        start = self.events[0]["timestamp"]
        return [
            (
                e["stateEnteredEventDetails"]["name"],
                int((e["timestamp"] - start).total_seconds() * 1000),
            )
            for e in self.events
            if "stateEnteredEventDetails" in e
        ]

    def payload_sizes(self) -> dict[str, tuple[int, str]]:
        """The largest payload of each kind in this execution, in UTF-8 bytes, and where.

        Kinds: ``state input``, ``state output``, ``task parameters`` (what a Task
        sends a Lambda, e.g. the conversation to Converse), ``task result`` and
        ``variable`` (each assigned variable). Step Functions limits each to 256 KiB.
        """
        peaks = payload_peaks(self.events)
        sent = max(peaks.converse_payload, peaks.tool_payload, key=lambda p: p.bytes)
        kinds = {
            "state input": peaks.state_input,
            "state output": peaks.state_output,
            "task parameters": sent,
            "task result": peaks.task_result,
            "variable": peaks.variable,
        }
        return {kind: (peak.bytes, peak.where) for kind, peak in kinds.items() if peak.where}

    @property
    def peak_payload_bytes(self) -> int:
        return max((size for size, _ in self.payload_sizes().values()), default=0)


def _model_environment(model: str) -> dict[str, str]:
    if model == "offline":
        return {"MODEL_PROVIDER": "offline", "MODEL_ID": OFFLINE_MODEL_ID}
    if model.startswith("replay:"):
        path = Path(model.removeprefix("replay:")).expanduser().resolve()
        return {"MODEL_PROVIDER": f"replay:{path}", "MODEL_ID": "storechat.replay"}
    if model == "bedrock" or model.startswith("bedrock:"):
        env = {"MODEL_PROVIDER": "bedrock"}
        if model.startswith("bedrock:"):
            env["MODEL_ID"] = model.removeprefix("bedrock:")
        return env
    raise ValueError(f"unknown model {model!r}: use offline, replay:PATH or bedrock[:MODEL_ID]")


def reset_function_caches() -> None:
    """Forget every cold-start cache, as a fresh Lambda container would."""
    for name, module in list(sys.modules.items()):
        if module is None or name.split(".")[0] not in _FUNCTION_PACKAGES:
            continue
        for value in list(vars(module).values()):
            clear = getattr(value, "cache_clear", None)
            if callable(clear) and getattr(value, "__module__", None) == name:
                clear()
    converse_handler = sys.modules.get("converse.handler")
    if converse_handler is not None:
        converse_handler.use_provider(None)


@contextmanager
def _environment(values: Mapping[str, str]) -> Iterator[None]:
    saved = {k: os.environ.get(k) for k in values}
    os.environ.update(values)
    try:
        yield
    finally:
        for key, old in saved.items():
            if old is None:
                os.environ.pop(key, None)
            else:
                os.environ[key] = old


class LocalStorechat:
    """A running local copy of the system. Use as a context manager."""

    def __init__(
        self,
        *,
        model: str = "offline",
        catalog: list[dict[str, Any]] | None = None,
        data_dir: Path | None = None,
        tuning: Mapping[str, int] | None = None,
        env: Mapping[str, str] | None = None,
        overrides: Mapping[str, Handler] | None = None,
        log_level: str = "WARNING",
    ) -> None:
        self.model = model
        self._catalog = catalog
        self._seeded: list[dict[str, Any]] = []
        self._sessions_file = data_dir / "sessions.json" if data_dir else None
        self._tuning = {**statemachine.TUNING_DEFAULTS, **(tuning or {})}
        self._overrides = dict(overrides or {})
        self._env = {
            **_model_environment(model),
            "CATALOG_TABLE_NAME": CATALOG_TABLE,
            "CATALOG_CATEGORY_INDEX": CATEGORY_INDEX,
            "POWERTOOLS_SERVICE_NAME": "storechat",
            "POWERTOOLS_TRACE_DISABLED": "true",
            "POWERTOOLS_METRICS_DISABLED": "true",
            "POWERTOOLS_METRICS_NAMESPACE": "Storechat",
            "POWERTOOLS_LOG_LEVEL": log_level,
            **(env or {}),
        }
        self._save_lock = threading.Lock()
        self._exit_stack = ExitStack()
        self.state_machine_arn = ""

    # -- lifecycle --------------------------------------------------------------------------

    def __enter__(self) -> LocalStorechat:
        bedrock_clients = self._bedrock_client() if self.model.startswith("bedrock") else None
        with ExitStack() as stack:
            # If any step fails, everything started so far is undone before the error
            # leaves: moto stopped, the environment restored, caches forgotten.
            stack.enter_context(_environment({**self._env, "AWS_DEFAULT_REGION": REGION}))
            mock = mock_aws(
                config={
                    "stepfunctions": {"execute_state_machine": True},
                    "lambda": {"use_docker": False},
                    "core": {"passthrough": {"services": ["bedrock-runtime"]}},
                }
            )
            mock.start()
            stack.callback(mock.stop)
            stack.callback(reset_function_caches)
            reset_function_caches()
            # The Logger read POWERTOOLS_LOG_LEVEL at its first import; this runner may
            # want another, for as long as it runs.
            from shared.observability import logger

            stack.callback(logger.setLevel, logger.log_level)
            logger.setLevel(self._env["POWERTOOLS_LOG_LEVEL"])
            moto_patches.install(Dispatcher(self._overrides))
            from converse.handler import use_provider

            if bedrock_clients is not None:
                from converse.providers import BedrockProvider

                use_provider(BedrockProvider(region=None, client_factory=bedrock_clients))
            elif self.model == "offline":
                from storechat.offline import OfflineProvider

                use_provider(OfflineProvider())
            self._dynamodb = boto3.client("dynamodb", region_name=REGION)
            self._sfn = boto3.client("stepfunctions", region_name=REGION)
            self._create_tables()
            self._seed_catalog(self._catalog)
            self._load_sessions()
            self.state_machine_arn = self._create_state_machine()
            self._exit_stack = stack.pop_all()
        return self

    def __exit__(self, *exc: object) -> None:
        self._exit_stack.close()

    @staticmethod
    def _bedrock_client() -> Any:
        """A client factory holding the real credentials, resolved before moto starts."""
        session = boto3.Session()
        credentials = session.get_credentials()
        if credentials is None:
            raise RuntimeError("--model bedrock needs AWS credentials (none were found)")
        frozen = credentials.get_frozen_credentials()
        region = os.environ.get("BEDROCK_REGION") or session.region_name or REGION
        from botocore.config import Config

        from converse.providers import CONNECT_TIMEOUT_S

        def build(read_timeout_s: int) -> Any:
            # boto3 reads AWS_ENDPOINT_URL_BEDROCK_RUNTIME itself: a Bedrock-shaped server
            # can stand in front of the real provider code.
            return boto3.client(
                "bedrock-runtime",
                region_name=region,
                aws_access_key_id=frozen.access_key,
                aws_secret_access_key=frozen.secret_key,
                aws_session_token=frozen.token,
                config=Config(
                    retries={"max_attempts": 1},
                    read_timeout=read_timeout_s,
                    connect_timeout=CONNECT_TIMEOUT_S,
                ),
            )

        return build

    # -- resources --------------------------------------------------------------------------

    def _create_tables(self) -> None:
        self._dynamodb.create_table(
            TableName=CATALOG_TABLE,
            BillingMode="PAY_PER_REQUEST",
            AttributeDefinitions=[
                {"AttributeName": "productId", "AttributeType": "S"},
                {"AttributeName": "category", "AttributeType": "S"},
            ],
            KeySchema=[{"AttributeName": "productId", "KeyType": "HASH"}],
            GlobalSecondaryIndexes=[
                {
                    "IndexName": CATEGORY_INDEX,
                    "KeySchema": [
                        {"AttributeName": "category", "KeyType": "HASH"},
                        {"AttributeName": "productId", "KeyType": "RANGE"},
                    ],
                    "Projection": {"ProjectionType": "ALL"},
                }
            ],
        )
        self._dynamodb.create_table(
            TableName=SESSIONS_TABLE,
            BillingMode="PAY_PER_REQUEST",
            AttributeDefinitions=[
                {"AttributeName": "sessionId", "AttributeType": "S"},
                {"AttributeName": "turnKey", "AttributeType": "S"},
            ],
            KeySchema=[
                {"AttributeName": "sessionId", "KeyType": "HASH"},
                {"AttributeName": "turnKey", "KeyType": "RANGE"},
            ],
        )

    def _seed_catalog(self, catalog: list[dict[str, Any]] | None) -> None:
        if catalog is None:
            from shared.catalog_data import load_catalog

            catalog = load_catalog()
        self._seeded = catalog
        items = [json.loads(json.dumps(p), parse_float=Decimal) for p in catalog]
        if len(items) > BULK_SEED_THRESHOLD:
            # Through the emulated HTTP API 50,000 puts take over a minute.
            moto_patches.bulk_put_items(ACCOUNT, REGION, CATALOG_TABLE, items)
            return
        table = boto3.resource("dynamodb", region_name=REGION).Table(CATALOG_TABLE)
        with table.batch_writer() as batch:
            for item in items:
                batch.put_item(Item=item)

    def prime_catalog_cache(self) -> None:
        """Fill the catalog tool's in-process cache, as a warm Lambda would have it.

        moto answers a Query over tens of thousands of items far more slowly than
        DynamoDB does, so scale tests start warm instead of timing moto.
        """
        from lookup_inventory.handler import catalog_cache

        cache = catalog_cache()
        by_key: dict[str, list[dict[str, Any]]] = {"*": list(self._seeded)}
        for product in self._seeded:
            by_key.setdefault(str(product.get("category")), []).append(product)
        for key, products in by_key.items():
            cache.get_or_load(key, functools.partial(list, products))

    def _load_sessions(self) -> None:
        if not self._sessions_file or not self._sessions_file.exists():
            return
        try:
            items = json.loads(self._sessions_file.read_text(encoding="utf-8"))
        except (OSError, json.JSONDecodeError):
            # A damaged file costs the shopper their history, not the question.
            print(f"warning: ignoring unreadable {self._sessions_file}", file=sys.stderr)
            return
        now = time.time()
        for item in items:
            if float(item.get("expiresAt", {}).get("N", "0")) > now:
                self._dynamodb.put_item(TableName=SESSIONS_TABLE, Item=item)

    def _save_sessions(self) -> None:
        if not self._sessions_file:
            return
        with self._save_lock:
            items: list[dict[str, Any]] = []
            for page in self._dynamodb.get_paginator("scan").paginate(TableName=SESSIONS_TABLE):
                items.extend(page["Items"])
            self._sessions_file.parent.mkdir(parents=True, exist_ok=True)
            tmp = self._sessions_file.with_suffix(".tmp")
            tmp.write_text(json.dumps(items), encoding="utf-8")
            tmp.replace(self._sessions_file)

    def substitutions(self) -> dict[str, object]:
        arns = {key: local_arn(key, REGION, ACCOUNT) for key in registry.functions_by_key()}
        values: dict[str, object] = dict(statemachine.resource_substitutions(arns, SESSIONS_TABLE))
        values.update(self._tuning)
        return values

    def _create_state_machine(self) -> str:
        definition = statemachine.substitute(statemachine.read_definition(), self.substitutions())
        created = self._sfn.create_state_machine(
            name=STATE_MACHINE,
            definition=definition,
            roleArn=f"arn:aws:iam::{ACCOUNT}:role/storechat-local",
            type="EXPRESS",
        )
        arn: str = created["stateMachineArn"]
        return arn

    # -- running ----------------------------------------------------------------------------

    def ask(
        self,
        message: str,
        session_id: str | None = None,
        *,
        timeout_s: float = 60,
        with_history: bool = True,
    ) -> RunResult:
        payload: dict[str, Any] = {"message": message}
        if session_id:
            payload["sessionId"] = session_id
        return self.run(payload, timeout_s=timeout_s, with_history=with_history)

    def run(
        self, payload: dict[str, Any], *, timeout_s: float = 60, with_history: bool = True
    ) -> RunResult:
        """Start one execution with ``payload`` as its input, as API Gateway passes a body.

        ``with_history=False`` skips reading the execution history (the dev server
        does not need it, and under load it is a large share of the work).
        """
        started = time.perf_counter()
        execution_arn = self._sfn.start_execution(
            stateMachineArn=self.state_machine_arn,
            name=uuid.uuid4().hex,
            input=json.dumps(payload),
        )["executionArn"]
        deadline = time.monotonic() + timeout_s
        pause = 0.002
        while True:
            described = self._sfn.describe_execution(executionArn=execution_arn)
            if described["status"] != "RUNNING":
                break
            if time.monotonic() > deadline:
                raise TimeoutError(f"execution {execution_arn} still running after {timeout_s}s")
            # Each poll costs the running execution CPU time; back off to 50 ms.
            time.sleep(pause)
            pause = min(pause * 1.5, 0.05)
        elapsed = int((time.perf_counter() - started) * 1000)
        events = (
            self._sfn.get_execution_history(executionArn=execution_arn, maxResults=1000)["events"]
            if with_history
            else []
        )
        body = json.loads(described["output"]) if described.get("output") else None
        if described["status"] == "SUCCEEDED":
            self._save_sessions()
        return RunResult(
            status=described["status"],
            body=body,
            error=described.get("error"),
            cause=described.get("cause"),
            events=events,
            elapsed_ms=elapsed,
            execution_arn=execution_arn,
        )
