"""Configuration of the webhook function, read once at cold start.

The tables have no default: a function deployed without them fails at cold start
instead of writing somewhere else. Each platform's secret is named by its ARN (deployed)
or given itself (``SHOPIFY_WEBHOOK_SECRET``, local only); a platform with neither has
its route answered 404.
"""

from __future__ import annotations

import functools
from typing import Annotated

from pydantic import BaseModel, ConfigDict, Field, SecretStr

from shared.config.environment import BlankIsUnset, environ


class Settings(BaseModel):
    model_config = ConfigDict(extra="ignore", frozen=True, populate_by_name=True)

    table_name: Annotated[str, Field(alias="CATALOG_TABLE_NAME", min_length=3)]
    sync_table_name: Annotated[str, Field(alias="SYNC_TABLE_NAME", min_length=3)]
    region: Annotated[str | None, Field(alias="AWS_REGION"), BlankIsUnset] = None
    store_url: Annotated[str | None, Field(alias="STORE_URL"), BlankIsUnset] = None
    """The store's address: the products' pages are on it."""
    shopify_secret_arn: Annotated[
        str | None, Field(alias="SHOPIFY_WEBHOOK_SECRET_ARN"), BlankIsUnset
    ] = None
    woocommerce_secret_arn: Annotated[
        str | None, Field(alias="WOOCOMMERCE_WEBHOOK_SECRET_ARN"), BlankIsUnset
    ] = None
    # Only for local development; deployed stacks name Secrets Manager secrets instead.
    shopify_secret: Annotated[
        SecretStr | None, Field(alias="SHOPIFY_WEBHOOK_SECRET"), BlankIsUnset
    ] = None
    woocommerce_secret: Annotated[
        SecretStr | None, Field(alias="WOOCOMMERCE_WEBHOOK_SECRET"), BlankIsUnset
    ] = None


@functools.cache
def get_settings() -> Settings:
    return Settings.model_validate(dict(environ()))
