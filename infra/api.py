"""``POST /query``: API Gateway REST straight into ``StartSyncExecution``.

The request model is ``shared.api.query.request_json_schema`` (the dev server validates
with the same rules). The response mapping turns the execution's status into the
HTTP status: SUCCEEDED is 200 with the execution's output as the body; FAILED,
ABORTED and anything unknown are 502, TIMED_OUT is 504, each with
``shared.api.query.error_body`` JSON. There is no path that answers 200 with an error.
"""

from __future__ import annotations

from collections.abc import Sequence

from aws_cdk import Aws, Duration
from aws_cdk import aws_apigateway as apigw
from aws_cdk import aws_iam as iam
from aws_cdk import aws_logs as logs
from aws_cdk import aws_stepfunctions as sfn
from constructs import Construct

from infra import names
from infra.api_templates import (
    JSON,
    THROTTLED_BODY,
    TIMED_OUT_BODY,
    bad_request_template,
    gateway_cors_headers,
    gateway_error_template,
    json_literal,
    json_schema,
    request_template,
    response_template,
    service_integration,
    upstream_error_template,
)
from infra.config import EnvironmentConfig
from infra.feedback import method_options as feedback_method_options
from infra.nag import acknowledge
from infra.runtime import log_group
from infra.trace import method_options
from infra.webhooks import deployed as webhooks_deployed
from infra.webhooks import method_options as webhook_options_of
from shared.api.query import request_json_schema
from shared.api.vocabulary import GATEWAY_ERROR, REQUEST_REJECTED
from shared.config.time_budget import API_LIMIT_S


def webhook_options(config: EnvironmentConfig) -> dict[str, apigw.MethodDeploymentOptions]:
    return webhook_options_of(config) if webhooks_deployed(config) else {}


class QueryApi(Construct):
    def __init__(
        self,
        scope: Construct,
        id: str,
        *,
        config: EnvironmentConfig,
        state_machine: sfn.StateMachine,
        allowed_origins: Sequence[str],
    ) -> None:
        super().__init__(scope, id)
        if not allowed_origins:
            raise ValueError("the API needs at least one allowed origin")
        origins = list(dict.fromkeys(allowed_origins))
        self.origins = origins
        primary = origins[0]
        self.stage_name = config.name

        self.access_logs: logs.LogGroup = log_group(self, "AccessLogs", config)
        self.api = apigw.RestApi(
            self,
            "Api",
            rest_api_name=f"{config.stack_name}-api",
            description="storechat: POST /query runs one conversation turn",
            endpoint_types=[apigw.EndpointType.REGIONAL],
            # Execution and access logging need the account's API Gateway logging role,
            # one per account and Region: set by the one stack whose setting says so.
            cloud_watch_role=config.api_gateway_account_role,
            fail_on_warnings=True,
            deploy_options=apigw.StageOptions(
                stage_name=self.stage_name,
                throttling_rate_limit=config.throttling.rate_limit,
                throttling_burst_limit=config.throttling.burst_limit,
                access_log_destination=apigw.LogGroupLogDestination(self.access_logs),
                access_log_format=apigw.AccessLogFormat.custom(ACCESS_LOG_FORMAT),
                logging_level=apigw.MethodLoggingLevel.ERROR,
                # Request and response bodies are shoppers' words: not in execution logs.
                data_trace_enabled=False,
                metrics_enabled=True,
                tracing_enabled=True,
                method_options={
                    **method_options(config),
                    **webhook_options(config),
                    **feedback_method_options(config),
                },
            ),
        )

        # RestApi adds its own "Endpoint" output (with a trailing slash); the stack's
        # ApiUrl and QueryUrl outputs replace it.
        self.api.node.try_remove_child("Endpoint")

        role = iam.Role(
            self,
            "StartExecutionRole",
            assumed_by=iam.ServicePrincipal("apigateway.amazonaws.com"),
            description="Lets POST /query start the storechat state machine synchronously",
        )
        state_machine.grant_start_sync_execution(role)

        cors_headers = {
            "method.response.header.Access-Control-Allow-Origin": f"'{primary}'",
            "method.response.header.Vary": "'Origin'",
        }
        integration = service_integration(
            "states",
            "StartSyncExecution",
            role,
            request_template(state_machine.state_machine_arn),
            Duration.seconds(API_LIMIT_S),
            (cors_headers, response_template(origins), upstream_error_template(origins)),
        )

        error_model = self.api.add_model(
            "ErrorBody",
            content_type=JSON,
            model_name="ErrorBody",
            schema=apigw.JsonSchema(
                schema=apigw.JsonSchemaVersion.DRAFT4,
                title="ErrorBody",
                type=apigw.JsonSchemaType.OBJECT,
                required=["error", "message"],
                properties={
                    "error": apigw.JsonSchema(type=apigw.JsonSchemaType.STRING),
                    "message": apigw.JsonSchema(type=apigw.JsonSchemaType.STRING),
                },
            ),
        )
        self.request_model = self.api.add_model(
            "QueryRequest",
            content_type=JSON,
            model_name="QueryRequest",
            schema=json_schema(request_json_schema(config.max_message_chars)),
        )
        validator = self.api.add_request_validator(
            "Validator", validate_request_body=True, validate_request_parameters=True
        )
        header_responses = {
            "method.response.header.Access-Control-Allow-Origin": True,
            "method.response.header.Vary": True,
        }
        self.query = self.api.root.add_resource(names.QUERY_PATH)
        self.query.add_method(
            "POST",
            integration,
            request_validator=validator,
            request_models={JSON: self.request_model},
            method_responses=[
                apigw.MethodResponse(
                    status_code=status,
                    response_parameters=header_responses,
                    response_models=None if status == "200" else {JSON: error_model},
                )
                for status in ("200", "400", "502", "504")
            ],
        )
        self.query.add_cors_preflight(
            allow_origins=origins,
            allow_methods=["POST", "OPTIONS"],
            allow_headers=["Content-Type"],
            max_age=Duration.hours(1),
        )
        self._gateway_responses(origins, config.max_message_chars)

        self.url = (
            f"https://{self.api.rest_api_id}.execute-api.{Aws.REGION}.{Aws.URL_SUFFIX}/"
            f"{self.stage_name}"
        )
        """The stage's base URL, without a trailing slash (the page appends ``/query``)."""
        self.query_url = f"{self.url}/{names.QUERY_PATH}"

        if config.client_rate_limit is None:
            acknowledge(
                self,
                {
                    "AwsSolutions-APIG3": (
                        "This environment has no client_rate_limit, so no WAF web ACL: stage "
                        "throttling, request validation and the daily model budget bound abuse."
                    )
                },
            )
        acknowledge(
            self,
            {
                "AwsSolutions-APIG4": (
                    "POST /query is the public shopping assistant: anonymous shoppers call "
                    "it from the store page, so there is no authorizer (OPTIONS is CORS)."
                ),
                "AwsSolutions-COG4": (
                    "Shoppers are anonymous; there is no Cognito user pool to authorize with."
                ),
            },
        )
        if config.api_gateway_account_role:
            self._acknowledge_account_role()

    def _acknowledge_account_role(self) -> None:
        acknowledge(
            self.api,
            {
                "AwsSolutions-IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/"
                "AmazonAPIGatewayPushToCloudWatchLogs]": (
                    "The account-level role API Gateway uses to write execution and access "
                    "logs; the AWS managed policy is the documented one for it."
                )
            },
        )

    def _gateway_responses(self, origins: Sequence[str], max_message_chars: int) -> None:
        headers = gateway_cors_headers(origins)
        responses: list[tuple[str, apigw.ResponseType, str, str]] = [
            (
                "BadRequestBody",
                apigw.ResponseType.BAD_REQUEST_BODY,
                "400",
                bad_request_template(max_message_chars),
            ),
            ("Throttled", apigw.ResponseType.THROTTLED, "429", json_literal(THROTTLED_BODY)),
            (
                "IntegrationTimeout",
                apigw.ResponseType.INTEGRATION_TIMEOUT,
                "504",
                json_literal(TIMED_OUT_BODY),
            ),
            (
                "Default4xx",
                apigw.ResponseType.DEFAULT_4_XX,
                "",
                gateway_error_template(REQUEST_REJECTED.code),
            ),
            (
                "Default5xx",
                apigw.ResponseType.DEFAULT_5_XX,
                "",
                gateway_error_template(GATEWAY_ERROR.code),
            ),
        ]
        for id, response_type, status, template in responses:
            self.api.add_gateway_response(
                id,
                type=response_type,
                status_code=status or None,
                response_headers=headers,
                templates={JSON: template},
            )


ACCESS_LOG_FORMAT = (
    "{"
    + ", ".join(
        [
            '"requestId": "$context.requestId"',
            '"time": "$context.requestTime"',
            '"ip": "$context.identity.sourceIp"',
            '"method": "$context.httpMethod"',
            '"path": "$context.resourcePath"',
            '"status": "$context.status"',
            '"responseLength": "$context.responseLength"',
            '"latencyMs": "$context.responseLatency"',
            '"integrationStatus": "$context.integration.status"',
            '"integrationLatencyMs": "$context.integration.latency"',
            # The gateway response's type (THROTTLED, INTEGRATION_FAILURE, ...): a word,
            # safe inside quotes, "-" when there was no error. messageString is quoted
            # only when there is a message, so a success wrote `"error": -`, no JSON.
            '"error": "$context.error.responseType"',
            '"xrayTraceId": "$context.xrayTraceId"',
        ]
    )
    + "}"
)
"""One JSON line per request; ``requestId`` is also the name of the execution it started."""
