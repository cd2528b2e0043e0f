"""The catalog's search index: the snapshot bucket, the indexer, and what runs the indexer.

The catalog (the table, or the store's Products API) stays the source of truth. The
indexer (``functions/index_catalog``) rebuilds a SQLite FTS5 snapshot from it and
publishes it to the bucket under ``catalog-index/``: the snapshot under a new key,
then the pointer ``catalog-index/latest.json``, so a reader finds a whole snapshot or
the previous one. The catalog tool reads the pointer and the snapshot it names.

What runs the indexer:

* ``catalog_source: dynamodb``: the table's stream, in batches gathered over
  ``catalog_index.batching_window_seconds``; a batch that still fails after
  ``catalog_index.retry_attempts`` retries goes to the failure queue;
* ``catalog_source: http``: an EventBridge schedule, every
  ``catalog_index.rebuild_every_minutes`` (the API has no change stream);
* every deploy that changes how snapshots are built (and the first one): one
  asynchronous ``{"rebuild": true}``, after the catalog is seeded, so a fresh stack
  has a snapshot without waiting for a write or the schedule.

``catalog_index.reserved_concurrency`` (unset by default: a new account at the
10-concurrency quota cannot reserve any, and the first deploy would fail; 1 once the
quota is raised): with 1, two rebuilds never race on the pointer, and a trigger that
arrives during a rebuild waits (Lambda retries it).
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

from aws_cdk import CustomResource, Duration, Stack
from aws_cdk import aws_dynamodb as dynamodb
from aws_cdk import aws_events as events
from aws_cdk import aws_events_targets as targets
from aws_cdk import aws_iam as iam
from aws_cdk import aws_kms as kms
from aws_cdk import aws_lambda as lambda_
from aws_cdk import aws_lambda_destinations as destinations
from aws_cdk import aws_lambda_event_sources as event_sources
from aws_cdk import aws_s3 as s3
from aws_cdk import aws_sqs as sqs
from aws_cdk import custom_resources as cr
from constructs import Construct

import registry
from infra import names
from infra.catalog_settings import indexer_environment
from infra.config import EnvironmentConfig
from infra.nag import BASIC_EXECUTION_POLICY, acknowledge, logical_id, stack_singleton
from infra.runtime import LambdaFactory, log_group, removal_policy

STREAM_BATCH_SIZE = 1000
"""Every batch rebuilds everything, so its size only bounds one invoke's payload."""
ASYNC_RETRY_ATTEMPTS = 2
ASYNC_MAX_EVENT_AGE = Duration.hours(1)

AWS_SDK_HANDLER_ID_PREFIX = "AWS679f53fac002430cb0da5b7982bd2287"
"""The construct id of the singleton function behind every AwsCustomResource."""

BUILD_SOURCES: tuple[str, ...] = ("index_catalog", "shared/search", "shared/catalog")
"""The code that decides what a snapshot holds (the specs declare its facet columns): a
deploy that changes it rebuilds, and readers refuse a snapshot with other facets."""


def builder_fingerprint(functions_dir: Path = names.FUNCTIONS_DIR) -> str:
    """A short hash of the snapshot-building code, so a deploy that changes it rebuilds."""
    digest = hashlib.sha256()
    for folder in BUILD_SOURCES:
        for path in sorted((functions_dir / folder).rglob("*.py")):
            digest.update(path.relative_to(functions_dir).as_posix().encode())
            digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


class CatalogSearch(Construct):
    """The snapshot bucket, the indexer with its triggers, and its failure queue."""

    def __init__(
        self,
        scope: Construct,
        id: str,
        *,
        config: EnvironmentConfig,
        lambdas: LambdaFactory,
        catalog: dynamodb.Table | None,
        seed: CustomResource | None,
    ) -> None:
        super().__init__(scope, id)
        self._config = config
        settings = config.catalog_index
        self.bucket = self._bucket(config)
        # The messages name catalog changes and carry the indexer's errors: encrypted with
        # KMS (checkov's CKV_AWS_27 does not count SSE-SQS) under a key of the stack's own,
        # because only a customer managed key's policy can let EventBridge (the http
        # source's schedule) encrypt what it sends; and TLS only.
        self.failures_key = kms.Key(
            self,
            "IndexFailuresKey",
            description=f"{Stack.of(self).stack_name}: encrypts the catalog index's failure queue",
            enable_key_rotation=True,
            removal_policy=removal_policy(config),
        )
        self.failures = sqs.Queue(
            self,
            "IndexFailures",
            encryption=sqs.QueueEncryption.KMS,
            encryption_master_key=self.failures_key,
            enforce_ssl=True,
            retention_period=Duration.days(14),
            removal_policy=removal_policy(config),
        )
        acknowledge(
            self.failures,
            {
                "AwsSolutions-SQS3": (
                    "This queue is itself the failure destination of the catalog indexer "
                    "(stream batches and invokes given up after their retries); an alarm "
                    "watches it."
                )
            },
        )

        self.indexer = lambdas.declared(
            self,
            registry.INDEX_CATALOG,
            environment=indexer_environment(
                config, self.bucket.bucket_name, catalog.table_name if catalog else None
            ),
            layers=[lambdas.search_layer],
            reserved_concurrency=settings.reserved_concurrency,
            acknowledgments=self._indexer_acknowledgments(),
        )
        # Scheduled and direct invokes are asynchronous: Lambda retries them (and waits
        # out a reserved concurrency), then hands them to the failure queue.
        self.indexer.configure_async_invoke(
            retry_attempts=ASYNC_RETRY_ATTEMPTS,
            max_event_age=ASYNC_MAX_EVENT_AGE,
            on_failure=destinations.SqsDestination(self.failures),
        )
        self._grant_indexer(catalog)

        self.stream_mapping: lambda_.EventSourceMapping | None = None
        self.schedule: events.Rule | None = None
        if catalog is not None:
            # Starts at LATEST: what was written before the mapping existed is in the
            # deploy's rebuild, which runs after the mapping is created.
            source = event_sources.DynamoEventSource(
                catalog,
                starting_position=lambda_.StartingPosition.LATEST,
                batch_size=STREAM_BATCH_SIZE,
                max_batching_window=Duration.seconds(settings.batching_window_seconds),
                retry_attempts=settings.retry_attempts,
                # A rebuild is all or nothing: splitting the batch would only rebuild again.
                bisect_batch_on_error=False,
                report_batch_item_failures=True,
                parallelization_factor=1,
                on_failure=event_sources.SqsDlq(self.failures),
            )
            self.indexer.add_event_source(source)
            self.stream_mapping = next(
                child
                for child in self.indexer.node.children
                if isinstance(child, lambda_.EventSourceMapping)
            )
        else:
            # Named, so that the failure queue's key can name it without depending on it
            # (the key comes before the indexer the rule invokes).
            rule_name = f"{config.stack_name}-catalog-reindex"
            self.schedule = events.Rule(
                self,
                "RebuildSchedule",
                rule_name=rule_name,
                description=f"{config.stack_name}: reindex the Products API",
                schedule=events.Schedule.rate(Duration.minutes(settings.rebuild_every_minutes)),
                targets=[
                    targets.LambdaFunction(
                        self.indexer,
                        retry_attempts=ASYNC_RETRY_ATTEMPTS,
                        max_event_age=ASYNC_MAX_EVENT_AGE,
                        dead_letter_queue=self.failures,
                    )
                ],
            )
            # The queue's policy lets this rule send (CDK adds it); the key must let
            # EventBridge encrypt what it sends, for this rule only.
            self.failures_key.add_to_resource_policy(
                iam.PolicyStatement(
                    sid="EventBridgeSendsFailedRebuilds",
                    principals=[iam.ServicePrincipal("events.amazonaws.com")],
                    actions=["kms:GenerateDataKey", "kms:Decrypt"],
                    resources=["*"],
                    conditions={
                        "ArnEquals": {
                            "aws:SourceArn": Stack.of(self).format_arn(
                                service="events", resource="rule", resource_name=rule_name
                            )
                        }
                    },
                )
            )
        self.deploy_rebuild = self._rebuild_on_deploy(seed)

    def _bucket(self, config: EnvironmentConfig) -> s3.Bucket:
        destroy = config.removal_policy == "destroy"
        bucket = s3.Bucket(
            self,
            "Snapshots",
            versioned=True,
            encryption=s3.BucketEncryption.S3_MANAGED,
            enforce_ssl=True,
            minimum_tls_version=1.2,
            block_public_access=s3.BlockPublicAccess.BLOCK_ALL,
            object_ownership=s3.ObjectOwnership.BUCKET_OWNER_ENFORCED,
            removal_policy=removal_policy(config),
            # Snapshots are rebuilt from the catalog: a destroyed dev stack takes them along.
            auto_delete_objects=destroy,
            lifecycle_rules=[
                # The pointer is overwritten at every publish and the indexer deletes
                # superseded snapshots; both leave noncurrent versions, kept this long to
                # roll back by hand. Current objects never expire: the snapshot in use may
                # be weeks old when the catalog does not change.
                s3.LifecycleRule(
                    id="ExpireSupersededSnapshots",
                    noncurrent_version_expiration=Duration.days(
                        config.catalog_index.keep_old_versions_days
                    ),
                    abort_incomplete_multipart_upload_after=Duration.days(1),
                ),
                s3.LifecycleRule(
                    id="RemoveExpiredDeleteMarkers", expired_object_delete_marker=True
                ),
            ],
        )
        acknowledge(
            bucket,
            {
                "AwsSolutions-S1": (
                    "The bucket holds only search snapshots derived from the catalog and "
                    "rebuilt at will; two Lambda roles read and write it, and CloudTrail "
                    "data events can record that if an audit needs it."
                )
            },
        )
        return bucket

    def _objects(self, pattern: str) -> str:
        return self.bucket.arn_for_objects(f"{names.CATALOG_INDEX_PREFIX}{pattern}")

    def _grant_indexer(self, catalog: dynamodb.Table | None) -> None:
        indexer = self.indexer
        if catalog is not None:
            # The whole-table read a rebuild is (stream grants come with the event source).
            indexer.add_to_role_policy(
                iam.PolicyStatement(actions=["dynamodb:Scan"], resources=[catalog.table_arn])
            )
        statements = [
            # New snapshots and the pointer (versioned keys unknown at deploy time).
            iam.PolicyStatement(
                actions=["s3:PutObject", "s3:AbortMultipartUpload"],
                resources=[self._objects("*")],
            ),
            iam.PolicyStatement(actions=["s3:GetObject"], resources=[self._objects("latest.json")]),
            # Listing makes a missing pointer a 404 (without it S3 answers 403) and
            # finds superseded snapshots to prune; the bucket holds nothing else.
            iam.PolicyStatement(actions=["s3:ListBucket"], resources=[self.bucket.bucket_arn]),
            iam.PolicyStatement(
                actions=["s3:DeleteObject"], resources=[self._objects("*.sqlite.gz")]
            ),
        ]
        for statement in statements:
            indexer.add_to_role_policy(statement)

    def _indexer_acknowledgments(self) -> dict[str, str]:
        bucket = f"<{logical_id(self.bucket)}.Arn>/{names.CATALOG_INDEX_PREFIX}"
        why_keys = (
            "Each snapshot is uploaded under a new versioned key (catalog-index/<version>"
            ".sqlite.gz), unknown at deploy time: the grant is limited to that prefix of "
            "the index's own bucket."
        )
        return {
            f"AwsSolutions-IAM5[Resource::{bucket}*]": why_keys,
            f"AwsSolutions-IAM5[Resource::{bucket}*.sqlite.gz]": why_keys,
            "AwsSolutions-IAM5[Resource::*]": (
                "X-Ray's PutTraceSegments/PutTelemetryRecords and DynamoDB's ListStreams "
                "(added by CDK's stream event source) support no resource-level "
                "permissions, so they need Resource '*'."
            ),
            **{
                f"AwsSolutions-IAM5[Action::{action}]": (
                    "CDK's grant to send to the encrypted failure queue: data keys and "
                    "re-encryption under the queue's own key, which nothing else uses."
                )
                for action in ("kms:GenerateDataKey*", "kms:ReEncrypt*")
            },
        }

    def grant_read_snapshots(self, function: lambda_.Function) -> None:
        """What a function that searches needs from the bucket: GetObject under the prefix,
        and ListBucket, without which S3 answers a pointer not yet published with 403
        instead of 404, and the tool could not tell "being indexed" from "denied"."""
        function.add_to_role_policy(
            iam.PolicyStatement(actions=["s3:GetObject"], resources=[self._objects("*")])
        )
        function.add_to_role_policy(
            iam.PolicyStatement(actions=["s3:ListBucket"], resources=[self.bucket.bucket_arn])
        )
        acknowledge(
            function,
            {
                f"AwsSolutions-IAM5[Resource::<{logical_id(self.bucket)}.Arn>/"
                f"{names.CATALOG_INDEX_PREFIX}*]": (
                    "The function reads the pointer and the snapshot it names, whose key is "
                    "versioned and unknown at deploy time: read-only, limited to the index's "
                    "prefix of its own bucket."
                )
            },
        )

    def _rebuild_on_deploy(self, seed: CustomResource | None) -> cr.AwsCustomResource:
        """One asynchronous ``{"rebuild": true}`` on create and whenever the build code changes.

        Asynchronous, so the deploy neither waits for the build nor fails on it (the
        indexer's alarms report a failed build), and a rebuild that meets a reserved
        concurrency taken is retried by Lambda instead of failing the deploy.
        """
        payload = {"rebuild": True, "reason": f"deploy (builder {builder_fingerprint()})"}
        call = cr.AwsSdkCall(
            service="Lambda",
            action="invoke",
            parameters={
                "FunctionName": self.indexer.function_name,
                "InvocationType": "Event",
                "Payload": json.dumps(payload),
            },
            physical_resource_id=cr.PhysicalResourceId.of("catalog-index-deploy-rebuild"),
            output_paths=["StatusCode"],
        )
        rebuild = cr.AwsCustomResource(
            self,
            "DeployRebuild",
            resource_type="Custom::CatalogIndexRebuild",
            on_create=call,
            on_update=call,
            policy=cr.AwsCustomResourcePolicy.from_statements(
                [
                    iam.PolicyStatement(
                        actions=["lambda:InvokeFunction"], resources=[self.indexer.function_arn]
                    )
                ]
            ),
            install_latest_aws_sdk=False,
            log_group=log_group(self, "DeployRebuildLogs", self._config),
        )
        # After the catalog is loaded and the stream is being read: the rebuild then sees
        # every product, and no write falls between its Scan and the stream's first batch.
        for dependency in (seed, self.stream_mapping):
            if dependency is not None:
                rebuild.node.add_dependency(dependency)
        self._acknowledge_sdk_handler()
        return rebuild

    def _acknowledge_sdk_handler(self) -> None:
        # AwsCustomResource runs one singleton function per stack, at the stack's root.
        acknowledge(
            stack_singleton(self, AWS_SDK_HANDLER_ID_PREFIX, "AwsCustomResource handler"),
            {
                BASIC_EXECUTION_POLICY: (
                    "CDK's AwsCustomResource handler writes only its own logs with the AWS "
                    "managed basic execution policy; its one grant invokes the indexer."
                ),
            },
        )
