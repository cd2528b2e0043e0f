"""The local store's catalog: ``$STORECHAT_HOME/catalog.jsonl``, one product a line.

No file means the bundled sample. The first import starts from the sample and writes
the whole catalog; ``reset`` deletes the file. Every write goes to a temporary file
beside it that then replaces it, so an interrupted import leaves the old catalog whole.
"""

from __future__ import annotations

import json
import os
import tempfile
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any, TextIO

from pydantic import ValidationError

from shared.products.catalog_data import load_catalog
from shared.products.product import Product, ProductDeletion
from storechat.catalog.errors import StoreDamaged, StoreUnavailable
from storechat.catalog.progress import Progress
from storechat.catalog.store import Applied, Row, is_sample, sample_names

STORE_FILE = "catalog.jsonl"


def load_local_catalog(home: Path) -> list[dict[str, Any]] | None:
    """The catalog imported under ``home``, or None when there is none (use the bundled one).

    ``ask``, ``chat`` and ``serve`` seed the local system with it. Raises
    :class:`StoreDamaged` when the file no longer holds valid products.
    """
    store = LocalCatalog(home)
    return list(store.products()) if store.path.is_file() else None


class LocalCatalog:
    def __init__(self, home: Path) -> None:
        self.home = home
        self.path = home / STORE_FILE

    @property
    def description(self) -> str:
        if self.path.is_file():
            return f"the local catalog ({self.path})"
        return "the bundled sample (nothing imported yet)"

    def products(self) -> Iterator[dict[str, Any]]:
        if not self.path.is_file():
            yield from load_catalog()
            return
        with self.path.open(encoding="utf-8") as lines:
            for line, text in enumerate(lines, start=1):
                if text.strip():
                    yield self._parse(line, text)

    def product_ids(self) -> Iterator[str]:
        return (str(product["productId"]) for product in self.products())

    def _parse(self, line: int, text: str) -> dict[str, Any]:
        try:
            return Product.model_validate(json.loads(text), strict=True).model_dump()
        except (ValueError, ValidationError) as exc:
            first = exc.errors()[0] if isinstance(exc, ValidationError) else None
            reason = f"{'.'.join(map(str, first['loc']))}: {first['msg']}" if first else str(exc)
            raise StoreDamaged(
                f"{self.path} is damaged at line {line} ({reason}); fix that line, or run "
                "`storechat catalog reset --yes` to go back to the bundled sample"
            ) from exc

    def apply(self, rows: Iterable[Row], progress: Progress) -> Applied:
        catalog = {product["productId"]: product for product in self.products()}
        applied = Applied()
        for row in rows:
            if isinstance(row, ProductDeletion):
                if catalog.pop(row.productId, None) is None:
                    applied.not_there += 1
                else:
                    applied.deleted += 1
            else:
                product = row.model_dump()
                before = catalog.get(row.productId)
                if before is None:
                    applied.added += 1
                elif before == product:
                    applied.unchanged += 1
                else:
                    applied.updated += 1
                catalog[row.productId] = product
            progress.advance()
        # Written even when nothing changed if there was no file yet: importing the
        # sample's own products still makes an explicit catalog, as the user asked.
        if applied.added or applied.updated or applied.deleted or not self.path.is_file():
            self._write(catalog.values())
        return applied

    def _write(self, products: Iterable[dict[str, Any]]) -> None:
        try:
            self.home.mkdir(parents=True, exist_ok=True)
            write_jsonl(products, self.path)
        except OSError as exc:
            raise StoreUnavailable(
                f"cannot write {self.path}: {exc.strerror or exc}; the catalog is as it was"
            ) from exc

    def categories(self) -> Iterator[dict[str, Any]]:
        return self.products()

    def sample_products(self) -> list[str]:
        sample = sample_names()
        return [str(p["productId"]) for p in self.products() if is_sample(p, sample)]

    def reset(self, stream: TextIO) -> str:
        if not self.path.is_file():
            return f"nothing to reset: {self.home} holds no imported catalog"
        self.path.unlink()
        return f"removed {self.path}; ask, chat and serve use the bundled sample again"


def jsonl_line(product: dict[str, Any]) -> str:
    return json.dumps(product, ensure_ascii=False) + "\n"


def write_jsonl(products: Iterable[dict[str, Any]], path: Path) -> int:
    """Write one product a line to ``path`` through a temporary file; returns how many."""
    count = 0
    handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(handle, "w", encoding="utf-8") as out:
            for product in products:
                out.write(jsonl_line(product))
                count += 1
            out.flush()
            os.fsync(out.fileno())
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise
    return count
