"""The snapshot lists what the store carries, in the catalog's own words (issue 21).

Whatever catalog is indexed (the bundled one, an imported one, a large one), its
brands, categories, kinds, titles, authors, genres, operating systems and the values
of every spec come from the catalog itself, with how many products have each.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from bench.catalog_gen import synthetic_catalog
from shared.products.catalog_data import load_catalog
from shared.search import SearchIndex, build_index

CATALOG = load_catalog()


def _open(products: list[dict[str, Any]], path: Path) -> SearchIndex:
    build_index(products, path)
    return SearchIndex.open(path)


@pytest.fixture(scope="module")
def index(tmp_path_factory: pytest.TempPathFactory) -> Iterator[SearchIndex]:
    opened = _open(CATALOG, tmp_path_factory.mktemp("listing") / "catalog.sqlite")
    yield opened
    opened.close()


def _count(key: str, category: str | None = None) -> Counter[str]:
    return Counter(
        str(p["specs"][key])
        for p in CATALOG
        if key in p["specs"] and category in (None, p["category"])
    )


def test_the_bundled_catalog_is_listed_as_it_is(index: SearchIndex) -> None:
    listing = index.listing
    assert listing.available
    assert listing.categories() == dict(sorted(Counter(p["category"] for p in CATALOG).items()))
    assert listing.brands() == dict(Counter(p["brand"] for p in CATALOG))
    assert listing.brands("MOBILE") == dict(
        Counter(p["brand"] for p in CATALOG if p["category"] == "MOBILE")
    )
    assert listing.authors() == dict(_count("author"))
    assert listing.genres() == dict(_count("genre"))
    assert listing.operating_systems() == dict(_count("os"))
    assert listing.kinds()["COMPUTERS"] == dict(_count("formFactor"))
    assert listing.kinds()["BOOKS"] == {}
    assert listing.titles() == sorted(p["name"] for p in CATALOG)
    assert listing.titles("BOOKS") == sorted(p["name"] for p in CATALOG if p["category"] == "BOOKS")


def test_most_common_values_come_first_with_their_counts(index: SearchIndex) -> None:
    brands = list(index.listing.brands().items())
    assert brands[0] == ("Apple", 11)
    assert [count for _, count in brands] == sorted((count for _, count in brands), reverse=True)


def test_a_spec_is_named_as_any_catalog_writes_its_key(index: SearchIndex) -> None:
    memory = dict(_count("ramGb"))
    assert index.listing.values("ramGb") == memory
    assert index.listing.values("RAM GB") == memory == index.listing.values("ram_gb")
    assert index.listing.values("ramGb", "MOBILE") == dict(_count("ramGb", "MOBILE"))
    assert index.listing.values("no such spec") == {}


def test_every_field_says_how_many_products_and_values_it_has(index: SearchIndex) -> None:
    fields = {f.name: f for f in index.listing.fields()}
    assert fields["brand"].products == len(CATALOG)
    assert fields["author"].products == 26 and fields["author"].distinct_values == 19
    assert fields["os"].distinct_values == len(_count("os"))
    assert all(f.listed for f in fields.values())  # 89 products: every field is small
    assert {f.name for f in index.listing.fields("BOOKS")} == {
        "brand",
        *{k for p in CATALOG if p["category"] == "BOOKS" for k in p["specs"]},
    }


def test_an_imported_catalog_is_listed_the_moment_it_is_indexed(tmp_path: Path) -> None:
    imported = [
        {"productId": "CMP-901", "name": "Framework Laptop 13", "brand": "Framework",
         "category": "COMPUTERS", "price": 1099.0, "stock": 7, "description": "Repairable.",
         "specs": {"formFactor": "laptop", "os": "Ubuntu 24.04", "ramGb": 16}},
        {"productId": "MOB-901", "name": "Motorola moto g power", "brand": "Motorola",
         "category": "MOBILE", "price": 299.0, "stock": 12, "description": "Two-day battery.",
         "specs": {"os": "Android", "batteryMah": 5000}},
        {"productId": "BK-901", "name": "The Odyssey", "brand": "Penguin Classics",
         "category": "BOOKS", "price": 12.0, "stock": 4, "description": "Homer's epic.",
         "specs": {"Author": "Homer", "subjects": ["Greek mythology", "Epic poetry"]}},
    ]  # fmt: skip
    listing = _open([*CATALOG, *imported], tmp_path / "imported.sqlite").listing
    assert listing.brands()["Framework"] == 1 and listing.brands()["Motorola"] == 1
    assert listing.brands("COMPUTERS")["Framework"] == 1
    assert listing.operating_systems()["Ubuntu 24.04"] == 1
    assert listing.operating_systems()["Android"] == 18
    # "Author" is an author whatever its case; each subject of a list is a genre
    assert listing.authors()["Homer"] == 1
    assert listing.genres()["Greek mythology"] == 1 == listing.genres()["Epic poetry"]
    assert "The Odyssey" in listing.titles("BOOKS")


def test_values_that_differ_only_in_case_are_one_spelt_as_most_products_spell_it(
    tmp_path: Path,
) -> None:
    products = [
        {"productId": f"P{i}", "name": f"Mac {i}", "brand": brand, "category": "COMPUTERS",
         "price": 1.0, "stock": 1, "specs": {"os": os_name, "touchscreen": i % 2 == 0}}
        for i, (brand, os_name) in enumerate(
            [("Apple", "macOS"), ("apple", "macOS"), ("APPLE", "MacOS"), ("Apple", "macOS ")]
        )
    ]  # fmt: skip
    listing = _open(products, tmp_path / "case.sqlite").listing
    assert listing.brands() == {"Apple": 4}
    assert listing.operating_systems() == {"macOS": 4}
    assert listing.values("touchscreen") == {"no": 2, "yes": 2}


def test_identifiers_are_counted_not_listed(tmp_path: Path) -> None:
    books = [p for p in synthetic_catalog(1_200, seed=3) if p["category"] == "BOOKS"]
    assert len(books) > 300
    listing = _open(books, tmp_path / "books.sqlite").listing
    fields = {f.name: f for f in listing.fields()}
    assert fields["isbn"].products == len(books) and not fields["isbn"].listed
    assert fields["isbn"].distinct_values == len(books)
    assert listing.values("isbn") == {}
    # authors repeat: they are a vocabulary, and every book has one
    assert fields["author"].listed
    assert sum(listing.authors().values()) == len(books)
