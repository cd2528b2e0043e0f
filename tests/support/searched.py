"""What the catalog search makes of a lookup's input: how a test reads a model's search
whether the model passed the shopper's words or the filters themselves."""

from __future__ import annotations

import functools
import tempfile
from pathlib import Path
from typing import Any

from shared.products.catalog_data import load_catalog
from shared.search import SearchIndex, SearchQuery, build_index


@functools.cache
def _sample_index() -> SearchIndex:
    path = Path(tempfile.mkdtemp(prefix="storechat-read-")) / "sample.sqlite"
    build_index(load_catalog(), path)
    return SearchIndex(path)


def searched_as(tool_input: dict[str, Any]) -> dict[str, Any]:
    """What the catalog search makes of a lookup's input on the bundled catalog: the
    fields the input states, and what the search read in its keywords (the kind, limits
    and order a shopper's words say, a limit none meets included; the words it searched
    for, as ``searched``). The
    model may pass the shopper's words or the fields themselves: a shopper gets the same."""
    result = _sample_index().search(SearchQuery.from_input(tool_input, limit=1))
    stated = {k: v for k, v in tool_input.items() if k != "keywords"}
    return {**result.understood, **result.nearest, **stated}
