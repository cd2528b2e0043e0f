"""One synthesized cloud assembly per environment per session, made by ``python app.py``.

Synthesis is slow (tens of seconds), so every infrastructure test shares the
assembly of its environment. Running the real entry point in a subprocess also
proves that ``python app.py`` reads cdk.json by itself and that cdk-nag passes:
the app fails to synthesize on any unacknowledged finding.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

import registry
from infra import names
from infra.config import EnvironmentConfig, load_config, read_cdk_json_context

# dev is synthesized for a known account and region (as the CDK CLI does when
# credentials are configured), prod environment-agnostic (as in CI): cdk-nag and
# cfn-lint must pass both ways.
SYNTH_ENVIRONMENTS: dict[str, dict[str, str]] = {
    "dev": {"CDK_DEFAULT_ACCOUNT": "123456789012", "CDK_DEFAULT_REGION": "us-east-1"},
    "prod": {},
}
PROD_ALARM_EMAIL = "alarms@example.com"
SYNTH_CONTEXT: dict[str, dict[str, str]] = {
    "dev": {},
    # prod requires someone to receive its alarms (alarms.require_destination); cdk.json
    # names nobody, so the synth names one the way an operator may: on the command line.
    "prod": {names.CONTEXT_ALARM_EMAILS: PROD_ALARM_EMAIL},
}


def app_environment(extra: dict[str, str]) -> dict[str, str]:
    """The environment for ``python app.py``: no CDK CLI or AWS settings from the caller,
    and the project's Node.js first on PATH, as the Makefile and ``npx cdk`` put it."""
    env = {key: value for key, value in os.environ.items() if not key.startswith(("CDK_", "AWS_"))}
    path = os.pathsep.join([str(names.NODE_BIN_DIR), env.get("PATH", os.defpath)])
    return {**env, "PATH": path, **extra}


def run_app(
    *args: str, extra_env: dict[str, str] | None = None, timeout: float = 600
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "app.py", *args],
        cwd=names.ROOT,
        env=app_environment(extra_env or {}),
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
    )


@dataclass(frozen=True)
class Synthesized:
    env: str
    outdir: Path
    config: EnvironmentConfig
    template: dict[str, Any]
    stderr: str = ""
    """What ``python app.py`` wrote on stderr (jsii's warnings among it)."""

    @property
    def template_path(self) -> Path:
        return self.outdir / f"{names.stack_name(self.env)}.template.json"

    @property
    def resources(self) -> dict[str, dict[str, Any]]:
        resources: dict[str, dict[str, Any]] = self.template["Resources"]
        return resources

    def of_type(self, resource_type: str) -> dict[str, dict[str, Any]]:
        return {k: r for k, r in self.resources.items() if r["Type"] == resource_type}

    def one(self, resource_type: str) -> tuple[str, dict[str, Any]]:
        found = self.of_type(resource_type)
        assert len(found) == 1, f"expected one {resource_type}, found {sorted(found)}"
        return next(iter(found.items()))

    def props(self, logical_id: str) -> dict[str, Any]:
        properties: dict[str, Any] = self.resources[logical_id]["Properties"]
        return properties

    def functions_by_handler(self) -> dict[str, str]:
        """Lambda handler -> logical id, for the project's own functions."""
        return {
            r["Properties"]["Handler"]: logical_id
            for logical_id, r in self.of_type("AWS::Lambda::Function").items()
            if r["Properties"].get("Handler", "").endswith(".lambda_handler")
        }

    def function_id(self, key: str) -> str:
        return self.functions_by_handler()[registry.functions_by_key()[key].handler]

    def read(self, name: str) -> Any:
        return json.loads((self.outdir / name).read_text(encoding="utf-8"))


@pytest.fixture(scope="session")
def synthesize(tmp_path_factory: pytest.TempPathFactory) -> Callable[[str], Synthesized]:
    """The assembly of an environment, synthesized on first use and shared after."""
    made: dict[str, Synthesized] = {}

    def get(env: str) -> Synthesized:
        if env not in made:
            outdir = tmp_path_factory.mktemp(f"cdk-{env}")
            extra = SYNTH_ENVIRONMENTS[env]
            # The default environment is synthesized exactly as `python app.py` runs:
            # no arguments, so it also proves cdk.json's "env" default is read.
            default = read_cdk_json_context()[names.CONTEXT_ENV]
            args = [] if env == default else ["-c", f"env={env}"]
            context = SYNTH_CONTEXT[env]
            args += [arg for key, value in context.items() for arg in ("-c", f"{key}={value}")]
            result = run_app(*args, extra_env={**extra, "CDK_OUTDIR": str(outdir)})
            assert result.returncode == 0, (
                f"python app.py {' '.join(args)} failed:\n{result.stdout[-4000:]}\n"
                f"{result.stderr[-8000:]}"
            )
            made[env] = Synthesized(
                env=env,
                outdir=outdir,
                stderr=result.stderr,
                config=load_config({**read_cdk_json_context(), **context}, env, extra),
                template=json.loads(
                    (outdir / f"{names.stack_name(env)}.template.json").read_text("utf-8")
                ),
            )
        return made[env]

    return get


@pytest.fixture(scope="session")
def dev(synthesize: Callable[[str], Synthesized]) -> Synthesized:
    return synthesize("dev")


@pytest.fixture(scope="session")
def prod(synthesize: Callable[[str], Synthesized]) -> Synthesized:
    return synthesize("prod")


@pytest.fixture(scope="session", params=sorted(SYNTH_ENVIRONMENTS))
def each_env(
    request: pytest.FixtureRequest, synthesize: Callable[[str], Synthesized]
) -> Synthesized:
    return synthesize(request.param)


def render(value: Any) -> Any:
    """A template value with intrinsics turned into readable placeholder strings.

    ``{"Ref": "X"}`` -> ``<X>``, ``{"Fn::GetAtt": ["X", "Arn"]}`` -> ``<X.Arn>``,
    ``Fn::Join`` joined, ``Fn::Select`` of ``Fn::Split`` as ``split('/', <X>)[2]``; enough
    to read templates the way CloudFormation would.
    """
    if isinstance(value, dict) and len(value) == 1:
        ((key, arg),) = value.items()
        if key == "Ref":
            return f"<{arg}>"
        if key == "Fn::GetAtt":
            return f"<{arg[0]}.{arg[1]}>"
        if key == "Fn::Join":
            return arg[0].join(str(render(part)) for part in arg[1])
        if key == "Fn::Sub" and isinstance(arg, str):
            return arg
        if key == "Fn::Split":
            return f"split({arg[0]!r}, {render(arg[1])})"
        if key == "Fn::Select":
            return f"{render(arg[1])}[{arg[0]}]"
    if isinstance(value, dict):
        return {k: render(v) for k, v in value.items()}
    if isinstance(value, list):
        return [render(v) for v in value]
    return value
