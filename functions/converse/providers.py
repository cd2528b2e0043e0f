"""Model providers behind one interface: Bedrock, the offline model, a replay file (a script).

Each provider takes a complete Converse request (the kwargs of boto3's
``converse``) and returns a Converse response. Bedrock's failures become the
named errors the state machine retries or catches.
"""

from __future__ import annotations

import re
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any, Protocol

from botocore.config import Config
from botocore.exceptions import (
    BotoCoreError,
    ClientError,
    ConnectTimeoutError,
    EndpointConnectionError,
    ReadTimeoutError,
)

from converse.scripted import ScriptedModel
from shared.runtime.errors import (
    ModelContextOverflow,
    ModelDeadline,
    ModelReplyLost,
    ModelRequestRejected,
    ModelThrottled,
    ModelUnavailable,
)

# Bedrock reports an over-long input as a ValidationException, not as a stop reason.
_TOO_LONG = re.compile(r"too long|context (window|length)|maximum context|input length", re.I)
MAX_READ_TIMEOUT_S = 20
CONNECT_TIMEOUT_S = 1
"""A Bedrock endpoint that cannot be reached in a second will not answer in time either."""
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


def client_config(read_timeout_s: int) -> Config:
    """A bedrock-runtime client's settings: one request per call, never an SDK retry.

    The state machine owns retries (``RetryModelCall``: a jittered back-off, the deadline
    checked and the call's spend reserved again each time); a retry inside the SDK would
    hide throttling from it, repeat a timed-out call past the deadline and bill a call
    nobody counted. ``total_max_attempts`` is the total in every retry mode: the client
    setting ``max_attempts`` counts retries (``1`` makes two requests) while the variable
    ``AWS_MAX_ATTEMPTS`` counts attempts, and this setting wins over both.
    """
    return Config(
        retries={"total_max_attempts": 1, "mode": "standard"},
        read_timeout=read_timeout_s,
        connect_timeout=CONNECT_TIMEOUT_S,
    )


def default_client_factory(region: str | None, endpoint_url: str | None = None) -> ClientFactory:
    def build(read_timeout_s: int) -> Any:
        import boto3

        return boto3.client(
            "bedrock-runtime",
            region_name=region,
            endpoint_url=endpoint_url,
            config=client_config(read_timeout_s),
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

    @staticmethod
    def read_timeout_s(timeout_s: float | None) -> int:
        """The read timeout that ends the call by ``timeout_s``, connecting included.

        Whole seconds, rounded down (so a warm Lambda keeps a handful of clients and
        never reads past the deadline); under one second left, there is no call to make.
        """
        if timeout_s is None:
            return MAX_READ_TIMEOUT_S
        seconds = min(MAX_READ_TIMEOUT_S, int(timeout_s - CONNECT_TIMEOUT_S))
        if seconds < 1:
            raise ModelDeadline(f"only {max(timeout_s, 0):.1f} s left: too late to call the model")
        return seconds

    def _client_for(self, timeout_s: float | None) -> Any:
        seconds = self.read_timeout_s(timeout_s)
        if self._fixed_client is not None:
            return self._fixed_client
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
            raise ModelReplyLost(f"{type(exc).__name__}: {exc}") from exc
        except (EndpointConnectionError, ConnectTimeoutError) as exc:
            # The request never reached Bedrock: nothing was billed.
            raise ModelUnavailable(f"{type(exc).__name__}: {exc}") from exc
        except BotoCoreError as exc:
            # Sent, then lost on the way back: the model may have answered, and billed it.
            raise ModelReplyLost(f"{type(exc).__name__}: {exc}") from exc
        response.pop("ResponseMetadata", None)
        return response


def make_provider(spec: str, *, region: str | None) -> Provider:
    if spec == "offline":
        # The offline stand-in ships with the local runner only, which installs it
        # itself (``converse.handler.use_provider``); a deployed function never has it.
        raise ValueError("the offline model runs only in storechat's local runner")
    if spec == "bedrock":
        return BedrockProvider(region)
    if spec.startswith("replay:"):
        return ScriptedModel.from_file(Path(spec.removeprefix("replay:")))
    raise ValueError(f"unknown model provider {spec!r}")
