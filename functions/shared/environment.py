"""The environment a function reads its configuration from.

Deployed, that is the process environment Lambda gives the function, and nothing here
changes that. The local runner calls every handler in one process, from several
threads, for one local system after another: it hands each call its system's values
with :func:`overriding` instead of writing ``os.environ`` for the whole process. The
values live in a context variable, so they reach only the thread (or task) that set
them and what it calls.

boto3 and Powertools read ``os.environ`` themselves; what they need from an override
(the region, whether metrics are published) goes through a function's settings or
``shared.observability``.
"""

from __future__ import annotations

import os
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar

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
