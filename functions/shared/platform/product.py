"""A store platform's product, in one shape for every platform and every way it arrives,
and the one mapping from it to the catalog's products.

A Shopify export's rows under one handle, a WooCommerce export's row (a variation with
its parent's), a webhook's JSON payload and a page of an Admin API all say the same
things about a product: its title, vendor, categories or type, tags, description,
attributes, pictures, handle and ids, and for each variant its SKU, price, compare-at
price, inventory, options, picture and ids. Each platform's reader (or payload adapter)
fills a :class:`PlatformProduct` with them, in the platform's own meaning (a variant's
inventory already summed over the store's locations, a price already read from its
text, the product's page already made from the store's address), and
:func:`catalog_rows` turns it into catalog products: one per variant, or the reason the
product is not imported. What a product becomes is decided here alone, so that a row, a
payload and an API page of the same product become the same catalog product.
"""

from __future__ import annotations

import functools
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field

from shared.catalog.categories import Category
from shared.catalog.derive import kind_named
from shared.catalog.specs import AUTHOR, FORM_FACTOR, GENRE, ISBN
from shared.platform.draft import (
    UNTRACKED_STOCK_NOTE,
    Draft,
    description,
    isbn,
    product_id,
    unknown_stock_note,
)
from shared.platform.mapping import genre_tag, kind_of, maker_tag, spec_key
from shared.platform.rows import Raw, ReadOptions, SkippedRow
from shared.products.product import MAX_SPECS, MAX_TAG, MAX_TAGS

Attribute = tuple[str, str | tuple[str, ...]]
"""An attribute's name and its value, or its values (a list a product is offered in)."""


@dataclass(frozen=True)
class PlatformVariant:
    """One variant of a product: what a shopper buys, and what becomes a catalog product."""

    line: int = 0
    """Where it was read (a CSV's line); 0 for a payload."""
    sku: str = ""
    fallback_id: str = ""
    """What identifies it when it has no SKU (Shopify: the handle and its option values;
    WooCommerce: ``wc-`` and its ID)."""
    title: str = ""
    """Its own name, when the platform gives one (a WooCommerce variation's)."""
    options: tuple[tuple[str, str], ...] = ()
    """The options it is chosen by, each a name and its value ("Storage", "256 GB")."""
    price: float | None = None
    """What a shopper pays now (a sale price while the sale is on)."""
    compare_at_price: float | None = None
    """The price before the sale."""
    inventory: int | None = None
    """Units for sale, summed over the store's locations; None when not counted."""
    untracked: bool = False
    """The store sells it without counting it (WooCommerce: "Manage stock?" off and "In
    stock"; Shopify: inventory not tracked): in stock, with no count (``inventory`` None).
    An out-of-stock status is a count of 0 instead."""
    stock_status: str = ""
    """The source's stock status when it gives no count and is neither sold uncounted nor
    out of stock (WooCommerce's "backorder", "onbackorder"): what the import's note names."""
    tracking_said: bool = True
    """Whether the source says if the store counts it. Shopify's product webhooks since
    API 2024-07 leave ``inventory_management`` out: a writer that holds the product keeps
    what it holds (an uncounted product stays uncounted), and tracking changes arrive by
    the sync or by a level with a count."""
    image: str = ""
    barcode: str = ""
    platform_id: str = ""
    inventory_item_id: str = ""
    """The platform's inventory item of the variant (Shopify's), which stock webhooks name."""
    url: str = ""
    """Its own page (Shopify: the product's page with ``?variant=``)."""
    description: tuple[str, ...] = ()
    """Its own description, when it has one, as HTML parts (else the product's)."""
    problems: tuple[tuple[str, str], ...] = ()
    """What its reader could not read: (catalog field, message)."""


@dataclass(frozen=True)
class PlatformProduct:
    """A product as its platform describes it (see the module docstring)."""

    title: str
    vendor: str = ""
    categories: tuple[str, ...] = ()
    """Its category paths and product type, in the order they decide."""
    tags: tuple[str, ...] = ()
    description: tuple[str, ...] = ()
    """HTML parts, in the order a shopper reads them (WooCommerce: short, then long)."""
    attributes: tuple[Attribute, ...] = ()
    """What every variant has (metafields, a parent's attributes that are no option)."""
    custom_fields: tuple[tuple[str, str], ...] = ()
    """The store's own fields that name the maker (WooCommerce's custom meta
    ``book_author``, ``publisher``: ``names_maker``): read, as a tag that names it
    ("Author: Frank Herbert"), where no attribute or option says the same."""
    images: tuple[str, ...] = ()
    handle: str = ""
    platform_id: str = ""
    url: str = ""
    not_sold: str = ""
    """Why it is not for sale (a draft, archived, a gift card); empty when it is."""
    variants: tuple[PlatformVariant, ...] = ()
    lines: tuple[int, ...] = ()
    """Every line it was read from: what a skip names."""
    option_joiner: str = " / "
    """Between a variant's option values in its name ("256 GB / Obsidian")."""
    columns: Mapping[str, str] = field(default_factory=dict)
    """The source's name for each catalog field (a CSV's column), for messages."""


def catalog_rows(product: PlatformProduct, options: ReadOptions) -> Iterator[Raw | SkippedRow]:
    """Each variant of ``product`` as a catalog product (validated by ``rows``), or one
    :class:`SkippedRow` saying why the product is not imported."""
    decision = options.categories.decide(list(product.categories))
    if product.not_sold or decision.category is None:
        yield SkippedRow(product.lines, product.not_sold or decision.reason)
        return
    category = decision.category
    kind = kind_of(product.categories, category)
    text = _text(product.description)
    tags = _tags(product.tags)
    makers = [*product.custom_fields, *filter(None, map(maker_tag, tags))]
    if category != Category.BOOKS:
        # An author is a book's: "Author: Staff Pick" on a phone is a label, not a spec.
        makers = [(name, value) for name, value in makers if spec_key(name) != AUTHOR.key]
    genre = _genre(product, tags, options) if category == Category.BOOKS else None
    for variant in product.variants:
        draft = Draft(variant.line, product.columns, category_from=decision.path)
        fields = draft.fields
        for name, value in product.attributes:
            draft.add_spec(name, list(value) if isinstance(value, tuple) else value)
        values = [value for _, value in variant.options]
        for name, value in variant.options:
            draft.add_spec(name, value)
        for name, value in makers:
            draft.add_maker(name, value)
        if genre and GENRE.key not in draft.specs and len(draft.specs) < MAX_SPECS:
            # Where no attribute, option or metafield names the genre: a tag's, else the
            # category path's, so a sold-out book's nearest in stock share it.
            draft.specs[GENRE.key] = genre[0]
            if genre[1]:
                draft.notes.append(genre[1])
        name = variant.title or (
            f"{product.title} - {product.option_joiner.join(values)}" if values else product.title
        )
        _identify(draft, product, variant)
        fields["name"] = name
        if product.vendor:
            fields["brand"] = product.vendor
        fields["category"] = category
        _price(draft, variant)
        own = _text(variant.description) if variant.description else ""
        if not (own or text):
            draft.notes.append("no description in the export: its name stands in for one")
        fields["description"] = own or text or name
        if variant.inventory is not None:
            fields["stock"] = max(variant.inventory, 0)
        elif variant.untracked and options.default_stock is None:
            # Sold without a count: in stock, and no number a shopper could be told.
            draft.notes.append(UNTRACKED_STOCK_NOTE)
            fields["stock"] = 0
            fields["stockTracked"] = False
        else:
            default = options.default_stock or 0
            draft.notes.append(unknown_stock_note(default, variant.untracked, variant.stock_status))
            fields["stock"] = default
        picture = variant.image or (product.images[0] if product.images else "")
        if picture:
            fields["imageUrl"] = picture
        if variant.url or product.url:
            fields["url"] = variant.url or product.url
        if tags:
            fields["tags"] = tags
        if product.platform_id:
            fields["platformProductId"] = product.platform_id
        if variant.platform_id:
            fields["platformVariantId"] = variant.platform_id
        if variant.inventory_item_id:
            fields["platformInventoryItemId"] = variant.inventory_item_id
        code = isbn(variant.barcode)
        if category == Category.BOOKS and code:
            draft.specs.setdefault(ISBN.key, code)
        if category != Category.BOOKS:
            draft.specs.pop(AUTHOR.key, None)  # an "Author" attribute or option, too
        _kind(draft, kind, category)
        yield draft.raw()


GENRE_FROM_PATH_NOTE = (
    "a book's genre read from its category path (the deepest name under its books "
    "category), which no Genre attribute, metafield or tag gave: check them with storechat "
    "catalog words genre"
)


def _genre(
    product: PlatformProduct, tags: list[str], options: ReadOptions
) -> tuple[str, str] | None:
    """A book's genre where its attributes may name none, and the note that says where it
    was read: a tag "Genre: Science Fiction" (no note), else its category path's."""
    for tag in tags:
        said = genre_tag(tag)
        if said:
            return said, ""
    filed = options.categories.genre(product.categories)
    return (filed, GENRE_FROM_PATH_NOTE) if filed else None


def _kind(draft: Draft, kind: str | None, category: str) -> None:
    """The kind of computer: an attribute that says it ("Form Factor: Notebook"), in the
    kind's own word; else what the product's category or type names."""
    said = draft.specs.get(FORM_FACTOR.key)
    named = kind_named(FORM_FACTOR, said) if isinstance(said, str) else None
    if named is not None and named.category == category:
        draft.specs[FORM_FACTOR.key] = named.value
    elif said is None and kind is not None:
        draft.specs[FORM_FACTOR.key] = kind


def _identify(draft: Draft, product: PlatformProduct, variant: PlatformVariant) -> None:
    # What tells the variant apart besides its SKU: a duplicate SKU's id is made from it.
    draft.variant = variant.fallback_id or None
    source = variant.sku or variant.fallback_id
    identity = product_id(source) if source else None
    if identity:
        draft.fields["productId"] = identity
    elif product.handle:
        draft.problem("productId", f"no usable id: neither a SKU nor the handle {product.handle!r}")
    else:
        draft.problem("productId", "no usable id: the row has neither a SKU nor an ID")


def _price(draft: Draft, variant: PlatformVariant) -> None:
    said = {name for name, _ in variant.problems}
    for name, message in variant.problems:
        draft.problem(name, message)
    if variant.price is None:
        if "price" not in said:
            draft.problem("price", "is empty: every variant needs a price")
        return
    draft.fields["price"] = variant.price
    before = variant.compare_at_price
    # Only a price above today's says the product is on sale; a platform's compare-at
    # price at or below it (left over from an old sale) says nothing a shopper can use.
    if before is not None and before > variant.price:
        draft.fields["compareAtPrice"] = before


def _tags(tags: tuple[str, ...]) -> list[str]:
    kept: dict[str, str] = {}
    for tag in tags:
        text = " ".join(tag.split())
        if text and len(text) <= MAX_TAG:
            kept.setdefault(text.casefold(), text)
    return list(kept.values())[:MAX_TAGS]


@functools.lru_cache(maxsize=256)
def _text(parts: tuple[str, ...]) -> str:
    # Once per product, not per variant (or per variation of one parent): HTML parsing
    # is most of an import's time.
    return description(*parts) if parts else ""
