"""A store's variants of one product: "Dune - Paperback" and "Dune - Hardcover", "iPad - 64
GB / Blue" and "iPad - 256 GB". A Shopify or WooCommerce export names each variant
"<title> - <options>" (:func:`shared.platform.product.catalog_rows`), so the name a shopper
says of them ("cheaper than Dune", "than the iPad") is the part before the options."""

from __future__ import annotations

import functools
import re
from typing import Final

from shared.search.series import name_words

_OPTIONS: Final = re.compile(r"\s+[-\u2013\u2014]\s+")
"""What sets a variant's options apart from its product's name: a dash between spaces."""
_ARTICLES: Final = frozenset({"the", "a", "an"})


def without_options(name: str) -> str:
    """``name`` without the options after its last dash between spaces ("Dune - Paperback":
    "Dune"; "iPad - 64 GB / Blue": "iPad"); ``name`` itself where it has none."""
    cuts = list(_OPTIONS.finditer(name))
    base = name[: cuts[-1].start()].strip() if cuts else name
    return base or name


@functools.lru_cache(maxsize=4096)
def _words(said: str, maker: tuple[str, ...] = ()) -> tuple[str, ...]:
    """The words of a name, articles aside and its maker's name (``maker``'s words) at its
    start aside. Kept: a search compares one name said with many products' names, and a
    catalog's brands are few."""
    words = tuple(w for w in name_words(said) if w not in _ARTICLES)
    return words[len(maker) :] if maker and words[: len(maker)] == maker else words


def names_product(said: str, name: str, brand: str | None) -> bool:
    """Whether the name ``said`` is the product ``name``'s, its options, its articles and its
    maker's name at its start aside: "Hobbit" is "The Hobbit - Paperback"'s, "iPad" "Apple
    iPad - 256 GB"'s and "XPS 15" "Dell XPS 15 - 16 GB / 512 GB"'s; not "Dune Messiah"'s,
    and a maker's name alone ("Apple") names none."""
    maker = _words(brand or "")
    wanted = _words(said, maker)
    return bool(wanted) and _words(without_options(name), maker) == wanted
