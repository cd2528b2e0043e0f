"""The chat on the store's own pages: one script tag on a page of another origin, in
headless chromium (issue 30's proof).

The store is a page server on its own port of 127.0.0.1, with product pages and a
Shopify-like ``/cart/add``; the chat host is the dev server on another port, which
serves ``widget.js`` and answers only the store's origin. A second page server, on an
origin the store did not allow, shows the widget saying why it cannot answer there.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import boto3
import pytest
from playwright.sync_api import Browser, Page, expect

from shared.products.catalog_data import load_catalog
from storechat.local import LocalStorechat
from storechat.local.runner import REGION
from storechat.server import make_server, running
from tests.e2e.conftest import ANSWER_TIMEOUT_MS, CHROMIUM_ARGS  # noqa: F401
from tests.support.fake_http import FakeHttpServer
from tests.support.store import store_file

pytestmark = pytest.mark.e2e

# A theme that would break any widget that shared the page's styles.
HOSTILE_THEME = """
* { font-size: 4px !important; line-height: 1 !important; }
button { display: none !important; }
div, section, header, main, form { background: #ff00ff !important; padding: 0 !important; }
a { color: #00ff00 !important; text-decoration: line-through !important; }
html { font-size: 4px !important; }
"""
LAPTOP_QUESTION = "A Windows laptop under $900"
Shot = Callable[[Page, str], Path]


def store_page(title: str, widget: str | None, body: str = "", theme: bool = True) -> str:
    style = f"<style>{HOSTILE_THEME}</style>" if theme else ""
    return f"""<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{title}</title>
{style}</head>
<body><header><h1 id="shop-title">Haus &amp; Heim · {title}</h1></header>
<main><p>Our shop's own page.</p><button id="shop-button">Shop button</button>{body}</main>
{f'<script src="{widget}" async></script>' if widget else ""}
</body></html>"""


@dataclass
class Shop:
    server: FakeHttpServer
    chat_host: str
    local: LocalStorechat
    other: FakeHttpServer

    @property
    def url(self) -> str:
        return self.server.base_url

    def questions_run(self) -> int:
        sfn = boto3.client("stepfunctions", region_name=REGION)
        arn = self.local.state_machine_arn
        return len(sfn.list_executions(stateMachineArn=arn)["executions"])


def _catalog(shop: str) -> list[dict[str, Any]]:
    """The sample catalog as a Shopify store holds it: each product's page and variant."""
    catalog = load_catalog()
    for n, product in enumerate(catalog):
        product["url"] = f"{shop}/products/{product['productId'].lower()}"
        product["platformProductId"] = str(8_000 + n)
        product["platformVariantId"] = str(40_000 + n)
    return catalog


@pytest.fixture
def shop(tmp_path: Path) -> Iterator[Shop]:
    with FakeHttpServer() as server, FakeHttpServer() as other:
        store = store_file(
            tmp_path,
            "# Returns\nSend anything back within 14 days of delivery.\n\n"
            "# Order status\nSee your orders at https://hausundheim.example/account/orders.\n",
            name="Haus & Heim",
            url=server.base_url,
            platform="shopify",
            allowedOrigins=[server.base_url],
            contact="service@hausundheim.example",
            colors={"accent": "#b3261e"},
            assistant={
                "name": "Heimhilfe",
                "greeting": "Frag mich! Ask me anything.",
                "suggestions": ["What is your return policy?"],
            },
        )
        catalog = _catalog(server.base_url)
        with (
            LocalStorechat(store=store, catalog=catalog) as local,
            running(make_server(local, "127.0.0.1", 0)) as chat,
        ):
            widget = f"{chat.url}widget.js"
            html = {"Content-Type": "text/html; charset=utf-8"}
            server.route("/", body=store_page("Home", widget), headers=html)
            server.route("/without-chat", body=store_page("Home", None), headers=html)
            server.route("/second", body=store_page("Second page", widget), headers=html)
            server.route("/cart/add", body=store_page("Your cart", widget), headers=html)
            for product in catalog:
                server.route(
                    f"/products/{product['productId'].lower()}",
                    body=store_page(product["name"], widget),
                    headers=html,
                )
            other.route("/", body=store_page("Elsewhere", widget), headers=html)
            # A store whose pages allow only what docs/widget.md says the widget needs
            host = chat.url.rstrip("/")
            strict = (
                f"default-src 'none'; script-src 'self' {host}; style-src 'self' {host}; "
                f"connect-src {host}; img-src 'self' {host} data:"
            )
            server.route(
                "/strict",
                body=store_page("Strict", widget, theme=False),
                headers={**html, "Content-Security-Policy": strict},
            )
            yield Shop(server, chat.url, local, other)


@pytest.fixture
def phone(browser: Browser) -> Iterator[Page]:
    from tests.e2e.conftest import _new_page

    yield from _new_page(browser, {"width": 390, "height": 844})


def launcher(page: Page) -> Any:
    return page.get_by_role("button", name="Open the chat with Haus & Heim's shopping assistant")


def panel(page: Page) -> Any:
    return page.get_by_role("dialog", name="Chat with Haus & Heim")


def answers(page: Page) -> Any:
    return page.locator("storechat-widget .turn--assistant:not(.turn--pending)")


def ask(page: Page, text: str) -> None:
    box = page.get_by_label("Your question")
    box.fill(text)
    box.press("Enter")


def px(page: Page, selector: str, prop: str) -> str:
    """A computed style inside the widget's shadow root (Playwright's CSS reaches into it)."""
    return str(page.locator(selector).first.evaluate(f"e => getComputedStyle(e)['{prop}']"))


def outside_styles(page: Page) -> dict[str, str]:
    """How the store's own elements look: the widget must change none of it."""
    return dict(
        page.evaluate(
            """() => Object.fromEntries(['#shop-title', '#shop-button', 'body', 'main']
                .flatMap(s => { const c = getComputedStyle(document.querySelector(s));
                  return ['fontSize', 'display', 'backgroundColor', 'padding', 'margin',
                          'fontFamily', 'color'].map(p => [s + ' ' + p, c[p]]); }))"""
        )
    )


def test_one_tag_puts_the_chat_on_the_stores_page_with_cards_that_link_and_sell(
    page: Page, shop: Shop, screenshot: Shot
) -> None:
    # Given how the store's page looks without the chat
    page.goto(f"{shop.url}/without-chat")
    untouched = outside_styles(page)

    # And the store's home page, a theme that breaks every page element, and the one tag
    page.goto(shop.url)
    page.wait_for_function("() => !!document.querySelector('storechat-widget')")
    before_globals = set(page.evaluate("() => Object.keys(window)"))

    # Then a launcher sits in the corner, in the store's colour, sized as its own CSS says
    expect(launcher(page)).to_be_visible()
    assert px(page, ".launcher", "backgroundColor") == "rgb(179, 38, 30)"
    assert px(page, ".launcher__text", "fontSize") == "16px"
    box = launcher(page).bounding_box()
    assert box and box["x"] > 1000 and box["y"] > 800
    screenshot(page, "widget-01-launcher")

    # When the shopper opens it
    launcher(page).click()

    # Then the panel shows the store's name and greeting, and the box has the focus
    expect(panel(page)).to_be_visible()
    expect(panel(page).get_by_role("heading", name="Haus & Heim")).to_be_visible()
    expect(panel(page).get_by_text("Frag mich! Ask me anything.")).to_be_visible()
    expect(page.get_by_label("Your question")).to_be_focused()
    # And the hostile theme reaches nothing inside: its own sizes, its buttons shown
    assert px(page, ".welcome__text", "fontSize") == "16px"
    expect(page.get_by_role("button", name="New conversation")).to_be_visible()
    expect(page.get_by_role("button", name="Send")).to_be_visible()

    # When the shopper asks about laptops
    ask(page, LAPTOP_QUESTION)

    # Then the answer's cards link to the products' pages on the store
    answer = answers(page).first
    expect(answer).to_have_attribute("data-outcome", "answered")
    cards = answer.locator(".card")
    expect(cards.first).to_be_visible()
    names = answer.locator(".card__link")
    assert names.count() == cards.count() >= 1
    for i in range(names.count()):
        href = names.nth(i).get_attribute("href") or ""
        assert href.startswith(f"{shop.url}/products/"), href
        assert names.nth(i).get_attribute("target") is None  # the same tab
    assert px(page, ".card__link", "color") != "rgb(0, 255, 0)"
    # And an in-stock product has "Add to cart", for its variant, on the store
    cart = answer.locator(".card__cart").first
    expect(cart).to_be_visible()
    assert (cart.get_attribute("href") or "").startswith(f"{shop.url}/cart/add?id=400")
    # And the store's page is as it was: nothing outside changed, nothing on window
    assert outside_styles(page) == untouched
    added = set(page.evaluate("() => Object.keys(window)")) - before_globals
    assert added == set(), added
    screenshot(page, "widget-02-answer")

    # When the shopper adds it to the cart
    cart.click()

    # Then the store's cart got the variant, and the conversation is there on the cart page,
    # the panel open again
    page.wait_for_url(f"{shop.url}/cart/add?**")
    added_to_cart = [r for r in shop.server.requests if r.path == "/cart/add"]
    assert added_to_cart and added_to_cart[-1].query["quantity"] == ["1"]
    expect(panel(page)).to_be_visible()
    expect(answers(page)).to_have_count(1)
    expect(page.locator("storechat-widget .turn--user .bubble")).to_have_text(LAPTOP_QUESTION)

    # And on another page of the store, too; the next question continues the session
    page.goto(f"{shop.url}/second")
    expect(answers(page)).to_have_count(1)
    with page.expect_request("**/query") as sent:
        ask(page, "Which of those is the lightest?")
    assert '"sessionId"' in (sent.value.post_data or "")
    expect(answers(page)).to_have_count(2)
    # And the panel keeps its header in view as the conversation scrolls
    header = panel(page).get_by_role("heading", name="Haus & Heim").bounding_box()
    frame = panel(page).bounding_box()
    assert header and frame and header["y"] >= frame["y"]
    screenshot(page, "widget-03-second-page")


def test_the_widget_on_a_phone_fills_the_screen_and_is_reached_by_keyboard(
    phone: Page, shop: Shop, screenshot: Shot
) -> None:
    page = phone
    page.goto(shop.url)
    expect(launcher(page)).to_be_visible()

    # When a keyboard user tabs to the launcher and opens it
    for _ in range(8):
        page.keyboard.press("Tab")
        if launcher(page).evaluate("e => e.matches(':focus')"):
            break
    expect(launcher(page)).to_be_focused()
    page.keyboard.press("Enter")

    # Then the panel is the whole screen, the launcher under it, the box focused
    expect(panel(page)).to_be_visible()
    box = panel(page).bounding_box()
    assert box and (box["x"], box["y"], box["width"], box["height"]) == (0, 0, 390, 844)
    expect(page.get_by_label("Your question")).to_be_focused()
    screenshot(page, "widget-04-phone-open")

    # When the shopper asks about the store's returns (an example question)
    page.get_by_role("button", name="What is your return policy?").click()

    # Then the answer is the store's own words, and nothing scrolls sideways
    answer = answers(page).first
    expect(answer).to_contain_text("within 14 days of delivery")
    width = page.evaluate(
        "() => document.querySelector('storechat-widget').shadowRoot"
        ".querySelector('.chat-main').scrollWidth"
    )
    assert width <= 390
    screenshot(page, "widget-05-phone-answer")

    # And Escape closes it back to the launcher, which has the focus again
    page.keyboard.press("Escape")
    expect(panel(page)).to_be_hidden()
    expect(launcher(page)).to_be_focused()

    # And after a reload the conversation is kept; open again, it is there
    page.reload()
    launcher(page).click()
    expect(answers(page)).to_have_count(1)
    ask(page, "where is my order?")
    expect(answers(page).nth(1)).to_contain_text("https://hausundheim.example/account/orders")
    page.get_by_role("button", name="Close the chat").click()
    expect(panel(page)).to_be_hidden()


def test_a_page_the_store_did_not_allow_gets_no_answer_and_is_told_why(
    page: Page, shop: Shop, screenshot: Shot
) -> None:
    # Given the tag on a page of an origin the store's settings do not list
    page.goto(shop.other.base_url)
    launcher(page).click()

    # Then the widget says why it cannot answer, and takes no question
    expect(panel(page).get_by_text("This chat isn't available on this site")).to_be_visible()
    expect(panel(page)).to_contain_text(shop.other.base_url)
    expect(page.get_by_label("Your question")).to_be_disabled()
    screenshot(page, "widget-06-not-allowed")

    # And the API answers that page nothing, whatever it sends
    before = shop.questions_run()
    outcome = page.evaluate(
        """async (api) => {
            const sent = [];
            for (const [type, mode] of [["application/json", "cors"], ["text/plain", "no-cors"]]) {
              try {
                const r = await fetch(api, {method: "POST", mode, headers: {"Content-Type": type},
                                            body: JSON.stringify({message: "laptops"})});
                sent.push(r.type === "opaque" ? "opaque" : await r.text());
              } catch (error) { sent.push("refused: " + error.name); }
            }
            return sent;
        }""",
        f"{shop.chat_host}query",
    )
    assert outcome == ["refused: TypeError", "opaque"], outcome
    assert shop.questions_run() == before


def test_a_store_page_with_a_strict_csp_needs_only_the_documented_directives(
    page: Page, shop: Shop
) -> None:
    # Given a store page whose CSP allows the chat host and nothing else of ours
    violations: list[str] = []
    page.on(
        "console", lambda m: violations.append(m.text) if "Content Security" in m.text else None
    )
    page.goto(f"{shop.url}/strict")
    page.evaluate(
        """() => document.addEventListener('securitypolicyviolation', (e) =>
            console.error('Content Security: ' + e.violatedDirective + ' ' + e.blockedURI))"""
    )

    # When the shopper opens the chat and asks
    launcher(page).click()
    ask(page, LAPTOP_QUESTION)

    # Then it loads, styles itself, answers, and the page's policy refused nothing
    expect(answers(page).first).to_have_attribute("data-outcome", "answered")
    assert px(page, ".launcher", "backgroundColor") == "rgb(179, 38, 30)"
    assert violations == []


def test_the_conversation_follows_the_shopper_to_another_tab_until_it_is_left_idle(
    page: Page, shop: Shop
) -> None:
    # Given an answer on the store's home page
    page.goto(shop.url)
    launcher(page).click()
    ask(page, LAPTOP_QUESTION)
    expect(answers(page)).to_have_count(1)

    # When the shopper opens another page of the store in a new tab
    tab = page.context.new_page()
    tab.goto(f"{shop.url}/second")
    launcher(tab).click()

    # Then the same conversation is there (the panel's open state is the first tab's own)
    expect(answers(tab)).to_have_count(1)
    # And a question asked there shows in the first tab too, without a reload
    ask(tab, "Which of those is the lightest?")
    expect(answers(tab)).to_have_count(2)
    expect(answers(page)).to_have_count(2)

    # When half an hour passes without a question
    tab.evaluate(
        """() => { const kept = JSON.parse(localStorage.getItem('storechat.conversation'));
                   kept.at -= 31 * 60 * 1000;
                   localStorage.setItem('storechat.conversation', JSON.stringify(kept)); }"""
    )
    tab.reload()

    # Then the next visit (the panel open again, as it was) starts a new conversation
    expect(panel(tab)).to_be_visible()
    expect(tab.get_by_role("heading", name="What are you shopping for?")).to_be_visible()
    expect(answers(tab)).to_have_count(0)
    with tab.expect_request("**/query") as sent:
        ask(tab, LAPTOP_QUESTION)
    assert '"sessionId"' not in (sent.value.post_data or "")
    tab.close()
