"""A store's catalog from where it lives: platform exports, a full sync and a dry run,
as an operator runs them on the local catalog and on a deployed stack."""

from __future__ import annotations

import csv
import json
from pathlib import Path
from typing import Any

from shared.products.catalog_data import load_catalog
from storechat.settings import SAMPLE_STORE
from tests.support.catalog_cli import STACK, TABLE, home, stack, storechat

__all__ = ["home", "stack", "storechat"]  # fixtures the tests below use

EXPORTS = Path(__file__).resolve().parents[1] / "support" / "exports"
SHOPIFY = str(EXPORTS / "shopify_products.csv")
WOOCOMMERCE = str(EXPORTS / "woocommerce_products.csv")
SHOPIFY_IDS = {
    "GA05843-US",
    "GA05844-US",
    "UX3405MA-16-512",
    "UX3405MA-32-1T",
    "circe-madeline-miller",
}
SAMPLE = len(load_catalog())


def _ids(storechat: Any, *target: str) -> set[str]:
    run = storechat("catalog", "export", *target)
    assert run.code == 0, run.err
    return {json.loads(line)["productId"] for line in run.out.splitlines()}


def _repriced(tmp_path: Path, sku: str, price: str) -> Path:
    """The Shopify sample with one variant's price changed, as the next night's export."""
    with open(SHOPIFY, encoding="utf-8", newline="") as source:
        rows = list(csv.DictReader(source))
    for row in rows:
        if row["Variant SKU"] == sku:
            row["Variant Price"] = price
    path = tmp_path / "products_export_2.csv"
    with path.open("w", encoding="utf-8", newline="") as out:
        writer = csv.DictWriter(out, fieldnames=list(rows[0]))
        writer.writeheader()
        writer.writerows(rows)
    return path


def test_a_shopify_export_imports_its_variants_and_reports_what_it_skipped(
    storechat: Any,
) -> None:
    # Given a store's Shopify export, When the operator imports it,
    # Then each variant is a product, and stderr lists by line what was not imported.
    run = storechat("catalog", "import", "--format", "shopify", SHOPIFY)

    assert run.code == 0, run.err
    assert "imported 5 rows into the local catalog" in run.out and "5 added" in run.out
    assert "  Electronics > Computers > Laptops -> COMPUTERS (laptop): 2" in run.out
    assert "skipped lines 12-13: a gift card" in run.err
    assert "skipped line 14: a draft (Status: draft)" in run.err
    assert "skipped line 16: archived" in run.err
    assert "note: 1 product (line 11): stock not counted by the store" in run.err
    assert _ids(storechat) >= SHOPIFY_IDS


def test_the_catalogs_own_csv_takes_an_imageurl_column(storechat: Any, tmp_path: Path) -> None:
    path = tmp_path / "phones.csv"
    path.write_text(
        "productId,name,brand,category,price,stock,description,imageUrl\n"
        "MOB-900,Fairphone 5,Fairphone,MOBILE,699.00,5,A repairable phone.,"
        "https://shop.example.com/fairphone-5.jpg\n"
        "MOB-901,Fairphone 4,Fairphone,MOBILE,449.00,2,The one before.,\n",
        encoding="utf-8",
    )
    assert storechat("catalog", "import", str(path)).code == 0
    exported = [json.loads(line) for line in storechat("catalog", "export").out.splitlines()]
    by_id = {product["productId"]: product for product in exported}
    assert by_id["MOB-900"]["imageUrl"] == "https://shop.example.com/fairphone-5.jpg"
    assert "imageUrl" not in by_id["MOB-901"]


def test_a_dry_run_says_what_would_change_and_writes_nothing(storechat: Any, home: Path) -> None:
    run = storechat("catalog", "import", "--format", "woocommerce", WOOCOMMERCE, "--dry-run")

    assert run.code == 0, run.err
    assert "4 to add, 0 to update, 0 unchanged, 0 to delete" in run.out
    assert "  add     SM-S921-256  Samsung Galaxy S24 - 256 GB, Onyx Black" in run.out
    assert "nothing was written" in run.out
    assert not (home / "catalog.jsonl").exists()


def test_a_first_full_sync_leaves_none_of_the_sample(storechat: Any) -> None:
    # Given the bundled sample, When the store's export is imported with --replace,
    # Then the catalog is exactly the export's products.
    dry = storechat("catalog", "import", "--format", "shopify", SHOPIFY, "--replace", "--dry-run")
    assert f"5 to add, 0 to update, 0 unchanged, {SAMPLE} to delete" in dry.out
    assert "  delete  CMP-001  ASUS Zenbook 14 OLED (UX3405)" in dry.out
    assert f"  delete  … and {SAMPLE - 20} more" in dry.out

    run = storechat("catalog", "import", "--format", "shopify", SHOPIFY, "--replace")

    assert run.code == 0, run.err
    assert f"5 added, {SAMPLE} deleted" in run.out
    assert _ids(storechat) == SHOPIFY_IDS


def test_the_next_nights_sync_shows_the_price_change_then_makes_it(
    storechat: Any, tmp_path: Path
) -> None:
    assert storechat("catalog", "import", "--format", "shopify", SHOPIFY, "--replace").code == 0
    tonight = str(_repriced(tmp_path, "GA05844-US", "849.00"))

    dry = storechat("catalog", "import", "--format", "shopify", tonight, "--replace", "--dry-run")

    assert "0 to add, 1 to update, 4 unchanged, 0 to delete" in dry.out
    assert "  update  GA05844-US  Google Pixel 9 - 256 GB / Obsidian: price 899.00 -> 849.00" in (
        dry.out
    )
    run = storechat("catalog", "import", "--format", "shopify", tonight, "--replace")
    assert "1 updated, 4 unchanged" in run.out
    exported = storechat("catalog", "export").out
    assert '"productId": "GA05844-US"' in exported and '"price": 849.0' in exported


def test_a_full_sync_keeps_the_product_of_a_row_it_could_not_read(
    storechat: Any, tmp_path: Path
) -> None:
    # Given last night's catalog, and tonight an export where one variant's price is a
    # typo, When it is synced with --skip-invalid, Then that product is kept as it was.
    assert storechat("catalog", "import", "--format", "shopify", SHOPIFY, "--replace").code == 0
    tonight = str(_repriced(tmp_path, "GA05844-US", "89900000"))

    run = storechat(
        "catalog", "import", "--format", "shopify", tonight, "--replace", "--skip-invalid"
    )

    assert run.code == 0, run.err
    assert "skipped line 7, Variant Price: $89,900,000.00 is above the highest price" in run.err
    assert "1 product whose row is invalid was kept as it was" in run.err
    assert _ids(storechat) == SHOPIFY_IDS


def test_an_export_with_nothing_to_import_fails_and_changes_nothing(
    storechat: Any, tmp_path: Path, home: Path
) -> None:
    # Given an export that holds only drafts, and one that is empty, When either is
    # imported with --replace, Then the import exits 2, says why, and deletes nothing.
    lines = Path(SHOPIFY).read_text(encoding="utf-8").splitlines()
    drafts = tmp_path / "drafts.csv"
    drafts.write_text(f"{lines[0]}\n{lines[13]}\n", encoding="utf-8")  # the draft, line 14
    empty = tmp_path / "empty.csv"
    empty.write_text("", encoding="utf-8")

    run = storechat("catalog", "import", "--format", "shopify", str(drafts), "--replace")
    assert run.code == 2
    assert "skipped line 2: a draft" in run.err
    assert "nothing to import from" in run.err and "every row was skipped" in run.err
    run = storechat("catalog", "import", "--format", "shopify", str(empty), "--replace")
    assert run.code == 2 and "is empty: there is nothing to import" in run.err
    assert not (home / "catalog.jsonl").exists()
    assert len(_ids(storechat)) == SAMPLE


def test_a_category_map_brings_in_what_the_defaults_skip(storechat: Any, tmp_path: Path) -> None:
    mapping = tmp_path / "categories.json"
    mapping.write_text('{"Chargers": "COMPUTERS"}', encoding="utf-8")
    run = storechat(
        "catalog", "import", "--format", "shopify", SHOPIFY, "--category-map", str(mapping)
    )
    assert run.code == 0, run.err
    assert "6 added" in run.out and "A2668" in _ids(storechat)


def test_ask_finds_the_256_gb_one_with_its_own_price_and_stock(storechat: Any) -> None:
    # Given the store's Shopify catalog, When a shopper asks about one size of a phone,
    # Then the answer shows that variant, at its price, with its stock.
    assert storechat("catalog", "import", "--format", "shopify", SHOPIFY, "--replace").code == 0

    run = storechat("ask", "How much is the Google Pixel 9 with 256 GB?", "--json")

    assert run.code == 0, run.err
    body = json.loads(run.out)
    (shown,) = body["products"]
    assert shown["productId"] == "GA05844-US" and shown["price"] == 899.0 and shown["stock"] == 3
    assert shown["imageUrl"].startswith("https://cdn.shopify.com/")
    assert "$899" in body["answer"]


# -- a deployed stack -----------------------------------------------------------------------


def test_a_full_sync_and_a_dry_run_work_the_same_on_a_stack(
    storechat: Any, stack: list[str], home: Path
) -> None:
    # Given a stack's table holding a product the store no longer sells,
    # When the operator dry-runs, then runs, a full sync of the WooCommerce export,
    # Then the dry run names the deletion and writes nothing, and the sync leaves
    # exactly the export's products.
    first = storechat("catalog", "import", "--format", "shopify", SHOPIFY, *stack)
    assert first.code == 0, first.err
    assert f"into stack {STACK} (table {TABLE}): 5 written" in first.out

    dry = storechat(
        "catalog", "import", "--format", "woocommerce", WOOCOMMERCE, "--replace", "--dry-run",
        *stack,
    )  # fmt: skip
    assert dry.code == 0, dry.err
    assert "4 to add, 0 to update, 0 unchanged, 5 to delete" in dry.out
    assert "  delete  GA05843-US  Google Pixel 9 - 128 GB / Obsidian" in dry.out
    assert _ids(storechat, *stack) == SHOPIFY_IDS

    run = storechat(
        "catalog", "import", "--format", "woocommerce", WOOCOMMERCE, "--replace", *stack
    )
    assert run.code == 0, run.err
    assert "4 written, 5 deleted" in run.out
    assert _ids(storechat, *stack) == {"SM-S921-128", "SM-S921-256", "82XQ00BNUS", "wc-120"}
    assert not home.exists()  # the local catalog was left alone


# -- the page, locally ----------------------------------------------------------------------


def test_serve_names_the_picture_hosts_it_will_not_load_and_refuses_a_bad_one(
    storechat: Any, monkeypatch: Any
) -> None:
    # Given the store's Shopify catalog, with its pictures on Shopify's CDN
    assert storechat("catalog", "import", "--format", "shopify", SHOPIFY, "--replace").code == 0
    served: list[tuple[str, ...]] = []
    monkeypatch.setattr(
        "storechat.server.serve", lambda **kwargs: served.append(kwargs["image_hosts"]) or 0
    )

    # When the operator serves the page without naming that host, Then they are told
    # which pictures will not show, and how to show them
    run = storechat("serve")
    assert run.code == 0
    assert (
        "note: 5 product pictures are on https://cdn.shopify.com, which the page may not load "
        "from: pass --image-host https://cdn.shopify.com to show them"
    ) in run.err
    # And with the host named (or in $STORECHAT_IMAGE_HOSTS) nothing is said of pictures
    # (only that the settings are still the sample store's: no --store)
    named = storechat("serve", "--image-host", "https://cdn.shopify.com").err
    assert "pictures" not in named and "without --store" in named
    monkeypatch.setenv("STORECHAT_IMAGE_HOSTS", "https://cdn.shopify.com, https://*.wp.com")
    named = storechat("serve").err
    assert "pictures" not in named and "without --store" in named
    assert served[-1] == ("https://cdn.shopify.com", "https://*.wp.com")
    # And a host that is not an origin stops before anything starts
    bad = storechat("serve", "--image-host", "http://cdn.shopify.com")
    assert bad.code == 2 and "only this machine (localhost) may use http" in bad.err
    assert len(served) == 3


def test_a_store_catalog_served_with_the_sample_stores_settings_is_told_to_name_its_own(
    storechat: Any, monkeypatch: Any
) -> None:
    # Given a store's own export, whose product pages are on its own storefront
    imported = storechat(
        "catalog", "import", "--format", "shopify", SHOPIFY, "--replace",
        "--store-url", "https://techandtales.example",
    )  # fmt: skip
    assert imported.code == 0, imported.err
    monkeypatch.setattr("storechat.server.serve", lambda **kwargs: 0)

    # When the team serves or asks without its store's settings, Then it is told the
    # settings are the sample store's, and how to give its own
    for run in (
        storechat("serve", "--image-host", "https://cdn.shopify.com"),
        storechat("ask", "hi"),
    ):
        assert run.code == 0, run.err
        assert (
            "note: the catalog's product pages are on techandtales.example, but without --store "
            "the settings are the sample store's (shop.example.com)"
        ) in run.err
    # And with its settings named, nothing is said
    named = storechat(
        "serve", "--image-host", "https://cdn.shopify.com", "--store", str(SAMPLE_STORE)
    )
    assert named.code == 0 and named.err == ""


def test_a_store_catalog_with_no_product_pages_is_told_the_settings_are_the_samples(
    storechat: Any,
) -> None:
    # Given a store's own export imported with no storefront address: no product page
    # says whose it is ("what is your return policy?" was answered with The Better
    # Store's, and nothing said so)
    imported = storechat("catalog", "import", "--format", "shopify", SHOPIFY, "--replace")
    assert imported.code == 0, imported.err

    # When the team asks without its store's settings, Then it is told they are the sample's
    asked = storechat("ask", "hi")
    assert asked.code == 0, asked.err
    assert (
        "note: the catalog is not the sample store's, but without --store the settings are "
        "the sample store's (shop.example.com)"
    ) in asked.err
