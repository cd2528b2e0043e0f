"""Brave Search web results, reduced to what a review answer needs."""

from __future__ import annotations

import urllib.parse
import urllib.request
from typing import Any

from shared.runtime.http import Opener, get_json_list
from shared.text.sanitize import clean_text

MAX_RESULTS = 5
TITLE_CHARS = 160
URL_CHARS = 300
DESCRIPTION_CHARS = 400


def search_reviews(
    query: str,
    *,
    api_key: str,
    base_url: str,
    timeout_s: float,
    opener: Opener = urllib.request.urlopen,
) -> list[dict[str, Any]]:
    """Top web results for reviews of ``query``; raises
    :class:`~shared.runtime.errors.UpstreamError`."""
    params = urllib.parse.urlencode({"q": f"{query} review", "count": MAX_RESULTS})
    url = f"{base_url.rstrip('/')}/res/v1/web/search?{params}"
    results = get_json_list(
        url,
        at=("web", "results"),
        limit=MAX_RESULTS,
        headers={"Accept-Encoding": "gzip", "X-Subscription-Token": api_key},
        timeout_s=timeout_s,
        opener=opener,
    )
    return [_trim(item) for item in results]


def _trim(item: dict[str, Any]) -> dict[str, Any]:
    return {
        "title": _text(item.get("title"), TITLE_CHARS),
        "url": _text(item.get("url"), URL_CHARS),
        "description": _text(item.get("description"), DESCRIPTION_CHARS),
    }


def _text(value: Any, limit: int) -> str:
    # A field of the wrong type is treated as absent rather than failing the
    # whole answer over one odd result.
    return clean_text(value, limit) if isinstance(value, str) else ""
