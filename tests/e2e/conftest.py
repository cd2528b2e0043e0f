"""Drive the chat page in Debian's chromium through Playwright, against the dev server in a thread.

Playwright's own browser download cannot be used here, so the tests launch the
system chromium (``apt-get install chromium``). Without it they fail, not skip:
a page that was never opened in a browser has not been tested.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from contextlib import ExitStack
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from storechat.local import LocalStorechat
from storechat.server import make_server, running

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--headless=new",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
SCREENSHOTS = Path(__file__).resolve().parents[2] / "test-artifacts" / "screenshots"
DESKTOP = {"width": 1280, "height": 1000}
PHONE = {"width": 375, "height": 812}
ANSWER_TIMEOUT_MS = 40_000


@pytest.fixture(autouse=True)
def _no_real_aws(monkeypatch: pytest.MonkeyPatch) -> None:
    # moto intercepts every AWS call; make sure nothing could reach a real account anyway.
    monkeypatch.setenv("AWS_ACCESS_KEY_ID", "testing")
    monkeypatch.setenv("AWS_SECRET_ACCESS_KEY", "testing")
    monkeypatch.setenv("AWS_SESSION_TOKEN", "testing")
    monkeypatch.delenv("AWS_PROFILE", raising=False)
    monkeypatch.delenv("BRAVE_API_KEY", raising=False)


@pytest.fixture(scope="session")
def browser() -> Iterator[Browser]:
    if not CHROMIUM.is_file():
        pytest.fail(
            f"{CHROMIUM} not found: the e2e tests drive Debian's chromium. "
            "Install it with `apt-get install -y chromium` (the Makefile's e2e target does).",
            pytrace=False,
        )
    try:
        from playwright.sync_api import expect, sync_playwright
    except ImportError:
        pytest.fail(
            "the e2e tests need Playwright: `.venv/bin/pip install playwright`", pytrace=False
        )
    # An answer can take as long as the API waits (29 s), more on a busy CI machine.
    expect.set_options(timeout=ANSWER_TIMEOUT_MS)
    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        yield launched
        launched.close()


@pytest.fixture
def start_storechat() -> Iterator[Callable[..., str]]:
    """Start a local system and the dev server on a free port; returns the page's URL.

    One at a time: LocalStorechat runs moto in-process, which is global state.
    """
    with ExitStack() as stack:
        started: list[str] = []

        def start(
            model: str = "offline", *, image_hosts: tuple[str, ...] = (), **kwargs: Any
        ) -> str:
            assert not started, "one storechat per test"
            local = stack.enter_context(LocalStorechat(model=model, **kwargs))
            server = stack.enter_context(
                running(make_server(local, "127.0.0.1", 0, image_hosts=image_hosts))
            )
            started.append(server.url)
            return server.url

        yield start


@pytest.fixture
def storechat_url(start_storechat: Callable[..., str]) -> str:
    """The page, served with the offline model."""
    return start_storechat()


def _new_page(browser: Browser, viewport: dict[str, int]) -> Iterator[Page]:
    context = browser.new_context(viewport=viewport, reduced_motion="reduce", locale="en-US")
    page = context.new_page()
    page.set_default_timeout(ANSWER_TIMEOUT_MS)
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    try:
        yield page
    finally:
        context.close()
    # An uncaught script error fails the test even when what it checked looked right.
    assert not errors, f"uncaught errors in the page: {errors}"


@pytest.fixture
def page(browser: Browser) -> Iterator[Page]:
    yield from _new_page(browser, DESKTOP)


@pytest.fixture
def phone_page(browser: Browser) -> Iterator[Page]:
    yield from _new_page(browser, PHONE)


@pytest.fixture
def screenshot() -> Callable[[Page, str], Path]:
    """Save what the viewport shows to test-artifacts/screenshots/NAME.png."""
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)

    def take(page: Page, name: str) -> Path:
        path = SCREENSHOTS / f"{re.sub(r'[^A-Za-z0-9_-]+', '-', name)}.png"
        page.screenshot(path=str(path))
        return path

    return take
