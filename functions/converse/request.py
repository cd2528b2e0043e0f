"""Build a Converse request and check it before it leaves.

Two kinds of check run on every request:

* the shape, against botocore's own ``ConverseRequest`` model of bedrock-runtime;
* the conversation rules that the shape cannot express: roles alternate and
  start with the user, every ``toolUse`` is answered by a ``toolResult`` with
  the same id in the very next user message, text is never blank, and an error
  result carries content.

A request that fails either check raises :class:`InvalidConverseRequest`: it is
our bug, and sending it would only earn a ``ValidationException``.
"""

from __future__ import annotations

import functools
import json
from typing import Any

from converse.caching import cache_rules
from converse.prompt import tools
from shared.products.currency import DEFAULT_CURRENCY
from shared.runtime.errors import InvalidConverseRequest

CACHE_POINT = {"cachePoint": {"type": "default"}}
# The local stand-ins (offline, replay) take checkpoints and count them by the rules of
# the model they stand in for (converse.metering).
_LOCAL_STAND_INS = ("storechat.",)


def supports_prompt_caching(model_id: str) -> bool:
    return cache_rules(model_id) is not None or model_id.startswith(_LOCAL_STAND_INS)


def _with_cache_point(message: dict[str, Any]) -> dict[str, Any]:
    return {**message, "content": [*message.get("content", []), CACHE_POINT]}


def earlier_turns_length(messages: list[dict[str, Any]]) -> int:
    """How many messages come from the session's earlier turns.

    This turn starts at its shopper message: the last user message made only of text
    (later user messages of a turn carry toolResults).
    """
    for index in range(len(messages) - 1, -1, -1):
        message = messages[index]
        blocks = message.get("content") or []
        if message.get("role") == "user" and blocks and all("text" in b for b in blocks):
            return index
    return 0


def place_cache_points(
    messages: list[dict[str, Any]], history_messages: int
) -> list[dict[str, Any]]:
    """Checkpoints where a later call reads them (the system prompt has its own):

    * after the session's earlier turns, so the next turn of the same session reads
      them (history is stored text: the same words every turn);
    * at the end of the conversation so far, so each model call of this turn reads
      everything the previous one sent.

    At most three with the system prompt's, within every model's limit of four.
    """
    marked = list(messages)
    last = len(marked) - 1
    if 0 < history_messages <= last:
        marked[history_messages - 1] = _with_cache_point(marked[history_messages - 1])
    marked[last] = _with_cache_point(marked[last])
    return marked


def build_request(
    messages: list[dict[str, Any]],
    *,
    system_prompt: str,
    model_id: str,
    max_tokens: int,
    temperature: float,
    prompt_caching: bool,
    guardrail: tuple[str, str] | None = None,
    currency: str = DEFAULT_CURRENCY,
) -> dict[str, Any]:
    cache = prompt_caching and supports_prompt_caching(model_id)
    system: list[dict[str, Any]] = [{"text": system_prompt}]
    specs: list[dict[str, Any]] = list(tools(currency))
    if cache:
        # Tools come before the system prompt in the cached prefix: one checkpoint
        # after the system prompt covers both.
        system.append(CACHE_POINT)
        messages = place_cache_points(messages, earlier_turns_length(messages))
    request: dict[str, Any] = {
        "modelId": model_id,
        "system": system,
        "messages": messages,
        # Sent on every call: once a toolUse is in the history, Converse
        # rejects a request without toolConfig.
        "toolConfig": {"tools": specs},
        "inferenceConfig": {"maxTokens": max_tokens, "temperature": temperature},
    }
    if guardrail:
        request["guardrailConfig"] = {
            "guardrailIdentifier": guardrail[0],
            "guardrailVersion": guardrail[1],
        }
    return request


def fixed_request_bytes(system_prompt: str, currency: str = DEFAULT_CURRENCY) -> int:
    """The UTF-8 bytes of everything a request sends besides its messages (the store's
    ``system_prompt``, the tool specs, the settings), as JSON: what the state machine adds
    to a conversation's own bytes to bound a call's input tokens before it reserves spend."""
    request = build_request(
        [{"role": "user", "content": [{"text": "?"}]}],
        system_prompt=system_prompt,
        model_id="model",
        max_tokens=1,
        temperature=0,
        prompt_caching=True,
        guardrail=("guardrail", "DRAFT"),
        currency=currency,
    )
    del request["messages"]
    return len(json.dumps(request, ensure_ascii=False, separators=(",", ":")).encode("utf-8"))


# botocore is imported where the shape is checked, not at the top: the CDK app reads
# fixed_request_bytes from this module (statemachine/__init__.py) and loads no botocore
# (tests/infrastructure/test_app_imports.py).
@functools.cache
def _converse_input_shape() -> Any:
    import botocore.session

    model = botocore.session.get_session().get_service_model("bedrock-runtime")
    return model.operation_model("Converse").input_shape


def check_shape(request: dict[str, Any]) -> None:
    from botocore.exceptions import ParamValidationError
    from botocore.validate import validate_parameters

    try:
        validate_parameters(request, _converse_input_shape())
    except ParamValidationError as exc:
        raise InvalidConverseRequest(f"request breaks the Converse shape: {exc}") from exc


def _blocks(message: dict[str, Any], kind: str) -> list[dict[str, Any]]:
    return [block[kind] for block in message.get("content", []) if kind in block]


def check_conversation(messages: list[dict[str, Any]], *, has_tool_config: bool) -> None:
    if not messages:
        raise InvalidConverseRequest("a request needs at least one message")
    if messages[0].get("role") != "user":
        raise InvalidConverseRequest("the first message must come from the user")
    pending: set[str] = set()
    for index, message in enumerate(messages):
        role = message.get("role")
        if index and role == messages[index - 1].get("role"):
            raise InvalidConverseRequest(f"message {index}: two {role} messages in a row")
        if not message.get("content"):
            raise InvalidConverseRequest(f"message {index}: content is empty")
        for text in _blocks(message, "text"):
            if not str(text).strip():
                raise InvalidConverseRequest(f"message {index}: a text block is blank")
        results = _blocks(message, "toolResult")
        uses = _blocks(message, "toolUse")
        if (results or uses) and not has_tool_config:
            raise InvalidConverseRequest("tool blocks need toolConfig on the request")
        if role == "user":
            answered = [r.get("toolUseId") for r in results]
            if set(answered) != pending or len(answered) != len(pending):
                raise InvalidConverseRequest(
                    f"message {index}: toolResults {sorted(map(str, answered))} do not answer "
                    f"the previous toolUses {sorted(pending)}"
                )
            for result in results:
                if result.get("status", "success") not in ("success", "error"):
                    raise InvalidConverseRequest(f"message {index}: bad toolResult status")
                if not result.get("content"):
                    raise InvalidConverseRequest(f"message {index}: a toolResult has no content")
            pending = set()
        else:
            if results:
                raise InvalidConverseRequest(f"message {index}: assistant sent a toolResult")
            ids = [u.get("toolUseId") for u in uses]
            if len(set(ids)) != len(ids):
                raise InvalidConverseRequest(f"message {index}: repeated toolUseId")
            pending = {str(i) for i in ids}
    if messages[-1].get("role") != "user":
        raise InvalidConverseRequest("the last message must come from the user")


def validate_request(request: dict[str, Any]) -> None:
    check_shape(request)
    check_conversation(request["messages"], has_tool_config="toolConfig" in request)
