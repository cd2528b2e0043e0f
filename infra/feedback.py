"""``POST /query/{turnId}/feedback``: shoppers' ratings of answers and clicks on products.

A small function (``functions/record_feedback``) behind an API Gateway proxy
integration: it validates the body with the rules ``storechat serve`` answers with (the
same code), finds the turn by the session and the page's turn id, and updates that one
item of the sessions table. Its role may only ``Query`` and ``UpdateItem`` that table:
no put, no delete, no other table. The route has its own throttle (:func:`method_options`),
so that a flood of clicks cannot take the questions' share.
"""

from __future__ import annotations

import json
from collections.abc import Sequence

from aws_cdk import Duration
from aws_cdk import aws_apigateway as apigw
from aws_cdk import aws_dynamodb as dynamodb
from aws_cdk import aws_iam as iam
from constructs import Construct

import registry
from infra.config import EnvironmentConfig
from infra.runtime import LambdaFactory
from infra.trace import PATH_PARAMETER

RESOURCE_PATH = f"/query/{{{PATH_PARAMETER}}}/feedback"
FEEDBACK_PER_ANSWER_AT_MOST = 4
"""What a page sends per answer at most, in a burst: a rating, a change of mind, a click
on a card and on its "Add to cart"; the route admits that many per question admitted."""


def method_options(config: EnvironmentConfig) -> dict[str, apigw.MethodDeploymentOptions]:
    """The route's own throttle: the stage's rate of questions, times what a page may send
    about each answer."""
    return {
        f"{RESOURCE_PATH}/POST": apigw.MethodDeploymentOptions(
            throttling_rate_limit=config.throttling.rate_limit * FEEDBACK_PER_ANSWER_AT_MOST,
            throttling_burst_limit=config.throttling.burst_limit * FEEDBACK_PER_ANSWER_AT_MOST,
            metrics_enabled=True,
            logging_level=apigw.MethodLoggingLevel.ERROR,
            # Bodies hold shoppers' comments: not in execution logs.
            data_trace_enabled=False,
        )
    }


class FeedbackRoute(Construct):
    def __init__(
        self,
        scope: Construct,
        id: str,
        *,
        lambdas: LambdaFactory,
        sessions: dynamodb.ITable,
        query: apigw.IResource,
        origins: Sequence[str],
    ) -> None:
        super().__init__(scope, id)
        self.function = lambdas.declared(
            self,
            registry.RECORD_FEEDBACK,
            environment={
                "SESSIONS_TABLE_NAME": sessions.table_name,
                "ALLOWED_ORIGINS": json.dumps(list(origins)),
            },
        )
        self.function.add_to_role_policy(
            iam.PolicyStatement(
                actions=["dynamodb:Query", "dynamodb:UpdateItem"], resources=[sessions.table_arn]
            )
        )
        turn = query.get_resource(f"{{{PATH_PARAMETER}}}") or query.add_resource(
            f"{{{PATH_PARAMETER}}}"
        )
        self.resource = turn.add_resource("feedback")
        self.method = self.resource.add_method(
            "POST",
            apigw.LambdaIntegration(self.function, proxy=True, timeout=Duration.seconds(6)),
            request_parameters={f"method.request.path.{PATH_PARAMETER}": True},
        )
        self.resource.add_cors_preflight(
            allow_origins=list(origins),
            allow_methods=["POST", "OPTIONS"],
            allow_headers=["Content-Type"],
            max_age=Duration.hours(1),
        )
