"""The chat host on AWS: the widget's files loadable into the store's pages, its URL an
output, the store's settings with the functions that speak for it, and a custom domain."""

from __future__ import annotations

import json
import re

import aws_cdk as cdk
from aws_cdk.assertions import Match, Template

from infra import names
from infra.api_templates import REQUEST_ORIGIN, gateway_cors_headers
from infra.config import load_config, read_cdk_json_context
from infra.store import FUNCTIONS as STORE_FUNCTIONS
from infra.store import STORE_FILE
from infra.web import WebHosting
from shared.config.time_budget import API_LIMIT_S, CLIENT_WAIT_MS
from shared.store.settings import StoreFile, page_settings
from tests.infrastructure.conftest import SYNTH_CONTEXT, Synthesized, render


def test_the_one_tags_address_is_an_output(each_env: Synthesized) -> None:
    cdn_id, _ = each_env.one("AWS::CloudFront::Distribution")
    output = render(each_env.template["Outputs"][names.Outputs.WIDGET_URL]["Value"])
    assert output == f"https://<{cdn_id}.DomainName>/widget.js"


def test_the_widgets_files_load_into_any_page_without_credentials(each_env: Synthesized) -> None:
    _, policy = each_env.one("AWS::CloudFront::ResponseHeadersPolicy")
    config = policy["Properties"]["ResponseHeadersPolicyConfig"]
    cors = config["CorsConfig"]
    assert cors["AccessControlAllowOrigins"] == {"Items": ["*"]}
    assert cors["AccessControlAllowMethods"] == {"Items": ["GET", "HEAD"]}
    assert cors["AccessControlAllowCredentials"] is False
    # And every file, the widget's included, carries the CSP: the API, the image hosts and
    # the chat host's own files, nothing else
    csp = render(config["SecurityHeadersConfig"]["ContentSecurityPolicy"]["ContentSecurityPolicy"])
    directives = dict(d.split(" ", 1) for d in csp.split("; "))
    assert directives["script-src"] == directives["style-src"] == "'self'"
    api_id, _ = each_env.one("AWS::ApiGateway::RestApi")
    assert directives["connect-src"].startswith(f"'self' https://<{api_id}>.execute-api.")
    assert directives["img-src"].split() == ["'self'", "data:", *each_env.config.image_hosts]


def test_the_page_and_the_widget_are_told_the_stores_name_and_voice(dev: Synthesized) -> None:
    staged = [path.read_text(encoding="utf-8") for path in dev.outdir.glob("asset.*/config.json")]
    assert len(staged) == 1
    # (The API's URL is a marker filled at deploy time.)
    config = json.loads(re.sub(r"<<marker:[^>]*>>", '"API"', staged[0]))
    assert config["store"] == page_settings(dev.config.store.settings)
    assert config["store"]["name"] == dev.config.store.settings.name


def test_the_page_waits_for_an_answer_a_little_past_the_apis_own_limit(dev: Synthesized) -> None:
    # Given the page's staged config.json, Then it tells the page to wait for the time
    # budget's client wait, past the API's integration timeout, so the API's 504 comes first
    staged = [path.read_text(encoding="utf-8") for path in dev.outdir.glob("asset.*/config.json")]
    config = json.loads(re.sub(r"<<marker:[^>]*>>", '"API"', staged[0]))
    assert config["requestTimeoutMs"] == CLIENT_WAIT_MS
    assert config["requestTimeoutMs"] > API_LIMIT_S * 1000


def test_the_functions_that_speak_for_the_store_read_its_settings_from_a_layer(
    each_env: Synthesized,
) -> None:
    # Given the layer of the store's settings
    layers = {
        logical_id: props
        for logical_id, props in each_env.of_type("AWS::Lambda::LayerVersion").items()
        if "store's settings" in props["Properties"].get("Description", "")
    }
    ((layer_id, _),) = layers.items()
    # Then exactly the functions that speak for the store have it, and read it where it is
    for key in ("converse", "get_store_policies", "compose_response", "lookup_inventory"):
        props = each_env.props(each_env.function_id(key))
        has = f"<{layer_id}>" in render(props.get("Layers", []))
        assert has is (key in STORE_FUNCTIONS), key
        assert (props["Environment"]["Variables"].get("STORE_FILE") == STORE_FILE) is has, key
    # And what it holds is the environment's store block, its policies read
    (published,) = [
        path
        for path in each_env.outdir.glob("asset.*/store/store.json")
        if StoreFile.model_validate_json(path.read_text("utf-8")) == each_env.config.store
    ]
    assert "Returns" in StoreFile.model_validate_json(published.read_text("utf-8")).policiesText


def test_gateway_errors_name_the_one_origin_or_echo_an_allowed_one() -> None:
    # One allowed origin (a stack with no store origins): nothing from the request is sent
    assert gateway_cors_headers(["https://d1.cloudfront.net"])["Access-Control-Allow-Origin"] == (
        "'https://d1.cloudfront.net'"
    )
    # The hosted page and the store's pages: the request's own origin is sent back
    both = gateway_cors_headers(["https://d1.cloudfront.net", "https://shop.example.com"])
    assert both["Access-Control-Allow-Origin"] == REQUEST_ORIGIN


def test_a_custom_domain_serves_the_widget_with_its_certificate() -> None:
    # Given a store that names a domain for its chat host
    context = read_cdk_json_context()
    store = context[names.CONTEXT_CONFIG]["environments"]["prod"].setdefault("store", {})
    arn = "arn:aws:acm:us-east-1:123456789012:certificate/12345678-1234-1234-1234-123456789012"
    store["domain"] = {"name": "chat.shop.example.com", "certificateArn": arn}
    config = load_config(
        {**context, **SYNTH_CONTEXT["prod"]}, "prod", {"CDK_DEFAULT_REGION": "us-east-1"}
    )

    # When the web hosting is built
    app = cdk.App()
    stack = cdk.Stack(app, "Web", env=cdk.Environment(region="us-east-1"))
    web = WebHosting(stack, "Web", config=config)
    web.publish(api_url="https://api.example.com/prod")
    template = Template.from_stack(stack)

    # Then CloudFront answers on it, with that certificate and TLS 1.2 at least
    template.has_resource_properties(
        "AWS::CloudFront::Distribution",
        {
            "DistributionConfig": Match.object_like(
                {
                    "Aliases": ["chat.shop.example.com"],
                    "ViewerCertificate": {
                        "AcmCertificateArn": arn,
                        "MinimumProtocolVersion": "TLSv1.2_2021",
                        "SslSupportMethod": "sni-only",
                    },
                }
            )
        },
    )
    # And the tag the store copies names it
    assert web.widget_url == "https://chat.shop.example.com/widget.js"
    assert re.fullmatch(r"https://chat\.shop\.example\.com", web.url)
