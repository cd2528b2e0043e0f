"""Model providers behind one interface: Bedrock, the offline model, a replay file.

Each provider takes a complete Converse request (the kwargs of boto3's
``converse``) and returns a Converse response. Bedrock's failures become the
named errors the state machine retries or catches.
"""

from __future__ import annotations

import json
import math
import re
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any, Protocol

from botocore.config import Config
from botocore.exceptions import BotoCoreError, ClientError, ReadTimeoutError

from converse.offline import OfflineModel
from shared.errors import (
    ModelContextOverflow,
    ModelDeadline,
    ModelRequestRejected,
    ModelThrottled,
    ModelUnavailable,
    ReplayExhausted,
)

# Bedrock reports an over-long input as a ValidationException, not as a stop reason.
_TOO_LONG = re.compile(r"too long|context (window|length)|maximum context|input length", re.I)
MAX_READ_TIMEOUT_S = 20
_RETRYABLE_THROTTLE = {"ThrottlingException", "TooManyRequestsException"}
_RETRYABLE_UNAVAILABLE = {
    "ServiceUnavailableException",
    "InternalServerException",
    "ModelNotReadyException",
    "ModelTimeoutException",
}


class Provider(Protocol):
    label: str

    def converse(
        self, request: dict[str, Any], *, timeout_s: float | None = None
    ) -> dict[str, Any]: ...


ClientFactory = Callable[[int], Any]
"""Builds a bedrock-runtime client whose read timeout is the given number of seconds."""


def default_client_factory(region: str | None, endpoint_url: str | None = None) -> ClientFactory:
    def build(read_timeout_s: int) -> Any:
        import boto3

        return boto3.client(
            "bedrock-runtime",
            region_name=region,
            endpoint_url=endpoint_url,
            # The state machine owns retries (with jitter, through the deadline check);
            # SDK retries underneath would hide throttling from it.
            config=Config(
                retries={"max_attempts": 1, "mode": "standard"},
                read_timeout=read_timeout_s,
                connect_timeout=3,
            ),
        )

    return build


class BedrockProvider:
    """Calls Bedrock's Converse with a read timeout that ends at the turn's deadline."""

    label = "bedrock"

    def __init__(
        self,
        region: str | None,
        client: Any | None = None,
        *,
        client_factory: ClientFactory | None = None,
    ) -> None:
        self._fixed_client = client
        self._factory = client_factory or default_client_factory(region)
        self._clients: dict[int, Any] = {}
        self._lock = threading.Lock()

    def _client_for(self, timeout_s: float | None) -> Any:
        if self._fixed_client is not None:
            return self._fixed_client
        # Whole seconds, so a warm Lambda keeps a handful of clients, not one per call.
        seconds = max(1, min(MAX_READ_TIMEOUT_S, math.ceil(timeout_s or MAX_READ_TIMEOUT_S)))
        with self._lock:
            if seconds not in self._clients:
                self._clients[seconds] = self._factory(seconds)
            return self._clients[seconds]

    def converse(
        self, request: dict[str, Any], *, timeout_s: float | None = None
    ) -> dict[str, Any]:
        try:
            response: dict[str, Any] = self._client_for(timeout_s).converse(**request)
        except ClientError as exc:
            code = exc.response.get("Error", {}).get("Code", "")
            message = exc.response.get("Error", {}).get("Message", "")
            if code in _RETRYABLE_THROTTLE:
                raise ModelThrottled(f"{code}: {message}") from exc
            if code in _RETRYABLE_UNAVAILABLE:
                raise ModelUnavailable(f"{code}: {message}") from exc
            if code == "ValidationException" and _TOO_LONG.search(message):
                raise ModelContextOverflow(f"{code}: {message}") from exc
            raise ModelRequestRejected(f"{code}: {message}") from exc
        except ReadTimeoutError as exc:
            if timeout_s is not None:
                raise ModelDeadline(f"no reply within the {timeout_s:.1f} s left") from exc
            raise ModelUnavailable(f"{type(exc).__name__}: {exc}") from exc
        except BotoCoreError as exc:
            raise ModelUnavailable(f"{type(exc).__name__}: {exc}") from exc
        response.pop("ResponseMetadata", None)
        return response


class OfflineProvider:
    label = "offline"

    def __init__(self) -> None:
        self._model = OfflineModel()

    def converse(
        self, request: dict[str, Any], *, timeout_s: float | None = None
    ) -> dict[str, Any]:
        return self._model.converse(request)


class ReplayProvider:
    """Plays back recorded Converse responses, in order; running out is an error."""

    label = "replay"

    def __init__(self, path: Path) -> None:
        try:
            responses = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, json.JSONDecodeError) as exc:
            raise ModelRequestRejected(f"cannot read replay file {path}: {exc}") from exc
        if not isinstance(responses, list) or not all(isinstance(r, dict) for r in responses):
            raise ModelRequestRejected(f"replay file {path} must hold a JSON list of responses")
        self._responses: list[dict[str, Any]] = responses
        self._next = 0
        self._lock = threading.Lock()
        self.path = path

    def converse(
        self, request: dict[str, Any], *, timeout_s: float | None = None
    ) -> dict[str, Any]:
        with self._lock:
            if self._next >= len(self._responses):
                raise ReplayExhausted(
                    f"replay file {self.path.name} has {len(self._responses)} responses; "
                    f"call {self._next + 1} has none"
                )
            response = self._responses[self._next]
            self._next += 1
        return json.loads(json.dumps(response))


def make_provider(spec: str, *, region: str | None) -> Provider:
    if spec == "offline":
        return OfflineProvider()
    if spec == "bedrock":
        return BedrockProvider(region)
    if spec.startswith("replay:"):
        return ReplayProvider(Path(spec.removeprefix("replay:")))
    raise ValueError(f"unknown model provider {spec!r}")
