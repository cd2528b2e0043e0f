"""Ids of any characters a SKU may hold go all the way: imported, found, cited, carded,
checked.

Hypothesis writes SKUs of any printable characters (any script, spaces, brackets, quotes,
``#``, dots, slashes, up to 255 of them). Each is imported from a Shopify export, indexed,
found by the catalog tool and cited by the model as the tool gave it; the shopper then
reads each product's own id, sees its card, and reads its price corrected. An invented id
of the same alphabet is removed.
"""

from __future__ import annotations

import csv
from pathlib import Path

from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from compose_response.known import KnownProducts
from compose_response.logic import ComposeInput, compose
from lookup_inventory.logic import run
from shared.api.contract import ToolUse
from shared.products.catalog_table import CatalogRead
from shared.products.product import MAX_PRODUCT_ID, Product, is_product_id
from shared.products.table import shown_products
from shared.search import SearchIndex, build_index
from storechat.catalog.rows import ValidRow, read_rows

NAMES = ("Alpha Reader", "Bravo Reader", "Charlie Reader", "Delta Reader")
# Every character a product id may hold: none of the invisible categories.
SKU_CHARACTERS = st.characters(exclude_categories=("Cc", "Cf", "Co", "Cs", "Cn", "Zl", "Zp"))
skus = st.text(SKU_CHARACTERS, min_size=1, max_size=MAX_PRODUCT_ID).filter(is_product_id)
# What a model may invent in square brackets: any id without brackets of its own, or the
# commas that would make it a list.
INVENTED_CHARACTERS = st.characters(
    exclude_categories=("Cc", "Cf", "Co", "Cs", "Cn", "Zl", "Zp"),
    exclude_characters="[]\uff3b\uff3d\u3010\u3011,;\u3001\uff0c\uff1b",
)
inventions = st.text(INVENTED_CHARACTERS, min_size=1, max_size=80).map(str.strip).filter(bool)


def shopify_export(path: Path, ids: list[str]) -> Path:
    """A Shopify product export (its classic header), one book per SKU."""
    with path.open("w", encoding="utf-8", newline="") as file:
        writer = csv.writer(file)
        writer.writerow(
            ["Handle", "Title", "Vendor", "Product Category", "Variant SKU",
             "Variant Inventory Qty", "Variant Price", "Status"]
        )  # fmt: skip
        for number, (sku, name) in enumerate(zip(ids, NAMES, strict=False), start=1):
            writer.writerow(
                [f"book-{number}", name, "Acme", "Media > Books > Print Books", sku, "5",
                 f"{number * 11}.00", "active"]
            )  # fmt: skip
    return path


class Table:
    def __init__(self, products: list[dict[str, object]]) -> None:
        self.records = {str(p["productId"]): p for p in products}

    def products_by_id(self, ids: list[str], *, deadline_s: float | None) -> CatalogRead:
        return CatalogRead([dict(self.records[i]) for i in ids if i in self.records])


@settings(
    max_examples=60,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(ids=st.lists(skus, min_size=1, max_size=len(NAMES), unique=True), invented=inventions)
def test_any_sku_is_imported_found_cited_carded_and_checked(
    tmp_path: Path, ids: list[str], invented: str
) -> None:
    assume(KnownProducts(ids).resolve(invented) is None)
    # Given a Shopify export whose SKUs are these, When it is imported
    rows = list(read_rows(shopify_export(tmp_path / "export.csv", ids), "shopify"))
    products = [row.row for row in rows if isinstance(row, ValidRow)]
    # Then each product's id is its SKU as the store wrote it
    assert [p.productId for p in products if isinstance(p, Product)] == ids, rows
    records = [p.model_dump() for p in products]

    # When the catalog tool is asked for books, and then for each product again by the id
    # it gave the model
    build_index(records, tmp_path / "snapshot.sqlite")
    index = SearchIndex.open(tmp_path / "snapshot.sqlite")
    try:

        def tool(tool_input: dict[str, object]) -> dict[str, object]:
            use = ToolUse(toolUseId="t1", name="lookup_inventory", input=tool_input)
            found = run(use, index=lambda: index, source=Table(records), max_results=8)
            return found.dump()

        searched = tool({"category": "BOOKS", "limit": 12})
        given_ids = [
            p["productId"]
            for p in shown_products(searched["toolResult"]["content"][0]["json"]["products"])
        ]
        again = tool({"productIds": given_ids})
    finally:
        index.close()
    # Then it finds every one, and keeps each product's own id in the ledger
    assert sorted(p["productId"] for p in searched["ledger"]["products"]) == sorted(ids)
    assert sorted(p["productId"] for p in again["ledger"]["products"]) == sorted(ids)

    # When the model cites each by what the tool gave it, with a wrong price, and invents one
    by_name = {
        p["name"]: cited
        for p, cited in zip(
            searched["ledger"]["products"],
            given_ids,
            strict=True,
        )
    }
    lines = [f"- {name} [{by_name[name]}] costs $999." for name in NAMES[: len(ids)]]
    answer = "\n".join([*lines, f"- Zulu Reader [{invented}] costs $5."])
    body = compose(
        ComposeInput(
            sessionId="s-1",
            outcome="answered",
            answer=answer,
            products=again["ledger"]["products"],
        )
    ).model_dump()
    # Then the shopper reads each product's own id and catalog price, and sees its card
    expected = [
        f"- {name} [{pid}] costs ${(n + 1) * 11}."
        for n, (name, pid) in enumerate(zip(NAMES, ids, strict=False))
    ]
    assert body["answer"] == "\n".join(expected)
    assert [p["productId"] for p in body["products"]] == ids
    assert [c["productId"] for c in body["corrections"]] == ids
    # And the invented product is gone, its id reported as one no tool vouched for
    assert "Zulu" not in body["answer"]
    assert body["unverifiedCitations"] == [invented]
    # And the answer as the shopper read it (each id as it is), read again in a later
    # turn, names the same products
    again_body = compose(
        ComposeInput(
            sessionId="s-1",
            outcome="answered",
            answer=body["answer"],
            products=again["ledger"]["products"],
        )
    ).model_dump()
    assert again_body["answer"] == body["answer"]
    assert [p["productId"] for p in again_body["products"]] == ids
