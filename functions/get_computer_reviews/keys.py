"""Where the Brave Search key comes from.

Deployed, the key lives in Secrets Manager, read by :func:`shared.config.secrets.read_secret`,
which keeps it five minutes: a rotated key is picked up without a cold start. Locally,
the key can come from the environment. The key itself is never logged or put into an
exception message."""

from __future__ import annotations

from aws_lambda_powertools.utilities import parameters

from get_computer_reviews.settings import Settings
from shared.config.secrets import read_secret
from shared.runtime.errors import FailureKind, UpstreamError
from shared.runtime.observability import logger


def get_brave_key(settings: Settings) -> str | None:
    """The Brave key, or ``None`` when this deployment has none configured."""
    if settings.brave_api_key_secret_arn:
        try:
            return read_secret(settings.brave_api_key_secret_arn)
        except parameters.GetParameterError as exc:
            # The Powertools message can echo the service response; keep only the type.
            logger.warning(
                "could not read the Brave key secret", extra={"error": type(exc).__name__}
            )
            raise UpstreamError(
                FailureKind.SECRET_UNAVAILABLE, "could not read the Brave key secret"
            ) from None
    if settings.brave_api_key is not None:
        return settings.brave_api_key.get_secret_value()
    return None
