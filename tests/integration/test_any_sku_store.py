"""A store whose SKUs are numbers, letters only, and hold dots and spaces, end to end.

The store's Shopify export (``tests/support/exports/shopify_any_skus.csv``, in the
platform's own column layout) is imported with ``storechat catalog import --format
shopify``; one of its SKUs is on two variants. Then a shopper asks, and the model's reply
cites those products with wrong prices and invents a product in each form of the store's
SKUs: through a replayed model, and through the real Bedrock provider code against a
Bedrock stand-in on 127.0.0.1.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from shared.products.citing import handle
from shared.products.table import shown_products
from tests.integration.converse_fixtures import asks_for_tools, lookup, replies, write_replay
from tests.support.catalog_cli import home, storechat
from tests.support.fake_bedrock import FakeBedrock

__all__ = ["home", "storechat"]  # fixtures the tests below use

EXPORT = Path(__file__).resolve().parents[1] / "support" / "exports" / "shopify_any_skus.csv"
PAPERBACK = "100201"  # numeric
HAIL_MARY = "BK-PROJECT-HAIL-MARY"  # letters only
ARTEMIS = "bk.artemis.pb"  # dots, lower case
FRAMEWORK = "FW 13 I5 16/512"  # spaces and a slash: cited by its handle
PRICES = {PAPERBACK: 9.99, HAIL_MARY: 14.99, ARTEMIS: 11.99, FRAMEWORK: 1049.0}
INVENTED = ["999999", "BK-RED-MARS-PA", "bk.aurora.pb", "FW 16 R7 32/1T"]


def _imported(storechat: Any) -> str:
    """Import the export as a store team does, and return the hardcover's id."""
    dry = storechat("catalog", "import", "--format", "shopify", "--dry-run", str(EXPORT))
    assert dry.code == 0, dry.err
    run = storechat("catalog", "import", "--format", "shopify", str(EXPORT))
    assert run.code == 0, run.err
    # Both runs say which variant shares its SKU and what it is imported as
    note = next(line for line in run.err.splitlines() if "is also on line" in line)
    assert note in dry.err
    hardcover = note.rsplit("imported as ", 1)[1].strip("'")
    assert hardcover.startswith(f"{PAPERBACK}~")
    assert f"add     {hardcover}  The Martian - Hardcover" in dry.out
    return hardcover


def _script(hardcover: str, framework: str) -> list[dict[str, Any]]:
    """The model: it searches the two brands, then cites what the tool gave it."""
    return [
        asks_for_tools(
            lookup("t1", brandId="Red Rocket Press", limit=12), lookup("t2", brandId="Framework")
        ),
        replies(
            "Here is what I found:\n"
            f"- The Martian in paperback [{PAPERBACK}] is $5.\n"
            f"- The hardcover [{hardcover}] is $30.\n"
            f"- Project Hail Mary [{HAIL_MARY}] costs $20.\n"
            f"- Artemis [{ARTEMIS}] is $7.\n"
            f"- To read them on, the Framework Laptop 13 [{framework}] for $499.\n"
            + "".join(f"- The Zephyr edition [{pid}] for $199.\n" for pid in INVENTED)
            + "All of them ship today."
        ),
    ]


def _shows_the_truth(body: dict[str, Any], hardcover: str) -> None:
    prices = {**PRICES, hardcover: 24.99}
    # Cards for the real products, with the catalog's prices
    assert {p["productId"]: p["price"] for p in body["products"]} == prices
    # Every wrong price corrected, in the text too
    assert {c["productId"]: c["said"] for c in body["corrections"]} == {
        PAPERBACK: "$5",
        hardcover: "$30",
        HAIL_MARY: "$20",
        ARTEMIS: "$7",
        FRAMEWORK: "$499",
    }
    assert body["answer"] == (
        "Here is what I found:\n"
        f"- The Martian in paperback [{PAPERBACK}] is $9.99.\n"
        f"- The hardcover [{hardcover}] is $24.99.\n"
        f"- Project Hail Mary [{HAIL_MARY}] costs $14.99.\n"
        f"- Artemis [{ARTEMIS}] is $11.99.\n"
        f"- To read them on, the Framework Laptop 13 [{FRAMEWORK}] for $1,049.\n"
        "All of them ship today."
    )
    # The invented ones gone, each reported; no handle reaches the shopper
    assert body["unverifiedCitations"] == INVENTED
    assert "Zephyr" not in body["answer"] and handle(FRAMEWORK) not in json.dumps(body)


def test_a_replayed_reply_about_a_store_of_any_skus_is_checked(
    storechat: Any, tmp_path: Path
) -> None:
    # Given the store's export imported
    hardcover = _imported(storechat)
    # When the replayed model cites its products (the laptop by the handle the tool gives
    # for an id with spaces) with wrong prices, and invents one product in each form
    model = write_replay(tmp_path, _script(hardcover, handle(FRAMEWORK)))
    run = storechat("ask", "Andy Weir books, and a laptop to read them on?", "--json",
                    "--model", model)  # fmt: skip
    # Then the shopper sees cards, corrected prices, and nothing invented
    assert run.code == 0, run.err
    _shows_the_truth(json.loads(run.out), hardcover)


def test_the_same_reply_through_bedrock_is_checked(
    storechat: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    hardcover = _imported(storechat)
    with FakeBedrock(_script(hardcover, handle(FRAMEWORK))) as bedrock:
        monkeypatch.setenv("AWS_ENDPOINT_URL_BEDROCK_RUNTIME", bedrock.base_url)
        for name in ("AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY"):
            monkeypatch.setenv(name, "testing")
        run = storechat("ask", "Andy Weir books, and a laptop to read them on?", "--json",
                        "--model", "bedrock:anthropic.claude-sonnet-4-5")  # fmt: skip
    assert run.code == 0, run.err
    # The model read the laptop by its handle, and each of the others by its SKU
    results = [
        block["toolResult"]["content"][0]["json"]
        for block in bedrock.requests[1]["messages"][-1]["content"]
    ]
    read = {p["productId"] for result in results for p in shown_products(result["products"])}
    assert read == {PAPERBACK, hardcover, HAIL_MARY, ARTEMIS, handle(FRAMEWORK)}
    _shows_the_truth(json.loads(run.out), hardcover)
