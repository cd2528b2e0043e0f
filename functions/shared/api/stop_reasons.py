"""Why a model call ended: Converse's ``stopReason`` values, declared once.

The values are botocore's bedrock-runtime model's. The state machine routes every one
(``RouteStopReason``); which of them finish a reply, the answer or the tools it asks
for, reaches the ASL through one substitution (``FinishedStopReasons``,
:func:`jsonata_list`), and the Converse function's live trace reads the same tuple.
"""

from __future__ import annotations

from typing import Literal, get_args

StopReason = Literal[
    "end_turn",
    "tool_use",
    "max_tokens",
    "stop_sequence",
    "guardrail_intervened",
    "content_filtered",
    "malformed_model_output",
    "malformed_tool_use",
    "model_context_window_exceeded",
]
STOP_REASONS: tuple[StopReason, ...] = get_args(StopReason)

FINISHED: tuple[StopReason, ...] = ("end_turn", "stop_sequence", "tool_use")
"""A finished reply: its text is the answer, or its toolUse blocks are run. Some models
say ``end_turn`` with toolUse blocks; ``tool_use`` without one counts as the answer."""

FINISHED_PLACEHOLDER = "FinishedStopReasons"
"""The ASL placeholder holding :data:`FINISHED` as a JSONata array."""


def jsonata_list(values: tuple[str, ...]) -> str:
    """``('a', 'b')`` -> ``['a', 'b']``: the values hold no quote, so need no escaping."""
    return "[" + ", ".join(f"'{value}'" for value in values) + "]"
