"""Lambda entry point for ``get_book_info``: wiring only, the work is in ``logic``."""

from __future__ import annotations

import functools
from typing import Any

from shared.runtime.init_phase import collector_paused

with collector_paused():
    from get_book_info.logic import run
    from get_book_info.openlibrary import search_books
    from get_book_info.schema import BookInput
    from get_book_info.settings import get_settings
    from shared.api.contract import ToolOutput, ToolUse
    from shared.runtime.http import timeout_from
    from shared.tools import guardrail
    from shared.tools.tool_shell import tool_handler


@tool_handler(BookInput)
def lambda_handler(tool_use: ToolUse, context: Any) -> ToolOutput:
    settings = get_settings()
    screen = guardrail.screening(settings, context)
    return run(
        tool_use,
        search=functools.partial(search_books, base_url=settings.openlibrary_base_url),
        timeout_s=timeout_from(
            context, cap_s=settings.http_timeout_s, margin_s=guardrail.search_margin_s(screen)
        ),
        screen=screen,
    )
