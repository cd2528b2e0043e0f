"""One scripted conversation, through the whole local loop, in either of two modes.

* ``replay``: the Converse Lambda plays the script back from a file (``--model replay:``);
* ``wire``: the Converse Lambda's real Bedrock provider (``--model bedrock``) calls a
  Bedrock-shaped stand-in on 127.0.0.1 (``AWS_ENDPOINT_URL_BEDROCK_RUNTIME``), which
  answers with the script as Bedrock writes it on the wire.

The script holds every model reply of every turn, in order; the questions are asked one
after the other in one session.
"""

from __future__ import annotations

import base64
import hashlib
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

import pytest

from storechat.local import LocalStorechat
from tests.integration.conftest import converse_inputs
from tests.integration.converse_fixtures import write_replay
from tests.support.fake_bedrock import FakeBedrock

Mode = Literal["replay", "wire"]
MODES: tuple[Mode, ...] = ("replay", "wire")
CLAUDE = "us.anthropic.claude-sonnet-4-5-20250929-v1:0"


def tool_use_id(seed: str) -> str:
    """A toolUse id as Bedrock writes Claude's: ``tooluse_`` and 22 URL-safe characters."""
    digest = base64.urlsafe_b64encode(hashlib.sha256(seed.encode()).digest()).decode()
    return "tooluse_" + digest[:22]


@dataclass
class Conversation:
    bodies: list[dict[str, Any]]
    """The response body of each turn, as ``POST /query`` returns it."""
    model_requests: list[dict[str, Any]] = field(default_factory=list)
    """What the model received, call by call (wire mode: the bodies boto3 sent)."""


Between = Callable[[int], None]
"""Called after each turn but the last, with the turn's index: a change to the store."""


def converse(
    mode: Mode,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    script: list[dict[str, Any]],
    questions: list[str],
    *,
    between: Between | None = None,
    **local: Any,
) -> Conversation:
    """Ask ``questions`` in one session, the model answering with ``script``."""
    if mode == "replay":
        with LocalStorechat(model=write_replay(tmp_path, script), **local) as storechat:
            results = _ask_all(storechat, questions, between)
        requests = [payload for result in results for payload in converse_inputs(result)]
        return Conversation([_body(r) for r in results], requests)
    with FakeBedrock(script) as bedrock:
        monkeypatch.setenv("AWS_ENDPOINT_URL_BEDROCK_RUNTIME", bedrock.base_url)
        with LocalStorechat(model=f"bedrock:{CLAUDE}", **local) as storechat:
            results = _ask_all(storechat, questions, between)
        return Conversation([_body(r) for r in results], list(bedrock.requests))


def _ask_all(storechat: LocalStorechat, questions: list[str], between: Between | None) -> list[Any]:
    # As a warm container has it: a slow, shared machine must not time the first lookup out
    # while it opens the snapshot (cold lookups are the bench's to measure).
    storechat.prime_catalog_cache()
    results = []
    session: str | None = None
    for turn, question in enumerate(questions):
        if turn and between is not None:
            between(turn - 1)
        result = storechat.ask(question, session)
        assert result.status == "SUCCEEDED" and result.body is not None, result.cause
        session = result.body["sessionId"]
        results.append(result)
    return results


def _body(result: Any) -> dict[str, Any]:
    body: dict[str, Any] = result.body
    return body


def shown(body: dict[str, Any]) -> list[str]:
    """The product cards the shopper sees, by id."""
    return [p["productId"] for p in body["products"]]
