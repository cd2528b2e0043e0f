"""The live trace's channel: the steps table and ``GET /query/{turnId}/steps``.

While ``POST /query`` runs, the state machine and the functions write each step of the
turn to the steps table (``shared.trace.steps``); the page reads them back through API
Gateway straight from DynamoDB, no Lambda: a ``Query`` on the turn id, filtered on the
TTL, mapped to ``{"steps": [...]}``, the same request and the same body the dev server
makes (``shared.trace.steps.steps_query`` and ``steps_body``, which the mapping templates are
rendered from and tested against).

The writers may only ``PutItem`` into the table, the API's role may only ``Query`` it;
nothing else reads it. Steps expire after ``tuning.StepTtlSeconds``. The table is its
own: its items live minutes, not the sessions' days, need no backup, and a read role on
it can reach no conversation history.
"""

from __future__ import annotations

import json
import math
from collections.abc import Sequence

from aws_cdk import Duration, RemovalPolicy
from aws_cdk import aws_apigateway as apigw
from aws_cdk import aws_dynamodb as dynamodb
from aws_cdk import aws_iam as iam
from constructs import Construct

from infra.api_templates import service_integration
from infra.config import ASL_TIMEOUT_MS, EnvironmentConfig
from infra.nag import acknowledge
from shared.api.vocabulary import INVALID_REQUEST, UNAVAILABLE
from shared.trace import steps
from shared.trace.step_writer import TABLE_VARIABLE

PATH_PARAMETER = "turnId"
RESOURCE_PATH = f"/query/{{{PATH_PARAMETER}}}/steps"
_VTL_TURN_ID = "'^[0-9a-f]{32}$'"

POLLS_PER_QUESTION_AT_MOST = math.ceil(ASL_TIMEOUT_MS / steps.POLL_INTERVAL_MS)
"""A page polls at most this often while one question runs (until the execution's timeout)."""


def _vtl_pattern() -> str:
    if _VTL_TURN_ID.strip("'") != steps.TURN_ID_PATTERN:
        raise ValueError("the mapping templates' turn id pattern differs from shared.trace.steps'")
    return _VTL_TURN_ID


def request_template(table_name: str) -> str:
    """``shared.trace.steps.steps_query`` for the path's turn id, now; a malformed id reads the
    key no item has, so it finds nothing whatever it holds."""
    query = json.dumps(steps.steps_query(table_name, "$turn", 0), indent=2)
    query = query.replace('"N": "0"', '"N": "$now"')
    return "\n".join(
        [
            f"#set($turn = $input.params('{PATH_PARAMETER}'))",
            f"#if(!$turn.matches({_vtl_pattern()}))",
            f"#set($turn = '{steps.NO_TURN}')",
            "#end",
            "#set($now = $context.requestTimeEpoch / 1000)",
            query,
        ]
    )


def response_template(cors: Sequence[str]) -> str:
    """``shared.trace.steps.steps_body`` of the items found; 400 for a malformed id."""
    malformed = json.dumps(INVALID_REQUEST.body(steps.MALFORMED_TURN_ID))
    if "$" in malformed or "#" in malformed:
        raise ValueError("the 400 body would be read as VTL")
    return "\n".join(
        [
            *cors,
            f"#if(!$input.params('{PATH_PARAMETER}').matches({_vtl_pattern()}))",
            "#set($context.responseOverride.status = 400)",
            malformed,
            "#else",
            '{"steps": [',
            "#foreach($item in $input.path('$.Items'))",
            f"$item.{steps.SHOWN_ATTRIBUTE}.S",
            "#if($foreach.hasNext)",
            ",",
            "#end",
            "#end",
            "]}",
            "#end",
        ]
    )


def method_options(config: EnvironmentConfig) -> dict[str, apigw.MethodDeploymentOptions]:
    """The steps route's own throttle. Stage throttling applies per method, and a page
    polls many times per question: with the questions the stage admits each second
    running to the execution's timeout, polls reach the stage's rate times
    ``POLLS_PER_QUESTION_AT_MOST``, so the route allows that and no more."""
    return {
        f"{RESOURCE_PATH}/GET": apigw.MethodDeploymentOptions(
            throttling_rate_limit=config.throttling.rate_limit * POLLS_PER_QUESTION_AT_MOST,
            throttling_burst_limit=config.throttling.burst_limit * POLLS_PER_QUESTION_AT_MOST,
            # As the stage's other methods: per-method metrics (the alarm reads them).
            metrics_enabled=True,
            logging_level=apigw.MethodLoggingLevel.ERROR,
            data_trace_enabled=False,
        )
    }


class LiveTrace(Construct):
    def __init__(self, scope: Construct, id: str, *, config: EnvironmentConfig) -> None:
        super().__init__(scope, id)
        self.config = config
        self.table = dynamodb.Table(
            self,
            "Steps",
            partition_key=dynamodb.Attribute(
                name=steps.PARTITION_KEY, type=dynamodb.AttributeType.STRING
            ),
            sort_key=dynamodb.Attribute(name=steps.SORT_KEY, type=dynamodb.AttributeType.STRING),
            time_to_live_attribute=steps.TTL_ATTRIBUTE,
            billing_mode=dynamodb.BillingMode.PAY_PER_REQUEST,
            # Minutes of progress lines: nothing to keep when the stack goes.
            removal_policy=RemovalPolicy.DESTROY,
        )
        acknowledge(
            self.table,
            {
                "AwsSolutions-DDB3": (
                    "The steps table holds progress lines that expire within minutes; a "
                    "point-in-time restore of them would have nothing worth restoring."
                )
            },
        )
        self.environment = {TABLE_VARIABLE: self.table.table_name}
        """What each writing function reads (shared.trace.step_writer)."""

    def grant_write(self, grantee: iam.IGrantable) -> None:
        """Write steps, and nothing else: no read, no delete."""
        grantee.grant_principal.add_to_principal_policy(
            iam.PolicyStatement(actions=["dynamodb:PutItem"], resources=[self.table.table_arn])
        )

    def serve(self, query: apigw.IResource, origins: Sequence[str], cors: Sequence[str]) -> None:
        """``GET /query/{turnId}/steps`` under the API's ``/query`` resource.

        ``cors`` is the VTL that echoes the request's Origin when it is one of
        ``origins`` (``infra.api_templates.cors_override``); the static header is the first
        origin. A GET without custom headers is a simple request: no preflight.
        """
        role = iam.Role(
            self,
            "ReadStepsRole",
            assumed_by=iam.ServicePrincipal("apigateway.amazonaws.com"),
            description="Lets GET /query/{turnId}/steps read the live trace's steps table",
        )
        role.add_to_policy(
            iam.PolicyStatement(actions=["dynamodb:Query"], resources=[self.table.table_arn])
        )
        headers = {
            "method.response.header.Access-Control-Allow-Origin": f"'{origins[0]}'",
            "method.response.header.Vary": "'Origin'",
            "method.response.header.Cache-Control": "'no-store'",
        }
        unavailable = json.dumps(UNAVAILABLE.body())
        integration = service_integration(
            "dynamodb",
            "Query",
            role,
            request_template(self.table.table_name),
            Duration.seconds(5),
            (headers, response_template(cors), "\n".join([*cors, unavailable])),
        )
        self.resource = query.add_resource(f"{{{PATH_PARAMETER}}}").add_resource("steps")
        self.method = self.resource.add_method(
            "GET",
            integration,
            request_parameters={f"method.request.path.{PATH_PARAMETER}": True},
            method_responses=[
                apigw.MethodResponse(
                    status_code=status,
                    response_parameters={key: True for key in headers},
                )
                for status in ("200", "400", "502")
            ],
        )
