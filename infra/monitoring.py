"""Alarms for the loop, the model and the tools (and the dashboard that shows them,
``infra.dashboard``), all notifying the alarm topic (``infra.alarm_topic``).

Custom metrics come from Powertools (namespace ``Storechat/<env>``, dimension
``service=storechat``), named in ``shared.config.metric_names``. compose_response counts
``Conversations`` and one metric per outcome (``Answered``, ``Truncated``, ``Refused``,
``Fallbacks``); the catalog
indexer counts its rebuilds, their time, the products indexed and the published
snapshot's age (``index_catalog.metrics.IndexMetric``). The model's spend is priced
from the Converse function's token counts (``InputTokens``, ...) at the model's list
prices (``shared.config.pricing``), the same prices the state machine's daily counter adds up.
Failures no function is there to count (the ASL's compose fallback, the spend counter's
direct DynamoDB calls, POST /query refused before an execution) are counted from log lines
by metric filters (``infra.log_metrics``). docs/deploy.md explains what each alarm means
and what to look at first.
"""

from __future__ import annotations

from collections.abc import Mapping

from aws_cdk import Aws, Duration
from aws_cdk import aws_cloudwatch as cw
from aws_cdk import aws_cloudwatch_actions as cw_actions
from aws_cdk import aws_lambda as lambda_
from aws_cdk import aws_logs as logs
from aws_cdk import aws_stepfunctions as sfn
from constructs import Construct

import registry
from index_catalog.metrics import IndexMetric
from infra import names
from infra.alarm_topic import alarm_topic
from infra.config import ASL_TIMEOUT_MS, EnvironmentConfig
from infra.dashboard import Watched, conversations_dashboard
from infra.log_metrics import (
    ACCESS_LOG_METRICS,
    COMPOSE_FAILED,
    EXECUTION_LOG_METRICS,
    QUERY_NOT_STARTED,
    SPEND_COUNTER_ERRORS,
    LogMetric,
)
from infra.search import CatalogSearch
from infra.trace import RESOURCE_PATH
from shared.config.metric_names import TOKEN_METRICS, Metric


class Monitoring(Construct):
    def __init__(
        self,
        scope: Construct,
        id: str,
        *,
        config: EnvironmentConfig,
        state_machine: sfn.StateMachine,
        functions: Mapping[str, lambda_.IFunction],
        search: CatalogSearch,
        api_name: str,
        api_stage: str,
        execution_logs: logs.ILogGroup,
        access_logs: logs.ILogGroup,
        catalog_sync: lambda_.IFunction | None = None,
    ) -> None:
        super().__init__(scope, id)
        settings = config.alarms
        period = Duration.minutes(settings.period_minutes)
        self.topic = alarm_topic(self, config)

        def custom(metric: str, statistic: str = "Sum", **dimensions: str) -> cw.Metric:
            return cw.Metric(
                namespace=config.metric_namespace,
                metric_name=str(metric),
                dimensions_map={"service": names.SERVICE_NAME, **dimensions},
                statistic=statistic,
                period=period,
            )

        tools = [functions[tool.function.key] for tool in registry.TOOLS]
        tool_crashes = {
            f"err{i}": fn.metric_errors(statistic="Sum", period=period)
            for i, fn in enumerate(tools)
        }
        crashes = " + ".join(tool_crashes)
        # A tool that answers counts its call in ToolCalls (and in ToolErrors when the
        # answer is an error toolResult); one that crashes or times out never gets to, but
        # Lambda counts it in Errors. One custom metric for every answered call keeps the
        # alarm within CloudWatch's 10 metrics a math expression may use: up to 8 tools.
        tool_error_rate = cw.MathExpression(
            expression=(
                f"IF((toolCalls + {crashes}) > 0, "
                f"100 * (toolErrors + {crashes}) / (toolCalls + {crashes}), 0)"
            ),
            using_metrics={
                "toolErrors": custom(Metric.TOOL_ERRORS),
                "toolCalls": custom(Metric.TOOL_CALLS),
                **tool_crashes,
            },
            label="Tool error rate (%)",
            period=period,
        )
        fallback_rate = cw.MathExpression(
            expression="IF(conversations > 0, 100 * fallbacks / conversations, 0)",
            using_metrics={
                "fallbacks": custom(Metric.FALLBACKS),
                "conversations": custom(Metric.CONVERSATIONS),
            },
            label="Fallback rate (%)",
            period=period,
        )

        def alarm(
            id: str,
            description: str,
            metric: cw.IMetric,
            threshold: float,
            comparison: cw.ComparisonOperator = (
                cw.ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD
            ),
            missing: cw.TreatMissingData = cw.TreatMissingData.NOT_BREACHING,
            evaluation_periods: int = settings.evaluation_periods,
        ) -> cw.Alarm:
            created = cw.Alarm(
                self,
                id,
                alarm_description=description,
                metric=metric,
                threshold=threshold,
                comparison_operator=comparison,
                treat_missing_data=missing,
                evaluation_periods=evaluation_periods,
            )
            created.add_alarm_action(cw_actions.SnsAction(self.topic))
            return created

        budget = config.model_budget
        day = Duration.days(1)
        prices = config.token_prices.per_million_usd()
        # The token counts times US dollars per million tokens, over the last 24 hours.
        spend = cw.MathExpression(
            expression="("
            + " + ".join(f"FILL({key}, 0) * {price!r}" for key, price in sorted(prices.items()))
            + ") / 1000000",
            using_metrics={key: custom(TOKEN_METRICS[key]).with_(period=day) for key in prices},
            label="Model spend, last 24 h (USD)",
            period=day,
        )

        self.alarms = [
            alarm(
                "ExecutionsFailed",
                "Conversations failed outright: the shopper got a 502 instead of an answer.",
                metric=state_machine.metric_failed(period=period, statistic="Sum"),
                threshold=1,
            ),
            alarm(
                "ExecutionsTimedOut",
                f"Conversations hit the state machine's {ASL_TIMEOUT_MS // 1000} s timeout: the "
                "shopper got a 504.",
                metric=state_machine.metric_timed_out(period=period, statistic="Sum"),
                threshold=1,
            ),
            alarm(
                "ModelThrottled",
                "Bedrock throttled Converse calls even after the loop's retries.",
                metric=custom(Metric.MODEL_THROTTLES),
                threshold=settings.model_throttles,
            ),
            alarm(
                "ToolErrorRate",
                "Too many tool calls fail (error results, crashes or timeouts).",
                metric=tool_error_rate,
                threshold=settings.tool_error_rate_percent,
                comparison=cw.ComparisonOperator.GREATER_THAN_THRESHOLD,
            ),
            alarm(
                "FallbackRate",
                "Too many conversations end in the Fallback answer instead of the model's.",
                metric=fallback_rate,
                threshold=settings.fallback_rate_percent,
                comparison=cw.ComparisonOperator.GREATER_THAN_THRESHOLD,
            ),
            alarm(
                "FactCorrections",
                "The model stated product facts that the catalog contradicts (price, specs, "
                "stock); they were corrected or removed before the shopper saw them, but a "
                "model or prompt change may have made it careless.",
                metric=custom(Metric.FACT_CORRECTIONS),
                threshold=settings.fact_corrections,
            ),
            alarm(
                "ModelBudget",
                f"The model's spend of the last 24 hours reached {budget.alarm_percent:g} % of "
                f"the daily budget (${budget.daily_usd:,.2f}): once the day's spend (UTC) "
                "reaches the budget, shoppers get catalog search results without advice.",
                metric=spend,
                threshold=round(budget.daily_usd * budget.alarm_percent / 100, 6),
                evaluation_periods=1,
            ),
        ]

        steps_failing = cw.Metric(
            namespace="AWS/ApiGateway",
            metric_name="5XXError",
            dimensions_map={
                "ApiName": api_name,
                "Stage": api_stage,
                "Resource": RESOURCE_PATH,
                "Method": "GET",
            },
            statistic="Sum",
            period=period,
        )
        self.alarms += [
            alarm(
                "LiveTraceStepsNotWritten",
                "Steps of the live trace could not be written in time: shoppers see the "
                "plain spinner instead of what the assistant is doing (answers are unchanged).",
                metric=custom(Metric.STEP_WRITE_ERRORS),
                threshold=settings.live_trace_errors,
            ),
            alarm(
                "LiveTraceReadsFailing",
                "GET /query/{turnId}/steps fails (its role or the steps table): pages fall "
                "back to the plain spinner (answers are unchanged).",
                metric=steps_failing,
                threshold=settings.live_trace_errors,
            ),
        ]

        logged: dict[str, cw.Metric] = {}
        for log_group, counted in (
            (execution_logs, EXECUTION_LOG_METRICS),
            (access_logs, ACCESS_LOG_METRICS),
        ):
            for log_metric in counted:
                self._count(log_group, log_metric, config)
                logged[log_metric.name] = cw.Metric(
                    namespace=config.metric_namespace,
                    metric_name=log_metric.name,
                    statistic="Sum",
                    period=period,
                )
        self.alarms += [
            alarm(
                "ComposeFailed",
                "The response builder failed (twice): shoppers got the plain 'could not put "
                "my answer together' fallback, without products.",
                metric=logged[COMPOSE_FAILED.name],
                threshold=1,
            ),
            alarm(
                "SpendCounterFailing",
                "The day's spend counter could not be read or written: the daily model "
                "budget is not limiting (turns go on as under budget, or go uncounted).",
                metric=logged[SPEND_COUNTER_ERRORS.name],
                threshold=1,
            ),
            alarm(
                "ExecutionsNotStarted",
                "POST /query answered 5xx without running a conversation: Step Functions "
                "refused to start the execution (throttled, or the API's role).",
                metric=logged[QUERY_NOT_STARTED.name],
                threshold=1,
            ),
        ]
        if settings.evaluation_periods > 1:
            self.alarms.append(
                alarm(
                    "ExecutionsFailedBurst",
                    f"At least {settings.failed_executions_burst} conversations failed within "
                    "one period: a burst that ExecutionsFailed, which waits for "
                    f"{settings.evaluation_periods} periods, would let pass.",
                    metric=state_machine.metric_failed(period=period, statistic="Sum"),
                    threshold=settings.failed_executions_burst,
                    evaluation_periods=1,
                )
            )

        indexer = search.indexer
        index_errors = indexer.metric_errors(statistic="Sum", period=period)
        index_failures = search.failures.metric_approximate_number_of_messages_visible(
            statistic="Maximum", period=period
        )
        stream_lag = indexer.metric("IteratorAge", statistic="Maximum", period=period)
        self.alarms += [
            alarm(
                "CatalogIndexerErrors",
                "A catalog index rebuild failed: searches go on with the last good snapshot, "
                "which misses the newest catalog changes until a rebuild succeeds.",
                metric=index_errors,
                threshold=1,
            ),
            alarm(
                "CatalogIndexChangesDropped",
                "Catalog changes or a rebuild were given up after their retries (see the "
                "indexer's failure queue): the index lacks them until the next successful "
                'rebuild; invoke the indexer with {"rebuild": true}.',
                metric=index_failures,
                threshold=1,
            ),
        ]
        if catalog_sync is not None:
            self.alarms.append(
                alarm(
                    "CatalogSyncErrors",
                    "The scheduled full pull from the store platform's Admin API failed (a blank "
                    "or refused token, an API that kept failing; see the function's log): "
                    "products whose webhooks were missed stay as they are until a pull succeeds.",
                    metric=catalog_sync.metric_errors(statistic="Sum", period=period),
                    threshold=1,
                    evaluation_periods=1,
                )
            )
        if config.catalog_source == "dynamodb":
            minutes = settings.index_iterator_age_minutes
            self.alarms.append(
                alarm(
                    "CatalogIndexBehind",
                    f"The catalog indexer is more than {minutes} minutes behind the catalog "
                    "table's stream: recent changes are not yet searchable.",
                    metric=stream_lag,
                    threshold=minutes * 60_000,
                    comparison=cw.ComparisonOperator.GREATER_THAN_THRESHOLD,
                )
            )
        else:
            # The schedule is the only trigger: no successful run in three of its periods
            # means the snapshot is that old, whatever the cause (errors, throttling, a
            # disabled rule). Missing data is exactly what this alarm looks for.
            every = config.catalog_index.rebuild_every_minutes
            self.alarms.append(
                alarm(
                    "CatalogIndexStale",
                    f"No successful rebuild of the Products API index in {3 * every} minutes: "
                    "searches use an old snapshot.",
                    metric=custom(IndexMetric.BUILDS).with_(period=Duration.minutes(3 * every)),
                    threshold=1,
                    comparison=cw.ComparisonOperator.LESS_THAN_THRESHOLD,
                    missing=cw.TreatMissingData.BREACHING,
                    evaluation_periods=1,
                )
            )

        self.dashboard = conversations_dashboard(
            self,
            config,
            Watched(
                alarms=self.alarms,
                custom=custom,
                rates=(fallback_rate, tool_error_rate),
                state_machine=state_machine,
                spend=spend,
                index=(index_errors, index_failures, stream_lag),
                api=(api_name, api_stage),
                logged=list(logged.values()),
            ),
        )
        self.dashboard_url = (
            f"https://{Aws.REGION}.console.aws.amazon.com/cloudwatch/home?region={Aws.REGION}"
            f"#dashboards:name={config.stack_name}-conversations"
        )

    def _count(
        self, log_group: logs.ILogGroup, counted: LogMetric, config: EnvironmentConfig
    ) -> None:
        """A metric filter: ``counted``'s lines in ``log_group``, as a custom metric."""
        logs.MetricFilter(
            self,
            f"{counted.name}Filter",
            log_group=log_group,
            filter_pattern=logs.FilterPattern.literal(counted.pattern()),
            metric_namespace=config.metric_namespace,
            metric_name=counted.name,
            metric_value="1",
            # No dimensions: a metric filter's dimension values must come from the line.
        )
