"""``storechat catalog import|sync|export|stats|reset|words``: the store's own products.

Without ``--stack`` the commands work on the local catalog under ``$STORECHAT_HOME``
(which ``ask``, ``chat`` and ``serve`` read); with ``--stack NAME`` on that deployed
stack's catalog table. Exit codes: 0 done; 1 DynamoDB refused even after retries;
2 bad input (an invalid row, an unreadable file, a stack that cannot be used).
"""

from __future__ import annotations

import argparse
import functools
import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from shared.catalog.categories import Category
from shared.products.product import ProductDeletion
from storechat.catalog.errors import CatalogFileError
from storechat.catalog.importing import EXIT_INVALID, run_import
from storechat.catalog.local_store import LocalCatalog, jsonl_line, write_jsonl
from storechat.catalog.platform_sync import add_sync_arguments, run_sync
from storechat.catalog.progress import Progress
from storechat.catalog.rows import DEFAULT_MAX_PRICE, FORMATS
from storechat.catalog.store import CatalogStore, category_counts
from storechat.catalog.words import add_words_command
from storechat.settings import STORE_URL_VARIABLE, SettingsError
from storechat.settings import store_url as checked_store_url

Home = Callable[[], Path]


def add_catalog_commands(
    sub: argparse._SubParsersAction[Any], home: Home, store_url: Callable[[], str | None]
) -> None:
    """Add ``catalog`` and its subcommands; ``home`` gives the local store's directory,
    ``store_url`` the store's address from the environment (``STORE_URL``)."""
    catalog = sub.add_parser(
        "catalog",
        help="import, export, count, reset or list the words of the store's products",
        description="The store's products: locally, or on a deployed stack with --stack.",
    )
    commands = catalog.add_subparsers(dest="catalog_command", required=True)

    def target(parser: argparse.ArgumentParser) -> None:
        parser.add_argument(
            "--stack",
            metavar="NAME",
            help="a deployed stack (e.g. Storechat-dev) instead of the local catalog",
        )
        parser.add_argument("--region", help="the stack's AWS region (default: your AWS config)")
        parser.add_argument("--profile", help="the AWS profile to use (default: your AWS config)")

    load = commands.add_parser(
        "import",
        help="add, update or delete products from a file: JSON Lines, CSV, or a Shopify or "
        "WooCommerce product export",
        description=(
            "Validate every row, then write by productId: importing a file twice changes "
            'nothing. A row {"productId": "X", "deleted": true} (in CSV: a deleted column '
            "set to true) deletes product X. If any row is invalid nothing is written, "
            "unless --skip-invalid. A platform export's drafts, gift cards and products of "
            "categories the catalog does not sell are skipped and listed by line."
        ),
    )
    load.add_argument("file", type=Path, help="a .jsonl or .csv file, or a platform's export")
    load.add_argument(
        "--format",
        choices=FORMATS,
        help="the file's format, if not its extension: jsonl, csv, or a platform's product "
        "export (shopify, woocommerce)",
    )
    load.add_argument(
        "--replace",
        action="store_true",
        help="a full sync: afterwards the catalog holds exactly the file's products (every "
        "other product is deleted)",
    )
    _check_and_write_arguments(load)
    target(load)
    load.set_defaults(func=functools.partial(cmd_import, home=home, store_url=store_url))

    export = commands.add_parser("export", help="write every product as JSON Lines")
    export.add_argument("file", nargs="?", help="the file to write (default: standard output)")
    target(export)
    export.set_defaults(func=functools.partial(cmd_export, home=home))

    stats = commands.add_parser("stats", help="count the products, in all and per category")
    stats.add_argument(
        "--json", action="store_true", help='print {"products": N, "categories": {...}}'
    )
    target(stats)
    stats.set_defaults(func=functools.partial(cmd_stats, home=home))

    remove = commands.add_parser(
        "remove-sample",
        help="delete the bundled sample's products, keeping the store's own",
        description="Delete every product of the bundled sample the catalog still holds (by "
        "id and name): what is left is the store's own products.",
    )
    target(remove)
    remove.set_defaults(func=functools.partial(cmd_remove_sample, home=home))

    reset = commands.add_parser("reset", help="go back to the bundled sample catalog")
    reset.add_argument(
        "--yes", action="store_true", help="confirm replacing the catalog with the sample"
    )
    target(reset)
    reset.set_defaults(func=functools.partial(cmd_reset, home=home))

    sync = commands.add_parser(
        "sync",
        help="a full sync from the store platform's Admin API (what webhooks missed)",
        description=(
            "Read every product from Shopify's GraphQL Admin API or WooCommerce's REST API "
            "and make the catalog hold exactly those (as import --replace does with a whole "
            "export): with --dry-run, say what would change. Credentials come from "
            "SHOPIFY_ADMIN_TOKEN, or WOOCOMMERCE_CONSUMER_KEY and WOOCOMMERCE_CONSUMER_SECRET."
        ),
    )
    add_sync_arguments(sync)
    _check_and_write_arguments(sync)
    target(sync)
    sync.set_defaults(func=functools.partial(cmd_sync, home=home, store_url=store_url))

    add_words_command(commands, home)


def _check_and_write_arguments(load: argparse.ArgumentParser) -> None:
    """What ``import`` and ``sync`` share: the guards, the dry run, the platform maps."""
    load.add_argument(
        "--skip-invalid", action="store_true", help="import the valid rows, report the rest"
    )
    load.add_argument(
        "--allow-shrink",
        action="store_true",
        help="let --replace delete more than half of the catalog's products (refused "
        "otherwise: a file that small is usually a partial export)",
    )
    load.add_argument(
        "--dry-run",
        action="store_true",
        help="print what would be added, updated, unchanged and deleted; write nothing",
    )
    load.add_argument(
        "--max-price",
        type=float,
        default=DEFAULT_MAX_PRICE,
        metavar="USD",
        help=f"a row priced above this is invalid (default {DEFAULT_MAX_PRICE:,.0f})",
    )
    load.add_argument(
        "--category-map",
        type=Path,
        metavar="FILE",
        help='platform exports: a JSON object of category names to add, e.g. {"Tablets": '
        f'"{Category.COMPUTERS}", "Laptop Stands": null}}',
    )
    load.add_argument(
        "--store-url",
        metavar="URL",
        help="platform exports: the store's address (https://shop.example.com), which each "
        f"product's page is on (default: ${STORE_URL_VARIABLE})",
    )
    load.add_argument(
        "--default-stock",
        type=int,
        metavar="N",
        help="platform exports: the stock of a product whose export has no count; without "
        "it, one the store sells uncounted is in stock with no count, any other is 0",
    )


def open_store(args: argparse.Namespace, home: Home) -> CatalogStore:
    if args.stack:
        from storechat.catalog.stack import connect  # boto3 only when a stack is asked for

        return connect(args.stack, region=args.region, profile=args.profile)
    return LocalCatalog(home())


def cmd_import(args: argparse.Namespace, home: Home, store_url: Callable[[], str | None]) -> int:
    if args.store_url is not None:
        try:
            args.store_url = checked_store_url(args.store_url, "--store-url")
        except SettingsError as exc:
            raise CatalogFileError(str(exc)) from exc
    return run_import(args, lambda: open_store(args, home), store_url=store_url())


def cmd_sync(args: argparse.Namespace, home: Home, store_url: Callable[[], str | None]) -> int:
    return run_sync(args, lambda: open_store(args, home), store_url=store_url())


def cmd_remove_sample(args: argparse.Namespace, home: Home) -> int:
    store = open_store(args, home)
    if isinstance(store, LocalCatalog) and not store.path.is_file():
        raise CatalogFileError(
            "nothing imported yet: the bundled sample is the whole local catalog; import the "
            "store's products first (or with --replace, which leaves none of the sample)"
        )
    ids = store.sample_products()
    if not ids:
        print(f"{store.description} holds none of the bundled sample's products")
        return 0
    removing = Progress("removing the sample", len(ids), sys.stderr)
    applied = store.apply((ProductDeletion(productId=pid) for pid in ids), removing)
    removing.finish()
    print(
        f"removed the bundled sample's {applied.deleted:,} products from {store.description}; "
        "the store's own products are as they were"
    )
    return 0


def cmd_export(args: argparse.Namespace, home: Home) -> int:
    store = open_store(args, home)
    if args.file in (None, "-"):
        count = 0
        for product in store.products():
            sys.stdout.write(jsonl_line(product))
            count += 1
        sys.stdout.flush()
        print(f"exported {count:,} products from {store.description}", file=sys.stderr)
        return 0
    path = Path(args.file)
    try:
        count = write_jsonl(store.products(), path)
    except OSError as exc:
        raise CatalogFileError(f"cannot write {path}: {exc.strerror or exc}") from exc
    print(f"exported {count:,} products from {store.description} to {path}")
    return 0


def cmd_stats(args: argparse.Namespace, home: Home) -> int:
    store = open_store(args, home)
    counts = category_counts(store.categories())
    total = sum(counts.values())
    if args.json:
        print(json.dumps({"products": total, "categories": counts}))
        return 0
    print(f"{total:,} products in {store.description}")
    for category, count in counts.items():
        print(f"  {category:<10} {count:>8,}")
    return 0


def cmd_reset(args: argparse.Namespace, home: Home) -> int:
    store = open_store(args, home)
    if isinstance(store, LocalCatalog) and not store.path.is_file():
        print(store.reset(sys.stderr))  # nothing imported: nothing to confirm
        return 0
    if not args.yes:
        print(
            f"error: this replaces every product in {store.description} with the bundled "
            "sample; run it again with --yes to go ahead",
            file=sys.stderr,
        )
        return EXIT_INVALID
    print(store.reset(sys.stderr))
    return 0
