"""Configuration of the catalog tool, read once at cold start."""

from __future__ import annotations

import functools
from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field

from lookup_inventory.schema import DEFAULT_PAGE
from shared.config.environment import environ
from shared.products.currency import DEFAULT_CURRENCY, StoreCurrency
from shared.products.weight import DEFAULT_WEIGHT_UNIT, StoreWeightUnit


class Settings(BaseModel):
    model_config = ConfigDict(extra="ignore", populate_by_name=True)

    catalog_source: Annotated[Literal["dynamodb", "http"], Field(alias="CATALOG_SOURCE")] = (
        "dynamodb"
    )
    table_name: Annotated[str, Field(alias="CATALOG_TABLE_NAME")] = "storechat-catalog"
    # Lambda sets AWS_REGION; passed to the client, since boto3 reads only os.environ.
    region: Annotated[str | None, Field(alias="AWS_REGION")] = None
    products_api_url: Annotated[str | None, Field(alias="PRODUCTS_API_URL")] = None
    cache_ttl_s: Annotated[float, Field(alias="CATALOG_CACHE_TTL_S", ge=0)] = 30.0
    cache_max_entries: Annotated[int, Field(alias="CATALOG_CACHE_MAX_ENTRIES", ge=1)] = 8
    # Products held over all cached reads, so a huge catalog cannot grow a warm
    # container's memory without bound: about 80 MB at the default (synthetic
    # products take ~1.3 KB each as Python objects). A single read larger than this
    # is answered from the table on every call and never kept.
    cache_max_items: Annotated[int, Field(alias="CATALOG_CACHE_MAX_ITEMS", ge=1)] = 60_000
    # The page shown when the model asks for no other (schema.DEFAULT_PAGE says why four).
    max_results: Annotated[int, Field(alias="CATALOG_MAX_RESULTS", ge=1, le=25)] = DEFAULT_PAGE
    http_timeout_s: Annotated[float, Field(alias="TOOL_HTTP_TIMEOUT_S", gt=0)] = 4.0
    # The search snapshot the indexer publishes (shared/search/publish.py). Without a
    # bucket the tool answers "catalog unavailable": it never searches anything else.
    index_bucket: Annotated[str | None, Field(alias="CATALOG_INDEX_BUCKET")] = None
    index_pointer_key: Annotated[str, Field(alias="CATALOG_INDEX_POINTER_KEY", min_length=1)] = (
        "catalog-index/latest.json"
    )
    index_dir: Annotated[str, Field(alias="CATALOG_INDEX_DIR", min_length=1)] = "/tmp/catalog-index"
    index_check_s: Annotated[float, Field(alias="CATALOG_INDEX_CHECK_S", ge=0)] = 30.0
    # The store's weight unit: weights reach the model rounded, in it (shared.products.weight).
    weight_unit: Annotated[StoreWeightUnit, Field(alias="STORE_WEIGHT_UNIT")] = DEFAULT_WEIGHT_UNIT
    # The store's currency: an amount the shopper says in another is flagged to the model.
    store_currency: Annotated[StoreCurrency, Field(alias="STORE_CURRENCY")] = DEFAULT_CURRENCY


@functools.cache
def get_settings() -> Settings:
    return Settings.model_validate(environ())
