"""Search the catalog and split the answer between the model and the ledger.

The model gets the number of matches and at most ``max_results`` compact
records: enough to choose and to cite ``[productId]``. The ledger gets the full
records of exactly those products, and the response is built from the ledger.

A follow-up ("is the second one lighter?") names products with ``productIds``:
exactly those are fetched, then filtered and ranked like any search. A read of
a large catalog that ran out of time is answered with what was read, marked
``partial`` for the model, and not cached.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from pydantic import ValidationError

from lookup_inventory.cache import TTLCache
from lookup_inventory.repository import CatalogRead, CatalogSource, Product
from lookup_inventory.schema import InventoryInput
from shared.contract import MAX_RESULT_BYTES, Ledger, ToolCall, ToolOutput, ToolUse, result_size
from shared.errors import CatalogUnavailable
from shared.sanitize import clean_text, clean_value

# sortBy -> (spec keys to read, whether bigger is better)
_SORT_SPECS: dict[str, tuple[tuple[str, ...], bool]] = {
    "weight": (("weightKg", "weightG"), False),
    "battery": (("batteryHours", "batteryMah"), True),
    "ram": (("ramGb",), True),
    "storage": (("storageGb",), True),
    "screen": (("screenInches",), True),
    "camera": (("cameraMp",), True),
    "newest": (("year",), True),
}
SUMMARY_CHARS = 160
PARTIAL_NOTE = (
    "The catalog is large; this is part of it. Narrow with brandId, keywords or maxPrice."
)
UNREAD_NOTE = "Some of the asked products could not be read right now (notRead); ask again."


def _words(text: str) -> list[str]:
    return [w for w in text.casefold().replace(",", " ").split() if w]


def _haystack(product: Product) -> str:
    specs = product.get("specs") or {}
    parts = [product.get("name", ""), product.get("brand", ""), product.get("description", "")]
    parts.extend(str(v) for v in specs.values())
    return " ".join(str(p) for p in parts).casefold()


def _matches(product: Product, query: InventoryInput) -> bool:
    if query.category and product.get("category") != query.category:
        return False
    if query.brandId and query.brandId.casefold() not in str(product.get("brand", "")).casefold():
        return False
    if query.productName:
        name = str(product.get("name", "")).casefold()
        if not all(word in name for word in _words(query.productName)):
            return False
    if query.keywords:
        hay = _haystack(product)
        if not all(word in hay for word in _words(query.keywords)):
            return False
    price = product.get("price")
    return not (
        query.maxPrice is not None and isinstance(price, int | float) and price > query.maxPrice
    )


def _rank(products: list[Product], sort_by: str | None) -> list[Product]:
    """In-stock first, then by ``sort_by`` (cheapest first by default); ties by price."""

    def price(p: Product) -> float:
        value = p.get("price")
        return float(value) if isinstance(value, int | float) else float("inf")

    def key(p: Product) -> tuple[bool, float, float]:
        out_of_stock = int(p.get("stock", 1) or 0) <= 0
        if sort_by == "price_desc":
            return out_of_stock, -price(p), 0.0
        if sort_by in _SORT_SPECS:
            names, bigger_first = _SORT_SPECS[sort_by]
            specs = p.get("specs") or {}
            value = next((specs[n] for n in names if isinstance(specs.get(n), int | float)), None)
            if value is None:  # products without the spec go last
                return out_of_stock, float("inf"), price(p)
            return out_of_stock, -float(value) if bigger_first else float(value), price(p)
        return out_of_stock, price(p), 0.0

    return sorted(products, key=key)


def compact(product: Product) -> dict[str, Any]:
    """The fields the model needs to choose and cite a product."""
    return {
        "productId": product.get("productId"),
        "name": clean_text(str(product.get("name", "")), 120),
        "brand": clean_text(str(product.get("brand", "")), 60),
        "category": product.get("category"),
        "price": product.get("price"),
        "stock": product.get("stock"),
        "specs": clean_value(product.get("specs") or {}, 80),
        "summary": clean_text(str(product.get("description", "")), SUMMARY_CHARS),
    }


def full_record(product: Product) -> dict[str, Any]:
    """A catalog record as the response shows it: every field, cleaned of control characters."""
    cleaned: dict[str, Any] = clean_value(product, 2000)
    return cleaned


def _describe(query: InventoryInput) -> str:
    parts = [f"{k}={v}" for k, v in query.model_dump(exclude_none=True).items()]
    return ", ".join(parts) or "everything"


def run(
    tool_use: ToolUse,
    *,
    source: CatalogSource,
    cache: TTLCache[str, list[Product]],
    max_results: int,
    deadline_s: float | None = None,
    clock: Callable[[], float] = time.perf_counter,
) -> ToolOutput:
    """Answer one ``lookup_inventory`` call; ``deadline_s`` (monotonic) bounds the catalog read."""
    call = ToolCall(tool_use, clock)
    try:
        query = InventoryInput.model_validate(tool_use.input)
    except ValidationError as exc:
        return call.invalid_input(exc)

    try:
        read = _read(query, source, cache, deadline_s)
    except CatalogUnavailable as exc:
        return call.failure(
            exc.kind,
            "The catalog is unavailable right now, so I cannot check what is in stock.",
            f"catalog unavailable ({exc.kind})",
        )

    extras, remarks = _about_the_read(query, read)
    found = _rank([p for p in read.products if _matches(p, query)], query.sortBy)
    # Show as many of the best matches as fit the result budget, so that what the
    # model reads and what the ledger keeps are the same products.
    shown: list[Product] = []
    compacts: list[dict[str, Any]] = []
    budget = MAX_RESULT_BYTES - 400 - result_size(extras)  # room for count, shown, notes
    used = 0
    for product in found[:max_results]:
        item = compact(product)
        used += result_size(item) + 2
        if used > budget:
            break
        shown.append(product)
        compacts.append(item)
    notes = [extras.pop("note")] if "note" in extras else []
    for_model: dict[str, Any] = {
        "count": len(found),
        "shown": len(shown),
        "products": compacts,
        **extras,
    }
    if len(found) > len(shown):
        notes.append(
            f"{len(found) - len(shown)} more match; narrow with brandId, keywords or maxPrice."
        )
    if notes:
        for_model["note"] = " ".join(notes)
    summary = "; ".join(
        [f"{len(found)} products for {_describe(query)}", f"showed {len(shown)}", *remarks]
    )
    return call.success(for_model, summary, Ledger(products=[full_record(p) for p in shown]))


def _read(
    query: InventoryInput,
    source: CatalogSource,
    cache: TTLCache[str, list[Product]],
    deadline_s: float | None,
) -> CatalogRead:
    """The asked products, or the category (from the cache when fresh)."""
    if query.productIds:
        # Fetched each time: a follow-up is about stock and price now.
        return source.products_by_id(query.productIds, deadline_s=deadline_s)
    key = query.category or "*"
    cached = cache.get(key)
    if cached is not None:
        return CatalogRead(cached)
    read = source.products(query.category, deadline_s=deadline_s)
    if read.complete:  # a partial read would hide the rest of the catalog for the TTL
        cache.put(key, read.products)
    return read


def _about_the_read(query: InventoryInput, read: CatalogRead) -> tuple[dict[str, Any], list[str]]:
    """What the model must know about the read itself, and the same for the trace."""
    extras: dict[str, Any] = {}
    remarks: list[str] = []
    if query.productIds:
        have = {p.get("productId") for p in read.products}
        missing = [pid for pid in dict.fromkeys(query.productIds) if pid not in have]
        if missing and read.complete:
            extras["notFound"] = missing
            remarks.append(f"not found: {', '.join(missing)}")
        elif missing:
            extras |= {"partial": True, "notRead": missing, "note": UNREAD_NOTE}
            remarks.append(f"not read in time: {', '.join(missing)}")
    elif not read.complete:
        extras |= {"partial": True, "note": PARTIAL_NOTE}
        remarks.append(f"partial read ({len(read.products)} products read in time)")
    return extras, remarks
