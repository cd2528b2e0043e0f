"""What every storechat Lambda has in common: code asset, runtime, layer, logs, tracing.

No Docker: the code asset is the ``functions/`` directory's sources (its packages need
nothing beyond the Lambda runtime's boto3 and the Powertools layer, which ships
pydantic) with their bytecode for the runtime's Python (``infra/code_asset.py``), so
``cdk synth`` works on a machine without a container engine.

The Powertools layer is the build of the release ``pyproject.toml`` pins, the one the
tests run: its ARN is read at deploy time from the public SSM parameter Powertools
publishes for each release, so the pin is the only place the version is written.
Functions that search the catalog also get the SQLite layer (``infra/layers.py``) of
the ``sqlean.py`` release pinned in ``pyproject.toml``'s dev extras, the one the tests
exercise, from the wheel whose sha256 :data:`SQLEAN_WHEEL_SHA256` holds.
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Mapping, Sequence
from pathlib import Path

from aws_cdk import (
    Duration,
    RemovalPolicy,
    Size,
)
from aws_cdk import aws_kms as kms
from aws_cdk import aws_lambda as lambda_
from aws_cdk import aws_logs as logs
from aws_cdk import aws_ssm as ssm
from constructs import Construct

import registry
from infra import names
from infra.code_asset import function_code
from infra.config import EnvironmentConfig
from infra.layers import LayerBuildError, WheelLayer, wheel_layer
from infra.nag import BASIC_EXECUTION_POLICY, acknowledge

PYTHON_RUNTIME = lambda_.Runtime.PYTHON_3_13
PYPROJECT = names.ROOT / "pyproject.toml"
POWERTOOLS_DISTRIBUTION = "aws-lambda-powertools"
SQLEAN_DISTRIBUTION = "sqlean.py"
SQLEAN_WHEEL_SHA256: dict[tuple[str, str, str], str] = {
    # (release, architecture, Python): the manylinux_2_28 wheel's sha256
    ("3.50.4.5", "arm64", "3.13"): (
        "3725a94c80a64740489aa5765f9c6d11fa428b7d557c53c2197d51305cbe70a8"
    ),
    ("3.50.4.5", "x86_64", "3.13"): (
        "05eb8d758104339c8d8ecf99238e15bbf6ba07a572f770f1a92589d487a8282c"
    ),
}
"""The one wheel each layer may be built from. A new pin needs its hashes here: the
index publishes them beside each file, or ``pip download sqlean.py==X --no-deps
--only-binary=:all: --implementation cp --python-version 3.13 --platform
manylinux_2_28_aarch64 -d wheels/`` then ``sha256sum wheels/*.whl`` (and ``x86_64``)."""
_PINNED = re.compile(r"^(?P<name>[A-Za-z0-9._-]+)\s*(\[[^\]]*\])?\s*==\s*(?P<version>\d+(\.\d+)+)$")


_RETENTION: dict[int, logs.RetentionDays] = {
    1: logs.RetentionDays.ONE_DAY,
    3: logs.RetentionDays.THREE_DAYS,
    5: logs.RetentionDays.FIVE_DAYS,
    7: logs.RetentionDays.ONE_WEEK,
    14: logs.RetentionDays.TWO_WEEKS,
    30: logs.RetentionDays.ONE_MONTH,
    60: logs.RetentionDays.TWO_MONTHS,
    90: logs.RetentionDays.THREE_MONTHS,
    120: logs.RetentionDays.FOUR_MONTHS,
    150: logs.RetentionDays.FIVE_MONTHS,
    180: logs.RetentionDays.SIX_MONTHS,
    365: logs.RetentionDays.ONE_YEAR,
    400: logs.RetentionDays.THIRTEEN_MONTHS,
    545: logs.RetentionDays.EIGHTEEN_MONTHS,
    731: logs.RetentionDays.TWO_YEARS,
    1096: logs.RetentionDays.THREE_YEARS,
    1827: logs.RetentionDays.FIVE_YEARS,
    2192: logs.RetentionDays.SIX_YEARS,
    2557: logs.RetentionDays.SEVEN_YEARS,
    2922: logs.RetentionDays.EIGHT_YEARS,
    3288: logs.RetentionDays.NINE_YEARS,
    3653: logs.RetentionDays.TEN_YEARS,
}


def retention(days: int) -> logs.RetentionDays:
    return _RETENTION[days]


def removal_policy(config: EnvironmentConfig) -> RemovalPolicy:
    return RemovalPolicy.DESTROY if config.removal_policy == "destroy" else RemovalPolicy.RETAIN


def log_group(
    scope: Construct,
    id: str,
    config: EnvironmentConfig,
    name: str | None = None,
    *,
    retention_days: int | None = None,
    encryption_key: kms.IKey | None = None,
    data_protection_policy: logs.DataProtectionPolicy | None = None,
) -> logs.LogGroup:
    """A log group kept ``log_retention_days`` unless told otherwise."""
    return logs.LogGroup(
        scope,
        id,
        log_group_name=name,
        retention=retention(retention_days or config.log_retention_days),
        encryption_key=encryption_key,
        data_protection_policy=data_protection_policy,
        removal_policy=removal_policy(config),
    )


def pinned_version(
    distribution: str, pyproject: Path = PYPROJECT, *, extra: str | None = None
) -> str | None:
    """The version pyproject.toml pins ``distribution`` to with ``==`` (in ``extra``'s list
    of optional dependencies when given), or None if it does not pin it exactly."""
    project = tomllib.loads(pyproject.read_text(encoding="utf-8"))["project"]
    requirements = (
        project.get("dependencies", [])
        if extra is None
        else project.get("optional-dependencies", {}).get(extra, [])
    )
    for requirement in requirements:
        match = _PINNED.match(requirement.strip())
        if match and _normalized(match.group("name")) == _normalized(distribution):
            return match.group("version")
    return None


def powertools_version(pyproject: Path = PYPROJECT) -> str:
    """The Powertools release pyproject.toml pins with ``==``: the one the tests run."""
    version = pinned_version(POWERTOOLS_DISTRIBUTION, pyproject)
    if version is None:
        raise ValueError(
            f"{pyproject.name} must pin {POWERTOOLS_DISTRIBUTION}==X.Y.Z exactly: the Lambdas "
            "run the layer of that release"
        )
    return version


def sqlean_version(pyproject: Path = PYPROJECT) -> str:
    """The sqlean.py release pyproject.toml's dev extras pin: the one the tests import."""
    version = pinned_version(SQLEAN_DISTRIBUTION, pyproject, extra="dev")
    if version is None:
        raise ValueError(
            f"{pyproject.name} must pin {SQLEAN_DISTRIBUTION}==X.Y.Z exactly in its dev "
            "extras: the search functions' SQLite layer is built from that release"
        )
    return version


def sqlean_wheel_sha256(version: str, arch: str, python: str) -> str:
    """The pinned wheel's sha256, or a :class:`LayerBuildError` saying how to add it."""
    try:
        return SQLEAN_WHEEL_SHA256[(version, arch, python)]
    except KeyError:
        raise LayerBuildError(
            f"no sha256 for the {SQLEAN_DISTRIBUTION}=={version} wheel for {arch} and Python "
            f"{python}: add it to infra/runtime.py's SQLEAN_WHEEL_SHA256 (its docstring says "
            "how to get it)"
        ) from None


def python_version(runtime: lambda_.Runtime = PYTHON_RUNTIME) -> str:
    """``3.13`` for python3.13: the version pip downloads layer wheels for."""
    return runtime.name.removeprefix("python")


def _normalized(distribution: str) -> str:
    return re.sub(r"[-_.]+", "-", distribution).lower()


def powertools_layer_parameter(architecture: str, version: str) -> str:
    """The public SSM parameter that holds the ARN of one Powertools release's layer.

    Powertools publishes one per release, architecture and Python runtime, in every
    Region it publishes the layer to, for example
    ``/aws/service/powertools/python/arm64/python3.13/3.37.0``.
    """
    return f"/aws/service/powertools/python/{architecture}/{PYTHON_RUNTIME.name}/{version}"


def architecture(config: EnvironmentConfig) -> lambda_.Architecture:
    return (
        lambda_.Architecture.ARM_64
        if config.lambda_architecture == "arm64"
        else (lambda_.Architecture.X86_64)
    )


class LambdaFactory:
    """Builds storechat Lambdas with one code asset, one layer and the same defaults.

    The SQLite layer for the functions that search (:attr:`search_layer`) is made on
    first use, once per stack.
    """

    def __init__(self, scope: Construct, config: EnvironmentConfig) -> None:
        self._config = config
        self._scope = scope
        self._search_layer: lambda_.LayerVersion | None = None
        self.code = function_code(python_version())
        self.powertools_parameter = powertools_layer_parameter(
            config.lambda_architecture, powertools_version()
        )
        # A template parameter resolved by CloudFormation at deploy time: synth needs no
        # AWS account, and a pinned release without a published layer stops the deploy.
        self.layer = lambda_.LayerVersion.from_layer_version_arn(
            scope,
            "PowertoolsLayer",
            ssm.StringParameter.value_for_string_parameter(scope, self.powertools_parameter),
        )

    @property
    def search_layer(self) -> lambda_.LayerVersion:
        """sqlean.py (SQLite with FTS5) for this stack's architecture and Python."""
        if self._search_layer is None:
            version, arch = sqlean_version(), self._config.lambda_architecture
            wheels = WheelLayer(
                f"{SQLEAN_DISTRIBUTION}=={version}",
                arch,
                python_version(),
                sqlean_wheel_sha256(version, arch, python_version()),
            )
            self._search_layer = wheel_layer(
                self._scope,
                "SqliteLayer",
                layer=wheels,
                runtime=PYTHON_RUNTIME,
                architecture=architecture(self._config),
                description=(
                    f"{wheels.requirement}: SQLite with FTS5 for the catalog search "
                    f"({self._config.lambda_architecture}, {PYTHON_RUNTIME.name})"
                ),
            )
        return self._search_layer

    def declared(
        self,
        scope: Construct,
        spec: registry.Function,
        *,
        environment: Mapping[str, str] | None = None,
        layers: Sequence[lambda_.ILayerVersion] = (),
        reserved_concurrency: int | None = None,
        acknowledgments: Mapping[str, str] | None = None,
    ) -> lambda_.Function:
        """The Lambda ``spec`` declares in the registry: its id, handler, description,
        timeout, memory, ``/tmp`` and tracing are the registry's, never restated."""
        return self.function(
            scope,
            spec.construct_id,
            handler=spec.handler,
            description=spec.description,
            timeout=Duration.seconds(spec.timeout_s),
            memory_mb=spec.memory_mb,
            ephemeral_storage_mb=spec.ephemeral_storage_mb,
            subsegments=spec.subsegments,
            environment=environment,
            layers=layers,
            reserved_concurrency=reserved_concurrency,
            acknowledgments=acknowledgments,
        )

    def function(
        self,
        scope: Construct,
        id: str,
        *,
        handler: str,
        description: str,
        timeout: Duration,
        memory_mb: int,
        environment: Mapping[str, str] | None = None,
        layers: Sequence[lambda_.ILayerVersion] = (),
        reserved_concurrency: int | None = None,
        ephemeral_storage_mb: int | None = None,
        acknowledgments: Mapping[str, str] | None = None,
        subsegments: bool = False,
    ) -> lambda_.Function:
        """A storechat Lambda; ``acknowledgments`` add to (or restate, with a reason that
        covers more) the cdk-nag findings every function has."""
        config = self._config
        function = lambda_.Function(
            scope,
            id,
            description=description,
            runtime=PYTHON_RUNTIME,
            architecture=architecture(config),
            code=self.code,
            handler=handler,
            layers=[self.layer, *layers],
            timeout=timeout,
            memory_size=memory_mb,
            reserved_concurrent_executions=reserved_concurrency,
            ephemeral_storage_size=(
                Size.mebibytes(ephemeral_storage_mb) if ephemeral_storage_mb else None
            ),
            tracing=lambda_.Tracing.ACTIVE,
            log_group=log_group(scope, f"{id}Logs", config),
            environment={
                "POWERTOOLS_SERVICE_NAME": names.SERVICE_NAME,
                "POWERTOOLS_METRICS_NAMESPACE": config.metric_namespace,
                "POWERTOOLS_LOG_LEVEL": config.log_level,
                # Responses carry shoppers' words and can pass X-Ray's 64 KiB segment
                # limit; the state machine's execution log already records them.
                "POWERTOOLS_TRACER_CAPTURE_RESPONSE": "false",
                # Active tracing records every invocation; the X-Ray SDK (and its
                # cold-start cost) only where subsegments pay (registry).
                "POWERTOOLS_TRACE_DISABLED": "false" if subsegments else "true",
                **(environment or {}),
            },
        )
        acknowledge(
            function,
            {
                BASIC_EXECUTION_POLICY: (
                    "The AWS managed basic execution policy only lets the function write its "
                    "own CloudWatch logs."
                ),
                "AwsSolutions-IAM5[Resource::*]": (
                    "X-Ray's PutTraceSegments/PutTelemetryRecords support no resource-level "
                    "permissions, so active tracing needs Resource '*'."
                ),
                "AwsSolutions-L1": (
                    "Pinned to python3.13 to match the Powertools layer build it loads "
                    "(AWSLambdaPowertoolsPythonV3-python313); the runtime and the layer name "
                    "change together."
                ),
                **(acknowledgments or {}),
            },
        )
        return function
