"""A Bedrock-shaped endpoint on 127.0.0.1, for the real provider and guardrail code.

Point boto3 at it with ``AWS_ENDPOINT_URL_BEDROCK_RUNTIME`` (or an ``endpoint_url``).

* ``POST /model/{modelId}/converse`` plays the next step of its script
  (:class:`converse.scripted.ScriptedModel`): a response, written as Bedrock writes it on
  the wire (binary fields in base64), or a scripted error (:class:`Refusal`: 429, 503,
  ...), or a reply from a function of the body. Once the steps run out, ``model(body)``
  answers, if given: any Converse stand-in, such as the red team's obedient model
  (``FakeBedrock(model=ObedientModel().converse)``), which does what tool results say.
  ``requests`` keeps every Converse body as it arrives, so a test can read what boto3
  really sent and count how often.
* ``POST /guardrail/{id}/version/{version}/apply`` (``ApplyGuardrail``) answers with
  ``guardrail(body)`` (:func:`passes` when none is given, :func:`blocks_when` to intervene
  on some text, :func:`failing` for an error); ``guardrail_requests`` keeps each body with
  its ``guardrailIdentifier`` and ``guardrailVersion`` from the path.
"""

from __future__ import annotations

import json
import threading
import time
import urllib.parse
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from types import TracebackType
from typing import Any, Self

from converse.scripted import ScriptedModel
from shared.runtime.errors import ReplayExhausted

Answer = tuple[int, dict[str, Any]]
GuardrailAnswer = Callable[[dict[str, Any]], Answer]


def guardrail_reply(action: str, *, filters: Iterable[str] = ()) -> dict[str, Any]:
    """An ``ApplyGuardrail`` response as Bedrock writes it; ``filters`` are the content
    filters that blocked (``PROMPT_ATTACK``, ``MISCONDUCT``, ...)."""
    blocked = [
        {"type": kind, "confidence": "HIGH", "action": "BLOCKED", "detected": True}
        for kind in filters
    ]
    units = {
        key: 1
        for key in (
            "topicPolicyUnits",
            "contentPolicyUnits",
            "wordPolicyUnits",
            "sensitiveInformationPolicyUnits",
            "sensitiveInformationPolicyFreeUnits",
            "contextualGroundingPolicyUnits",
        )
    }
    return {
        "usage": units,
        "action": action,
        "actionReason": "Guardrail blocked." if action == "GUARDRAIL_INTERVENED" else "No action.",
        "outputs": [{"text": "Sorry, this content was blocked."}] if blocked else [],
        "assessments": [{"contentPolicy": {"filters": blocked}}] if blocked else [],
    }


def passes(body: dict[str, Any]) -> Answer:
    return 200, guardrail_reply("NONE")


def blocks_when(*words: str, filters: Iterable[str] = ("PROMPT_ATTACK",)) -> GuardrailAnswer:
    """A guardrail that intervenes when any text it is given holds one of ``words``."""
    kinds = tuple(filters)

    def answer(body: dict[str, Any]) -> Answer:
        texts = [str(block.get("text", {}).get("text", "")) for block in body.get("content", [])]
        hit = any(word.casefold() in text.casefold() for word in words for text in texts)
        return 200, guardrail_reply(
            "GUARDRAIL_INTERVENED" if hit else "NONE", filters=kinds if hit else ()
        )

    return answer


def failing(status: int = 503, error: str = "ServiceUnavailableException") -> GuardrailAnswer:
    """A guardrail endpoint that fails every call with ``error``."""

    def answer(body: dict[str, Any]) -> Answer:
        return status, {"__type": error, "message": f"stand-in: {error}"}

    return answer


@dataclass(frozen=True)
class Refusal:
    """An error Bedrock answers a request with instead of a reply, as it writes it on the
    wire: the HTTP status, the error code in ``x-amzn-ErrorType`` and a message."""

    status: int
    code: str
    message: str = "refused by the stand-in"


THROTTLED = Refusal(429, "ThrottlingException", "Too many requests, please wait.")
UNAVAILABLE = Refusal(503, "ServiceUnavailableException", "Service unavailable.")


class FakeBedrock:
    """``responses`` are answered in order, a reply or a :class:`Refusal` each. ``delay_s``
    holds every answer back; ``delays_s`` holds back each one by its own (the first
    request's, the second's, ...; past its end, ``delay_s``)."""

    def __init__(
        self,
        responses: Iterable[dict[str, Any] | Refusal] = (),
        *,
        model: Callable[[dict[str, Any]], dict[str, Any]] | None = None,
        guardrail: GuardrailAnswer = passes,
        delay_s: float = 0.0,
        delays_s: Iterable[float] = (),
    ) -> None:
        self.script = ScriptedModel(responses, then=model, name="the stand-in")
        self._guardrail = guardrail
        self.delay_s = delay_s
        self._delays = list(delays_s)
        self.guardrail_requests: list[dict[str, Any]] = []
        self._lock = threading.Lock()
        self._server: ThreadingHTTPServer | None = None

    @property
    def base_url(self) -> str:
        assert self._server is not None, "start the server first"
        host, port = self._server.server_address[:2]
        return f"http://{host!s}:{port}"

    def __enter__(self) -> Self:
        self._server = ThreadingHTTPServer(("127.0.0.1", 0), _handler(self))
        self._server.daemon_threads = True
        threading.Thread(target=self._server.serve_forever, args=(0.02,), daemon=True).start()
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        if self._server is not None:
            self._server.shutdown()
            self._server.server_close()

    def delay_for(self) -> float:
        """How long to hold back the request being answered now."""
        with self._lock:
            return self._delays.pop(0) if self._delays else self.delay_s

    @property
    def requests(self) -> list[dict[str, Any]]:
        return self.script.requests

    def _arrived(self, body: dict[str, Any]) -> Any:
        # Counted as it arrives, before any delay: a caller that stops waiting has still
        # sent it.
        try:
            return self.script.step(body)
        except ReplayExhausted:
            return None

    @staticmethod
    def _answer(step: Any, body: dict[str, Any]) -> Answer:
        if step is None:
            return 400, {"message": "the stand-in has no more scripted responses"}
        if isinstance(step, Refusal):
            return step.status, {"__type": step.code, "message": step.message}
        return 200, step(body) if callable(step) else step

    def _screen(self, path: list[str], body: dict[str, Any]) -> Answer:
        identifier, version = urllib.parse.unquote(path[2]), urllib.parse.unquote(path[4])
        with self._lock:
            self.guardrail_requests.append(
                {"guardrailIdentifier": identifier, "guardrailVersion": version, **body}
            )
        return self._guardrail(body)


def _handler(fake: FakeBedrock) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            length = int(self.headers.get("Content-Length") or 0)
            body = json.loads(self.rfile.read(length) or b"{}")
            path = urllib.parse.urlsplit(self.path).path.split("/")
            if len(path) == 6 and path[1] == "guardrail" and path[5] == "apply":
                self._send(*fake._screen(path, body))
                return
            step = fake._arrived(body)
            delay = fake.delay_for()
            if delay:
                time.sleep(delay)
            self._send(*fake._answer(step, body))

        def _send(self, status: int, answer: dict[str, Any]) -> None:
            data = json.dumps(answer).encode()
            try:
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                if status != 200:
                    error = str(answer.get("__type") or "ValidationException")
                    self.send_header("x-amzn-ErrorType", error)
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)
            except (BrokenPipeError, ConnectionResetError):
                pass  # the client gave up waiting, as a slow-model test wants it to

        def log_message(self, format: str, *args: Any) -> None:
            pass

    return Handler
