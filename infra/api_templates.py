"""What ``POST /query``'s API Gateway integration and responses say, as VTL and models:
the StartSyncExecution request, the status mapping, CORS echoes and the fixed error
bodies (``shared.api.vocabulary``'s codes and messages, the dev server's too). No
constructs here: ``infra/api.py`` builds the API from these.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from typing import Any

from aws_cdk import Duration
from aws_cdk import aws_apigateway as apigw
from aws_cdk import aws_iam as iam

from shared.api.vocabulary import (
    CONVERSATION_FAILED,
    INVALID_REQUEST,
    RATE_LIMITED,
    TIMEOUT,
    UNAVAILABLE,
)

JSON = "application/json"

# What a shopper's browser is told; nothing from the execution's error or cause
# (those can hold internals) reaches the response. Operators find the execution by
# its name, which is the API request id (docs/deploy.md).
# The codes and messages are shared.api.vocabulary's, the dev server's too.
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


def json_literal(body: dict[str, str]) -> str:
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
            json_literal(TIMED_OUT_BODY),
            "#else",
            "#set($context.responseOverride.status = 502)",
            json_literal(FAILED_BODY),
            "#end",
        ]
    )


def upstream_error_template(origins: Sequence[str]) -> str:
    """StartSyncExecution itself refused (throttled, misconfigured): 502, not the caller's fault."""
    return "\n".join([*cors_override(origins), json_literal(UPSTREAM_BODY)])


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


def service_integration(
    service: str,
    action: str,
    role: iam.IRole,
    request: str,
    timeout: Duration,
    responses: tuple[dict[str, str], str, str],
) -> apigw.AwsIntegration:
    """API Gateway calling ``action`` of an AWS ``service`` as ``role``, with the body the
    ``request`` template maps (nothing passes through unmapped), within ``timeout``.

    ``responses`` is ``(headers, answered, unavailable)``: the service's answer is mapped
    by the ``answered`` template, and any 4xx or 5xx of the service itself becomes a 502
    with the ``unavailable`` one (a service refusing is not the caller's fault). Both
    carry the same CORS ``headers``.
    """
    headers, answered, unavailable = responses
    return apigw.AwsIntegration(
        service=service,
        action=action,
        integration_http_method="POST",
        options=apigw.IntegrationOptions(
            credentials_role=role,
            passthrough_behavior=apigw.PassthroughBehavior.NEVER,
            request_templates={JSON: request},
            timeout=timeout,
            integration_responses=_answered_or_unavailable(headers, answered, unavailable),
        ),
    )


def _answered_or_unavailable(
    headers: dict[str, str], answered: str, unavailable: str
) -> list[apigw.IntegrationResponse]:
    return [
        apigw.IntegrationResponse(
            status_code="200", response_parameters=headers, response_templates={JSON: answered}
        ),
        apigw.IntegrationResponse(
            selection_pattern=r"[45]\d{2}",
            status_code="502",
            response_parameters=headers,
            response_templates={JSON: unavailable},
        ),
    ]
