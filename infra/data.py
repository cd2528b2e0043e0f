"""Tables: the catalog (when it is ours), the per-session conversation history, and the
day's model spend (one counter per UTC day, which the state machine reads and adds to).

The catalog table streams its changes, old and new images, so that the search
snapshot follows every write to what is searched (the indexer rereads the whole
table, infra/search.py), and a change of price or stock alone, which the catalog
tool reads fresh, rebuilds nothing.
"""

from __future__ import annotations

import hashlib
from importlib import resources
from typing import Any

from aws_cdk import CustomResource
from aws_cdk import aws_dynamodb as dynamodb
from aws_cdk import aws_iam as iam
from aws_cdk import custom_resources as cr
from constructs import Construct

import registry
from infra import names
from infra.config import EnvironmentConfig
from infra.nag import BASIC_EXECUTION_POLICY, acknowledge, logical_id
from infra.runtime import LambdaFactory, log_group, removal_policy

PITR = dynamodb.PointInTimeRecoverySpecification(point_in_time_recovery_enabled=True)


def catalog_version() -> str:
    """A short hash of the bundled catalog: a changed catalog re-runs the seed on deploy."""
    data = (resources.files("shared") / "data" / "catalog.json").read_bytes()
    return hashlib.sha256(data).hexdigest()[:16]


class Data(Construct):
    """The catalog table (only with ``catalog_source: dynamodb``), the sessions table and
    the spend table."""

    def __init__(
        self, scope: Construct, id: str, *, config: EnvironmentConfig, lambdas: LambdaFactory
    ) -> None:
        super().__init__(scope, id)
        protect = config.removal_policy == "retain"

        def table(id: str, partition_key: str, **options: Any) -> dynamodb.Table:
            """On demand, with point-in-time recovery, kept or deleted with the stack's data."""
            return dynamodb.Table(
                self,
                id,
                partition_key=dynamodb.Attribute(
                    name=partition_key, type=dynamodb.AttributeType.STRING
                ),
                billing_mode=dynamodb.BillingMode.PAY_PER_REQUEST,
                point_in_time_recovery_specification=PITR,
                deletion_protection=protect,
                removal_policy=removal_policy(config),
                **options,
            )

        # The key schemas match the local runner's tables (storechat/local/aws.py).
        self.sessions = table(
            "Sessions",
            names.SESSIONS_PARTITION_KEY,
            sort_key=dynamodb.Attribute(
                name=names.SESSIONS_SORT_KEY, type=dynamodb.AttributeType.STRING
            ),
            time_to_live_attribute=names.SESSIONS_TTL_ATTRIBUTE,
        )
        # A few bytes a day; recovery lets an operator see a counter as it was.
        self.spend = table(
            "Spend", names.SPEND_PARTITION_KEY, time_to_live_attribute=names.SPEND_TTL_ATTRIBUTE
        )

        self.catalog: dynamodb.Table | None = None
        self.seed: CustomResource | None = None
        """The custom resource that loads the bundled catalog (with the catalog table, when
        the environment's ``seed_sample`` asks for it)."""
        if config.catalog_source != "dynamodb":
            return
        self.catalog = table(
            "Catalog",
            names.CATALOG_PARTITION_KEY,
            # Both images: the indexer tells a price or stock change (read fresh, nothing
            # to rebuild) from one to what is searched (it rebuilds from the table).
            stream=dynamodb.StreamViewType.NEW_AND_OLD_IMAGES,
        )
        # Search runs on the snapshot and fresh reads go by key. The one index finds the
        # product of a Shopify inventory item (inventory_levels/update names nothing
        # else): sparse and keys only, it is written only for products that have one.
        self.catalog.add_global_secondary_index(
            index_name=names.CATALOG_INVENTORY_INDEX,
            partition_key=dynamodb.Attribute(
                name=names.CATALOG_INVENTORY_ITEM, type=dynamodb.AttributeType.STRING
            ),
            projection_type=dynamodb.ProjectionType.KEYS_ONLY,
        )
        # The sample only where the environment asks for it: a store's stack holds the
        # store's products alone (docs/catalog.md).
        if config.seed_sample:
            self.seed = self._seed_catalog(config, lambdas, self.catalog)

    def _seed_catalog(
        self, config: EnvironmentConfig, lambdas: LambdaFactory, table: dynamodb.Table
    ) -> CustomResource:
        seeder = lambdas.declared(self, registry.SEED_CATALOG)
        seeder.add_to_role_policy(
            iam.PolicyStatement(actions=["dynamodb:BatchWriteItem"], resources=[table.table_arn])
        )
        provider = cr.Provider(
            self,
            "SeedProvider",
            on_event_handler=seeder,
            log_group=log_group(self, "SeedProviderLogs", config),
        )
        seed = CustomResource(
            self,
            "CatalogSeed",
            service_token=provider.service_token,
            resource_type="Custom::CatalogSeed",
            properties={"TableName": table.table_name, "CatalogVersion": catalog_version()},
        )
        framework = provider.node.find_child("framework-onEvent")
        seeder_id = logical_id(seeder)
        acknowledge(
            framework,
            {
                BASIC_EXECUTION_POLICY: (
                    "CDK's custom resource framework function only writes its own logs with the "
                    "AWS managed basic execution policy."
                ),
                f"AwsSolutions-IAM5[Resource::<{seeder_id}.Arn>:*]": (
                    "CDK's Provider framework grants invoke on the seeding function's versions "
                    "(Arn:*); it can invoke nothing else."
                ),
            },
        )
        return seed
