"""The project's Lambda handlers, called in-process as moto's Lambda backend.

Each function keeps its deployed timeout so that ``context.get_remaining_time_in_millis``
tells a handler the truth, and an override can replace or wrap one handler
(tests use this to make a tool slow or make it crash). Every call runs with the local
system's environment (``shared.config.environment``), set in the thread that makes the call:
moto calls from its execution threads, and the Map from one thread per item.
"""

from __future__ import annotations

import importlib
import sys
import time
import uuid
from collections.abc import Callable, Iterable, Mapping
from types import ModuleType
from typing import Any

import registry
from shared.config.environment import overriding
from shared.runtime.observability import metrics

Handler = Callable[[dict[str, Any], Any], Any]


LocalFunction = registry.Function

LOCAL_PREFIX = "storechat-local-"


def local_name(key: str) -> str:
    return LOCAL_PREFIX + key.replace("_", "-")


def local_arn(key: str, region: str, account: str) -> str:
    return f"arn:aws:lambda:{region}:{account}:function:{local_name(key)}"


class FakeContext:
    """Enough of a Lambda context for Powertools and for deadline arithmetic."""

    def __init__(self, function: LocalFunction) -> None:
        self.function_name = local_name(function.key)
        self.function_version = "$LATEST"
        self.memory_limit_in_mb = function.memory_mb
        self.invoked_function_arn = (
            f"arn:aws:lambda:local:000000000000:function:{self.function_name}"
        )
        self.aws_request_id = str(uuid.uuid4())
        self.log_group_name = f"/aws/lambda/{self.function_name}"
        self.log_stream_name = "local"
        self._deadline = time.monotonic() + function.timeout_s

    def get_remaining_time_in_millis(self) -> int:
        return max(0, int((self._deadline - time.monotonic()) * 1000))


def handler_module(function: LocalFunction) -> ModuleType:
    """The module of ``function``'s handler, found by its declaration in the registry."""
    return importlib.import_module(function.module)


def load_handler(function: LocalFunction) -> Handler:
    handler: Handler = handler_module(function).lambda_handler
    return handler


WARM_STATE_HOOK = "forget_warm_state"
"""What a handler module may define to drop what its warm container keeps (a client, a
cache, a loaded snapshot): a new local system calls it, to start as a cold container."""


def forget_warm_state(functions: Iterable[LocalFunction]) -> None:
    """Call each imported handler's :data:`WARM_STATE_HOOK` (one not imported has nothing)."""
    for function in functions:
        module = sys.modules.get(function.module)
        forget = getattr(module, WARM_STATE_HOOK, None)
        if callable(forget):
            forget()


class Dispatcher:
    """Maps a function name from the state machine to a handler and calls it."""

    def __init__(
        self, overrides: Mapping[str, Handler] | None = None, *, environment: Mapping[str, str]
    ) -> None:
        """``environment`` is what the handlers read as theirs, in every call."""
        self._environment = environment
        functions = registry.functions_by_key()
        self._by_name = {local_name(k): f for k, f in functions.items()}
        self._handlers = dict(overrides or {})
        for key, function in functions.items():
            if key not in self._handlers:
                self._handlers[key] = load_handler(function)

    def __call__(self, name: str, payload: dict[str, Any]) -> Any:
        function = self._by_name.get(name)
        if function is None:
            raise LookupError(f"Function not found: {name}")
        handler = self._handlers[function.key]
        try:
            with overriding(self._environment):
                return handler(payload, FakeContext(function))
        finally:
            # An override handler may add metrics without the decorator that drops them;
            # at 100 buffered values of one, Powertools would print them to stdout.
            metrics.clear_metrics()
