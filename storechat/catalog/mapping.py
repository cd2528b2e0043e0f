"""``--category-map FILE``: the operator's category names over the platform mapping's own.

The names a store platform uses and what each means in this catalog are declared once,
in :mod:`shared.platform.mapping` (webhooks and the Admin API sync map through it too);
this module reads the operator's additions from a file.
"""

from __future__ import annotations

import json
from pathlib import Path

from shared.catalog.categories import CATEGORIES, Category
from shared.platform.mapping import CategoryMap, path_segments
from storechat.catalog.errors import CatalogFileError
from storechat.catalog.textfile import text_lines


def load_category_map(path: Path) -> CategoryMap:
    """``--category-map FILE``: a JSON object of names to a catalog category or null.

    "Tablets" and "Electronics > Computers > Tablet Computers" to the value of
    ``Category.COMPUTERS``, "Laptop Stands" to null; a category (one of
    ``shared.catalog.categories.Category``) may be written in any case.
    """
    text = "".join(text_lines(path)) if path.is_file() else None
    if text is None:
        raise CatalogFileError(f"no such category map: {path}")
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise CatalogFileError(
            f"{path}, line {exc.lineno}: not valid JSON ({exc.msg}); a category map is an "
            f'object such as {{"Tablets": "{Category.COMPUTERS}", "Laptop Stands": null}}'
        ) from exc
    if not isinstance(data, dict):
        raise CatalogFileError(
            f'{path}: a category map is a JSON object such as {{"Tablets": "{Category.COMPUTERS}"}}'
        )
    entries: dict[str, str | None] = {}
    allowed = ", ".join(CATEGORIES)
    for name, category in data.items():
        if category is not None and (
            not isinstance(category, str) or category.strip().upper() not in CATEGORIES
        ):
            raise CatalogFileError(
                f"{path}: {name!r} maps to {category!r}; use one of {allowed}, or null "
                "for products the catalog does not sell"
            )
        if not path_segments(name):
            raise CatalogFileError(f"{path}: a category name must not be empty")
        entries[name] = category.strip().upper() if isinstance(category, str) else None
    return CategoryMap(entries)
