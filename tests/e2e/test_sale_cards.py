"""A card in chromium: a product on sale shows the price before the sale struck through,
and a weight is said rounded, in the store's unit."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from shared.products.catalog_data import load_catalog
from tests.e2e.test_web_page import Shot, answers, ask
from tests.integration.converse_fixtures import asks_for_tools, lookup, replies, write_replay

pytestmark = pytest.mark.e2e

ON_SALE, PLAIN = "CMP-901", "CMP-902"


def _catalog() -> list[dict[str, Any]]:
    laptop = next(p for p in load_catalog() if p["specs"].get("formFactor") == "laptop")
    return [
        *load_catalog(),
        {
            **laptop,
            "productId": ON_SALE,
            "name": "Acme Aero 14",
            "price": 899.0,
            "compareAtPrice": 999.0,
            # 2.6 lb, as an import keeps it
            "specs": {**laptop["specs"], "weightKg": 1.1793},
        },
        {**laptop, "productId": PLAIN, "name": "Acme Aero 15", "price": 949.0},
    ]


def _start(start_storechat: Callable[..., str], tmp_path: Path, **env: str) -> str:
    model = write_replay(
        tmp_path,
        [
            asks_for_tools(lookup("t1", productIds=[ON_SALE, PLAIN])),
            replies(f"The Acme Aero 14 [{ON_SALE}] is on sale; the Aero 15 [{PLAIN}] is not."),
        ],
    )
    return start_storechat(model=model, catalog=_catalog(), env=env)


def test_a_card_on_sale_shows_the_old_price_struck_through(
    page: Page, start_storechat: Callable[..., str], tmp_path: Path, screenshot: Shot
) -> None:
    page.goto(_start(start_storechat, tmp_path))

    ask(page, "Which Acme laptops are on sale?")

    cards = answers(page).first
    sale = cards.locator(f"[id$='-{ON_SALE}']")
    expect(sale.locator(".card__price")).to_have_text("$899.00")
    struck = sale.locator("s.card__was")
    expect(struck).to_have_text("$999.00")
    assert struck.evaluate("e => getComputedStyle(e).textDecorationLine") == "line-through"
    # read aloud as the price it was, not as a second price
    expect(sale.locator(".card__prices")).to_contain_text("$899.00, was $999.00")
    # the weight, rounded
    expect(sale.locator(".card__specs")).to_contain_text("1.18 kg")
    expect(sale).not_to_contain_text("1.1793")
    # a product not on sale has its one price
    plain = cards.locator(f"[id$='-{PLAIN}']")
    expect(plain.locator(".card__price")).to_have_text("$949.00")
    expect(plain.locator(".card__was")).to_have_count(0)
    sale.scroll_into_view_if_needed()
    screenshot(page, "11-card-on-sale")


def test_a_store_that_sells_in_pounds_shows_pounds(
    page: Page, start_storechat: Callable[..., str], tmp_path: Path
) -> None:
    page.goto(_start(start_storechat, tmp_path, STORE_WEIGHT_UNIT="lb"))

    ask(page, "Which Acme laptops are on sale?")

    sale = answers(page).first.locator(f"[id$='-{ON_SALE}']")
    expect(sale.locator(".card__specs")).to_contain_text("2.6 lb")
    expect(sale.locator(".card__specs")).not_to_contain_text("kg")
