"""The offline model: a deterministic, clearly labelled stand-in for Bedrock.

It runs only on a laptop, through the local runner; no deployed function imports it.
"""

from __future__ import annotations

from typing import Any

from storechat.offline.model import OFFLINE_MODEL_ID, OfflineModel

__all__ = ["OFFLINE_MODEL_ID", "OfflineModel", "OfflineProvider"]


class OfflineProvider:
    """The Converse Lambda's provider interface over :class:`OfflineModel`."""

    label = "offline"

    def __init__(self) -> None:
        self._model = OfflineModel()

    def converse(
        self, request: dict[str, Any], *, timeout_s: float | None = None
    ) -> dict[str, Any]:
        return self._model.converse(request)
