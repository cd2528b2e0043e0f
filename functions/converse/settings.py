"""Configuration of the Converse function, read once at cold start."""

from __future__ import annotations

import functools
from typing import Annotated

from pydantic import BaseModel, ConfigDict, Field, field_validator

from shared.currency import DEFAULT_CURRENCY, StoreCurrency
from shared.environment import environ

# Recent Claude models on Bedrock are called through an inference profile, not on demand.
DEFAULT_BEDROCK_MODEL = "us.anthropic.claude-sonnet-4-5-20250929-v1:0"


class Settings(BaseModel):
    model_config = ConfigDict(extra="ignore", populate_by_name=True)

    provider: Annotated[str, Field(alias="MODEL_PROVIDER")]
    """``bedrock`` or ``replay:PATH``; ``offline`` only in the local runner. No default:
    a function deployed without it fails closed instead of answering with a stand-in."""
    model_id: Annotated[str, Field(alias="MODEL_ID")] = DEFAULT_BEDROCK_MODEL
    region: Annotated[str | None, Field(alias="BEDROCK_REGION")] = None
    max_tokens: Annotated[int, Field(alias="MAX_TOKENS", ge=64, le=8192)] = 1024
    temperature: Annotated[float, Field(alias="TEMPERATURE", ge=0, le=1)] = 0.2
    prompt_caching: Annotated[bool, Field(alias="PROMPT_CACHING")] = False
    guardrail_id: Annotated[str | None, Field(alias="GUARDRAIL_ID")] = None
    guardrail_version: Annotated[str, Field(alias="GUARDRAIL_VERSION")] = "DRAFT"
    store_currency: Annotated[StoreCurrency, Field(alias="STORE_CURRENCY")] = DEFAULT_CURRENCY
    """The currency of the catalog's prices: the catalog tool's price fields name it."""
    store_file: Annotated[str, Field(alias="STORE_FILE", min_length=1)]
    """The store's settings and policies (``shared.store.StoreFile``), which the system
    prompt is made of. No default: a function deployed without them fails closed rather
    than speak for no store."""

    @field_validator("provider")
    @classmethod
    def _known_provider(cls, value: str) -> str:
        if value in ("offline", "bedrock") or (value.startswith("replay:") and len(value) > 7):
            return value
        raise ValueError("MODEL_PROVIDER must be offline, bedrock or replay:PATH")

    @field_validator("region", "guardrail_id", mode="before")
    @classmethod
    def _blank_is_none(cls, value: object) -> object:
        return value or None


@functools.cache
def get_settings() -> Settings:
    return Settings.model_validate(environ())
