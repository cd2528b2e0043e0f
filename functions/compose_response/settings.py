"""Configuration of the response builder, read once at cold start."""

from __future__ import annotations

import functools
import re
from typing import Annotated

from pydantic import BaseModel, ConfigDict, Field

from shared.config.environment import environ
from shared.products.currency import DEFAULT_CURRENCY, StoreCurrency
from shared.products.weight import DEFAULT_WEIGHT_UNIT, StoreWeightUnit
from shared.text.contacts import OwnContacts


class Settings(BaseModel):
    model_config = ConfigDict(extra="ignore", populate_by_name=True)

    store_currency: Annotated[StoreCurrency, Field(alias="STORE_CURRENCY")] = DEFAULT_CURRENCY
    """The currency of the catalog's prices (ISO 4217): the fact check compares and
    corrects every amount in it, and rewrites an amount in any other into it."""

    weight_unit: Annotated[StoreWeightUnit, Field(alias="STORE_WEIGHT_UNIT")] = DEFAULT_WEIGHT_UNIT
    """The store's weight unit (kg or lb): a corrected weight says the catalog's value in it."""

    own_contacts: Annotated[str, Field(alias="STORE_OWN_CONTACTS")] = ""
    """The store's own links and contacts, which an answer may hold: its storefront's
    address or domain, e-mail addresses, phone numbers, separated by commas or spaces
    (``shop.example, help@shop.example, +1 555 0100``). Empty, none is: every link, e-mail
    address and phone number in an answer goes with its sentence, but the pages of the
    catalog's own products."""

    @property
    def own(self) -> OwnContacts:
        return OwnContacts.of(re.split(r"[,;\n]", self.own_contacts))

    catalog_table_name: Annotated[str | None, Field(alias="CATALOG_TABLE_NAME")] = None
    """Where products that an answer cites from earlier turns are read fresh; unset (a
    store's Products API has no read by id), such citations cannot be vouched for."""
    store_file: Annotated[str | None, Field(alias="STORE_FILE")] = None
    """The store's settings (``shared.store.settings.StoreFile``): the products' page and cart
    links are made from its storefront and platform; unset, products have no links."""
    # Lambda sets AWS_REGION; passed to the client, since boto3 reads only os.environ.
    region: Annotated[str | None, Field(alias="AWS_REGION")] = None


@functools.cache
def get_settings() -> Settings:
    return Settings.model_validate(environ())
