"""What asks the loop a question: :class:`~storechat.local.LocalStorechat`, or a stand-in a
test gives the dev server or the eval. One protocol, so the two cannot drift."""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    from storechat.local import RunResult


class Asker(Protocol):
    def ask(
        self,
        message: str,
        session_id: str | None = None,
        *,
        timeout_s: float = 60,
        with_history: bool = True,
        turn_id: str | None = None,
    ) -> RunResult: ...
