"""DynamoDB's atomic writes and consistent reads, locally: one call at a time through moto.

DynamoDB applies each write, its condition included, atomically. moto applies it in
several Python steps (read the item, check the condition, write), so two threads can
interleave: two conditional adds both pass, or one ``ADD`` is lost. The day's model
budget rests on exactly such a conditional add (``ReserveSpend``), made by executions
running at once, so locally every DynamoDB write of the process is serialised.

moto's reads walk its tables' dictionaries: a Query with a filter iterates every item of
the table, and a write from another thread (a tool's live step while the runner polls
the turn's steps) changes the dictionary under it, and the read fails with "dictionary
changed size during iteration". So reads take the same lock.

No moto internals are touched: moto answers a boto3 call inside the call itself, so a
lock taken by botocore's ``before-call`` event and given back by ``after-call`` (or
``after-call-error``) spans the whole call. The hooks go on boto3's default session,
which moto's Step Functions interpreter uses for its service integrations.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import boto3

WRITES = ("PutItem", "UpdateItem", "DeleteItem", "BatchWriteItem", "TransactWriteItems")
"""The DynamoDB operations that write, conditionally or not."""
READS = ("GetItem", "BatchGetItem", "TransactGetItems", "Query", "Scan")
"""The DynamoDB operations that read items, which moto does by walking its tables."""
SERIALISED = WRITES + READS

_lock = threading.RLock()
_held = threading.local()


def _take(**_: Any) -> None:
    _lock.acquire()
    _held.depth = getattr(_held, "depth", 0) + 1


def _give_back(**_: Any) -> None:
    # Only a thread that took the lock gives it back (a hook added mid-call cannot
    # release what it never took).
    if getattr(_held, "depth", 0) > 0:
        _held.depth -= 1
        _lock.release()


@contextmanager
def atomic_dynamodb_writes() -> Iterator[None]:
    """Serialise every DynamoDB read and write made through boto3's default session in
    the block."""
    if boto3.DEFAULT_SESSION is None:
        boto3.setup_default_session()
    session = boto3.DEFAULT_SESSION
    assert session is not None
    events = session.events
    hooks = [
        *((f"before-call.dynamodb.{op}", _take, events.register_last) for op in SERIALISED),
        *((f"after-call.dynamodb.{op}", _give_back, events.register_first) for op in SERIALISED),
        *(
            (f"after-call-error.dynamodb.{op}", _give_back, events.register_first)
            for op in SERIALISED
        ),
    ]
    for event, handler, register in hooks:
        register(event, handler, unique_id=f"storechat-atomic-{event}")
    try:
        yield
    finally:
        for event, _, _ in hooks:
            events.unregister(event, unique_id=f"storechat-atomic-{event}")
