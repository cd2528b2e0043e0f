"""The chat page in headless chromium: what a product card shows, and an answer given
from the catalog once the day's model budget is spent."""

from __future__ import annotations

import json
from collections.abc import Callable
from datetime import UTC, datetime, timedelta

import boto3
import pytest
from playwright.sync_api import Page, expect

from shared.api.vocabulary import FALLBACK_REASONS, OUTCOMES
from storechat.local.runner import REGION, SPEND_TABLE
from tests.e2e.test_web_page import (
    CATALOG,
    Shot,
    answer_body,
    answer_queries_with,
    answers,
    ask,
)

pytestmark = pytest.mark.e2e


def spend_the_days_budget(micro_usd: int) -> None:
    """Today's spend counter (and tomorrow's, should the test run across midnight, UTC)."""
    today = datetime.now(UTC).date()
    for day in (today, today + timedelta(days=1)):
        boto3.client("dynamodb", region_name=REGION).put_item(
            TableName=SPEND_TABLE,
            Item={"day": {"S": day.isoformat()}, "spentMicroUsd": {"N": str(micro_usd)}},
        )


# -- product cards ---------------------------------------------------------------------------


def test_cards_leave_out_specs_a_product_does_not_have_and_write_sizes_as_people_do(
    page: Page, storechat_url: str
) -> None:
    # Given an answer citing a desktop tower (no screen, no battery: 0 in the catalog), a
    # laptop with 1,024 GB of storage, one with 2,048 GB, and a phone of 512 GB
    ids = ["CMP-019", "CMP-001", "CMP-037", "MOB-023"]
    products = [CATALOG[i] for i in ids]
    products.append(
        {
            "productId": "CMP-900",
            "name": "Mystery Box",
            "brand": "Acme",
            "category": "COMPUTERS",
            "price": 499.0,
            "stock": 4,
            "specs": {"os": "unknown", "cpu": "N/A", "ramGb": "0", "storageGb": 1000},
        }
    )
    body = {
        **answer_body("answered"),
        "answer": " ".join(f"[{p['productId']}]" for p in products),
        "products": products,
    }
    answer_queries_with(page, [(200, "application/json", json.dumps(body))])
    page.goto(storechat_url)

    # When the page shows it
    ask(page, "Show me computers")

    # Then the tower's card shows what it has, and nothing it has not
    def specs(product_id: str) -> list[str]:
        card = answers(page).first.locator(f"[id$='-{product_id}']")
        expect(card).to_be_visible()
        return card.locator(".card__specs li").all_inner_texts()

    tower = specs("CMP-019")
    assert tower == [
        "Windows 11 Home",
        "Intel Core i5-13400",
        "16 GB RAM",
        "512 GB storage",
        "5.2 kg",
    ]
    assert not any(spec.startswith("0") for spec in tower)
    # And storage reads as it is sold: 1 TB and 2 TB, never "1.024 TB"
    assert "1 TB storage" in specs("CMP-001")
    assert "2 TB storage" in specs("CMP-037")
    assert "512 GB" in specs("MOB-023")
    # And words that only say "not known" are not shown as facts
    assert specs("CMP-900") == ["1 TB storage"]


def test_cards_price_products_in_the_stores_currency(page: Page, storechat_url: str) -> None:
    # Given a store whose catalog is priced in euros (its config.json says so)
    page.route(
        "**/config.json",
        lambda route: route.fulfill(
            content_type="application/json", body=json.dumps({"apiUrl": "", "currency": "EUR"})
        ),
    )
    product = {**CATALOG["CMP-001"], "price": 1299.0}
    body = {**answer_body("answered"), "answer": "[CMP-001]", "products": [product]}
    answer_queries_with(page, [(200, "application/json", json.dumps(body))])
    page.goto(storechat_url)

    # When an answer cites a product
    ask(page, "Show me a laptop")

    # Then its card shows the price in euros, not dollars
    card = answers(page).first.locator("[id$='-CMP-001']")
    expect(card).to_contain_text("€1,299.00")
    assert "$" not in card.inner_text()


# -- over budget -----------------------------------------------------------------------------


def test_over_budget_the_page_says_the_assistant_is_busy_and_shows_what_the_catalog_has(
    page: Page, start_storechat: Callable[..., str], screenshot: Shot
) -> None:
    # Given a dev server with a day's model budget, and a first question answered
    page.goto(start_storechat(daily_budget_usd=1.0))
    ask(page, "What Windows PC do you have which is best for a high school student?")
    expect(answers(page)).to_have_count(1)
    expect(answers(page).first).to_have_attribute("data-outcome", "answered")

    # When other shoppers have spent the rest of the day's budget, and the shopper asks again
    spend_the_days_budget(1_000_000)
    ask(page, "A phone with a great camera?")

    # Then the answer is marked as partial, with the reason in words
    answer = answers(page).nth(1)
    expect(answer).to_have_attribute("data-outcome", "fallback")
    notice = answer.locator(".notice--warn")
    expect(notice.locator(".notice__title")).to_have_text(str(OUTCOMES["fallback"]))
    expect(notice.locator(".notice__detail")).to_have_text(
        f"Reason: {FALLBACK_REASONS['budget_exhausted']}."
    )
    # and says what the catalog has, as cards of real phones
    expect(answer).to_contain_text("Here is what the catalog has for your words:")
    cards = answer.locator(".card")
    expect(cards.first).to_be_visible()
    for i in range(cards.count()):
        product = CATALOG[cards.nth(i).locator(".card__id").inner_text()]
        assert product["category"] == "MOBILE"
        expect(cards.nth(i).locator(".card__name")).to_have_text(product["name"])
    # and "How I found this" tells it was one catalog search and no model call
    expect(answer.locator(".trace__counts")).to_have_text(" · 1 tool call · 0 model calls")
    expect(page.locator("#announcer")).to_contain_text("could not finish")
    answer.scroll_into_view_if_needed()
    screenshot(page, "14-over-budget")
