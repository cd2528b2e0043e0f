"""The local state machine in generations, so that moto forgets finished executions.

moto keeps every execution of a state machine for as long as the state machine exists,
each with every event of it (the whole conversation, several times over): a long
``storechat serve`` or ``chat`` session grew by about a megabyte a question. Step
Functions has no call that forgets one execution, but deleting a state machine takes
its executions with it. So executions start on the current generation of the one
definition; every :data:`GENERATION_SIZE` starts a new generation is made, and a replaced
one is deleted once none of its executions is running or still being read, and moto is
told to forget what it kept of them (``moto_patches.forget_finished``: its registry of
every model instance, the threads that ended). Nothing of moto is patched for this.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from storechat.local import aws, moto_patches

GENERATION_SIZE = 10
"""Executions per generation. Making one costs about 0.2 s (moto parses the definition);
what a generation holds until it is deleted is about a megabyte an execution."""


class Generations:
    """Hands out the state machine an execution starts on, and deletes replaced ones."""

    def __init__(self, sfn: Any, definition: str) -> None:
        self._sfn = sfn
        self._definition = definition
        self._size = GENERATION_SIZE
        self._lock = threading.Lock()
        self._made = 0
        self._current = ""
        self._started = 0
        self._reading: dict[str, int] = {}
        """Executions started and not yet read to their end, by state machine."""
        self._new_generation()

    @property
    def current(self) -> str:
        """The ARN the next execution starts on."""
        with self._lock:
            return self._current

    def _new_generation(self) -> None:
        name = f"{aws.STATE_MACHINE}-{self._made}" if self._made else aws.STATE_MACHINE
        self._current = aws.create_state_machine(self._sfn, self._definition, name=name)
        self._made += 1
        self._started = 0
        self._reading[self._current] = 0

    @contextmanager
    def execution(self) -> Iterator[str]:
        """The state machine to start one execution on, for as long as it is read."""
        with self._lock:
            if self._started >= self._size:
                self._new_generation()
            arn = self._current
            self._started += 1
            self._reading[arn] += 1
        try:
            yield arn
        finally:
            with self._lock:
                self._reading[arn] -= 1
                self._delete_replaced()

    def _delete_replaced(self) -> None:
        for arn, reading in list(self._reading.items()):
            if arn == self._current or reading:
                continue
            # An execution nobody waits for any more (it outlived its caller's timeout)
            # keeps its generation until it ends.
            running = self._sfn.list_executions(
                stateMachineArn=arn, statusFilter="RUNNING", maxResults=1
            )["executions"]
            if not running:
                self._sfn.delete_state_machine(stateMachineArn=arn)
                del self._reading[arn]
                moto_patches.forget_finished()
