"""State that every test shares through one process (an xdist worker runs many files)."""

from __future__ import annotations

import logging
from collections.abc import Iterator

import pytest

from shared.runtime.observability import logger, metrics


@pytest.fixture(autouse=True)
def _shared_observability_as_found() -> Iterator[None]:
    """Give back the shared Logger's level and stream, and empty the metrics buffer.

    ``shared.runtime.observability`` builds one Logger and one Metrics per process. A test that
    changes the level (the local runner sets the one it was given) or swaps the stream
    would otherwise decide what a later test in the same worker sees logged; disabled
    metrics are never flushed, so their buffer would grow from test to test.
    """
    handler = logger.registered_handler
    assert isinstance(handler, logging.StreamHandler)
    stream, level = handler.stream, logger.log_level
    yield
    logger.setLevel(level)
    handler.setStream(stream)
    metrics.clear_metrics()
