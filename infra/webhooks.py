"""The store platforms' product webhooks: ``POST /webhooks/{platform}`` to one function.

Shopify and WooCommerce post a product whenever it is created, changed or deleted. The
route proxies the raw request (its body must reach the function byte for byte: the
signature is over it) to ``functions/catalog_webhook``, which verifies it with the
platform's secret, writes the catalog table as an import does (the table's stream and
the indexer do the rest, as for an import), and remembers deliveries and each product's
last change in a sync table of its own.

Each platform's secret is a Secrets Manager secret the stack creates blank; the operator
puts the platform's value (docs/catalog.md, "Connect your store"). Until then every delivery is
refused with 401: the function fails closed. The function may only read those two
secrets, write (put and delete) and scan the catalog table (a deletion of a product the
sync table does not know is found by its ``platformProductId``), set a product's stock and
find it by its inventory item (``inventory_levels/update``), and read and write its own
sync table. Reserved concurrency 1: deliveries of one product are written one after
the other, so a newer change can never be overwritten by an older one still writing;
the routes' own throttle (``webhooks.throttling``) bounds the rest, and the platforms
retry what is throttled.
"""

from __future__ import annotations

from aws_cdk import SecretValue
from aws_cdk import aws_apigateway as apigw
from aws_cdk import aws_dynamodb as dynamodb
from aws_cdk import aws_iam as iam
from aws_cdk import aws_secretsmanager as secretsmanager
from constructs import Construct

import registry
from infra import names
from infra.config import EnvironmentConfig
from infra.data import PITR
from infra.nag import acknowledge
from infra.runtime import LambdaFactory, removal_policy

RESOURCE = "webhooks"
PATH_PARAMETER = "platform"
RESOURCE_PATH = f"/{RESOURCE}/{{{PATH_PARAMETER}}}"
PLATFORMS: dict[str, str] = {"shopify": "Shopify", "woocommerce": "WooCommerce"}
"""Each platform by its route's last segment, and its name in secrets' descriptions."""
SYNC_KEY = "key"
SYNC_TTL_ATTRIBUTE = "expiresAt"


def method_options(config: EnvironmentConfig) -> dict[str, apigw.MethodDeploymentOptions]:
    """The webhook route's own throttle, apart from the stage's (shoppers' questions)."""
    throttling = config.webhooks.throttling
    return {
        f"{RESOURCE_PATH}/POST": apigw.MethodDeploymentOptions(
            throttling_rate_limit=throttling.rate_limit,
            throttling_burst_limit=throttling.burst_limit,
            metrics_enabled=True,
            logging_level=apigw.MethodLoggingLevel.ERROR,
            # A product's JSON is the store's business, not the execution log's.
            data_trace_enabled=False,
        )
    }


def deployed(config: EnvironmentConfig) -> bool:
    """The webhooks write the catalog table: only a stack that has one takes them."""
    return config.catalog_source == "dynamodb" and config.webhooks.enabled


class CatalogWebhooks(Construct):
    """The sync table, the two secrets, the function and ``POST /webhooks/{platform}``."""

    def __init__(
        self,
        scope: Construct,
        id: str,
        *,
        config: EnvironmentConfig,
        lambdas: LambdaFactory,
        catalog: dynamodb.Table,
        api: apigw.RestApi,
    ) -> None:
        super().__init__(scope, id)
        # Deliveries expire after days; each product's last change is kept, so a late
        # delivery can be told apart from a new one however long after.
        self.sync_table = dynamodb.Table(
            self,
            "Sync",
            partition_key=dynamodb.Attribute(name=SYNC_KEY, type=dynamodb.AttributeType.STRING),
            billing_mode=dynamodb.BillingMode.PAY_PER_REQUEST,
            point_in_time_recovery_specification=PITR,
            deletion_protection=config.removal_policy == "retain",
            removal_policy=removal_policy(config),
            time_to_live_attribute=SYNC_TTL_ATTRIBUTE,
        )
        self.secrets: dict[str, secretsmanager.Secret] = {}
        for platform, title in PLATFORMS.items():
            secret = secretsmanager.Secret(
                self,
                f"{title}Secret",
                description=(
                    f"{title} webhook secret for {config.stack_name} (plain text; blank "
                    "refuses every delivery)"
                ),
                # The platform issues the value; blank until the operator puts it.
                secret_string_value=SecretValue.unsafe_plain_text(" "),
                removal_policy=removal_policy(config),
            )
            acknowledge(
                secret,
                {
                    "AwsSolutions-SMG4": (
                        f"{title} issues the webhook secret: it is rotated in {title}'s admin, "
                        "then stored with put-secret-value (docs/catalog.md, Connect your store)."
                    )
                },
            )
            self.secrets[platform] = secret

        environment = {
            "CATALOG_TABLE_NAME": catalog.table_name,
            "SYNC_TABLE_NAME": self.sync_table.table_name,
            "SHOPIFY_WEBHOOK_SECRET_ARN": self.secrets["shopify"].secret_arn,
            "WOOCOMMERCE_WEBHOOK_SECRET_ARN": self.secrets["woocommerce"].secret_arn,
        }
        # Products written by webhooks link to the storefront: the store's own by default.
        store_url = config.webhooks.store_url or config.store.settings.url
        if store_url:
            environment["STORE_URL"] = store_url.rstrip("/")
        self.function = lambdas.declared(
            self, registry.CATALOG_WEBHOOK, environment=environment, reserved_concurrency=1
        )
        for secret in self.secrets.values():
            secret.grant_read(self.function)
        self.function.add_to_role_policy(
            iam.PolicyStatement(
                actions=["dynamodb:BatchWriteItem", "dynamodb:Scan", "dynamodb:UpdateItem"],
                resources=[catalog.table_arn],
            )
        )
        # The product of a Shopify inventory item (inventory_levels/update).
        self.function.add_to_role_policy(
            iam.PolicyStatement(
                actions=["dynamodb:Query"],
                resources=[f"{catalog.table_arn}/index/{names.CATALOG_INVENTORY_INDEX}"],
            )
        )
        self.function.add_to_role_policy(
            iam.PolicyStatement(
                actions=[
                    "dynamodb:GetItem",
                    "dynamodb:BatchGetItem",
                    "dynamodb:PutItem",
                    "dynamodb:UpdateItem",
                ],
                resources=[self.sync_table.table_arn],
            )
        )

        webhooks = api.root.add_resource(RESOURCE)
        self.resource = webhooks.add_resource(f"{{{PATH_PARAMETER}}}")
        # A proxy integration: the body reaches the function as sent, with its headers.
        self.method = self.resource.add_method(
            "POST",
            apigw.LambdaIntegration(self.function, proxy=True),
            request_parameters={f"method.request.path.{PATH_PARAMETER}": True},
        )
        acknowledge(
            self.resource,
            {
                "AwsSolutions-APIG4": (
                    "The platforms sign each delivery with the webhook's secret (HMAC-SHA256 "
                    "of the body), which the function verifies; they cannot use an authorizer."
                ),
                "AwsSolutions-COG4": (
                    "Shopify and WooCommerce post webhooks with a signature, not a Cognito token."
                ),
            },
        )
