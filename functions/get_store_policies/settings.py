"""Configuration of the policies tool, read once at cold start."""

from __future__ import annotations

import functools
from typing import Annotated

from pydantic import BaseModel, ConfigDict, Field

from shared.config.environment import environ


class Settings(BaseModel):
    model_config = ConfigDict(extra="ignore", frozen=True)

    store_file: Annotated[str | None, Field(alias="STORE_FILE")] = None
    """The store's settings with its policies' text (``shared.store.settings.StoreFile``); unset,
    the tool answers that the policies are not set up."""


@functools.cache
def get_settings() -> Settings:
    return Settings.model_validate(dict(environ()))
