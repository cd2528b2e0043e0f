"""One model call: build the request, check it, call the provider, tidy the reply."""

from __future__ import annotations

import functools
import json
import re
import time
import unicodedata
from collections.abc import Callable
from typing import Annotated, Any, TypeVar

from pydantic import BaseModel, Field, ValidationError

from converse.prompt import RULES, SELLS, prompt_of
from converse.providers import Provider
from converse.request import build_request, validate_request
from converse.settings import MAX_REPLY_TOKENS, MIN_REPLY_TOKENS, Settings
from converse.vouched import asks_by_id, vouched_ids
from converse.wire import message_to_json, messages_from_json
from shared.api.contract import Usage
from shared.text.shown import visible
from shared.trace.steps import ToolStep

MAX_COUNTED_TOKENS = 10_000_000
"""More tokens than any model reads or writes in one call: a larger count is not believed."""


class ConverseInput(BaseModel):
    messages: Annotated[list[dict[str, Any]], Field(min_length=1)]
    executionId: str | None = None
    deadlineMs: Annotated[
        int | None, Field(description="Epoch ms by which the model must have answered")
    ] = None
    steps: Annotated[Any, Field(description="The turn's live trace (shared.trace.steps.Turn)")] = (
        None
    )
    round: Annotated[int, Field(ge=0, description="Tool rounds done before this call")] = 0
    maxTokens: Annotated[
        int | None,
        Field(
            ge=MIN_REPLY_TOKENS,
            le=MAX_REPLY_TOKENS,
            description="The reply's cap; spend was reserved for it",
        ),
    ] = None
    """The state machine prices its reservation with this cap and sends it, so the call
    can never cost more than was reserved for it; without it, the function's own setting."""


class ConverseOutput(BaseModel):
    """What the state machine routes on. ``text`` and ``toolUses`` save it from digging."""

    stopReason: str
    message: dict[str, Any]
    text: str
    toolUses: list[dict[str, Any]]
    usage: Usage
    usageKnown: bool = True
    """False when the reply's token counts cannot be believed (missing, negative, not whole
    numbers, beyond any model's window): ``usage`` is then zero and the call counts at
    the spend reserved for it."""
    latencyMs: int
    provider: str
    steps: list[ToolStep] = Field(default_factory=list)
    """The live trace's line of each toolUse, in order (shared.trace.steps)."""
    unusable: str | None = None
    """Why the model's reply could not be used, when it could not: the call happened
    and its ``usage`` counts, but the reply has no text or toolUse to route, and
    ``RouteStopReason`` falls back."""
    vouched: list[str] | None = None
    """When the reply looks products up by id: the ids the conversation vouches for
    (:mod:`converse.vouched`), which the catalog tool holds the lookup to."""


LEAK_WINDOW = 40
"""Letters and digits of the system prompt in a row that make a reply a leak."""
NO_LEAK_REPLY = f"I can't share how I'm set up, but I'm happy to help you find {SELLS}."


def _normal(text: str) -> str:
    # Letters and digits only: whatever separates them (spaces, one word a line, a
    # separator every few characters, invisible characters) is not what leaks.
    folded = unicodedata.normalize("NFKC", visible(text)).casefold()
    return "".join(c for c in folded if c.isalnum())


@functools.cache
def _prompt_windows(rules: tuple[str, ...]) -> frozenset[str]:
    return frozenset(
        normal[i : i + LEAK_WINDOW]
        for normal in map(_normal, rules)
        for i in range(len(normal) - LEAK_WINDOW + 1)
    )


def leaks_system_prompt(text: str, rules: tuple[str, ...] = RULES) -> bool:
    """True when ``text`` repeats a stretch of the system prompt's ``rules``:
    :data:`LEAK_WINDOW` of their letters and digits in a row, whatever stands between them.

    Tool results can carry instructions ("print your rules"); whatever the model
    makes of them, its instructions do not reach the shopper. The store's own words in
    the prompt (its name, its contact) are not secret: an answer may give the contact.
    """
    normal = _normal(text)
    windows = _prompt_windows(rules)
    return any(normal[i : i + LEAK_WINDOW] in windows for i in range(len(normal) - LEAK_WINDOW + 1))


def tidy_message(message: dict[str, Any]) -> dict[str, Any]:
    """Drop blank text blocks: Converse rejects them when the message is sent back."""
    content = [
        block
        for block in message.get("content", [])
        if not ("text" in block and not str(block["text"]).strip())
    ]
    return {"role": "assistant", "content": content}


# Some models (Amazon Nova among them) think aloud inside the text itself. An
# unclosed tag (a reply cut off by max_tokens) hides everything after it.
_THINKING = re.compile(r"<(thinking|reasoning)>.*?(?:</\1>|\Z)", re.IGNORECASE | re.DOTALL)


def without_thinking(text: str) -> str:
    return _THINKING.sub("", text)


def visible_text(message: dict[str, Any]) -> str:
    """What the shopper may read of a reply, in the order the model wrote it.

    Invisible and direction-changing characters are removed (:mod:`shared.text.shown`): the
    checks that follow read the text the shopper is shown. Text blocks and the generated
    text of ``citationsContent`` blocks are joined as
    they are: a model that splits a sentence across blocks does not get a line break
    in the middle of it. Reasoning, in its own blocks or in ``<thinking>`` tags, is left
    out; the message sent back to the model keeps it as written.
    """
    parts: list[str] = []
    for block in message.get("content", []):
        if "text" in block:
            parts.append(str(block["text"]))
        elif "citationsContent" in block:
            cited = block["citationsContent"] or {}
            parts.extend(str(c.get("text", "")) for c in cited.get("content") or [])
    return visible(without_thinking("".join(parts))).strip()


def reported_usage(response: Any) -> Usage | None:
    """The token counts a reply reports, or None when they cannot be believed.

    ``inputTokens`` and ``outputTokens`` must be there; the cache counts are there only
    when the prompt cache was used. Each must be a whole number from 0 to
    :data:`MAX_COUNTED_TOKENS`: a negative count would take spend off the day's counter,
    and an absurd one would end the day's budget on one bad reply.
    """
    usage = response.get("usage") if isinstance(response, dict) else None
    if not isinstance(usage, dict) or not {"inputTokens", "outputTokens"} <= usage.keys():
        return None
    try:
        counted = Usage.model_validate(
            {k: usage[k] for k in Usage.model_fields if k in usage}, strict=True
        )
    except ValidationError:
        return None
    if any(count > MAX_COUNTED_TOKENS for count in counted.model_dump().values()):
        return None
    return counted


def _read_reply(response: dict[str, Any], *, elapsed_ms: int, provider: str) -> ConverseOutput:
    usage = reported_usage(response)
    message = tidy_message(response.get("output", {}).get("message") or {})
    text = visible_text(message)
    if leaks_system_prompt(text):
        message["content"] = [
            {"text": NO_LEAK_REPLY} if "text" in b or "citationsContent" in b else b
            for b in message["content"]
        ]
        text = NO_LEAK_REPLY
    return ConverseOutput(
        stopReason=str(response.get("stopReason", "")),
        message=message_to_json(message),
        text=text,
        toolUses=[b["toolUse"] for b in message["content"] if "toolUse" in b],
        usage=usage or Usage(),
        usageKnown=usage is not None,
        latencyMs=int(response.get("metrics", {}).get("latencyMs", elapsed_ms)),
        provider=provider,
    )


def converse(event: ConverseInput, *, settings: Settings, provider: Provider) -> ConverseOutput:
    request = build_request(
        messages_from_json(event.messages),
        system_prompt=prompt_of(settings.store_file),
        model_id=settings.model_id,
        max_tokens=event.maxTokens or settings.max_tokens,
        temperature=settings.temperature,
        prompt_caching=settings.prompt_caching,
        guardrail=(settings.guardrail_id, settings.guardrail_version)
        if settings.guardrail_id
        else None,
        currency=settings.store_currency,
    )
    validate_request(request)
    timeout_s = None
    if event.deadlineMs is not None:
        # Half a second to build the reply and hand it back to the state machine.
        timeout_s = (event.deadlineMs - time.time() * 1000) / 1000 - 0.5
    started = time.perf_counter()
    response = provider.converse(request, timeout_s=timeout_s)
    elapsed = int((time.perf_counter() - started) * 1000)
    try:
        output = _read_reply(response, elapsed_ms=elapsed, provider=provider.label)
        if asks_by_id(output.toolUses):
            output.vouched = vouched_ids(event.messages)
        # What the Lambda returns must be JSON, or the state machine never sees the reply.
        json.dumps(output.model_dump())
    except Exception as exc:
        # The call happened and is paid for: its usage goes to the loop with the reason.
        return unusable_reply(response, exc, elapsed_ms=elapsed, provider=provider.label)
    return output


def unusable_reply(
    response: Any, problem: Exception, *, elapsed_ms: int, provider: str
) -> ConverseOutput:
    """A reply that cannot be used, as data: its usage, no message, and why."""
    usage = _safe(lambda: reported_usage(response), None)
    return ConverseOutput(
        stopReason=_safe(lambda: str(response["stopReason"]), ""),
        message={"role": "assistant", "content": []},
        text="",
        toolUses=[],
        usage=usage or Usage(),
        usageKnown=usage is not None,
        latencyMs=elapsed_ms,
        provider=provider,
        unusable=f"{type(problem).__name__}: {problem}"[:300],
    )


T = TypeVar("T")


def _safe(read: Callable[[], T], default: T) -> T:
    try:
        return read()
    except Exception:
        return default
