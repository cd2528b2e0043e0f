"""Figures of the product search engine (issue 11, part 3), at growing catalog sizes.

For each size: a synthetic catalog (``bench.catalog_gen``) is indexed into
a snapshot file (build time, file size); a fresh Python process then validates
the snapshot, opens it and answers one search (cold); this process answers a
few hundred varied searches against it (warm p50 and p99).

Typo tolerance (issue 21), at each size: words of the snapshot's names, brands and
specs, misspelt once each as shoppers do (:func:`misspelt`), are corrected
(the time to correct a word, and how often it comes back as the word meant) and
searched; the word tables' share of the snapshot is measured by dropping them from
a copy. The synthetic catalog has a few hundred distinct words at any size, so a
*wide vocabulary* catalog (:func:`wide_catalog`: an invented product-line word in
every name, 100,000 of them) shows what a real catalog's vocabulary costs.

    python -m bench.search            # 1,000 / 10,000 / 50,000 / 200,000 products
    python -m bench.search --quick    # 1,000 / 10,000

Nothing is asserted: the figures are printed (and returned by :func:`run`).
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from bench.stats import summary

FULL_SIZES = (1_000, 10_000, 50_000, 200_000)
QUICK_SIZES = (1_000, 10_000)
WIDE = (50_000, 100_000)
"""Products and invented words of the wide-vocabulary catalog."""
QUICK_WIDE = (2_000, 4_000)
REPO_ROOT = Path(__file__).resolve().parent.parent
ROUNDS = 3

# Phrases a model passes as ``keywords``, most in shoppers' words.
_PHRASES = (
    "laptop for video editing", "phones with great cameras", "gaming laptop", "cheap laptop",
    "lightweight laptop for travel", "laptop with long battery life", "chromebook for school",
    "macbook air", "2-in-1 laptop with pen", "business laptop windows pro", "gaming desktop",
    "all-in-one computer for the family", "oled laptop", "laptop 16gb ram", "rtx 4070",
    "ryzen 7", "intel core ultra", "thunderbolt", "quiet laptop", "big screen laptop",
    "iphone", "galaxy s24 ultra", "pixel pro", "foldable phone", "android phone with big battery",
    "small phone", "5g phone under 300", "phone with lots of storage", "gaming phone",
    "samsung phone under 500", "cheap android phone", "telephoto zoom camera",
    "mystery novel", "fantasy books", "science fiction", "historical fiction bookshop",
    "romance vineyard", "books for teenagers", "biography of a scientist", "thriller",
    "lighthouse", "kyoto", "penguin paperback", "hardcover", "detective", "popular science sleep",
    "dragon", "the silent garden", "lisbon", "a book about memory and habit",
    "something for homework", "laptop for programming", "creative work", "laptop under 500",
    "computer for photo editing under 1500", "esports", "wifi 7", "usb-c charging", "amoled",
)  # fmt: skip
_SORTS = (None, None, None, "price", "price_desc", "ram", "weight", "battery", "camera", "newest")
_CATEGORIES = (None, None, "COMPUTERS", "MOBILE", "BOOKS")
_BOUNDS = (
    ("COMPUTERS", "minRamGb", 16),
    ("COMPUTERS", "maxWeightKg", 1.5),
    ("COMPUTERS", "minBatteryHours", 12),
    ("MOBILE", "minCameraMp", 64),
    ("MOBILE", "minBatteryMah", 5000),
    ("MOBILE", "minRamGb", 12),
)


def query_mix(count: int, seed: int = 11) -> list[dict[str, Any]]:
    """``count`` varied tool inputs: words, filters, sorts, bounds and follow-ups."""
    rng = random.Random(seed)
    mix: list[dict[str, Any]] = []
    for i in range(count):
        shape = i % 6
        query: dict[str, Any] = {}
        if shape in (0, 1, 2, 3):
            query["keywords"] = rng.choice(_PHRASES)
        if shape in (1, 4):
            query["category"] = rng.choice(_CATEGORIES)
        if shape in (2, 4) and rng.random() < 0.6:
            query["maxPrice"] = rng.choice((300, 500, 800, 1000, 1500, 2500))
        if shape in (3, 4, 5):
            query["sortBy"] = rng.choice(_SORTS)
        if shape == 5:
            category, bound, value = rng.choice(_BOUNDS)
            query |= {"category": category, bound: value}
            query["brandId"] = rng.choice((None, None, "Samsung", "Apple", "ASUS"))
        if i % 25 == 24:
            query = {"productName": rng.choice(("Galaxy", "MacBook Pro", "Pixel 9", "Zenbook"))}
        if rng.random() < 0.15:
            query["inStockOnly"] = True
        mix.append({k: v for k, v in query.items() if v is not None})
    return mix


_COLD = """
import json, sys, time
started = time.perf_counter()
from shared.search import SearchIndex, SearchQuery, validate_snapshot
imported = time.perf_counter()
validate_snapshot(sys.argv[1])
validated = time.perf_counter()
index = SearchIndex.open(sys.argv[1])
result = index.search(SearchQuery(keywords="laptop for video editing", maxPrice=1500))
answered = time.perf_counter()
print(json.dumps({
    "import_ms": (imported - started) * 1000,
    "validate_ms": (validated - imported) * 1000,
    "open_first_query_ms": (answered - validated) * 1000,
    "count": result.count,
}))
"""


def _cold(path: Path) -> dict[str, float]:
    """A fresh process: import, validate (with quick_check), open, answer one search."""
    done = subprocess.run(
        [sys.executable, "-c", _COLD, str(path)],
        capture_output=True,
        text=True,
        check=True,
        cwd=REPO_ROOT,
        env={"PYTHONPATH": f"{REPO_ROOT}:{REPO_ROOT / 'functions'}", "PATH": "/usr/bin:/bin"},
        timeout=300,
    )
    figures: dict[str, float] = json.loads(done.stdout.strip().splitlines()[-1])
    return figures


def _old_scan(products: list[dict[str, Any]], query: dict[str, Any]) -> list[dict[str, Any]]:
    """What lookup_inventory did before the index, once a category was in memory: every
    product tested in Python, every keyword required as a substring, sorted by price."""

    def words(text: str) -> list[str]:
        return [w for w in text.casefold().replace(",", " ").split() if w]

    found = []
    for p in products:
        if query.get("category") and p.get("category") != query["category"]:
            continue
        if query.get("brandId") and query["brandId"].casefold() not in p["brand"].casefold():
            continue
        if query.get("productName") and not all(
            w in p["name"].casefold() for w in words(query["productName"])
        ):
            continue
        if query.get("keywords"):
            specs = " ".join(str(v) for v in (p.get("specs") or {}).values())
            hay = f"{p['name']} {p['brand']} {p['description']} {specs}".casefold()
            if not all(w in hay for w in words(query["keywords"])):
                continue
        if query.get("maxPrice") is not None and p["price"] > query["maxPrice"]:
            continue
        found.append(p)
    found.sort(key=lambda p: (p.get("stock", 0) <= 0, p["price"]))
    return found[:8]


def _scan_figures(catalog: list[dict[str, Any]], mix: list[dict[str, Any]]) -> dict[str, Any]:
    """Today's scan, warm (the category already read), on the same searches."""
    times: list[float] = []
    empty = 0
    for query in mix[:60]:  # a scan is slow at size: sixty searches are enough to see it
        started = time.perf_counter()
        empty += not _old_scan(catalog, query)
        times.append((time.perf_counter() - started) * 1000)
    return {"warm_ms": summary(times), "empty": empty, "queries": min(60, len(mix))}


def _import_rows_per_s(catalog: list[dict[str, Any]], workdir: Path) -> float:
    """``storechat catalog import`` of the whole catalog into a fresh local store."""
    source = workdir / "import.jsonl"
    with source.open("w", encoding="utf-8") as out:
        for product in catalog:
            out.write(json.dumps(product) + "\n")
    home = workdir / "home"
    started = time.perf_counter()
    subprocess.run(
        [
            sys.executable,
            "-c",
            "from storechat.cli import main; raise SystemExit(main())",
            "catalog",
            "import",
            str(source),
        ],
        env={**_clean_env(), "STORECHAT_HOME": str(home)},
        capture_output=True,
        check=True,
        timeout=1800,
    )
    seconds = time.perf_counter() - started
    source.unlink()
    return len(catalog) / seconds


# Letters next to each other on a QWERTY keyboard: the letter a slip replaces.
_NEIGHBOURS = {
    row[i]: row[max(i - 1, 0)] + row[i + 1 : i + 2]
    for row in ("qwertyuiop", "asdfghjkl", "zxcvbnm")
    for i in range(len(row))
}


def misspelt(word: str, rng: random.Random) -> str:
    """``word`` with one slip of a shopper's: two letters swapped, one dropped, one
    doubled, or one replaced by a neighbour on the keyboard (never the first letter)."""
    i = rng.randrange(1, len(word) - 1)
    slip = rng.choice(("swap", "drop", "double", "replace"))
    if slip == "swap":
        return word[:i] + word[i + 1] + word[i] + word[i + 2 :]
    if slip == "drop":
        return word[:i] + word[i + 1 :]
    if slip == "double":
        return word[:i] + word[i] + word[i:]
    near = _NEIGHBOURS.get(word[i], "") or word[i]
    return word[:i] + rng.choice(near) + word[i + 1 :]


def _words_of(path: Path, count: int, seed: int) -> list[tuple[str, str]]:
    """(misspelt, meant) pairs for ``count`` strong words of six letters or more of the
    snapshot at ``path``; a misspelling that is itself a word of the snapshot is skipped."""
    from shared.search.driver import connect, read_only_uri

    db = connect(read_only_uri(path))
    try:
        vocabulary = {str(w) for (w,) in db.execute("SELECT word FROM spelling")}
        strong = sorted(
            str(w)
            for (w,) in db.execute(
                "SELECT word FROM spelling WHERE strong = 1 AND length(word) >= 6"
            )
        )
    finally:
        db.close()
    rng = random.Random(seed)
    pairs: list[tuple[str, str]] = []
    for word in rng.sample(strong, min(len(strong), count * 2)):
        wrong = misspelt(word, rng)
        if wrong != word and wrong not in vocabulary:
            pairs.append((wrong, word))
    return pairs[:count]


def _vocabulary_size(path: Path) -> int:
    from shared.search.driver import connect, read_only_uri

    db = connect(read_only_uri(path))
    try:
        (words,) = db.execute("SELECT count(*) FROM spelling").fetchone()
    finally:
        db.close()
    return int(words)


def _without_words(path: Path, workdir: Path) -> Path:
    """A copy of the snapshot at ``path`` without its word tables (spelling, listing),
    marked format 1: the snapshot as it was before them."""
    from shared.search.driver import sqlite_module

    copy = workdir / f"without-words-{path.name}"
    module = sqlite_module()
    db = module.connect(str(path))
    try:
        db.execute("VACUUM INTO ?", (str(copy),))
    finally:
        db.close()
    db = module.connect(str(copy))
    try:
        for table in ("spelling", "spelling_keys", "listing", "listing_fields"):
            db.execute(f"DROP TABLE IF EXISTS {table}")
        db.execute("UPDATE snapshot_meta SET format_version = 1")
        db.commit()
        db.execute("VACUUM")
    finally:
        db.close()
    return copy


def _word_tables_mb(path: Path, workdir: Path) -> float:
    """The snapshot's size less that of a copy without the word tables."""
    copy = _without_words(path, workdir)
    less = copy.stat().st_size
    copy.unlink()
    return (path.stat().st_size - less) / 1e6


def spelling_figures(index: Any, path: Path, words: int = 200) -> dict[str, Any]:
    """Correcting misspelt words of the snapshot: time to correct one (median of
    ``ROUNDS``), the whole search of it, and how often the word meant comes back."""
    from shared.search import SearchQuery

    pairs = _words_of(path, words, seed=21)
    queries = [SearchQuery(keywords=wrong) for wrong, _ in pairs]
    rng = random.Random(21)
    phrases = [SearchQuery(keywords=_misspell_phrase(p, rng)) for p in _PHRASES]
    for query in [*queries, *phrases]:  # warm-up, as for the other searches
        index.search(query)
    correct: list[list[float]] = [[] for _ in queries]
    search: list[list[float]] = [[] for _ in queries]
    phrase: list[list[float]] = [[] for _ in phrases]
    for _ in range(ROUNDS):
        for i, query in enumerate(queries):
            started = time.perf_counter()
            index.corrections(query)
            correct[i].append((time.perf_counter() - started) * 1000)
            started = time.perf_counter()
            index.search(query)
            search[i].append((time.perf_counter() - started) * 1000)
        for i, query in enumerate(phrases):
            started = time.perf_counter()
            index.search(query)
            phrase[i].append((time.perf_counter() - started) * 1000)
    back = sum(
        index.corrections(query).get(wrong) == meant
        for query, (wrong, meant) in zip(queries, pairs, strict=True)
    )
    return {
        "words": len(pairs),
        "correct_ms": summary([statistics.median(r) for r in correct]),
        "search_ms": summary([statistics.median(r) for r in search]),
        "phrases": len(phrases),
        "phrase_ms": summary([statistics.median(r) for r in phrase]),
        "corrected_back": back / len(pairs) if pairs else 0.0,
    }


def _misspell_phrase(phrase: str, rng: random.Random) -> str:
    """``phrase`` (of :data:`_PHRASES`) with its longest word misspelt, if it has one of
    five letters or more: the misspelt searches a model passes on."""
    words = phrase.split()
    longest = max(range(len(words)), key=lambda i: len(words[i]))
    if len(words[longest]) >= 5 and words[longest].isalpha():
        words[longest] = misspelt(words[longest], rng)
    return " ".join(words)


def wide_catalog(size: int, vocabulary: int, seed: int = 7) -> list[dict[str, Any]]:
    """The synthetic catalog with an invented product-line word ("Tavorin") added to
    every name, ``vocabulary`` of them in all: the many distinct words of a real catalog."""
    from bench.catalog_gen import synthetic_catalog

    rng = random.Random(seed)
    syllables = [c + v for c in "bcdfghklmnprstvz" for v in "aeiou"]
    invented: set[str] = set()
    while len(invented) < vocabulary:
        invented.add("".join(rng.choice(syllables) for _ in range(rng.randint(3, 4))))
    pool = sorted(invented)
    rng.shuffle(pool)
    catalog = synthetic_catalog(size, seed=seed)
    for i, product in enumerate(catalog):
        extra = [pool[(2 * i + k) % vocabulary].capitalize() for k in (0, 1)]
        product["name"] = f"{product['name']} {' '.join(extra)}"
    return catalog


def measure_wide(size: int, vocabulary: int, workdir: Path) -> dict[str, Any]:
    """Build, snapshot size and correction figures of :func:`wide_catalog`."""
    from shared.search import SearchIndex, build_index

    print(
        f"bench.search: {size:,} products, {vocabulary:,} invented words ...",
        file=sys.stderr,
        flush=True,
    )
    report = build_index(wide_catalog(size, vocabulary), workdir / f"wide-{size}.sqlite")
    index = SearchIndex.open(report.path)
    try:
        figures = spelling_figures(index, report.path)
    finally:
        index.close()
    figures["word_tables_mb"] = _word_tables_mb(report.path, workdir)
    return {
        "products": size,
        "vocabulary": _vocabulary_size(report.path),
        "build_s": report.seconds,
        "size_mb": report.size_bytes / 1e6,
        **figures,
    }


def _clean_env() -> dict[str, str]:
    import os

    return {k: v for k, v in os.environ.items() if not k.startswith("STORECHAT_")}


def measure(size: int, workdir: Path, *, queries: int = 300, seed: int = 7) -> dict[str, Any]:
    from bench.catalog_gen import synthetic_catalog
    from shared.search import SearchIndex, SearchQuery, build_index

    print(f"bench.search: {size:,} products ...", file=sys.stderr, flush=True)
    catalog = synthetic_catalog(size, seed=seed)
    report = build_index(catalog, workdir / f"catalog-{size}.sqlite")
    scan = _scan_figures(catalog, query_mix(queries))
    import_rate = _import_rows_per_s(catalog, workdir)
    del catalog
    colds = [_cold(report.path) for _ in range(3)]
    cold = min(colds, key=lambda c: c["validate_ms"] + c["open_first_query_ms"])
    index = SearchIndex.open(report.path)
    # The same snapshot without its word tables (format 1): searched as before typo
    # tolerance, query by query in turn with the full one, so that whatever else runs on
    # the machine weighs on both alike.
    plain_path = _without_words(report.path, workdir)
    plain = SearchIndex.open(plain_path)
    mix = [SearchQuery.from_input(q) for q in query_mix(queries)]
    for query in mix:  # warm-up: page cache and the statement cache, as a warm Lambda has
        index.search(query)
        plain.search(query)
    # Each search three times; its time is the median of the three, so that another
    # process on this shared machine stealing the CPU once does not count as search time.
    rounds: list[list[float]] = [[] for _ in mix]
    before: list[list[float]] = [[] for _ in mix]
    check: list[list[float]] = [[] for _ in mix]
    empty = relaxed = 0
    for _ in range(ROUNDS):
        for i, query in enumerate(mix):
            started = time.perf_counter()
            plain.search(query)
            before[i].append((time.perf_counter() - started) * 1000)
            started = time.perf_counter()
            result = index.search(query)
            rounds[i].append((time.perf_counter() - started) * 1000)
            # The part of a search typo tolerance adds: parse, and look up each plain word.
            started = time.perf_counter()
            index.corrections(query)
            check[i].append((time.perf_counter() - started) * 1000)
    corrected = 0
    for query in mix:
        result = index.search(query)
        empty += not result.products
        relaxed += bool(result.relaxed)
        corrected += bool(result.corrected)
    times = [statistics.median(r) for r in rounds]
    spelling = spelling_figures(index, report.path)
    spelling["warm_without_ms"] = summary([statistics.median(r) for r in before])
    spelling["mix_check_ms"] = summary([statistics.median(r) for r in check])
    spelling["mix_corrected"] = corrected
    spelling["size_without_mb"] = plain_path.stat().st_size / 1e6
    spelling["word_tables_mb"] = report.size_bytes / 1e6 - spelling["size_without_mb"]
    plain.close()
    plain_path.unlink()
    index.close()
    warm = summary(times)
    return {
        "products": size,
        "build_s": report.seconds,
        "size_mb": report.size_bytes / 1e6,
        "cold_ms": cold["validate_ms"] + cold["open_first_query_ms"],
        "cold": cold,
        "warm_ms": warm,
        "queries": len(mix),
        "empty": empty,
        "relaxed": relaxed,
        "scan": scan,
        "import_rows_per_s": import_rate,
        "spelling": spelling,
    }


def run(sizes: Sequence[int] = FULL_SIZES, *, queries: int = 300) -> list[dict[str, Any]]:
    """Measure every size, then the wide vocabulary (at the largest size's scale); the
    snapshots live in a temporary folder removed at the end."""
    with tempfile.TemporaryDirectory(prefix="bench-search-") as folder:
        rows = [measure(size, Path(folder), queries=queries) for size in sizes]
        products, vocabulary = WIDE if max(sizes) >= WIDE[0] else QUICK_WIDE
        rows[-1]["wide"] = measure_wide(products, vocabulary, Path(folder))
        return rows


def table(rows: list[dict[str, Any]]) -> str:
    lines = [
        "| products | build | snapshot | cold (validate + open + 1st query) | warm p50 | warm p99 |"
        " warm max | no result | relaxed | today's scan p50 / p99 (no result) | import |",
        "|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for r in rows:
        c, w = r["cold"], r["warm_ms"]
        scan = r.get("scan")
        scan_text = (
            f"{scan['warm_ms']['p50']:.1f} ms / {scan['warm_ms']['p99']:.1f} ms"
            f" ({scan['empty']}/{scan['queries']})"
            if scan
            else "not measured"
        )
        rate = r.get("import_rows_per_s")
        lines.append(
            f"| {r['products']:,} | {r['build_s']:.1f} s | {r['size_mb']:.1f} MB"
            f" | {r['cold_ms']:.0f} ms ({c['validate_ms']:.0f} + {c['open_first_query_ms']:.0f})"
            f" | {w['p50']:.2f} ms | {w['p99']:.2f} ms | {w['max']:.1f} ms"
            f" | {r['empty']}/{r['queries']} | {r['relaxed']}/{r['queries']} | {scan_text}"
            f" | {f'{rate:,.0f} rows/s' if rate else 'not measured'} |"
        )
    lines.append("")
    lines.append(
        "Today's scan: the lookup before the index, with the category already in memory (a "
        "warm hit); every keyword required as a substring, so shoppers' phrases often find "
        "nothing. Import: `storechat catalog import` of the whole catalog into a new local "
        "store, validation included."
    )
    import_ms = min(r["cold"]["import_ms"] for r in rows)
    lines.append("")
    lines.append(
        f"Importing the search package in a fresh process: {import_ms:.0f} ms (not in cold)."
    )
    spelled = [r for r in rows if "spelling" in r]
    if spelled:
        lines += ["", *spelling_table(spelled)]
    return "\n".join(lines)


def spelling_table(rows: list[dict[str, Any]]) -> list[str]:
    """Typo tolerance at each size, and on the wide vocabulary if measured."""
    lines = [
        "| products | warm p50 / p99 without the word tables | with them (typo tolerance) |"
        " of which the spelling check | searches of the mix corrected | snapshot without / with |",
        "|---:|---:|---:|---:|---:|---:|",
    ]
    for r in rows:
        f, w = r["spelling"], r["warm_ms"]
        before, check = f["warm_without_ms"], f["mix_check_ms"]
        lines.append(
            f"| {r['products']:,} | {before['p50']:.2f} / {before['p99']:.2f} ms"
            f" | {w['p50']:.2f} / {w['p99']:.2f} ms | {check['p50']:.3f} / {check['p99']:.3f} ms"
            f" | {f['mix_corrected']}/{r['queries']}"
            f" | {f['size_without_mb']:.1f} / {r['size_mb']:.1f} MB |"
        )
    lines += [
        "",
        "*Without the word tables*: the same snapshot less its spelling and listing tables "
        "(format 1, searched as before typo tolerance), each search of the mix timed on it "
        "and then on the full snapshot in turn, so that other load falls on both alike. "
        "*The spelling check*: what a search of the mix spends deciding whether any word "
        "needs correcting (`SearchIndex.corrections`).",
        "",
        "| catalog | words | word tables | correct a word p50 / p99 | search a misspelt word"
        " p50 / p99 | search a misspelt phrase p50 / p99 | corrected back |",
        "|---|---:|---:|---:|---:|---:|---:|",
    ]
    cases = [(f"{r['products']:,} products", r["spelling"], r["size_mb"]) for r in rows]
    wide = rows[-1].get("wide")
    if wide:
        label = f"{wide['products']:,} products, {wide['vocabulary']:,} words (wide)"
        cases.append((label, wide, wide["size_mb"]))
    for label, f, size_mb in cases:
        c, q, m = f["correct_ms"], f["search_ms"], f["phrase_ms"]
        lines.append(
            f"| {label} | {f['words']} | {f['word_tables_mb']:.2f} MB of {size_mb:.1f} MB"
            f" | {c['p50']:.2f} / {c['p99']:.2f} ms | {q['p50']:.2f} / {q['p99']:.2f} ms"
            f" | {m['p50']:.2f} / {m['p99']:.2f} ms | {f['corrected_back']:.0%} |"
        )
    lines += [
        "",
        "Words: strong words of six letters or more, misspelt once each (two letters "
        "swapped, one dropped, doubled, or replaced by a keyboard neighbour); phrases: the "
        "warm mix's phrases with their longest word misspelt so; *corrected "
        "back*: the share read as the word meant (a slip can make a word nearer another "
        "one: that is not counted). *Word tables*: the spelling and listing tables, "
        "measured by dropping them from a copy of the snapshot.",
    ]
    return lines


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.search", description=__doc__)
    parser.add_argument("--quick", action="store_true", help="1,000 and 10,000 products only")
    parser.add_argument("--queries", type=int, default=300, help="warm searches per size")
    args = parser.parse_args(argv)
    rows = run(QUICK_SIZES if args.quick else FULL_SIZES, queries=args.queries)
    print(table(rows))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
