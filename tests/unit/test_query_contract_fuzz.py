"""Property-based fuzzing of the POST /query contract.

Whatever a client sends, the contract either accepts a well-formed request or
rejects it with a readable reason; and the JSON Schema API Gateway validates
with agrees with the pydantic model the dev server uses.
"""

from __future__ import annotations

import json
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from jsonschema import Draft4Validator

from shared.api.query import (
    DEFAULT_MAX_MESSAGE_CHARS,
    MAX_BODY_BYTES,
    QueryRequest,
    RequestRejected,
    parse_query,
    request_json_schema,
)

SCHEMA = Draft4Validator(request_json_schema())
json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=50),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=10), inner, max_size=4)
    ),
    max_leaves=10,
)
messages = st.one_of(
    st.text(max_size=60),
    st.text(min_size=DEFAULT_MAX_MESSAGE_CHARS - 2, max_size=DEFAULT_MAX_MESSAGE_CHARS + 2),
    st.sampled_from(["", " ", "\t\n", "hi\x00", "a\x1bb", "ok\u0085", "laptops?", "é" * 10]),
)
session_ids = st.one_of(
    st.uuids().map(str),
    st.text(max_size=40),
    st.sampled_from(["", "../etc/passwd", "00000000-0000-4000-8000-00000000000Z"]),
)
turn_ids = st.one_of(
    st.binary(min_size=16, max_size=16).map(bytes.hex),
    st.text(alphabet="0123456789abcdefABCDEF", min_size=30, max_size=34),
    st.sampled_from(["", "0" * 32, "../x", None]),
)
bodies = st.one_of(
    json_values,
    st.fixed_dictionaries({"message": messages}),
    st.fixed_dictionaries({"message": messages, "sessionId": session_ids}),
    st.fixed_dictionaries(
        {"message": messages}, optional={"extra": json_values, "sessionId": json_values}
    ),
    st.fixed_dictionaries({"message": messages}, optional={"turnId": turn_ids}),
)


def outcome(raw: bytes) -> QueryRequest | str:
    try:
        return parse_query(raw)
    except RequestRejected as exc:
        return str(exc)


@settings(max_examples=400, suppress_health_check=[HealthCheck.too_slow], deadline=None)
@given(bodies)
def test_every_body_is_accepted_cleanly_or_rejected_with_a_reason(body: Any) -> None:
    raw = json.dumps(body).encode()
    result = outcome(raw)
    if isinstance(result, str):
        assert result and len(result) < 300  # a readable sentence, not a stack trace
    else:
        assert result.message.strip() and len(result.message) <= DEFAULT_MAX_MESSAGE_CHARS
    # The API Gateway model and the dev server's model agree on every body
    if len(raw) <= MAX_BODY_BYTES:
        assert SCHEMA.is_valid(body) == (not isinstance(result, str)), (body, result)


@settings(max_examples=200, deadline=None)
@given(st.binary(max_size=300))
def test_arbitrary_bytes_never_crash_the_parser(raw: bytes) -> None:
    result = outcome(raw)
    assert isinstance(result, QueryRequest | str)


def test_huge_bodies_are_refused_before_parsing() -> None:
    assert outcome(b'{"message": "' + b"a" * MAX_BODY_BYTES + b'"}') == (
        f"request body is larger than {MAX_BODY_BYTES} bytes"
    )


def test_a_null_session_id_means_a_new_session_in_both_models() -> None:
    body = {"message": "hello", "sessionId": None}
    assert SCHEMA.is_valid(body)
    assert parse_query(json.dumps(body)).sessionId is None
