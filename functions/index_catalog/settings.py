"""Configuration of the catalog indexer, read once at cold start.

This is the only module of the indexer that reads the environment; everything else
receives a :class:`Settings`, so tests can build one directly. The bucket has no
default: an indexer deployed without it fails at cold start instead of writing
somewhere else.
"""

from __future__ import annotations

import functools
from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from shared.config.environment import environ
from shared.search.build import READ_FRESH

DEFAULT_PREFIX = "catalog-index/"
POINTER_NAME = "latest.json"


class Settings(BaseModel):
    model_config = ConfigDict(extra="ignore", frozen=True, populate_by_name=True)

    catalog_source: Annotated[Literal["dynamodb", "http"], Field(alias="CATALOG_SOURCE")] = (
        "dynamodb"
    )
    table_name: Annotated[str | None, Field(alias="CATALOG_TABLE_NAME", min_length=3)] = None
    products_api_url: Annotated[str | None, Field(alias="PRODUCTS_API_URL")] = None
    bucket: Annotated[str, Field(alias="CATALOG_INDEX_BUCKET", min_length=3, max_length=63)]
    prefix: Annotated[str, Field(alias="CATALOG_INDEX_PREFIX", pattern=r"^[A-Za-z0-9._-]+/$")] = (
        DEFAULT_PREFIX
    )
    pointer_key: Annotated[str, Field(alias="CATALOG_INDEX_POINTER_KEY")] = (
        DEFAULT_PREFIX + POINTER_NAME
    )
    # Lambda sets AWS_REGION; passed to the clients, since boto3 reads only os.environ.
    region: Annotated[str | None, Field(alias="AWS_REGION")] = None
    scan_segments: Annotated[int, Field(alias="INDEX_SCAN_SEGMENTS", ge=1, le=64)] = 4
    """Parallel Scan segments (and threads) reading the catalog table."""
    http_timeout_s: Annotated[float, Field(alias="INDEX_HTTP_TIMEOUT_S", gt=0, le=300)] = 30.0
    """The whole Products API read: a background job, not a shopper, is waiting."""

    @property
    def fresh_fields(self) -> tuple[str, ...]:
        """What the catalog tool reads fresh from this source, left out of the snapshot's
        digest: price and stock from the table; nothing from the Products API, which has
        no read by id (the tool shows the snapshot's values)."""
        return READ_FRESH if self.catalog_source == "dynamodb" else ()

    @model_validator(mode="after")
    def _source_is_configured(self) -> Settings:
        if self.catalog_source == "dynamodb" and not self.table_name:
            raise ValueError("CATALOG_SOURCE=dynamodb needs CATALOG_TABLE_NAME")
        if self.catalog_source == "http" and not self.products_api_url:
            raise ValueError("CATALOG_SOURCE=http needs PRODUCTS_API_URL")
        if self.pointer_key != self.prefix + POINTER_NAME:
            # publish_snapshot writes the pointer at <prefix>latest.json; the lookup
            # reads CATALOG_INDEX_POINTER_KEY: they must name the same object.
            raise ValueError(f"CATALOG_INDEX_POINTER_KEY must be {self.prefix + POINTER_NAME}")
        return self


@functools.cache
def get_settings() -> Settings:
    return Settings.model_validate(dict(environ()))
