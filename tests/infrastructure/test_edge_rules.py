"""The WAF's managed rules in prod: AWS's known-bad-inputs and core rule groups count and
label what they match, and one rule blocks what they labelled, with the API's JSON."""

from __future__ import annotations

import json
from typing import Any

from infra.edge import (
    BLOCK_RULE_NAME,
    MANAGED_RULE_GROUPS,
    NOT_BLOCKED_LABELS,
    RULE_NAME,
)
from shared.api.vocabulary import REQUEST_REJECTED
from tests.infrastructure.conftest import Synthesized, render


def _rules(prod: Synthesized) -> tuple[dict[str, Any], dict[str, dict[str, Any]]]:
    _, acl = prod.one("AWS::WAFv2::WebACL")
    props = render(acl["Properties"])
    return props, {rule["Name"]: rule for rule in props["Rules"]}


def test_aws_managed_rule_groups_inspect_every_request_after_the_rate_rule(
    prod: Synthesized,
) -> None:
    _, rules = _rules(prod)
    # Given prod's web ACL, Then the rate rule comes first, then each managed group
    order = [name for name, _ in sorted(rules.items(), key=lambda kv: kv[1]["Priority"])]
    assert order == [RULE_NAME, *MANAGED_RULE_GROUPS, BLOCK_RULE_NAME]
    for group in MANAGED_RULE_GROUPS:
        statement = rules[group]["Statement"]["ManagedRuleGroupStatement"]
        assert (statement["VendorName"], statement["Name"]) == ("AWS", group)
        # counting and labelling: the block is ours, so it can answer in the API's words
        assert rules[group]["OverrideAction"] == {"Count": {}}
        assert rules[group]["VisibilityConfig"]["CloudWatchMetricsEnabled"] is True
    assert set(MANAGED_RULE_GROUPS) == {
        "AWSManagedRulesKnownBadInputsRuleSet",
        "AWSManagedRulesCommonRuleSet",
    }


def test_what_they_labelled_is_blocked_with_the_apis_json_but_the_body_size_rule(
    prod: Synthesized,
) -> None:
    props, rules = _rules(prod)
    block = rules[BLOCK_RULE_NAME]
    found, *spared = block["Statement"]["AndStatement"]["Statements"]
    # Then a request labelled in either group's namespace is blocked
    namespaces = {
        s["LabelMatchStatement"]["Key"]
        for s in found["OrStatement"]["Statements"]
        if s["LabelMatchStatement"]["Scope"] == "NAMESPACE"
    }
    assert namespaces == set(MANAGED_RULE_GROUPS.values())
    # But the body-size finding, which the API's own request model bounds
    assert [s["NotStatement"]["Statement"]["LabelMatchStatement"] for s in spared] == [
        {"Key": label, "Scope": "LABEL"} for label in NOT_BLOCKED_LABELS
    ]
    # And the shopper's page reads the API's own refusal: the store's pages, where the widget
    # asks (a fixed header names one origin, as the rate limit's does)
    response = block["Action"]["Block"]["CustomResponse"]
    assert response["ResponseCode"] == 403
    body = props["CustomResponseBodies"][response["CustomResponseBodyKey"]]
    assert json.loads(body["Content"]) == REQUEST_REJECTED.body()
    headers = {h["Name"]: h["Value"] for h in response["ResponseHeaders"]}
    assert headers["Access-Control-Allow-Origin"] == prod.config.store.settings.allowedOrigins[0]
