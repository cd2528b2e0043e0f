"""Whom the dev server answers, by its own names and the store's origins."""

from __future__ import annotations

import pytest

from storechat.origins import Origins

STORE = "https://shop.example.com"


@pytest.mark.parametrize(
    ("bound", "host", "own"),
    [
        ("127.0.0.1", "127.0.0.1:8765", True),
        ("127.0.0.1", "localhost:8765", True),
        ("127.0.0.1", "localhost", True),
        ("127.0.0.1", "[::1]:8765", True),
        ("127.0.0.1", "127.0.0.1:8766", False),
        ("127.0.0.1", "evil.example:8765", False),
        ("127.0.0.1", "127.0.0.1.evil.example:8765", False),
        ("127.0.0.1", "", False),
        ("127.0.0.1", None, False),
        ("0.0.0.0", "192.168.1.20:8765", True),
        ("0.0.0.0", "evil.example:8765", False),
        ("192.168.1.20", "192.168.1.20:8765", True),
        ("192.168.1.20", "localhost:8765", False),
    ],
)
def test_a_host_is_one_of_the_servers_own_names(bound: str, host: str | None, own: bool) -> None:
    assert Origins.of(bound, 8765, [STORE]).is_own(host) is own


def test_a_page_may_call_the_api_from_the_servers_origin_or_the_stores() -> None:
    origins = Origins.of("127.0.0.1", 8765, [STORE])
    assert origins.refuses({"Origin": STORE}) is None
    assert origins.refuses({"Origin": "http://localhost:8765"}) is None
    assert origins.refuses({}) is None  # not a page: curl, a test, the CLI
    for other in (
        "https://evil.example",
        "null",
        "https://shop.example.com.evil.example",
        "http://localhost:8766",
        "https://localhost:8765",
    ):
        assert origins.refuses({"Origin": other}), other
    assert origins.refuses({"Sec-Fetch-Site": "cross-site"})
    assert origins.refuses({"Sec-Fetch-Site": "same-origin"}) is None
