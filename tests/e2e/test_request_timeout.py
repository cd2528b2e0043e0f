"""How long the page waits for an answer: what config.json says (``shared.config.time_budget``),
a little past the API's own limit, so that the API's 504 is what a shopper normally sees."""

from __future__ import annotations

import json
import urllib.request

import pytest
from playwright.sync_api import Page, Route, expect

from shared.api.vocabulary import TIMEOUT
from shared.config.time_budget import API_LIMIT_S, CLIENT_WAIT_MS

pytestmark = pytest.mark.e2e


def test_the_dev_server_tells_the_page_to_wait_past_the_apis_limit(storechat_url: str) -> None:
    # Given the dev server, When the page reads its config.json
    with urllib.request.urlopen(f"{storechat_url}config.json", timeout=30) as response:
        config = json.load(response)

    # Then it is told to wait for the time budget's client wait, longer than the API runs
    assert config["requestTimeoutMs"] == CLIENT_WAIT_MS
    assert config["requestTimeoutMs"] > API_LIMIT_S * 1000


def test_an_answer_that_never_comes_ends_in_the_apis_timeout_words(
    page: Page, storechat_url: str
) -> None:
    # Given a config.json that says to wait half a second, and an API that never answers
    page.route(
        "**/config.json",
        lambda route: route.fulfill(
            content_type="application/json",
            body=json.dumps({"apiUrl": "", "requestTimeoutMs": 500}),
        ),
    )
    held: list[Route] = []

    def hold(route: Route) -> None:
        held.append(route)  # never fulfilled: the request stays open

    page.route("**/query", hold)
    page.goto(storechat_url)

    # When the shopper asks
    box = page.get_by_label("Your question")
    box.fill("A laptop for travel")
    box.press("Enter")

    # Then the page stops waiting and says what the API says of its own timeout, with a retry
    shown = page.locator(".turn--error")
    expect(shown).to_have_attribute("data-error", TIMEOUT.code, timeout=10_000)
    expect(shown.locator(".notice__title")).to_have_text(TIMEOUT.title)
    expect(shown.locator(".notice__detail")).to_have_text(TIMEOUT.message)
    expect(shown.get_by_role("button", name="Try again")).to_be_visible()
    assert len(held) == 1
