"""The page's Content-Security-Policy: which picture hosts an environment may name."""

from __future__ import annotations

import pytest

from shared.api.page_policy import allowed, content_security_policy, image_host


@pytest.mark.parametrize(
    ("given", "source"),
    [
        ("https://cdn.shopify.com", "https://cdn.shopify.com"),
        ("https://cdn.shopify.com/", "https://cdn.shopify.com"),
        ("HTTPS://Shop.Example.com:8443", "https://shop.example.com:8443"),
        ("https://*.wp.com", "https://*.wp.com"),
        ("http://127.0.0.1:9000", "http://127.0.0.1:9000"),
        ("http://localhost", "http://localhost"),
    ],
)
def test_an_image_host_is_an_origin_written_as_csp_reads_it(given: str, source: str) -> None:
    assert image_host(given) == source


@pytest.mark.parametrize(
    ("given", "says"),
    [
        ("http://cdn.shopify.com", r"only this machine \(localhost\) may use http"),
        ("https://cdn.shopify.com/files", "is not an origin"),
        ("*", "is not an origin"),
        ("https://*.com", "every host of a top-level domain"),
        ("https://user@cdn.example.com", "is not an origin"),
        ("ftp://cdn.example.com", "is not an origin"),
        ("https://cdn example.com", "is not an origin"),
    ],
)
def test_anything_else_is_refused_saying_what_a_host_looks_like(given: str, says: str) -> None:
    with pytest.raises(ValueError, match=says):
        image_host(given)


def test_the_policy_lets_pictures_come_from_the_hosts_given_and_no_others() -> None:
    policy = content_security_policy(
        images=["https://cdn.shopify.com"], connect=["https://api.example.com/prod/"]
    )
    directives = dict(d.split(" ", 1) for d in policy.split("; "))
    assert directives["img-src"] == "'self' data: https://cdn.shopify.com"
    assert directives["connect-src"] == "'self' https://api.example.com/prod/"
    assert directives["script-src"] == directives["style-src"] == "'self'"
    assert directives["frame-ancestors"] == "'none'"
    assert "https://cdn.shopify.com" not in content_security_policy()


def test_a_picture_is_allowed_on_a_listed_host_or_a_listed_subdomain_pattern() -> None:
    hosts = ["https://cdn.shopify.com", "https://*.wp.com", "http://127.0.0.1:9000"]
    assert allowed("https://cdn.shopify.com/s/files/x.jpg?v=1", hosts)
    assert allowed("https://i0.wp.com/shop/x.jpg", hosts)
    assert allowed("http://127.0.0.1:9000/a.png", hosts)
    assert not allowed("https://wp.com/x.jpg", hosts)
    assert not allowed("http://cdn.shopify.com/x.jpg", hosts)
    assert not allowed("http://127.0.0.1:9001/a.png", hosts)
    assert not allowed("https://shop.example.com/x.jpg", hosts)
