"""POST /query: request model, StartSyncExecution mapping, error mapping, CORS, stage."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest

from infra import names
from shared.api import error_body, request_json_schema
from tests.infrastructure.conftest import Synthesized, render
from tests.infrastructure.vtl import Request, escape_javascript
from tests.infrastructure.vtl import render as run_vtl

JSON = "application/json"


def _post(dev: Synthesized) -> dict[str, Any]:
    methods = [
        r["Properties"]
        for r in dev.of_type("AWS::ApiGateway::Method").values()
        if r["Properties"]["HttpMethod"] == "POST"
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
        ("FAILED", 502, "conversation_failed"),
        ("ABORTED", 502, "conversation_failed"),
        ("TIMED_OUT", 504, "timeout"),
        ("PENDING_REDRIVE", 502, "conversation_failed"),
        ("", 502, "conversation_failed"),
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
    allowed = [cdn, *dev.config.cors_origins]
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
    for origin in dev.config.cors_origins:
        assert f'"{origin}"' in template
    assert "'POST,OPTIONS'" in response["ResponseParameters"].values()


def test_gateway_errors_are_json_with_cors(dev: Synthesized) -> None:
    cdn = _cdn_origin(dev)
    responses = {
        r["Properties"]["ResponseType"]: render(r["Properties"])
        for r in dev.of_type("AWS::ApiGateway::GatewayResponse").values()
    }
    assert set(responses) >= {"BAD_REQUEST_BODY", "DEFAULT_4XX", "DEFAULT_5XX"}
    bad = responses["BAD_REQUEST_BODY"]
    assert bad["StatusCode"] == "400"
    assert json.loads(bad["ResponseTemplates"][JSON]) == error_body(
        "invalid_request", "$context.error.validationErrorString"
    )
    for response_type, response in responses.items():
        assert (
            response["ResponseParameters"]["gatewayresponse.header.Access-Control-Allow-Origin"]
            == f"'{cdn}'"
        ), response_type
        # $context.error.messageString is a quoted string: stand one in to check the JSON.
        body = response["ResponseTemplates"][JSON].replace(
            "$context.error.messageString", '"Forbidden"'
        )
        assert set(json.loads(body)) == {"error", "message"}, response_type


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
    access_log = json.loads(props["AccessLogSetting"]["Format"])
    assert access_log["requestId"] == "$context.requestId"
    access_group = props["AccessLogSetting"]["DestinationArn"].rsplit(":", 1)[-1].strip("<>")
    assert dev.props(access_group)["RetentionInDays"] == dev.config.log_retention_days


def test_the_api_url_output_has_no_trailing_slash(dev: Synthesized) -> None:
    outputs = render(dev.template["Outputs"])
    api_url = outputs[names.Outputs.API_URL]["Value"]
    assert api_url.endswith(f"/{dev.config.name}")
    assert outputs[names.Outputs.QUERY_URL]["Value"] == f"{api_url}/{names.QUERY_PATH}"
