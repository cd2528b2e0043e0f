"""Following a running turn's live trace from the terminal, as the page follows it.

:class:`StepFollower` reads ``GET /query/{turnId}/steps``'s body (the same read the
dev server answers with) while the execution runs, and tells its listener about
each step that is new or has changed since the last read, in the turn's order.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable

from pydantic import ValidationError

from shared.trace.steps import Step

StepListener = Callable[[Step], object]

READ_EVERY_S = 0.1
"""A laptop reads its own moto: faster than the page's poll costs nothing."""


class StepFollower:
    def __init__(self, read: Callable[[], str | None], listener: StepListener) -> None:
        self._read = read
        self._listener = listener
        self._seen: dict[str, Step] = {}
        self._last = 0.0

    def poll(self, *, force: bool = False) -> None:
        """Read the steps (at most every ``READ_EVERY_S`` unless forced) and report changes."""
        now = time.monotonic()
        if not force and now - self._last < READ_EVERY_S:
            return
        self._last = now
        body = self._read()
        if body is None:
            return
        for raw in json.loads(body).get("steps", []):
            try:
                step = Step.model_validate(raw)
            except ValidationError:
                continue  # not a step this version can show
            before = self._seen.get(step.step)
            if before is None or (before.status, before.outcome) != (step.status, step.outcome):
                self._seen[step.step] = step
                self._listener(step)
