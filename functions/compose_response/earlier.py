"""Products an answer cites from earlier turns of the conversation, read fresh.

A shopper's follow-up ("is it light?") is often answered from what was already said:
the model cites the same product again without calling a tool
(:mod:`compose_response.known` recognises it, by its id or its handle). A product a tool
returned in an earlier turn of this session is a finding too. The state machine
passes the ids of those turns' products (``earlier``: the ``productIds`` that
``SaveTurn`` stored for each turn in the history the model saw, which came from the
ledgers of those turns; nothing a client sends reaches them). The records are not
stored with the turn: the ones the answer cites again are read here from the catalog
table, so their price and stock are today's, and are checked and shown like this
turn's own.

An id only an earlier *answer* mentioned (its text came from the model) is not among
them, nor is one the shopper typed. When there is no table to read (a store's Products
API has no read by id) or the read fails, the earlier products cannot be vouched for,
and their citations are removed as any other unverifiable one.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol

from shared.products.ledger import Sorted, clean_record, sort_records
from shared.runtime.errors import CatalogUnavailable
from shared.runtime.observability import logger

MAX_EARLIER = 100
"""Earlier products read at most (one BatchGetItem), the most recently shown first."""
FIELD_CHARS = 2000
"""A record's text fields are cut as the catalog tool cuts them for its ledger."""


class Catalog(Protocol):
    """Reads products by id (``shared.products.catalog_table.DynamoCatalog``)."""

    def products_by_id(self, ids: Sequence[str], *, deadline_s: float | None) -> Any: ...


def recall(
    ids: Sequence[str], catalog: Catalog | None, *, deadline_s: float | None = None
) -> Sorted:
    """The current records of ``ids`` that the catalog still has, and how many of those
    it has were refused (:func:`shared.products.ledger.sort_records`); none if it cannot say."""
    if not ids:
        return Sorted([], 0)
    if catalog is None:
        logger.warning("earlier products cannot be read: no catalog table", extra={"ids": ids})
        return Sorted([], 0)
    try:
        read = catalog.products_by_id(list(ids)[:MAX_EARLIER], deadline_s=deadline_s)
    except CatalogUnavailable as exc:
        logger.warning("earlier products not read", extra={"ids": ids, "error": str(exc)})
        return Sorted([], 0)
    records = sort_records(clean_record(p, FIELD_CHARS) for p in read.products)
    logger.info(
        "cited from earlier turns, read fresh",
        extra={"ids": list(ids), "found": [r.productId for r in records.products]},
    )
    return records
