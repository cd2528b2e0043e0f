"""Run the real state machine on a laptop: moto's interpreter, handlers in-process."""

from storechat.local.runner import LocalStorechat, RunResult

__all__ = ["LocalStorechat", "RunResult"]
