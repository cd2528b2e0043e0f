"""Which models take prompt-cache checkpoints, and by what rules: one table, as data.

The table (``prompt_cache_models.json``, with its source) drives two things: whether
the Converse request carries ``cachePoint`` blocks for a model, and how the local
stand-ins count cache reads and writes (``converse.metering``), so that the
figures a laptop prints are the ones Bedrock would bill.
"""

from __future__ import annotations

import functools
import json
from dataclasses import dataclass
from pathlib import Path

_TABLE = Path(__file__).with_name("prompt_cache_models.json")
# Cross-Region inference profiles prefix the model id with a geography.
_GEOGRAPHIES = frozenset({"us", "eu", "apac", "global", "jp", "au", "ca", "us-gov"})


@dataclass(frozen=True)
class CacheRules:
    family: str
    min_tokens: int
    max_checkpoints: int
    ttl_seconds: int


@functools.cache
def _rules() -> tuple[CacheRules, ...]:
    table = json.loads(_TABLE.read_text(encoding="utf-8"))
    ttl = int(table["ttl_seconds"])
    # Longest family first, so "claude-opus-4-5" is not read as "claude-opus-4".
    rows = sorted(table["models"], key=lambda row: len(row["family"]), reverse=True)
    return tuple(
        CacheRules(row["family"], int(row["min_tokens"]), int(row["max_checkpoints"]), ttl)
        for row in rows
    )


def base_model_id(model_id: str) -> str:
    head, _, rest = model_id.partition(".")
    return rest if head in _GEOGRAPHIES and rest else model_id


def cache_rules(model_id: str) -> CacheRules | None:
    """The caching rules of ``model_id`` (an id or an inference profile), or None."""
    base = base_model_id(model_id)
    return next((r for r in _rules() if base.startswith(r.family)), None)
