"""One scripted model: the calls a test (or a recording) wants the model to make, in order.

Each step of a script is what the model does on one call:

* a Converse reply, as boto3 returns it or as Bedrock writes it on the wire (a binary
  field in base64 text is read back as bytes, as boto3 reads it);
* a function of the request, for a reply that depends on what was asked (any Converse
  stand-in: the offline model's ``converse``, the red team's obedient model);
* an exception, raised as the provider would raise it (``ModelThrottled(...)``);
* anything else a caller hands over as it is (:meth:`ScriptedModel.step`): the fake
  Bedrock endpoint's scripted HTTP refusals.

When the steps run out, ``then`` answers every further call; with no ``then``, one call
more than was scripted is an error (:class:`ReplayExhausted`) that says so. Every
request is kept, as it arrived, in ``requests``. Given a ``meter``, a reply's input
tokens are split into cache reads and writes the way Bedrock would count this request
(:meth:`converse.metering.UsageMeter.split`), so a recording replays with today's prompt
caching. Thread-safe: a parallel Map calls it from several threads.
"""

from __future__ import annotations

import copy
import json
import threading
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

from converse.metering import UsageMeter
from converse.wire import response_from_json
from shared.runtime.errors import ModelRequestRejected, ReplayExhausted

Reply = dict[str, Any]
Answer = Callable[[dict[str, Any]], Reply]


class ScriptedModel:
    """A provider that plays its steps in order (see the module's docstring)."""

    label = "scripted"

    def __init__(
        self,
        steps: Iterable[Any] = (),
        *,
        then: Answer | None = None,
        meter: UsageMeter | None = None,
        name: str = "the script",
    ) -> None:
        self._steps = list(steps)
        self._then = then
        self._meter = meter
        self._name = name
        self._next = 0
        self._lock = threading.Lock()
        self.requests: list[dict[str, Any]] = []

    @classmethod
    def from_file(cls, path: Path, *, meter: UsageMeter | None = None) -> ScriptedModel:
        """A recording: a JSON list of Converse replies, as Bedrock wrote them."""
        try:
            replies = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, json.JSONDecodeError) as exc:
            raise ModelRequestRejected(f"cannot read replay file {path}: {exc}") from exc
        if not isinstance(replies, list) or not all(isinstance(r, dict) for r in replies):
            raise ModelRequestRejected(f"replay file {path} must hold a JSON list of responses")
        model = cls(replies, meter=meter, name=f"replay file {path.name}")
        model.label = "replay"
        return model

    @property
    def left(self) -> int:
        """How many scripted steps have not been played."""
        with self._lock:
            return len(self._steps) - self._next

    def step(self, request: dict[str, Any]) -> Any:
        """Keeps ``request`` and returns the next step as it was scripted (``then`` once
        they have run out)."""
        with self._lock:
            self.requests.append(copy.deepcopy(request))
            if self._next < len(self._steps):
                self._next += 1
                return self._steps[self._next - 1]
            if self._then is not None:
                return self._then
            raise ReplayExhausted(
                f"{self._name} has {len(self._steps)} responses; call {self._next + 1} has none"
            )

    def converse(self, request: dict[str, Any], *, timeout_s: float | None = None) -> Reply:
        step = self.step(request)
        if isinstance(step, BaseException):
            raise step
        reply = step(request) if callable(step) else response_from_json(copy.deepcopy(step))
        if self._meter is not None and isinstance(reply.get("usage"), dict):
            reply = {**reply, "usage": self._meter.split(request, reply["usage"])}
        return reply
