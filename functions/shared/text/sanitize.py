"""Make text from outside (catalog, web, books) safe to hand to the model.

Text a tool returns is data. It is stripped of control characters and capped in
size so that a hostile description cannot smuggle terminal escapes, fake
message boundaries or a megabyte of filler into the conversation.
"""

from __future__ import annotations

import re
from typing import Any

# Everything in Unicode category Cc except tab and newline, plus the bidi marks,
# embeddings, overrides and isolates, the zero-width characters, the soft hyphen,
# interlinear annotations and the tag characters (which spell out ASCII invisibly):
# all of them can reorder or hide text from a human reviewer.
_CONTROL = re.compile(
    r"[\x00-\x08\x0b-\x1f\x7f-\x9f\xad\u061c\u180e\u200b-\u200f\u202a-\u202e"
    r"\u2060-\u2064\u2066-\u2069\ufeff\ufff9-\ufffb\U000e0000-\U000e007f]"
)


def clean_text(value: str, limit: int) -> str:
    """Remove control characters, collapse runs of whitespace and cap at ``limit``."""
    text = _CONTROL.sub("", value)
    text = re.sub(r"[ \t]*\n[ \t\n]*", "\n", text)
    text = re.sub(r"[ \t]{2,}", " ", text).strip()
    if len(text) > limit:
        text = text[: max(limit - 1, 0)].rstrip() + "…"
    return text


def clean_value(value: Any, limit: int = 400) -> Any:
    """Apply :func:`clean_text` to every string inside a JSON-like value."""
    if isinstance(value, str):
        return clean_text(value, limit)
    if isinstance(value, list):
        return [clean_value(item, limit) for item in value]
    if isinstance(value, dict):
        return {clean_text(str(k), 64): clean_value(v, limit) for k, v in value.items()}
    return value


def has_control_characters(value: str) -> bool:
    """True when ``value`` holds a character :func:`clean_text` would remove."""
    return bool(_CONTROL.search(value))
