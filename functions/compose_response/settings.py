"""Configuration of the response builder, read once at cold start."""

from __future__ import annotations

import functools
from typing import Annotated

from pydantic import BaseModel, ConfigDict, Field, field_validator

from compose_response.money import CURRENCIES, DEFAULT_CURRENCY
from shared.environment import environ


class Settings(BaseModel):
    model_config = ConfigDict(extra="ignore", populate_by_name=True)

    store_currency: Annotated[str, Field(alias="STORE_CURRENCY")] = DEFAULT_CURRENCY
    """The currency of the catalog's prices (ISO 4217): the fact check compares and
    corrects every amount in it, and rewrites an amount in any other into it."""

    catalog_table_name: Annotated[str | None, Field(alias="CATALOG_TABLE_NAME")] = None
    """Where products that an answer cites from earlier turns are read fresh; unset (a
    store's Products API has no read by id), such citations cannot be vouched for."""
    # Lambda sets AWS_REGION; passed to the client, since boto3 reads only os.environ.
    region: Annotated[str | None, Field(alias="AWS_REGION")] = None

    @field_validator("store_currency")
    @classmethod
    def _known(cls, value: str) -> str:
        code = value.strip().upper()
        if code not in CURRENCIES:
            raise ValueError(f"must be one of {', '.join(sorted(CURRENCIES))}, got {value!r}")
        return code


@functools.cache
def get_settings() -> Settings:
    return Settings.model_validate(environ())
