"""What every platform reader builds a catalog product with: ids, prices, descriptions,
ISBNs, and the :class:`Draft` a product's fields and specs are gathered in."""

from __future__ import annotations

import hashlib
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from shared.catalog.categories import Category
from shared.catalog.specs import AUTHOR
from shared.platform.html_text import html_to_text
from shared.platform.mapping import BRAND_NAMES, is_brand, spec_entry
from shared.platform.rows import Raw, RowProblem
from shared.platform.said_specs import with_said_specs
from shared.products.product import MAX_DESCRIPTION, MAX_PRODUCT_ID, MAX_SPECS

MAX_BRAND = 100
"""The longest brand a product may have (``Product.brand``)."""

_PRICE = re.compile(r"\d+(?:\.\d+)?")
_DECIMAL_COMMA = re.compile(r"\d+,\d{1,2}")
_THOUSANDS = re.compile(r"\d{1,3}(?:,\d{3})+(?:\.\d+)?")


def product_id(text: str) -> str | None:
    """A catalog product id from a SKU (or from a handle and option values), as the store
    writes it: only the spaces at its ends go. One longer than an id may be keeps its
    start and a hash of the whole, so it stays unique and the same on every import."""
    cleaned = text.strip()
    if not cleaned:
        return None
    if len(cleaned) <= MAX_PRODUCT_ID:
        return cleaned
    digest = hashlib.sha256(text.encode()).hexdigest()[:10]
    return f"{cleaned[: MAX_PRODUCT_ID - 11].rstrip()}-{digest}"


def price(text: str, decimal_comma: bool) -> float | None:
    """A price cell as a number, or None when the cell is empty.

    Raises ``ValueError`` for anything else that is not a plain amount.
    """
    text = text.strip()
    if not text:
        return None
    if _THOUSANDS.fullmatch(text) and not decimal_comma:
        text = text.replace(",", "")
    elif _DECIMAL_COMMA.fullmatch(text):
        # A store whose locale writes 999,00 exports its prices so (WooCommerce does).
        text = text.replace(",", ".")
    if not _PRICE.fullmatch(text):
        raise ValueError(f"{text!r} is not a price (write it as 1299.00)")
    return float(text)


def description(*parts: str) -> str:
    """The plain text of the export's description fields, in order, without repeats."""
    texts: list[str] = []
    for part in parts:
        text = html_to_text(part, MAX_DESCRIPTION) if part.strip() else ""
        if text and text not in texts:
            texts.append(text)
    return html_to_text("\n".join(texts), MAX_DESCRIPTION) if len(texts) > 1 else "".join(texts)


_ISBN = re.compile(r"97[89]\d{10}")


def isbn(barcode: str) -> str | None:
    """A barcode that is an ISBN-13 (a book's EAN), without spaces or dashes."""
    code = re.sub(r"[\s-]", "", barcode)
    return code if _ISBN.fullmatch(code) else None


UNTRACKED_STOCK_NOTE = (
    "stock not counted by the store (WooCommerce: Manage stock? off and In stock; Shopify: "
    "inventory not tracked): imported as in stock with no count, so shoppers are told it "
    "is in stock and never how many; --default-stock N imports such a product with the "
    "count N instead"
)


def unknown_stock_note(default: int, untracked: bool = False, status: str = "") -> str:
    """What was done with a product the export gives no count for: ``untracked`` when the
    store says it sells it uncounted (imported with ``--default-stock``'s count), one
    whose ``status`` says something else (on backorder), else one whose count and status
    are both missing."""
    if status and not untracked:
        told = ", so shoppers are told it is out of stock" if default == 0 else ""
        return (
            f"no stock count in the export, and the stock status {status!r} (on backorder): "
            f"imported with stock {default}{told} (--default-stock N sets another count)"
        )
    if untracked:
        return (
            f"stock not counted by the store (in stock, no count): imported with stock "
            f"{default}, the count --default-stock gave"
        )
    if default == 0:
        return (
            "no stock count and no stock status in the export: imported with stock 0, so "
            "shoppers are told it is out of stock; --default-stock N sets another count"
        )
    return f"no stock count in the export: imported with stock {default} (--default-stock)"


AUTHOR_AS_BRAND_NOTE = (
    "a book with no brand or publisher in the export: its author is its brand (a Publisher "
    "attribute or metafield gives the publisher instead)"
)


def no_brand(category: object, columns: Mapping[str, str]) -> str:
    """Why a product has no brand: which fields could have named one. ``columns``: the
    export's column of each field (none for a webhook's or an API's product)."""
    where = "is empty" if "brand" in columns or not columns else "the export has no brand column"
    names = ", ".join(BRAND_NAMES)
    if category == Category.BOOKS:
        return f"{where}, and no attribute or tag ({names}, Author) names the book's maker"
    return f"{where}, and no attribute or tag ({names}) names a brand"


SAID_SPECS_NOTE = (
    "specs read from the title or description (RAM, storage, screen, weight, battery, "
    "camera), which no option, attribute or metafield gave: check them with storechat "
    "catalog export"
)


@dataclass
class Draft:
    """A product being put together from an export's row or rows."""

    line: int
    columns: Mapping[str, str]
    fields: dict[str, Any] = field(default_factory=dict)
    specs: dict[str, Any] = field(default_factory=dict)
    brands: list[str] = field(default_factory=list)
    """Brand-like attributes (Brand, Publisher), used when the export has no brand: the
    options' and attributes' first, then a store's own fields' and tags'."""
    problems: list[RowProblem] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    category_from: str | None = None
    variant: str | None = None
    """What the platform tells this variant apart by besides its SKU (see :class:`Raw`)."""

    def problem(self, column_key: str, message: str) -> None:
        self.problems.append(RowProblem(self.line, self.columns.get(column_key, ""), message))

    def add_spec(self, name: str, value: str | list[str]) -> None:
        """An option or attribute: a catalog spec if it is one, else text under its name."""
        if is_brand(name):
            # A WooCommerce attribute's values are a list, of one value for a brand.
            named = [value] if isinstance(value, str) else value
            self.brands.extend(brand for brand in named[:1] if brand.strip())
        if isinstance(value, list):
            if len(value) == 1:
                value = value[0]
            else:
                entry = spec_entry(name, "")
                key = entry[0] if entry else None
                if key and key not in self.specs and len(self.specs) < MAX_SPECS:
                    self.specs[key] = value
                return
        entry = spec_entry(name, value) if value else None
        if entry and len(self.specs) < MAX_SPECS:
            key, spec = entry
            self.specs[key] = spec

    def add_maker(self, name: str, value: str) -> None:
        """A store's own field or a tag that names the maker (``names_maker``): kept
        where no option or attribute says the same, so it is added after them."""
        if is_brand(name):
            self.brands.append(value)
            return
        entry = spec_entry(name, value) if value else None
        if entry and entry[0] not in self.specs and len(self.specs) < MAX_SPECS:
            self.specs[entry[0]] = entry[1]

    def raw(self) -> Raw:
        data = dict(self.fields)
        if "brand" not in data and self.brands:
            data["brand"] = self.brands[0]
        if "brand" not in data and data.get("category") == Category.BOOKS:
            # A book's maker is its publisher (the catalog's own books' brand), else its
            # author: a book shop's export seldom fills the brand.
            author = _author(self.specs.get(AUTHOR.key))
            if author:
                data["brand"] = author
                self.notes.append(AUTHOR_AS_BRAND_NOTE)
        if "brand" not in data:
            # Named by the catalog's field when the source has no column for it (a webhook's
            # body, an export without one), so that it is the one problem said about it.
            column = self.columns.get("brand") or "brand"
            self.problems.append(
                RowProblem(self.line, column, no_brand(data.get("category"), self.columns))
            )
        data["specs"] = dict(self.specs)
        if with_said_specs(data, MAX_SPECS) and SAID_SPECS_NOTE not in self.notes:
            self.notes.append(SAID_SPECS_NOTE)
        return Raw(
            self.line,
            data,
            tuple(self.problems),
            tuple(self.notes),
            self.columns,
            self.category_from,
            self.variant,
        )


def _author(said: object) -> str:
    """A book's author or authors as its brand ("Douglas Preston, Lincoln Child"); the
    first alone when all of them are longer than a brand may be."""
    names = [said] if isinstance(said, str) else said if isinstance(said, list) else []
    names = [" ".join(str(name).split()) for name in names if str(name).strip()]
    joined = ", ".join(names)
    return joined if len(joined) <= MAX_BRAND else names[0][:MAX_BRAND].strip() if names else ""
