"""The tools' far ends, and handlers the benchmark swaps in through ``overrides``.

* :func:`canned_web` stands in for Brave Search and Open Library on 127.0.0.1:
  the review and book tools run unchanged (their settings point them at it), but
  the answers are canned and deterministic. The benchmark has no network, and a
  live API would make the token counts depend on the day.
* :func:`naive_lookup` is the "first seed article" tool: every product of the
  category, every field, read from the catalog table straight to the model. It
  reuses the real ``ToolOutput`` shape; only the choice of what to send differs.
* :func:`delayed` and :class:`Timed` wrap any handler.
"""

from __future__ import annotations

import hashlib
import json
import threading
import time
import urllib.parse
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler
from typing import Any

from pydantic import ValidationError

from bench.loopback import serving

# Not storechat.local.lambdas.Handler: importing storechat.local starts moto's
# imports, and bench.probe measures a handler's memory without them.
Handler = Callable[[dict[str, Any], Any], Any]

REVIEW_RESULTS = 5
BOOK_RESULTS = 3


def _digest(text: str) -> int:
    return int(hashlib.sha256(text.encode("utf-8")).hexdigest()[:8], 16)


def _brave_body(query: str) -> dict[str, Any]:
    subject = query.removesuffix(" review")
    slug = "-".join(subject.lower().split())
    sites = ("techradar", "pcmag", "theverge", "notebookcheck", "tomsguide", "cnet", "zdnet")
    start = _digest(subject) % len(sites)
    verdicts = ("fast", "solid", "light", "pricey", "quiet")
    praise = ("well built", "a fine screen", "long battery life", "good value")
    results = []
    for i in range(REVIEW_RESULTS):
        site = sites[(start + i) % len(sites)]
        results.append(
            {
                "title": f"{subject} review: {verdicts[i % 5]} and {praise[i % 4]}",
                "url": f"https://www.{site}.com/reviews/{slug}-{i + 1}",
                "description": (
                    f"We tested the {subject} for two weeks of everyday work, travel and "
                    f"video calls. The keyboard is comfortable, the display is bright enough "
                    f"for a sunny train carriage and battery life beat our benchmark by "
                    f"{(i + 1) * 7} minutes. Fans stay quiet under load; the webcam is "
                    f"merely adequate."
                ),
                "age": f"{i + 2} months ago",
            }
        )
    return {"type": "search", "web": {"type": "search", "results": results}}


def _openlibrary_body(query: str) -> dict[str, Any]:
    seed = _digest(query)
    docs = []
    for i in range(BOOK_RESULTS):
        docs.append(
            {
                "key": f"/works/OL{seed % 100000 + i}W",
                "title": query.title() if i == 0 else f"{query.title()}: Companion {i}",
                "author_name": ["A. N. Author", "Second Writer"][: 1 + i % 2],
                "first_publish_year": 1930 + (seed + i) % 90,
                "ratings_average": 3.5 + ((seed >> i) % 15) / 10,
                "ratings_count": 200 + (seed >> (2 * i)) % 5000,
                "subject": ["Fiction", "Classics", "Adventure", "Fantasy", "Literature", "Film"],
                "isbn": [f"978{(seed * (i + 3)) % 10**10:010d}"],
                "number_of_pages_median": 180 + (seed >> i) % 600,
            }
        )
    return {"numFound": BOOK_RESULTS, "start": 0, "docs": docs}


def _canned_body(path: str, query: str) -> bytes | None:
    if path == "/search.json":
        return json.dumps(_openlibrary_body(query)).encode("utf-8")
    if path == "/res/v1/web/search":
        return json.dumps(_brave_body(query)).encode("utf-8")
    return None


@contextmanager
def canned_web() -> Iterator[dict[str, str]]:
    """Brave Search and Open Library on 127.0.0.1, same answer for the same query.

    Yields the environment that points the two tools at it.
    """

    class Handler(BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            url = urllib.parse.urlparse(self.path)
            query = urllib.parse.parse_qs(url.query).get("q", [""])[0]
            body = _canned_body(url.path, query)
            self.send_response(200 if body is not None else 404)
            body = body or b"{}"
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, format: str, *args: Any) -> None:
            return None

    with serving(Handler) as base:
        yield {
            "BRAVE_BASE_URL": base,
            "BRAVE_API_KEY": "bench-not-a-real-key",
            "OPENLIBRARY_BASE_URL": base,
        }


def _whole_category(category: str | None) -> list[dict[str, Any]]:
    """Every product of ``category`` (of the catalog, without one) from the catalog table.

    What the seed's Products API answered: the category's products in ``productId``
    order (its category index's order), or the whole catalog. The table has no such
    index now, so it is a Scan, filtered and sorted here.
    """
    import boto3
    from boto3.dynamodb.types import TypeDeserializer

    from shared.config.environment import environ

    env = environ()
    client = boto3.client("dynamodb", region_name=env.get("AWS_REGION"))
    request: dict[str, Any] = {"TableName": env.get("CATALOG_TABLE_NAME", "storechat-catalog")}
    deserialize = TypeDeserializer().deserialize
    items: list[dict[str, Any]] = []
    while True:
        page = client.scan(**request)
        items += page.get("Items", [])
        if "LastEvaluatedKey" not in page:
            break
        request["ExclusiveStartKey"] = page["LastEvaluatedKey"]
    if category:
        items = sorted(
            (i for i in items if i.get("category", {}).get("S") == category),
            key=lambda i: str(i["productId"]["S"]),
        )
    # JSON numbers, as the seed's API sent them, not Decimals.
    return [
        json.loads(json.dumps({k: deserialize(v) for k, v in i.items()}, default=_number))
        for i in items
    ]


def _number(value: Any) -> Any:
    return int(value) if value == value.to_integral_value() else float(value)


def naive_lookup(event: dict[str, Any], context: Any) -> dict[str, Any]:
    """Every product of the asked category (or the whole catalog), in full, to the model.

    The first seed article's tool: no search, no cap, every field, read straight from
    the catalog table. The output is built as a ``ToolOutput`` directly, not through
    ``shared.api.contract.tool_output``: that helper caps what the model gets, and a naive
    tool has no cap.
    """
    from lookup_inventory import handler
    from lookup_inventory.records import full_record
    from lookup_inventory.schema import InventoryInput
    from shared.api.contract import Ledger, ToolOutput, ToolUse, TraceEntry

    started = time.perf_counter()
    tool_use = ToolUse.model_validate(event["toolUse"])
    try:
        query = InventoryInput.model_validate(tool_use.input)
    except ValidationError:
        # A bad request is answered the same way in both modes.
        result: dict[str, Any] = handler.lambda_handler(event, context)
        return result
    records = [full_record(p) for p in _whole_category(query.category)]
    return ToolOutput(
        tool_result={
            "toolUseId": tool_use.tool_use_id,
            "content": [{"json": {"count": len(records), "products": records}}],
            "status": "success",
        },
        ledger=Ledger(products=records),
        trace=TraceEntry(
            tool=tool_use.name,
            input=tool_use.input,
            status="success",
            summary=f"{len(records)} products for category={query.category or 'any'}; all shown",
            ms=int((time.perf_counter() - started) * 1000),
        ),
    ).dump()


def delayed(handler: Handler, seconds: float) -> Handler:
    """``handler``, after sleeping ``seconds``: a slow tool, with a real answer."""

    def slow(event: dict[str, Any], context: Any) -> Any:
        time.sleep(seconds)
        return handler(event, context)

    return slow


class Timed:
    """Wraps handlers and records how long each call took, by function key.

    The Map runs tool calls on threads, so the record is guarded by a lock.
    """

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._calls: list[tuple[str, float]] = []

    def wrap(self, key: str, handler: Handler) -> Handler:
        def timed(event: dict[str, Any], context: Any) -> Any:
            started = time.perf_counter()
            try:
                return handler(event, context)
            finally:
                elapsed = time.perf_counter() - started
                with self._lock:
                    self._calls.append((key, elapsed))

        return timed

    def drain(self) -> list[tuple[str, float]]:
        """The calls recorded since the last drain, as (function key, seconds)."""
        with self._lock:
            calls, self._calls = self._calls, []
        return calls


def real_handler(key: str) -> Handler:
    """The project's own handler for ``key``, imported on its first call.

    Not at once: the local runner imports handlers only after it has set their
    environment (log level, table names), and an early import would freeze others.
    """
    loaded: list[Handler] = []

    def call(event: dict[str, Any], context: Any) -> Any:
        if not loaded:
            from registry import functions_by_key
            from storechat.local.lambdas import load_handler

            loaded.append(load_handler(functions_by_key()[key]))
        return loaded[0](event, context)

    return call
