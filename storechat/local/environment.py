"""What the handlers of one local system read as their environment, and what they forget.

A deployed function reads its settings from the environment Lambda gives it, once per
container. Locally every function runs in this process, so a :class:`LocalStorechat`
builds its functions' variables here and hands them to each handler call through
``shared.config.environment`` (``os.environ`` is never written), and clears what a warm
container would have kept, so that a new local system starts as a cold one.
"""

from __future__ import annotations

import os
import sys
from collections import ChainMap
from collections.abc import Mapping
from pathlib import Path

from pydantic import ValidationError

import registry
from converse.metering import DEFAULT_STAND_IN
from converse.settings import DEFAULT_BEDROCK_MODEL
from shared.config.pricing import USAGE_PRICE_FIELDS, PriceListError, TokenPrices, token_prices
from shared.tools.guardrail import GuardrailSettings
from storechat.offline import OFFLINE_MODEL_ID
from storechat.redteam.obedient import OBEDIENT_MODEL_ID
from storechat.settings import BUDGET_VARIABLE, SettingsError


def model_environment(model: str) -> dict[str, str]:
    """The Converse function's variables for a ``--model`` choice."""
    if model == "offline":
        return {"MODEL_PROVIDER": "offline", "MODEL_ID": OFFLINE_MODEL_ID}
    if model == "obedient":
        # Installed by the local runner, as the offline model is.
        return {"MODEL_PROVIDER": "offline", "MODEL_ID": OBEDIENT_MODEL_ID}
    if model.startswith("replay:"):
        path = Path(model.removeprefix("replay:")).expanduser().resolve()
        return {"MODEL_PROVIDER": f"replay:{path}", "MODEL_ID": "storechat.replay"}
    if model == "bedrock" or model.startswith("bedrock:"):
        env = {"MODEL_PROVIDER": "bedrock"}
        if model.startswith("bedrock:"):
            env["MODEL_ID"] = model.removeprefix("bedrock:")
        return env
    raise ValueError(
        f"unknown model {model!r}: use offline, obedient, replay:PATH or bedrock[:MODEL_ID]"
    )


def priced_model(model: str) -> tuple[str, bool]:
    """The model whose list prices ``--model``'s tokens are charged at, and whether it is
    a stand-in's (``offline``, ``replay:PATH``: the model they stand in for) rather than
    the model's own (``bedrock[:MODEL_ID]``)."""
    kind, _, given = model.partition(":")
    stand_in = kind in ("offline", "obedient", "replay")
    return (DEFAULT_STAND_IN if stand_in else (given or DEFAULT_BEDROCK_MODEL)), stand_in


def model_token_prices(model: str, *, budgeted: bool) -> TokenPrices:
    """The prices the state machine adds this model's tokens to the day's spend at.

    A model the price list does not hold cannot have a budget (raises
    :class:`~storechat.settings.SettingsError` saying so); without one, its tokens are
    counted at nothing.
    """
    model_id, _ = priced_model(model)
    try:
        return token_prices(model_id)
    except PriceListError as exc:
        if budgeted:
            raise SettingsError(
                f"{BUDGET_VARIABLE} needs the model's token prices, and {exc}"
            ) from exc
        return TokenPrices(model_id, "unpriced", {key: 0.0 for key in USAGE_PRICE_FIELDS})


def function_variables(
    model: str,
    *,
    region: str,
    catalog_table: str,
    steps_table: str,
    store_file: str,
    log_level: str,
    metrics_namespace: str,
    extra: Mapping[str, str] | None = None,
) -> dict[str, str]:
    """The variables the stack would give the functions, as this local system sets them.

    ``store_file`` is the store's settings as the functions read them (a stack's layer).
    ``extra`` (a caller's ``env=``) comes last and wins.
    """
    return {
        **model_environment(model),
        "AWS_REGION": region,
        "AWS_DEFAULT_REGION": region,
        "CATALOG_TABLE_NAME": catalog_table,
        "STEPS_TABLE_NAME": steps_table,
        "STORE_FILE": store_file,
        "POWERTOOLS_SERVICE_NAME": "storechat",
        "POWERTOOLS_TRACE_DISABLED": "true",
        "POWERTOOLS_METRICS_DISABLED": "true",
        "POWERTOOLS_METRICS_NAMESPACE": metrics_namespace,
        "POWERTOOLS_LOG_LEVEL": log_level,
        **(extra or {}),
    }


def guardrail_of(variables: Mapping[str, str]) -> GuardrailSettings:
    """The guardrail the functions will apply (``BEDROCK_GUARDRAIL_ID``, ``..._VERSION``),
    checked before anything starts: a bad value raises
    :class:`~storechat.settings.SettingsError` naming the variable."""
    try:
        return GuardrailSettings.model_validate(dict(variables))
    except ValidationError as exc:
        error = exc.errors(include_url=False)[0]
        name = str(error["loc"][0]) if error["loc"] else "BEDROCK_GUARDRAIL_ID"
        raise SettingsError(
            f"{name} must be a Bedrock guardrail's id (lower-case letters and digits) and "
            "BEDROCK_GUARDRAIL_VERSION a version number or DRAFT"
        ) from None


def layered(variables: Mapping[str, str]) -> Mapping[str, str]:
    """``variables`` over the process environment, read live and never written.

    The shell's variables still show through (a developer's ``BRAVE_API_KEY``, say),
    as they did when the local runner wrote its own into ``os.environ``.
    """
    return ChainMap(dict(variables), os.environ)


def forget_warm_state() -> None:
    """Drop what a warm container keeps between calls, as a new container would not have it.

    Each function's ``get_settings`` (by the ``<key>.settings`` convention; a module not
    imported yet has nothing cached), what each handler declares it keeps
    (:data:`~storechat.local.lambdas.WARM_STATE_HOOK`: the Converse function's model
    provider, the catalog tool's source and search snapshot, the response builder's
    catalog table), the live trace writer's clients (made for the moto of the system
    before) and the guardrail's (with the credentials of the system before).
    """
    from shared.tools import guardrail
    from shared.trace.step_writer import writer
    from storechat.local import lambdas

    functions = registry.FUNCTIONS
    for function in functions:
        settings = sys.modules.get(f"{function.key}.settings")
        if settings is not None:
            settings.get_settings.cache_clear()
    lambdas.forget_warm_state(functions)
    writer().forget()
    guardrail.forget()
