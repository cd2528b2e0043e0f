"""The Lambdas the loop calls, one for each entry of ``registry.FUNCTIONS``.

Each gets exactly the permissions its code uses. Names, handlers, timeouts and
memory come from the registry, as the local runner's do.
"""

from __future__ import annotations

from aws_cdk import Aws, SecretValue, Stack
from aws_cdk import aws_dynamodb as dynamodb
from aws_cdk import aws_iam as iam
from aws_cdk import aws_lambda as lambda_
from aws_cdk import aws_secretsmanager as secretsmanager
from constructs import Construct

import registry
from infra.catalog_settings import catalog_environment
from infra.config import EnvironmentConfig
from infra.nag import acknowledge
from infra.runtime import LambdaFactory, removal_policy
from infra.search import CatalogSearch
from infra.store import FUNCTIONS as STORE_FUNCTIONS
from infra.store import environment as store_environment
from infra.store import store_layer
from infra.trace import LiveTrace


def guardrail_environment(config: EnvironmentConfig, stack_region: str) -> dict[str, str]:
    """What shared/tools/guardrail.py's settings read: the guardrail and the Region it is in."""
    if config.guardrail is None:
        return {}
    return {
        "BEDROCK_GUARDRAIL_ID": config.guardrail.id,
        "BEDROCK_GUARDRAIL_VERSION": config.guardrail.version,
        "BEDROCK_REGION": config.bedrock_region or stack_region,
    }


def converse_environment(config: EnvironmentConfig, stack_region: str) -> dict[str, str]:
    """What converse/settings.py reads."""
    return {
        "MODEL_PROVIDER": "bedrock",
        "MODEL_ID": config.model_id,
        "BEDROCK_REGION": config.bedrock_region or stack_region,
        "MAX_TOKENS": str(config.max_tokens),
        "PROMPT_CACHING": "true" if config.prompt_caching else "false",
        # The catalog tool's price fields name it to the model.
        "STORE_CURRENCY": config.store_currency,
        **guardrail_environment(config, stack_region),
    }


WEB_TOOL_KEYS = frozenset(tool.function.key for tool in registry.TOOLS if tool.quotes_the_web)
"""The functions whose results quote the web: the environment's guardrail screens them."""


class Tools(Construct):
    """The loop's Lambdas, by key (``converse``, ``lookup_inventory``, ...), and the Brave key."""

    def __init__(
        self,
        scope: Construct,
        id: str,
        *,
        config: EnvironmentConfig,
        lambdas: LambdaFactory,
        catalog: dynamodb.ITable | None,
        search: CatalogSearch,
        trace: LiveTrace,
    ) -> None:
        super().__init__(scope, id)
        # The key itself is set after deploy (docs/deploy.md) and never reaches the
        # template or an environment variable. A blank value is what the reviews tool
        # reads as "not configured" (get_computer_reviews/keys.py), so until the key is
        # set the tool says so instead of calling Brave with a made-up key.
        self.brave_secret = secretsmanager.Secret(
            self,
            "BraveApiKey",
            description=(
                f"Brave Search API key for {config.stack_name}'s get_computer_reviews tool "
                "(plain text; blank means not configured)"
            ),
            secret_string_value=SecretValue.unsafe_plain_text(" "),
            removal_policy=removal_policy(config),
        )
        acknowledge(
            self.brave_secret,
            {
                "AwsSolutions-SMG4": (
                    "A third-party API key issued by Brave: it can only be rotated in Brave's "
                    "dashboard, then stored with put-secret-value (docs/deploy.md)."
                )
            },
        )

        # Every function in the registry, with what only some of them need.
        region = Stack.of(self).region
        environments: dict[str, dict[str, str]] = {
            "converse": converse_environment(config, region),
            "lookup_inventory": {
                **catalog_environment(
                    config,
                    catalog.table_name if catalog is not None else None,
                    search.bucket.bucket_name,
                ),
                # Weights reach the model rounded, in the store's unit; an amount said in
                # another currency than the store's is flagged to it.
                "STORE_WEIGHT_UNIT": config.store_weight_unit,
                "STORE_CURRENCY": config.store_currency,
            },
            "get_computer_reviews": {"BRAVE_API_KEY_SECRET_ARN": self.brave_secret.secret_arn},
            "compose_response": {
                "STORE_CURRENCY": config.store_currency,
                "STORE_WEIGHT_UNIT": config.store_weight_unit,
                **({"CATALOG_TABLE_NAME": catalog.table_name} if catalog is not None else {}),
            },
        }
        for key in WEB_TOOL_KEYS:
            environments[key] = {
                **environments.get(key, {}),
                **guardrail_environment(config, region),
            }
        # The catalog tool searches the snapshots: it needs SQLite with FTS5. The
        # functions that speak for the store read its settings from a layer.
        layers: dict[str, list[lambda_.ILayerVersion]] = {
            "lookup_inventory": [lambdas.search_layer],
        }
        self.store_layer = store_layer(self, "StoreSettings", config)
        for key in STORE_FUNCTIONS:
            layers.setdefault(key, []).append(self.store_layer)
            environments.setdefault(key, {}).update(store_environment())
        self.functions: dict[str, lambda_.Function] = {
            function.key: lambdas.declared(
                self,
                function,
                # Every function the loop calls writes its steps of the live trace.
                environment={**environments.get(function.key, {}), **trace.environment},
                layers=layers.get(function.key, ()),
            )
            for function in registry.FUNCTIONS
        }
        for function in self.functions.values():
            trace.grant_write(function)

        self._grant_model(self.functions["converse"], config)
        for key in ("converse", *sorted(WEB_TOOL_KEYS)):
            self._grant_guardrail(self.functions[key], config)
        lookup = self.functions["lookup_inventory"]
        # Search runs on the snapshot; the table is read only by key, for the current
        # price and stock of the products found (shared/products/catalog_table.py): no
        # Query, no Scan, no writes.
        search.grant_read_snapshots(lookup)
        if catalog is not None:
            lookup.add_to_role_policy(
                iam.PolicyStatement(
                    actions=["dynamodb:BatchGetItem"], resources=[catalog.table_arn]
                )
            )
        self.brave_secret.grant_read(self.functions["get_computer_reviews"])
        if catalog is not None:
            # Products an answer cites from earlier turns, read fresh by key
            # (compose_response/earlier.py).
            self.functions["compose_response"].add_to_role_policy(
                iam.PolicyStatement(
                    actions=["dynamodb:BatchGetItem"], resources=[catalog.table_arn]
                )
            )

    @staticmethod
    def _grant_guardrail(function: lambda_.Function, config: EnvironmentConfig) -> None:
        """``bedrock:ApplyGuardrail`` on the environment's guardrail, and nothing else:
        Converse applies it with that permission, the web tools call it themselves."""
        if config.guardrail is None:
            return
        stack = Stack.of(function)
        region = config.bedrock_region or stack.region
        function.add_to_role_policy(
            iam.PolicyStatement(
                actions=["bedrock:ApplyGuardrail"],
                resources=[
                    f"arn:{Aws.PARTITION}:bedrock:{region}:{stack.account}:guardrail/"
                    f"{config.guardrail.id}"
                ],
            )
        )

    @staticmethod
    def _grant_model(function: lambda_.Function, config: EnvironmentConfig) -> None:
        stack = Stack.of(function)
        region = config.bedrock_region or stack.region
        partition = Aws.PARTITION
        if config.uses_inference_profile:
            # A cross-Region profile needs the profile itself and the model in each
            # Region it may route to, which the profile decides at request time.
            resources = [
                f"arn:{partition}:bedrock:{region}:{stack.account}:inference-profile/"
                f"{config.model_id}",
                f"arn:{partition}:bedrock:*::foundation-model/{config.foundation_model_id}",
            ]
        else:
            resources = [f"arn:{partition}:bedrock:{region}::foundation-model/{config.model_id}"]
        # Converse and ConverseStream are authorised by bedrock:InvokeModel.
        function.add_to_role_policy(
            iam.PolicyStatement(actions=["bedrock:InvokeModel"], resources=resources)
        )
        if config.uses_inference_profile:
            acknowledge(
                function,
                {
                    "AwsSolutions-IAM5[Resource::arn:<AWS::Partition>:bedrock:*::foundation-model/"
                    f"{config.foundation_model_id}]": (
                        "A cross-Region inference profile routes each request to one of its "
                        "Regions; the grant names the one model, in any Region."
                    )
                },
            )
