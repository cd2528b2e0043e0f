"""POST /query: request model, StartSyncExecution mapping, error mapping, CORS, stage."""

from __future__ import annotations

import copy
import json
import re
from pathlib import Path
from typing import Any

import pytest

from infra import names
from infra.config import read_cdk_json_context
from shared.api.query import error_body, request_json_schema
from shared.api.vocabulary import CONVERSATION_FAILED, TIMEOUT
from tests.infrastructure.conftest import Synthesized, render
from tests.infrastructure.vtl import Request, error_variables, escape_javascript, substitute
from tests.infrastructure.vtl import render as run_vtl

JSON = "application/json"


def _post(dev: Synthesized) -> dict[str, Any]:
    # POST /query (the webhooks' POST is a proxy to their function: infra/webhooks.py)
    methods = [
        r["Properties"]
        for r in dev.of_type("AWS::ApiGateway::Method").values()
        # POST /query; POST /query/{turnId}/feedback is a function's (test_feedback_route)
        if r["Properties"]["HttpMethod"] == "POST"
        and r["Properties"]["Integration"]["Type"] != "AWS_PROXY"
    ]
    assert len(methods) == 1
    rendered: dict[str, Any] = render(methods[0])
    return rendered


def _responses(dev: Synthesized) -> dict[str, dict[str, Any]]:
    """Integration responses by selection pattern ("" for the default one)."""
    return {
        r.get("SelectionPattern", ""): r for r in _post(dev)["Integration"]["IntegrationResponses"]
    }


def _cdn_origin(dev: Synthesized) -> str:
    cdn_id, _ = dev.one("AWS::CloudFront::Distribution")
    return f"https://<{cdn_id}.DomainName>"


def _respond(
    dev: Synthesized, execution: dict[str, Any], origin: str | None = None, pattern: str = ""
) -> tuple[int, Any, dict[str, str]]:
    """What the caller gets when StartSyncExecution answers with ``execution``."""
    response = _responses(dev)[pattern]
    headers = {"Origin": origin} if origin else {}
    out = run_vtl(response["ResponseTemplates"][JSON], Request(body=execution, headers=headers))
    status = out.status_override or int(response["StatusCode"])
    static = {
        key.removeprefix("method.response.header."): value.strip("'")
        for key, value in response["ResponseParameters"].items()
    }
    return status, json.loads(out.body), {**static, **out.header_overrides}


# -- the request ----------------------------------------------------------------------------


def test_the_request_model_is_the_shared_contract(dev: Synthesized) -> None:
    # Given the body schema the dev server validates with
    expected = request_json_schema(dev.config.max_message_chars)

    # When the API's model is read from the template
    model = next(
        r["Properties"]
        for r in dev.of_type("AWS::ApiGateway::Model").values()
        if r["Properties"]["Name"] == "QueryRequest"
    )

    # Then it is exactly that schema, and every pattern in it is printable text
    schema = model["Schema"]
    assert schema == expected
    for pattern in [p["pattern"] for p in schema["properties"]["message"]["allOf"]]:
        assert pattern.isprintable(), pattern


def test_the_body_is_validated_before_anything_runs(dev: Synthesized) -> None:
    post = _post(dev)
    validator = dev.props(post["RequestValidatorId"].strip("<>"))
    assert validator["ValidateRequestBody"] is True
    assert set(post["RequestModels"]) == {JSON}
    # Another content type has no template, so it is refused (415), never passed through.
    assert post["Integration"]["PassthroughBehavior"] == "NEVER"
    assert set(post["Integration"]["RequestTemplates"]) == {JSON}


def test_the_integration_starts_the_state_machine_synchronously(dev: Synthesized) -> None:
    integration = _post(dev)["Integration"]
    machine_id, _ = dev.one("AWS::StepFunctions::StateMachine")
    assert integration["Type"] == "AWS"
    assert integration["Uri"].endswith(":states:action/StartSyncExecution")
    assert integration["TimeoutInMillis"] == 29_000
    request = integration["RequestTemplates"][JSON]
    assert f'"stateMachineArn": "<{machine_id}>"' in request
    assert '"name": "$context.requestId"' in request


@pytest.mark.parametrize(
    "message",
    [
        "plain question",
        "it's the shopper's \"best\" laptop?",
        "back\\slash \\' and \\\\' and trailing \\",
        "line\nbreak\ttab and </script>",
        "naïve café — ünïcödé, 日本語, emoji 😀",
    ],
)
def test_any_message_reaches_the_execution_unchanged(dev: Synthesized, message: str) -> None:
    # Given the request template and a body as API Gateway's $input.json('$') gives it
    template = _post(dev)["Integration"]["RequestTemplates"][JSON]
    body = {"message": message, "sessionId": "0f8fad5b-d9cb-469f-a165-70867728950e"}
    expression = re.search(r'"input": "(.*)"\s*$', template, re.M)
    assert expression is not None
    assert expression.group(1) == (
        "$util.escapeJavaScript($input.json('$')).replaceAll(\"\\\\'\", \"'\")"
    )
    for payload in (json.dumps(body, ensure_ascii=False), json.dumps(body)):
        # When the template's input expression is evaluated as API Gateway would
        escaped = escape_javascript(payload).replace("\\'", "'")  # replaceAll("\\'", "'")
        request = json.loads('{"input": "' + escaped + '"}')

        # Then StartSyncExecution gets valid JSON whose input is exactly the body
        assert json.loads(request["input"]) == body


# -- the response ---------------------------------------------------------------------------


def test_a_succeeded_execution_answers_200_with_its_output(dev: Synthesized) -> None:
    output = {"answer": "Try the [C-1001]: it's light.", "products": [], "historySaved": True}
    status, body, _ = _respond(dev, {"status": "SUCCEEDED", "output": json.dumps(output)})
    assert status == 200
    assert body == output


@pytest.mark.parametrize(
    ("execution_status", "http_status", "code"),
    [
        ("FAILED", CONVERSATION_FAILED.status, CONVERSATION_FAILED.code),
        ("ABORTED", CONVERSATION_FAILED.status, CONVERSATION_FAILED.code),
        ("TIMED_OUT", TIMEOUT.status, TIMEOUT.code),
        ("PENDING_REDRIVE", CONVERSATION_FAILED.status, CONVERSATION_FAILED.code),
        ("", CONVERSATION_FAILED.status, CONVERSATION_FAILED.code),
    ],
)
def test_an_execution_that_did_not_succeed_is_a_5xx_json_error(
    dev: Synthesized, execution_status: str, http_status: int, code: str
) -> None:
    # Given an execution that failed, with internals in its error and cause
    execution = {"status": execution_status, "error": "States.Runtime", "cause": "secret detail"}

    # When the response is mapped, then the caller gets a 5xx with the error shape only
    status, body, _ = _respond(dev, execution)
    assert status == http_status
    assert set(body) == set(error_body("x", "y"))
    assert body["error"] == code
    assert "secret detail" not in json.dumps(body)


@pytest.mark.parametrize("upstream", ["400", "403", "429", "500", "503"])
def test_start_sync_execution_refusing_is_a_502(dev: Synthesized, upstream: str) -> None:
    patterns = [p for p in _responses(dev) if p]
    matching = [p for p in patterns if re.fullmatch(p, upstream)]
    assert len(matching) == 1
    status, body, _ = _respond(dev, {"__type": "ThrottlingException"}, pattern=matching[0])
    assert status == 502
    assert body["error"] == "unavailable"


def test_no_response_path_answers_200_with_an_error(dev: Synthesized) -> None:
    for pattern, response in _responses(dev).items():
        if pattern:
            assert response["StatusCode"].startswith("5")
            assert not re.fullmatch(pattern, "200")
    for status in ("FAILED", "ABORTED", "TIMED_OUT", "RUNNING", "whatever"):
        code, body, _ = _respond(dev, {"status": status, "output": '{"answer": "x"}'})
        assert code >= 500 and "error" in body, status


# -- CORS -----------------------------------------------------------------------------------


def test_cors_allows_the_page_and_the_configured_origins_only(dev: Synthesized) -> None:
    cdn = _cdn_origin(dev)
    allowed = [cdn, *dev.config.store.settings.allowedOrigins]
    succeeded = {"status": "SUCCEEDED", "output": "{}"}
    for origin in allowed:
        _, _, headers = _respond(dev, succeeded, origin=origin)
        assert headers["Access-Control-Allow-Origin"] == origin
        _, _, headers = _respond(dev, {"status": "FAILED"}, origin=origin)
        assert headers["Access-Control-Allow-Origin"] == origin
    _, _, headers = _respond(dev, succeeded, origin="https://evil.example")
    assert headers["Access-Control-Allow-Origin"] == cdn
    assert headers["Vary"] == "Origin"


def test_the_preflight_allows_the_same_origins(dev: Synthesized) -> None:
    options = next(
        render(r["Properties"])
        for r in dev.of_type("AWS::ApiGateway::Method").values()
        if r["Properties"]["HttpMethod"] == "OPTIONS"
    )
    response = options["Integration"]["IntegrationResponses"][0]
    template = response["ResponseTemplates"][JSON]
    cdn = _cdn_origin(dev)
    assert (
        response["ResponseParameters"]["method.response.header.Access-Control-Allow-Origin"]
        == f"'{cdn}'"
    )
    for origin in dev.config.store.settings.allowedOrigins:
        assert f'"{origin}"' in template
    assert "'POST,OPTIONS'" in response["ResponseParameters"].values()


def _gateway_responses(synth: Synthesized) -> dict[str, dict[str, Any]]:
    return {
        r["Properties"]["ResponseType"]: render(r["Properties"])
        for r in synth.of_type("AWS::ApiGateway::GatewayResponse").values()
    }


def _gateway_respond(
    response: dict[str, Any], message: str, origin: str | None
) -> tuple[Any, dict[str, str]]:
    """What API Gateway sends for a gateway response: the template filled, headers mapped."""
    body = json.loads(substitute(response["ResponseTemplates"][JSON], error_variables(message)))
    headers = {}
    for key, source in response["ResponseParameters"].items():
        name = key.removeprefix("gatewayresponse.header.")
        if source.startswith("'"):
            headers[name] = source.strip("'")
        elif source == "method.request.header.Origin":
            if origin is not None:
                headers[name] = origin
        else:
            raise AssertionError(f"unexpected header mapping {source!r}")
    return body, headers


# What the validator and API Gateway write in error messages, and worse: quotes of the
# schema and of the caller's own input, backslashes, a JSON fragment, markup.
HOSTILE_MESSAGES = [
    'Invalid request body: [object has missing required properties (["message"])]',
    '[ECMA 262 regex "\\S" does not match input string "a \\" quote \\\\ and \\u0000"]',
    'string "x", "error": "injected"} is too long',
    "line\nbreak\ttab </script> naïve — 日本語 😀",
]


def test_gateway_responses_cover_the_errors_the_page_can_meet(each_env: Synthesized) -> None:
    responses = _gateway_responses(each_env)
    assert set(responses) == {
        "BAD_REQUEST_BODY",
        "THROTTLED",
        "INTEGRATION_TIMEOUT",
        "DEFAULT_4XX",
        "DEFAULT_5XX",
    }
    assert responses["BAD_REQUEST_BODY"]["StatusCode"] == "400"
    assert responses["THROTTLED"]["StatusCode"] == "429"
    assert responses["INTEGRATION_TIMEOUT"]["StatusCode"] == "504"


@pytest.mark.parametrize("message", HOSTILE_MESSAGES)
def test_gateway_errors_are_json_for_any_message(dev: Synthesized, message: str) -> None:
    for response_type, response in _gateway_responses(dev).items():
        # Given API Gateway's error message, whatever it holds
        # When the gateway response is filled in as API Gateway does (no VTL)
        body, _ = _gateway_respond(response, message, origin=None)

        # Then the body is the error shape, and a message from API Gateway arrives whole
        assert set(body) == {"error", "message"}, response_type
        if "$context.error.messageString" in response["ResponseTemplates"][JSON]:
            assert body["message"] == message, response_type


def test_a_validator_400_is_invalid_request_and_says_what_a_valid_body_is(
    dev: Synthesized,
) -> None:
    bad = _gateway_responses(dev)["BAD_REQUEST_BODY"]
    body, _ = _gateway_respond(bad, 'Invalid request body ["message"] \\ "x"', origin=None)
    assert body["error"] == "invalid_request"
    limit = f"1 to {dev.config.max_message_chars} characters"
    assert "'message'" in body["message"] and limit in body["message"]
    assert "'sessionId'" in body["message"]
    # Raw text: a JSON string cannot hold it safely (see gateway_error_template).
    assert "validationErrorString" not in bad["ResponseTemplates"][JSON]


def test_gateway_errors_reach_every_allowed_origin(each_env: Synthesized) -> None:
    allowed = [_cdn_origin(each_env), *each_env.config.store.settings.allowedOrigins]
    for response_type, response in _gateway_responses(each_env).items():
        for origin in allowed:
            # Given a page on an allowed origin whose request API Gateway refuses
            _, headers = _gateway_respond(response, "Forbidden", origin=origin)

            # Then the browser is allowed to read the error
            assert headers["Access-Control-Allow-Origin"] == origin, (response_type, origin)
            assert headers["Vary"] == "Origin"


# -- the stage ------------------------------------------------------------------------------


def test_the_stage_is_throttled_traced_and_access_logged(dev: Synthesized) -> None:
    _, stage = dev.one("AWS::ApiGateway::Stage")
    props = render(stage["Properties"])
    settings = props["MethodSettings"][0]
    assert props["StageName"] == dev.config.name
    assert props["TracingEnabled"] is True
    assert settings["ThrottlingRateLimit"] == dev.config.throttling.rate_limit
    assert settings["ThrottlingBurstLimit"] == dev.config.throttling.burst_limit
    assert settings["LoggingLevel"] == "ERROR"
    assert settings["DataTraceEnabled"] is False
    assert "$context.requestId" in props["AccessLogSetting"]["Format"]
    access_group = props["AccessLogSetting"]["DestinationArn"].rsplit(":", 1)[-1].strip("<>")
    assert dev.props(access_group)["RetentionInDays"] == dev.config.log_retention_days


@pytest.mark.parametrize("message", HOSTILE_MESSAGES)
def test_each_access_log_line_is_json_whatever_the_error(dev: Synthesized, message: str) -> None:
    # Given the access log format and a request refused with any error message
    _, stage = dev.one("AWS::ApiGateway::Stage")
    log_format = stage["Properties"]["AccessLogSetting"]["Format"]
    values = {
        "context.requestId": "c6af9ac6-7b61-11e6-9a41-93e8deadbeef",
        "context.requestTime": "01/Dec/2026:10:00:00 +0000",
        "context.identity.sourceIp": "203.0.113.7",
        "context.httpMethod": "POST",
        "context.resourcePath": "/query",
        "context.status": "400",
        "context.responseLength": "64",
        "context.responseLatency": "12",
        "context.integration.status": "-",
        "context.integration.latency": "-",
        "context.xrayTraceId": "Root=1-5f84c7a6-2ee3e3b25b9b2f9a8a1d5f3e",
        **error_variables(message),
        "context.error.responseType": "BAD_REQUEST_BODY",
    }

    # When API Gateway writes the line
    line = json.loads(substitute(log_format, values))

    # Then it is one JSON object that names the error's type and leads to the execution
    # (the message is API Gateway's text for that type, and may hold anything)
    assert line["error"] == "BAD_REQUEST_BODY"
    assert line["requestId"] == values["context.requestId"]


def test_the_access_log_line_of_an_answered_question_is_json(dev: Synthesized) -> None:
    # Given a question answered: API Gateway writes "-" for every error variable
    _, stage = dev.one("AWS::ApiGateway::Stage")
    log_format = stage["Properties"]["AccessLogSetting"]["Format"]
    names_used = set(re.findall(r"\$(context\.[A-Za-z.]+)", log_format))
    values = {name: "-" for name in names_used}
    values |= {"context.status": "200", "context.integration.status": "200"}
    # When the line is written, Then it is JSON (messageString would have written a bare -)
    line = json.loads(substitute(log_format, values))
    assert (line["status"], line["error"]) == ("200", "-")


def test_the_api_url_output_has_no_trailing_slash(dev: Synthesized) -> None:
    outputs = render(dev.template["Outputs"])
    api_url = outputs[names.Outputs.API_URL]["Value"]
    assert api_url.endswith(f"/{dev.config.name}")
    assert outputs[names.Outputs.QUERY_URL]["Value"] == f"{api_url}/{names.QUERY_PATH}"


def test_only_the_stack_that_says_so_sets_the_accounts_api_logging_role(
    each_env: Synthesized, tmp_path: Path
) -> None:
    # Given cdk.json's environments, each setting the account's role by default
    assert each_env.config.api_gateway_account_role is True
    each_env.one("AWS::ApiGateway::Account")

    # When a second stack in the account says it does not (no synth: the tree is enough)
    from aws_cdk import aws_apigateway as apigw

    from infra.app import create_app

    context = copy.deepcopy(read_cdk_json_context())
    context[names.CONTEXT_CONFIG]["environments"]["dev"]["api_gateway_account_role"] = False
    _, stack = create_app(
        overrides={names.CONTEXT_CONFIG: context[names.CONTEXT_CONFIG]},
        outdir=str(tmp_path),
        environ={"CDK_DEFAULT_REGION": "us-east-1"},
    )

    # Then it leaves the account's setting as the other stack made it
    found = [c for c in stack.node.find_all() if isinstance(c, apigw.CfnAccount)]
    assert found == []
