"""The store's settings: what a store team writes, and what it is told when it is wrong."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from shared.store.settings import (
    StoreSettingsError,
    contrast,
    load,
    page_settings,
)

GOOD: dict[str, Any] = {
    "name": "Nordlicht Books",
    "url": "https://nordlicht.example/shop/",
    "platform": "woocommerce",
    "allowedOrigins": ["https://nordlicht.example", "https://www.nordlicht.example/"],
    "policies": "texts/policies.md",
    "contact": "hallo@nordlicht.example",
}


def write(
    folder: Path, block: dict[str, Any], policies: str | None = "# Returns\n14 days."
) -> Path:
    if policies is not None:
        (folder / "texts").mkdir(exist_ok=True)
        (folder / "texts" / "policies.md").write_text(policies, encoding="utf-8")
    path = folder / "store.json"
    path.write_text(json.dumps(block), encoding="utf-8")
    return path


def test_a_store_file_is_read_with_its_policies_beside_it(tmp_path: Path) -> None:
    # Given a store's settings and its policies in a folder of its own
    store = load(write(tmp_path, GOOD))

    # Then the storefront and origins read as the browser writes them, the policies as text
    assert store.settings.url == "https://nordlicht.example/shop"
    assert store.settings.allowedOrigins == [
        "https://nordlicht.example",
        "https://www.nordlicht.example",
    ]
    assert store.policiesText == "# Returns\n14 days."
    # And the page learns the name, the voice and a colour it can write on
    shown = page_settings(store.settings)
    assert shown["name"] == "Nordlicht Books" and shown["language"] == "en"
    assert shown["colors"] == {"accent": "#2450c8", "onAccent": "#ffffff"}


@pytest.mark.parametrize(
    ("change", "says"),
    [
        ({"platform": "magento"}, "platform"),
        ({"platform": "custom"}, "platform 'custom' needs cartUrlTemplate"),
        (
            {"platform": "custom", "cartUrlTemplate": "https://s.example/add?sku={sku}"},
            "cartUrlTemplate names ['sku']",
        ),
        (
            {"platform": "custom", "cartUrlTemplate": "javascript:add({productId})"},
            "is not a web address",
        ),
        ({"cartUrlTemplate": "https://s.example/add?id={productId}"}, "for platform 'custom' only"),
        ({"url": "http://nordlicht.example"}, "only this machine (localhost) may use http"),
        ({"url": "ftp://nordlicht.example"}, "is not a web address"),
        ({"allowedOrigins": ["https://nordlicht.example/shop"]}, "is not an origin"),
        ({"allowedOrigins": ["*"]}, "is not a web address"),
        ({"allowedOrigins": ["https://*.example.com"]}, "is not an origin"),
        ({"name": "Nordlicht\u202eBooks"}, "invisible formatting characters"),
        ({"name": ""}, "at least 1 character"),
        ({"name": "   "}, "must not be empty"),
        ({"colors": {"accent": "red"}}, "is not a colour like #2450c8"),
        ({"language": "English"}, "language"),
        (
            {
                "domain": {
                    "name": "chat.nordlicht.example",
                    "certificateArn": "arn:aws:acm:eu-west-1:123456789012:certificate/"
                    "12345678-1234-1234-1234-123456789012",
                }
            },
            "certificateArn",
        ),
        ({"assistant": {"suggestions": ["a", "b", "c", "d", "e"]}}, "at most 4 items"),
        ({"contact": None}, "contact"),
        ({"theme": "dark"}, "theme: Extra inputs are not permitted"),
    ],
)
def test_a_setting_that_cannot_be_used_is_named_with_what_to_write(
    tmp_path: Path, change: dict[str, Any], says: str
) -> None:
    with pytest.raises(StoreSettingsError) as refused:
        load(write(tmp_path, {**GOOD, **change}))
    assert says in str(refused.value)
    assert str(tmp_path / "store.json") in str(refused.value)


def test_a_missing_or_empty_policies_file_is_said_so(tmp_path: Path) -> None:
    with pytest.raises(StoreSettingsError, match="policies: cannot read"):
        load(write(tmp_path, GOOD, policies=None))
    with pytest.raises(StoreSettingsError, match="is empty"):
        load(write(tmp_path, GOOD, policies="  \n"))
    with pytest.raises(StoreSettingsError, match="not JSON"):
        (tmp_path / "broken.json").write_text("{name: 1}", encoding="utf-8")
        load(tmp_path / "broken.json")


def test_a_store_on_this_machine_may_use_http(tmp_path: Path) -> None:
    local = {**GOOD, "url": "http://127.0.0.1:9292", "allowedOrigins": ["http://localhost:9292"]}
    assert load(write(tmp_path, local)).settings.origin == "http://127.0.0.1:9292"


@pytest.mark.parametrize("accent", ["#2450c8", "#ffd400", "#000000", "#ffffff", "#b3261e"])
def test_the_text_on_the_stores_colour_is_the_one_that_reads_better(
    tmp_path: Path, accent: str
) -> None:
    store = load(write(tmp_path, {**GOOD, "colors": {"accent": accent}})).settings
    on = store.colors.on_accent
    other = "#111418" if on == "#ffffff" else "#ffffff"
    assert contrast(accent, on) >= contrast(accent, other)
    assert contrast(accent, on) >= 4.5 or contrast(accent, other) < 4.5
