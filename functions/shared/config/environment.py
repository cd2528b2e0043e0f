"""The environment a function reads its configuration from.

Deployed, that is the process environment Lambda gives the function, and nothing here
changes that. The local runner calls every handler in one process, from several
threads, for one local system after another: it hands each call its system's values
with :func:`overriding` instead of writing ``os.environ`` for the whole process. The
values live in a context variable, so they reach only the thread (or task) that set
them and what it calls.

boto3 and Powertools read ``os.environ`` themselves; what they need from an override
(the region, whether metrics are published) goes through a function's settings or
``shared.runtime.observability``.

A variable present but blank is unset (:data:`BlankIsUnset`): templates and .env files
often leave variables so, and a blank secret, address or region must read as "not
configured", never as a value that is the empty string.
"""

from __future__ import annotations

import os
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any, Final

from pydantic import BeforeValidator

_override: ContextVar[Mapping[str, str] | None] = ContextVar("storechat_environ", default=None)


def environ() -> Mapping[str, str]:
    """The variables in force here: an override if one is set, else ``os.environ``."""
    values = _override.get()
    return os.environ if values is None else values


@contextmanager
def overriding(values: Mapping[str, str]) -> Iterator[None]:
    """Make :func:`environ` return ``values`` in this context until the block ends."""
    token = _override.set(values)
    try:
        yield
    finally:
        _override.reset(token)


def blank_is_unset(value: Any) -> Any:
    """``None`` for a string of nothing but white space; any other value as it is."""
    return None if isinstance(value, str) and not value.strip() else value


BlankIsUnset: Final = BeforeValidator(blank_is_unset)
"""A settings field's marker: ``Annotated[str | None, Field(alias=...), BlankIsUnset] = None``
reads a blank variable as ``None``, as if it were not set at all. It comes after the
``Field``, so that the field's constraints (a pattern) apply to a value, never to a blank."""
