"""A limit per client at the edge: a WAF web ACL on the API stage, a rate-based rule per IP.

Stage throttling is one bucket shared by every shopper: one client could take all of it.
The rule counts each source IP address's ``POST`` requests over a sliding window and,
past ``client_rate_limit.requests``, blocks that address's POSTs until it slows down,
answering 429 with the API's own ``rate_limited`` JSON. Preflights (``OPTIONS``) and
the live trace's polls (``GET``, two a second while a question runs) are not counted
and never blocked, so a browser can still read the 429: it carries one origin, the
store's first (where the widget runs; the hosted page's when the store lists none),
the one allowed origin a fixed header can name (WAF answers before API Gateway, which
cannot add its CORS headers to a response it never sees). Elsewhere the 429 reads as
a network error.

The API is called straight from browsers (no CloudFront in front of it), so the source
IP WAF sees is the client's own. The store platforms' webhooks (``POST /webhooks/...``)
are not counted: a bulk edit in the store's admin sends a delivery per product from the
platform's few addresses; their route has its own throttle (infra/webhooks.py).

Behind the rate rule, two of AWS's managed rule groups inspect every request: known bad
inputs (Log4j and Java deserialization payloads, exploitable paths, a ``localhost``
Host) and the core rule set (cross-site scripting, path traversal, SSRF to the metadata
service, bots without a user agent). They run in count mode and label what they match;
one rule of ours then blocks what they labelled, with the API's own JSON (403
``request_rejected``) and the page's origin, so a shopper caught by mistake reads a
message instead of a network error. Left out, each for its reason:

* the core set's ``SizeRestrictions_BODY`` (bodies over 8 KB): the API's request model
  already bounds the body (``max_message_chars``), and a message of that many
  characters outside Latin script is more than 8 KB of UTF-8;
* the SQL database, Linux, POSIX, PHP, WordPress and Windows groups: nothing behind the
  API runs SQL, a shell, PHP or Windows, so they would cost capacity and inspect the
  shoppers' words for attacks on software that is not there;
* the IP reputation and anonymous IP lists: shoppers behind VPNs and hosting providers
  are shoppers; the rate rule bounds what any one address can do;
* Bot Control and account takeover prevention: priced per request on top of WAF, and
  the API has no accounts or logins to protect.
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
from shared.api.vocabulary import RATE_LIMITED, REQUEST_REJECTED

RULE_NAME: Final = "RequestsPerClientIp"
BODY_KEY: Final = "rateLimited"
REJECTED_BODY_KEY: Final = "requestRejected"
BLOCK_RULE_NAME: Final = "BlockWhatManagedRulesFound"

MANAGED_RULE_GROUPS: Final[dict[str, str]] = {
    "AWSManagedRulesKnownBadInputsRuleSet": "awswaf:managed:aws:known-bad-inputs:",
    "AWSManagedRulesCommonRuleSet": "awswaf:managed:aws:core-rule-set:",
}
"""AWS's managed rule groups on the API, and the label namespace each marks requests in."""
NOT_BLOCKED_LABELS: Final = ("awswaf:managed:aws:core-rule-set:SizeRestrictions_Body",)
"""Labels of managed rules whose finding is left to the API (see the module's docstring)."""


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
            description=(
                "storechat: a rate limit per client IP on POST /query, and AWS managed rules"
            ),
            scope="REGIONAL",
            default_action=wafv2.CfnWebACL.DefaultActionProperty(allow={}),
            visibility_config=_visibility(self.acl_name),
            custom_response_bodies={
                BODY_KEY: wafv2.CfnWebACL.CustomResponseBodyProperty(
                    content_type="APPLICATION_JSON", content=json.dumps(RATE_LIMITED.body())
                ),
                REJECTED_BODY_KEY: wafv2.CfnWebACL.CustomResponseBodyProperty(
                    content_type="APPLICATION_JSON", content=json.dumps(REQUEST_REJECTED.body())
                ),
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
                                response_headers=_cors(page_origin),
                            )
                        )
                    ),
                    visibility_config=_visibility(RULE_NAME),
                ),
                *_managed_rule_groups(first_priority=1),
                _block_labelled(len(MANAGED_RULE_GROUPS) + 1, page_origin),
            ],
        )
        association = wafv2.CfnWebACLAssociation(
            self, "StageAssociation", resource_arn=stage.stage_arn, web_acl_arn=self.acl.attr_arn
        )
        # The stage must exist before WAF can attach to it.
        association.node.add_dependency(stage)


def _cors(page_origin: str) -> list[wafv2.CfnWebACL.CustomHTTPHeaderProperty]:
    return [
        wafv2.CfnWebACL.CustomHTTPHeaderProperty(
            name="Access-Control-Allow-Origin", value=page_origin
        ),
        wafv2.CfnWebACL.CustomHTTPHeaderProperty(name="Vary", value="Origin"),
    ]


def _managed_rule_groups(first_priority: int) -> list[wafv2.CfnWebACL.RuleProperty]:
    """Each of :data:`MANAGED_RULE_GROUPS`, counting and labelling what it matches."""
    return [
        wafv2.CfnWebACL.RuleProperty(
            name=group,
            priority=first_priority + i,
            statement=wafv2.CfnWebACL.StatementProperty(
                managed_rule_group_statement=wafv2.CfnWebACL.ManagedRuleGroupStatementProperty(
                    vendor_name="AWS", name=group
                )
            ),
            override_action=wafv2.CfnWebACL.OverrideActionProperty(count={}),
            visibility_config=_visibility(group),
        )
        for i, group in enumerate(MANAGED_RULE_GROUPS)
    ]


def _label(key: str, scope: str) -> wafv2.CfnWebACL.StatementProperty:
    return wafv2.CfnWebACL.StatementProperty(
        label_match_statement=wafv2.CfnWebACL.LabelMatchStatementProperty(key=key, scope=scope)
    )


def _block_labelled(priority: int, page_origin: str) -> wafv2.CfnWebACL.RuleProperty:
    """Block a request the managed groups labelled, but for :data:`NOT_BLOCKED_LABELS`."""
    found = wafv2.CfnWebACL.StatementProperty(
        or_statement=wafv2.CfnWebACL.OrStatementProperty(
            statements=[
                _label(namespace, "NAMESPACE") for namespace in MANAGED_RULE_GROUPS.values()
            ]
        )
    )
    spared = [
        wafv2.CfnWebACL.StatementProperty(
            not_statement=wafv2.CfnWebACL.NotStatementProperty(statement=_label(label, "LABEL"))
        )
        for label in NOT_BLOCKED_LABELS
    ]
    return wafv2.CfnWebACL.RuleProperty(
        name=BLOCK_RULE_NAME,
        priority=priority,
        statement=wafv2.CfnWebACL.StatementProperty(
            and_statement=wafv2.CfnWebACL.AndStatementProperty(statements=[found, *spared])
        ),
        action=wafv2.CfnWebACL.RuleActionProperty(
            block=wafv2.CfnWebACL.BlockActionProperty(
                custom_response=wafv2.CfnWebACL.CustomResponseProperty(
                    response_code=403,
                    custom_response_body_key=REJECTED_BODY_KEY,
                    response_headers=_cors(page_origin),
                )
            )
        ),
        visibility_config=_visibility(BLOCK_RULE_NAME),
    )
