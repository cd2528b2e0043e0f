"""Open Library search results, reduced to what a book answer needs.

Open Library asks API clients to identify themselves; ``get_json`` sends the
storechat User-Agent on every request.
"""

from __future__ import annotations

import math
import urllib.parse
import urllib.request
from typing import Any

from shared.catalog.specs import ISBN, PAGES, YEAR
from shared.runtime.http import Opener, get_json_list
from shared.text.sanitize import clean_text

MAX_RESULTS = 3
MAX_AUTHORS = 3
MAX_SUBJECTS = 5
TITLE_CHARS = 200
AUTHOR_CHARS = 100
SUBJECT_CHARS = 60
FIELDS = (
    "key,title,author_name,first_publish_year,ratings_average,ratings_count,"
    "subject,isbn,number_of_pages_median"
)


def search_books(
    query: str,
    *,
    base_url: str,
    timeout_s: float,
    opener: Opener = urllib.request.urlopen,
) -> list[dict[str, Any]]:
    """Top Open Library matches for ``query``; raises
    :class:`~shared.runtime.errors.UpstreamError`."""
    params = urllib.parse.urlencode({"q": query, "limit": MAX_RESULTS, "fields": FIELDS})
    url = f"{base_url.rstrip('/')}/search.json?{params}"
    docs = get_json_list(url, at=("docs",), limit=MAX_RESULTS, timeout_s=timeout_s, opener=opener)
    return [_trim(doc) for doc in docs]


def _trim(doc: dict[str, Any]) -> dict[str, Any]:
    # A fact the catalog also holds for its books goes under the catalog's spec name, so
    # the model reads the two sources' values as the same thing.
    return {
        "title": _text(doc.get("title"), TITLE_CHARS),
        "authors": _texts(doc.get("author_name"), AUTHOR_CHARS)[:MAX_AUTHORS],
        YEAR.key: _int(doc.get("first_publish_year")),
        "avgRating": _rating(doc.get("ratings_average")),
        "ratingsCount": _int(doc.get("ratings_count")),
        "subjects": _texts(doc.get("subject"), SUBJECT_CHARS)[:MAX_SUBJECTS],
        ISBN.key: _isbn13(doc.get("isbn")),
        PAGES.key: _int(doc.get("number_of_pages_median")),
    }


# Fields of the wrong type are treated as absent rather than failing the whole
# answer over one odd record.


def _text(value: Any, limit: int) -> str:
    return clean_text(value, limit) if isinstance(value, str) else ""


def _texts(value: Any, limit: int) -> list[str]:
    if not isinstance(value, list):
        return []
    cleaned = (clean_text(item, limit) for item in value if isinstance(item, str))
    return [item for item in cleaned if item]


def _rating(value: Any) -> float | None:
    # bool is an int subclass and ``True`` is not a rating; NaN would make the
    # tool result invalid JSON.
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    return round(float(value), 2) if math.isfinite(value) else None


def _int(value: Any) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def _isbn13(value: Any) -> str | None:
    if not isinstance(value, list):
        return None
    for item in value:
        if isinstance(item, str):
            digits = item.replace("-", "").strip()
            if len(digits) == 13 and digits.isdigit():
                return digits
    return None
