"""What the local package reads from its environment: read once per command, validated.

* ``STORECHAT_HOME``: where the local store keeps its files (the catalog, the sessions,
  the day's model spend); ``.storechat`` when unset.
* ``STORECHAT_DAILY_BUDGET_USD``: the local system's daily model budget in US dollars,
  as a deployed stack's ``model_budget.daily_usd``; unset or empty, no budget. Tokens
  are priced from the one price list (``shared.config.pricing``), the offline and replay
  models' as the model they stand in for, as ``storechat eval`` and the bench price them.
* ``STORECHAT_SEARCH_FIRST``: ``0`` (or ``false``, ``off``, ``no``) turns the search first
  off, as a stack's ``search_first: false``: the model goes first with every question. Unset
  or empty, ``1``, ``true``, ``on`` or ``yes``: on.
* ``STORECHAT_IMAGE_HOSTS``: the origins the page may load product pictures from, space
  or comma separated (``https://cdn.shopify.com, https://*.wp.com``), as a stack's
  ``image_hosts``; ``storechat serve --image-host`` takes the place of the variable.
* ``STORE_CURRENCY`` and ``STORE_WEIGHT_UNIT``: the store's currency and weight unit (kg or
  lb), which the functions read from the environment as a stack's do; checked here, so that
  a wrong one stops the command with its name rather than a trace.
* ``SHOPIFY_WEBHOOK_SECRET`` and ``WOOCOMMERCE_WEBHOOK_SECRET``: the secrets that
  ``storechat serve`` verifies each platform's webhooks with (``POST /webhooks/shopify``,
  ``POST /webhooks/woocommerce``); a platform without one has its route answer 404.
* ``STORE_URL``: the store's own address (``https://shop.example.com``), which an
  imported platform export's products link to (their pages); ``storechat catalog import
  --store-url`` takes the place of the variable.

``storechat`` (the CLI) reads these once at its start and hands them down; nothing else
in the package reads the variables.
"""

from __future__ import annotations

import math
import os
import re
from collections.abc import Mapping
from pathlib import Path
from typing import Final
from urllib.parse import urlsplit

from pydantic import BaseModel, ConfigDict

HOME_VARIABLE: Final = "STORECHAT_HOME"
BUDGET_VARIABLE: Final = "STORECHAT_DAILY_BUDGET_USD"
IMAGE_HOSTS_VARIABLE: Final = "STORECHAT_IMAGE_HOSTS"
SEARCH_FIRST_VARIABLE: Final = "STORECHAT_SEARCH_FIRST"
_SWITCH: Final = {
    **dict.fromkeys(("", "1", "true", "on", "yes"), True),
    **dict.fromkeys(("0", "false", "off", "no"), False),
}
STORE_URL_VARIABLE: Final = "STORE_URL"
WEBHOOK_SECRET_VARIABLES: Final = {
    "shopify": "SHOPIFY_WEBHOOK_SECRET",
    "woocommerce": "WOOCOMMERCE_WEBHOOK_SECRET",
}
DEFAULT_HOME: Final = Path(".storechat")
SAMPLE_STORE: Final = Path(__file__).resolve().parent.parent / "store" / "store.json"
"""The sample store's settings (``storechat ask|chat|serve`` without ``--store``)."""


class SettingsError(ValueError):
    """A variable cannot be used; the message names it and says what it takes."""


class LocalSettings(BaseModel):
    model_config = ConfigDict(frozen=True)

    home: Path = DEFAULT_HOME
    daily_budget_usd: float | None = None
    """None: no budget."""
    search_first: bool = True
    """The catalog search on the shopper's words before the first model call."""
    image_hosts: tuple[str, ...] = ()
    """CSP sources for product pictures, checked (``shared.api.page_policy.image_host``)."""
    store_url: str | None = None
    """The store's address, checked (:func:`store_url`); None when unset."""
    webhook_secrets: dict[str, str] = {}
    """Each platform's webhook secret, for the platforms that have one."""


def read_settings(environ: Mapping[str, str] | None = None) -> LocalSettings:
    environ = os.environ if environ is None else environ
    _check_store(environ)
    home = environ.get(HOME_VARIABLE) or ""
    return LocalSettings(
        home=Path(home) if home.strip() else DEFAULT_HOME,
        daily_budget_usd=_budget(environ.get(BUDGET_VARIABLE)),
        search_first=_switch(SEARCH_FIRST_VARIABLE, environ.get(SEARCH_FIRST_VARIABLE)),
        image_hosts=image_hosts(
            re.split(r"[\s,]+", environ.get(IMAGE_HOSTS_VARIABLE, "")), IMAGE_HOSTS_VARIABLE
        ),
        store_url=store_url(environ[STORE_URL_VARIABLE], STORE_URL_VARIABLE)
        if (environ.get(STORE_URL_VARIABLE) or "").strip()
        else None,
        webhook_secrets={
            platform: environ[variable].strip()
            for platform, variable in WEBHOOK_SECRET_VARIABLES.items()
            if (environ.get(variable) or "").strip()
        },
    )


def _check_store(environ: Mapping[str, str]) -> None:
    from shared.products.currency import known_currency
    from shared.products.weight import known_weight_unit

    for name, check in (
        ("STORE_CURRENCY", known_currency),
        ("STORE_WEIGHT_UNIT", known_weight_unit),
    ):
        value = environ.get(name)
        if value is not None and value.strip():
            try:
                check(value)
            except ValueError as exc:
                raise SettingsError(f"{name}: {exc}") from None


def store_url(value: str, source: str) -> str:
    """``value`` as the store's address, without a trailing "/": an http(s) address with a
    host and no query; ``source`` (a flag or a variable) is named when it is not one."""
    text = value.strip()
    parts = urlsplit(text)
    if (
        parts.scheme not in ("https", "http")
        or not parts.hostname
        or parts.query
        or parts.fragment
        or re.search(r"\s", text)
    ):
        raise SettingsError(
            f"{source}={value!r}: the store's address is a web address such as "
            "https://shop.example.com (its product pages are linked from it)"
        )
    return text.rstrip("/")


def image_hosts(values: list[str], source: str) -> tuple[str, ...]:
    """Each non-empty value as a CSP source; ``source`` (a flag or a variable) is named in
    the error when one is not an origin."""
    from shared.api.page_policy import image_host

    try:
        return tuple(image_host(value) for value in values if value.strip())
    except ValueError as exc:
        raise SettingsError(f"{source}: {exc}") from exc


def _switch(variable: str, text: str | None) -> bool:
    """A variable that turns something on or off; unset, on."""
    value = _SWITCH.get((text or "").strip().casefold())
    if value is None:
        raise SettingsError(f"{variable}={text!r}: 0 turns it off, 1 (or unset) on")
    return value


def _budget(text: str | None) -> float | None:
    if text is None or not text.strip():
        return None
    try:
        value = float(text.strip().removeprefix("$"))
    except ValueError:
        value = math.nan
    if not math.isfinite(value) or value <= 0:
        raise SettingsError(
            f"{BUDGET_VARIABLE}={text!r}: a daily budget is a number of US dollars above 0 "
            "(for example 5 or 0.25); leave it unset for no budget"
        )
    return value
