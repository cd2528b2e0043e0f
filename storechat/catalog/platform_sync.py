"""``storechat catalog sync --from shopify|woocommerce``: a full sync from the Admin API.

Webhooks are delivered at least once, not always: one may be dropped, and a store
connected after its products existed has sent none for them. The sync reads every
product from the platform's Admin API (``admin_api``), maps each through the platforms'
one mapping (``shared.platform``; the scheduled ``catalog_sync`` function reads through
the same code), and then does what ``catalog import --replace`` does
with a whole export: the same check, report and dry run, the same writes by
``productId``, the deletion of products the store no longer sells, and the same shrink
guard (``--allow-shrink``). Products are numbered in the order the API lists them, and
a problem names that number as an import names a file's line.

Credentials come from the environment, never from the command line (a shell's history
keeps it): ``SHOPIFY_ADMIN_TOKEN`` (an Admin API access token with ``read_products``
and ``read_inventory``) or ``WOOCOMMERCE_CONSUMER_KEY`` and
``WOOCOMMERCE_CONSUMER_SECRET`` (a REST API key with Read access).
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable, Iterator
from urllib.parse import urlsplit

from shared.platform import admin_api
from shared.platform.admin_api import Read, pulled_rows, shopify_products, woocommerce_products
from shared.platform.rows import ReadOptions
from storechat.catalog.errors import CatalogFileError
from storechat.catalog.importing import Source, import_rows, read_options
from storechat.catalog.store import CatalogStore
from storechat.settings import SettingsError
from storechat.settings import store_url as checked_url

PLATFORM_NAMES = {"shopify": "Shopify", "woocommerce": "WooCommerce"}
SHOPIFY_TOKEN = "SHOPIFY_ADMIN_TOKEN"
WOOCOMMERCE_KEY = "WOOCOMMERCE_CONSUMER_KEY"
WOOCOMMERCE_SECRET = "WOOCOMMERCE_CONSUMER_SECRET"

Products = Callable[[ReadOptions], Iterator[Read]]


class AdminApiError(CatalogFileError):
    """The sync cannot go on (a missing token, an API that cannot be read): exit 2."""


def add_sync_arguments(sync: argparse.ArgumentParser) -> None:
    sync.add_argument("--from", dest="platform", required=True, choices=sorted(PLATFORM_NAMES))
    sync.add_argument(
        "--api-url",
        metavar="URL",
        help="Shopify: the shop's admin address, https://SHOP.myshopify.com; WooCommerce: the "
        "WordPress site (default: --store-url)",
    )


def run_sync(
    args: argparse.Namespace,
    open_store: Callable[[], CatalogStore],
    *,
    store_url: str | None,
    environ: dict[str, str] | None = None,
) -> int:
    environ = dict(os.environ) if environ is None else environ
    if args.store_url is not None:
        args.store_url = _url(args.store_url, "--store-url")
    options = read_options(args, args.platform, store_url)
    name = PLATFORM_NAMES[args.platform]
    api = _url(args.api_url, "--api-url") if args.api_url else options.store_url
    if not api:
        raise AdminApiError(
            f"--api-url is needed: the address of the {name} store's Admin API"
            + (" (https://SHOP.myshopify.com)" if args.platform == "shopify" else "")
        )
    products = _reader(args.platform, api, environ)
    host = urlsplit(api).netloc
    print(f"reading every product from {name}'s Admin API ({host})", file=sys.stderr)
    try:
        rows = list(pulled_rows(products(options), options))
    except admin_api.AdminApiError as exc:
        raise AdminApiError(str(exc)) from exc
    # A full sync: the catalog ends with exactly the platform's products.
    args.replace = True
    source = Source(f"{name}'s Admin API ({host})", f"{name} ({host})", lambda: iter(rows), True)
    return import_rows(source, args, open_store, options)


def _url(value: str, flag: str) -> str:
    try:
        return checked_url(value, flag)
    except SettingsError as exc:
        raise AdminApiError(str(exc)) from exc


def _reader(platform: str, api: str, environ: dict[str, str]) -> Products:
    if platform == "shopify":
        token = environ.get(SHOPIFY_TOKEN, "").strip()
        if not token:
            raise AdminApiError(
                f"set {SHOPIFY_TOKEN} to an Admin API access token of the store (a custom app "
                "with read_products and read_inventory)"
            )
        return lambda options: shopify_products(api, token, options.store_url)
    key = environ.get(WOOCOMMERCE_KEY, "").strip()
    secret = environ.get(WOOCOMMERCE_SECRET, "").strip()
    if not (key and secret):
        raise AdminApiError(
            f"set {WOOCOMMERCE_KEY} and {WOOCOMMERCE_SECRET} to a REST API key of the store "
            "(WooCommerce > Settings > Advanced > REST API, Read access)"
        )
    return lambda options: woocommerce_products(api, key, secret, options.store_url)
