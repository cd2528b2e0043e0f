"""A deterministic stand-in for a Bedrock model that speaks the Converse protocol.

The demo and the tests run with no AWS account and no model weights, so
:class:`OfflineModel` takes the exact kwargs of boto3's ``bedrock-runtime``
``converse`` call and returns a dict of the same shape as the real response.
It reads the shopper's words with a few regular expressions, not a language
model: it is meant to exercise the tool loop, not to be clever.

Turn 1 (the last message carries the shopper's text): parse an :class:`Intent`
(category, brand, OS, budget, use, review and book asks), carrying the subject of
an earlier user turn over to a follow-up such as "which of those is lightest?",
and ask for the tools that serve it, all in one assistant message
(``stopReason`` ``tool_use``). A message that asks for nothing gets an
introduction instead (``end_turn``).

Turn 2 (the last message carries ``toolResult`` blocks): rank the products the
tools returned against the intent, recommend at most three, cite each as
``[productId]``, summarise reviews and book facts, say plainly which tools
failed, and stop (``end_turn``). It never asks for a second round.

Usage is an approximation, documented so nobody mistakes it for a tokenizer:

* a token is ``ceil(chars / 4)`` of each block's compact, key-sorted JSON;
* input = tools + system + messages; output = the content;
* prompt caching follows Bedrock's rules for the model the instance stands in for
  (Claude Sonnet 4.5 unless told otherwise; :mod:`storechat.offline.cache`): a
  ``cachePoint`` creates an entry only past the model's minimum, a later request
  reads the longest identical prefix written in the last 5 minutes, and
  ``inputTokens`` counts only what was neither read nor written. Without a
  ``cachePoint`` both cache counts are 0;
* ``totalTokens`` = input + output + cache read + cache write, as Bedrock
  reports it;
* ``latencyMs`` is synthetic (derived from the token counts), never a clock.

The content of a response depends only on the request, so the same request
always gets the same message; only the cache counts depend on what the
instance has seen before. ``inferenceConfig.maxTokens`` is not enforced: an
answer is capped at about 900 characters, far below any sensible limit. The
prompt cache is the only shared state and a lock guards it, so one instance can
serve concurrent requests.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any, Final

from shared.errors import InvalidConverseRequest
from storechat.offline.answer import compose_answer
from storechat.offline.cache import DEFAULT_STAND_IN
from storechat.offline.intent import conversation_intent
from storechat.offline.messages import (
    content_blocks,
    last_top_pick,
    read_outcomes,
    tool_names,
    user_texts,
)
from storechat.offline.plan import GREETING, NO_TOOLS_REPLY, THANKS_REPLY, plan_tool_calls, preamble
from storechat.offline.usage import UsageMeter

OFFLINE_MODEL_ID: Final = "storechat.offline-v1"


class OfflineModel:
    """A deterministic Converse model: same request, same message. Thread-safe."""

    def __init__(self, stand_in_for: str = DEFAULT_STAND_IN) -> None:
        self._meter = UsageMeter(stand_in_for)

    def converse(self, request: dict[str, Any]) -> dict[str, Any]:
        messages = request.get("messages")
        if not isinstance(messages, list) or not messages:
            raise InvalidConverseRequest("the offline model needs at least one message")
        if not isinstance(messages[-1], dict) or messages[-1].get("role") != "user":
            raise InvalidConverseRequest("the last message must come from the user")
        content, stop_reason = self._reply(request, messages)
        usage = self._meter.usage(request, content)
        return {
            "output": {"message": {"role": "assistant", "content": content}},
            "stopReason": stop_reason,
            "usage": usage,
            # Synthetic, so that equal requests get equal responses.
            "metrics": {"latencyMs": 40 + 2 * usage["outputTokens"]},
        }

    def _reply(
        self, request: dict[str, Any], messages: list[dict[str, Any]]
    ) -> tuple[list[dict[str, Any]], str]:
        intent = conversation_intent(user_texts(messages))
        if any("toolResult" in block for block in content_blocks(messages[-1])):
            answer = compose_answer(intent, read_outcomes(messages))
            return [{"text": answer}], "end_turn"
        if intent.is_empty():
            return [{"text": THANKS_REPLY if intent.thanks else GREETING}], "end_turn"
        if intent.wants_reviews and not intent.review_query:
            intent = replace(intent, review_query=last_top_pick(messages))
        calls = plan_tool_calls(intent, tool_names(request))
        if not calls:
            return [{"text": NO_TOOLS_REPLY}], "end_turn"
        round_number = sum(
            1 for m in messages if isinstance(m, dict) and m.get("role") == "assistant"
        )
        content: list[dict[str, Any]] = [{"text": preamble(calls)}]
        for index, (name, tool_input) in enumerate(calls):
            tool_use_id = f"tooluse_off_{round_number + 1}_{index}"
            content.append(
                {"toolUse": {"toolUseId": tool_use_id, "name": name, "input": tool_input}}
            )
        return content, "tool_use"
