"""A catalog record twice over: compact for the model, whole (and clean) for the ledger;
and records read from the snapshot itself, for a catalog with no read by id."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from shared.products.catalog_table import CatalogRead, Product
from shared.products.citing import cite_as
from shared.products.ledger import clean_record
from shared.products.stock import TRACKED, counted
from shared.products.weight import DEFAULT_WEIGHT_UNIT, for_model
from shared.search import Hit, SearchIndex, SearchQuery
from shared.search.schema import UNCOUNTED_STOCK
from shared.text.sanitize import clean_text, clean_value

SUMMARY_CHARS = 70


def _informative(value: Any) -> bool:
    # A desktop's 0-inch screen or 0 h battery says "none", which the form factor says.
    return value not in (None, "", 0, [], {})


def compact(
    product: Product,
    *,
    with_category: bool = True,
    with_summary: bool = True,
    weight_unit: str = DEFAULT_WEIGHT_UNIT,
) -> dict[str, Any]:
    """The fields the model needs to choose and cite a product, and nothing else: its
    id as the model cites it (:func:`shared.products.citing.cite_as`).

    Every token here is read on every later call of the turn: the category is left out
    when the search named it (or read it in the words, and says so in ``understood``),
    specs that say "none" are left out, and the description is cut to its first words,
    or left out (the ledger keeps the whole record for the response). A weight is
    rounded as a shopper reads it, in the store's unit (``weight_unit``), and a product
    on sale says so, with the price before the sale.
    """
    specs = {k: v for k, v in (product.get("specs") or {}).items() if _informative(v)}
    pid = product.get("productId")
    item: dict[str, Any] = {
        # An id a model could not copy back faithfully is given as its handle.
        "productId": cite_as(pid) if isinstance(pid, str) else pid,
        "name": clean_text(str(product.get("name", "")), 120),
        "brand": clean_text(str(product.get("brand", "")), 60),
    }
    if with_category:
        item["category"] = product.get("category")
    item["price"] = product.get("price")
    sale = on_sale(product)
    if sale:
        item["sale"] = sale
    # A product the store sells uncounted is in stock with no count: null, and says so.
    item["stock"] = product.get("stock") if counted(product) else None
    if not counted(product):
        item[TRACKED] = False
    item["specs"] = clean_value(for_model(specs, weight_unit), 80)
    if with_summary:
        item["summary"] = clean_text(str(product.get("description", "")), SUMMARY_CHARS)
    return item


def on_sale(product: Product) -> dict[str, Any] | None:
    """``{"was": 999.0, "off": "10%"}`` for a product whose price before a sale is above
    its price; None for any other."""
    price, before = product.get("price"), product.get("compareAtPrice")
    if isinstance(price, bool) or isinstance(before, bool):
        return None
    if not isinstance(price, int | float) or not isinstance(before, int | float):
        return None
    if not before > price >= 0:
        return None
    return {"was": before, "off": f"{(before - price) / before:.0%}"}


def full_record(product: Product) -> dict[str, Any]:
    """A catalog record as the response shows it: every field, cleaned of control
    characters, its id as the catalog holds it."""
    return clean_record(product, 2000)


class SnapshotRecords:
    """Products by id from the snapshot itself, for a catalog with no read by id.

    The records hold what the index keeps: name, brand, category, price and stock as
    of the snapshot, and the specs it searches on.
    """

    def __init__(self, index: SearchIndex) -> None:
        self.index = index

    def products_by_id(self, ids: Sequence[str], *, deadline_s: float | None) -> CatalogRead:
        wanted = tuple(dict.fromkeys(ids))
        if not wanted:
            return CatalogRead([])
        hits = self.index.search(SearchQuery(productIds=wanted, limit=len(wanted))).products
        return CatalogRead([_hit_record(hit) for hit in hits])


def _hit_record(hit: Hit) -> Product:
    record: Product = {
        "productId": hit.productId,
        "name": hit.name,
        "brand": hit.brand,
        "category": hit.category,
        "price": hit.price,
        "stock": hit.stock,
        "specs": hit.specs,
    }
    if hit.stock >= UNCOUNTED_STOCK:
        record |= {"stock": 0, TRACKED: False}
    if hit.compareAtPrice is not None:
        record["compareAtPrice"] = hit.compareAtPrice
    return record
