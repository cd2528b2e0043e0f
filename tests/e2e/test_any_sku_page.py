"""The page with a store's own SKUs: every citation links to its card, whatever the id holds."""

from __future__ import annotations

import json

import pytest
from playwright.sync_api import Page, Route, expect

from compose_response.logic import ComposeInput, compose
from shared.products.citing import cite_as, handle

pytestmark = pytest.mark.e2e

SESSION = "0f8fad5b-d9cb-469f-a165-70867728950e"
IDS = ["100201", "FW 13 I5 16/512", "Sony WH-1000 [black]", "100201~c25786e4"]


def product(pid: str, price: float) -> dict[str, object]:
    return {"productId": pid, "name": f"Product {pid}", "category": "BOOKS", "price": price}


def test_citations_of_any_sku_link_to_their_cards(page: Page, storechat_url: str) -> None:
    # Given an answer built by compose_response about products whose ids hold spaces,
    # a slash, brackets and a tilde, which the model cited as the catalog tool gave them
    cited = " ".join(f"Try [{cite_as(pid)}]." for pid in IDS)
    body = compose(
        ComposeInput(
            sessionId=SESSION,
            outcome="answered",
            answer=f"{cited} Or (100201) again.",
            products=[product(pid, 10.0 + n) for n, pid in enumerate(IDS)],
        )
    ).model_dump()

    def fulfill(route: Route) -> None:
        route.fulfill(
            status=200,
            content_type="application/json",
            body=json.dumps({**body, "historySaved": True}),
        )

    page.route("**/query", fulfill)
    page.goto(storechat_url)

    # When the shopper asks
    box = page.get_by_label("Your question")
    box.fill("Anything?")
    box.press("Enter")

    # Then each citation shows the product's own id and links to its card
    answer = page.locator(".turn--assistant:not(.turn--pending)").first
    links = answer.locator("a.cite")
    expect(links).to_have_count(len(IDS) + 1)
    assert links.all_inner_texts() == [*IDS, IDS[0]]
    expect(answer.locator(".card__id")).to_have_text(IDS)
    for n, pid in enumerate(IDS):
        link = links.nth(n)
        card = page.locator(f"[id='{link.get_attribute('data-target')}']")
        expect(card.locator(".card__id")).to_have_text(pid)
        # And a card is named by its heading (an element id holds no spaces)
        expect(card).to_have_accessible_name(f"Product {pid}")
        link.focus()
        link.press("Enter")
        expect(card).to_be_focused()
    # And no handle reaches the shopper
    for pid in IDS[1:3]:
        assert cite_as(pid) == handle(pid)
        expect(answer).not_to_contain_text(handle(pid))
