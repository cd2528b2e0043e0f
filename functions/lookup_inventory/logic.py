"""Search the catalog index, read what it found fresh, and split the answer between the
model and the ledger.

A search runs in two steps. The index (a snapshot of the catalog table) finds, ranks
and counts the products, and relaxes a search that finds nothing. Then the products
it found, a few more than can be shown, are read fresh from the table: a product
deleted since the snapshot is left out, and so is one whose current price or stock
no longer passes the price and stock filters, and a price order follows the current
prices. So the index decides what matches, the table what it costs and whether it is
there, and an answer never quotes a price from the snapshot. A change of price or
stock publishes no new snapshot, so the snapshot's own values can be old: when the
fresh values drop so many that fewer than can be shown are left, the index is asked
again for more (:data:`REFILL_FACTOR`), while there are more and time allows.

The model gets the number of matches and at most ``max_results`` compact records:
enough to choose and to cite ``[productId]``. The ledger gets the full fresh records
of exactly those products, and the response is built from the ledger.

A follow-up ("is the second one lighter?") names products with ``productIds``, as the
model cites them (an id, a handle, an id in another case: ``SearchIndex.resolve``):
exactly those are read from the table; the index orders and filters them by their
specs, and the price and stock filters apply to the fresh values.

Without a table to read (a store's Products API has no read by id) the records are
the snapshot's, and the model is told the date of its prices.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from lookup_inventory.currency_said import foreign_currency
from lookup_inventory.instead import Instead, in_stock, in_stock_instead, sold_out
from lookup_inventory.records import SnapshotRecords, compact, full_record
from lookup_inventory.schema import MAX_OFFSET, InventoryInput, corrected_words
from shared.api.contract import (
    MAX_DEMAND_WORD_CHARS,
    MAX_DEMAND_WORDS,
    MAX_RESULT_BYTES,
    Demand,
    Ledger,
    ToolCall,
    ToolOutput,
    ToolUse,
    result_size,
)
from shared.catalog.derive import folded, sorted_on
from shared.products.catalog_table import STOP_RETRYING_S, CatalogSource, Product
from shared.products.citing import cite_as
from shared.products.currency import DEFAULT_CURRENCY
from shared.products.table import as_table
from shared.products.weight import DEFAULT_WEIGHT_UNIT
from shared.runtime.errors import CatalogUnavailable
from shared.search import CatalogNotIndexedYet, SearchIndex, SearchQuery, SearchResult
from shared.search.plan import nearest as nearest_sort
from shared.search.query import KINDS, MAX_LIMIT, SORTS
from shared.search.schema import facet_value
from shared.tools.tool_shell import answer
from shared.tools.tool_steps import field_words

OVERFETCH = 2
"""Products read fresh per product the model may be shown: room for those dropped
because they changed since the snapshot."""
MAX_LEDGER_BYTES = 12_000
"""The most one lookup puts in the ledger (UTF-8 JSON), which every later state of the
turn carries: a page of twelve ordinary records (about 600 bytes each), or four of the
largest a catalog may hold (a 2,000-character picture address each). Three lookups a
round then stay far below Step Functions' 256 KiB for one state."""
FRESH_FILTERS = ("minPrice", "maxPrice", "inStockOnly")
"""Filters on values that change between snapshots: decided on the fresh records."""
REFILL_FACTOR = 4
"""How many more candidates each further search asks for (up to the search's limit of
100) when the fresh read left fewer than can be shown: 8, then 32, then 100."""

UNAVAILABLE = "The catalog is unavailable right now, so I cannot check what is in stock."
BEING_INDEXED = (
    "The catalog is being indexed (a new store's first index takes a few minutes), so "
    "products cannot be searched yet; tell the shopper to ask again in a few minutes."
)
"""What the model is told before the first search snapshot is published."""
UNREAD_NOTE = "Some of the asked products could not be read right now (notRead); ask again."
UNCHECKED_NOTE = "Some matches could not be checked in time and are left out; ask again for more."
SNAPSHOT_NOTE = "Prices and stock are as of pricesAsOf; the store confirms them at checkout."
_DROPPED = {
    "keywords": "keywords",
    "price": "the price limit",
    "onSale": "on sale (none is on sale now: say so)",
    "productName": "the whole productName (no product is named so; these have the most of its "
    "words: say the one asked is not carried, and offer these as the closest)",
}


def relaxed_message(
    relaxed: Sequence[str], nearest: Mapping[str, float] | None = None, ranked_by: str = ""
) -> str:
    """What the model is told a search dropped to find anything; with ``nearest`` (the
    limits dropped, and their values), that the products are the nearest to them, in
    the order ``ranked_by`` (the result gives the limits as ``nearestTo``): "... I dropped:
    the limits in nearestTo; these are the nearest to them, cheapest first. ..."."""
    if not nearest:
        dropped = ", then ".join(_DROPPED.get(name, name) for name in dict.fromkeys(relaxed))
        return f"Nothing matched all of that, so I dropped: {dropped}."
    words = [
        _DROPPED[n] for n in dict.fromkeys(relaxed) if n in ("productName", "keywords", "onSale")
    ]
    ordered = InventoryInput.model_validate({"sortBy": ranked_by}) if ranked_by in SORTS else None
    order = field_words(ordered, ["sortBy"]) if ordered else []
    return (
        f"Nothing matched all of that, so I dropped: {', then '.join([*words, 'the limits'])}"
        " in nearestTo; these are the nearest to them"
        + (f", {order[0]}" if order else "")
        + ". Say so to the shopper, with how each differs."
    )


@dataclass
class Found:
    """What a lookup found, before it is cut to the result budget."""

    products: list[Product]
    count: int
    exact: bool = True
    relaxed: list[str] = field(default_factory=list)
    nearest: dict[str, float] = field(default_factory=dict)
    """The limits dropped, when the products are the nearest to them (``SearchResult``)."""
    ranked_by: str = ""
    understood: dict[str, Any] = field(default_factory=dict)
    ranks: dict[str, int] = field(default_factory=dict)
    """Each product's place among all the matches, for the next page's offset."""
    end: int = 0
    """The place after the last match this page looked at."""
    extras: dict[str, Any] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)
    remarks: list[str] = field(default_factory=list)
    asked: dict[str, str] = field(default_factory=dict)
    """Each product id asked for, as the model wrote it, with the id it names."""
    unknown: list[str] | None = None
    """A search's words and brand the catalog does not know; None for a lookup by id."""
    instead: Instead | None = None
    """When the product found first is sold out: the nearest in stock to it."""


def run(
    tool_use: ToolUse,
    *,
    index: Callable[[], SearchIndex],
    source: CatalogSource | None,
    max_results: int,
    deadline_s: float | None = None,
    clock: Callable[[], float] = time.perf_counter,
    weight_unit: str = DEFAULT_WEIGHT_UNIT,
    currency: str = DEFAULT_CURRENCY,
) -> ToolOutput:
    """Answer one ``lookup_inventory`` call.

    ``index`` returns the snapshot to search (it may raise
    :class:`~shared.runtime.errors.CatalogUnavailable`); ``source`` reads fresh records by id,
    or is None when the snapshot's own must do; ``deadline_s`` (monotonic) bounds that
    read; ``weight_unit`` is the store's (``STORE_WEIGHT_UNIT``), which weights are
    given to the model in; ``currency`` the store's (``STORE_CURRENCY``), which its prices
    and price limits are in.
    """

    def lookup(call: ToolCall, query: InventoryInput) -> ToolOutput:
        page = Page(0, weight_unit=weight_unit, currency=currency)
        return _lookup(call, query, index, source, max_results, deadline_s, page)

    return answer(tool_use, InventoryInput, lookup, clock=clock)


def _lookup(
    call: ToolCall,
    query: InventoryInput,
    index: Callable[[], SearchIndex],
    source: CatalogSource | None,
    max_results: int,
    deadline_s: float | None,
    store: Page,
) -> ToolOutput:
    size = query.limit or max_results
    page = replace(store, size=size, offset=query.offset or 0, summaries=size <= max_results)
    try:
        searched = index()
        reader = source or SnapshotRecords(searched)
        if query.productIds:
            found = _follow_up(query, query.productIds, searched, reader, page, deadline_s)
        else:
            found = _search(query, searched, reader, page, deadline_s)
        if not (query.inStockOnly or page.offset) and found.products:
            wanted = _named(found) or found.products[0]
            if sold_out(wanted):
                # What was asked for cannot be bought today: the nearest that can, with it.
                found.instead = in_stock_instead(wanted, searched, reader, deadline_s)
    except CatalogNotIndexedYet as exc:
        return call.failure(exc.kind, BEING_INDEXED, "the catalog is being indexed")
    except CatalogUnavailable as exc:
        return call.failure(exc.kind, UNAVAILABLE, f"catalog unavailable ({exc.kind})")
    if source is None:
        found.extras["pricesAsOf"] = searched.meta.built_at
        found.notes.append(SNAPSHOT_NOTE)
        found.remarks.append("prices from the snapshot")
    found.remarks.append(f"snapshot {searched.meta.version}")
    return _answer(call, query, found, page)


def _named(found: Found) -> Product | None:
    """The product the search's words name, if they name one: the first found whose name
    has every word searched that is in a name found, two or more of them ("do you still
    have the Razer Blade 16?", when the Blade 14, in stock, is ranked first). One such
    word names a line or a brand, not a product."""
    names = [set(folded(str(p.get("name")))) for p in found.products]
    searched = set(folded(" ".join(map(str, found.understood.get("searched") or []))))
    naming = searched & set().union(*names)
    if len(naming) < 2:
        return None
    found_names = zip(found.products, names, strict=True)
    return next((p for p, name in found_names if naming <= name), None)


@dataclass(frozen=True)
class Page:
    """How many products to show, after how many of the ranked matches."""

    size: int
    offset: int = 0
    summaries: bool = True
    """False for a page larger than the default: it fits the same budget without them,
    and what a comparison of many needs is their specs and prices."""
    weight_unit: str = DEFAULT_WEIGHT_UNIT
    """The store's, which weights are shown in."""
    currency: str = DEFAULT_CURRENCY
    """The store's, which prices and price limits are in."""


def _search(
    query: InventoryInput,
    index: SearchIndex,
    reader: CatalogSource,
    page: Page,
    deadline_s: float | None,
) -> Found:
    limit = min(MAX_LIMIT, page.offset + page.size * OVERFETCH)
    fresh: dict[Any, Product] = {}
    while True:
        result = index.search(SearchQuery.from_input(_fields(query), limit=limit))
        window = result.product_ids[page.offset :]
        # A further search returns the earlier one's products first: read only the new.
        new = [pid for pid in window if pid not in fresh]
        read = reader.products_by_id(new, deadline_s=deadline_s)
        fresh.update((p.get("productId"), p) for p in read.products)
        present = [fresh[pid] for pid in window if pid in fresh]
        kept = [p for p in present if _passes(p, query, result)]
        if (
            len(kept) >= page.size
            or not read.complete
            or result.count <= len(result.products)  # the index has no more to give
            or limit >= MAX_LIMIT
            or _little_time_left(deadline_s)
        ):
            break
        limit = min(MAX_LIMIT, limit * REFILL_FACTOR)
    kept = _fresh_order(kept, result.ranked_by)
    found = Found(
        products=kept,
        count=result.count,
        exact=result.count_is_exact,
        relaxed=list(result.relaxed),
        nearest=dict(result.nearest),
        ranked_by=result.ranked_by,
        understood=dict(result.understood),
        unknown=list(result.unknown),
        ranks={pid: rank for rank, pid in enumerate(result.product_ids)},
        end=page.offset + len(window),
    )
    if result.corrected:
        # The model says so to the shopper ("showing laptops, for 'labtop'").
        found.extras["corrected"] = dict(result.corrected)
        found.remarks.append(f"read {corrected_words(result.corrected)}")
    if result.not_carried:
        # "Huawei" in "Huawei phones": the model says the store does not carry it.
        found.extras["notCarried"] = _demand_words(result.not_carried)
    if result.instead:
        # "Do you sell tablets?": the model says the products are the nearest kind.
        found.extras["showingInstead"] = result.instead
    if not read.complete:
        found.extras["partial"] = True
        found.notes.append(UNCHECKED_NOTE)
        found.remarks.append(f"{len(window) - len(present)} not read in time")
        dropped = len(present) - len(kept)
    else:
        dropped = len(window) - len(kept)
    if dropped:
        # Deleted, or now outside the price and stock filters: no longer matches.
        found.count = max(found.count - dropped, page.offset + len(kept))
        found.remarks.append(f"dropped {dropped} changed since the snapshot")
    if found.relaxed:
        found.remarks.append(f"relaxed: {', '.join(dict.fromkeys(found.relaxed))}")
    return found


def _little_time_left(deadline_s: float | None) -> bool:
    return deadline_s is not None and deadline_s - time.monotonic() < STOP_RETRYING_S


def _follow_up(
    query: InventoryInput,
    asked: Sequence[str],
    index: SearchIndex,
    reader: CatalogSource,
    page: Page,
    deadline_s: float | None,
) -> Found:
    # A product is asked for as the model cites it: its id, its handle, a near miss.
    named = index.resolve(asked)
    ids = list(dict.fromkeys(named.get(pid, pid) for pid in asked))
    read = reader.products_by_id(ids, deadline_s=deadline_s)
    fresh = {p.get("productId"): p for p in read.products}
    # The index orders the asked products and applies the spec filters; price and
    # stock are decided on the fresh records.
    fields = {k: v for k, v in _fields(query).items() if k not in FRESH_FILTERS}
    fields["productIds"] = ids
    result = index.search(SearchQuery.from_input(fields, limit=len(ids)))
    ranked = [fresh[pid] for pid in result.product_ids if pid in fresh]
    prices = {k: v for k in FRESH_FILTERS[:2] if (v := getattr(query, k)) is not None}
    if prices and not any(_passes(p, query, result) for p in ranked):
        # None of those within the price ("which of those is under $500?"): those, the
        # nearest to it first, as a search gives the nearest to limits none meets.
        order = result.ranked_by if result.nearest else nearest_sort(next(iter(prices)))
        result = replace(
            result,
            relaxed=[*result.relaxed, "price"],
            nearest={**result.nearest, **prices},
            ranked_by=order,
        )
    kept = _fresh_order([p for p in ranked if _passes(p, query, result)], result.ranked_by)
    found = Found(
        products=kept[page.offset :],
        count=len(kept),
        relaxed=list(result.relaxed),
        nearest=dict(result.nearest),
        ranked_by=result.ranked_by,
        understood=dict(result.understood),
        ranks={str(p.get("productId")): rank for rank, p in enumerate(kept)},
        end=len(kept),
    )
    found.asked = {pid: named[pid] for pid in asked if pid in named}
    missing = [pid for pid in dict.fromkeys(asked) if named.get(pid, pid) not in fresh]
    if missing and read.complete:
        found.extras["notFound"] = missing
        found.remarks.append(f"not found: {', '.join(missing)}")
    elif missing:
        found.extras |= {"partial": True, "notRead": missing}
        found.notes.append(UNREAD_NOTE)
        found.remarks.append(f"not read in time: {', '.join(missing)}")
    return found


def _fields(query: InventoryInput) -> dict[str, Any]:
    """What the index is asked: everything but the page, which the tool cuts itself."""
    return query.model_dump(exclude_none=True, exclude={"limit", "offset"})


def _number(value: Any) -> float | None:
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    return float(value)


def _passes(product: Product, query: InventoryInput, result: SearchResult) -> bool:
    """Whether ``product``'s current price and stock pass the search's price and stock
    filters: the tool's, or those the keywords implied, unless the search dropped them."""
    low = query.minPrice if query.minPrice is not None else result.understood.get("minPrice")
    high = query.maxPrice if query.maxPrice is not None else result.understood.get("maxPrice")
    if "price" in result.relaxed:
        low = high = None
    price = _number(product.get("price"))
    if (low is not None or high is not None) and price is None:
        return False
    if price is not None and low is not None and price < low:
        return False
    if price is not None and high is not None and price > high:
        return False
    return not (query.inStockOnly and not in_stock(product))


def _fresh_order(products: list[Product], ranked_by: str) -> list[Product]:
    """The index's order, corrected for fresh values: a sorted answer keeps in-stock
    products first, and a price order follows the current prices. A ranking by
    relevance, or by kinds in turn, stays as the index ranked it."""
    if ranked_by in ("relevance", KINDS):
        return products

    def key(product: Product) -> tuple[bool, float]:
        sold_out = not in_stock(product)
        price = _number(product.get("price"))
        if ranked_by == "price":
            return sold_out, price if price is not None else float("inf")
        if ranked_by == "price_desc":
            return sold_out, -price if price is not None else float("inf")
        return sold_out, 0.0  # the index's order on the spec stands

    return sorted(products, key=key)


def _instead(instead: Instead, named: Any, page: Page) -> tuple[dict[str, Any], str]:
    """The products in stock offered instead, as the model reads them, and its note."""
    rows = [
        compact(
            p,
            with_category=p.get("category") != named,
            with_summary=False,
            weight_unit=page.weight_unit,
        )
        for p in instead.products
    ]
    pid = instead.of.get("productId")
    cited = cite_as(pid) if isinstance(pid, str) else pid
    if not rows:
        return {"for": cited, "products": as_table([])}, f"Nothing like {cited} is in stock."
    said = {"for": cited, "sharing": instead.sharing, "products": as_table(rows)}
    return said, (
        f"{cited} is out of stock; inStockInstead has the nearest in stock to it "
        f"(same {instead.sharing}): offer those."
    )


def _price_limited(query: InventoryInput, found: Found) -> bool:
    """Whether a price limit, the model's or one the keywords said, ruled this search."""
    limits = {"minPrice", "maxPrice"}
    asked = {k for k in limits if getattr(query, k) is not None}
    return bool(asked | (limits & found.understood.keys()) | (limits & found.nearest.keys()))


def _price_limits(query: InventoryInput, found: Found) -> list[float]:
    """The price limits this search read: the model's, and those read in the keywords."""
    limits = [getattr(query, k) for k in ("minPrice", "maxPrice")]
    limits += [found.understood.get(k) for k in ("minPrice", "maxPrice")]
    return [float(v) for v in limits if isinstance(v, int | float) and not isinstance(v, bool)]


def _currency_note(said: str, store: str, limited: bool) -> str:
    """What the model is told when the shopper's amount is in another currency than the
    store's: that nothing was converted, and that it says so."""
    read = "the price limit was read" if limited else "prices are"
    return (
        f"The shopper's amount is in {said}, but {read} in the store's {store}, "
        "unconverted (currencySaid): tell the shopper."
    )


def _demand_words(words: Sequence[str]) -> list[str]:
    return [word[:MAX_DEMAND_WORD_CHARS] for word in words[:MAX_DEMAND_WORDS]]


def _describe(query: InventoryInput, asked: dict[str, str]) -> str:
    """The query in one line, each product asked for by its id (``asked``: the ids the
    model's handles and near misses named)."""
    fields = query.model_dump(exclude_none=True)
    if "productIds" in fields:
        fields["productIds"] = [asked.get(pid, pid) for pid in fields["productIds"]]
    return ", ".join(f"{k}={v}" for k, v in fields.items()) or "everything"


def _unstated(shown: list[Product], order: Any) -> str | None:
    """The spec an order ranks by ("weight"), when none of the products ``shown`` states
    it: they came in no order of it, and the model must not say they did."""
    specs = sorted_on(order) if isinstance(order, str) else ()
    columns = {spec.column for spec in specs}
    # Read as the index reads a record ("weightG": 1240 is a weight, a desktop's 0 h none).
    stated = (
        (facet_value(str(key), value) or ("",))[0] in columns
        for p in shown
        for key, value in (p.get("specs") or {}).items()
    )
    return specs[0].label if specs and not any(stated) else None


def _answer(call: ToolCall, query: InventoryInput, found: Found, page: Page) -> ToolOutput:
    count: int | str = found.count if found.exact else f"{found.count}+"
    extras: dict[str, Any] = dict(found.extras)
    if found.understood:
        extras["understood"] = found.understood
    if found.relaxed:
        extras["relaxed"] = relaxed_message(found.relaxed, found.nearest, found.ranked_by)
    if found.nearest:
        extras["nearestTo"] = found.nearest
    if found.unknown:
        # A brand or a kind the store does not sell ("huawei", "kayaks"): what the model
        # says the store does not carry, rather than offer what was found as it.
        extras["notInCatalog"] = _demand_words(found.unknown)
    notes = list(found.notes)
    if foreign := foreign_currency(query.keywords, page.currency, _price_limits(query, found)):
        # "under €600" in a store priced in dollars was read as $600: nothing converts it.
        extras["currencySaid"] = {"said": foreign, "store": page.currency}
        notes.append(_currency_note(foreign, page.currency, _price_limited(query, found)))
        found.remarks.append(f"amount said in {foreign}, read in {page.currency}")
    # The category the search named, or read in the words, is said once, not per product.
    named = query.category or found.understood.get("category")
    records: list[dict[str, Any]] = []
    if found.instead:
        extras["inStockInstead"], note = _instead(found.instead, named, page)
        notes.append(note)
        records += [full_record(p) for p in found.instead.products]
        found.remarks.append(f"{len(found.instead.products)} in stock instead")
    # Show as many of the best matches as fit the result budget, so that what the
    # model reads and what the ledger keeps are the same products.
    shown: list[Product] = []
    compacts: list[dict[str, Any]] = []
    budget = MAX_RESULT_BYTES - 400 - result_size(extras) - result_size(notes)
    used = kept = sum(result_size(r) + 2 for r in records)
    for product in found.products[: page.size]:
        item = compact(
            product,
            with_category=product.get("category") != named,
            with_summary=page.summaries,
            weight_unit=page.weight_unit,
        )
        record = full_record(product)
        used += result_size(item) + 2
        kept += result_size(record) + 2
        if used > budget or (shown and kept > MAX_LEDGER_BYTES):
            break
        shown.append(product)
        compacts.append(item)
        records.insert(len(shown) - 1, record)
    # The next page starts at the first match not shown: a fresh price order may have
    # moved one up, and one shown twice is better than one never shown.
    unseen = [found.ranks.get(str(p.get("productId")), found.end) for p in found.products]
    unseen = unseen[len(shown) :]
    after = min([*unseen, found.end]) if shown else page.offset
    more = found.count - after
    plus = "" if found.exact else "+"
    if more > 0 and after <= MAX_OFFSET:
        extras["nextOffset"] = after
        notes.append(
            f"{more}{plus} more match; narrow the search, or ask with offset {after} for more."
        )
    elif more > 0 and not query.productIds:
        notes.append(f"{more}{plus} more match; narrow the search to see others.")
    elif page.offset and not shown:
        notes.append(f"Nothing at offset {page.offset}: there are {count} matches.")
    said = found.understood
    order = query.sortBy or said.get("sortBy") or said.get("unsorted")
    if shown and (unstated := _unstated(shown, order)):
        notes.append(f"None of these states its {unstated}: they are in no order of it.")
    if shown and found.ranked_by == KINDS:
        notes.append("No kind was asked: each kind in turn, the cheapest of each first.")
    # One table, each field named once (shared.products.table): a quarter fewer tokens.
    table = as_table(compacts)
    for_model: dict[str, Any] = {"count": count, "shown": len(shown), "products": table}
    if page.offset:
        for_model["offset"] = page.offset
    for_model |= extras
    if notes:
        for_model["note"] = " ".join(notes)
    # "How I found this" shows the products' ids, never the handles the model used.
    summary = "; ".join(
        [
            f"{count} products for {_describe(query, found.asked)}",
            f"showed {len(shown)}",
            *found.remarks,
        ]
    )
    asked = call.tool_use.input
    if found.asked and isinstance(asked.get("productIds"), list):
        ids = [found.asked.get(pid, pid) for pid in asked["productIds"]]
        asked = {**asked, "productIds": ids}
    demand = None
    if found.unknown is not None:
        unknown = _demand_words(found.unknown)
        demand = Demand(found=found.count, relaxed=list(found.relaxed), unknown=unknown)
    return call.success(
        for_model, summary, Ledger(products=records), trace_input=asked, demand=demand
    )
