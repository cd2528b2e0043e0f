"""Where the Brave Search key comes from.

Deployed, the key lives in Secrets Manager and Powertools caches it for five
minutes, so a rotated key is picked up without a cold start. Locally, the key
can come from the environment. The key itself is never logged or put into an
exception message.
"""

from __future__ import annotations

from aws_lambda_powertools.utilities import parameters

from get_computer_reviews.settings import Settings
from shared.errors import FailureKind, UpstreamError
from shared.observability import logger

SECRET_MAX_AGE_S = 300


def get_brave_key(settings: Settings) -> str | None:
    """The Brave key, or ``None`` when this deployment has none configured."""
    if settings.brave_api_key_secret_arn:
        try:
            secret = parameters.get_secret(
                settings.brave_api_key_secret_arn, max_age=SECRET_MAX_AGE_S
            )
        except parameters.GetParameterError as exc:
            # The Powertools message can echo the service response; keep only the type.
            logger.warning(
                "could not read the Brave key secret", extra={"error": type(exc).__name__}
            )
            raise UpstreamError(
                FailureKind.SECRET_UNAVAILABLE, "could not read the Brave key secret"
            ) from None
        if isinstance(secret, bytes):
            secret = secret.decode("utf-8")
        return secret.strip() or None
    if settings.brave_api_key is not None:
        return settings.brave_api_key.get_secret_value()
    return None
