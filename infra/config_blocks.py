"""The nested blocks of an environment's configuration (``infra/config.py``), each a
frozen model that refuses keys it does not know. No CDK imports here either."""

from __future__ import annotations

import re
from typing import Annotated, Literal
from urllib.parse import urlsplit

from pydantic import AfterValidator, BaseModel, ConfigDict, Field

from shared.tools.guardrail import GUARDRAIL_ID_PATTERN, GUARDRAIL_VERSION_PATTERN


class ConfigBlock(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class Throttling(ConfigBlock):
    rate_limit: Annotated[float, Field(gt=0, description="steady-state requests per second")]
    burst_limit: Annotated[int, Field(ge=1)]


class ClientRateLimit(ConfigBlock):
    """The edge's limit per client: a WAF rate-based rule, per source IP address."""

    requests: Annotated[int, Field(ge=10, le=2_000_000_000)]
    """POSTs to the API one IP address may make in ``window_seconds``; past it, WAF
    answers 429 ``rate_limited`` until the address slows down (10 is WAF's minimum)."""
    window_seconds: Literal[60, 120, 300, 600] = 300
    """WAF's evaluation windows."""


class ModelBudget(ConfigBlock):
    """The most the environment may spend on model tokens in a day (UTC), in US dollars."""

    daily_usd: Annotated[float, Field(gt=0, le=1_000_000, allow_inf_nan=False)]
    """Priced from the model's list prices (``shared.config.pricing``); once the day's spend
    reaches it, questions are answered from a catalog search without a model call."""
    alarm_percent: Annotated[float, Field(gt=0, le=100)] = 80
    """The ``ModelBudget`` alarm fires when the last 24 hours' model spend reaches this
    share of ``daily_usd``."""


class Guardrail(ConfigBlock):
    """A Bedrock guardrail (made in the Bedrock console, in ``bedrock_region``): Converse
    applies it to the shopper's messages and the model's replies, and the web tools
    screen the reviews and book facts they found with it (``shared/tools/guardrail.py``)."""

    id: Annotated[str, Field(pattern=GUARDRAIL_ID_PATTERN)]
    version: Annotated[str, Field(pattern=GUARDRAIL_VERSION_PATTERN)] = "DRAFT"


def _https_endpoint(url: str) -> str:
    parts = urlsplit(url)
    if parts.scheme != "https" or not parts.hostname:
        raise ValueError(f"{url!r} is not an https:// URL")
    return url


class Alarms(ConfigBlock):
    tool_error_rate_percent: Annotated[float, Field(gt=0, le=100)] = 20
    fallback_rate_percent: Annotated[float, Field(gt=0, le=100)] = 25
    model_throttles: Annotated[int, Field(ge=1)] = 10
    """Converse calls throttled by Bedrock in 5 minutes (after the state machine's retries)."""
    fact_corrections: Annotated[int, Field(ge=1)] = 10
    """Facts in answers that the catalog contradicted (corrected or removed) in one period."""
    live_trace_errors: Annotated[int, Field(ge=1)] = 20
    """Live-trace steps not written, or reads of them that failed, in one period."""
    period_minutes: Annotated[int, Field(ge=1, le=60)] = 5
    evaluation_periods: Annotated[int, Field(ge=1, le=24)] = 1
    failed_executions_burst: Annotated[int, Field(ge=1)] = 5
    """Failed executions within one period that alarm at once: with ``evaluation_periods``
    above 1, ``ExecutionsFailed`` waits for that many periods, and a burst would pass."""
    emails: list[Annotated[str, Field(pattern=r"^[^@\s]+@[^@\s]+\.[^@\s]+$")]] = []
    """Addresses subscribed to the alarm topic (each confirms once, from the e-mail)."""
    https_endpoints: list[Annotated[str, AfterValidator(_https_endpoint)]] = []
    """HTTPS endpoints that take SNS notifications (an incident tool's or a chat
    integration's SNS URL), subscribed to the alarm topic."""
    require_destination: bool = False
    """An environment that must not be deployed with alarms that reach nobody: synth
    stops unless ``emails`` or ``https_endpoints`` names someone."""
    index_iterator_age_minutes: Annotated[int, Field(ge=1, le=1440)] = 15
    """How far the catalog indexer may fall behind the table's stream before it alarms."""


class CatalogIndex(ConfigBlock):
    """The catalog's search snapshot: when it is rebuilt and how long old ones are kept."""

    rebuild_every_minutes: Annotated[int, Field(ge=1, le=480)] = 15
    """With ``catalog_source: http``, the Products API is indexed on this schedule (it
    has no change stream). The staleness alarm allows three missed runs, and a
    CloudWatch alarm looks back one day at most: hence 480."""
    batching_window_seconds: Annotated[int, Field(ge=0, le=300)] = 30
    """With ``catalog_source: dynamodb``, how long the stream gathers changes before one
    rebuild: every rebuild reads the whole table, so this bounds how often that
    happens under a steady stream of writes (300 s is Lambda's maximum)."""
    retry_attempts: Annotated[int, Field(ge=0, le=100)] = 3
    """Retries of a failed rebuild for one stream batch before it goes to the failure
    queue (a later successful rebuild still includes its changes)."""
    keep_old_versions_days: Annotated[int, Field(ge=1, le=365)] = 3
    """How long a superseded snapshot and old pointers stay restorable in the bucket."""
    reserved_concurrency: Annotated[int | None, Field(ge=1, le=1000)] = None
    """Unset: the indexer takes no reserved concurrency, since an account still at the
    new-account limit of 10 concurrent executions cannot reserve any and the first
    deploy would fail. Set 1 once the account's limit is raised (Service Quotas): two
    rebuilds then never overlap. Without it two may, rarely (a deploy's rebuild during
    a stream batch); the one that finishes last publishes, and both read the whole
    catalog, so the index is at most one batch behind until the next change."""


class Webhooks(ConfigBlock):
    """The platforms' product webhooks (``POST /webhooks/shopify``, ``/webhooks/woocommerce``),
    with ``catalog_source: dynamodb``: their function writes the catalog table."""

    enabled: bool = True
    store_url: Annotated[str | None, Field(pattern=r"^https?://[^\s/?#]+/?$")] = None
    """The store's address (``https://shop.example.com``): the products' pages are on it.
    Shopify's payload names a product's handle, not the shop's public domain."""
    throttling: Throttling = Throttling(rate_limit=10, burst_limit=20)
    """The routes' own throttle: a bulk edit in the store's admin sends a delivery per
    product, and the platforms retry what is throttled."""


_RATE = re.compile(r"rate\((\d+) (minute|minutes|hour|hours|day|days)\)")
_CRON = re.compile(r"cron\(\S+( \S+){5}\)")
SHORTEST_SYNC_MINUTES = 60
"""A pull may take up to the function's 15 minutes and reads the whole catalog: hourly at
most, so runs never overlap and the platform's API limits are left to the store's apps."""


def _schedule(expression: str) -> str:
    rate = _RATE.fullmatch(expression)
    if rate:
        count = int(rate[1])
        minutes = count * {"minute": 1, "hour": 60, "day": 1440}[rate[2].removesuffix("s")]
        if count < 1 or (count == 1) != (not rate[2].endswith("s")):
            raise ValueError(f"{expression!r}: write rate(1 day), rate(6 hours), ...")
        if minutes < SHORTEST_SYNC_MINUTES:
            raise ValueError(
                f"{expression!r} is more often than hourly: a pull reads the whole catalog and "
                "may take up to 15 minutes (webhooks carry each change as it happens)"
            )
        return expression
    if _CRON.fullmatch(expression):
        return expression
    raise ValueError(
        f"{expression!r} is not an EventBridge schedule: rate(1 day), rate(6 hours) or "
        "cron(0 3 * * ? *) (six fields, UTC)"
    )


class CatalogSync(ConfigBlock):
    """The scheduled full pull from the store platform's Admin API into the catalog table
    (``functions/catalog_sync``), with ``catalog_source: dynamodb``. Its token is a
    Secrets Manager secret the stack creates blank (docs/catalog.md, "Connect your store")."""

    platform: Literal["shopify", "woocommerce"]
    api_url: Annotated[str, Field(pattern=r"^https://[^\s/?#]+/?$")]
    """Shopify: the shop's admin address, ``https://SHOP.myshopify.com``; WooCommerce: the
    WordPress site (``https://shop.example.com``)."""
    schedule: Annotated[str, AfterValidator(_schedule)] = "rate(1 day)"
    """When it runs (EventBridge, UTC): ``rate(1 day)``, ``cron(0 3 * * ? *)``."""
    enabled: bool = True
    """``false`` deploys the function and its secret with the schedule off: put the token,
    try a dry run (``{"dryRun": true}``), then turn it on."""
    allow_shrink: bool = False
    """Let a pull delete more than half of the store's products (the shrink guard)."""
    store_url: Annotated[str | None, Field(pattern=r"^https?://[^\s/?#]+/?$")] = None
    """The store's address, which products' pages are on: ``webhooks.store_url``, else
    ``store.url``, when unset."""
