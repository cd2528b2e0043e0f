"""What the catalog tool and the indexer read as their catalog settings, from an
environment's configuration: the source of truth, the snapshot bucket and pointer."""

from __future__ import annotations

from infra import names
from infra.config import EnvironmentConfig


def catalog_environment(
    config: EnvironmentConfig, table_name: str | None, index_bucket: str
) -> dict[str, str]:
    """What lookup_inventory/settings.py reads: where the search snapshots are, and the
    table (for fresh prices and stock) or the store's Products API."""
    environment: dict[str, str] = {
        "CATALOG_SOURCE": config.catalog_source,
        "CATALOG_INDEX_BUCKET": index_bucket,
        "CATALOG_INDEX_POINTER_KEY": names.CATALOG_INDEX_POINTER_KEY,
    }
    if config.catalog_source == "dynamodb":
        if table_name is None:
            raise ValueError("catalog_source 'dynamodb' needs the catalog table")
        environment["CATALOG_TABLE_NAME"] = table_name
    elif config.products_api_url:
        environment["PRODUCTS_API_URL"] = config.products_api_url
    return environment


def indexer_environment(
    config: EnvironmentConfig, bucket_name: str, table_name: str | None
) -> dict[str, str]:
    """What index_catalog/settings.py reads: the catalog tool's own settings (the same
    source and snapshot pointer), and the prefix it publishes snapshots under."""
    return {
        **catalog_environment(config, table_name, bucket_name),
        "CATALOG_INDEX_PREFIX": names.CATALOG_INDEX_PREFIX,
    }
