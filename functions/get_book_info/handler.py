"""Lambda entry point for ``get_book_info``: wiring only, the work is in ``logic``."""

from __future__ import annotations

import functools
from typing import Any

from aws_lambda_powertools.utilities.typing import LambdaContext

from get_book_info.logic import run
from get_book_info.openlibrary import search_books
from get_book_info.schema import BookInput
from get_book_info.settings import get_settings
from shared.contract import ToolUse
from shared.http import timeout_from
from shared.observability import CORRELATION_ID_PATH, logger, metrics, record_tool_result, tracer
from shared.tool_steps import reports_step


@logger.inject_lambda_context(correlation_id_path=CORRELATION_ID_PATH)
@tracer.capture_lambda_handler
@metrics.log_metrics
@reports_step(BookInput)
def lambda_handler(event: dict[str, Any], context: LambdaContext) -> dict[str, Any]:
    settings = get_settings()
    tool_use = ToolUse.model_validate(event["toolUse"])
    output = run(
        tool_use,
        search=functools.partial(search_books, base_url=settings.openlibrary_base_url),
        timeout_s=timeout_from(context, cap_s=settings.http_timeout_s),
    )
    record_tool_result(
        output.trace.tool, output.trace.status, output.trace.ms, output.trace.summary
    )
    return output.dump()
