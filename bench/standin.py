"""The offline model behind Bedrock's Converse wire format, on 127.0.0.1.

:class:`OfflineBedrock` answers ``POST /model/{modelId}/converse`` with
``storechat.offline.OfflineModel().converse(body)``, so any Bedrock client (the
Converse Lambda's real ``BedrockProvider``, a Strands ``BedrockModel``) can talk to
it through an endpoint URL and fake credentials. It keeps, per request, the size of
the body it received and the usage it answered with: every loop the benchmark
compares is measured in the same place, the same way.

The offline model's answers hold only text and ``toolUse`` blocks, so the response
needs none of the base64 that binary fields take on the wire.
"""

from __future__ import annotations

import json
import threading
import urllib.parse
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler
from typing import Any

from bench.loopback import serving
from shared.runtime.errors import InvalidConverseRequest
from storechat.offline import OfflineModel

FAKE_CREDENTIALS = {"aws_access_key_id": "bench", "aws_secret_access_key": "bench"}
"""What a client signs with: the stand-in reads no signature, and nothing leaves 127.0.0.1."""


@dataclass(frozen=True)
class Call:
    """One Converse request as the stand-in received it."""

    model_id: str
    request_bytes: int
    usage: dict[str, int]


class OfflineBedrock:
    """The stand-in's record of calls; :meth:`serve` runs it."""

    def __init__(self) -> None:
        self._model = OfflineModel()
        self._lock = threading.Lock()
        self._calls: list[Call] = []
        self.url = ""

    def answer(self, model_id: str, body: bytes) -> tuple[int, dict[str, Any]]:
        try:
            response = self._model.converse(json.loads(body or b"{}"))
        except (InvalidConverseRequest, ValueError) as exc:
            return 400, {"message": f"stand-in: {exc}"}
        with self._lock:
            self._calls.append(Call(model_id, len(body), dict(response["usage"])))
        return 200, response

    def drain(self) -> list[Call]:
        """The calls received since the last drain, in order."""
        with self._lock:
            calls, self._calls = self._calls, []
        return calls

    @contextmanager
    def serve(self) -> Iterator[OfflineBedrock]:
        """Serve on a free loopback port (``self.url``) until the block ends."""
        standin = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                parts = urllib.parse.urlparse(self.path).path.split("/")
                body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
                if len(parts) == 4 and parts[1] == "model" and parts[3] == "converse":
                    status, answer = standin.answer(urllib.parse.unquote(parts[2]), body)
                else:
                    status, answer = 404, {"message": f"stand-in: no route {self.path}"}
                data = json.dumps(answer).encode("utf-8")
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                if status != 200:
                    self.send_header("x-amzn-ErrorType", "ValidationException")
                self.end_headers()
                self.wfile.write(data)

            def log_message(self, format: str, *args: Any) -> None:
                return None

        with serving(Handler) as url:
            self.url = url
            try:
                yield self
            finally:
                self.url = ""
