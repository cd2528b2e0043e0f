"""A limit per client at the edge: a WAF web ACL on the API stage, a rate-based rule per IP.

Stage throttling is one bucket shared by every shopper: one client could take all of it.
The rule counts each source IP address's ``POST`` requests over a sliding window and,
past ``client_rate_limit.requests``, blocks that address's POSTs until it slows down,
answering 429 with the API's own ``rate_limited`` JSON. Preflights (``OPTIONS``) and
the live trace's polls (``GET``, two a second while a question runs) are not counted
and never blocked, so a browser can still read the 429: it carries the
page's origin, the one allowed origin a fixed header can name (WAF answers before API
Gateway, which cannot add its CORS headers to a response it never sees).

The API is called straight from browsers (no CloudFront in front of it), so the source
IP WAF sees is the client's own. The store platforms' webhooks (``POST /webhooks/...``)
are not counted: a bulk edit in the store's admin sends a delivery per product from the
platform's few addresses; their route has its own throttle (infra/webhooks.py).
"""

from __future__ import annotations

import json
from typing import Final

from aws_cdk import Stack
from aws_cdk import aws_apigateway as apigw
from aws_cdk import aws_wafv2 as wafv2
from constructs import Construct

from infra.config import ClientRateLimit
from infra.webhooks import RESOURCE as WEBHOOKS_RESOURCE
from shared.vocabulary import RATE_LIMITED

RULE_NAME: Final = "RequestsPerClientIp"
BODY_KEY: Final = "rateLimited"


def _visibility(metric_name: str) -> wafv2.CfnWebACL.VisibilityConfigProperty:
    return wafv2.CfnWebACL.VisibilityConfigProperty(
        cloud_watch_metrics_enabled=True,
        metric_name=metric_name,
        sampled_requests_enabled=True,
    )


class ClientRateLimitAcl(Construct):
    """The web ACL, its one rule, and its association with the API's stage."""

    def __init__(
        self,
        scope: Construct,
        id: str,
        *,
        limit: ClientRateLimit,
        stage: apigw.Stage,
        page_origin: str,
    ) -> None:
        super().__init__(scope, id)
        self.acl_name = f"{Stack.of(self).stack_name}-api"
        posts = wafv2.CfnWebACL.StatementProperty(
            byte_match_statement=wafv2.CfnWebACL.ByteMatchStatementProperty(
                field_to_match=wafv2.CfnWebACL.FieldToMatchProperty(method={}),
                positional_constraint="EXACTLY",
                search_string="POST",
                text_transformations=[
                    wafv2.CfnWebACL.TextTransformationProperty(priority=0, type="NONE")
                ],
            )
        )
        webhooks = wafv2.CfnWebACL.StatementProperty(
            byte_match_statement=wafv2.CfnWebACL.ByteMatchStatementProperty(
                field_to_match=wafv2.CfnWebACL.FieldToMatchProperty(uri_path={}),
                positional_constraint="CONTAINS",
                search_string=f"/{WEBHOOKS_RESOURCE}/",
                text_transformations=[
                    wafv2.CfnWebACL.TextTransformationProperty(priority=0, type="LOWERCASE")
                ],
            )
        )
        posts_only = wafv2.CfnWebACL.StatementProperty(
            and_statement=wafv2.CfnWebACL.AndStatementProperty(
                statements=[
                    posts,
                    wafv2.CfnWebACL.StatementProperty(
                        not_statement=wafv2.CfnWebACL.NotStatementProperty(statement=webhooks)
                    ),
                ]
            )
        )
        self.acl = wafv2.CfnWebACL(
            self,
            "WebAcl",
            name=self.acl_name,
            description="storechat: a rate limit per client IP on POST /query",
            scope="REGIONAL",
            default_action=wafv2.CfnWebACL.DefaultActionProperty(allow={}),
            visibility_config=_visibility(self.acl_name),
            custom_response_bodies={
                BODY_KEY: wafv2.CfnWebACL.CustomResponseBodyProperty(
                    content_type="APPLICATION_JSON", content=json.dumps(RATE_LIMITED.body())
                )
            },
            rules=[
                wafv2.CfnWebACL.RuleProperty(
                    name=RULE_NAME,
                    priority=0,
                    statement=wafv2.CfnWebACL.StatementProperty(
                        rate_based_statement=wafv2.CfnWebACL.RateBasedStatementProperty(
                            aggregate_key_type="IP",
                            limit=limit.requests,
                            evaluation_window_sec=limit.window_seconds,
                            scope_down_statement=posts_only,
                        )
                    ),
                    action=wafv2.CfnWebACL.RuleActionProperty(
                        block=wafv2.CfnWebACL.BlockActionProperty(
                            custom_response=wafv2.CfnWebACL.CustomResponseProperty(
                                response_code=429,
                                custom_response_body_key=BODY_KEY,
                                response_headers=[
                                    wafv2.CfnWebACL.CustomHTTPHeaderProperty(
                                        name="Access-Control-Allow-Origin", value=page_origin
                                    ),
                                    wafv2.CfnWebACL.CustomHTTPHeaderProperty(
                                        name="Vary", value="Origin"
                                    ),
                                ],
                            )
                        )
                    ),
                    visibility_config=_visibility(RULE_NAME),
                )
            ],
        )
        association = wafv2.CfnWebACLAssociation(
            self, "StageAssociation", resource_arn=stage.stage_arn, web_acl_arn=self.acl.attr_arn
        )
        # The stage must exist before WAF can attach to it.
        association.node.add_dependency(stage)
