"""The nearest in stock to a product that is not: what a shopper who asked for it can buy
today.

When the product a search found first is out of stock ("Is Project Hail Mary in
stock?"), the catalog tool looks once more, in stock only, for products like it: a
book by the same author, else in the same genre, else on the same subject (words of its
description); any other product of the same brand and kind, its name's words ranked
first ("Galaxy S24" finds the other Galaxies), else of its brand, else of its kind. The
model gets them in the same result, with what they share with it, so that it can offer
them without a second round; the ledger keeps them, so that the answer may cite them.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Final

from shared.catalog.categories import Category
from shared.catalog.specs import AUTHOR, FORM_FACTOR, GENRE, SPECS
from shared.products import stock as stock_rule
from shared.products.catalog_table import CatalogSource, Product
from shared.runtime.errors import CatalogUnavailable
from shared.search import SearchIndex, SearchQuery
from shared.search.intents import STOP_WORDS
from shared.search.schema import key_of
from shared.search.words import fold, parser_words

SHOWN: Final = 3
"""How many products in stock are offered instead."""
SEARCHED: Final = 8
"""How many the search brings back: enough that one by the same author or in the same
genre is among them when the catalog has one."""
MAX_KEYWORDS: Final = 120
"""The catalog tool's limit on the length of its keywords."""
SUBJECT: Final = "subject"
KIND: Final = "kind"
_WORD = re.compile(r"[^\W\d_]{4,}")
_NAME_WORD = re.compile(r"[^\W_]+")
SPEC_NAMES: Final = {spec.key: spec.names for spec in SPECS}
"""Each spec's names in stores' exports, by its key."""


@dataclass(frozen=True)
class Instead:
    """Products in stock like one that is not, and what they share with it."""

    of: Product
    sharing: str
    """``author``, ``genre`` or ``subject`` for a book; ``brand`` or ``kind`` for another;
    empty when nothing in stock is near it."""
    products: list[Product]


def _text(product: Product, key: str) -> str:
    """The product's ``brand``, or its spec ``key`` under any name a store's export gives
    it ("Writer" or "Book Author" for the author, "Book Genre" for the genre)."""
    if key == "brand":
        value = product.get(key)
        return value.strip() if isinstance(value, str) else ""
    names = {key_of(n) for n in (key, *SPEC_NAMES.get(key, ()))}
    specs = product.get("specs")
    for name, value in specs.items() if isinstance(specs, dict) else ():
        if key_of(str(name)) in names and isinstance(value, str) and value.strip():
            return value.strip()
    return ""


def _keywords(words: Sequence[str]) -> str:
    keywords = ""
    for word in (w for w in words if w):
        if len(keywords) + len(word) + 1 > MAX_KEYWORDS:
            break
        keywords = f"{keywords} {word}".strip()
    return keywords


def _subject_words(book: Product) -> list[str]:
    """The words of the description that say what the book is about: no stop words, no
    word the search reads as a kind or a limit, nothing its author or genre says."""
    said = f"{_text(book, AUTHOR.key)} {_text(book, GENRE.key)}"
    common = STOP_WORDS | parser_words() | {fold(w) for w in _WORD.findall(said)}
    words = [w.casefold() for w in _WORD.findall(str(book.get("description") or ""))]
    return list(dict.fromkeys(w for w in words if fold(w) not in common))


def _searches(product: Product) -> list[dict[str, Any]]:
    """The searches for products like ``product``, in stock, the nearest first."""
    category = product.get("category")
    base: dict[str, Any] = {"inStockOnly": True}
    if category in tuple(Category):
        base["category"] = category
    if category == Category.BOOKS:
        words = [_text(product, AUTHOR.key), _text(product, GENRE.key), *_subject_words(product)]
        keywords = _keywords(words)
        return [base | {"keywords": keywords}] if keywords else []
    brand = _text(product, "brand")
    form = _text(product, FORM_FACTOR.key)
    if form:
        base[FORM_FACTOR.key] = form
    said = set(_NAME_WORD.findall(brand.casefold()))
    named = _NAME_WORD.findall(str(product.get("name") or ""))
    if keywords := _keywords([w for w in named if w.casefold() not in said]):
        base["keywords"] = keywords
    if not brand:
        return [base]
    # The same brand and kind, then the same brand (an iMac's nearest is a Mac), then
    # the same kind.
    same_brand = {k: v for k, v in base.items() if k != FORM_FACTOR.key} | {"brandId": brand}
    return [{**base, "brandId": brand}, same_brand, base]


def _sharing(product: Product, found: list[Product]) -> tuple[str, list[Product]]:
    """What the nearest share with ``product``, and those that share it: the same
    author, else genre, for a book; the same brand for another; else all found."""
    keys = (AUTHOR.key, GENRE.key) if product.get("category") == Category.BOOKS else ("brand",)
    for key in keys:
        value = _text(product, key).casefold()
        same = [p for p in found if value and _text(p, key).casefold() == value]
        if same:
            return key, same
    return (SUBJECT if product.get("category") == Category.BOOKS else KIND), found


def in_stock_instead(
    product: Product,
    index: SearchIndex,
    reader: CatalogSource,
    deadline_s: float | None,
) -> Instead | None:
    """The products in stock nearest ``product`` (which is not), read fresh: none when
    nothing in stock is near it; None when the search for them fails (what was found
    stands without)."""
    pid = product.get("productId")
    for fields in _searches(product):
        try:
            result = index.search(SearchQuery.from_input(fields, limit=SEARCHED))
            ids = [i for i in result.product_ids if i != pid]
            read = reader.products_by_id(ids, deadline_s=deadline_s)
        except CatalogUnavailable:
            return None
        if result.relaxed and product.get("category") == Category.BOOKS:
            break  # no book shares its author, genre or subject words: none is near
        fresh = {p.get("productId"): p for p in read.products}
        found = [fresh[i] for i in ids if i in fresh and in_stock(fresh[i])]
        if found:
            sharing, near = _sharing(product, found)
            return Instead(product, sharing, near[:SHOWN])
    return Instead(product, "", [])


def in_stock(product: Product) -> bool:
    """Whether the record says ``product`` can be bought now: a count above 0, or a
    product the store sells uncounted (``shared.products.stock``)."""
    return stock_rule.in_stock(product)


def sold_out(product: Product) -> bool:
    """Whether the record says ``product`` cannot be bought now: a stock of none, not a
    stock the record does not give nor one the store does not count."""
    return stock_rule.sold_out(product)
