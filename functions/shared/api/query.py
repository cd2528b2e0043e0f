"""The contract of ``POST /query``: one description for the deployed API and the dev server.

* :class:`QueryRequest` validates a request body in the dev server and in the CLI.
* :func:`request_json_schema` gives the same rules as a JSON Schema (draft 4)
  for the API Gateway request model and for ``openapi()``.
* :func:`error_body` is the one error shape both return; its codes, outcomes and
  fallback reasons are declared in :mod:`shared.api.vocabulary`.

The response body is ``compose_response.logic.ResponseBody`` plus ``historySaved``.
"""

from __future__ import annotations

import re
from typing import Annotated, Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from shared.api.vocabulary import ERRORS, FALLBACK_REASONS, OUTCOMES
from shared.api.vocabulary import error_body as error_body
from shared.trace.steps import TURN_ID_PATTERN

DEFAULT_MAX_MESSAGE_CHARS = 2000
MAX_BODY_BYTES = 16_384
"""Bodies larger than this are refused before they are parsed."""

SESSION_ID_PATTERN = r"^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$"
# Tab, newline and carriage return are text; every other C0/C1 control is not.
# Written as escapes so the schema in the CloudFormation template stays printable.
_CONTROL_PATTERN = r"[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]"
_NOT_CONTROL = re.compile(_CONTROL_PATTERN)


class QueryRequest(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)

    message: Annotated[str, Field(min_length=1, max_length=DEFAULT_MAX_MESSAGE_CHARS)]
    sessionId: Annotated[str | None, Field(pattern=SESSION_ID_PATTERN)] = None
    turnId: Annotated[str | None, Field(pattern=TURN_ID_PATTERN)] = None
    """The page's random id for this question: its live trace is read by it (shared.trace.steps)."""

    @field_validator("message")
    @classmethod
    def _readable(cls, value: str) -> str:
        if not value.strip():
            raise ValueError("message must not be empty or only whitespace")
        if _NOT_CONTROL.search(value):
            raise ValueError("message must not contain control characters")
        return value


class RequestRejected(ValueError):
    """A request body that breaks the contract; ``str()`` is the message a user sees."""


_ID_NAMES = {"sessionId": "session id", "turnId": "turn id", "productId": "product id"}


def describe_validation(exc: ValidationError) -> str:
    """The reasons a body breaks its model, as a user reads them: ``field: rule; ...``."""
    problems = []
    for err in exc.errors():
        where = ".".join(str(p) for p in err["loc"]) or "body"
        if err["type"] == "extra_forbidden":
            problems.append(f"{where}: unknown field")
        elif err["type"] == "missing":
            problems.append(f"{where}: required")
        elif err["type"] == "string_too_short":
            problems.append(f"{where}: must not be empty")
        elif err["type"] == "string_too_long":
            problems.append(f"{where}: at most {err['ctx']['max_length']} characters")
        elif err["type"] == "string_pattern_mismatch":
            problems.append(f"{where}: not a valid {_ID_NAMES.get(where, 'value')}")
        else:
            problems.append(f"{where}: {err['msg'].removeprefix('Value error, ')}")
    return "; ".join(problems)


def parse_query(
    raw: bytes | str, *, max_message_chars: int = DEFAULT_MAX_MESSAGE_CHARS
) -> QueryRequest:
    """Validate a raw request body, or raise :class:`RequestRejected` saying why."""
    import json

    if len(raw) > MAX_BODY_BYTES:
        raise RequestRejected(f"request body is larger than {MAX_BODY_BYTES} bytes")
    try:
        data = json.loads(raw)
    except (ValueError, UnicodeDecodeError) as exc:
        raise RequestRejected("request body is not valid JSON") from exc
    if not isinstance(data, dict):
        raise RequestRejected("request body must be a JSON object")
    try:
        request = QueryRequest.model_validate(data)
    except ValidationError as exc:
        raise RequestRejected(describe_validation(exc)) from exc
    if len(request.message) > max_message_chars:
        raise RequestRejected(f"message: at most {max_message_chars} characters")
    return request


def request_json_schema(max_message_chars: int = DEFAULT_MAX_MESSAGE_CHARS) -> dict[str, Any]:
    """The request rules as JSON Schema draft 4, the dialect API Gateway models use."""
    return {
        "$schema": "http://json-schema.org/draft-04/schema#",
        "title": "QueryRequest",
        "type": "object",
        "required": ["message"],
        "additionalProperties": False,
        "properties": {
            "message": {
                "type": "string",
                "minLength": 1,
                "maxLength": max_message_chars,
                "allOf": [{"pattern": r"\S"}, {"pattern": f"^[^{_CONTROL_PATTERN[1:-1]}]*$"}],
            },
            "sessionId": {"type": ["string", "null"], "pattern": SESSION_ID_PATTERN},
            "turnId": {"type": ["string", "null"], "pattern": TURN_ID_PATTERN},
        },
    }


def _error_responses() -> dict[str, Any]:
    """A response per status of :data:`~shared.api.vocabulary.ERRORS`; catch-alls go in
    ``default``."""
    by_status: dict[str, list[str]] = {}
    for error in ERRORS.values():
        by_status.setdefault(str(error.status or "default"), []).append(error.code)
    return {
        status: {
            "description": ", ".join(codes),
            "content": {
                "application/json": {
                    "schema": {
                        "type": "object",
                        "required": ["error", "message"],
                        "properties": {
                            "error": {"type": "string", "enum": codes},
                            "message": {"type": "string"},
                        },
                    }
                }
            },
        }
        for status, codes in sorted(by_status.items())
    }


def openapi(max_message_chars: int = DEFAULT_MAX_MESSAGE_CHARS) -> dict[str, Any]:
    """An OpenAPI 3.0 description of ``POST /query`` (served by the dev server, fuzzed in tests)."""
    request_schema = request_json_schema(max_message_chars)
    request_schema.pop("$schema")
    answer_schema = {
        "type": "object",
        "properties": {
            "outcome": {"type": "string", "enum": list(OUTCOMES)},
            "fallbackReason": {
                "type": "string",
                "nullable": True,
                "enum": [*FALLBACK_REASONS, None],
            },
        },
    }
    return {
        "openapi": "3.0.3",
        "info": {"title": "storechat", "version": "1.0.0"},
        "paths": {
            "/query": {
                "post": {
                    "operationId": "query",
                    "requestBody": {
                        "required": True,
                        "content": {"application/json": {"schema": request_schema}},
                    },
                    "responses": {
                        "200": {
                            "description": "The assistant's answer",
                            "content": {"application/json": {"schema": answer_schema}},
                        },
                        **_error_responses(),
                    },
                }
            }
        },
    }
