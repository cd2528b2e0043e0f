"""Reading a web tool's result as the model reads it, with its quoting checked.

A web tool quotes every string the web gave between one random mark's two halves and
says so in the result's ``untrusted`` field (``shared.tools.untrusted``). :func:`as_read`
checks exactly that on a result body, then returns the body without the quoting, so a
test can compare what the web said.
"""

from __future__ import annotations

import re
from typing import Any

from shared.tools import untrusted

_QUOTE = re.compile(
    f"^{untrusted.OPEN}(q[0-9a-f]{{8}}){untrusted.CLOSE}(.*){untrusted.OPEN}/\\1{untrusted.CLOSE}$",
    re.DOTALL,
)


def marks_in(value: Any) -> set[str]:
    """The mark of every quoted string in ``value``; fails on a string left unquoted."""
    if isinstance(value, str):
        if not value:
            return set()
        match = _QUOTE.match(value)
        assert match, f"web text reached the model unquoted: {value!r}"
        inner = match.group(2)
        assert untrusted.OPEN not in inner and untrusted.CLOSE not in inner, inner
        return {match.group(1)}
    if isinstance(value, list):
        return {mark for item in value for mark in marks_in(item)}
    if isinstance(value, dict):
        return {mark for item in value.values() for mark in marks_in(item)}
    return set()


def as_read(body: dict[str, Any]) -> dict[str, Any]:
    """``body`` (a web tool's successful result) without its quoting, once it is checked."""
    if not body.get("results"):
        assert untrusted.FIELD not in body
        return body
    (mark,) = marks_in(body["results"])
    assert body[untrusted.FIELD] == untrusted.note(mark)
    read = {k: v for k, v in body.items() if k != untrusted.FIELD}
    read["results"] = untrusted.unquoted(body["results"])
    return read
