"""The conversations dashboard: the alarms, then what an operator reads them with.

Built from the metrics :class:`infra.monitoring.Monitoring` defines for its alarms,
so a graph and its alarm always read the same figure.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from aws_cdk import Duration
from aws_cdk import aws_cloudwatch as cw
from aws_cdk import aws_stepfunctions as sfn
from constructs import Construct

from index_catalog.metrics import IndexMetric
from infra.config import EnvironmentConfig
from shared.config.metric_names import OUTCOME_METRICS, TOKEN_METRICS, Metric


@dataclass(frozen=True)
class Watched:
    """What the dashboard shows, as the alarms define it."""

    alarms: Sequence[cw.Alarm]
    custom: Callable[..., cw.Metric]
    """A metric of the environment's namespace: ``custom(name, statistic="Sum")``."""
    rates: tuple[cw.IMetric, cw.IMetric]
    """The fallback rate and the tool error rate."""
    state_machine: sfn.StateMachine
    spend: cw.IMetric
    index: tuple[cw.IMetric, cw.IMetric, cw.IMetric]
    """The indexer's errors, its failure queue's depth, the stream's lag."""
    api: tuple[str, str]
    """The API's name and stage."""
    logged: Sequence[cw.IMetric]
    """The counts of failures read from log lines (``infra.log_metrics``)."""


def conversations_dashboard(
    scope: Construct, config: EnvironmentConfig, watched: Watched
) -> cw.Dashboard:
    period = Duration.minutes(config.alarms.period_minutes)
    custom = watched.custom
    api_name, api_stage = watched.api
    index_errors, index_failures, stream_lag = watched.index
    budget = config.model_budget

    dashboard = cw.Dashboard(
        scope, "Dashboard", dashboard_name=f"{config.stack_name}-conversations"
    )

    def api(metric: str, statistic: str) -> cw.Metric:
        return cw.Metric(
            namespace="AWS/ApiGateway",
            metric_name=metric,
            dimensions_map={"ApiName": api_name, "Stage": api_stage},
            statistic=statistic,
            period=period,
        )

    dashboard.add_widgets(
        cw.AlarmStatusWidget(title="Alarms", alarms=watched.alarms, width=24, height=3),
    )
    dashboard.add_widgets(
        cw.GraphWidget(
            title="Conversations by outcome",
            left=[custom(name) for name in OUTCOME_METRICS.values()],
            stacked=True,
            width=8,
        ),
        cw.GraphWidget(
            title="Fallback and tool error rates (%)",
            left=list(watched.rates),
            width=8,
        ),
        cw.GraphWidget(
            title="Executions",
            left=[
                watched.state_machine.metric_started(period=period),
                watched.state_machine.metric_succeeded(period=period),
                watched.state_machine.metric_failed(period=period),
                watched.state_machine.metric_timed_out(period=period),
            ],
            width=8,
        ),
    )
    dashboard.add_widgets(
        cw.GraphWidget(
            title="Tokens",
            left=[
                custom(TOKEN_METRICS["inputTokens"]),
                custom(TOKEN_METRICS["outputTokens"]),
                custom(TOKEN_METRICS["cacheReadInputTokens"]),
            ],
            width=8,
        ),
        cw.GraphWidget(
            title="Model latency and throttles",
            left=[custom(Metric.MODEL_LATENCY, "p50"), custom(Metric.MODEL_LATENCY, "p90")],
            right=[custom(Metric.MODEL_THROTTLES)],
            width=8,
        ),
        cw.GraphWidget(
            title="Tool latency (p90) and rounds per conversation",
            left=[custom(Metric.TOOL_LATENCY, "p90")],
            right=[custom(Metric.TOOL_ROUNDS, "Average")],
            width=8,
        ),
    )
    dashboard.add_widgets(
        cw.GraphWidget(
            title="API responses",
            left=[api("Count", "Sum"), api("4XXError", "Sum"), api("5XXError", "Sum")],
            width=8,
        ),
        cw.GraphWidget(
            title="API latency",
            left=[api("Latency", "p50"), api("Latency", "p90")],
            width=8,
        ),
        cw.GraphWidget(
            title="Unverified citations dropped, ledger records refused",
            left=[custom(Metric.UNVERIFIED_CITATIONS), custom(Metric.LEDGER_RECORDS_REFUSED)],
            width=4,
        ),
        cw.SingleValueWidget(
            title=f"Model spend, last 24 h (budget ${budget.daily_usd:,.2f} a day)",
            metrics=[watched.spend],
            width=4,
        ),
    )
    dashboard.add_widgets(
        cw.GraphWidget(
            title="Catalog index: rebuilds, failures",
            left=[custom(IndexMetric.BUILDS), index_errors],
            right=[index_failures],
            width=8,
        ),
        cw.GraphWidget(
            title="Catalog index: rebuild time (ms), products",
            left=[custom(IndexMetric.BUILD_MS, "Maximum")],
            right=[custom(IndexMetric.PRODUCTS, "Maximum")],
            width=8,
        ),
        cw.GraphWidget(
            title="Catalog index: snapshot age (s), stream lag (ms)",
            left=[custom(IndexMetric.SNAPSHOT_AGE, "Maximum")],
            right=[stream_lag] if config.catalog_source == "dynamodb" else [],
            width=8,
        ),
    )
    dashboard.add_widgets(
        cw.GraphWidget(
            title="Failures no function counts: compose fallback, spend counter, not started",
            left=list(watched.logged),
            width=12,
        ),
        cw.GraphWidget(
            title="Tool calls answered 'not configured' (e.g. no Brave key yet)",
            left=[custom(Metric.TOOL_NOT_CONFIGURED)],
            width=12,
        ),
    )
    return dashboard
