"""Every function is traced; only those whose subsegments pay load the X-Ray SDK."""

from __future__ import annotations

import registry
from tests.infrastructure.conftest import Synthesized


def test_tracing_is_active_everywhere_and_the_sdk_is_chosen_per_function(
    dev: Synthesized,
) -> None:
    functions = (*registry.FUNCTIONS, *registry.BACKGROUND)
    for function in functions:
        props = dev.props(dev.functions_by_handler()[function.handler])
        assert props["TracingConfig"] == {"Mode": "Active"}, function.key
        disabled = props["Environment"]["Variables"]["POWERTOOLS_TRACE_DISABLED"]
        assert disabled == ("false" if function.subsegments else "true"), function.key
