"""Screening web text with the environment's Bedrock guardrail before the model reads it.

Converse's own ``guardrailConfig`` judges the shopper's messages and the model's replies,
not ``toolResult`` blocks (Bedrock's documentation), so a tool that quotes the web
(reviews, book facts) calls ``ApplyGuardrail`` on what it is about to return, when the
environment has a guardrail (``BEDROCK_GUARDRAIL_ID``, ``BEDROCK_GUARDRAIL_VERSION``; the
stack sets them from ``guardrail`` in ``cdk.json``). The text goes as ``INPUT``: it is on
its way into the model, and the prompt-attack filter judges input.

It **fails closed**: text the guardrail could not screen (throttled, timed out, denied,
an answer it cannot read) is withheld like text it blocked. A screen that lets text
through whenever the call fails is one an attacker switches off with a burst of
questions or an oversized page; what is lost is a tool whose answer is optional, and
the shopper still gets the catalog's. The tool says which happened, in words.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Annotated, Any

from pydantic import BaseModel, ConfigDict, Field, field_validator

from shared.config.environment import BlankIsUnset
from shared.runtime.errors import FailureKind, UpstreamError
from shared.runtime.http import MARGIN_S, RemainingTime, timeout_from

GUARDRAIL_ID_PATTERN = r"^[a-z0-9]{1,64}$"
"""A guardrail's id, as the Bedrock console shows it."""
GUARDRAIL_VERSION_PATTERN = r"^(DRAFT|[1-9][0-9]{0,7})$"
CONNECT_TIMEOUT_S = 1
SCREEN_RESERVE_S = 1.5
"""What a web tool keeps of its time for the screening, out of what its search may take."""
SCREEN_CAP_S = 3.0
"""The most one screening may take (ApplyGuardrail usually answers in well under a second)."""

ClientFactory = Callable[[int], Any]
"""Builds a bedrock-runtime client whose read timeout is the given number of seconds."""


class GuardrailSettings(BaseModel):
    """The guardrail a function applies, read with the function's other settings."""

    model_config = ConfigDict(extra="ignore", populate_by_name=True)

    guardrail_id: Annotated[
        str | None,
        Field(alias="BEDROCK_GUARDRAIL_ID", pattern=GUARDRAIL_ID_PATTERN),
        BlankIsUnset,
    ] = None
    guardrail_version: Annotated[
        str, Field(alias="BEDROCK_GUARDRAIL_VERSION", pattern=GUARDRAIL_VERSION_PATTERN)
    ] = "DRAFT"
    region: Annotated[str | None, Field(alias="BEDROCK_REGION"), BlankIsUnset] = None
    """Where Bedrock is called (the guardrail lives there); the function's own when unset."""

    @field_validator("guardrail_version", mode="before")
    @classmethod
    def _blank_is_draft(cls, value: Any) -> Any:
        return value if not isinstance(value, str) or value.strip() else "DRAFT"


@dataclass(frozen=True)
class Screening:
    """What the guardrail made of the text: passed, or blocked and by which policies."""

    blocked: bool
    policies: tuple[str, ...] = ()


class GuardrailScreen:
    """``ApplyGuardrail`` with one guardrail; raises :class:`UpstreamError` when the call
    fails, which the caller treats as a block (see the module's docstring)."""

    def __init__(self, guardrail_id: str, version: str, clients: ClientFactory) -> None:
        self.guardrail_id = guardrail_id
        self.version = version
        self._clients = clients

    def __call__(self, texts: Sequence[str], *, timeout_s: float) -> Screening:
        from botocore.exceptions import BotoCoreError, ClientError, ReadTimeoutError

        content = [{"text": {"text": text}} for text in texts if text.strip()]
        if not content:
            return Screening(blocked=False)
        try:
            response = self._clients(max(1, int(timeout_s))).apply_guardrail(
                guardrailIdentifier=self.guardrail_id,
                guardrailVersion=self.version,
                source="INPUT",
                content=content,
            )
        except ClientError as exc:
            code = exc.response.get("Error", {}).get("Code", "ClientError")
            raise UpstreamError(FailureKind.SCREENING_FAILED, str(code)) from exc
        except ReadTimeoutError as exc:
            raise UpstreamError(FailureKind.SCREENING_FAILED, "no answer in time") from exc
        except BotoCoreError as exc:
            raise UpstreamError(FailureKind.SCREENING_FAILED, type(exc).__name__) from exc
        action = response.get("action")
        if action == "NONE":
            return Screening(blocked=False)
        if action == "GUARDRAIL_INTERVENED":
            return Screening(blocked=True, policies=_policies(response))
        raise UpstreamError(FailureKind.SCREENING_FAILED, f"unknown guardrail action {action!r}")


def _policies(response: dict[str, Any]) -> tuple[str, ...]:
    """The policies that acted, for the trace: content filters and topics by name."""
    found: list[str] = []
    for assessment in response.get("assessments") or []:
        content = (assessment.get("contentPolicy") or {}).get("filters") or []
        found += [str(f.get("type")) for f in content if f.get("action") == "BLOCKED"]
        topics = (assessment.get("topicPolicy") or {}).get("topics") or []
        found += [f"topic {t.get('name')}" for t in topics if t.get("action") == "BLOCKED"]
        for policy, name in (
            ("wordPolicy", "word filter"),
            ("sensitiveInformationPolicy", "sensitive information"),
        ):
            if assessment.get(policy):
                found.append(name)
    return tuple(dict.fromkeys(found))


_lock = threading.Lock()
_clients: dict[tuple[str | None, int], Any] = {}
_installed: ClientFactory | None = None


def use_clients(factory: ClientFactory | None) -> None:
    """Build clients with ``factory`` from now on (the local runner's holds the developer's
    credentials, resolved before moto replaced them); ``None`` goes back to the default."""
    global _installed
    with _lock:
        _installed = factory
        _clients.clear()


def forget() -> None:
    """Drop the clients a warm container keeps, and any installed factory."""
    use_clients(None)


def _client(region: str | None, read_timeout_s: int) -> Any:
    with _lock:
        key = (region, read_timeout_s)
        if key not in _clients:
            _clients[key] = (_installed or _default_factory(region))(read_timeout_s)
        return _clients[key]


def _default_factory(region: str | None) -> ClientFactory:
    def build(read_timeout_s: int) -> Any:
        import boto3
        from botocore.config import Config

        # One attempt: a retry would spend the tool's few seconds, and a failed screen
        # withholds the text anyway.
        return boto3.client(
            "bedrock-runtime",
            region_name=region,
            config=Config(
                retries={"max_attempts": 1, "mode": "standard"},
                read_timeout=read_timeout_s,
                connect_timeout=CONNECT_TIMEOUT_S,
            ),
        )

    return build


def screen_for(settings: GuardrailSettings) -> GuardrailScreen | None:
    """The screen of ``settings``' guardrail, or None when the environment has none."""
    if settings.guardrail_id is None:
        return None
    return GuardrailScreen(
        settings.guardrail_id,
        settings.guardrail_version,
        lambda seconds: _client(settings.region, seconds),
    )


Screen = Callable[[Sequence[str]], Screening]
"""A web tool's screening of its texts, with the time the tool has left."""


def screening(settings: GuardrailSettings, context: RemainingTime | None) -> Screen | None:
    """What a web tool screens its texts with (None: the environment has no guardrail),
    each call given what is left of the tool's time, up to :data:`SCREEN_CAP_S`."""
    screen = screen_for(settings)
    if screen is None:
        return None
    return lambda texts: screen(texts, timeout_s=timeout_from(context, cap_s=SCREEN_CAP_S))


def search_margin_s(screen: Screen | None) -> float:
    """What a web tool's search leaves of the tool's time: room for the screening too."""
    return MARGIN_S + (SCREEN_RESERVE_S if screen is not None else 0.0)
