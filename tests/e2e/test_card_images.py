"""Product pictures on the cards, in chromium: shown from the hosts the page allows only."""

from __future__ import annotations

import struct
import zlib
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page, Route, expect

from shared.products.catalog_data import load_catalog
from tests.e2e.test_web_page import Shot, answers, ask
from tests.integration.converse_fixtures import asks_for_tools, lookup, replies, write_replay
from tests.support.fake_http import FakeHttpServer

pytestmark = pytest.mark.e2e

LAPTOP, PHONE = "CMP-901", "MOB-901"


def _png(width: int, height: int) -> bytes:
    """A one-colour PNG, made here so the test needs no file."""

    def chunk(kind: bytes, data: bytes) -> bytes:
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body))

    row = b"\x00" + b"\x24\x50\xc8" * width
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0))
        + chunk(b"IDAT", zlib.compress(row * height))
        + chunk(b"IEND", b"")
    )


@pytest.fixture
def pictures() -> Iterator[FakeHttpServer]:
    with FakeHttpServer() as server:
        # A square picture: the card's box stays 4:3 whatever the picture's shape.
        for name in ("laptop.png", "phone.png"):
            server.route(f"/{name}", body=_png(40, 40), headers={"Content-Type": "image/png"})
        yield server


def _catalog(allowed: str, other: str) -> list[dict[str, Any]]:
    laptop = next(p for p in load_catalog() if p["category"] == "COMPUTERS")
    phone = next(p for p in load_catalog() if p["category"] == "MOBILE")
    return [
        *load_catalog(),
        {
            **laptop,
            "productId": LAPTOP,
            "name": "Acme Aero 14",
            "imageUrl": allowed + "/laptop.png",
        },
        # The same server under another name: a host the page's policy does not list.
        {**phone, "productId": PHONE, "name": "Acme Phone 2", "imageUrl": f"{other}/phone.png"},
    ]


def _start(start_storechat: Callable[..., str], tmp_path: Path, server: FakeHttpServer) -> str:
    allowed = server.base_url  # http://127.0.0.1:PORT
    other = allowed.replace("127.0.0.1", "localhost")
    model = write_replay(
        tmp_path,
        [
            asks_for_tools(lookup("t1", productIds=[LAPTOP, PHONE])),
            replies(f"The Acme Aero 14 [{LAPTOP}] is light; the Acme Phone 2 [{PHONE}] is cheap."),
        ],
    )
    return start_storechat(model=model, catalog=_catalog(allowed, other), image_hosts=(allowed,))


def _box(page: Page, selector: str) -> dict[str, float]:
    box = page.locator(selector).bounding_box()
    assert box is not None, f"{selector} has no box"
    return box


def test_a_card_shows_its_picture_lazily_in_a_box_that_does_not_move(
    page: Page,
    start_storechat: Callable[..., str],
    tmp_path: Path,
    pictures: FakeHttpServer,
    screenshot: Shot,
) -> None:
    # Given a product with a picture on an allowed host, and the picture held back
    held: list[Route] = []
    page.route("**/laptop.png", lambda route: held.append(route))
    page.goto(_start(start_storechat, tmp_path, pictures))

    # When the shopper asks and the answer's cards appear
    ask(page, "Show me the Acme Aero 14 and the Acme Phone 2")
    answer = answers(page).first
    card = answer.locator(f"[id$='-{LAPTOP}']")
    image = card.get_by_role("img", name="Acme Aero 14")
    expect(image).to_have_attribute("loading", "lazy")
    for _ in range(200):  # the browser asks for the picture once the card is on screen
        if held:
            break
        page.wait_for_timeout(50)
    assert held, "the picture was never requested"
    before_media = _box(page, f"[id$='-{LAPTOP}'] .card__media")
    before_card = _box(page, f"[id$='-{LAPTOP}']")

    # Then, once the picture arrives, it is shown, named by the product, and nothing moved
    held[0].continue_()
    expect(image).to_be_visible()
    page.wait_for_function(
        f"() => document.querySelector(\"[id$='-{LAPTOP}'] img\").naturalWidth === 40"
    )
    after_media = _box(page, f"[id$='-{LAPTOP}'] .card__media")
    assert after_media == before_media
    assert _box(page, f"[id$='-{LAPTOP}']")["height"] == before_card["height"]
    assert abs(after_media["width"] / after_media["height"] - 4 / 3) < 0.02
    card.scroll_into_view_if_needed()
    screenshot(page, "10-card-pictures")


def test_a_picture_from_a_host_the_page_does_not_allow_is_never_fetched(
    page: Page, start_storechat: Callable[..., str], tmp_path: Path, pictures: FakeHttpServer
) -> None:
    # Given a product whose picture is on a host the environment does not list
    blocked: list[str] = []
    page.on("console", lambda m: blocked.append(m.text) if "Content Security" in m.text else None)
    response = page.goto(_start(start_storechat, tmp_path, pictures))

    # Then the page's policy names the allowed host, and not the other
    assert response is not None
    policy = response.headers["content-security-policy"]
    assert f"img-src 'self' data: {pictures.base_url};" in policy
    assert "localhost" not in policy

    # When the card appears, the browser refuses the picture: nothing is fetched, no
    # broken-image icon is shown, and the card keeps its box.
    ask(page, "Show me the Acme Aero 14 and the Acme Phone 2")
    phone = answers(page).first.locator(f"[id$='-{PHONE}']")
    expect(phone.locator(".card__name")).to_have_text("Acme Phone 2")
    expect(phone.locator("img")).to_be_hidden()
    assert phone.locator(".card__media").bounding_box() is not None
    page.wait_for_function(
        f"() => document.querySelector(\"[id$='-{LAPTOP}'] img\").naturalWidth === 40"
    )
    assert {r.path for r in pictures.requests} == {"/laptop.png"}
    assert any("phone.png" in text for text in blocked), blocked
