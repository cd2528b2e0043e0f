"""Build the CDK app for one environment, from cdk.json whether or not the CDK CLI runs it.

The CLI reads cdk.json and hands its context (plus ``-c`` values) to ``app.py``;
``python app.py`` gets nothing from anyone, so cdk.json's context is passed to
the App here too. Values the CLI sets win over it, as they would in the CLI.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import Any

import aws_cdk as cdk
from cdk_nag import AwsSolutionsChecks

from infra import names
from infra.config import EnvironmentConfig, load_config, read_cdk_json_context
from infra.stack import StorechatStack


def create_app(
    *,
    overrides: Mapping[str, Any] | None = None,
    outdir: str | None = None,
    environ: Mapping[str, str] | None = None,
) -> tuple[cdk.App, StorechatStack]:
    """The app with the stack of the chosen environment (``-c env=NAME``), checked by cdk-nag.

    ``overrides`` are context values that win over cdk.json (``python app.py -c k=v``
    and tests use them). Raises :class:`infra.config.ConfigError` for an unknown
    environment or invalid settings.
    """
    environ = os.environ if environ is None else environ
    context = {**read_cdk_json_context(), **(overrides or {})}
    if outdir is None and not environ.get("CDK_OUTDIR"):
        outdir = str(names.ROOT / "cdk.out")
    app = cdk.App(context=context, outdir=outdir)
    config: EnvironmentConfig = load_config(
        {
            key: app.node.try_get_context(key)
            for key in (names.CONTEXT_CONFIG, names.CONTEXT_ALARM_EMAILS)
        },
        app.node.try_get_context(names.CONTEXT_ENV),
        environ,
    )
    stack = StorechatStack(app, config=config)
    # Any finding not acknowledged (with its reason) next to the construct that
    # causes it stops the synth.
    cdk.Validations.of(app).add_plugins(AwsSolutionsChecks(app))
    return app, stack
