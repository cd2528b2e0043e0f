"""Reading a platform's JSON (a webhook's body, an Admin API page) without trusting it.

A platform's JSON is read field by field: text where text belongs, a list where a list
belongs, an id that is a number or a string. Anything else is a
:class:`PayloadError` naming the field, which a webhook answers with 400 and a sync
reports; a field that is merely absent reads as empty.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from datetime import UTC, datetime
from typing import Any

_AMOUNT = re.compile(r"\d+(?:\.\d+)?")
MAX_TEXT = 1_000_000
"""A field longer than this is no product's (a description is cut far shorter)."""


class PayloadError(ValueError):
    """The JSON is not what the platform sends: the message names the field."""


def field_text(data: Mapping[str, Any] | None, key: str) -> str:
    """``data[key]`` as text ("" when absent or null); a number reads as its digits."""
    if data is None:
        return ""
    value = data.get(key)
    if value is None:
        return ""
    if isinstance(value, bool) or not isinstance(value, str | int | float):
        raise PayloadError(f"{key} is not text")
    text = str(value)
    if len(text) > MAX_TEXT:
        raise PayloadError(f"{key} is longer than {MAX_TEXT:,} characters")
    return text.strip()


def items(value: Any, key: str) -> list[Mapping[str, Any]]:
    """A list of objects (or of strings, for tags); absent or null is empty."""
    if value is None:
        return []
    if not isinstance(value, list):
        raise PayloadError(f"{key} is not a list")
    for item in value:
        if not isinstance(item, Mapping | str | int):
            raise PayloadError(f"{key} holds something that is neither an object nor text")
    return value


def object_at(data: Mapping[str, Any], key: str, default: Any = None) -> Any:
    """``data[key]`` when it is an object; ``default`` when absent or null."""
    value = data.get(key)
    if value is None:
        return default
    if not isinstance(value, Mapping):
        raise PayloadError(f"{key} is not an object")
    return value


def platform_id(value: Any, key: str, *, required: bool = True) -> str:
    """A platform's id (a number, a numeric string, or a GraphQL ``gid://``) as text."""
    if value is None or value == "":
        if required:
            raise PayloadError(f"{key} is missing: every product has an id")
        return ""
    if isinstance(value, bool) or not isinstance(value, int | str):
        raise PayloadError(f"{key} is not an id")
    text = str(value).strip()
    if text.startswith("gid://"):
        text = text.rsplit("/", 1)[-1]
    if not text or len(text) > 64 or not text.isascii() or not text.isalnum():
        raise PayloadError(f"{key} {text[:64]!r} is not an id")
    return text


def amount(value: Any) -> float | None:
    """A price the platform writes as text ("29.99") or a number; None when empty.

    Raises ``ValueError`` for anything else, which the mapping reports for the variant.
    """
    if value is None or value == "":
        return None
    if isinstance(value, bool):
        raise ValueError(f"{value!r} is not a price")
    if isinstance(value, int | float):
        if value < 0:
            raise ValueError(f"{value!r} is not a price")
        return float(value)
    if isinstance(value, str) and _AMOUNT.fullmatch(value.strip()):
        return float(value.strip())
    raise ValueError(f"{str(value)[:40]!r} is not a price")


def units_of(value: Any) -> int | None:
    """A stock count (below 0 is 0: a variant that sold more than it had); None when
    the platform gives none."""
    if value is None or isinstance(value, bool):
        return None
    if isinstance(value, int):
        return max(value, 0)
    if isinstance(value, str) and re.fullmatch(r"-?\d+", value.strip()):
        return max(int(value), 0)
    return None


def timestamp_ms(value: Any, key: str, *, utc_without_zone: bool = False) -> int:
    """An ISO 8601 time (``2025-04-22T14:30:00-05:00``) as milliseconds since the epoch.

    ``utc_without_zone``: a time without an offset is UTC (WooCommerce's ``*_gmt``).
    """
    if not isinstance(value, str) or not value.strip():
        raise PayloadError(f"{key} is missing: the time the product was changed")
    try:
        moment = datetime.fromisoformat(value.strip().replace("Z", "+00:00"))
    except ValueError as exc:
        raise PayloadError(f"{key} {value[:40]!r} is not a time") from exc
    if moment.tzinfo is None:
        if not utc_without_zone:
            raise PayloadError(f"{key} {value[:40]!r} has no time zone")
        moment = moment.replace(tzinfo=UTC)
    return int(moment.timestamp() * 1000)
