"""Progress of a long import on stderr: one updating line on a terminal, else a line a step."""

from __future__ import annotations

import time
from typing import TextIO

SHOW_FROM_ROWS = 1_000
"""Files shorter than this finish before progress would help."""


class Progress:
    """Counts rows done (out of ``total`` when it is known) and tells ``stream`` now and then.

    On a terminal the line is rewritten in place at most ten times a second; written to
    a file or a pipe (a CI log), it is a new line every ``every`` rows, so logs stay short.
    Nothing is shown for fewer than ``show_from`` rows.
    """

    def __init__(
        self,
        label: str,
        total: int | None,
        stream: TextIO,
        *,
        every: int = 1_000,
        show_from: int = SHOW_FROM_ROWS,
    ) -> None:
        self.label = label
        self.total = total
        self.done = 0
        self._stream = stream
        self._every = max(every, 1)
        self._show_from = show_from
        self._tty = _is_tty(stream)
        self._last_draw = 0.0
        self._next_line = self._every

    def advance(self, rows: int = 1) -> None:
        self.done += rows
        if not self._shown():
            return
        if self._tty:
            now = time.monotonic()
            if now - self._last_draw >= 0.1:
                self._last_draw = now
                self._stream.write("\r" + self._text())
                self._stream.flush()
        elif self.done >= self._next_line and self.done != self.total:
            # The last figure is finish()'s to print.
            self._next_line = (self.done // self._every + 1) * self._every
            print(self._text(), file=self._stream, flush=True)

    def finish(self) -> None:
        """Print the last figure; on a terminal this ends the updating line."""
        if self._shown():
            print(("\r" if self._tty else "") + self._text(), file=self._stream, flush=True)

    def _shown(self) -> bool:
        return (self.total if self.total is not None else self.done) >= self._show_from

    def _text(self) -> str:
        if self.total is None:
            return f"{self.label}: {self.done:,} rows"
        percent = 100 * self.done // self.total if self.total else 100
        return f"{self.label}: {self.done:,}/{self.total:,} rows ({percent}%)"


def _is_tty(stream: TextIO) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False
