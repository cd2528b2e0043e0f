"""Configuration of the Converse function, read once at cold start."""

from __future__ import annotations

import functools
from typing import Annotated

from pydantic import ConfigDict, Field, field_validator

from shared.config.environment import environ
from shared.products.currency import DEFAULT_CURRENCY, StoreCurrency
from shared.tools.guardrail import GuardrailSettings

# Recent Claude models on Bedrock are called through an inference profile, not on demand.
DEFAULT_BEDROCK_MODEL = "us.anthropic.claude-sonnet-4-5-20250929-v1:0"
MIN_REPLY_TOKENS = 64
MAX_REPLY_TOKENS = 8192
"""The range of a reply's cap (Converse's ``maxTokens``), here and in ``cdk.json``."""


class Settings(GuardrailSettings):
    """The model, how it is called, and the guardrail Converse applies (``region``,
    ``guardrail_id`` and ``guardrail_version`` come from :class:`GuardrailSettings`)."""

    model_config = ConfigDict(extra="ignore", populate_by_name=True)

    provider: Annotated[str, Field(alias="MODEL_PROVIDER")]
    """``bedrock`` or ``replay:PATH``; ``offline`` only in the local runner. No default:
    a function deployed without it fails closed instead of answering with a stand-in."""
    model_id: Annotated[str, Field(alias="MODEL_ID")] = DEFAULT_BEDROCK_MODEL
    max_tokens: Annotated[
        int, Field(alias="MAX_TOKENS", ge=MIN_REPLY_TOKENS, le=MAX_REPLY_TOKENS)
    ] = 1024
    temperature: Annotated[float, Field(alias="TEMPERATURE", ge=0, le=1)] = 0.2
    prompt_caching: Annotated[bool, Field(alias="PROMPT_CACHING")] = False
    store_currency: Annotated[StoreCurrency, Field(alias="STORE_CURRENCY")] = DEFAULT_CURRENCY
    """The currency of the catalog's prices: the catalog tool's price fields name it."""
    store_file: Annotated[str, Field(alias="STORE_FILE", min_length=1)]
    """The store's settings and policies (``shared.store.settings.StoreFile``), which the system
    prompt is made of. No default: a function deployed without them fails closed rather
    than speak for no store."""

    @field_validator("provider")
    @classmethod
    def _known_provider(cls, value: str) -> str:
        if value in ("offline", "bedrock") or (value.startswith("replay:") and len(value) > 7):
            return value
        raise ValueError("MODEL_PROVIDER must be offline, bedrock or replay:PATH")


@functools.cache
def get_settings() -> Settings:
    return Settings.model_validate(environ())
