"""``storechat catalog words [FIELD]``: what the local store carries, as its search index
lists it.

The listing is read from the snapshot the local catalog tool searches (built from the
local catalog, as ``ask``, ``chat`` and ``serve`` build it), so an import shows here at
once: its brands, kinds, authors, genres, operating systems and the values of every
spec, with how many products have each. With ``FIELD`` (``brand``, or a spec key such
as ``author`` or ``ramGb``) every value of that field is listed.
"""

from __future__ import annotations

import argparse
import functools
import json
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from shared.catalog.specs import AUTHOR, GENRE, OS
from shared.search.listing import BRAND
from shared.search.schema import key_of
from storechat.catalog.errors import CatalogError
from storechat.catalog.local_store import load_local_catalog

Home = Callable[[], Path]
SHOWN = 12
"""Values shown per line of the summary; ``FIELD`` lists all of them."""


def add_words_command(commands: argparse._SubParsersAction[Any], home: Home) -> None:
    words = commands.add_parser(
        "words",
        help="list the brands, kinds, authors, genres and spec values the store carries",
        description=(
            "What the local catalog's search index lists: categories, kinds, brands, "
            "authors, genres, operating systems and every spec, with how many products "
            "have each value. Give a FIELD (brand, or a spec key: author, os, ramGb) to "
            "list all of its values."
        ),
    )
    words.add_argument("field", nargs="?", help="brand, or a spec key (author, genre, os...)")
    words.add_argument("--category", help="only this category (BOOKS, COMPUTERS, MOBILE)")
    words.add_argument("--json", action="store_true", help="print the listing as JSON")
    words.set_defaults(func=functools.partial(cmd_words, home=home))


def cmd_words(args: argparse.Namespace, home: Home) -> int:
    from storechat.local import LocalStorechat  # moto starts only for this command

    category = args.category.strip().upper() if args.category else None
    with LocalStorechat(catalog=load_local_catalog(home())) as local:
        listing = local.listing()
        if category and category not in listing.categories():
            known = ", ".join(listing.categories())
            raise CatalogError(f"the catalog has no category {category!r}; it has {known}")
        if args.field:
            values = listing.values(args.field, category)
            if args.json:
                print(json.dumps({"field": args.field, "values": values}, ensure_ascii=False))
            elif not values:
                raise CatalogError(
                    f"the catalog has no values of {args.field!r}; its fields are "
                    f"{_field_names(listing)}"
                )
            else:
                for value, products in values.items():
                    print(f"{products:>8,}  {value}")
            return 0
        if args.json:
            print(json.dumps(listing.summary(top=SHOWN), ensure_ascii=False))
            return 0
        print(_summary(listing.summary(top=SHOWN), listing))
    return 0


def _values(count: int) -> str:
    return f"{count:,} value{'s' if count != 1 else ''}"


def _field_names(listing: Any) -> str:
    return ", ".join(field.name for field in listing.fields())


def _counts(values: Mapping[str, int], total: int | None = None) -> str:
    shown = ", ".join(f"{value} {count:,}" for value, count in values.items())
    more = (total or len(values)) - len(values)
    return shown + (f", and {more:,} more" if more > 0 else "") if shown else "none"


def _summary(summary: dict[str, Any], listing: Any) -> str:
    fields = {field.field: field for field in listing.fields()}
    total = sum(summary["categories"].values())
    lines = [f"{total:,} products: {_counts(summary['categories'])}"]
    for category, kinds in summary["kinds"].items():
        if kinds:
            lines.append(f"kinds of {category.lower()}: {_counts(kinds)}")
    for title, key, field in (
        ("brands", "brands", BRAND),
        ("authors", "authors", key_of(AUTHOR.key)),
        ("genres", "genres", key_of(GENRE.key)),
        ("operating systems", "operatingSystems", key_of(OS.key)),
    ):
        found = fields.get(field)
        lines.append(f"{title}: {_counts(summary[key], found.distinct_values if found else None)}")
    specs = [
        f"{f.name} ({_values(f.distinct_values)}{'' if f.listed else ', not listed'})"
        for f in fields.values()
    ]
    lines.append(f"fields: {', '.join(specs)}")
    lines.append("storechat catalog words FIELD lists every value of one field.")
    return "\n".join(lines)
