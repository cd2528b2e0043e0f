"""The scheduled full pull: an EventBridge schedule that runs ``functions/catalog_sync``.

Webhooks carry each change as it happens, at least once but not always; the pull reads
every product from the platform's Admin API on the environment's ``catalog_sync.schedule``
and writes the difference to the catalog table as ``storechat catalog sync`` would (the
table's stream and the indexer do the rest). Only an environment with a ``catalog_sync``
block in cdk.json gets it.

The Admin API token is a Secrets Manager secret the stack creates blank (never in
cdk.json or the template); the operator puts the platform's value (docs/catalog.md, "Connect your
store"), and until then every run fails, which the function's error alarm reports. The
function may read that secret, and scan and write (put, delete) the catalog table.
"""

from __future__ import annotations

from aws_cdk import SecretValue
from aws_cdk import aws_dynamodb as dynamodb
from aws_cdk import aws_events as events
from aws_cdk import aws_events_targets as targets
from aws_cdk import aws_iam as iam
from aws_cdk import aws_secretsmanager as secretsmanager
from constructs import Construct

import registry
from infra.config import EnvironmentConfig
from infra.config_blocks import CatalogSync
from infra.nag import acknowledge
from infra.runtime import LambdaFactory, removal_policy
from infra.webhooks import PLATFORMS

SECRET_FORMS = {
    "shopify": "the Admin API access token of a custom app with read_products and read_inventory",
    "woocommerce": "consumer_key:consumer_secret of a REST API key with Read access",
}


class CatalogSyncSchedule(Construct):
    """The secret, the function and the schedule of one environment's full pull."""

    def __init__(
        self,
        scope: Construct,
        id: str,
        *,
        config: EnvironmentConfig,
        settings: CatalogSync,
        lambdas: LambdaFactory,
        catalog: dynamodb.Table,
    ) -> None:
        super().__init__(scope, id)
        self.secret = secretsmanager.Secret(
            self,
            "AdminApiSecret",
            description=(
                f"{PLATFORMS[settings.platform]} Admin API credentials for "
                f"{config.stack_name}'s catalog sync: {SECRET_FORMS[settings.platform]} "
                "(blank: every run fails)"
            ),
            # The platform issues the value; blank until the operator puts it.
            secret_string_value=SecretValue.unsafe_plain_text(" "),
            removal_policy=removal_policy(config),
        )
        acknowledge(
            self.secret,
            {
                "AwsSolutions-SMG4": (
                    "The store platform issues the Admin API token: it is rotated in the "
                    "platform's admin, then stored with put-secret-value (docs/catalog.md, Connect "
                    "your store)."
                )
            },
        )
        environment = {
            "CATALOG_TABLE_NAME": catalog.table_name,
            "SYNC_PLATFORM": settings.platform,
            "SYNC_API_URL": settings.api_url.rstrip("/"),
            "ADMIN_API_SECRET_ARN": self.secret.secret_arn,
            "ALLOW_SHRINK": "true" if settings.allow_shrink else "false",
        }
        # Products link to the storefront, as the webhooks' do.
        store_url = settings.store_url or config.webhooks.store_url or config.store.settings.url
        if store_url:
            environment["STORE_URL"] = store_url.rstrip("/")
        self.function = lambdas.declared(self, registry.CATALOG_SYNC, environment=environment)
        # A failed run is not tried again at once: the next scheduled one reads everything.
        self.function.configure_async_invoke(retry_attempts=0)
        self.secret.grant_read(self.function)
        self.function.add_to_role_policy(
            iam.PolicyStatement(
                actions=["dynamodb:BatchWriteItem", "dynamodb:Scan"],
                resources=[catalog.table_arn],
            )
        )
        self.rule = events.Rule(
            self,
            "Schedule",
            description=f"The catalog's full pull from {PLATFORMS[settings.platform]}'s Admin API",
            schedule=events.Schedule.expression(settings.schedule),
            enabled=settings.enabled,
            targets=[targets.LambdaFunction(self.function)],
        )
