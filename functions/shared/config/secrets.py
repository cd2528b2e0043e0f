"""A Secrets Manager secret's text, read the same way by every function that holds one.

The stack creates each secret blank (a single space: infra/tools.py, infra/webhooks.py,
infra/catalog_sync.py) and the operator puts the value. A blank secret is "not
configured", never a credential that is the empty string, and :func:`read_secret` says so
with ``None``; what that means is each function's own to say, in its own words (the sync
fails its run, a webhook's route answers 404, the reviews tool tells the model it is not
configured).

A secret that cannot be read (missing, no permission) raises Powertools'
``GetParameterError`` with the service's reason, for the function's log; a caller that
hands its errors to a model or a shopper keeps only that the read failed.
"""

from __future__ import annotations

from typing import Final

from aws_lambda_powertools.utilities import parameters

SECRET_MAX_AGE_S: Final = 300
"""Powertools keeps a value this long: a secret the operator puts or rotates is read within
five minutes, without a deploy or a cold start."""


def read_secret(arn: str, *, max_age_s: int = SECRET_MAX_AGE_S) -> str | None:
    """The secret's text without the white space around it, or ``None`` when it is blank."""
    value = parameters.get_secret(arn, max_age=max_age_s)
    text = value.decode("utf-8") if isinstance(value, bytes) else str(value)
    return text.strip() or None
