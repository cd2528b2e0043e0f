"""The catalog search engine: what a search finds, how it ranks and sorts, what it says
it relaxed, and that a bad snapshot or a hostile phrase never crashes the tool."""

from __future__ import annotations

import os
import sqlite3
import threading
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from shared.products.catalog_data import load_catalog
from shared.runtime.errors import CatalogUnavailable
from shared.search import (
    FORMAT_VERSION,
    SearchIndex,
    SearchQuery,
    SearchResult,
    SnapshotDeferred,
    SnapshotFile,
    SnapshotHolder,
    SnapshotPointer,
    SnapshotUnreadable,
    build_index,
    open_snapshot,
    pack_snapshot,
    store_snapshot,
    validate_snapshot,
)
from shared.search.build import FACET_COLUMNS
from shared.search.driver import has_fts5, sqlite_module
from shared.search.holder import Refresh
from shared.search.schema import facet_value

CATALOG = load_catalog()
BY_ID = {p["productId"]: p for p in CATALOG}


@pytest.fixture(scope="module")
def index(tmp_path_factory: pytest.TempPathFactory) -> Iterator[SearchIndex]:
    path = tmp_path_factory.mktemp("search") / "catalog.sqlite"
    build_index(CATALOG, path)
    opened = SearchIndex.open(path)
    yield opened
    opened.close()


def search(index: SearchIndex, **fields: Any) -> Any:
    return index.search(SearchQuery.from_input(fields))


def ids(result: Any) -> list[str]:
    return [hit.productId for hit in result.products]


def specs(product_id: str) -> dict[str, Any]:
    found: dict[str, Any] = BY_ID[product_id]["specs"]
    return found


# --------------------------------------------------------------------------- words


def test_laptops_finds_laptops_and_the_stemmer_finds_laptop_in_text(tmp_path: Path) -> None:
    # Given the bundled catalog, "laptops" (plural) is a kind of product
    found = SearchIndex.open(build_index(CATALOG, tmp_path / "a.sqlite").path)
    result = found.search(SearchQuery(keywords="laptops", limit=50))
    assert result.count == sum(
        specs(p)["formFactor"] in ("laptop", "2-in-1")
        for p in BY_ID
        if BY_ID[p]["category"] == "COMPUTERS"
    )
    assert result.understood["formFactor"] == ["laptop", "2-in-1"]
    # And when laptops are not a filter (the shopper asked for phones), the word is
    # searched, stemmed: "laptops" finds a phone whose blurb says "laptop"
    phone = {
        "productId": "MOB-900",
        "name": "Desk Phone",
        "brand": "Acme",
        "category": "MOBILE",
        "price": 300,
        "stock": 3,
        "description": "Plug it into a monitor and it works like a laptop.",
        "specs": {},
    }
    other = {**phone, "productId": "MOB-901", "description": "A plain phone."}
    small = SearchIndex.open(build_index([phone, other], tmp_path / "b.sqlite").path)
    assert ids(small.search(SearchQuery(category="MOBILE", keywords="laptops"))) == ["MOB-900"]


def test_laptop_for_video_editing_finds_laptops_with_memory_to_edit(index: SearchIndex) -> None:
    result = search(index, keywords="laptop for video editing")
    assert result.products and not result.relaxed
    assert all(BY_ID[i]["category"] == "COMPUTERS" for i in ids(result))
    assert all(specs(i)["ramGb"] >= 16 for i in ids(result)[:5])


def test_phones_with_great_cameras_finds_camera_phones_best_first(index: SearchIndex) -> None:
    result = search(index, keywords="phones with great cameras")
    assert result.products and not result.relaxed
    assert {BY_ID[i]["category"] for i in ids(result)} == {"MOBILE"}
    assert "MOB-009" in ids(result)[:3]  # the 200 MP Galaxy S24 Ultra with 5x zoom
    assert all(specs(i)["cameraMp"] >= 48 for i in ids(result))


def test_keywords_rank_instead_of_requiring_every_word(index: SearchIndex) -> None:
    # No product says all of "orwell", "dystopia" and "totalitarian"; some say some
    result = search(index, keywords="orwell totalitarian dystopia")
    assert set(ids(result)[:2]) == {"BK-010", "BK-011"}
    assert result.count >= 3 and not result.relaxed


def test_a_price_in_words_is_a_bound_and_is_reported(index: SearchIndex) -> None:
    result = search(index, keywords="samsung phone under $500")
    assert ids(result) and all(BY_ID[i]["price"] <= 500 for i in ids(result))
    assert all(BY_ID[i]["brand"] == "Samsung" for i in ids(result))
    assert result.understood == {"category": "MOBILE", "maxPrice": 500.0, "searched": ["samsung"]}


@pytest.mark.parametrize(
    ("words", "bound", "value"),
    [
        ("laptop with 7.5 hours battery", "minBatteryHours", 7.5),
        ("phone with a 12.5MP camera", "minCameraMp", 12.5),
        ("laptop with 1.5gb ram", "minRamGb", 1.5),
    ],
)
def test_an_amount_with_decimals_is_read_whole(
    index: SearchIndex, words: str, bound: str, value: float
) -> None:
    # Given a shopper's amount with a decimal point, Then the search reads all of it,
    # not the digits after the point
    assert search(index, keywords=words).understood[bound] == value


def test_explicit_fields_beat_words(index: SearchIndex) -> None:
    result = search(index, keywords="phone under $300", maxPrice=900, category="MOBILE")
    assert max(BY_ID[i]["price"] for i in ids(result)) > 300
    assert "maxPrice" not in result.understood


def test_a_product_name_matches_words_at_their_start(index: SearchIndex) -> None:
    assert ids(search(index, productName="galaxy s24 ult")) == ["MOB-009"]
    assert set(ids(search(index, productName="MacBook"))) == {"CMP-011", "CMP-012", "CMP-013"}


@pytest.mark.parametrize(
    ("asked", "nearest"),
    [
        ("iPhone 14", ["MOB-005", "MOB-001"]),  # the 15, then the 16
        ("Pixel 7", ["MOB-018", "MOB-015"]),  # the 8a, then the 9
    ],
)
def test_a_model_not_carried_finds_the_nearest_of_its_series_first(
    index: SearchIndex, asked: str, nearest: list[str]
) -> None:
    # When a product name no product has is looked up
    result = search(index, productName=asked)
    # Then the closest by name come back, told as such, the nearest model number first
    assert result.relaxed[:1] == ["productName"]
    assert ids(result)[:2] == nearest


HOSTILE = [
    '"',
    "*",
    "NEAR(",
    "NEAR(a b, 2)",
    "AND",
    "OR NOT AND",
    '"unbalanced quote',
    'laptop" OR "phone',
    "{name} : x",
    "name:laptop",
    "^laptop",
    "laptop*",
    "(((",
    "' OR 1=1 --",
    "; DROP TABLE products; --",
    "\x00\x01\x02",
    "🙂 ноутбук 笔记本电脑",
    "e\u0301\u0301\u0301",
    "laptop " * 400,
    "x" * 2000,
    "a-b-c-d-e-f-g-h-i-j-k-l-m-n-o-p",
    "16GB16GB16GB",
]


@pytest.mark.parametrize("text", HOSTILE)
def test_hostile_text_is_searched_as_words_never_as_syntax(index: SearchIndex, text: str) -> None:
    for fields in ({"keywords": text}, {"productName": text}, {"brandId": text}):
        result = search(index, **fields)
        assert result.count >= 0  # an answer, not an exception


@settings(
    max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(text=st.text(max_size=300))
def test_any_text_at_all_gets_an_answer(index: SearchIndex, text: str) -> None:
    search(index, keywords=text)
    search(index, productName=text, category="BOOKS")


# --------------------------------------------------------------------------- filters


def test_filters_combine(index: SearchIndex) -> None:
    result = search(
        index, category="computers", brandId="sus", minPrice=500, maxPrice=1500, limit=20
    )
    expected = {
        p["productId"]
        for p in CATALOG
        if p["category"] == "COMPUTERS" and p["brand"] == "ASUS" and 500 <= p["price"] <= 1500
    }
    assert set(ids(result)) == expected and result.count == len(expected)


def test_in_stock_only_leaves_sold_out_products_out(index: SearchIndex) -> None:
    every = search(index, category="COMPUTERS", limit=100)
    stocked = search(index, category="COMPUTERS", inStockOnly=True, limit=100)
    sold_out = {p["productId"] for p in CATALOG if p["category"] == "COMPUTERS" and not p["stock"]}
    assert sold_out and set(ids(every)) - set(ids(stocked)) == sold_out


@pytest.mark.parametrize(
    ("bounds", "check"),
    [
        ({"minRamGb": 32}, lambda s: s["ramGb"] >= 32),
        ({"maxWeightKg": 1.3}, lambda s: s.get("weightKg", s.get("weightG", 0) / 1000) <= 1.3),
        ({"minBatteryHours": 18}, lambda s: s["batteryHours"] >= 18),
        ({"minScreenInches": 6.8}, lambda s: s["screenInches"] >= 6.8),
        ({"maxScreenInches": 6.1}, lambda s: 0 < s["screenInches"] <= 6.1),
        ({"minCameraMp": 64}, lambda s: s["cameraMp"] >= 64),
        ({"minStorageGb": 1024}, lambda s: s["storageGb"] >= 1024),
        ({"minBatteryMah": 5500}, lambda s: s["batteryMah"] >= 5500),
    ],
)
def test_spec_bounds_keep_only_products_that_meet_them(
    index: SearchIndex, bounds: dict[str, float], check: Any
) -> None:
    result = search(index, limit=100, **bounds)
    assert result.products
    assert all(check(specs(i)) for i in ids(result))


def test_product_ids_fetch_exactly_those(index: SearchIndex) -> None:
    result = search(index, productIds=["CMP-001", "BK-005", "NOPE-1"])
    assert set(ids(result)) == {"CMP-001", "BK-005"} and not result.relaxed


def test_form_factor_and_os_filters(index: SearchIndex) -> None:
    assert {specs(i)["formFactor"] for i in ids(search(index, formFactor="all-in-one"))} == {
        "all-in-one"
    }
    assert {specs(i)["os"] for i in ids(search(index, os="chrome"))} == {"ChromeOS"}


# --------------------------------------------------------------------------- sorts


def _stock_then(product_ids: list[str]) -> list[bool]:
    return [BY_ID[i]["stock"] <= 0 for i in product_ids]


@pytest.mark.parametrize(
    ("category", "sort", "key"),
    [
        ("COMPUTERS", "price", lambda p: p["price"]),
        ("COMPUTERS", "price_desc", lambda p: -p["price"]),
        ("COMPUTERS", "ram", lambda p: -p["specs"]["ramGb"]),
        ("COMPUTERS", "weight", lambda p: p["specs"]["weightKg"]),
        ("MOBILE", "camera", lambda p: -p["specs"]["cameraMp"]),
        ("MOBILE", "battery", lambda p: -p["specs"]["batteryMah"]),
        ("MOBILE", "weight", lambda p: p["specs"]["weightG"]),
        ("BOOKS", "newest", lambda p: -p["specs"]["year"]),
    ],
)
def test_sort_by_puts_in_stock_first_then_the_order(
    index: SearchIndex, category: str, sort: str, key: Any
) -> None:
    result = search(index, category=category, sortBy=sort, limit=100)
    got = ids(result)
    assert len(got) == sum(p["category"] == category for p in CATALOG) == result.count
    assert _stock_then(got) == sorted(_stock_then(got))
    for stocked in (True, False):
        part = [BY_ID[i] for i in got if (BY_ID[i]["stock"] > 0) == stocked]
        assert [key(p) for p in part] == sorted(key(p) for p in part)
    assert result.ranked_by == sort


def test_products_without_the_spec_sort_last(index: SearchIndex) -> None:
    got = ids(search(index, category="COMPUTERS", sortBy="battery", inStockOnly=True, limit=100))
    batteries = [specs(i)["batteryHours"] for i in got]
    assert batteries[-1] == 0.0 and batteries[0] == max(batteries)
    assert batteries.index(0.0) == len([b for b in batteries if b > 0])


def test_sort_with_keywords_sorts_the_matching_products(index: SearchIndex) -> None:
    got = ids(search(index, keywords="gaming laptop", sortBy="price", inStockOnly=True))
    prices = [BY_ID[i]["price"] for i in got]
    assert prices == sorted(prices) and got[0] == "CMP-034"  # Acer Nitro V, 799


def test_cheap_means_cheapest_first(index: SearchIndex) -> None:
    result = search(index, keywords="cheap chromebook")
    assert result.ranked_by == "price" and result.understood["sortBy"] == "price"
    assert ids(result)[0] == "CMP-025"


@pytest.mark.parametrize("keywords", ["anything for under $400", "what do you have under $500?"])
def test_a_budget_of_no_kind_shows_each_kind_in_turn(index: SearchIndex, keywords: str) -> None:
    # When a shopper names a budget and nothing else
    result = search(index, keywords=keywords, limit=6)
    kinds = [BY_ID[i]["category"] for i in ids(result)]
    # Then each kind the store sells takes its turn, the cheapest of each first
    assert result.ranked_by == "kinds"
    assert sorted(kinds[:3]) == ["BOOKS", "COMPUTERS", "MOBILE"] and kinds[3:] == kinds[:3]
    for kind in set(kinds):
        prices = [BY_ID[i]["price"] for i in ids(result) if BY_ID[i]["category"] == kind]
        assert prices == sorted(prices), kind
    assert all(BY_ID[i]["price"] < 500 for i in ids(result))


def test_an_order_asked_with_no_kind_stays_one_order(index: SearchIndex) -> None:
    # "The cheapest things you have" asks for one order over the whole store
    result = search(index, keywords="the cheapest things you have", limit=5)
    prices = [BY_ID[i]["price"] for i in ids(result)]
    assert result.ranked_by == "price" and prices == sorted(prices)


# --------------------------------------------------------------------------- counts


def test_count_is_every_match_not_only_those_shown(index: SearchIndex) -> None:
    result = search(index, category="BOOKS", limit=3)
    assert len(result.products) == 3
    assert result.count == sum(p["category"] == "BOOKS" for p in CATALOG)
    assert result.count_is_exact


def test_counting_stops_at_the_cap(index: SearchIndex) -> None:
    result = index.search(SearchQuery(), count_cap=10)
    assert result.count == 10 and not result.count_is_exact and len(result.products) == 8


def test_a_search_that_matches_many_ranks_a_sample_of_them(index: SearchIndex) -> None:
    # "screen" is in many descriptions ("battery" is a use now: every product, ranked)
    result = index.search(SearchQuery(keywords="the screen"), examine=5)
    assert result.products and not result.count_is_exact


# --------------------------------------------------------------------------- relaxing


def test_no_match_drops_the_keywords_and_says_so(index: SearchIndex) -> None:
    result = search(index, keywords="zxqv", category="BOOKS")
    assert result.relaxed == ["keywords"] and result.count == 26


def test_words_that_match_nothing_keep_what_they_asked_for(index: SearchIndex) -> None:
    result = search(index, keywords="gaming laptop under 300")
    assert result.relaxed == ["keywords"]
    assert all(BY_ID[i]["price"] <= 300 for i in ids(result))
    assert all(specs(i)["formFactor"] in ("laptop", "2-in-1") for i in ids(result))


@pytest.mark.parametrize(
    ("fields", "missing"),
    [
        ({"keywords": "garmin smartwatch"}, "garmin"),
        ({"keywords": "wireless headphones under $100"}, "headphones"),
        ({"keywords": "headphones on sale"}, "headphones"),
        ({"keywords": "the cheapest kayak"}, "kayak"),
        ({"keywords": "kayak", "maxPrice": 100, "sortBy": "price"}, "kayak"),
    ],
)
def test_words_that_match_nothing_and_name_no_kind_find_nothing(
    index: SearchIndex, fields: dict[str, Any], missing: str
) -> None:
    # Given words no product has, with nothing else that names what is wanted (a price,
    # a sale, an order name no kind)
    result = search(index, **fields)
    # Then the search finds nothing, rather than the catalog's first page (a model shown
    # the cheapest books for "headphones" would offer them), and names the word no
    # product has
    assert (result.count, result.products, result.relaxed) == (0, [], [])
    assert missing in [w.casefold() for w in result.unknown]


@pytest.mark.parametrize("fields", [{"maxPrice": 5}, {"keywords": "anything under $5"}])
def test_a_price_alone_that_nothing_meets_still_gives_the_nearest(
    index: SearchIndex, fields: dict[str, Any]
) -> None:
    # No words were dropped: the price is all that was asked, and the cheapest are nearest
    result = search(index, **fields)
    assert "price" in result.relaxed and result.nearest == {"maxPrice": 5}
    assert result.products


def test_a_kind_or_a_brand_kept_when_the_words_are_dropped_still_finds(index: SearchIndex) -> None:
    # "Sony laptops": the laptops stand when "Sony" matches nothing; a model's own
    # category stands too
    laptops = search(index, keywords="Sony laptops under $300")
    assert laptops.relaxed == ["keywords"] and laptops.products
    assert all(specs(i)["formFactor"] in ("laptop", "2-in-1") for i in ids(laptops))
    books = search(index, keywords="kayak", category="BOOKS")
    assert books.relaxed == ["keywords"] and all(i.startswith("BK-") for i in ids(books))


def test_then_the_price_and_says_so(index: SearchIndex) -> None:
    result = search(index, category="MOBILE", keywords="zxqv", maxPrice=5)
    assert result.relaxed == ["keywords", "price"] and result.count == 23
    assert search(index, category="MOBILE", maxPrice=5).relaxed == ["price"]


def test_a_follow_up_by_id_relaxes_only_its_limits_with_the_nearest_first(
    index: SearchIndex,
) -> None:
    # "Which of those is under $5?": none; those products, the cheapest first.
    result = search(index, productIds=["CMP-001", "CMP-025", "CMP-023"], maxPrice=5)
    assert result.relaxed == ["price"] and result.nearest == {"maxPrice": 5}
    assert result.product_ids == ["CMP-025", "CMP-023", "CMP-001"]
    # Never other products than those asked for.
    assert search(index, productIds=["NOPE-1"], maxPrice=5).count == 0


# --------------------------------------------------------------------------- snapshots


@pytest.fixture(scope="module")
def snapshot(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("snapshot") / "good.sqlite"
    build_index(CATALOG, path, version="v1")
    return path


def _corrupt(tmp_path: Path, good: Path, how: str) -> Path:
    bad = tmp_path / f"{how}.sqlite"
    data = good.read_bytes()
    if how == "truncated":
        bad.write_bytes(data[: len(data) // 2])
    elif how == "garbage":
        bad.write_bytes(os.urandom(len(data)))
    elif how == "empty":
        bad.write_bytes(b"")
    elif how == "scribbled":  # pages overwritten in the middle of the file
        middle = len(data) // 2
        bad.write_bytes(data[:middle] + b"\xff" * 8192 + data[middle + 8192 :])
    elif how == "not_a_snapshot":
        sqlite3.connect(bad).execute("CREATE TABLE t (x)").connection.close()
    elif how == "other_format":
        bad.write_bytes(data)
        with sqlite3.connect(bad) as db:
            db.execute("UPDATE snapshot_meta SET format_version = ?", (FORMAT_VERSION + 1,))
    return bad


@pytest.mark.parametrize(
    "how", ["truncated", "garbage", "empty", "scribbled", "not_a_snapshot", "other_format"]
)
def test_a_snapshot_that_cannot_be_read_raises_a_named_error(
    tmp_path: Path, snapshot: Path, how: str
) -> None:
    bad = _corrupt(tmp_path, snapshot, how)
    with pytest.raises(SnapshotUnreadable) as raised:
        open_snapshot(SnapshotFile(version="v1", path=bad))
    # the tool already turns CatalogUnavailable into its "catalog unavailable" result
    assert isinstance(raised.value, CatalogUnavailable) and raised.value.kind == "snapshot"


def test_a_snapshot_must_be_the_one_the_pointer_names(tmp_path: Path, snapshot: Path) -> None:
    with pytest.raises(SnapshotUnreadable, match="expected v2"):
        validate_snapshot(snapshot, version="v2")
    with pytest.raises(SnapshotUnreadable, match="SHA-256"):
        validate_snapshot(snapshot, sha256="0" * 64)
    with pytest.raises(SnapshotUnreadable, match="bytes"):
        validate_snapshot(snapshot, size=1)
    with pytest.raises(SnapshotUnreadable):
        validate_snapshot(tmp_path / "missing.sqlite")
    assert validate_snapshot(snapshot, version="v1").product_count == len(CATALOG)


@pytest.mark.parametrize("change", ["declared since", "dropped since"])
def test_a_snapshot_built_with_other_facets_is_refused_saying_which(
    tmp_path: Path, snapshot: Path, change: str
) -> None:
    # Given a snapshot built when the declared facets were others: one fewer (built
    # before the camera's was declared) or one more (one dropped from SPECS since)
    other = tmp_path / "other.sqlite"
    other.write_bytes(snapshot.read_bytes())
    with sqlite3.connect(other) as db:
        if change == "declared since":
            db.execute("DROP INDEX products_category_camera_mp")
            db.execute("ALTER TABLE products DROP COLUMN camera_mp")
        else:
            db.execute("ALTER TABLE products ADD COLUMN refresh_rate_hz REAL")
    built = (
        [c for c in FACET_COLUMNS if c != "camera_mp"]
        if change == "declared since"
        else [
            *FACET_COLUMNS,
            "refresh_rate_hz",
        ]
    )
    # When a reader opens it
    with pytest.raises(SnapshotUnreadable) as raised:
        open_snapshot(SnapshotFile(version="v1", path=other))
    # Then it is not searched as if its columns were this code's, and the error says why
    assert str(raised.value) == (
        f"snapshot: other.sqlite: built with the facets {', '.join(built)}; this code"
        f" declares {', '.join(FACET_COLUMNS)}: publish a snapshot built by this code"
    )
    # And a snapshot built by this code is served as before
    assert validate_snapshot(snapshot, version="v1").facets == FACET_COLUMNS


def test_a_search_on_a_file_broken_after_opening_raises_the_named_error(
    tmp_path: Path, snapshot: Path
) -> None:
    copy = tmp_path / "copy.sqlite"
    copy.write_bytes(snapshot.read_bytes())
    opened = SearchIndex.open(copy)
    copy.write_bytes(_corrupt(tmp_path, snapshot, "garbage").read_bytes())
    with pytest.raises(SnapshotUnreadable):
        opened.search(SearchQuery(keywords="laptop"))


def test_a_gzipped_download_is_stored_whole_or_not_at_all(tmp_path: Path, snapshot: Path) -> None:
    packed = pack_snapshot(snapshot, tmp_path / "good.sqlite.gz")
    assert packed.stat().st_size < snapshot.stat().st_size
    with packed.open("rb") as stream:
        stored = store_snapshot(stream, tmp_path / "cache", "v1", encoding="gzip")
    assert stored.read_bytes() == snapshot.read_bytes()
    with pytest.raises(SnapshotUnreadable):
        store_snapshot(packed.read_bytes()[:500], tmp_path / "cache", "v9", encoding="gzip")
    assert sorted(p.name for p in (tmp_path / "cache").iterdir()) == ["v1.sqlite"]
    with pytest.raises(SnapshotUnreadable):
        store_snapshot(b"x", tmp_path / "cache", "../escape")


def test_a_download_is_checked_against_its_pointer_as_it_is_stored(
    tmp_path: Path, snapshot: Path
) -> None:
    # Given a published snapshot and its pointer
    pointer = SnapshotPointer.for_file(snapshot, key="catalog/v1.sqlite.gz")
    packed = pack_snapshot(snapshot, tmp_path / "v1.sqlite.gz").read_bytes()
    cache = tmp_path / "cache"
    # When the download holds other bytes than the pointer names (same length, or not)
    with pytest.raises(SnapshotUnreadable, match="SHA-256"):
        store_snapshot(packed, cache, "v1", encoding="gzip", sha256="0" * 64, size=pointer.size)
    with pytest.raises(SnapshotUnreadable, match="expected"):
        store_snapshot(packed, cache, "v1", encoding="gzip", sha256=pointer.sha256, size=1)
    # Then nothing is kept; the right bytes are stored and open without a second pass
    assert not cache.exists() or not list(cache.iterdir())
    path = store_snapshot(
        packed, cache, "v1", encoding="gzip", sha256=pointer.sha256, size=pointer.size
    )
    verified = SnapshotFile("v1", path, pointer.sha256, pointer.size, verified=True)
    assert open_snapshot(verified).search(SearchQuery(category="BOOKS")).count == 26


def test_a_download_past_its_deadline_is_put_off_and_leaves_nothing(
    tmp_path: Path, snapshot: Path
) -> None:
    # Given a clock that passes the deadline while the download is under way
    packed = pack_snapshot(snapshot, tmp_path / "v1.sqlite.gz").read_bytes()
    ticks = iter(range(100))
    # When it is stored
    with pytest.raises(SnapshotDeferred):
        store_snapshot(
            packed,
            tmp_path / "cache",
            "v1",
            encoding="gzip",
            deadline=0.5,
            clock=lambda: float(next(ticks)),
        )
    # Then no file, whole or partial, is left
    assert list((tmp_path / "cache").iterdir()) == []


def test_the_pointer_round_trips_and_a_bad_one_is_unreadable(snapshot: Path) -> None:
    pointer = SnapshotPointer.for_file(snapshot, key="catalog/v1.sqlite.gz")
    assert SnapshotPointer.from_json(pointer.to_json()) == pointer
    assert pointer.version == "v1" and pointer.size == snapshot.stat().st_size
    for text in ("", "[]", "{}", '{"version": "v1"}', '{"encoding": "zip"}'):
        with pytest.raises(SnapshotUnreadable):
            SnapshotPointer.from_json(text)


def test_searching_never_changes_the_snapshot(tmp_path: Path, snapshot: Path) -> None:
    before = snapshot.read_bytes()
    opened = SearchIndex.open(snapshot)
    opened.search(SearchQuery(keywords="laptop for video editing"))
    opened.close()
    assert snapshot.read_bytes() == before


# --------------------------------------------------------------------------- building


def test_a_failed_build_leaves_the_previous_snapshot_intact(tmp_path: Path) -> None:
    path = tmp_path / "catalog.sqlite"
    build_index(CATALOG, path, version="v1")
    before = path.read_bytes()

    def broken_feed() -> Iterator[dict[str, Any]]:
        yield from CATALOG[:10]
        raise RuntimeError("the table scan failed")

    with pytest.raises(RuntimeError):
        build_index(broken_feed(), path, version="v2")
    assert path.read_bytes() == before
    assert [p.name for p in tmp_path.iterdir()] == ["catalog.sqlite"]
    assert validate_snapshot(path).version == "v1"


def test_a_build_that_fails_at_the_rename_leaves_no_half_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "catalog.sqlite"
    build_index(CATALOG, path, version="v1")

    def refuse(*_: Any) -> None:
        raise OSError("disk full")

    monkeypatch.setattr(os, "replace", refuse)
    with pytest.raises(OSError):
        build_index(CATALOG, path, version="v2")
    assert validate_snapshot(path).version == "v1"
    assert [p.name for p in tmp_path.iterdir()] == ["catalog.sqlite"]


def test_the_build_reports_what_it_indexed(tmp_path: Path) -> None:
    records = [*CATALOG, {"name": "no id"}, "not a record", {**CATALOG[0], "price": 1.0}]
    report = build_index(records, tmp_path / "c.sqlite")  # type: ignore[list-item]
    assert report.product_count == len(CATALOG) and report.skipped == 2
    assert report.size_bytes == (tmp_path / "c.sqlite").stat().st_size
    # a duplicate id keeps its last record
    first = SearchIndex.open(report.path).search(SearchQuery(productIds=("CMP-001",)))
    assert first.products[0].price == 1.0
    # the digest names the records indexed, whatever order they came in
    shuffled = build_index(list(reversed(CATALOG)), tmp_path / "d.sqlite")
    assert shuffled.source_digest == build_index(CATALOG, tmp_path / "e.sqlite").source_digest
    assert shuffled.source_digest != report.source_digest  # CMP-001 differs


@pytest.mark.parametrize(
    ("name", "value", "expected"),
    [
        ("ramGb", 16, ("ram_gb", 16.0)),
        ("ram", "16GB", ("ram_gb", 16.0)),
        ("Memory", "16 GB LPDDR5", ("ram_gb", 16.0)),
        ("storage", "1 TB", ("storage_gb", 1024.0)),
        ("storageGb", 512, ("storage_gb", 512.0)),
        ("weight", "1.4 kg", ("weight_kg", 1.4)),
        ("weight", "1400 g", ("weight_kg", 1.4)),
        ("weight", "1,4 kg", ("weight_kg", 1.4)),
        ("weightG", 170, ("weight_kg", 0.17)),
        ("weight", "3.1 lbs", ("weight_kg", 1.4061)),
        ("screen", "14-inch", ("screen_inches", 14.0)),
        ("display", '15.6" FHD', ("screen_inches", 15.6)),
        ("camera", "48 MP", ("camera_mp", 48.0)),
        ("battery", "5,000 mAh", ("battery_mah", 5000.0)),
        ("battery", "Up to 18 hours", ("battery_hours", 18.0)),
        ("batteryHours", 0.0, None),  # a desktop: no battery
        ("screenInches", 0.0, None),
        ("display", "4K OLED", None),
        ("weight", "15 inches", None),
        ("fiveG", True, None),
        ("cpu", "Intel Core i7", None),
    ],
)
def test_specs_become_facets_in_one_unit(name: str, value: Any, expected: Any) -> None:
    assert facet_value(name, value) == expected


# --------------------------------------------------------------------------- threads


def test_concurrent_searches_from_threads_agree_with_one_thread(index: SearchIndex) -> None:
    queries = [
        SearchQuery(keywords="laptop for video editing"),
        SearchQuery(keywords="phones with great cameras"),
        SearchQuery(category="BOOKS", sortBy="newest"),
        SearchQuery(keywords="cheap gaming laptop"),
        SearchQuery(category="MOBILE", minPrice=500, sortBy="camera"),
    ] * 20
    alone = [ids(index.search(q)) for q in queries]
    with ThreadPoolExecutor(max_workers=8) as pool:
        together = list(pool.map(lambda q: ids(index.search(q)), queries))
    assert together == alone


def test_a_thread_that_has_ended_does_not_keep_its_connection_open(index: SearchIndex) -> None:
    # Given a search made on a thread of its own, as the local runner makes each tool call
    opened: list[Any] = []

    def search_and_end() -> None:
        index.search(SearchQuery(keywords="laptop"))
        opened.append(index._connection())

    first = threading.Thread(target=search_and_end)
    first.start()
    first.join()

    # When another thread searches after it has ended
    second = threading.Thread(target=search_and_end)
    second.start()
    second.join()

    # Then the first thread's connection was closed (a long local session does not pile up
    # one per tool call), and the searches still answer
    with pytest.raises(sqlite3.ProgrammingError, match="closed"):
        opened[0].execute("SELECT 1")
    assert ids(index.search(SearchQuery(keywords="laptop")))


# --------------------------------------------------------------------------- the holder


class Publisher:
    """Snapshots published one after another, as fetch_latest sees them."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.latest: SnapshotFile | None = None
        self.calls = 0
        self.fail = False

    def publish(self, version: str, products: list[dict[str, Any]] = CATALOG) -> None:
        path = build_index(products, self.folder / f"{version}.sqlite", version=version).path
        self.latest = SnapshotFile(version=version, path=path)

    def fetch_latest(
        self, current: str | None, deadline: float | None = None
    ) -> SnapshotFile | None:
        self.calls += 1
        if self.fail:
            raise CatalogUnavailable("unavailable", "bucket: SlowDown")
        if self.latest is None or self.latest.version == current:
            return None
        return self.latest


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def inline(refresh: Refresh) -> None:
    """Run a due refresh as soon as it is handed off (after the search that found it due)."""
    refresh(None)


def search_once(holder: SnapshotHolder, query: SearchQuery) -> SearchResult:
    with holder.lease() as index:
        return index.search(query)


def test_the_holder_loads_at_cold_start_and_checks_at_most_every_30_s(tmp_path: Path) -> None:
    publisher, clock = Publisher(tmp_path), Clock()
    publisher.publish("v1")
    holder = SnapshotHolder(publisher.fetch_latest, clock=clock, schedule=inline)
    assert holder.index().meta.version == "v1" and publisher.calls == 1
    publisher.publish("v2", CATALOG[:10])
    clock.now += 29
    assert search_once(holder, SearchQuery()).count == len(CATALOG) and publisher.calls == 1
    clock.now += 1
    # The search that finds the check due is answered from v1; the refresh follows it
    assert search_once(holder, SearchQuery()).count == len(CATALOG) and publisher.calls == 2
    assert holder.version == "v2" and search_once(holder, SearchQuery()).count == 10


def test_a_bad_newer_snapshot_is_skipped_and_the_old_one_serves(tmp_path: Path) -> None:
    publisher, clock, errors = Publisher(tmp_path), Clock(), []
    publisher.publish("v1")
    holder = SnapshotHolder(
        publisher.fetch_latest, clock=clock, on_refresh_error=errors.append, schedule=inline
    )
    holder.index()
    broken = tmp_path / "v2.sqlite"
    broken.write_bytes(b"not a database at all" * 100)
    publisher.latest = SnapshotFile(version="v2", path=broken)
    clock.now += 30
    search_once(holder, SearchQuery())
    assert holder.version == "v1" and not broken.exists()
    publisher.fail = True
    clock.now += 30
    assert search_once(holder, SearchQuery(category="BOOKS")).count == 26
    assert search_once(holder, SearchQuery(category="BOOKS")).count == 26
    assert holder.refresh_errors == 2 and all(isinstance(e, CatalogUnavailable) for e in errors)


def test_a_cold_start_without_a_snapshot_raises_the_named_error(tmp_path: Path) -> None:
    holder = SnapshotHolder(Publisher(tmp_path).fetch_latest, clock=Clock())
    with pytest.raises(SnapshotUnreadable, match="no snapshot"):
        holder.index()


def test_threads_at_a_cold_start_load_once(tmp_path: Path) -> None:
    publisher = Publisher(tmp_path)
    publisher.publish("v1")
    holder = SnapshotHolder(publisher.fetch_latest, clock=Clock())
    start = threading.Barrier(8)

    def first_search(_: int) -> int:
        start.wait()
        return holder.index().search(SearchQuery(category="MOBILE")).count

    with ThreadPoolExecutor(max_workers=8) as pool:
        assert set(pool.map(first_search, range(8))) == {23}
    assert publisher.calls == 1


# --------------------------------------------------------------------------- engine


def test_the_engine_runs_on_an_sqlite_with_fts5() -> None:
    module = sqlite_module()
    assert has_fts5(module)

    class NoFts5:
        Error = sqlite3.Error

        @staticmethod
        def connect(_: str) -> sqlite3.Connection:
            class Refusing:
                def execute(self, _: str) -> None:
                    raise sqlite3.OperationalError("no such module: fts5")

                def close(self) -> None:
                    pass

            return Refusing()  # type: ignore[return-value]

    assert not has_fts5(NoFts5)  # type: ignore[arg-type]
