"""The live trace in chromium: each step on the page while the answer is still on its way.

The model is a Bedrock-shaped stand-in on loopback, reached by the real Bedrock
provider through ``AWS_ENDPOINT_URL_BEDROCK_RUNTIME``: it asks for the catalog at once
and then takes seconds to write its answer, as Claude does; the catalog tool takes a
second. The page records, in the browser, when each step appeared and what the steps
route said it happened at, so the times are the shopper's own.
"""

from __future__ import annotations

import json
import threading
import time
import urllib.request
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page, Route, expect

from tests.integration.converse_fixtures import asks_for_tools, lookup, replies
from tests.support.fake_bedrock import FakeBedrock

pytestmark = pytest.mark.e2e

Shot = Callable[[Page, str], Path]
QUESTION = "A light Windows laptop under $800?"
ANSWER = "The HP 14 [CMP-023] is the lightest under $800 here."
SEARCH = "Searching the catalog for light windows laptop under $800"
# What the issue asks: each step on the page within 1 s of happening, the first within
# 1.5 s of sending. Measured here in chromium and written down (a timed assertion on a
# shared machine would fail for the machine's load, not the page's); the bench's figure 9
# measures the same delay over 1,000 questions.
LATENCY_FILE = Path(__file__).resolve().parents[2] / "test-artifacts" / "live-trace-latency.json"

# In the page before its own script: when the question was posted, when each step (in
# each status) first appeared, and the time the steps route says each one happened.
WATCH = """
window.__posted = null; window.__seen = {}; window.__at = {};
const realFetch = window.fetch.bind(window);
window.fetch = async (input, init) => {
  if (init && init.method === "POST") window.__posted = Date.now();
  const response = await realFetch(input, init);
  if (String(input).endsWith("/steps") && response.ok) {
    response.clone().json().then((data) => {
      for (const s of data.steps || []) {
        const key = `${s.step}|${s.status}`;
        if (!(key in window.__at)) window.__at[key] = s.at;
      }
    }).catch(() => {});
  }
  return response;
};
new MutationObserver(() => {
  for (const li of document.querySelectorAll(".live-step")) {
    const key = `${li.dataset.step}|${li.dataset.status}`;
    if (!(key in window.__seen)) window.__seen[key] = { t: Date.now(), text: li.textContent };
  }
}).observe(document, { subtree: true, childList: true, attributes: true, characterData: true });
"""


WARM = threading.Event()
"""Set once the system has answered a first question: a cold first execution (imports,
the first Bedrock client) is not what a shopper of a running store waits for."""


@pytest.fixture
def slow_model(monkeypatch: pytest.MonkeyPatch) -> Iterator[FakeBedrock]:
    WARM.clear()
    warm_up = [asks_for_tools(lookup("w1")), replies("Warm [CMP-023].")]
    script = [
        *warm_up,
        asks_for_tools(
            lookup("t1", category="COMPUTERS", keywords="light windows laptop", maxPrice=800),
            text="Let me look through the catalog.",
        ),
        replies(ANSWER),
    ]
    with FakeBedrock(script, delays_s=[0, 0, 0.1, 3.0]) as bedrock:
        monkeypatch.setenv("AWS_ENDPOINT_URL_BEDROCK_RUNTIME", bedrock.base_url)
        yield bedrock


def slow_lookup(event: dict[str, Any], context: Any) -> Any:
    from lookup_inventory.handler import lambda_handler

    if WARM.is_set():
        time.sleep(1.0)
    return lambda_handler(event, context)


def warm_up(url: str) -> None:
    """Ask one question without the page, so the measured one finds a warm system."""
    body = json.dumps({"message": "warm up"}).encode()
    request = urllib.request.Request(f"{url}query", data=body, method="POST")
    with urllib.request.urlopen(request, timeout=30) as response:
        assert response.status == 200
    WARM.set()


def test_each_step_shows_while_the_answer_is_written_then_the_answer_replaces_them(
    page: Page, start_storechat: Callable[..., str], slow_model: FakeBedrock, screenshot: Shot
) -> None:
    # Given a model that asks for the catalog at once and then writes for 3 s, and a
    # catalog search that takes a second
    # (the model asks for the search itself: the search first is off)
    url = start_storechat(
        model="bedrock", overrides={"lookup_inventory": slow_lookup}, search_first=False
    )
    warm_up(url)
    page.add_init_script(WATCH)
    page.goto(url)
    expect(page.locator("html")).to_have_attribute("data-ready", "true")

    # When the shopper asks
    page.get_by_label("Your question").fill(QUESTION)
    page.get_by_label("Your question").press("Enter")

    # Then the search shows while it runs, in the shopper's words, and then how it ended
    steps = page.locator(".turn--pending .live-step")
    expect(steps.filter(has_text=SEARCH)).to_be_visible()
    expect(page.locator(".live-step--said")).to_have_text("“Let me look through the catalog.”")
    expect(steps.filter(has_text=f"{SEARCH} · 12 found")).to_be_visible()
    expect(steps.filter(has_text="Reading what I found")).to_be_visible()
    screenshot(page, "live-trace-01-steps")
    # ...all before the answer
    assert page.locator(".turn--assistant:not(.turn--pending)").count() == 0

    # And then the answer replaces the lines, and "How I found this" keeps the tool call
    answer = page.locator(".turn--assistant:not(.turn--pending)")
    expect(answer).to_contain_text("The HP 14")
    expect(page.locator(".live-step")).to_have_count(0)
    expect(answer.locator(".trace__tool")).to_have_text(["lookup_inventory"])
    screenshot(page, "live-trace-02-answer")

    # And each step, in each status, was seen by the page, after it happened; how long
    # after (and the first after sending) is written to test-artifacts and printed
    posted, seen, at = page.evaluate("[window.__posted, window.__seen, window.__at]")
    assert {"r01.t00|running", "r01.t00|done", "r01.z|running"} <= set(seen), seen
    delays = {key: round(seen[key]["t"] - at[key]) for key in seen}
    assert all(delay >= -50 for delay in delays.values()), delays  # no step before its time
    first = round(min(value["t"] for value in seen.values()) - posted)
    LATENCY_FILE.parent.mkdir(parents=True, exist_ok=True)
    figures = {"first_step_after_send_ms": first, "step_to_page_ms": delays}
    LATENCY_FILE.write_text(json.dumps(figures, indent=2), encoding="utf-8")
    print(f"live trace in chromium: first step {first} ms after sending; each step {delays} ms")


def test_without_a_readable_trace_the_spinner_stays_and_the_answer_arrives(
    page: Page, start_storechat: Callable[..., str], screenshot: Shot
) -> None:
    # Given an API whose steps route does not answer (an older API, a network error)
    from converse.handler import lambda_handler as converse

    def slow_converse(event: dict[str, Any], context: Any) -> Any:
        time.sleep(1.5)  # long enough for the page to try the route several times
        return converse(event, context)

    failed: list[str] = []

    def refuse(route: Route) -> None:
        failed.append(route.request.url)
        route.abort("connectionrefused")

    page.route("**/steps", refuse)
    page.goto(start_storechat(overrides={"converse": slow_converse}))

    # When the shopper asks
    page.get_by_label("Your question").fill("Books by Madeline Miller")
    page.get_by_label("Your question").press("Enter")

    # Then the plain spinner and its words show, with no step
    expect(page.locator(".turn--pending .pending__text")).to_have_text("Looking through the store…")
    expect(page.locator(".live-steps")).to_be_hidden()
    screenshot(page, "live-trace-03-no-steps")

    # And the answer arrives all the same
    answer = page.locator(".turn--assistant:not(.turn--pending)")
    expect(answer).to_have_attribute("data-outcome", "answered")
    assert failed, "the page tried to read the steps"
    # And after three failed reads in a row it stopped asking
    assert len(failed) <= 3
