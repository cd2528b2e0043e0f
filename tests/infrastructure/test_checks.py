"""cdk-nag, cfn-lint and the app's own entry point."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import yaml

from infra import names
from tests.infrastructure.conftest import Synthesized, run_app

CFN_LINT = Path(sys.executable).with_name("cfn-lint")
NAG_PLUGIN = "AwsSolutions"


def test_cdk_nag_ran_and_found_nothing_unacknowledged(each_env: Synthesized) -> None:
    # The app synthesized (the fixture asserts it), which cdk-nag would have stopped;
    # its report says so explicitly.
    report = each_env.read("validation-report.json")
    (plugin,) = [p for p in report["pluginReports"] if p["pluginName"] == NAG_PLUGIN]
    assert plugin["conclusion"] == "success"
    assert plugin["violations"] == []


def test_every_acknowledgment_is_a_nag_rule_with_a_reason(each_env: Synthesized) -> None:
    metadata = each_env.read(f"{names.stack_name(each_env.env)}.metadata.json")
    acknowledged = {
        (path, rule): reason
        for path, entries in metadata.items()
        for entry in entries
        if entry["type"] == "aws:cdk:acknowledged-rules"
        for rule, reason in entry["data"].items()
    }
    assert acknowledged, "the stack acknowledges findings (see docs/deploy.md)"
    for (path, rule), reason in acknowledged.items():
        assert rule.startswith(f"{NAG_PLUGIN}::{NAG_PLUGIN}-"), (path, rule)
        assert len(reason.split()) >= 8, f"{path} {rule}: say why ({reason!r})"


def test_cfn_lint_passes_the_synthesized_templates(each_env: Synthesized) -> None:
    result = subprocess.run(
        [str(CFN_LINT), str(each_env.template_path)],
        cwd=names.ROOT,  # where .cfnlintrc is
        capture_output=True,
        text=True,
        check=False,
        timeout=300,
    )
    assert result.returncode == 0, result.stdout + result.stderr


def test_cfnlintrc_silences_only_cdks_known_noise() -> None:
    settings = yaml.safe_load((names.ROOT / ".cfnlintrc").read_text("utf-8"))
    assert settings == {"ignore_checks": ["W3005"]}


def test_an_unknown_environment_is_a_clear_error() -> None:
    result = run_app("-c", "env=staging", timeout=300)
    assert result.returncode == 2
    assert "unknown environment 'staging'" in result.stderr
    assert "dev, prod" in result.stderr
    assert "Traceback" not in result.stderr


def test_python_app_py_reads_cdk_json_by_itself(dev: Synthesized) -> None:
    # The dev fixture ran `python app.py -c env=dev` with no CDK CLI, so whatever
    # context the app saw it read from cdk.json: its settings reached the template...
    converse = dev.props(dev.function_id("converse"))
    assert converse["Environment"]["Variables"]["MODEL_ID"] == dev.config.model_id

    # ...and so did the feature flags: aws-cdk-lib reports each flag it was given.
    manifest = dev.read("manifest.json")
    (report,) = [
        a for a in manifest["artifacts"].values() if a["type"] == "cdk:feature-flag-report"
    ]
    flags = report["properties"]["flags"]
    context = json.loads(names.CDK_JSON.read_text("utf-8"))["context"]
    for flag, value in context.items():
        if flag.startswith("@aws-cdk"):
            assert flags[flag].get("userValue") == value, flag


def test_cdk_json_sets_the_recommended_feature_flags(dev: Synthesized) -> None:
    # What `cdk init` writes: every flag whose recommended value differs from how an
    # unset flag behaves, at that value (aws-cdk-lib's own report of them).
    manifest = dev.read("manifest.json")
    (report,) = [
        a for a in manifest["artifacts"].values() if a["type"] == "cdk:feature-flag-report"
    ]
    for flag, info in report["properties"]["flags"].items():
        recommended = info.get("recommendedValue")
        unset = info.get("unconfiguredBehavesLike", {}).get("v2", False)
        if recommended is not None and recommended != unset:
            assert info.get("userValue") == recommended, flag


def test_the_cdk_runs_on_a_node_lts_that_jsii_supports(each_env: Synthesized) -> None:
    # Given the Node.js `npm ci` installs (package.json), first on the app's PATH
    node = names.NODE_BIN_DIR / "node"
    assert node.is_file(), "npm ci installs Node.js for the CDK (make synth / make test do)"
    version = subprocess.run(
        [str(node), "--version"], capture_output=True, text=True, check=True, timeout=60
    ).stdout.strip()
    # Then it is a release jsii supports (22 and 24 as of aws-cdk-lib 2.275), and the
    # synth ran without jsii's end-of-life warning
    assert re.fullmatch(r"v(22|24)\.\d+\.\d+", version), version
    assert "end-of-life" not in each_env.stderr and "not supported" not in each_env.stderr
    # And the pin is the same on every platform it is published for
    package = json.loads((names.ROOT / "package.json").read_text("utf-8"))
    pins = set(package["optionalDependencies"].values())
    assert pins == {version.removeprefix("v")}
