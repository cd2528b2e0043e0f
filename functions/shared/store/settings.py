"""The store's own settings, declared once: its name, storefront, platform, policies, voice.

The same keys are written in two places: a ``store`` block per environment in
``cdk.json`` (checked by ``infra/config.py``) and, locally, the JSON file given to
``storechat serve --store FILE``. :class:`Store` is both; its ``policies`` names a
Markdown file in the store's own words (returns, shipping, payment, the order-status
link), relative to ``cdk.json`` or to the JSON file.

What runs beside the loop reads the settings with the policies' text in one file,
:class:`StoreFile` (``STORE_FILE``): the Converse function names the store and its
policies in the system prompt, the policies tool answers from the text, the response
builder makes product and cart links from the storefront and the platform
(``shared.store.store_links``), and the chat page and widget read :func:`page_settings`.

No AWS imports: the CDK app, the local CLI and the Lambdas read it.
"""

from __future__ import annotations

import functools
import json
import re
from collections.abc import Mapping
from pathlib import Path
from typing import Annotated, Any, Final, Literal
from urllib.parse import urlsplit

from pydantic import (
    AfterValidator,
    BaseModel,
    ConfigDict,
    Field,
    StringConstraints,
    ValidationError,
    model_validator,
)

from shared.text.sanitize import has_control_characters

LOOPBACK_HOSTS: Final = frozenset({"localhost", "127.0.0.1", "::1"})
"""Hosts a store may use plain ``http:`` on: this machine, for trying the widget out."""
MAX_POLICIES_BYTES: Final = 64 * 1024
"""A policies file larger than this is not a policy page: refused, saying so."""
CART_PLACEHOLDERS: Final = ("productId", "platformProductId", "platformVariantId")
"""What a custom platform's cart URL template may name, each filled URL-encoded."""
_PLACEHOLDER = re.compile(r"\{([^{}]*)\}")


class StoreSettingsError(ValueError):
    """The store's settings cannot be used; the message names the key and the fix."""


def _plain_text(value: str) -> str:
    # Every one of these reaches the system prompt or the page: a hidden character in
    # them is a mistake or a smuggled instruction.
    if has_control_characters(value):
        raise ValueError("must not contain control or invisible formatting characters")
    if not value.strip():
        raise ValueError("must not be empty")
    return value.strip()


PlainText = AfterValidator(_plain_text)
Words = Annotated[str, StringConstraints(min_length=1, max_length=80), PlainText]
"""A name: the store's, the assistant's."""
Sentence = Annotated[str, StringConstraints(min_length=1, max_length=120), PlainText]
Paragraph = Annotated[str, StringConstraints(min_length=1, max_length=300), PlainText]


def is_loopback(host: str | None) -> bool:
    return (host or "").lower().strip("[]") in LOOPBACK_HOSTS


def web_address(value: str) -> str:
    """An address a shopper may be sent to: ``https:``, or ``http:`` on this machine."""
    parts = urlsplit(value)
    try:
        parts.port  # noqa: B018 - a bad port raises
    except ValueError:
        raise ValueError(f"{value!r} has a port that is not a number") from None
    if (
        parts.scheme not in ("https", "http")
        or not parts.hostname
        or "@" in parts.netloc
        or re.search(r"[\s\\]", value)
        or has_control_characters(value)
    ):
        raise ValueError(f"{value!r} is not a web address like https://shop.example.com")
    if parts.scheme == "http" and not is_loopback(parts.hostname):
        raise ValueError(f"{value!r}: only this machine (localhost) may use http")
    return value


def _origin(value: str) -> str:
    web_address(value)
    parts = urlsplit(value)
    if parts.path not in ("", "/") or parts.query or parts.fragment or "*" in value:
        raise ValueError(f"{value!r} is not an origin like https://shop.example.com")
    return f"{parts.scheme}://{parts.netloc.lower()}"


def _storefront(value: str) -> str:
    web_address(value)
    parts = urlsplit(value)
    if parts.query or parts.fragment:
        raise ValueError(f"{value!r}: the storefront's address has no query or fragment")
    return value.rstrip("/")


WebAddress = Annotated[str, Field(max_length=2000), AfterValidator(web_address)]
Origin = Annotated[str, Field(max_length=300), AfterValidator(_origin)]
Storefront = Annotated[str, Field(max_length=300), AfterValidator(_storefront)]


class Block(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class Assistant(Block):
    """How the assistant introduces itself in the chat."""

    name: Words = "Shopping assistant"
    greeting: Paragraph = (
        "Ask in your own words. I search the store's catalog and show you what fits."
    )
    suggestions: Annotated[list[Sentence], Field(max_length=4)] = []
    """Example questions an empty conversation offers (at most four)."""


def _hex_colour(value: str) -> str:
    if not re.fullmatch(r"#[0-9a-fA-F]{6}", value):
        raise ValueError(f"{value!r} is not a colour like #2450c8")
    return value.lower()


def _luminance(colour: str) -> float:
    def channel(hex_pair: str) -> float:
        c = int(hex_pair, 16) / 255
        return c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4

    r, g, b = (channel(colour[i : i + 2]) for i in (1, 3, 5))
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(one: str, other: str) -> float:
    """WCAG's contrast ratio of two ``#rrggbb`` colours (1 to 21)."""
    high, low = sorted((_luminance(one), _luminance(other)), reverse=True)
    return (high + 0.05) / (low + 0.05)


class Colors(Block):
    accent: Annotated[str, AfterValidator(_hex_colour)] = "#2450c8"
    """The store's colour: the launcher, the Send button, the shopper's own messages."""

    @property
    def on_accent(self) -> str:
        """The text colour on the accent, whichever of white and near-black reads better."""
        white, ink = "#ffffff", "#111418"
        return white if contrast(self.accent, white) >= contrast(self.accent, ink) else ink


class Domain(Block):
    """A custom domain for the chat host (CloudFront), with its ACM certificate."""

    name: Annotated[
        str,
        Field(max_length=253, pattern=r"^([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$"),
    ]
    certificateArn: Annotated[
        str,
        Field(
            pattern=r"^arn:aws[a-z-]*:acm:us-east-1:\d{12}:certificate/[0-9a-f-]{36}$",
            description="CloudFront takes certificates from us-east-1 only",
        ),
    ]


class Store(Block):
    """The store block: ``cdk.json``'s ``store``, or ``storechat serve --store FILE``."""

    name: Words
    url: Storefront
    """The storefront: product pages and cart links start here."""
    platform: Literal["shopify", "woocommerce", "custom"]
    cartUrlTemplate: Annotated[str | None, Field(max_length=2000)] = None
    """For ``custom``: the address that adds one product to the cart, naming any of
    ``{productId}``, ``{platformProductId}``, ``{platformVariantId}``."""
    allowedOrigins: Annotated[list[Origin], Field(max_length=20)] = []
    """The storefront's origins whose pages may call the API (the widget's pages)."""
    policies: Annotated[str, Field(min_length=1, max_length=500)]
    """A Markdown file in the store's own words, relative to the settings' file."""
    contact: Paragraph
    """How a shopper reaches the store's people (an e-mail address, a phone, a page):
    given whenever the policies do not answer."""
    assistant: Assistant = Assistant()
    colors: Colors = Colors()
    language: Annotated[str, Field(pattern=r"^[a-z]{2,3}(-[A-Za-z0-9]{2,8})*$")] = "en"
    """The pages' language (BCP 47): how numbers and prices are written."""
    domain: Domain | None = None

    @model_validator(mode="after")
    def _cart(self) -> Store:
        template = self.cartUrlTemplate
        if self.platform == "custom" and not template:
            raise ValueError("platform 'custom' needs cartUrlTemplate")
        if template is not None:
            if self.platform != "custom":
                raise ValueError("cartUrlTemplate is for platform 'custom' only")
            unknown = set(_PLACEHOLDER.findall(template)) - set(CART_PLACEHOLDERS)
            if unknown:
                raise ValueError(
                    f"cartUrlTemplate names {sorted(unknown)}; it may name "
                    + ", ".join(f"{{{p}}}" for p in CART_PLACEHOLDERS)
                )
            web_address(_PLACEHOLDER.sub("x", template))
        return self

    @property
    def origin(self) -> str:
        parts = urlsplit(self.url)
        return f"{parts.scheme}://{parts.netloc.lower()}"


class StoreFile(Block):
    """What the functions read (``STORE_FILE``): the settings and the policies' text."""

    settings: Store
    policiesText: Annotated[str, Field(min_length=1)]


def resolve(block: Mapping[str, Any], base: Path, source: str) -> StoreFile:
    """The settings of ``block`` with its policies file (relative to ``base``) read.

    ``source`` names where the block came from in every error.
    """
    try:
        store = Store.model_validate(block)
    except ValidationError as exc:
        raise StoreSettingsError(f"{source}:\n{describe(exc)}") from None
    path = (base / store.policies).resolve()
    try:
        raw = path.read_bytes()
    except OSError as exc:
        raise StoreSettingsError(
            f"{source}: policies: cannot read {path} ({exc.strerror or exc}); write the "
            "store's policies (returns, shipping, payment, order status) in a Markdown file"
        ) from None
    if len(raw) > MAX_POLICIES_BYTES:
        raise StoreSettingsError(
            f"{source}: policies: {path} is {len(raw):,} bytes; at most {MAX_POLICIES_BYTES:,}"
        )
    try:
        text = raw.decode("utf-8").strip()
    except UnicodeDecodeError:
        raise StoreSettingsError(f"{source}: policies: {path} is not UTF-8 text") from None
    if not text:
        raise StoreSettingsError(f"{source}: policies: {path} is empty")
    return StoreFile(settings=store, policiesText=text)


def load(path: Path) -> StoreFile:
    """A store's JSON settings file (``storechat serve --store FILE``), policies read."""
    source = str(path)
    try:
        block = json.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise StoreSettingsError(f"{source}: cannot read it ({exc.strerror or exc})") from None
    except (ValueError, UnicodeDecodeError) as exc:
        raise StoreSettingsError(f"{source}: not JSON ({exc})") from None
    if not isinstance(block, dict):
        raise StoreSettingsError(f"{source}: must hold a JSON object of the store's settings")
    return resolve(block, path.parent, source)


def describe(exc: ValidationError) -> str:
    """Each problem on a line of its own: ``  key.sub: what is wrong``."""
    return "\n".join(
        f"  {'.'.join(str(p) for p in err['loc']) or '(store)'}: "
        f"{re.sub(r'^Value error, ', '', err['msg'])}"
        for err in exc.errors()
    )


@functools.cache
def read_store_file(path: str) -> StoreFile:
    """The published settings at ``path`` (a function's ``STORE_FILE``), read once."""
    return StoreFile.model_validate_json(Path(path).read_bytes())


def page_settings(store: Store) -> dict[str, Any]:
    """What the chat page and the widget learn of the store (``config.json``'s ``store``)."""
    return {
        "name": store.name,
        "url": store.url,
        "assistantName": store.assistant.name,
        "greeting": store.assistant.greeting,
        "suggestions": list(store.assistant.suggestions),
        "colors": {"accent": store.colors.accent, "onAccent": store.colors.on_accent},
        "language": store.language,
        "allowedOrigins": list(store.allowedOrigins),
    }
