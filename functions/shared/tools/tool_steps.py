"""A tool call's line in the live trace, in the words its own input model declares.

A tool's input model says what a call is doing with a ``step(currency)`` method
("Searching the catalog for gaming laptops under $1,500", amounts in the store's
``currency``) and how it ended with a ``found(result)``
class method reading the result the model got ("12 found"). A tool that declares
neither still gets a line ("Using the <name> tool", "done"), so a new tool shows in the
trace as soon as it is registered, and in its own words once it declares them.

The Converse function makes each call's line (:func:`call_line`) when the model asks for
the tool; the tool's handler (``shared.tools.tool_shell``) writes how it ended (:func:`outcome`).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from pydantic import BaseModel, ValidationError

from shared.products.currency import DEFAULT_CURRENCY
from shared.runtime.errors import FailureKind

FAILURE_WORDS: dict[str, str] = {
    FailureKind.TIMEOUT: "did not answer in time",
    FailureKind.TOOL_FAILED: "failed",
    FailureKind.UNKNOWN_TOOL: "no such tool",
    FailureKind.TOO_MANY_TOOLS: "skipped: too many at once",
    FailureKind.NOT_CONFIGURED: "not set up in this store",
    FailureKind.WITHHELD: "withheld by the store's content screening",
    FailureKind.SCREENING_FAILED: "withheld: content screening failed",
}
"""How a tool that could not answer ends its line, by the error ``kind`` of its result.
The state machine writes the same words for the kinds it handles (a test holds it to
this table); any other kind a tool reports reads ``failed``."""


@dataclass(frozen=True)
class Words:
    """How a field of a tool's input reads in its line, beside the field's declaration:
    ``Annotated[float | None, Field(...), Words("at least {} GB RAM")]``. ``{}`` is the
    value, written as a shopper reads a number; a mapping gives the words of each value
    (an enum's), and a ``True`` flag reads as the text itself."""

    text: str | Mapping[str, str]

    def of(self, value: Any) -> str | None:
        if isinstance(self.text, Mapping):
            return self.text.get(str(value))
        if value is True:
            return self.text
        if isinstance(value, bool) or value is None:
            return None
        if "{}" in self.text and isinstance(value, int | float):
            return self.text.format(number(value))
        return self.text.format(value)  # a format of its own: "{:.0f}" for a year


def number(value: float) -> str:
    """``1500`` -> ``1,500``, ``1.50`` -> ``1.5``, ``999.99`` -> ``999.99``."""
    text = f"{value:,.2f}".rstrip("0").rstrip(".")
    return text or "0"


def field_words(model: BaseModel, names: Iterable[str] | None = None) -> list[str]:
    """The words of each field set on ``model`` that declares them, in declaration order."""
    wanted = set(names) if names is not None else None
    out: list[str] = []
    for name, info in type(model).model_fields.items():
        if wanted is not None and name not in wanted:
            continue
        value = getattr(model, name)
        for marker in info.metadata:
            if isinstance(marker, Words) and value is not None:
                words = marker.of(value)
                if words:
                    out.append(words)
    return out


def call_line(
    name: str,
    input_model: type[BaseModel] | None,
    raw_input: Any,
    currency: str = DEFAULT_CURRENCY,
) -> str:
    """What a call of tool ``name`` with ``raw_input`` is doing, in the shopper's words,
    with amounts in the store's ``currency``."""
    fallback = (
        f"Using the {name} tool" if input_model else f"Asking for a tool I don't have ({name})"
    )
    if input_model is None or not callable(getattr(input_model, "step", None)):
        return fallback
    try:
        words = input_model.model_validate(raw_input).step(currency)  # type: ignore[attr-defined]
    except (ValidationError, ValueError, TypeError):
        return fallback
    return str(words) or fallback


def outcome(input_model: type[BaseModel], output: Mapping[str, Any]) -> tuple[str, str]:
    """``(status, words)`` of a finished call, from the ``ToolOutput`` its handler returns."""
    result = output.get("toolResult") or {}
    content = result.get("content") or [{}]
    body = content[0].get("json") if isinstance(content[0], dict) else None
    body = body if isinstance(body, dict) else {}
    if result.get("status") != "success":
        return "failed", FAILURE_WORDS.get(str(body.get("kind")), "failed")
    found = getattr(input_model, "found", None)
    words = found(body) if callable(found) else None
    return "done", str(words or "done")
