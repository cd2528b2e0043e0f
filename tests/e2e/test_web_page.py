"""The chat page in headless chromium, talking to the dev server and the local state machine."""

from __future__ import annotations

import json
import re
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest
from playwright.sync_api import Locator, Page, Request, Route, expect

from compose_response.logic import ComposeInput, compose
from shared.api.vocabulary import (
    CONVERSATION_FAILED,
    ERRORS,
    FALLBACK_REASONS,
    INVALID_REQUEST,
    OUTCOMES,
    ApiError,
)
from shared.products.catalog_data import load_catalog
from tests.integration.converse_fixtures import asks_for_tools, lookup, replies, write_replay

pytestmark = pytest.mark.e2e

DEMO_QUESTION = "What Windows PC do you have which is best for a high school student?"
CATALOG = {p["productId"]: p for p in load_catalog()}
# The session follows the shopper across pages and tabs of the site: it is in localStorage.
SESSION_ID = (
    "JSON.parse(localStorage.getItem('storechat.conversation') || 'null')?.sessionId ?? null"
)
MILLISECONDS = re.compile(r"^\d[\d,]* ms$")
Shot = Callable[[Page, str], Path]


def ask(page: Page, text: str) -> None:
    box = page.get_by_label("Your question")
    box.fill(text)
    box.press("Enter")


def queries_sent(page: Page) -> list[str]:
    """The URL of every POST /query the page sends from now on, as it sends them."""
    sent: list[str] = []

    def record(request: Request) -> None:
        # Questions only: the live trace's GET /query/{turnId}/steps polls are not sends.
        if request.method == "POST" and urlsplit(request.url).path.endswith("/query"):
            sent.append(request.url)

    page.on("request", record)
    return sent


def answers(page: Page) -> Locator:
    return page.locator(".turn--assistant:not(.turn--pending)")


def has_focus_ring(page: Page) -> bool:
    ring = page.evaluate(
        "() => { const s = getComputedStyle(document.activeElement);"
        " return [s.outlineStyle, s.outlineWidth]; }"
    )
    return bool(ring[0] != "none" and ring[1] not in ("0px", ""))


def assert_cards_show_catalog_products(answer: Locator, category: str) -> list[str]:
    cards = answer.locator(".card")
    expect(cards.first).to_be_visible()
    ids = []
    for i in range(cards.count()):
        card = cards.nth(i)
        product_id = card.locator(".card__id").inner_text()
        product = CATALOG[product_id]
        assert product["category"] == category
        expect(card.locator(".card__name")).to_have_text(product["name"])
        expect(card.locator(".card__brand")).to_have_text(product["brand"])
        expect(card.locator(".card__price")).to_have_text(f"${product['price']:,.2f}")
        expect(card.locator(".card__specs")).to_contain_text(str(product["specs"]["os"]))
        ids.append(product_id)
    return ids


def test_a_question_shows_waiting_then_product_cards_of_real_catalog_items(
    page: Page, start_storechat: Callable[..., str], screenshot: Shot
) -> None:
    # Given the offline model, held back until the page has shown that it is waiting
    from converse.handler import lambda_handler as converse

    release = threading.Event()

    def held_converse(event: dict[str, Any], context: Any) -> Any:
        release.wait(timeout=30)
        return converse(event, context)

    page.goto(start_storechat(overrides={"converse": held_converse}))
    expect(page.get_by_text("offline model")).to_be_visible()

    # When the shopper asks the demo question
    ask(page, DEMO_QUESTION)

    # Then the page shows it is busy, and sending again is not possible
    expect(page.get_by_text("Looking through the store…").first).to_be_visible()
    expect(page.get_by_role("button", name="Sending…")).to_be_disabled()
    expect(page.locator("#composer")).to_have_attribute("aria-busy", "true")
    screenshot(page, "01-waiting")
    release.set()

    # And then the answer, with a card for every cited product: real catalog records
    answer = answers(page).first
    expect(answer).to_have_attribute("data-outcome", "answered")
    expect(page.get_by_role("button", name="Send")).to_be_enabled()
    ids = assert_cards_show_catalog_products(answer, "COMPUTERS")
    assert 1 <= len(ids) <= 3
    # And each [productId] in the text is a link to its card
    citations = answer.locator("a.cite")
    assert sorted(set(citations.all_inner_texts())) == sorted(ids)
    citations.first.click()
    expect(answer.locator(f"[id$='-{citations.first.inner_text()}']")).to_be_focused()
    # And "How I found this" opens to show the tool calls
    trace = answer.locator("details.trace")
    expect(trace.locator(".trace__list")).to_be_hidden()
    trace.locator("summary").click()
    expect(trace.locator(".trace__tool").first).to_have_text("lookup_inventory")
    expect(trace.locator(".trace__status").first).to_have_text("success")
    expect(trace.locator(".trace__ms").first).to_have_text(MILLISECONDS)
    # (the catalog searched on the shopper's own words before the model's first call)
    expect(trace.locator(".trace__input").first).to_contain_text(
        '"keywords":"What Windows PC do you have'
    )
    # And the answer was announced to screen readers
    expect(page.locator("#announcer")).to_contain_text("storechat answered.")
    answer.scroll_into_view_if_needed()
    screenshot(page, "02-answer")


def test_a_follow_up_continues_the_same_session_below_the_first_answer(
    page: Page, storechat_url: str, screenshot: Shot
) -> None:
    # Given a first answer about Windows computers
    page.goto(storechat_url)
    ask(page, DEMO_QUESTION)
    expect(answers(page)).to_have_count(1)
    first_session = page.evaluate(SESSION_ID)
    assert first_session

    # When the shopper asks a follow-up that names no category
    with page.expect_request("**/query") as sent:
        ask(page, "Which of those is the lightest?")

    # Then the request carries the session id, and the second answer appears below the first
    assert json.loads(sent.value.post_data or "{}")["sessionId"] == first_session
    expect(answers(page)).to_have_count(2)
    first, second = answers(page).nth(0), answers(page).nth(1)
    expect(second).to_have_attribute("data-outcome", "answered")
    first_box, second_box = first.bounding_box(), second.bounding_box()
    assert first_box and second_box and second_box["y"] > first_box["y"] + first_box["height"]
    # And it still talks about computers: the conversation continued
    assert_cards_show_catalog_products(second, "COMPUTERS")
    assert page.evaluate(SESSION_ID) == first_session
    second.scroll_into_view_if_needed()
    screenshot(page, "03-follow-up")

    # And a reload keeps the conversation on screen
    page.reload()
    expect(answers(page)).to_have_count(2)
    expect(page.locator(".turn--user")).to_have_count(2)


def test_a_fallback_is_rendered_with_its_reason_and_what_was_found(
    page: Page, start_storechat: Callable[..., str], tmp_path: Path, screenshot: Shot
) -> None:
    # Given a model that keeps asking for lookups, past the loop's limit of 5 tool rounds
    model = write_replay(
        tmp_path,
        [
            asks_for_tools(lookup(f"t{i}", category="COMPUTERS", keywords="windows"))
            for i in range(6)
        ],
    )
    page.goto(start_storechat(model=model))

    # When the shopper asks
    ask(page, "Find me the perfect laptop")

    # Then the state machine falls back, and the page says so, with the reason
    answer = answers(page).first
    expect(answer).to_have_attribute("data-outcome", "fallback")
    notice = answer.locator(".notice--warn")
    expect(notice).to_contain_text("Partial answer")
    expect(notice).to_contain_text(f"Reason: {FALLBACK_REASONS['iteration_cap']}.")
    # And the products found so far, as cards of real catalog items
    ids = assert_cards_show_catalog_products(answer, "COMPUTERS")
    assert 1 <= len(ids) <= 3
    expect(answer.locator(".trace__counts")).to_contain_text("5 tool calls")
    expect(page.locator("#announcer")).to_contain_text("could not finish")
    answer.scroll_into_view_if_needed()
    screenshot(page, "04-fallback")


def test_a_message_over_the_limit_cannot_be_sent_and_the_counter_says_why(
    page: Page, storechat_url: str, screenshot: Shot
) -> None:
    # Given the page, and a record of what it sends
    page.goto(storechat_url)
    sent = queries_sent(page)
    box, send = page.get_by_label("Your question"), page.get_by_role("button", name="Send")
    too_long = "Tell me about laptops. " + "x" * 2000

    # When the shopper types more than 2000 characters
    box.fill(too_long)

    # Then the counter says it is too long and Send is off; Enter does nothing either
    expect(page.locator("#composer-count")).to_contain_text("too long")
    expect(send).to_be_disabled()
    box.press("Enter")
    page.wait_for_timeout(300)
    assert sent == [] and page.locator(".turn").count() == 0
    expect(box).to_have_value(too_long)
    screenshot(page, "05-too-long")

    # And once it is short enough again, Send is back and the question goes
    box.fill(too_long[:2000])
    expect(page.locator("#composer-count")).not_to_contain_text("too long")
    expect(send).to_be_enabled()
    send.click()
    expect(answers(page)).to_have_count(1)
    assert len(sent) == 1


def test_an_empty_message_is_ignored_without_a_word(page: Page, storechat_url: str) -> None:
    page.goto(storechat_url)
    sent = queries_sent(page)
    box, send = page.get_by_label("Your question"), page.get_by_role("button", name="Send")
    for text in ("", "   ", "\n\n"):
        box.fill(text)
        send.click()
        box.press("Enter")
    page.wait_for_timeout(300)
    # Nothing was sent, nothing was added to the conversation, and nothing was said
    assert sent == []
    expect(page.locator(".turn")).to_have_count(0)
    expect(page.locator("#announcer")).to_have_text("")
    expect(page.get_by_role("heading", name="What are you shopping for?")).to_be_visible()


def test_a_400_from_the_server_is_shown_in_its_words_and_the_text_comes_back(
    page: Page, storechat_url: str
) -> None:
    # Given a deployment whose limit is shorter than the page's (its own 400 says so)
    rule = "message: at most 500 characters (got 600)"
    answer_queries_with(page, [(400, "application/json", json.dumps(INVALID_REQUEST.body(rule)))])
    page.goto(storechat_url)
    message = "Laptops " + "y" * 592

    # When the shopper sends a message the server refuses
    ask(page, message)

    # Then the page shows the server's message, marks the question unsent, and gives
    # the text back to edit
    error = page.locator(".turn--error")
    expect(error).to_contain_text("Your message wasn't sent")
    expect(error).to_contain_text(rule)
    expect(page.locator(".turn--unsent")).to_contain_text("Not sent")
    expect(page.get_by_label("Your question")).to_have_value(message)
    assert page.evaluate(SESSION_ID) is None


def test_new_conversation_clears_the_page_and_starts_a_new_session(
    page: Page, storechat_url: str, screenshot: Shot
) -> None:
    # Given a conversation with one answer
    page.goto(storechat_url)
    ask(page, DEMO_QUESTION)
    expect(answers(page)).to_have_count(1)
    first_session = page.evaluate(SESSION_ID)

    # When the shopper starts a new conversation
    page.get_by_role("button", name="New conversation").click()

    # Then the conversation is cleared, the session forgotten, and the box ready to type in
    expect(page.locator(".turn")).to_have_count(0)
    expect(page.get_by_role("heading", name="What are you shopping for?")).to_be_visible()
    expect(page.get_by_label("Your question")).to_be_focused()
    assert page.evaluate(SESSION_ID) is None
    screenshot(page, "06-new-conversation")

    # And the next question is sent without the old session and gets a new one
    with page.expect_request("**/query") as sent:
        ask(page, "An Android phone under $500")
    assert "sessionId" not in json.loads(sent.value.post_data or "{}")
    expect(answers(page)).to_have_count(1)
    assert_cards_show_catalog_products(answers(page).first, "MOBILE")
    new_session = page.evaluate(SESSION_ID)
    assert new_session and new_session != first_session


def test_the_page_can_be_used_from_the_keyboard_alone(
    page: Page, storechat_url: str, screenshot: Shot
) -> None:
    # Given the page (built once it has read the store's settings), and a shopper who
    # only uses the keyboard
    page.goto(storechat_url)
    expect(page.get_by_label("Your question")).to_be_visible()
    keyboard = page.keyboard

    # When they Tab in, the skip link comes first, with a visible focus ring
    keyboard.press("Tab")
    expect(page.get_by_role("link", name="Skip to the message box")).to_be_focused()
    assert has_focus_ring(page)
    # And Enter on it takes them to the message box
    keyboard.press("Enter")
    box = page.get_by_label("Your question")
    expect(box).to_be_focused()
    assert has_focus_ring(page)

    # When they type two lines (Shift+Enter) and press Enter
    keyboard.type("Which Windows laptop")
    keyboard.press("Shift+Enter")
    keyboard.type("is best for a high school student?")
    expect(box).to_have_value("Which Windows laptop\nis best for a high school student?")
    keyboard.press("Enter")

    # Then the question is sent as typed, the answer comes, and focus stays in the box
    expect(page.locator(".turn--user .bubble")).to_have_text(
        "Which Windows laptop\nis best for a high school student?"
    )
    answer = answers(page).first
    expect(answer).to_have_attribute("data-outcome", "answered")
    expect(box).to_be_focused()

    # And Shift+Tab reaches "How I found this", which Enter opens
    keyboard.press("Shift+Tab")
    summary = answer.locator("details.trace summary")
    expect(summary).to_be_focused()
    assert has_focus_ring(page)
    keyboard.press("Enter")
    expect(answer.locator(".trace__item").first).to_be_visible()

    # And before it the answer's rating buttons, "Not helpful" then "Helpful" (issue 34)
    keyboard.press("Shift+Tab")
    expect(answer.get_by_role("button", name="Not helpful")).to_be_focused()
    assert has_focus_ring(page)
    keyboard.press("Shift+Tab")
    expect(answer.get_by_role("button", name="Helpful", exact=True)).to_be_focused()

    # And a citation link, on Enter, moves focus to its product card
    keyboard.press("Shift+Tab")
    citation = answer.locator("a.cite").last
    expect(citation).to_be_focused()
    assert has_focus_ring(page)
    keyboard.press("Enter")
    card = answer.locator(f"[id$='-{citation.inner_text()}']")
    expect(card).to_be_focused()
    assert has_focus_ring(page)
    screenshot(page, "07-keyboard-focus")


def test_the_page_works_on_a_375px_wide_phone(
    phone_page: Page, storechat_url: str, screenshot: Shot
) -> None:
    # Given a phone-width screen
    page = phone_page
    page.goto(storechat_url)
    expect(page.get_by_role("button", name="New conversation")).to_be_visible()
    screenshot(page, "08-phone-welcome")

    # When the shopper asks
    ask(page, DEMO_QUESTION)

    # Then the cards fit the screen: nothing scrolls sideways
    answer = answers(page).first
    assert_cards_show_catalog_products(answer, "COMPUTERS")
    assert page.evaluate("() => document.documentElement.scrollWidth") <= 375
    for box in (answer.bounding_box(), answer.locator(".card").first.bounding_box()):
        assert box and box["x"] >= 0 and box["x"] + box["width"] <= 375
    answer.locator(".card").first.scroll_into_view_if_needed()
    screenshot(page, "09-phone-answer")


def test_a_refusal_is_rendered_as_such(
    page: Page, start_storechat: Callable[..., str], tmp_path: Path, screenshot: Shot
) -> None:
    # Given a model whose guardrail intervenes
    model = write_replay(tmp_path, [replies("", stop_reason="guardrail_intervened")])
    page.goto(start_storechat(model=model))

    # When the shopper asks for something off-limits
    ask(page, "Write my history essay for me")

    # Then the page shows a refusal, with no products
    answer = answers(page).first
    expect(answer).to_have_attribute("data-outcome", "refused")
    expect(answer.locator(".notice--muted")).to_contain_text("Outside what I can help with")
    expect(answer).to_contain_text("I can't help with that request")
    expect(answer.locator(".card")).to_have_count(0)
    screenshot(page, "10-refused")


def test_a_failed_execution_and_a_network_error_are_shown_with_a_way_to_retry(
    page: Page, start_storechat: Callable[..., str], tmp_path: Path, screenshot: Shot
) -> None:
    # Given a replay model with no responses: the execution fails and the server answers 502
    page.goto(start_storechat(model=write_replay(tmp_path, [])))

    # When the shopper asks
    with page.expect_response("**/query") as response:
        ask(page, "A laptop for travel")

    # Then the page says something went wrong on the server's side, and offers to try again
    assert response.value.status == 502
    error = page.locator(".turn--error")
    expect(error).to_contain_text(CONVERSATION_FAILED.title)
    expect(error).to_contain_text(CONVERSATION_FAILED.message)
    expect(error.get_by_role("button", name="Try again")).to_be_visible()
    screenshot(page, "11-server-error")

    # When the network is down and they try again
    page.route("**/query", lambda route: route.abort("internetdisconnected"))
    error.get_by_role("button", name="Try again").click()

    # Then the page says it could not reach the assistant
    expect(page.locator(".turn--error")).to_have_count(1)
    expect(page.locator(".turn--error")).to_contain_text("I couldn't reach the store assistant")
    expect(page.locator(".turn--user")).to_have_count(1)
    screenshot(page, "12-network-error")


def test_markup_in_the_models_text_never_becomes_the_pages(
    page: Page, start_storechat: Callable[..., str], tmp_path: Path
) -> None:
    # Given a model whose answer contains HTML next to a real citation
    markup = '<img src=x onerror="document.title=1"><script>document.title=2</script>'
    model = write_replay(
        tmp_path,
        [
            asks_for_tools(lookup("t1", productIds=["CMP-023"])),
            replies(f"Try the HP 14 [CMP-023]. {markup}"),
        ],
    )
    page.goto(start_storechat(model=model))
    expect(page.get_by_label("Your question")).to_be_visible()
    title = page.title()  # the store's name, once the page has read it
    assert title not in ("1", "2")

    # When the answer arrives
    ask(page, "A cheap Windows laptop")
    answer = answers(page).first
    expect(answer.locator("a.cite")).to_have_text("CMP-023")

    # Then the sentence of markup went with the answer's check (HTML is no claim of the
    # store's), the cited sentence stayed, no element was made from it, and nothing ran
    expect(answer.locator(".answer__text")).to_have_text("Try the HP 14 CMP-023.")
    expect(answer.locator(".answer__text img, .answer__text script")).to_have_count(0)
    assert page.title() == title


# -- facts the catalog contradicts are corrected, and the page marks them ---------------------


def test_a_corrected_fact_is_marked_in_the_answer_with_the_catalogs_value(
    page: Page, start_storechat: Callable[..., str], tmp_path: Path, screenshot: Shot
) -> None:
    # Given a model that gets the HP 14's weight and price wrong (the catalog: 1.4 kg, $349)
    model = write_replay(
        tmp_path,
        [
            asks_for_tools(lookup("t1", productIds=["CMP-023"])),
            replies("The **HP 14** [CMP-023] weighs 1.1 kg and costs $299. It runs Windows 11."),
        ],
    )
    # a model scripted to ask for the catalog itself: the search first is off
    page.goto(start_storechat(model=model, search_first=False))

    # When the shopper asks
    ask(page, "A cheap Windows laptop")
    answer = answers(page).first
    expect(answer).to_have_attribute("data-outcome", "answered")

    # Then the answer states the catalog's values, each marked, with the catalog's value
    marks = answer.locator("mark.corrected")
    expect(marks).to_have_count(2)
    expect(marks.nth(0)).to_have_text("1.4 kg")
    expect(marks.nth(0)).to_have_attribute("title", "catalog: 1.4 kg")
    expect(marks.nth(1)).to_have_text("$349")
    expect(marks.nth(1)).to_have_attribute("title", "catalog: $349.00")
    text = answer.locator(".answer__text")
    expect(text).to_contain_text("weighs 1.4 kg")
    expect(text).to_contain_text("and costs $349")
    expect(text.locator("strong")).to_have_text("HP 14")
    # And a screen reader hears what was corrected
    expect(text.locator(".visually-hidden").first).to_have_text(
        " (corrected from the catalog; the assistant had said 1.1 kg)"
    )
    expect(answer.locator(".answer__note")).to_contain_text("corrected to the catalog's values")
    # And the trace lists the check apart from the one tool call
    expect(answer.locator(".trace__counts")).to_contain_text("1 tool call")
    trace = answer.locator("details.trace")
    trace.locator("summary").click()
    expect(trace.locator(".trace__item--check .trace__summary")).to_contain_text("said '1.1 kg'")
    answer.scroll_into_view_if_needed()
    screenshot(page, "14-corrected-fact")

    # And a reload marks the kept answer the same way
    page.reload()
    expect(answers(page).first.locator("mark.corrected")).to_have_count(2)


def test_marks_land_on_the_corrected_text_in_lists_after_wide_characters(
    page: Page, storechat_url: str
) -> None:
    # Given a body built by compose_response, whose offsets count code points: an emoji
    # (two UTF-16 units in the page) and a bulleted list come before the corrected facts
    built = compose(
        ComposeInput(
            sessionId=ANSWERED_SESSION,
            outcome="answered",
            answer="\U0001f4bb Picks:\n- **HP 14** [CMP-023]: 1.1 kg, $299\n- Dell [CMP-008]",
            products=[CATALOG["CMP-023"], CATALOG["CMP-008"]],
        )
    ).model_dump()
    answer_queries_with(
        page, [(200, "application/json", json.dumps({**built, "historySaved": True}))]
    )
    page.goto(storechat_url)

    # When the page shows it
    ask(page, "Light laptops")

    # Then exactly the corrected values are marked, inside the list item
    marks = answers(page).first.locator("li mark.corrected")
    expect(marks).to_have_count(2)
    assert marks.all_inner_texts() == ["1.4 kg", "$349"]


# -- the words come from the contract (shared/api/vocabulary.py, served as names.json) ------------

ANSWERED_SESSION = "0f8fad5b-d9cb-469f-a165-70867728950e"


def answer_body(outcome: str, reason: str | None = None) -> dict[str, Any]:
    return {
        "sessionId": ANSWERED_SESSION,
        "answer": "Here is what I can tell you.",
        "outcome": outcome,
        "fallbackReason": reason,
        "products": [],
        "toolRounds": 0,
        "modelCalls": 1,
        "usage": {"inputTokens": 10, "outputTokens": 5, "cacheReadInputTokens": 0},
        "trace": [],
        "unverifiedCitations": [],
        "historySaved": True,
    }


def answer_queries_with(page: Page, replies: list[tuple[int, str, str]]) -> None:
    """Answer the page's POST /query with each (status, content type, body) in turn."""
    pending = list(replies)

    def fulfill(route: Route) -> None:
        status, content_type, body = pending.pop(0)
        route.fulfill(status=status, content_type=content_type, body=body)

    page.route("**/query", fulfill)


def test_every_outcome_and_fallback_reason_is_shown_in_the_contracts_words(
    page: Page, storechat_url: str, screenshot: Shot
) -> None:
    # Given answers of every outcome, and a fallback for every reason the contract declares
    cases = [(outcome, None) for outcome in OUTCOMES if outcome != "fallback"]
    cases += [("fallback", reason) for reason in FALLBACK_REASONS]
    answer_queries_with(
        page,
        [(200, "application/json", json.dumps(answer_body(*case))) for case in cases],
    )
    page.goto(storechat_url)

    for count, (outcome, reason) in enumerate(cases, start=1):
        # When the shopper asks and gets that answer
        ask(page, f"Question {count}")
        expect(answers(page)).to_have_count(count)
        answer = answers(page).nth(count - 1)
        expect(answer).to_have_attribute("data-outcome", outcome)

        # Then its notice has the contract's words (and an answered one has none)
        notice = OUTCOMES[outcome]
        if notice is None:
            expect(answer.locator(".notice")).to_have_count(0)
        else:
            expect(answer.locator(".notice__title")).to_have_text(notice)
        if reason is not None:
            expect(answer.locator(".notice__detail")).to_have_text(
                f"Reason: {FALLBACK_REASONS[reason]}."
            )
    screenshot(page, "13-every-fallback-reason")

    # And a reload shows the kept turns in the same words
    page.reload()
    expect(answers(page)).to_have_count(len(cases))
    compose_failed = answers(page).nth(cases.index(("fallback", "compose_failed")))
    expect(compose_failed.locator(".notice__detail")).to_have_text(
        f"Reason: {FALLBACK_REASONS['compose_failed']}."
    )


STATUS_OF_CATCH_ALLS = {"request_rejected": 413, "gateway_error": 500}


def _status(error: ApiError) -> int:
    return error.status or STATUS_OF_CATCH_ALLS[error.code]


def test_every_error_code_is_shown_with_its_title_and_a_retry_only_when_it_can_help(
    page: Page, storechat_url: str
) -> None:
    # Given an API that answers with every error code of the contract, in turn,
    # then with a 502 whose body is a proxy's HTML page
    errors = list(ERRORS.values())
    answer_queries_with(
        page,
        [(_status(e), "application/json", json.dumps(e.body())) for e in errors]
        + [(502, "text/html", "<html><body>Bad Gateway</body></html>")],
    )
    page.goto(storechat_url)

    for count, error in enumerate(errors, start=1):
        # When the shopper asks
        ask(page, f"Question {count}")

        # Then the error shows the code's title and message, with "Try again" when it helps
        shown = page.locator(".turn--error").nth(count - 1)
        expect(shown).to_have_attribute("data-error", error.code)
        expect(shown.locator(".notice__title")).to_have_text(error.title)
        expect(shown.locator(".notice__detail")).to_have_text(error.message)
        expect(shown.get_by_role("button", name="Try again")).to_have_count(int(error.retry))

    # And a 502 without the error shape is taken for the first code with that status
    ask(page, "One more")
    shown = page.locator(".turn--error").last
    expect(shown.locator(".notice__title")).to_have_text(CONVERSATION_FAILED.title)
    expect(shown.locator(".notice__detail")).to_have_text(CONVERSATION_FAILED.message)
