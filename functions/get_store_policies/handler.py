"""Lambda entry point for ``get_store_policies``: wiring only, the work is in ``logic``."""

from __future__ import annotations

from typing import Any

from shared.runtime.init_phase import collector_paused

with collector_paused():
    from get_store_policies.logic import run
    from get_store_policies.schema import PoliciesInput
    from get_store_policies.settings import get_settings
    from shared.api.contract import ToolOutput, ToolUse
    from shared.store.settings import read_store_file
    from shared.tools.tool_shell import tool_handler


@tool_handler(PoliciesInput)
def lambda_handler(tool_use: ToolUse, context: Any) -> ToolOutput:
    path = get_settings().store_file
    return run(tool_use, store=read_store_file(path) if path else None)
