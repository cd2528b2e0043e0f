"""The local package's variables: read once, validated, with errors that name them."""

from __future__ import annotations

import pytest

from storechat.settings import (
    IMAGE_HOSTS_VARIABLE,
    SEARCH_FIRST_VARIABLE,
    SettingsError,
    read_settings,
)


def test_image_hosts_are_read_space_or_comma_separated_as_csp_sources() -> None:
    # Given two picture hosts in the variable, When the settings are read,
    # Then each is an origin the page's CSP can name (a trailing slash dropped)
    environ = {IMAGE_HOSTS_VARIABLE: " https://cdn.shopify.com/,  https://*.wp.com "}
    assert read_settings(environ).image_hosts == ("https://cdn.shopify.com", "https://*.wp.com")
    assert read_settings({}).image_hosts == ()
    assert read_settings({IMAGE_HOSTS_VARIABLE: "  "}).image_hosts == ()


def test_an_image_host_that_is_no_origin_is_refused_naming_the_variable() -> None:
    # Given a full picture address where an origin belongs, When the settings are read,
    # Then the error names the variable and says what an origin looks like
    environ = {IMAGE_HOSTS_VARIABLE: "https://cdn.shopify.com/files/a.png"}
    with pytest.raises(SettingsError, match=rf"^{IMAGE_HOSTS_VARIABLE}: .*an origin such as"):
        read_settings(environ)


@pytest.mark.parametrize(
    ("value", "on"),
    [
        *[("", True), ("1", True), (" TRUE ", True), ("on", True), ("yes", True)],
        *[("0", False), ("false", False), ("Off", False), ("no", False)],
    ],
)
def test_search_first_is_on_unless_the_variable_turns_it_off(value: str, on: bool) -> None:
    assert read_settings({}).search_first is True
    assert read_settings({SEARCH_FIRST_VARIABLE: value}).search_first is on


def test_a_search_first_switch_that_says_neither_is_refused_naming_the_variable() -> None:
    with pytest.raises(SettingsError, match=rf"^{SEARCH_FIRST_VARIABLE}='maybe': 0 turns it off"):
        read_settings({SEARCH_FIRST_VARIABLE: "maybe"})


def test_the_local_page_is_told_the_currency_the_response_builder_checks_prices_in() -> None:
    # Given a local system for a store priced in euros (STORE_CURRENCY, as on a stack)
    from storechat.local import LocalStorechat

    local = LocalStorechat(model="offline", env={"STORE_CURRENCY": "eur"})
    # When the dev server writes the page's config.json, Then it names that currency
    assert local.store_currency == "EUR"
    assert LocalStorechat(model="offline").store_currency == "USD"
