"""What the functions read from their environment: a variable present but blank (as templates
and .env files leave them) is "not configured", never a secret, address or region that is
the empty string (``shared.config.environment.BlankIsUnset``)."""

from __future__ import annotations

from typing import Annotated, Any

import pytest
from pydantic import BaseModel, Field, SecretStr, ValidationError

from catalog_sync.settings import Settings as SyncSettings
from catalog_webhook.settings import Settings as WebhookSettings
from get_computer_reviews.settings import Settings as ReviewsSettings
from shared.config.environment import BlankIsUnset

ARN = "arn:aws:secretsmanager:eu-west-1:123456789012:secret:admin-AbCdEf"
SYNC = {
    "CATALOG_TABLE_NAME": "catalog",
    "SYNC_PLATFORM": "shopify",
    "SYNC_API_URL": "https://shop.myshopify.com",
    "ADMIN_API_SECRET_ARN": ARN,
}
WEBHOOK = {"CATALOG_TABLE_NAME": "catalog", "SYNC_TABLE_NAME": "sync"}


class _Probe(BaseModel):
    region: Annotated[
        str | None, Field(alias="REGION", pattern=r"^[a-z]{2}-[a-z]+-\d$"), BlankIsUnset
    ] = None
    secret: Annotated[SecretStr | None, Field(alias="SECRET"), BlankIsUnset] = None


@pytest.mark.parametrize("blank", ["", " ", "\t\n  "])
def test_a_blank_variable_reads_as_unset(blank: str) -> None:
    # Given variables present but blank, When they are read, Then it is as if they were not set
    assert _Probe.model_validate({"REGION": blank, "SECRET": blank}) == _Probe()


def test_a_set_variable_is_read_as_it_is_and_still_checked() -> None:
    # Given variables with a value, When they are read, Then each value is kept as it stands
    probe = _Probe.model_validate({"REGION": "eu-west-1", "SECRET": " s3cret "})
    assert probe.region == "eu-west-1"
    assert probe.secret is not None and probe.secret.get_secret_value() == " s3cret "
    # And a value the field's pattern refuses is still refused
    with pytest.raises(ValidationError, match="REGION"):
        _Probe.model_validate({"REGION": "nowhere"})


@pytest.mark.parametrize(
    ("settings", "required", "blank"),
    [
        (SyncSettings, SYNC, ["STORE_URL", "AWS_REGION"]),
        (
            WebhookSettings,
            WEBHOOK,
            [
                "STORE_URL",
                "AWS_REGION",
                "SHOPIFY_WEBHOOK_SECRET_ARN",
                "WOOCOMMERCE_WEBHOOK_SECRET_ARN",
                "SHOPIFY_WEBHOOK_SECRET",
                "WOOCOMMERCE_WEBHOOK_SECRET",
            ],
        ),
        (
            ReviewsSettings,
            {},
            ["BRAVE_API_KEY_SECRET_ARN", "BRAVE_API_KEY", "BEDROCK_GUARDRAIL_ID", "BEDROCK_REGION"],
        ),
    ],
    ids=["catalog_sync", "catalog_webhook", "get_computer_reviews"],
)
def test_each_functions_optional_variables_left_blank_are_not_configured(
    settings: type[BaseModel], required: dict[str, str], blank: list[str]
) -> None:
    # Given a function's environment with its optional variables present but blank
    environ: dict[str, Any] = {**required, **dict.fromkeys(blank, "  ")}

    # When the function reads its settings
    read = settings.model_validate(environ)

    # Then they are the settings of an environment without those variables
    assert read == settings.model_validate(required)
