"""Binary fields between Bedrock and the state machine.

Converse has blob members (``reasoningContent.redactedContent``, image and
document ``bytes``, ...). boto3 hands them over as ``bytes``, which a Lambda
cannot return and a state machine cannot carry. They cross the state machine as
base64 text and become bytes again, byte for byte, before the next request:
both directions are driven by botocore's own model of bedrock-runtime, so every
blob member is covered, not only the ones seen so far.
"""

from __future__ import annotations

import base64
import binascii
import functools
from collections.abc import Callable
from typing import Any

import botocore.session
from botocore.model import Shape


@functools.cache
def _operation() -> Any:
    model = botocore.session.get_session().get_service_model("bedrock-runtime")
    return model.operation_model("Converse")


def _walk(value: Any, shape: Shape, convert: Callable[[Any], Any]) -> Any:
    """``value`` with ``convert`` applied to every member whose shape is a blob."""
    if shape.type_name == "blob":
        return convert(value)
    if getattr(shape, "is_document_type", False):
        return value  # free-form JSON (a toolUse's input): no blobs inside
    if shape.type_name == "structure" and isinstance(value, dict):
        members = shape.members
        return {
            key: _walk(item, members[key], convert) if key in members else item
            for key, item in value.items()
        }
    if shape.type_name == "list" and isinstance(value, list):
        member = shape.member
        return [_walk(item, member, convert) for item in value]
    if shape.type_name == "map" and isinstance(value, dict):
        inner = shape.value
        return {key: _walk(item, inner, convert) for key, item in value.items()}
    return value


def _to_text(value: Any) -> Any:
    if isinstance(value, bytes | bytearray):
        return base64.b64encode(bytes(value)).decode("ascii")
    return value


def _to_bytes(value: Any) -> Any:
    if isinstance(value, str):
        try:
            return base64.b64decode(value.encode("ascii"), validate=True)
        except (binascii.Error, UnicodeEncodeError) as exc:
            raise ValueError("a binary Converse field is not valid base64") from exc
    return value


def message_shape() -> Shape:
    return _operation().output_shape.members["output"].members["message"]


def message_to_json(message: dict[str, Any]) -> dict[str, Any]:
    """An assistant message from boto3, with every blob as base64 text."""
    result: dict[str, Any] = _walk(message, message_shape(), _to_text)
    return result


def messages_from_json(messages: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The conversation from the state machine, with every blob as bytes again."""
    shape = _operation().input_shape.members["messages"]
    result: list[dict[str, Any]] = _walk(messages, shape, _to_bytes)
    return result


def response_from_json(response: dict[str, Any]) -> dict[str, Any]:
    """A Converse response recorded as JSON (blobs in base64), read as boto3 returns it."""
    result: dict[str, Any] = _walk(response, _operation().output_shape, _to_bytes)
    return result
