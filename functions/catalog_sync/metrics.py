"""The sync's custom metrics, named once: the function emits them, infra/monitoring.py
graphs them. No imports beyond the standard library, so the CDK app can read the names
without loading Powertools."""

from __future__ import annotations

from enum import StrEnum


class SyncMetric(StrEnum):
    ADDED = "CatalogSyncAdded"
    UPDATED = "CatalogSyncUpdated"
    DELETED = "CatalogSyncDeleted"
    INVALID = "CatalogSyncInvalid"
    """Products the API listed that the mapping cannot read: left as the catalog holds them."""
    DELETIONS_REFUSED = "CatalogSyncDeletionsRefused"
    """Runs whose deletions the shrink guard refused (1 for such a run)."""
