"""The platforms' webhooks as deployed: the route, the function's grants, its secrets,
its throttle and its concurrency."""

from __future__ import annotations

from typing import Any

import registry
from infra import names
from infra.webhooks import RESOURCE_PATH
from tests.infrastructure.conftest import Synthesized, render
from tests.infrastructure.test_iam import _grants, _without_xray


def _function(synth: Synthesized) -> str:
    return synth.functions_by_handler()[registry.CATALOG_WEBHOOK.handler]


def _tables(synth: Synthesized) -> dict[str, str]:
    """Partition key -> table logical id."""
    return {
        r["Properties"]["KeySchema"][0]["AttributeName"]: k
        for k, r in synth.of_type("AWS::DynamoDB::Table").items()
    }


def _secrets(synth: Synthesized) -> dict[str, str]:
    found = {}
    for key in synth.of_type("AWS::SecretsManager::Secret"):
        for platform, prefix in (("shopify", "WebhooksShopify"), ("woocommerce", "WebhooksWoo")):
            if key.startswith(prefix):
                found[platform] = key
    return found


def test_post_webhooks_platform_is_a_proxy_to_the_webhook_function(each_env: Synthesized) -> None:
    function = _function(each_env)
    methods = [
        render(m["Properties"])
        for m in each_env.of_type("AWS::ApiGateway::Method").values()
        if m["Properties"]["HttpMethod"] == "POST"
    ]
    # (the feedback route is a proxy too: the webhook's is the one to this function)
    (webhook,) = [
        m
        for m in methods
        if m["Integration"]["Type"] == "AWS_PROXY" and f"{function}.Arn" in str(m["Integration"])
    ]
    # The body reaches the function as sent: its signature is over those bytes
    assert f"{function}.Arn" in str(webhook["Integration"]["Uri"])
    assert webhook["AuthorizationType"] == "NONE"
    resources = {
        k: r["Properties"]["PathPart"]
        for k, r in each_env.of_type("AWS::ApiGateway::Resource").items()
    }
    assert resources[webhook["ResourceId"].strip("<>")] == "{platform}"
    assert "webhooks" in resources.values()


def test_the_webhook_routes_have_their_own_throttle(each_env: Synthesized) -> None:
    _, stage = each_env.one("AWS::ApiGateway::Stage")
    settings = {s["ResourcePath"]: s for s in stage["Properties"]["MethodSettings"]}
    path = "/~1webhooks~1{platform}"
    throttling = each_env.config.webhooks.throttling
    assert settings[path]["HttpMethod"] == "POST"
    assert settings[path]["ThrottlingRateLimit"] == throttling.rate_limit
    assert settings[path]["ThrottlingBurstLimit"] == throttling.burst_limit
    assert settings[path]["DataTraceEnabled"] is False
    assert RESOURCE_PATH == "/webhooks/{platform}"


def test_the_function_gets_exactly_what_a_delivery_needs(each_env: Synthesized) -> None:
    function = _function(each_env)
    role = render(each_env.props(function)["Role"]).strip("<>").removesuffix(".Arn")
    tables, secrets = _tables(each_env), _secrets(each_env)
    catalog, sync = tables[names.CATALOG_PARTITION_KEY], tables["key"]
    grants = _without_xray(_grants(each_env, role))
    assert grants == {
        # the products written and deleted; a deleted product's rows found by its id
        "dynamodb:BatchWriteItem": {f"<{catalog}.Arn>"},
        "dynamodb:Scan": {f"<{catalog}.Arn>"},
        # a stock set by inventory_levels/update, its product found by the inventory index
        "dynamodb:UpdateItem": {f"<{catalog}.Arn>", f"<{sync}.Arn>"},
        "dynamodb:Query": {f"<{catalog}.Arn>/index/{names.CATALOG_INVENTORY_INDEX}"},
        # its own sync table: deliveries seen, each product's last change, the kept bodies
        # of a WooCommerce product's variations
        "dynamodb:GetItem": {f"<{sync}.Arn>"},
        "dynamodb:BatchGetItem": {f"<{sync}.Arn>"},
        "dynamodb:PutItem": {f"<{sync}.Arn>"},
        # the two platforms' secrets, and nothing else
        "secretsmanager:GetSecretValue": {f"<{secrets['shopify']}>", f"<{secrets['woocommerce']}>"},
        "secretsmanager:DescribeSecret": {f"<{secrets['shopify']}>", f"<{secrets['woocommerce']}>"},
    }


def test_the_function_reads_its_secrets_by_arn_and_writes_one_delivery_at_a_time(
    each_env: Synthesized,
) -> None:
    props = each_env.props(_function(each_env))
    env: dict[str, Any] = render(props["Environment"]["Variables"])
    secrets = _secrets(each_env)
    assert env["SHOPIFY_WEBHOOK_SECRET_ARN"] == f"<{secrets['shopify']}>"
    assert env["WOOCOMMERCE_WEBHOOK_SECRET_ARN"] == f"<{secrets['woocommerce']}>"
    assert "SHOPIFY_WEBHOOK_SECRET" not in env and "WOOCOMMERCE_WEBHOOK_SECRET" not in env
    assert env["SYNC_TABLE_NAME"] == f"<{_tables(each_env)['key']}>"
    # Deliveries of one product never race: an older write cannot land after a newer one
    assert props["ReservedConcurrentExecutions"] == 1
    for secret in secrets.values():
        assert each_env.props(secret)["SecretString"].strip() == ""


def test_the_stack_says_where_to_put_the_secrets(each_env: Synthesized) -> None:
    outputs = each_env.template["Outputs"]
    secrets = _secrets(each_env)
    assert render(outputs["ShopifyWebhookSecretArn"]["Value"]) == f"<{secrets['shopify']}>"
    assert render(outputs["WooCommerceWebhookSecretArn"]["Value"]) == f"<{secrets['woocommerce']}>"
    assert "/webhooks" in str(render(outputs["WebhooksUrl"]["Value"]))


def test_the_sync_table_expires_deliveries_and_can_be_recovered(each_env: Synthesized) -> None:
    sync = each_env.props(_tables(each_env)["key"])
    assert sync["TimeToLiveSpecification"] == {"AttributeName": "expiresAt", "Enabled": True}
    assert sync["PointInTimeRecoverySpecification"]["PointInTimeRecoveryEnabled"] is True


def test_the_catalog_finds_a_product_by_its_inventory_item(each_env: Synthesized) -> None:
    catalog = each_env.props(_tables(each_env)[names.CATALOG_PARTITION_KEY])
    (index,) = catalog["GlobalSecondaryIndexes"]
    assert index["IndexName"] == names.CATALOG_INVENTORY_INDEX
    assert index["KeySchema"] == [{"AttributeName": "platformInventoryItemId", "KeyType": "HASH"}]
    # keys only: the index is written for the products that have an item, and small
    assert index["Projection"] == {"ProjectionType": "KEYS_ONLY"}
