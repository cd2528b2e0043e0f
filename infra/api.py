"""``POST /query``: API Gateway REST straight into ``StartSyncExecution``.

The request model is ``shared.api.request_json_schema`` (the dev server validates
with the same rules). The response mapping turns the execution's status into the
HTTP status: SUCCEEDED is 200 with the execution's output as the body; FAILED,
ABORTED and anything unknown are 502, TIMED_OUT is 504, each with
``shared.api.error_body`` JSON. There is no path that answers 200 with an error.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from typing import Any

from aws_cdk import Aws, Duration
from aws_cdk import aws_apigateway as apigw
from aws_cdk import aws_iam as iam
from aws_cdk import aws_logs as logs
from aws_cdk import aws_stepfunctions as sfn
from constructs import Construct

from infra import names
from infra.config import EnvironmentConfig
from infra.runtime import acknowledge, log_group
from infra.trace import method_options
from shared.api import request_json_schema
from shared.vocabulary import (
    CONVERSATION_FAILED,
    GATEWAY_ERROR,
    INVALID_REQUEST,
    RATE_LIMITED,
    REQUEST_REJECTED,
    TIMEOUT,
    UNAVAILABLE,
)

JSON = "application/json"

# What a shopper's browser is told; nothing from the execution's error or cause
# (those can hold internals) reaches the response. Operators find the execution by
# its name, which is the API request id (docs/deploy.md).
# The codes and messages are shared.vocabulary's, the dev server's too.
FAILED_BODY = CONVERSATION_FAILED.body()
TIMED_OUT_BODY = TIMEOUT.body()
UPSTREAM_BODY = UNAVAILABLE.body()
THROTTLED_BODY = RATE_LIMITED.body()

DRAFT4_URI = "http://json-schema.org/draft-04/schema#"
_SCHEMA_KEYS = {"$schema": "schema"}
_SCHEMA_LISTS = {"allOf", "anyOf", "oneOf"}


def json_schema(schema: dict[str, Any]) -> apigw.JsonSchema:
    """A JSON Schema dict as CDK's ``JsonSchema`` (which renders back to the same JSON)."""
    kwargs: dict[str, Any] = {}
    for key, value in schema.items():
        if key == "$schema":
            if value != DRAFT4_URI:
                raise ValueError(f"API Gateway models need JSON Schema draft 4, not {value}")
            kwargs["schema"] = apigw.JsonSchemaVersion.DRAFT4
        elif key == "type":
            kwargs["type"] = (
                [getattr(apigw.JsonSchemaType, item.upper()) for item in value]
                if isinstance(value, list)
                else getattr(apigw.JsonSchemaType, value.upper())
            )
        elif key == "properties":
            kwargs["properties"] = {name: json_schema(sub) for name, sub in value.items()}
        elif key in _SCHEMA_LISTS:
            kwargs[_snake(key)] = [json_schema(sub) for sub in value]
        elif key == "additionalProperties" and isinstance(value, dict):
            kwargs["additional_properties"] = json_schema(value)
        else:
            kwargs[_SCHEMA_KEYS.get(key, _snake(key))] = value
    return apigw.JsonSchema(**kwargs)


def _snake(name: str) -> str:
    return re.sub(r"(?<!^)(?=[A-Z])", "_", name).lower()


def _literal(body: dict[str, str]) -> str:
    """A fixed JSON body inside a VTL template; it must hold nothing VTL would evaluate."""
    text = json.dumps(body)
    if "$" in text or "#" in text:
        raise ValueError(f"{text!r} would be read as VTL")
    return text


def request_template(state_machine_arn: str) -> str:
    """The StartSyncExecution request: the validated body becomes the execution's input.

    ``escapeJavaScript`` makes the body a JSON string but also escapes ``'`` as
    ``\\'``, which JSON does not allow; the replaceAll undoes just that. The API
    request id names the execution, so an access-log line leads to its execution.
    """
    return "\n".join(
        [
            "{",
            f'  "stateMachineArn": "{state_machine_arn}",',
            '  "name": "$context.requestId",',
            r'''  "input": "$util.escapeJavaScript($input.json('$')).replaceAll("\\'", "'")"''',
            "}",
        ]
    )


def cors_override(origins: Sequence[str]) -> list[str]:
    """VTL that echoes the request's Origin when it is one of ``origins``.

    The static header mapping answers with the first origin; a browser on any other
    allowed origin gets its own back, and every other origin is refused by the browser.
    """
    condition = " || ".join(f'$origin == "{origin}"' for origin in origins)
    return [
        "#set($origin = $input.params().header.get('Origin'))",
        '#if("$!origin" == "")',
        "#set($origin = $input.params().header.get('origin'))",
        "#end",
        f"#if({condition})",
        "#set($context.responseOverride.header.Access-Control-Allow-Origin = $origin)",
        "#end",
    ]


def response_template(origins: Sequence[str]) -> str:
    """SUCCEEDED -> 200 with the output; TIMED_OUT -> 504; FAILED, ABORTED, other -> 502."""
    return "\n".join(
        [
            *cors_override(origins),
            "#set($status = $input.path('$.status'))",
            "#if($status == 'SUCCEEDED')",
            "$input.path('$.output')",
            "#elseif($status == 'TIMED_OUT')",
            "#set($context.responseOverride.status = 504)",
            _literal(TIMED_OUT_BODY),
            "#else",
            "#set($context.responseOverride.status = 502)",
            _literal(FAILED_BODY),
            "#end",
        ]
    )


def upstream_error_template(origins: Sequence[str]) -> str:
    """StartSyncExecution itself refused (throttled, misconfigured): 502, not the caller's fault."""
    return "\n".join([*cors_override(origins), _literal(UPSTREAM_BODY)])


REQUEST_ORIGIN = "method.request.header.Origin"


def gateway_cors_headers(origins: Sequence[str]) -> dict[str, str]:
    """CORS headers of API Gateway's own responses (validator 400, 429, 504, other 4xx/5xx).

    A gateway response runs no VTL, so unlike ``cors_override`` it cannot compare the
    request's Origin with ``origins``: a header is either a fixed value or a request
    parameter. With one allowed origin (the hosted page alone, as in prod) that origin
    is sent. With more, any fixed one would leave the other allowed origins (a
    developer's localhost page) with a network error in place of the message, so the
    request's own Origin is sent back. That lets a page on any origin read these error
    responses, and nothing else: JSON requests are preflighted and the preflight
    (``add_cors_preflight``) allows only ``origins``, so a browser elsewhere never sends
    the page's requests; and no credentials are allowed (no cookies, no authorizer, no
    Access-Control-Allow-Credentials), so what such a page can read is the error its
    own request caused, which it could as well fetch through any server.
    """
    allow = f"'{origins[0]}'" if len(origins) == 1 else REQUEST_ORIGIN
    return {"Access-Control-Allow-Origin": allow, "Vary": "'Origin'"}


def gateway_error_template(code: str) -> str:
    """The body of a gateway response: ``code`` and API Gateway's own message, as JSON.

    A gateway response template substitutes variables and nothing else: no VTL, so no
    ``$util.escapeJavaScript``. ``$context.error.messageString`` is the one error
    variable API Gateway documents as a quoted JSON string; the validator's
    ``$context.error.validationErrorString`` is raw text that quotes the schema and the
    caller's own input, so it would break the JSON, and is left out.
    """
    return f'{{"error": "{code}", "message": $context.error.messageString}}'


def bad_request_template(max_message_chars: int) -> str:
    """The validator's 400: a fixed, JSON-safe message that says what a valid body is.

    The validator's own detail (``validationErrorString``) cannot be put in JSON safely,
    so the shopper's client is told the whole rule instead of the one that failed.
    """
    rule = (
        "The request body must be a JSON object with 'message' (text of 1 to "
        f"{max_message_chars} characters, not only spaces, without control characters) and "
        "optionally 'sessionId' (a session id from an earlier answer, or null) and "
        "'turnId' (32 lowercase hexadecimal characters, or null), and nothing else."
    )
    return json.dumps({"error": INVALID_REQUEST.code, "message": rule})


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
            # Execution and access logging need the account's API Gateway logging role.
            cloud_watch_role=True,
            fail_on_warnings=True,
            deploy_options=apigw.StageOptions(
                stage_name=self.stage_name,
                throttling_rate_limit=config.throttling.rate_limit,
                throttling_burst_limit=config.throttling.burst_limit,
                access_log_destination=apigw.LogGroupLogDestination(self.access_logs),
                access_log_format=apigw.AccessLogFormat.custom(_ACCESS_LOG_FORMAT),
                logging_level=apigw.MethodLoggingLevel.ERROR,
                # Request and response bodies are shoppers' words: not in execution logs.
                data_trace_enabled=False,
                metrics_enabled=True,
                tracing_enabled=True,
                method_options=method_options(config),
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
        integration = apigw.AwsIntegration(
            service="states",
            action="StartSyncExecution",
            integration_http_method="POST",
            options=apigw.IntegrationOptions(
                credentials_role=role,
                passthrough_behavior=apigw.PassthroughBehavior.NEVER,
                request_templates={JSON: request_template(state_machine.state_machine_arn)},
                timeout=Duration.seconds(29),
                integration_responses=[
                    apigw.IntegrationResponse(
                        status_code="200",
                        response_parameters=cors_headers,
                        response_templates={JSON: response_template(origins)},
                    ),
                    apigw.IntegrationResponse(
                        selection_pattern=r"[45]\d{2}",
                        status_code="502",
                        response_parameters=cors_headers,
                        response_templates={JSON: upstream_error_template(origins)},
                    ),
                ],
            ),
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
            ("Throttled", apigw.ResponseType.THROTTLED, "429", _literal(THROTTLED_BODY)),
            (
                "IntegrationTimeout",
                apigw.ResponseType.INTEGRATION_TIMEOUT,
                "504",
                _literal(TIMED_OUT_BODY),
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


_ACCESS_LOG_FORMAT = (
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
            # Already a quoted JSON string, whatever the message holds.
            '"error": $context.error.messageString',
            '"xrayTraceId": "$context.xrayTraceId"',
        ]
    )
    + "}"
)
"""One JSON line per request; ``requestId`` is also the name of the execution it started."""
