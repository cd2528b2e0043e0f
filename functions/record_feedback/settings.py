"""Configuration of the feedback route's function, read once at cold start."""

from __future__ import annotations

import functools
import json
from typing import Annotated

from pydantic import BaseModel, ConfigDict, Field, field_validator

from shared.config.environment import environ


class Settings(BaseModel):
    model_config = ConfigDict(extra="ignore", frozen=True)

    sessions_table: Annotated[str, Field(alias="SESSIONS_TABLE_NAME", min_length=1)]
    allowed_origins: Annotated[tuple[str, ...], Field(alias="ALLOWED_ORIGINS", min_length=1)]
    """The pages the API answers (JSON list): the response names the caller's if it is one."""
    # Lambda sets AWS_REGION; passed to the client, since boto3 reads only os.environ.
    region: Annotated[str | None, Field(alias="AWS_REGION")] = None

    @field_validator("allowed_origins", mode="before")
    @classmethod
    def _json_list(cls, value: object) -> object:
        return tuple(json.loads(value)) if isinstance(value, str) else value


@functools.cache
def get_settings() -> Settings:
    """Fails at cold start when the table or the origins are not configured: fail closed."""
    return Settings.model_validate(dict(environ()))
