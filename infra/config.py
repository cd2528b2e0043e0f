"""Per-environment configuration, read from ``cdk.json`` context and validated once.

``cdk.json`` holds ``{"storechat": {"defaults": {...}, "environments": {"dev": {...}, ...}}}``;
an environment's settings are its own block merged over ``defaults`` (nested blocks
merge key by key). Account and region come from ``CDK_DEFAULT_ACCOUNT`` /
``CDK_DEFAULT_REGION`` unless the environment pins them.

This module has no CDK imports, so the rules can be tested without a synth.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Mapping
from pathlib import Path
from typing import Annotated, Any, Literal
from urllib.parse import urlsplit

from pydantic import Field, ValidationError, field_validator, model_validator

import statemachine
from converse.settings import MAX_REPLY_TOKENS, MIN_REPLY_TOKENS
from infra import names
from infra.config_blocks import (
    Alarms,
    CatalogIndex,
    CatalogSync,
    ClientRateLimit,
    ConfigBlock,
    Guardrail,
    ModelBudget,
    Throttling,
    Webhooks,
)
from shared.api.page_policy import image_host
from shared.api.query import DEFAULT_MAX_MESSAGE_CHARS
from shared.config.pricing import PRICE_LIST_PATH, PriceListError, TokenPrices, token_prices
from shared.config.time_budget import API_LIMIT_S, FINISH_RESERVE_MS
from shared.products.currency import CURRENCIES, DEFAULT_CURRENCY
from shared.store.settings import StoreFile, StoreSettingsError, resolve

LOG_RETENTION_DAYS: tuple[int, ...] = (
    1,
    3,
    5,
    7,
    14,
    30,
    60,
    90,
    120,
    150,
    180,
    365,
    400,
    545,
    731,
    1096,
    1827,
    2192,
    2557,
    2922,
    3288,
    3653,
)
"""The values CloudWatch Logs accepts for a log group's retention."""

PROFILE_REGIONS: dict[str, tuple[str, ...]] = {
    "us.": ("us-",),
    "us-gov.": ("us-gov-",),
    "eu.": ("eu-",),
    "apac.": ("ap-",),
    "jp.": ("ap-northeast-1", "ap-northeast-3"),
    "au.": ("ap-southeast-2", "ap-southeast-4"),
    "ca.": ("ca-",),
    "global.": ("",),
}
"""Cross-Region inference profile prefixes, and the Regions each can be called from."""
INFERENCE_PROFILE_PREFIXES: tuple[str, ...] = tuple(PROFILE_REGIONS)

ASL_TIMEOUT_MS: int = int(json.loads(statemachine.read_definition())["TimeoutSeconds"]) * 1000

_REGION = r"^[a-z]{2}(-gov|-iso[a-z]*)?-[a-z]+-\d$"


class ConfigError(ValueError):
    """The configuration in cdk.json cannot be used; the message says what to fix."""


class UnknownEnvironmentError(ConfigError):
    pass


class EnvironmentConfig(ConfigBlock):
    name: Annotated[str, Field(pattern=r"^[a-z][a-z0-9-]{0,15}$")]
    account: Annotated[str | None, Field(pattern=r"^\d{12}$")] = None
    region: Annotated[str | None, Field(pattern=_REGION)] = None
    termination_protection: bool = False
    removal_policy: Literal["destroy", "retain"]

    # The model
    model_id: Annotated[str, Field(pattern=r"^[A-Za-z0-9][A-Za-z0-9._:/-]{2,200}$")]
    bedrock_region: Annotated[str | None, Field(pattern=_REGION)] = None
    """Where Converse is called; the stack's own region when unset."""
    max_tokens: Annotated[int, Field(ge=MIN_REPLY_TOKENS, le=MAX_REPLY_TOKENS)] = 1024
    prompt_caching: bool = False
    guardrail: Guardrail | None = None
    model_budget: ModelBudget

    # The loop
    search_first: bool = True
    """Run the catalog search on the shopper's words before the first model call and hand
    its result to the model when it serves (``SearchCatalogFirst``): a catalog question is
    then answered in one model call. ``false``: the model goes first."""
    tuning: dict[str, Annotated[int, Field(gt=0)]] = {}
    """Overrides of ``statemachine.TUNING_DEFAULTS`` (tool-round cap, deadline, ...)."""

    # Runtime and logs
    lambda_architecture: Literal["arm64", "x86_64"] = "arm64"
    """The Powertools layer is the build of the release pinned in pyproject.toml
    (``infra.runtime.powertools_version``), so it is not a setting."""
    log_level: Literal["DEBUG", "INFO", "WARNING", "ERROR"] = "INFO"
    log_retention_days: int
    """The Lambda log groups and the API access log."""
    conversation_log_retention_days: int | None = None
    """The state machine's execution log, which holds every turn's words. Unset, it is
    the longest retention CloudWatch offers that does not outlive a session
    (``tuning.SessionTtlSeconds``); it may be shorter, never longer."""

    # The store, its storefront and the widget
    store: StoreFile
    """cdk.json's ``store`` block (``shared.store.settings.Store``), its policies file read from
    the path it names, relative to cdk.json."""

    # The page
    image_hosts: list[str] = []
    """Where product pictures may come from (the page's CSP allows these and no others),
    e.g. ``https://cdn.shopify.com`` for a Shopify store's images."""

    # The API
    throttling: Throttling
    client_rate_limit: ClientRateLimit | None = None
    """``false`` (or unset): no WAF web ACL in front of the API, stage throttling only.
    (Not ``null``: CDK's context drops nulls, so a null could not override ``defaults``.)"""
    max_message_chars: Annotated[int, Field(ge=1, le=DEFAULT_MAX_MESSAGE_CHARS)] = (
        DEFAULT_MAX_MESSAGE_CHARS
    )

    # The catalog
    catalog_source: Literal["dynamodb", "http"] = "dynamodb"
    products_api_url: str | None = None
    store_currency: str = DEFAULT_CURRENCY
    """The currency of the catalog's prices (ISO 4217), in which answers are fact-checked."""
    store_weight_unit: Literal["kg", "lb"] = "kg"
    """The unit a shopper reads weights in (cards, the model's records, corrections):
    ``lb`` for a store that sells in pounds."""
    seed_sample: bool = False
    """Load the bundled sample catalog into the catalog table on deploy: for a demo or a
    developer's stack, never for a store's (it would sit beside the store's products)."""

    catalog_index: CatalogIndex = CatalogIndex()
    webhooks: Webhooks = Webhooks()
    catalog_sync: CatalogSync | None = None
    """The scheduled full pull; unset (or ``false``): no schedule, no function."""

    alarms: Alarms = Alarms()

    api_gateway_account_role: bool = True
    """Set the account's API Gateway logging role (``AWS::ApiGateway::Account``, one per
    account and Region, which API logging needs). Leave it on in exactly one stack of
    an account and Region, and off (``false``) in the others, which then use it:
    every stack that sets it replaces whatever the last one set."""

    @field_validator("log_retention_days", "conversation_log_retention_days")
    @classmethod
    def _known_retention(cls, value: int | None) -> int | None:
        if value is not None and value not in LOG_RETENTION_DAYS:
            raise ValueError(f"must be one of {list(LOG_RETENTION_DAYS)}")
        return value

    @field_validator("client_rate_limit", "catalog_sync", mode="before")
    @classmethod
    def _off(cls, value: Any) -> Any:
        return None if value is False else value

    @field_validator("tuning")
    @classmethod
    def _known_tuning(cls, value: dict[str, int]) -> dict[str, int]:
        unknown = set(value) - set(statemachine.TUNING_DEFAULTS)
        if unknown:
            raise ValueError(
                f"unknown keys {sorted(unknown)}; known: {sorted(statemachine.TUNING_DEFAULTS)}"
            )
        return value

    @field_validator("store", mode="before")
    @classmethod
    def _store(cls, value: Any) -> Any:
        if isinstance(value, Mapping):
            try:
                return resolve(value, names.ROOT, "store")
            except StoreSettingsError as exc:
                raise ValueError(str(exc).removeprefix("store:").strip()) from None
        return value

    @field_validator("store_currency")
    @classmethod
    def _known_currency(cls, value: str) -> str:
        if value not in CURRENCIES:
            raise ValueError(f"must be one of {', '.join(sorted(CURRENCIES))}")
        return value

    @field_validator("image_hosts")
    @classmethod
    def _image_hosts(cls, value: list[str]) -> list[str]:
        return [image_host(host) for host in value]

    @field_validator("products_api_url")
    @classmethod
    def _https_api(cls, value: str | None) -> str | None:
        if value is not None:
            parts = urlsplit(value)
            if parts.scheme != "https" or not parts.netloc:
                raise ValueError("must be an https:// URL")
        return value

    @model_validator(mode="after")
    def _consistent(self) -> EnvironmentConfig:
        if self.catalog_source == "http" and not self.products_api_url:
            raise ValueError("catalog_source 'http' needs products_api_url")
        if self.catalog_source == "dynamodb" and self.products_api_url:
            raise ValueError("products_api_url is only used with catalog_source 'http'")
        if self.catalog_sync is not None and self.catalog_source != "dynamodb":
            raise ValueError(
                "catalog_sync writes the catalog table: it needs catalog_source 'dynamodb' "
                "(with 'http', the store's Products API is the catalog)"
            )
        model_region = self.bedrock_region or self.region
        if self.uses_inference_profile and model_region:
            prefix = next(p for p in PROFILE_REGIONS if self.model_id.startswith(p))
            if not model_region.startswith(PROFILE_REGIONS[prefix]):
                raise ValueError(
                    f"model_id {self.model_id!r} is a {prefix.rstrip('.')} inference profile; "
                    f"it cannot be called from {model_region} (set bedrock_region)"
                )
        try:
            token_prices(self.model_id)
        except PriceListError as exc:
            raise ValueError(
                f"model_budget is priced from the model's list prices, and {exc}: add its "
                f"prices to {PRICE_LIST_PATH.relative_to(names.ROOT)}"
            ) from None
        tuning = self.state_machine_tuning
        deadline = tuning.get("DeadlineMs", 0)
        if deadline + FINISH_RESERVE_MS > ASL_TIMEOUT_MS:
            raise ValueError(
                f"tuning.DeadlineMs ({deadline}) must leave {FINISH_RESERVE_MS} ms "
                f"before the state machine's TimeoutSeconds ({ASL_TIMEOUT_MS} ms, below the "
                f"API's {API_LIMIT_S} s) to answer and save the turn"
            )
        for reserve in ("ConverseReserveMs", "ToolRoundReserveMs"):
            if reserve in tuning and tuning[reserve] >= deadline:
                raise ValueError(f"tuning.{reserve} ({tuning[reserve]}) must be below DeadlineMs")
        alarms = self.alarms
        if alarms.require_destination and not (alarms.emails or alarms.https_endpoints):
            raise ValueError(
                "alarms reach nobody: this environment requires an alarm destination; set "
                f"alarms.emails or alarms.https_endpoints in cdk.json, or pass "
                f"-c {names.CONTEXT_ALARM_EMAILS}=you@example.com"
            )
        if self.guardrail and self.guardrail.version == "DRAFT" and self.removal_policy == "retain":
            raise ValueError(
                "guardrail.version: a kept (retain) environment needs a numbered version; a "
                "DRAFT changes with every edit in the console, and the store's screening with it"
            )
        kept = self.conversation_log_retention_days
        if kept is not None and kept > max(self.session_ttl_days, LOG_RETENTION_DAYS[0]):
            raise ValueError(
                f"conversation_log_retention_days ({kept}) must not be longer than a session "
                f"lives (tuning.SessionTtlSeconds: {self.session_ttl_days} days): the execution "
                "log holds every turn's words"
            )
        return self

    @property
    def state_machine_tuning(self) -> dict[str, int]:
        """Every tuning placeholder's value: the defaults with this environment's overrides."""
        return {**statemachine.TUNING_DEFAULTS, **self.tuning}

    @property
    def session_ttl_days(self) -> int:
        """Whole days a session's turns live in the sessions table."""
        return self.state_machine_tuning["SessionTtlSeconds"] // 86_400

    @property
    def conversation_retention_days(self) -> int:
        """How long the execution log keeps conversations: at most as long as the sessions.

        CloudWatch Logs keeps nothing for less than a day, so a session shorter than
        that still has its turns kept for one day.
        """
        if self.conversation_log_retention_days is not None:
            return self.conversation_log_retention_days
        fitting = [days for days in LOG_RETENTION_DAYS if days <= self.session_ttl_days]
        return fitting[-1] if fitting else LOG_RETENTION_DAYS[0]

    @property
    def token_prices(self) -> TokenPrices:
        """The list prices of ``model_id``'s tokens (validated to exist)."""
        return token_prices(self.model_id)

    @property
    def stack_name(self) -> str:
        return names.stack_name(self.name)

    @property
    def metric_namespace(self) -> str:
        """Each environment's metrics (and so its alarms) stay apart, even in one account."""
        return f"{names.METRIC_NAMESPACE}/{self.name}"

    @property
    def uses_inference_profile(self) -> bool:
        return self.model_id.startswith(INFERENCE_PROFILE_PREFIXES)

    @property
    def foundation_model_id(self) -> str:
        """The model behind ``model_id``: an inference profile id without its geography prefix."""
        if self.uses_inference_profile:
            return self.model_id.split(".", 1)[1]
        return self.model_id


def _merge(base: Mapping[str, Any], override: Mapping[str, Any]) -> dict[str, Any]:
    merged = dict(base)
    for key, value in override.items():
        if isinstance(value, Mapping) and isinstance(merged.get(key), Mapping):
            merged[key] = _merge(merged[key], value)
        else:
            merged[key] = value
    return merged


def environment_names(context: Mapping[str, Any]) -> list[str]:
    block = context.get(names.CONTEXT_CONFIG) or {}
    return sorted((block.get("environments") or {}).keys())


def read_cdk_json_context(path: Path = names.CDK_JSON) -> dict[str, Any]:
    """The ``context`` block of cdk.json (feature flags, the default env, storechat's settings)."""
    context: dict[str, Any] = json.loads(path.read_text(encoding="utf-8")).get("context", {})
    return context


def load_config(
    context: Mapping[str, Any],
    env_name: str | None,
    environ: Mapping[str, str] | None = None,
) -> EnvironmentConfig:
    """The validated configuration of ``env_name``, or a :class:`ConfigError` saying why not."""
    environ = os.environ if environ is None else environ
    block = context.get(names.CONTEXT_CONFIG)
    if isinstance(block, str):  # `-c storechat=...` on the command line arrives as a string
        block = json.loads(block)
    if not isinstance(block, Mapping) or not isinstance(block.get("environments"), Mapping):
        raise ConfigError(
            f'cdk.json context has no "{names.CONTEXT_CONFIG}": '
            '{"defaults": {...}, "environments": {...}} block'
        )
    known = sorted(block["environments"])
    if not env_name:
        raise UnknownEnvironmentError(
            f"no environment chosen: pass -c {names.CONTEXT_ENV}=NAME, one of {', '.join(known)}"
        )
    if env_name not in block["environments"]:
        raise UnknownEnvironmentError(
            f"unknown environment {env_name!r}: cdk.json defines {', '.join(known)} "
            f"(context {names.CONTEXT_CONFIG}.environments)"
        )
    values = _merge(block.get("defaults") or {}, block["environments"][env_name])
    emails = context.get(names.CONTEXT_ALARM_EMAILS)
    if emails:
        # From the command line: added to the addresses cdk.json lists.
        alarms = dict(values.get("alarms") or {})
        listed = [*alarms.get("emails", []), *(e.strip() for e in str(emails).split(","))]
        alarms["emails"] = list(dict.fromkeys(e for e in listed if e))
        values["alarms"] = alarms
    values["name"] = env_name
    values.setdefault("account", environ.get("CDK_DEFAULT_ACCOUNT") or None)
    values.setdefault("region", environ.get("CDK_DEFAULT_REGION") or None)
    try:
        return EnvironmentConfig.model_validate(values)
    except ValidationError as exc:
        problems = "\n".join(
            f"  {'.'.join(str(p) for p in err['loc']) or '(environment)'}: "
            f"{re.sub(r'^Value error, ', '', err['msg'])}"
            for err in exc.errors()
        )
        raise ConfigError(
            f"cdk.json context {names.CONTEXT_CONFIG}.environments.{env_name} is invalid:\n"
            f"{problems}"
        ) from None
