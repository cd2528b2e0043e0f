"""The dashboard graphs the ledger records the response builder refused as not products."""

from __future__ import annotations

import json

from infra import names
from shared.config.metric_names import Metric
from tests.infrastructure.conftest import Synthesized, render


def test_the_dashboard_graphs_the_refused_records_beside_the_unverified_citations(
    each_env: Synthesized,
) -> None:
    # Given the synthesized stack of each environment
    _, dashboard = each_env.one("AWS::CloudWatch::Dashboard")
    body = json.loads(render(dashboard["Properties"]["DashboardBody"]))

    # When an operator looks for the figure on its dashboard
    graphs = {
        widget["properties"].get("title"): widget["properties"].get("metrics", [])
        for widget in body["widgets"]
    }
    (title,) = [
        t for t, lines in graphs.items() if any(Metric.LEDGER_RECORDS_REFUSED in m for m in lines)
    ]

    # Then one graph sums compose_response's count, in the environment's namespace, beside
    # the citations it dropped
    lines = [m[:4] for m in graphs[title]]
    namespace = each_env.config.metric_namespace
    assert [namespace, Metric.LEDGER_RECORDS_REFUSED, "service", names.SERVICE_NAME] in lines
    assert [namespace, "UnverifiedCitations", "service", names.SERVICE_NAME] in lines
    assert all(m[-1].get("stat") == "Sum" for m in graphs[title])
