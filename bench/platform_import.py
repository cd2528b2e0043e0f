"""How fast ``storechat catalog import`` reads a store platform's export, and in how much memory.

A synthetic catalog (``bench.catalog_gen``) is written as a Shopify export (each product
with two variant rows, an extra image row, an HTML body) and as a WooCommerce export
(a variable product with two variations), then imported into a fresh local store in a
subprocess: once with ``--dry-run``, once with ``--replace``. The figures are wall time,
export rows per second and the subprocess's peak memory (its maximum resident set).

Usage::

    python -m bench.platform_import [--sizes 1000 10000]
"""

from __future__ import annotations

import argparse
import csv
import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

SIZES = (1_000, 10_000)
SHOPIFY = ["Handle", "Title", "Body (HTML)", "Vendor", "Product Category", "Type", "Published"]
SHOPIFY += ["Option1 Name", "Option1 Value", "Variant SKU", "Variant Inventory Tracker"]
SHOPIFY += ["Variant Inventory Qty", "Variant Price", "Image Src", "Image Position", "Status"]
WOOCOMMERCE = ["ID", "Type", "SKU", "Name", "Published", "Description", "In stock?", "Stock"]
WOOCOMMERCE += ["Regular price", "Categories", "Images", "Parent", "Brands"]
WOOCOMMERCE += ["Attribute 1 name", "Attribute 1 value(s)"]
TAXONOMY = {
    "COMPUTERS": "Electronics > Computers > Laptops",
    "MOBILE": "Electronics > Communications > Telephony > Mobile & Smart Phones",
    "BOOKS": "Media > Books > Print Books",
}
VARIANTS = (("Standard", 1.0), ("Plus", 1.2))


def _body(product: dict[str, Any]) -> str:
    specs = "".join(f"<li>{key}: {value}</li>" for key, value in product["specs"].items())
    return f"<p>{product['description']}</p><ul>{specs}</ul>"


def _shopify_rows(catalog: list[dict[str, Any]]) -> Iterator[list[str]]:
    for product in catalog:
        handle = product["productId"].lower()
        image = f"https://cdn.shopify.com/s/files/1/0000/0001/files/{handle}.jpg"
        for n, (edition, factor) in enumerate(VARIANTS):
            first = n == 0
            yield [
                handle,
                product["name"] if first else "",
                _body(product) if first else "",
                product["brand"] if first else "",
                TAXONOMY[product["category"]] if first else "",
                "",
                "TRUE" if first else "",
                "Edition" if first else "",
                edition,
                f"{product['productId']}-{n}",
                "shopify",
                str(product["stock"]),
                f"{product['price'] * factor:.2f}",
                image if first else "",
                "1" if first else "",
                "active" if first else "",
            ]
        yield [handle, *[""] * 12, image.replace(".jpg", "-2.jpg"), "2", ""]


def _woocommerce_rows(catalog: list[dict[str, Any]]) -> Iterator[list[str]]:
    editions = ", ".join(edition for edition, _ in VARIANTS)
    for number, product in enumerate(catalog):
        category = TAXONOMY[product["category"]].split(" > ")[-1]
        image = f"https://shop.example.com/wp-content/uploads/{product['productId']}.jpg"
        yield [
            str(number * 3 + 1), "variable", product["productId"], product["name"], "1",
            _body(product), "1", "", "", category, image, "", product["brand"], "Edition",
            editions,
        ]  # fmt: skip
        for n, (edition, factor) in enumerate(VARIANTS, start=1):
            yield [
                str(number * 3 + 1 + n), "variation", f"{product['productId']}-{n}",
                f"{product['name']} - {edition}", "1", "", "1", str(product["stock"]),
                f"{product['price'] * factor:.2f}", "", "", product["productId"], "", "Edition",
                edition,
            ]  # fmt: skip


def _write(path: Path, header: list[str], rows: Iterator[list[str]]) -> int:
    count = 0
    with path.open("w", encoding="utf-8", newline="") as out:
        writer = csv.writer(out)
        writer.writerow(header)
        for row in rows:
            writer.writerow(row + [""] * (len(header) - len(row)))
            count += 1
    return count


def _import(path: Path, fmt: str, home: Path, *flags: str) -> dict[str, float]:
    """Run one import in a fresh process; its wall time and peak memory."""
    code = (
        "import resource, sys; from storechat.cli import main; code = main(); "
        "print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss, file=sys.stderr); "
        "raise SystemExit(code)"
    )
    env = {k: v for k, v in os.environ.items() if not k.startswith("STORECHAT_")}
    started = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-c", code, "catalog", "import", "--format", fmt, str(path), *flags],
        env={**env, "STORECHAT_HOME": str(home)},
        capture_output=True,
        text=True,
        check=False,
        timeout=1800,
    )
    seconds = time.perf_counter() - started
    if done.returncode != 0:
        raise RuntimeError(f"import failed ({done.returncode}): {done.stderr[-2000:]}")
    peak_kib = int(done.stderr.strip().splitlines()[-1])
    return {"seconds": seconds, "peak_mib": peak_kib / 1024}


def measure(size: int, workdir: Path) -> list[dict[str, Any]]:
    from bench.catalog_gen import synthetic_catalog

    catalog = synthetic_catalog(size)
    results = []
    for fmt, write in (
        ("shopify", lambda p: _write(p, SHOPIFY, _shopify_rows(catalog))),
        ("woocommerce", lambda p: _write(p, WOOCOMMERCE, _woocommerce_rows(catalog))),
    ):
        path = workdir / f"{fmt}-{size}.csv"
        rows = write(path)
        home = workdir / f"home-{fmt}-{size}"
        dry = _import(path, fmt, home, "--dry-run")
        full = _import(path, fmt, home, "--replace")
        results.append(
            {
                "format": fmt,
                "products": size * len(VARIANTS),
                "rows": rows,
                "megabytes": path.stat().st_size / 1e6,
                "dry_run": dry,
                "replace": full,
            }
        )
        path.unlink()
    return results


def table(results: list[dict[str, Any]]) -> str:
    lines = [
        "| export | rows | MB | products | dry run s | rows/s | import s | rows/s | peak MiB |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for r in results:
        dry, full = r["dry_run"], r["replace"]
        lines.append(
            f"| {r['format']} | {r['rows']:,} | {r['megabytes']:.1f} | {r['products']:,} | "
            f"{dry['seconds']:.1f} | {r['rows'] / dry['seconds']:,.0f} | "
            f"{full['seconds']:.1f} | {r['rows'] / full['seconds']:,.0f} | "
            f"{max(dry['peak_mib'], full['peak_mib']):.0f} |"
        )
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.platform_import", description=__doc__)
    parser.add_argument("--sizes", type=int, nargs="+", default=list(SIZES))
    args = parser.parse_args(argv)
    results = []
    with tempfile.TemporaryDirectory(prefix="storechat-platform-bench-") as workdir:
        for size in args.sizes:
            results += measure(size, Path(workdir))
    print(table(results))
    print(f"\n(peak memory: ru_maxrss of the import process; {os.cpu_count()} CPUs here)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
