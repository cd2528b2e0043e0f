"""What a store's platform knows, kept: a store team imports its export, then its shoppers ask.

``tests/support/exports/shopify_locations.csv`` is the product export of a Shopify store
with two locations (an ``Inventory Available: <location>`` column each, and no single
quantity), whose products carry tags, compare-at prices, a weight metafield in pounds,
and product types such as "Laptop Computers", "Notebooks", "Desktop", "Phone" and "Cell
Phones". ``woocommerce_locations.csv`` is a WooCommerce export with a stock-locations
plugin's meta columns, tags, a scheduled sale and variations. ``woocommerce_books.csv``
and ``shopify_books.csv`` are book shops' exports that name no brand (Brands, Vendor): the
author is in an attribute, a metafield, a custom field or a tag.
"""

from __future__ import annotations

import csv
import json
from pathlib import Path
from typing import Any

import pytest

from shared.products.catalog_data import load_catalog
from tests.integration.converse_fixtures import asks_for_tools, lookup, replies, write_replay
from tests.support.catalog_cli import home, stack, storechat

__all__ = ["home", "stack", "storechat"]  # fixtures the tests below use

EXPORTS = Path(__file__).resolve().parents[1] / "support" / "exports"
SHOPIFY = str(EXPORTS / "shopify_locations.csv")
WOOCOMMERCE = str(EXPORTS / "woocommerce_locations.csv")
BOOKS_WOOCOMMERCE = str(EXPORTS / "woocommerce_books.csv")
BOOKS_SHOPIFY = str(EXPORTS / "shopify_books.csv")
STORE = "https://northwind.example"
SHOPIFY_IDS = {
    "UX3405-16",
    "UX3405-32",
    "MMFJ3LL/A",  # the SKU as the store writes it, its slash too
    "ANV15-51",
    "GA05843-US",
    "SM-S921-256",
    "BK-HOBBIT-01",
    "BK-GONEGIRL-02",
}
LAPTOPS = {"UX3405-16", "UX3405-32", "ANV15-51"}
SAMPLE = len(load_catalog())


def _exported(storechat: Any, *target: str) -> dict[str, dict[str, Any]]:
    run = storechat("catalog", "export", *target)
    assert run.code == 0, run.err
    return {p["productId"]: p for p in map(json.loads, run.out.splitlines())}


def _imported(storechat: Any, *args: str) -> Any:
    run = storechat("catalog", "import", "--format", "shopify", SHOPIFY, *args)
    assert run.code == 0, run.err
    return run


def _ask(storechat: Any, question: str, *args: str) -> dict[str, Any]:
    run = storechat("ask", question, "--json", *args)
    assert run.code == 0, run.err
    body: dict[str, Any] = json.loads(run.out)
    return body


# -- what the export holds, kept -----------------------------------------------------------


def test_a_shopify_export_keeps_each_products_page_sale_tags_kind_and_stock(
    storechat: Any,
) -> None:
    # Given a store's Shopify export and its address, When the team imports it
    run = _imported(storechat, "--store-url", STORE + "/", "--replace")

    # Then the import names each platform category with the catalog's category and kind
    assert "  Notebooks -> COMPUTERS (laptop): 1" in run.out
    assert "  Electronics > Computers -> COMPUTERS (desktop): 1" in run.out  # its Type: Desktop
    assert "  Phone -> MOBILE: 1" in run.out and "  Cell Phones -> MOBILE: 1" in run.out
    products = _exported(storechat)
    assert set(products) == SHOPIFY_IDS
    zenbook = products["UX3405-16"]
    # its page on the store (Shopify's export has no variant id: the product's page)
    assert zenbook["url"] == f"{STORE}/products/asus-zenbook-14"
    assert "platformProductId" not in zenbook and "platformVariantId" not in zenbook
    # on sale: the price, and the compare-at price before the sale
    assert (zenbook["price"], zenbook["compareAtPrice"]) == (899.0, 999.0)
    assert "compareAtPrice" not in products["UX3405-32"]  # none in the export
    # a compare-at price no higher than the price says no sale
    assert "compareAtPrice" not in products["SM-S921-256"]
    assert zenbook["tags"] == ["student", "ultrabook"]
    # the kind of computer: the taxonomy's leaf, else the product type
    assert zenbook["specs"]["formFactor"] == "laptop"  # "... > Laptops"
    assert products["ANV15-51"]["specs"]["formFactor"] == "laptop"  # Type "Notebooks"
    assert products["MMFJ3LL/A"]["specs"]["formFactor"] == "desktop"  # Type "Desktop"
    # stock summed over the two locations ("not stocked" at one counts nothing; an
    # oversold location counts against the other, as Shopify's own total does)
    assert zenbook["stock"] == 3 + 4
    assert products["MMFJ3LL/A"]["stock"] == 5
    assert products["GA05843-US"]["stock"] == 2 - 1
    # the weight metafield, "2.6 lb", kept in the catalog's unit
    assert zenbook["specs"]["weightKg"] == pytest.approx(1.1793, abs=1e-4)


def test_the_store_address_comes_from_store_url_and_a_wrong_one_is_refused(
    storechat: Any, home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Given no address at all, When the export is imported,
    # Then the team is told the products link to no page, and how to give the address
    run = _imported(storechat, "--dry-run")
    assert "note: 8 products link to no page of the store" in run.err
    assert "--store-url" in run.err

    # Given an address without its scheme, Then the import stops before reading, saying so
    bad = storechat("catalog", "import", "--format", "shopify", SHOPIFY, "--store-url", "shop.io")
    assert bad.code == 2
    assert "--store-url='shop.io': the store's address is a web address such as" in bad.err
    assert not (home / "catalog.jsonl").exists()

    # Given the address in STORE_URL, Then the products link to it
    monkeypatch.setenv("STORE_URL", "https://www.northwind.example")
    _imported(storechat)
    page = _exported(storechat)["BK-HOBBIT-01"]["url"]
    assert page == "https://www.northwind.example/products/the-hobbit"


def test_a_variant_id_in_the_export_links_the_variant(storechat: Any, tmp_path: Path) -> None:
    # Given an export with the product's and the variant's ids (as an export app writes
    # them), When it is imported, Then the product keeps both, and its page opens on the
    # variant
    with open(SHOPIFY, encoding="utf-8", newline="") as source:
        rows = list(csv.DictReader(source))
    for number, row in enumerate(rows, start=1):
        row["ID"] = "7700123" if row["Handle"] == "asus-zenbook-14" else str(8800000 + number)
        row["Variant ID"] = str(41000000000 + number)
    path = tmp_path / "with_ids.csv"
    with path.open("w", encoding="utf-8", newline="") as out:
        writer = csv.DictWriter(out, fieldnames=list(rows[0]))
        writer.writeheader()
        writer.writerows(rows)

    run = storechat("catalog", "import", "--format", "shopify", str(path), "--store-url", STORE)

    assert run.code == 0, run.err
    zenbook = _exported(storechat)["UX3405-32"]
    assert zenbook["platformProductId"] == "7700123"
    assert zenbook["platformVariantId"] == "41000000002"
    assert zenbook["url"] == f"{STORE}/products/asus-zenbook-14?variant=41000000002"


def test_a_woocommerce_export_keeps_its_ids_sale_tags_and_stock_at_every_location(
    storechat: Any,
) -> None:
    run = storechat(
        "catalog", "import", "--format", "woocommerce", WOOCOMMERCE, "--store-url", STORE
    )

    assert run.code == 0, run.err
    assert "  Computers > Desktop Computers -> COMPUTERS (desktop): 1" in run.out
    products = _exported(storechat)
    mini, small, large = (
        products["IDC-90SM0-M1"],
        products["GA-PIXEL-8A-128"],
        products["GA-PIXEL-8A-256"],
    )
    # a simple product: its own id; a variation: its parent's, and its own
    assert (mini["platformProductId"], mini.get("platformVariantId")) == ("201", None)
    assert (small["platformProductId"], small["platformVariantId"]) == ("210", "211")
    # WordPress's link by id, the parent's for a variation: the store redirects it
    assert mini["url"] == f"{STORE}/?p=201" and small["url"] == large["url"] == f"{STORE}/?p=210"
    # the sale price, while the sale is on, and the regular price before it
    assert (small["price"], small["compareAtPrice"]) == (399.0, 499.0)
    assert "compareAtPrice" not in large
    # the stock-locations plugin's columns summed; a product with a Stock of its own keeps it
    assert (mini["stock"], small["stock"], large["stock"]) == (2 + 3, 1, 0)
    assert products["9780064400558"]["stock"] == 7
    assert mini["tags"] == ["office", "compact"]
    assert mini["specs"]["formFactor"] == "desktop"


def test_a_woocommerce_stores_shopper_finds_the_desktop_with_its_stock_from_every_location(
    storechat: Any,
) -> None:
    run = storechat(
        "catalog", "import", "--format", "woocommerce", WOOCOMMERCE, "--replace",
        "--store-url", STORE,
    )  # fmt: skip
    assert run.code == 0, run.err

    body = _ask(storechat, "Do you have a small desktop for the office?")

    (desktop,) = body["products"]
    assert (desktop["productId"], desktop["stock"]) == ("IDC-90SM0-M1", 5)
    assert desktop["url"] == f"{STORE}/?p=201" and desktop["platformProductId"] == "201"


# -- shoppers' questions -------------------------------------------------------------------


def test_a_shopper_asking_for_laptops_is_shown_laptops_and_never_the_desktop(
    storechat: Any,
) -> None:
    # Given the store's catalog, with laptops and a Mac mini all under "Computers"
    _imported(storechat, "--replace")

    # When a shopper asks for laptops, Then laptops are shown, and the desktop is not
    body = _ask(storechat, "Which laptops do you have?")
    shown = {p["productId"] for p in body["products"]}
    assert shown and shown <= LAPTOPS
    assert "Nothing in the catalog matched" not in body["answer"]
    light = _ask(storechat, "I need a light laptop for travel")
    assert light["products"] and {p["productId"] for p in light["products"]} <= LAPTOPS

    # When they ask for a desktop, Then it is the Mac mini
    desk = _ask(storechat, "Do you have a desktop computer?")
    assert [p["productId"] for p in desk["products"]] == ["MMFJ3LL/A"]


def test_a_shopper_asking_what_is_on_sale_is_shown_only_that_with_its_old_price(
    storechat: Any,
) -> None:
    _imported(storechat, "--replace", "--store-url", STORE)

    body = _ask(storechat, "Any phones on sale?")

    # Only the Pixel is on sale (the Galaxy's compare-at price is its price)
    (phone,) = body["products"]
    assert phone["productId"] == "GA05843-US"
    assert (phone["price"], phone["compareAtPrice"]) == (799.0, 899.0)
    assert phone["url"] == f"{STORE}/products/google-pixel-9"  # for the card's link
    plain = storechat("ask", "Any phones on sale?")
    assert "[GA05843-US] Google Pixel 9 - 128 GB · Google · $799.00 (was $899.00)" in plain.out


def test_a_tag_is_a_word_the_search_matches(storechat: Any, tmp_path: Path) -> None:
    # Given a laptop whose only word about games is its "gaming" tag
    _imported(storechat, "--replace")

    # When a shopper asks for something for gaming, Then that laptop is found
    body = _ask(storechat, "Something for gaming?")
    assert [p["productId"] for p in body["products"]] == ["ANV15-51"]

    # And when a model asks the catalog for books for kids, only The Hobbit (tagged "kids";
    # its text never says so) comes back: the other book it names is not vouched for
    model = write_replay(
        tmp_path,
        [
            asks_for_tools(lookup(keywords="books for my kids")),
            replies(
                "The Hobbit [BK-HOBBIT-01] is a fine first fantasy; Gone Girl "
                "[BK-GONEGIRL-02] is not for kids."
            ),
        ],
    )
    kids = _ask(storechat, "A book for my kids?", "--model", model)
    assert [p["productId"] for p in kids["products"]] == ["BK-HOBBIT-01"]
    assert kids["unverifiedCitations"] == ["BK-GONEGIRL-02"]


def test_the_price_before_a_sale_is_checked_like_any_price(storechat: Any, tmp_path: Path) -> None:
    # Given the Pixel on sale at $799, $899 before
    _imported(storechat, "--replace")

    # When a model says it is down from $999, Then the answer says $899, and why
    model = write_replay(
        tmp_path,
        [
            asks_for_tools(lookup(keywords="phones on sale")),
            replies("The Google Pixel 9 [GA05843-US] is $799, down from $999."),
        ],
    )
    body = _ask(storechat, "Any phones on sale?", "--model", model)
    assert body["answer"] == "The Google Pixel 9 [GA05843-US] is $799, down from $899."
    (correction,) = body["corrections"]
    assert (correction["field"], correction["record"]) == ("compareAtPrice", "$899.00")

    # And a model that has the sale right is left as it wrote
    right = write_replay(
        tmp_path,
        [
            asks_for_tools(lookup(keywords="phones on sale")),
            replies("The Google Pixel 9 [GA05843-US] is $799, was $899."),
        ],
        name="right.json",
    )
    assert _ask(storechat, "Any phones on sale?", "--model", right)["corrections"] == []


@pytest.mark.parametrize(("unit", "said"), [("kg", "1.18 kg"), ("lb", "2.6 lb")])
def test_a_weight_is_said_rounded_in_the_stores_unit(
    storechat: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, unit: str, said: str
) -> None:
    # Given a laptop of 2.6 lb, kept as 1.1793 kg, in a store that sells in ``unit``
    _imported(storechat, "--replace")
    monkeypatch.setenv("STORE_WEIGHT_UNIT", unit)

    # When a shopper asks for a light laptop, Then its weight reads as people write it
    run = storechat("ask", "I need a light laptop for travel")
    assert run.code == 0, run.err
    assert f"[UX3405-16]: {said}" in run.out  # the answer
    assert f"16 GB RAM, {said}\n" in run.out  # the product's line
    assert "1.1793" not in run.out

    # And a model that gets it wrong is corrected with the catalog's weight, rounded
    model = write_replay(
        tmp_path,
        [
            asks_for_tools(lookup(keywords="light laptop")),
            replies("The Zenbook [UX3405-16] weighs 1.5 kg."),
        ],
    )
    body = _ask(storechat, "How heavy is the Zenbook?", "--model", model)
    assert body["answer"] == "The Zenbook [UX3405-16] weighs 1.18 kg."
    assert body["corrections"][0]["record"] == said


def test_a_wrong_weight_unit_stops_the_command_with_its_name(
    storechat: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("STORE_WEIGHT_UNIT", "stone")
    run = storechat("ask", "a light laptop")
    assert run.code == 2
    assert run.err == "error: STORE_WEIGHT_UNIT: must be kg or lb, got 'stone'\n"


# -- the bundled sample --------------------------------------------------------------------


def test_the_first_import_says_the_sample_stays_and_how_to_remove_it(
    storechat: Any, home: Path
) -> None:
    # Given a store that has imported nothing (its catalog is the bundled sample)
    # When the team dry-runs its export, Then it is told the sample would stay
    dry = _imported(storechat, "--dry-run")
    assert "which would stay beside the store's own" in dry.out
    # When the team imports its export without --replace
    run = _imported(storechat)

    # Then it is told the sample stays beside its products, and how to remove it
    assert f"note: the catalog also holds the bundled sample ({SAMPLE} products, such as" in run.out
    assert "Remove them with `storechat catalog remove-sample`" in run.out
    assert len(_exported(storechat)) == SAMPLE + len(SHOPIFY_IDS)

    # When it removes the sample, Then only its own products are left
    removed = storechat("catalog", "remove-sample")
    assert removed.code == 0, removed.err
    assert f"removed the bundled sample's {SAMPLE} products" in removed.out
    assert set(_exported(storechat)) == SHOPIFY_IDS
    # and the next import has nothing to say about a sample
    assert "bundled sample" not in _imported(storechat).out


def test_remove_sample_before_any_import_is_refused(storechat: Any, home: Path) -> None:
    run = storechat("catalog", "remove-sample")
    assert run.code == 2
    assert "nothing imported yet: the bundled sample is the whole local catalog" in run.err
    assert not home.exists()


def test_a_stack_seeded_with_the_sample_is_told_and_cleaned_the_same_way(
    storechat: Any, stack: list[str]
) -> None:
    # Given a stack whose table holds the sample (a dev environment's seed_sample)
    assert storechat("catalog", "reset", "--yes", *stack).code == 0

    # When the team imports its export there, Then the note names the stack to clean
    run = storechat("catalog", "import", "--format", "shopify", SHOPIFY, *stack)
    assert run.code == 0, run.err
    assert "storechat catalog remove-sample --stack Storechat-test" in run.out

    removed = storechat("catalog", "remove-sample", *stack)
    assert removed.code == 0, removed.err
    assert set(_exported(storechat, *stack)) == SHOPIFY_IDS


# -- a full sync from a partial export -----------------------------------------------------


def _store_export(path: Path, products: int) -> Path:
    """A Shopify export of ``products`` laptops, one variant each."""
    with open(SHOPIFY, encoding="utf-8", newline="") as source:
        reader = csv.DictReader(source)
        header = list(reader.fieldnames or [])
        first = next(reader)
    with path.open("w", encoding="utf-8", newline="") as out:
        writer = csv.DictWriter(out, fieldnames=header)
        writer.writeheader()
        for number in range(1, products + 1):
            writer.writerow(
                {
                    **first,
                    "Handle": f"laptop-{number}",
                    "Title": f"Northwind Laptop {number}",
                    "Variant SKU": f"NW-{number:03d}",
                    "Variant Compare At Price": "",
                }
            )
    return path


def test_a_full_sync_from_a_partial_export_is_refused_unless_the_team_says_so(
    storechat: Any, tmp_path: Path
) -> None:
    # Given a store of 60 products, synced
    whole = _store_export(tmp_path / "all.csv", 60)
    assert storechat("catalog", "import", "--format", "shopify", str(whole), "--replace").code == 0
    # and tonight an export of only the current page of 20
    page = str(_store_export(tmp_path / "page.csv", 20))

    # When it is dry-run, or run, as a full sync, Then both refuse and say why
    dry = storechat("catalog", "import", "--format", "shopify", page, "--replace", "--dry-run")
    run = storechat("catalog", "import", "--format", "shopify", page, "--replace")
    for refused in (dry, run):
        assert refused.code == 2
        assert "--replace would delete 40 of the catalog's 60 products and keep 20" in refused.err
        assert "partial export" in refused.err and "--allow-shrink" in refused.err
    # and nothing changed
    assert len(_exported(storechat)) == 60

    # When the team says the store really sells only these, Then it is done
    allowed = storechat(
        "catalog", "import", "--format", "shopify", page, "--replace", "--allow-shrink"
    )
    assert allowed.code == 0, allowed.err
    assert "40 deleted" in allowed.out
    assert len(_exported(storechat)) == 20


# -- a book shop's export names no brand -------------------------------------------------------


@pytest.mark.parametrize(
    ("platform", "export"), [("woocommerce", BOOKS_WOOCOMMERCE), ("shopify", BOOKS_SHOPIFY)]
)
def test_a_book_shop_that_fills_no_brand_is_imported_and_its_books_found_by_author(
    storechat: Any, platform: str, export: str
) -> None:
    # Given a book shop's export with an empty Brands (Vendor) column, When it is imported
    run = storechat("catalog", "import", "--format", platform, export, "--replace")

    # Then it is, each book by its publisher where given, else its author, and the team is told
    assert run.code == 0, run.err
    assert "its author is its brand" in run.err
    products = _exported(storechat)
    assert products["DUNE-HC"]["brand"] == products["DUNE-HC"]["specs"]["author"] == "Frank Herbert"

    # and a shopper asking for the author's books is shown them, with the author said
    plain = storechat("ask", "Anything by Frank Herbert?")
    assert plain.code == 0, plain.err
    assert "Dune - Hardcover [DUNE-HC]: by Frank Herbert, Hardcover, $29.99." in plain.out


def test_a_laptop_whose_brand_went_missing_is_named_and_nothing_of_it_is_lost(
    storechat: Any, tmp_path: Path
) -> None:
    # Given a store's catalog, synced, with Lenovo's IdeaCentre Mini
    first = storechat("catalog", "import", "--format", "woocommerce", WOOCOMMERCE, "--replace")
    assert first.code == 0, first.err
    before = _exported(storechat)["IDC-90SM0-M1"]
    # and tonight's export, where the desktop's Brands cell came out empty
    with open(WOOCOMMERCE, encoding="utf-8", newline="") as source:
        rows = list(csv.reader(source))
    brands = rows[0].index("Brands")
    (line,) = [n for n, row in enumerate(rows) if row[2] == "IDC-90SM0-M1"]
    rows[line][brands] = ""
    tonight = tmp_path / "tonight.csv"
    with tonight.open("w", encoding="utf-8", newline="") as out:
        csv.writer(out).writerows(rows)

    # When it is imported, Then the import says which row lacks what, and changes nothing
    run = storechat("catalog", "import", "--format", "woocommerce", str(tonight), "--replace")
    assert run.code == 2
    assert (
        f"line {line + 1}, Brands: is empty, and no attribute or tag (Brand, Manufacturer, "
        "Publisher) names a brand" in run.err
    )
    assert _exported(storechat)["IDC-90SM0-M1"] == before

    # When the team imports the rest, Then the desktop is kept as it was, not deleted
    rest = storechat(
        "catalog", "import", "--format", "woocommerce", str(tonight), "--replace", "--skip-invalid"
    )
    assert rest.code == 0, rest.err
    assert "1 product whose row is invalid was kept as it was" in rest.out + rest.err
    assert _exported(storechat)["IDC-90SM0-M1"] == before
