"""Lambda entry point of the ``lookup_inventory`` tool."""

from __future__ import annotations

import functools
import threading
import time
from contextlib import AbstractContextManager, ExitStack
from typing import Any

from shared.runtime.init_phase import collector_paused

with collector_paused():
    from lookup_inventory import first
    from lookup_inventory.after_response import AfterResponse
    from lookup_inventory.logic import run
    from lookup_inventory.schema import InventoryInput
    from lookup_inventory.settings import get_settings
    from lookup_inventory.snapshots import S3Snapshots, s3_client_factory
    from shared.api.contract import ToolOutput, ToolUse
    from shared.config.environment import environ
    from shared.config.metric_names import Metric
    from shared.products.catalog_table import CatalogSource, DynamoCatalog
    from shared.runtime.errors import CatalogUnavailable, FailureKind
    from shared.runtime.http import RemainingTime
    from shared.runtime.observability import MetricUnit, logger, metrics
    from shared.search import SearchIndex, SnapshotHolder, in_background
    from shared.search.driver import sqlite_module
    from shared.search.holder import Refresh
    from shared.tools.tool_shell import tool_handler

DEADLINE_MARGIN_S = 0.5
"""Time kept back from the Lambda's remaining time to filter, rank and answer."""

_holder_lock = threading.Lock()

# Registered while the module is imported, in Lambda's init phase: the Extensions API
# takes registrations only before the runtime first asks for an event. None outside
# Lambda (no AWS_LAMBDA_RUNTIME_API), where refreshes run on a thread of their own.
AFTER_RESPONSE = AfterResponse.start(environ().get("AWS_LAMBDA_RUNTIME_API"))


# functools.cache may build twice when two threads race a cold start; the build is
# cheap and thread-safe (DynamoCatalog makes its client under a lock), and the loser
# is dropped.
@functools.cache
def catalog_source() -> CatalogSource | None:
    """Where fresh records come from: the catalog table, or nowhere with the store's
    Products API, which has no read by id (the snapshot's records are shown then)."""
    settings = get_settings()
    if settings.catalog_source == "http":
        return None
    return DynamoCatalog(settings.table_name, region=settings.region)


@functools.cache
def snapshot_holder() -> SnapshotHolder:
    """The search snapshot of this container: loaded at its first search, then checked
    for a newer one at most every ``CATALOG_INDEX_CHECK_S``, after a response, never
    during one. Called under a lock, so that a container holds exactly one."""
    settings = get_settings()
    if not settings.index_bucket:
        raise CatalogUnavailable(FailureKind.UNCONFIGURED, "CATALOG_INDEX_BUCKET is not set")
    engine = sqlite_module()
    logger.info(
        "search engine",
        extra={"sqlite_module": engine.__name__, "sqlite_version": engine.sqlite_version},
    )
    snapshots = S3Snapshots(
        s3_client_factory(settings.region),
        settings.index_bucket,
        settings.index_pointer_key,
        settings.index_dir,
    )
    return SnapshotHolder(
        snapshots.fetch_latest,
        check_every_s=settings.index_check_s,
        on_refresh_error=_refresh_failed,
        schedule=_after_this_response,
    )


def _after_this_response(refresh: Refresh) -> None:
    """Where a due refresh runs: after the response in Lambda, else on a thread."""
    if AFTER_RESPONSE is not None:
        AFTER_RESPONSE.submit(refresh)
    else:
        in_background(refresh)


def _holder() -> SnapshotHolder:
    with _holder_lock:
        return snapshot_holder()


def current_index() -> SearchIndex:
    """The snapshot in use (loading it at a cold start): to warm a container up."""
    return _holder().index()


def leased_index() -> AbstractContextManager[SearchIndex]:
    """The snapshot for one call, held open until the call ends (loaded at a cold start)."""
    return _holder().lease()


def forget_warm_state() -> None:
    """Forget the catalog source and the loaded snapshot, as a new container would."""
    catalog_source.cache_clear()
    with _holder_lock:
        snapshot_holder.cache_clear()


def _refresh_failed(exc: Exception) -> None:
    # The last good snapshot keeps serving; an operator alarms on the metric.
    logger.warning("newer catalog snapshot not loaded", extra={"error": str(exc)[:300]})
    metrics.add_metric(name=Metric.CATALOG_INDEX_REFRESH_ERRORS, unit=MetricUnit.Count, value=1)


def deadline_for(context: RemainingTime | None) -> float | None:
    """The ``time.monotonic()`` by which the catalog read must be done, if the context says."""
    if context is None:
        return None
    left_s = context.get_remaining_time_in_millis() / 1000 - DEADLINE_MARGIN_S
    return time.monotonic() + left_s


# The state machine's search first (lookup_inventory.first) is this tool's call too.
@tool_handler(InventoryInput, first=first.decide)
def lambda_handler(tool_use: ToolUse, context: Any) -> ToolOutput:
    try:
        with ExitStack() as held:
            return run(
                tool_use,
                index=lambda: held.enter_context(leased_index()),
                source=catalog_source(),
                max_results=get_settings().max_results,
                deadline_s=deadline_for(context),
                weight_unit=get_settings().weight_unit,
                currency=get_settings().store_currency,
            )
    finally:
        # A refresh that fell due during the call runs now, after the response.
        if AFTER_RESPONSE is not None:
            AFTER_RESPONSE.invocation_done()
