"""The indexer's custom metrics, named once: the indexer emits them, infra/monitoring.py
alarms on and graphs them. No imports beyond the standard library, so the CDK app can
read the names without loading Powertools."""

from __future__ import annotations

from enum import StrEnum


class IndexMetric(StrEnum):
    """The indexer's custom metrics (infra/monitoring.py alarms and graphs them)."""

    BUILDS = "IndexBuilds"
    """Runs that ended with the snapshot current: published, or found unchanged."""
    BUILD_MS = "IndexBuildMs"
    """Read, build and publish, in milliseconds."""
    PRODUCTS = "IndexedProducts"
    """Products in the snapshot now published."""
    FRESH_ONLY_CHANGES = "FreshOnlyChanges"
    """Stream records that changed price or stock alone (read fresh by the catalog tool):
    a batch of nothing else rebuilds nothing."""
    SNAPSHOT_AGE = "SnapshotAgeSeconds"
    """Seconds since the published snapshot was built: near zero after a publish, growing
    while the catalog does not change (so it is graphed, not alarmed)."""
