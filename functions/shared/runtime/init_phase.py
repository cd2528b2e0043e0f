"""A Lambda's init phase: its handler's imports, with Python's cycle collector paused.

Importing a handler makes 30,000 to 50,000 objects that live as long as the container:
modules, classes, compiled patterns, pydantic's validators. While they are made, the cycle
collector runs over a hundred times (once over everything), tracing them again and again
and finding almost nothing to free: 30 to 40 ms of lookup_inventory's import of about
280 ms. With the collector paused for the imports and what they made frozen afterwards
(``gc.freeze``: later collections skip it), that work is not done at the import, and not
at a later call either. What it would have freed stays: the few hundred objects of cyclic
garbage that the imports leave behind.

Every handler imports its code inside :func:`collector_paused`; nothing else should.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def collector_paused() -> Iterator[None]:
    """Pause the cycle collector for the block, then freeze every object it tracks.

    A collector that was already paused (by the caller) stays paused.
    """
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        gc.freeze()
        if enabled:
            gc.enable()
