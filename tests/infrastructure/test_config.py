"""cdk.json settings: what each environment may say, and what is refused (no synth here)."""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import pytest

from infra import names
from infra.config import (
    ConfigError,
    EnvironmentConfig,
    UnknownEnvironmentError,
    load_config,
    read_cdk_json_context,
)
from tests.infrastructure.conftest import SYNTH_CONTEXT

REGION = {"CDK_DEFAULT_REGION": "us-east-1"}


def _context(env: str = "dev", **changes: Any) -> dict[str, Any]:
    context = {**copy.deepcopy(read_cdk_json_context()), **SYNTH_CONTEXT.get(env, {})}
    context[names.CONTEXT_CONFIG]["environments"][env].update(changes)
    return context


def _load(
    env: str = "dev", environ: dict[str, str] | None = None, **changes: Any
) -> EnvironmentConfig:
    return load_config(_context(env, **changes), env, REGION if environ is None else environ)


def test_cdk_json_defines_dev_and_prod() -> None:
    dev, prod = _load("dev"), _load("prod")
    assert dev.removal_policy == "destroy" and prod.removal_policy == "retain"
    assert prod.termination_protection is True
    assert read_cdk_json_context()[names.CONTEXT_ENV] == "dev"


def test_an_environment_merges_over_the_defaults_key_by_key() -> None:
    prod = _load("prod")
    defaults = read_cdk_json_context()[names.CONTEXT_CONFIG]["defaults"]
    assert prod.alarms.evaluation_periods == 2
    assert prod.alarms.fallback_rate_percent == defaults["alarms"]["fallback_rate_percent"]
    assert prod.lambda_architecture == defaults["lambda_architecture"]


def test_account_and_region_come_from_the_cdk_cli() -> None:
    cli = {"CDK_DEFAULT_ACCOUNT": "210987654321", "CDK_DEFAULT_REGION": "us-west-2"}
    config = _load(environ=cli)
    assert (config.account, config.region) == ("210987654321", "us-west-2")
    agnostic = _load(environ={})
    assert (agnostic.account, agnostic.region) == (None, None)


@pytest.mark.parametrize("env", ["staging", "Prod", ""])
def test_an_unknown_environment_names_the_known_ones(env: str) -> None:
    with pytest.raises(UnknownEnvironmentError) as caught:
        load_config(read_cdk_json_context(), env, REGION)
    assert "dev, prod" in str(caught.value)


@pytest.mark.parametrize(
    ("changes", "complaint"),
    [
        ({"tuning": {"MaxRounds": 3}}, "unknown keys ['MaxRounds']"),
        ({"tuning": {"DeadlineMs": 25_001}}, "DeadlineMs (25001) must leave 3000 ms"),
        ({"tuning": {"ConverseReserveMs": 30_000}}, "ConverseReserveMs"),
        ({"log_retention_days": 10}, "log_retention_days"),
        ({"conversation_log_retention_days": 10}, "conversation_log_retention_days"),
        ({"conversation_log_retention_days": 14}, "must not be longer than a session"),
        ({"powertools_layer_version": 27}, "powertools_layer_version"),
        ({"catalog_source": "http"}, "needs products_api_url"),
        ({"products_api_url": "https://products.example.com"}, "only used with"),
        ({"store": {"allowedOrigins": ["https://shop.example.com/shop"]}}, "is not an origin"),
        ({"store": {"allowedOrigins": ["*"]}}, "is not a web address"),
        (
            {"store": {"allowedOrigins": ["http://shop.example.com"]}},
            "only this machine (localhost) may use http",
        ),
        ({"store": {"platform": "custom"}}, "platform 'custom' needs cartUrlTemplate"),
        ({"store": {"policies": "store/no-such-file.md"}}, "policies: cannot read"),
        ({"store": {"domain": {"name": "chat.shop.example.com"}}}, "certificateArn"),
        ({"cors_origins": ["https://shop.example.com"]}, "cors_origins"),
        ({"max_message_chars": 5000}, "max_message_chars"),
        ({"store_currency": "EURO"}, "store_currency"),
        ({"store_weight_unit": "stone"}, "store_weight_unit"),
        ({"seed_sample": "sometimes"}, "seed_sample"),
        ({"search_first": "sometimes"}, "search_first"),
        ({"lambda_architecture": "arm"}, "lambda_architecture"),
        ({"catalog_index": {"rebuild_every_minutes": 0}}, "catalog_index.rebuild_every_minutes"),
        ({"catalog_index": {"rebuild_every_minutes": 481}}, "catalog_index.rebuild_every_minutes"),
        ({"catalog_index": {"batching_window_seconds": 301}}, "batching_window_seconds"),
        ({"catalog_index": {"keep_old_versions_days": 0}}, "keep_old_versions_days"),
        ({"catalog_index": {"batch": 10}}, "catalog_index.batch"),
        ({"alarms": {"index_iterator_age_minutes": 0}}, "alarms.index_iterator_age_minutes"),
        ({"guardrail": {"id": "abc123", "version": "latest"}}, "guardrail.version"),
        ({"model_id": "eu.anthropic.claude-sonnet-4-5-20250929-v1:0"}, "cannot be called from"),
        ({"surprise": True}, "surprise"),
    ],
)
def test_invalid_settings_are_refused_with_the_reason(
    changes: dict[str, Any], complaint: str
) -> None:
    with pytest.raises(ConfigError) as caught:
        _load("dev", **changes)
    message = str(caught.value)
    assert "storechat.environments.dev is invalid" in message
    assert complaint in message


@pytest.mark.parametrize("env", ["dev", "prod"])
def test_the_conversation_log_outlives_no_session_by_default(env: str) -> None:
    config = _load(env)
    assert config.session_ttl_days == 7
    assert config.conversation_retention_days == 7
    assert config.conversation_retention_days <= config.log_retention_days


@pytest.mark.parametrize(
    ("ttl_days", "setting", "kept"),
    [
        (30, None, 30),
        (10, None, 7),
        (2, None, 1),
        (7, 3, 3),
        (7, 1, 1),
        (400, 365, 365),
    ],
)
def test_the_conversation_log_retention_follows_the_session_ttl(
    ttl_days: int, setting: int | None, kept: int
) -> None:
    changes: dict[str, Any] = {"tuning": {"SessionTtlSeconds": ttl_days * 86_400}}
    if setting is not None:
        changes["conversation_log_retention_days"] = setting
    assert _load("dev", **changes).conversation_retention_days == kept


def test_sessions_shorter_than_a_day_keep_their_log_the_shortest_cloudwatch_allows() -> None:
    config = _load("dev", tuning={"SessionTtlSeconds": 3600})
    assert config.conversation_retention_days == 1


def test_a_model_in_another_region_is_allowed_with_bedrock_region() -> None:
    config = _load(
        "dev",
        model_id="eu.anthropic.claude-sonnet-4-5-20250929-v1:0",
        bedrock_region="eu-west-1",
    )
    assert config.uses_inference_profile
    assert config.foundation_model_id == "anthropic.claude-sonnet-4-5-20250929-v1:0"


def test_the_http_catalog_and_a_guardrail_are_accepted() -> None:
    config = _load(
        "dev",
        catalog_source="http",
        products_api_url="https://shop.example.com/api",
        guardrail={"id": "abc123", "version": "3"},
        catalog_sync=False,  # (it writes the catalog table, which http has none of)
    )
    assert config.catalog_source == "http"
    assert config.guardrail is not None and config.guardrail.version == "3"


def test_the_http_catalog_stack_has_no_catalog_table(tmp_path: Path) -> None:
    # Given dev configured to read the store's Products API instead of a table
    from aws_cdk import Stack

    from infra.app import create_app
    from infra.catalog_settings import catalog_environment

    context = _context(
        "dev",
        catalog_source="http",
        products_api_url="https://shop.example.com/api",
        catalog_sync=False,
    )

    # When the stack is built (no synth: the construct tree is enough here)
    _, stack = create_app(
        overrides={names.CONTEXT_CONFIG: context[names.CONTEXT_CONFIG]},
        outdir=str(tmp_path),
        environ=REGION,
    )

    # Then there is no catalog table and no seeding, and the tool is pointed at the API
    assert stack.data.catalog is None
    assert stack.data.node.try_find_child("CatalogSeed") is None
    lookup = stack.tools.functions["lookup_inventory"]
    assert catalog_environment(stack.config, None, "index-bucket") == {
        "CATALOG_SOURCE": "http",
        "CATALOG_INDEX_BUCKET": "index-bucket",
        "CATALOG_INDEX_POINTER_KEY": names.CATALOG_INDEX_POINTER_KEY,
        "PRODUCTS_API_URL": "https://shop.example.com/api",
    }
    policy = lookup.role.node.try_find_child("DefaultPolicy")
    statements = Stack.of(lookup).resolve(policy.document)["Statement"]
    actions = {
        action
        for statement in statements
        for action in (
            [statement["Action"]] if isinstance(statement["Action"], str) else statement["Action"]
        )
    }
    # (the snapshots are read from S3, and there is no table to read prices from; it
    # writes its live-trace steps, as every function the loop calls does)
    assert actions == {
        "xray:PutTraceSegments",
        "xray:PutTelemetryRecords",
        "s3:GetObject",
        "s3:ListBucket",
        "dynamodb:PutItem",
    }
    # And the indexer reads the API on a schedule instead of a stream
    assert stack.search.stream_mapping is None and stack.search.schedule is not None


def test_image_hosts_are_origins_and_https_except_on_this_machine() -> None:
    # Given cdk.json's image hosts, When an environment is loaded, Then each is an origin
    # the page's CSP can name; a path, or http to a remote host, is refused.
    assert _load("dev").image_hosts == ["https://cdn.shopify.com"]
    assert _load(image_hosts=["https://*.example.com/"]).image_hosts == ["https://*.example.com"]
    with pytest.raises(ConfigError, match=r"image_hosts: .*only this machine"):
        _load(image_hosts=["http://cdn.example.com"])
    with pytest.raises(ConfigError, match=r"image_hosts: .*is not an origin"):
        _load(image_hosts=["https://cdn.example.com/images"])


def test_only_an_environment_that_asks_for_it_is_seeded_with_the_sample() -> None:
    # The sample would sit beside a store's own products: off unless an environment
    # says so, as dev does for a demo
    assert EnvironmentConfig.model_fields["seed_sample"].default is False
    assert _load("dev").seed_sample is True
    assert _load("prod").seed_sample is False
    assert _load("prod").store_weight_unit == "kg"


def test_search_first_is_on_in_every_environment_unless_one_turns_it_off() -> None:
    # Most questions are catalog questions: the search on the shopper's words goes first
    assert read_cdk_json_context()[names.CONTEXT_CONFIG]["defaults"]["search_first"] is True
    assert _load("dev").search_first is True and _load("prod").search_first is True
    assert _load("prod", search_first=False).search_first is False


_SYNC = {"platform": "shopify", "api_url": "https://example.myshopify.com"}


def test_a_catalog_sync_block_is_read_with_its_defaults_and_false_turns_it_off() -> None:
    # Given a catalog_sync block naming only the platform and its API
    config = _load(catalog_sync=_SYNC)
    # Then it runs daily, enabled, and the shrink guard holds
    assert config.catalog_sync is not None
    assert (config.catalog_sync.schedule, config.catalog_sync.enabled) == ("rate(1 day)", True)
    assert config.catalog_sync.allow_shrink is False
    # And false (which can override defaults, unlike null) means no sync
    assert _load(catalog_sync=False).catalog_sync is None
    assert _load("prod").catalog_sync is None


@pytest.mark.parametrize(
    ("changes", "said"),
    [
        ({"schedule": "rate(5 minutes)"}, "more often than hourly"),
        ({"schedule": "rate(1 days)"}, "write rate(1 day)"),
        ({"schedule": "every night"}, "is not an EventBridge schedule"),
        ({"schedule": "cron(0 3 * * *)"}, "is not an EventBridge schedule"),
        ({"platform": "magento"}, "catalog_sync.platform"),
        ({"api_url": "http://example.myshopify.com"}, "catalog_sync.api_url"),
        ({"token": "shpat_123"}, "catalog_sync.token: Extra inputs are not permitted"),
    ],
)
def test_a_catalog_sync_block_that_cannot_run_is_refused_with_the_reason(
    changes: dict[str, Any], said: str
) -> None:
    # A token in cdk.json is refused like any unknown key: it belongs in Secrets Manager
    with pytest.raises(ConfigError, match="invalid") as raised:
        _load(catalog_sync={**_SYNC, **changes})
    assert said in str(raised.value)


def test_a_catalog_sync_needs_the_catalog_table() -> None:
    with pytest.raises(ConfigError) as raised:
        _load(
            catalog_sync=_SYNC,
            catalog_source="http",
            products_api_url="https://api.example.com/products",
        )
    assert "catalog_sync writes the catalog table" in str(raised.value)
