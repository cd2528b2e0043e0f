"""Lambda entry point for ``get_computer_reviews``: wiring only, the work is in ``logic``."""

from __future__ import annotations

import functools
from typing import Any

from shared.runtime.init_phase import collector_paused

with collector_paused():
    from get_computer_reviews.brave import search_reviews
    from get_computer_reviews.keys import get_brave_key
    from get_computer_reviews.logic import run
    from get_computer_reviews.schema import ReviewsInput
    from get_computer_reviews.settings import get_settings
    from shared.api.contract import ToolOutput, ToolUse
    from shared.runtime.http import timeout_from
    from shared.tools import guardrail
    from shared.tools.tool_shell import tool_handler


@tool_handler(ReviewsInput)
def lambda_handler(tool_use: ToolUse, context: Any) -> ToolOutput:
    settings = get_settings()
    screen = guardrail.screening(settings, context)
    return run(
        tool_use,
        key_source=functools.partial(get_brave_key, settings),
        search=functools.partial(search_reviews, base_url=settings.brave_base_url),
        timeout_s=timeout_from(
            context, cap_s=settings.http_timeout_s, margin_s=guardrail.search_margin_s(screen)
        ),
        screen=screen,
    )
