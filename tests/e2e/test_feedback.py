"""Rating an answer and clicking its products in chromium, then ``storechat insights``:
what the shopper said is in the store team's report, with the question it was about."""

from __future__ import annotations

import io
import json
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import boto3
import pytest
from playwright.sync_api import Page, expect

from storechat import cli
from storechat.insights.command import run_insights
from storechat.local.runner import REGION, SESSIONS_TABLE
from storechat.settings import LocalSettings
from tests.e2e import test_widget
from tests.e2e.test_web_page import Shot, answers, ask
from tests.e2e.test_widget import LAPTOP_QUESTION, Shop, launcher
from tests.e2e.test_widget import answers as widget_answers
from tests.e2e.test_widget import ask as ask_widget

pytestmark = pytest.mark.e2e

shop = test_widget.shop
"""The store's pages with the widget (test_widget's fixture)."""

QUESTION = "cheap Samsung phone"
COMMENT = "I wanted one with a bigger battery"


def insights(home: Path, *argv: str) -> str:
    args = cli.build_parser(LocalSettings(home=home)).parse_args(["insights", *argv])
    out = io.StringIO()
    assert run_insights(args, out=out) == 0
    return out.getvalue()


def test_a_comment_on_an_unhelpful_answer_reaches_the_insights_report(
    page: Page, start_storechat: Callable[..., str], tmp_path: Path, screenshot: Shot
) -> None:
    page.goto(start_storechat(data_dir=tmp_path))
    # Given an answer
    ask(page, QUESTION)
    answer = answers(page).first
    expect(answer.locator(".card").first).to_be_visible()
    # When the shopper finds it not helpful and says why
    answer.get_by_role("button", name="Not helpful").click()
    expect(answer.get_by_role("button", name="Not helpful")).to_have_attribute(
        "aria-pressed", "true"
    )
    answer.get_by_label("What was missing? (optional)").fill(COMMENT)
    answer.get_by_role("button", name="Send").click()
    # Then the page thanks them
    expect(answer.get_by_role("status")).to_have_text("Thanks for your feedback.")
    screenshot(page, "feedback-not-helpful")
    # And the store team's report shows the comment with its question
    text = insights(tmp_path)
    assert "Rated helpful: 0, not helpful: 1" in text
    lines = text.splitlines()
    asked = next(
        i for i, line in enumerate(lines) if line.endswith(f"  {QUESTION}") and ":" in line[:20]
    )
    assert lines[asked + 1] == f"      comment: {COMMENT}"


def test_in_the_widget_a_rating_and_an_add_to_cart_are_kept_with_the_turn(
    page: Page, shop: Shop
) -> None:
    # Given an answer in the widget on the store's page
    page.goto(shop.url)
    launcher(page).click()
    ask_widget(page, LAPTOP_QUESTION)
    answer = widget_answers(page).first
    card = answer.locator(".card").first
    expect(card).to_be_visible()
    product_id = card.get_attribute("data-product-id")
    # When the shopper rates it helpful
    answer.get_by_role("button", name="Helpful", exact=True).click()
    expect(answer.get_by_role("status")).to_have_text("Thanks for your feedback.")
    # And adds the first product to the cart
    with page.expect_request(lambda r: r.url.endswith("/feedback")) as sent:
        card.locator("a.card__cart").click()
    page.wait_for_url(f"{shop.url}/cart/add?**")
    # Then the turn holds the rating and the product added, and nothing else of the shopper
    assert json.loads(sent.value.post_data or "{}")["event"] == "add_to_cart"
    wait_for(lambda: "addedToCart" in only_turn())
    turn = only_turn()
    assert json.loads(turn["feedback"]["S"])["rating"] == "up"
    assert turn["addedToCart"]["SS"] == [product_id]


def only_turn() -> dict[str, Any]:
    dynamodb = boto3.client("dynamodb", region_name=REGION)
    (item,) = dynamodb.scan(TableName=SESSIONS_TABLE)["Items"]
    return dict(item)


def wait_for(condition: Callable[[], bool], timeout_s: float = 10) -> None:
    # The report goes with keepalive while the browser leaves the page: it may land after.
    deadline = time.monotonic() + timeout_s
    while not condition():
        assert time.monotonic() < deadline, "not recorded in time"
        time.sleep(0.1)
