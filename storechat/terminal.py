"""A terminal that prints only what it should: no escape sequences from a model or a tool.

Everything ``storechat ask`` and ``storechat chat`` print (the answer, the cards, the live
trace, the tool trace) can hold words a model or a web page wrote. Written through
:class:`TerminalText`, an escape sequence among them is removed before it reaches the
terminal (:func:`shared.text.shown.for_terminal`), wherever the printing code took its text.
"""

from __future__ import annotations

from typing import TextIO

from shared.text.shown import for_terminal


class TerminalText:
    """A text stream that removes escape sequences and invisible characters from what is
    written to it. Whole writes are cleaned, so a sequence split between two ``print``
    arguments is still caught by its ESC or C1 character."""

    def __init__(self, stream: TextIO) -> None:
        self._stream = stream

    def write(self, text: str) -> int:
        self._stream.write(for_terminal(text))
        return len(text)

    def flush(self) -> None:
        self._stream.flush()

    def isatty(self) -> bool:
        return self._stream.isatty()
