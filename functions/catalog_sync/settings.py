"""Configuration of the sync function, read once at cold start (``infra/catalog_sync.py``
sets it from the environment's ``catalog_sync`` block in cdk.json).

Nothing has a default that could write somewhere else or read another store: a function
deployed without its table, platform, API address or secret fails at cold start.
"""

from __future__ import annotations

import functools
from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field

from shared.config.environment import BlankIsUnset, environ

Platform = Literal["shopify", "woocommerce"]


class Settings(BaseModel):
    model_config = ConfigDict(extra="ignore", frozen=True, populate_by_name=True)

    table_name: Annotated[str, Field(alias="CATALOG_TABLE_NAME", min_length=3)]
    platform: Annotated[Platform, Field(alias="SYNC_PLATFORM")]
    api_url: Annotated[str, Field(alias="SYNC_API_URL", pattern=r"^https?://[^\s/?#]+/?$")]
    """Shopify: ``https://SHOP.myshopify.com``; WooCommerce: the WordPress site."""
    secret_arn: Annotated[str, Field(alias="ADMIN_API_SECRET_ARN", min_length=20)]
    """Shopify: the Admin API access token; WooCommerce: ``consumer_key:consumer_secret``."""
    allow_shrink: Annotated[bool, Field(alias="ALLOW_SHRINK")] = False
    store_url: Annotated[str | None, Field(alias="STORE_URL"), BlankIsUnset] = None
    region: Annotated[str | None, Field(alias="AWS_REGION"), BlankIsUnset] = None


@functools.cache
def get_settings() -> Settings:
    return Settings.model_validate(dict(environ()))
