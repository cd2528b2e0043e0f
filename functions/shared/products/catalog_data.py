"""The store's bundled product catalog: computers, phones and books.

``data/catalog.json`` ships inside the ``shared`` package so that every Lambda,
the local runner and the tests see the same products without a network call.
It is the seed for the inventory table and the fallback when the table is not
there. Every record has the same top-level keys (``productId``, ``name``,
``brand``, ``category``, ``price``, ``description``, ``stock``, ``specs``);
what ``specs`` holds depends on the category.
"""

from __future__ import annotations

import copy
import functools
import json
from importlib import resources
from typing import Any


@functools.cache
def _parsed_catalog() -> tuple[dict[str, Any], ...]:
    # importlib.resources rather than a path next to __file__, so the file is
    # still found when the package is zipped into a Lambda layer or installed
    # as a wheel.
    text = (resources.files("shared") / "data" / "catalog.json").read_text(encoding="utf-8")
    records: list[dict[str, Any]] = json.loads(text)
    return tuple(records)


def load_catalog() -> list[dict[str, Any]]:
    """Return every bundled product, parsed once per process.

    Each call gets its own deep copy: the records are nested dicts and a caller
    that annotates or trims one must not change what the next caller sees.
    """
    return copy.deepcopy(list(_parsed_catalog()))
