"""Work a warm Lambda does after its response has gone back: the snapshot swap.

Lambda freezes a container as soon as its handler returns, background threads
and all, unless an extension is still working. An *internal* extension is a
thread of the function's own process, registered with the Extensions API while
the function initialises (``POST /2020-01-01/extension/register``, ``INVOKE``
events). Lambda hands the caller the function's response as soon as the handler
returns, without waiting for extensions, and keeps the container running until
every extension has asked for its next event: work done in between delays no
caller. It still counts towards the function's timeout, so it gets the time
left before the invocation's deadline, which ``INVOKE`` events carry.

:class:`AfterResponse` is that extension. The handler hands it work with
:meth:`~AfterResponse.submit` and says :meth:`~AfterResponse.invocation_done`
as it returns; the extension's thread, which received the same invocation,
then runs the work and only after it asks for the next event.

Where there is no Extensions API (the local runner, tests) or registering
fails, there is no :class:`AfterResponse` and the work runs on a thread of its
own (:func:`shared.search.in_background`).
"""

from __future__ import annotations

import json
import threading
import time
import urllib.request
from collections.abc import Callable
from typing import Any

from shared.runtime.observability import logger

NAME = "storechat-snapshot-refresh"
"""An internal extension's name is free (an external one's is its file name)."""
API_VERSION = "2020-01-01"
DEADLINE_MARGIN_S = 0.3
"""Kept back from the invocation's deadline: the work must end before Lambda's timeout."""

Work = Callable[[float | None], Any]
"""Work to run after a response, given a ``time.monotonic()`` deadline."""


class AfterResponse:
    """An internal Lambda extension that runs submitted work after each response."""

    def __init__(
        self,
        runtime_api: str,
        *,
        opener: Callable[..., Any] = urllib.request.urlopen,
    ) -> None:
        self._base = f"http://{runtime_api}/{API_VERSION}/extension"
        self._open = opener
        self._done = threading.Event()
        self._lock = threading.Lock()
        self._work: Work | None = None
        self._identifier = ""
        self.ran = 0
        """Pieces of work run (what tests and the bench count)."""

    @classmethod
    def start(cls, runtime_api: str | None) -> AfterResponse | None:
        """Register and start the extension; None outside Lambda, or (logged) if Lambda
        refused it."""
        if not runtime_api:
            return None
        extension = cls(runtime_api)
        try:
            extension.register()
        except (OSError, ValueError) as exc:
            logger.warning(
                "after-response extension not registered; refreshes run on a thread",
                extra={"error": str(exc)[:300]},
            )
            return None
        threading.Thread(target=extension.run, name=NAME, daemon=True).start()
        return extension

    def register(self) -> None:
        """Register for ``INVOKE`` events (only during the function's init)."""
        request = urllib.request.Request(
            f"{self._base}/register",
            data=json.dumps({"events": ["INVOKE"]}).encode(),
            headers={"Lambda-Extension-Name": NAME, "Content-Type": "application/json"},
            method="POST",
        )
        with self._open(request, timeout=2) as answer:
            identifier = answer.headers.get("Lambda-Extension-Identifier")
        if not identifier:
            raise ValueError("the Extensions API gave no Lambda-Extension-Identifier")
        self._identifier = identifier

    def submit(self, work: Work) -> None:
        """Run ``work`` after this invocation's response (one piece: a later one replaces
        an earlier one not yet run)."""
        with self._lock:
            self._work = work

    def invocation_done(self) -> None:
        """The handler is returning: submitted work may start."""
        self._done.set()

    def next_event(self) -> dict[str, Any]:
        """Block until Lambda sends the next event (it may freeze the process meanwhile,
        so no timeout)."""
        request = urllib.request.Request(
            f"{self._base}/event/next",
            headers={"Lambda-Extension-Identifier": self._identifier},
        )
        with self._open(request) as answer:
            event: dict[str, Any] = json.loads(answer.read() or b"{}")
        return event

    def run(self) -> None:
        """The extension's loop: for each invocation, wait for the handler, run the work
        submitted meanwhile, then ask for the next event."""
        while True:
            try:
                event = self.next_event()
            except (OSError, ValueError) as exc:
                logger.warning("after-response extension stopped", extra={"error": str(exc)})
                return
            if event.get("eventType") != "INVOKE":
                continue
            deadline = _monotonic_deadline(event.get("deadlineMs"))
            wait_s = None if deadline is None else max(0.0, deadline - time.monotonic())
            self._done.wait(wait_s)
            self._done.clear()
            self.run_submitted(deadline)

    def run_submitted(self, deadline: float | None) -> None:
        """Run the submitted work, if any, now."""
        with self._lock:
            work, self._work = self._work, None
        if work is None:
            return
        try:
            work(deadline)
        except Exception:  # never let the loop die: the container would wait forever
            logger.exception("work after the response failed")
        self.ran += 1


def _monotonic_deadline(deadline_ms: Any) -> float | None:
    """An ``INVOKE`` event's ``deadlineMs`` (epoch milliseconds) as ``time.monotonic()``
    time, less :data:`DEADLINE_MARGIN_S`."""
    if not isinstance(deadline_ms, int | float):
        return None
    left_s = deadline_ms / 1000 - time.time() - DEADLINE_MARGIN_S
    return time.monotonic() + left_s
