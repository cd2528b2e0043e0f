"""``storechat catalog import``: check a whole file, say what it holds, then write it.

The file is read twice: once to check every row (keeping only what is wrong, what is
skipped and the ids it names), and once to write, so a file of any size needs no
more memory than its ids and its problems. ``--dry-run`` stops after the check and
prints what the import would change; ``--replace`` also deletes every product the
file does not hold.

Two guards protect a store's catalog from a file that is not what the operator thinks:

* ``--replace`` refuses to delete more than half of the store's own products (and more
  than ten of them; ``shared.platform.diff.shrink``) unless ``--allow-shrink`` is given: a file far
  smaller than the catalog is most often a partial export (Shopify's "Current page" is 50
  products), and a full sync with it would delete the rest. The dry run says the same.
* The bundled sample never mixes silently with a store's own products: an import that
  brings the store's products into a catalog still holding the sample says what happens
  to the sample (kept beside them, or deleted by ``--replace``) and how to remove it
  (``storechat catalog remove-sample``). The sample's products are not the store's own:
  deleting them is never a shrink.
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import TextIO

from shared.catalog.specs import FORM_FACTOR
from shared.platform.diff import deletions, fingerprints, plan
from shared.platform.diff import shrink as shrink_guard
from shared.platform.mapping import CategoryMap
from shared.products.product import Product, ProductDeletion
from storechat.catalog.errors import CatalogFileError
from storechat.catalog.mapping import load_category_map
from storechat.catalog.progress import Progress
from storechat.catalog.rows import (
    PLATFORMS,
    BadRow,
    Format,
    ReadOptions,
    Row,
    SkippedRow,
    ValidRow,
    detect_format,
    read_rows,
)
from storechat.catalog.store import CatalogStore
from storechat.catalog.textfile import is_empty

EXIT_INVALID = 2
SHOWN_LINES = 12
"""Line numbers listed per reason before the rest are only counted."""


@dataclass
class Checked:
    """What the check of a file found: every problem, and just enough about the rest."""

    valid: int = 0
    bad: list[BadRow] = field(default_factory=list)
    skipped: dict[str, list[int]] = field(default_factory=lambda: defaultdict(list))
    notes: dict[str, list[int]] = field(default_factory=lambda: defaultdict(list))
    named: set[str] = field(default_factory=set)
    """Every product id the valid rows name."""
    categories: Counter[tuple[str, str]] = field(default_factory=Counter)
    """(the platform's category, the catalog's, with the kind of computer) -> products."""
    unlinked: int = 0
    """Products without the address of their page."""

    @property
    def keep(self) -> set[str]:
        """The ids of invalid rows: a full sync leaves those products as they are."""
        return {row.product_id for row in self.bad if row.product_id}


def read_options(args: argparse.Namespace, fmt: Format, store_url: str | None) -> ReadOptions:
    """The read options the arguments give; ``store_url`` is the environment's
    (``STORE_URL``), which ``--store-url`` overrides."""
    if fmt not in PLATFORMS:
        for flag, given in (
            ("--category-map", args.category_map),
            ("--default-stock", args.default_stock),
            ("--store-url", args.store_url),
        ):
            if given is not None:
                raise CatalogFileError(
                    f"{flag} is for platform exports (--format {' or '.join(PLATFORMS)})"
                )
    if args.max_price <= 0:
        raise CatalogFileError("--max-price must be more than 0")
    if args.default_stock is not None and args.default_stock < 0:
        raise CatalogFileError("--default-stock must be 0 or more")
    return ReadOptions(
        max_price=args.max_price,
        categories=load_category_map(args.category_map) if args.category_map else CategoryMap(),
        default_stock=args.default_stock,
        store_url=args.store_url or store_url,
    )


def run_import(
    args: argparse.Namespace,
    open_store: Callable[[], CatalogStore],
    *,
    store_url: str | None = None,
) -> int:
    path: Path = args.file
    fmt = detect_format(path, args.format)
    if not path.is_file():
        raise CatalogFileError(f"no such file: {path}")
    options = read_options(args, fmt, store_url)
    if is_empty(path):
        raise CatalogFileError(
            f"{path} is empty: there is nothing to import (an export that came out empty is "
            "not an empty catalog; nothing was changed)"
        )
    source = Source(str(path), path.name, lambda: read_rows(path, fmt, options), fmt in PLATFORMS)
    return import_rows(source, args, open_store, options)


@dataclass(frozen=True)
class Source:
    """Where an import's rows come from: a file, or a platform's Admin API."""

    name: str
    """What messages call it: the file's path, or the API."""
    label: str
    """Its short name, for progress lines: the file's own name."""
    rows: Callable[[], Iterator[Row]]
    """Every row, validated, in order: called once to check and once to write."""
    platform: bool
    """A platform's products (categories mapped, pages linked)."""


def import_rows(
    source: Source,
    args: argparse.Namespace,
    open_store: Callable[[], CatalogStore],
    options: ReadOptions,
) -> int:
    """Check every row of ``source``, say what it holds, then write it (or, with
    ``args.dry_run``, say what writing it would change); ``args.replace`` is a full sync."""
    name = source.name
    store = open_store()  # a stack that cannot be used fails before a long read
    checked = check(source)
    report(checked, sys.stderr, skip_invalid=args.skip_invalid)
    if source.platform and checked.unlinked and not options.store_url:
        print(
            f"note: {checked.unlinked:,} products link to no page of the store, for want of its "
            "address: pass --store-url https://your-shop.example (or set STORE_URL)",
            file=sys.stderr,
        )

    if checked.bad and not args.skip_invalid:
        other = (
            f", or pass --skip-invalid to import the other {_rows(checked.valid)}"
            if checked.valid
            else ""
        )
        print(
            f"error: {name} has {_rows(len(checked.bad))} that cannot be imported (above); "
            f"nothing was imported. Fix them{other}.",
            file=sys.stderr,
        )
        return EXIT_INVALID
    if not checked.valid:
        why = (
            "every row was skipped or invalid (above)"
            if checked.skipped or checked.bad
            else "it holds a header and no rows"
        )
        print(f"error: nothing to import from {name}: {why}; nothing was changed", file=sys.stderr)
        return EXIT_INVALID
    if source.platform:
        write_categories(checked, sys.stdout)

    rows = _valid(source)
    sample = set(store.sample_products())
    if args.dry_run:
        prints = fingerprints(store.products())
        planned = plan(prints, rows, replace=args.replace, keep=checked.keep)
        print(f"dry run: {source.label} into {store.description}: {planned.summary()}")
        planned.write(sys.stdout)
        held = set(prints)
        gone_ids = (
            {g.productId for g in deletions(held, checked.named, checked.keep)}
            if args.replace
            else set()
        )
        refused = shrink(gone_ids, held, sample, allow=args.allow_shrink)
        if refused:
            print(f"error: {refused}", file=sys.stderr)
            return EXIT_INVALID
        _say_sample(sample, checked, args, sys.stdout, dry_run=True)
        print("nothing was written (without --dry-run, the import makes these changes)")
        return 0

    gone: list[ProductDeletion] = []
    if args.replace:
        held = set(store.product_ids())
        gone = list(deletions(held, checked.named, checked.keep))
        refused = shrink({g.productId for g in gone}, held, sample, allow=args.allow_shrink)
        if refused:
            print(f"error: {refused}", file=sys.stderr)
            return EXIT_INVALID
    writing = Progress(f"importing {source.label}", checked.valid + len(gone), sys.stderr)
    applied = store.apply(_chain(rows, gone), writing)
    writing.finish()
    print(f"imported {_rows(checked.valid)} into {store.description}: {applied.summary()}")
    _say_sample(sample, checked, args, sys.stdout, dry_run=False)
    if args.replace and checked.keep:
        kept = (
            "1 product whose row is invalid was kept as it was"
            if len(checked.keep) == 1
            else f"{len(checked.keep):,} products whose rows are invalid were kept as they were"
        )
        print(f"full sync: {kept}, not deleted", file=sys.stderr)
    if checked.bad:
        print(
            f"skipped {_rows(len(checked.bad))} that cannot be imported (listed above)",
            file=sys.stderr,
        )
    return 0


def shrink(deleted: set[str], held: set[str], sample: set[str], *, allow: bool) -> str:
    """Why a full sync that deletes ``deleted`` from a store holding ``held`` is refused,
    or "" when it is not (see the module docstring). The sample's products do not count."""
    refused = shrink_guard(deleted, held, sample, allow=allow)
    if refused is None:
        return ""
    return (
        f"--replace would delete {refused.lost:,} of the catalog's {refused.own:,} products and "
        f"keep {refused.kept:,}: a file far smaller than the catalog is most often a partial "
        "export (an export of the current page or of a search, not of all products), and a "
        "full sync with it deletes the rest. Nothing was changed. Export all products and "
        "import that file; if the store really sells only these, run the import again with "
        "--allow-shrink."
    )


def _say_sample(
    sample: set[str], checked: Checked, args: argparse.Namespace, out: TextIO, *, dry_run: bool
) -> None:
    """What happens to the bundled sample when the store's own products arrive beside it."""
    own = checked.named - sample
    if not sample or not own:
        return
    products = f"{len(sample):,} product{'s' if len(sample) != 1 else ''}"
    if args.replace:
        gone = sample - checked.named
        if gone:
            verb = "would be" if dry_run else "were"
            print(
                f"note: the bundled sample's {len(gone):,} products {verb} deleted: --replace "
                "keeps only the file's products",
                file=out,
            )
        return
    target = f" --stack {args.stack}" if getattr(args, "stack", None) else ""
    kept = "stay" if not dry_run else "would stay"
    print(
        f"note: the catalog also holds the bundled sample ({products}, such as "
        f"{', '.join(sorted(sample)[:3])}), which {kept} beside the store's own and are "
        f"shown to shoppers. Remove them with `storechat catalog remove-sample{target}` "
        "(or import the store's whole export with --replace).",
        file=out,
    )


def check(source: Source) -> Checked:
    checked = Checked()
    checking = Progress(f"checking {source.label}", None, sys.stderr)
    for row in source.rows():
        if isinstance(row, BadRow):
            checked.bad.append(row)
        elif isinstance(row, SkippedRow):
            checked.skipped[row.reason] += row.lines
        else:
            checked.valid += 1
            checked.named.add(row.row.productId)
            for note in row.notes:
                checked.notes[note].append(row.line)
            if row.category_from and isinstance(row.row, Product):
                kind = row.row.specs.get(FORM_FACTOR.key)
                shown = (
                    f"{row.row.category} ({kind})" if isinstance(kind, str) else row.row.category
                )
                checked.categories[(row.category_from, shown)] += 1
            if isinstance(row.row, Product) and row.row.url is None:
                checked.unlinked += 1
        checking.advance()
    checking.finish()
    return checked


def report(checked: Checked, out: TextIO, *, skip_invalid: bool) -> None:
    label = "skipped " if skip_invalid else ""
    for row in checked.bad:
        for problem in row.problems:
            print(f"{label}{problem}", file=out)
    for reason, lines in checked.skipped.items():
        print(f"skipped {_lines(lines)}: {reason}", file=out)
    for note, lines in checked.notes.items():
        products = f"{len(lines):,} product{'s' if len(lines) != 1 else ''}"
        print(f"note: {products} ({_lines(lines)}): {note}", file=out)


def write_categories(checked: Checked, out: TextIO) -> None:
    print("categories:", file=out)
    for (source, category), products in sorted(checked.categories.items()):
        print(f"  {source} -> {category}: {products:,}", file=out)


def _valid(source: Source) -> Iterator[Product | ProductDeletion]:
    return (row.row for row in source.rows() if isinstance(row, ValidRow))


def _chain(
    rows: Iterable[Product | ProductDeletion], gone: Iterable[ProductDeletion]
) -> Iterator[Product | ProductDeletion]:
    # Products first: a write that stops half way has deleted nothing yet.
    yield from rows
    yield from gone


def _rows(count: int) -> str:
    return f"{count:,} row{'s' if count != 1 else ''}"


def _lines(lines: list[int]) -> str:
    """``[4, 5, 6, 9]`` as "lines 4-6, 9"; a long list ends with how many more."""
    ranges: list[tuple[int, int]] = []
    for line in sorted(set(lines)):
        if ranges and line == ranges[-1][1] + 1:
            ranges[-1] = (ranges[-1][0], line)
        else:
            ranges.append((line, line))
    shown = [f"{a}" if a == b else f"{a}-{b}" for a, b in ranges[:SHOWN_LINES]]
    if len(ranges) > SHOWN_LINES:
        shown.append(f"and {len(ranges) - SHOWN_LINES:,} more")
    word = "line" if len(set(lines)) == 1 else "lines"
    return f"{word} {', '.join(shown)}"
