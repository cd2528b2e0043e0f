"""How many questions the dev server runs at once: a fair gate, first come first served."""

from __future__ import annotations

import threading
from collections import deque


class FairGate:
    """At most ``slots`` holders at once, admitted in arrival order (a Semaphore is not fair)."""

    def __init__(self, slots: int) -> None:
        self._slots = slots
        self._running = 0
        self._waiting: deque[object] = deque()
        self._condition = threading.Condition()

    def __enter__(self) -> None:
        ticket = object()
        with self._condition:
            self._waiting.append(ticket)
            self._condition.wait_for(
                lambda: self._running < self._slots and self._waiting[0] is ticket
            )
            self._waiting.popleft()
            self._running += 1
            self._condition.notify_all()

    def __exit__(self, *exc: object) -> None:
        with self._condition:
            self._running -= 1
            self._condition.notify_all()
