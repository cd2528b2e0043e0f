"""The local package's variables: read once, validated, with errors that name them."""

from __future__ import annotations

import pytest

from storechat.settings import IMAGE_HOSTS_VARIABLE, SettingsError, read_settings


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


def test_the_local_page_is_told_the_currency_the_response_builder_checks_prices_in() -> None:
    # Given a local system for a store priced in euros (STORE_CURRENCY, as on a stack)
    from storechat.local import LocalStorechat

    local = LocalStorechat(model="offline", env={"STORE_CURRENCY": "eur"})
    # When the dev server writes the page's config.json, Then it names that currency
    assert local.store_currency == "EUR"
    assert LocalStorechat(model="offline").store_currency == "USD"
