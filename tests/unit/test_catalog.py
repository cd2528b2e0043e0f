"""The bundled catalog and the synthetic generator honour one product schema.

Both feed the same inventory table and the same tools, so one validation helper
checks both; if the schema changes, it changes here once.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from bench.catalog_gen import main, synthetic_catalog, write_catalog
from shared.catalog.categories import CATEGORIES
from shared.products.catalog_data import load_catalog
from shared.text.sanitize import has_control_characters

REPO_ROOT = Path(__file__).resolve().parents[2]

REQUIRED_BRANDS = {
    "ASUS", "Dell", "Apple", "Lenovo", "HP", "Samsung", "Microsoft", "Acer", "Razer", "MSI",
    "Penguin Books", "HarperCollins", "Bloomsbury",
}  # fmt: skip
PUBLISHERS = {"Penguin Books", "HarperCollins", "Bloomsbury"}
DEVICE_BRANDS = REQUIRED_BRANDS - PUBLISHERS
PHONE_BRANDS = DEVICE_BRANDS | {"Google", "OnePlus"}

ID_PREFIX = {"COMPUTERS": "CMP", "MOBILE": "MOB", "BOOKS": "BK"}
RECORD_KEYS = {"productId", "name", "brand", "category", "price", "description", "stock", "specs"}

# Key -> accepted types. bool is a subclass of int, so numbers reject it explicitly below.
NUMBER = (int, float)
SPEC_TYPES: dict[str, dict[str, type | tuple[type, ...]]] = {
    "COMPUTERS": {
        "formFactor": str,
        "os": str,
        "cpu": str,
        "ramGb": int,
        "storageGb": int,
        "gpu": str,
        "screenInches": NUMBER,
        "weightKg": NUMBER,
        "batteryHours": NUMBER,
    },
    "MOBILE": {
        "os": str,
        "chip": str,
        "ramGb": int,
        "storageGb": int,
        "screenInches": NUMBER,
        "cameraMp": int,
        "batteryMah": int,
        "weightG": int,
        "fiveG": bool,
    },
    "BOOKS": {
        "author": str,
        "isbn": str,
        "year": int,
        "pages": int,
        "genre": str,
        "format": str,
    },
}
FORM_FACTORS = {"laptop", "desktop", "all-in-one", "2-in-1"}
COMPUTER_OS = {"Windows 11 Home", "Windows 11 Pro", "macOS", "ChromeOS"}


def isbn13_is_valid(isbn: str) -> bool:
    if not re.fullmatch(r"\d{13}", isbn):
        return False
    total = sum(int(digit) * (3 if i % 2 else 1) for i, digit in enumerate(isbn[:12]))
    return (10 - total % 10) % 10 == int(isbn[12])


def assert_valid_product(product: dict[str, Any], *, id_digits: int) -> None:
    """Fail with the product id in the message if ``product`` breaks the catalog schema."""
    pid = product.get("productId")
    assert set(product) == RECORD_KEYS, f"{pid}: keys {sorted(product)}"
    category = product["category"]
    assert category in CATEGORIES, f"{pid}: category {category!r}"
    assert re.fullmatch(rf"{ID_PREFIX[category]}-\d{{{id_digits}}}", pid), f"bad id {pid!r}"

    assert isinstance(product["name"], str) and product["name"].strip(), pid
    price = product["price"]
    assert isinstance(price, NUMBER) and not isinstance(price, bool), f"{pid}: price {price!r}"
    assert price > 0, f"{pid}: price {price}"
    stock = product["stock"]
    assert isinstance(stock, int) and not isinstance(stock, bool), f"{pid}: stock {stock!r}"
    assert 0 <= stock <= 60, f"{pid}: stock {stock}"
    description = product["description"]
    assert isinstance(description, str) and description.strip(), f"{pid}: empty description"
    assert 120 <= len(description) <= 320, f"{pid}: description is {len(description)} chars"
    assert not has_control_characters(description), f"{pid}: control characters"

    brands = {"COMPUTERS": DEVICE_BRANDS, "MOBILE": PHONE_BRANDS, "BOOKS": PUBLISHERS}
    assert product["brand"] in brands[category], f"{pid}: brand {product['brand']!r}"

    specs = product["specs"]
    expected = SPEC_TYPES[category]
    assert set(specs) == set(expected), f"{pid}: spec keys {sorted(specs)}"
    for key, kind in expected.items():
        value = specs[key]
        assert isinstance(value, kind), f"{pid}: specs.{key} = {value!r}"
        if kind is not bool:
            assert not isinstance(value, bool), f"{pid}: specs.{key} is a bool"

    if category == "COMPUTERS":
        assert specs["formFactor"] in FORM_FACTORS, pid
        assert specs["os"] in COMPUTER_OS, pid
        assert specs["ramGb"] > 0 and specs["storageGb"] > 0 and specs["weightKg"] > 0, pid
        assert specs["screenInches"] >= 0 and specs["batteryHours"] >= 0, pid
        if specs["formFactor"] in ("laptop", "2-in-1"):
            assert specs["screenInches"] > 0 and specs["batteryHours"] > 0, pid
        else:
            assert specs["batteryHours"] == 0, f"{pid}: a desktop has no battery"
        if specs["os"] == "macOS":
            assert product["brand"] == "Apple", pid
    elif category == "MOBILE":
        assert specs["os"] == ("iOS" if product["brand"] == "Apple" else "Android"), pid
        assert specs["screenInches"] > 0 and specs["batteryMah"] > 0, pid
    else:
        assert isbn13_is_valid(specs["isbn"]), f"{pid}: isbn {specs['isbn']!r}"
        assert 1700 <= specs["year"] <= 2030, pid
        assert specs["pages"] > 0, pid
        assert specs["format"] in ("paperback", "hardcover"), pid


def is_light_affordable_windows_laptop(product: dict[str, Any]) -> bool:
    specs = product["specs"]
    return (
        product["category"] == "COMPUTERS"
        and specs["formFactor"] == "laptop"
        and specs["os"].startswith("Windows")
        and product["price"] < 1000
        and specs["weightKg"] <= 1.8
    )


# ------------------------------------------------------------------ bundled catalog


def test_bundled_catalog_has_enough_products_with_unique_ids() -> None:
    # Given the catalog shipped in the shared package
    # When it is loaded
    catalog = load_catalog()
    # Then it is big enough for a demo and no two products share an id
    assert len(catalog) >= 80
    ids = [product["productId"] for product in catalog]
    assert len(ids) == len(set(ids))


def test_bundled_catalog_covers_every_required_brand_and_category() -> None:
    # Given the bundled catalog
    catalog = load_catalog()
    # When we collect its brands and categories
    brands = {product["brand"] for product in catalog}
    categories = {product["category"] for product in catalog}
    # Then every brand the assistant is expected to know is stocked, in every category
    assert brands >= REQUIRED_BRANDS, f"missing {REQUIRED_BRANDS - brands}"
    assert categories == set(CATEGORIES)


def test_every_bundled_product_matches_the_schema() -> None:
    # Given the bundled catalog
    catalog = load_catalog()
    # When each product is checked
    # Then each one has the category's spec keys with the right types
    for product in catalog:
        assert_valid_product(product, id_digits=3)


def test_bundled_catalog_can_answer_the_high_school_laptop_question() -> None:
    # Given the demo question "What Windows PC is best for a high school student?"
    catalog = load_catalog()
    # When we look for light, affordable Windows laptops
    candidates = [p for p in catalog if is_light_affordable_windows_laptop(p)]
    # Then there are several to compare, and contrasting options exist too
    assert len(candidates) >= 5, [p["name"] for p in candidates]
    gaming = [p for p in catalog if "RTX" in p["specs"].get("gpu", "")]
    assert len(gaming) >= 3
    assert {p["specs"].get("os") for p in catalog} >= {"macOS", "ChromeOS"}
    assert any(
        p["specs"].get("formFactor") == "desktop" and p["specs"]["os"].startswith("Windows")
        for p in catalog
    )


def test_load_catalog_returns_copies_the_caller_may_change() -> None:
    # Given one caller that edits what load_catalog returned
    first = load_catalog()
    original_name = first[0]["name"]
    first[0]["name"] = "changed"
    first[0]["specs"].clear()
    first.clear()
    # When another caller loads the catalog
    second = load_catalog()
    # Then it sees the original data
    assert second[0]["name"] == original_name
    assert second[0]["specs"]


# ------------------------------------------------------------------ synthetic catalog


def test_generator_produces_exactly_n_valid_products_with_unique_ids() -> None:
    # Given a request for 3,000 synthetic products
    # When the generator runs
    catalog = synthetic_catalog(3_000, seed=11)
    # Then it returns exactly that many, all valid, with unique ids and unique ISBNs
    assert len(catalog) == 3_000
    for product in catalog:
        assert_valid_product(product, id_digits=6)
    assert len({p["productId"] for p in catalog}) == 3_000
    isbns = [p["specs"]["isbn"] for p in catalog if p["category"] == "BOOKS"]
    assert len(isbns) == len(set(isbns))


def test_generator_is_deterministic_for_a_seed() -> None:
    # Given two runs with the same seed and one with another seed
    # When each generates 500 products
    first = synthetic_catalog(500, seed=3)
    second = synthetic_catalog(500, seed=3)
    other = synthetic_catalog(500, seed=4)
    # Then the same seed gives identical catalogs and a different seed does not
    assert first == second
    assert first != other


@pytest.mark.parametrize("size", [1, 2, 7])
def test_generator_handles_tiny_sizes(size: int) -> None:
    # Given a very small size
    # When the generator runs
    catalog = synthetic_catalog(size)
    # Then the count is exact and every record is still valid
    assert len(catalog) == size
    for product in catalog:
        assert_valid_product(product, id_digits=6)


def test_generator_rejects_a_size_below_one() -> None:
    # Given a size of zero
    # When the generator is called
    # Then it refuses instead of returning an empty catalog
    with pytest.raises(ValueError, match="at least 1"):
        synthetic_catalog(0)


def test_fifty_thousand_products_are_mixed_like_a_store() -> None:
    # Given the load-test size (its speed is measured by `make bench`, not asserted here)
    # When 50,000 products are generated
    catalog = synthetic_catalog(50_000)
    # Then ids are unique and the mix is about 40/25/35
    assert len(catalog) == 50_000
    assert len({p["productId"] for p in catalog}) == 50_000
    share = {c: sum(p["category"] == c for p in catalog) / 50_000 for c in CATEGORIES}
    assert share["COMPUTERS"] == pytest.approx(0.40, abs=0.02)
    assert share["MOBILE"] == pytest.approx(0.25, abs=0.02)
    assert share["BOOKS"] == pytest.approx(0.35, abs=0.02)
    assert {p["brand"] for p in catalog} >= REQUIRED_BRANDS


def test_write_catalog_writes_json_that_reads_back_identically(tmp_path: Path) -> None:
    # Given a target path in a directory that does not exist yet
    target = tmp_path / "nested" / "catalog.json"
    # When a small catalog is written
    count = write_catalog(target, 25, seed=5)
    # Then the file holds exactly what the generator returns for that seed
    assert count == 25
    assert json.loads(target.read_text(encoding="utf-8")) == synthetic_catalog(25, seed=5)


def test_cli_writes_the_requested_number_of_products(tmp_path: Path) -> None:
    # Given the command line with a size and an output path
    target = tmp_path / "out.json"
    # When it runs
    status = main(["--size", "40", "--seed", "2", "--out", str(target)])
    # Then it exits 0 and the file holds 40 products
    assert status == 0
    assert len(json.loads(target.read_text(encoding="utf-8"))) == 40


def test_cli_rejects_size_zero_with_exit_2_and_a_clear_message(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # Given --size 0
    target = tmp_path / "never.json"
    # When the command line runs
    with pytest.raises(SystemExit) as exit_info:
        main(["--size", "0", "--out", str(target)])
    # Then it exits 2, says why on stderr and writes nothing
    assert exit_info.value.code == 2
    assert "--size must be at least 1" in capsys.readouterr().err
    assert not target.exists()


def test_module_runs_with_python_dash_m(tmp_path: Path) -> None:
    # Given the documented invocation, run as a separate process from the repo root
    target = tmp_path / "cli.json"
    command = [sys.executable, "-m", "bench.catalog_gen", "--size", "0", "--out", str(target)]
    # When it is given an invalid size
    result = subprocess.run(command, cwd=REPO_ROOT, capture_output=True, text=True, check=False)
    # Then the process exits 2 with the reason on stderr
    assert result.returncode == 2, result.stderr
    assert "--size must be at least 1" in result.stderr
