"""Configuration for the book tool, read from the environment once per cold start.

This is the only module that reads the environment (``shared.config.environment.environ``);
everything else receives a :class:`Settings`, so tests can build one directly.
"""

from __future__ import annotations

import functools
from typing import Annotated

from pydantic import ConfigDict, Field

from shared.config.environment import environ
from shared.tools.guardrail import GuardrailSettings


class Settings(GuardrailSettings):
    """The tool's settings, and the guardrail that screens what it found."""

    model_config = ConfigDict(extra="ignore", frozen=True)

    openlibrary_base_url: Annotated[
        str, Field(alias="OPENLIBRARY_BASE_URL", default="https://openlibrary.org", min_length=1)
    ]
    http_timeout_s: Annotated[float, Field(alias="TOOL_HTTP_TIMEOUT_S", default=4.0, gt=0)]


@functools.cache
def get_settings() -> Settings:
    return Settings.model_validate(dict(environ()))
