"""What a catalog store does, wherever it is: the local file or a deployed stack's table."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Any, Protocol, TextIO

from shared.catalog.categories import CATEGORIES
from shared.products.catalog_data import load_catalog
from shared.products.product import Product, ProductDeletion
from storechat.catalog.progress import Progress

Row = Product | ProductDeletion


@dataclass
class Applied:
    """What an import changed. A deployed table is written blind (BatchWriteItem cannot
    say what was there), so it counts ``written`` instead of added/updated/unchanged."""

    added: int = 0
    updated: int = 0
    unchanged: int = 0
    deleted: int = 0
    not_there: int = 0
    written: int = 0
    batches: int = 0

    def summary(self) -> str:
        parts = [
            f"{count:,} {what}"
            for count, what in (
                (self.added, "added"),
                (self.updated, "updated"),
                (self.unchanged, "unchanged"),
                (self.written, "written"),
                (self.deleted, "deleted"),
                (self.not_there, "already gone"),
            )
            if count
        ]
        text = ", ".join(parts) or "nothing to change"
        if self.batches:
            text += f" in {self.batches:,} batch{'es' if self.batches != 1 else ''}"
        return text


class CatalogStore(Protocol):
    """Where ``storechat catalog`` reads and writes products."""

    @property
    def description(self) -> str:
        """Where the products are, in words: "the local catalog (…)", "stack X (table Y)"."""
        ...

    def products(self) -> Iterator[dict[str, Any]]: ...

    def product_ids(self) -> Iterator[str]:
        """Every product's id: what a full sync compares the file with."""
        ...

    def categories(self) -> Iterator[dict[str, Any]]:
        """Each product with at least its ``category``: what stats counts."""
        ...

    def apply(self, rows: Iterable[Row], progress: Progress) -> Applied:
        """Put each product by ``productId`` and delete each deletion's product."""
        ...

    def reset(self, stream: TextIO) -> str:
        """Go back to the bundled sample; returns what happened, in words."""
        ...

    def sample_products(self) -> list[str]:
        """The ids of the bundled sample's products the store holds (:func:`is_sample`)."""
        ...


def category_counts(products: Iterable[dict[str, Any]]) -> dict[str, int]:
    """Products per category, every known category listed (0 when empty), sorted."""
    counts = Counter({category: 0 for category in CATEGORIES})
    counts.update(str(product.get("category")) for product in products)
    return dict(sorted(counts.items()))


def sample_names() -> dict[str, str]:
    """The bundled sample's products: their names by id."""
    return {str(p["productId"]): str(p["name"]) for p in load_catalog()}


def is_sample(product: dict[str, Any], sample: dict[str, str]) -> bool:
    """Whether ``product`` is the bundled sample's: its id and its name. A store's own
    product that happens to share an id with the sample is not."""
    return sample.get(str(product.get("productId"))) == product.get("name")
