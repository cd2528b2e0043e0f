"""The Express state machine: the ASL file as written, its substitutions, logs and tracing."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

import statemachine
from infra import names
from tests.infrastructure.conftest import Synthesized, render

API_GATEWAY_LIMIT_S = 29
STATELINT = Path(sys.executable).with_name("statelint")
STATELINT_ARGS: list[str] = []
# statelint 3.1.0 predates JSONata timeouts: in JSONata states, TimeoutSeconds and a Wait
# state's Seconds may be "{% ... %}" expressions that evaluate to an integer
# (Step Functions developer guide, "Wait workflow state"; CDK's sfn.Timeout.jsonata).
# Those findings, and only those, are accepted.
_JSONATA_INTEGER = re.compile(
    r'^State Machine\.States\.\w+\.(TimeoutSeconds|Seconds) is "\{%.*%\}" but should be an Integer$'
)


def _unexpected_findings(result: subprocess.CompletedProcess[str]) -> list[str]:
    findings = [line.strip() for line in result.stdout.splitlines() if line.startswith(" ")]
    return [f for f in findings if not _JSONATA_INTEGER.match(f)]


def _machine(synth: Synthesized) -> dict[str, object]:
    _, machine = synth.one("AWS::StepFunctions::StateMachine")
    props: dict[str, object] = machine["Properties"]
    return props


def test_the_definition_is_the_asl_file_inline(each_env: Synthesized) -> None:
    definition = _machine(each_env)["DefinitionString"]
    # A plain string (not a file reference or an S3 location), so cfn-lint reads it.
    assert isinstance(definition, str)
    assert json.loads(definition) == json.loads(statemachine.read_definition())


def test_substitutions_fill_exactly_the_asls_placeholders(each_env: Synthesized) -> None:
    substitutions = render(_machine(each_env)["DefinitionSubstitutions"])
    assert set(substitutions) == statemachine.placeholders()
    assert set(statemachine.RESOURCE_PLACEHOLDERS) <= set(substitutions)


def test_function_placeholders_name_the_right_functions(each_env: Synthesized) -> None:
    substitutions = render(_machine(each_env)["DefinitionSubstitutions"])
    for placeholder, key in names.FUNCTION_PLACEHOLDERS.items():
        assert substitutions[placeholder] == f"<{each_env.function_id(key)}.Arn>", placeholder
    sessions = next(
        k
        for k, r in each_env.of_type("AWS::DynamoDB::Table").items()
        if r["Properties"]["KeySchema"][0]["AttributeName"] == names.SESSIONS_PARTITION_KEY
    )
    assert substitutions[names.SESSIONS_TABLE_PLACEHOLDER] == f"<{sessions}>"


def test_tuning_comes_from_config_over_the_defaults(each_env: Synthesized) -> None:
    substitutions = _machine(each_env)["DefinitionSubstitutions"]
    assert isinstance(substitutions, dict)
    tuning = {**statemachine.TUNING_DEFAULTS, **each_env.config.tuning}
    for name, value in tuning.items():
        assert substitutions[name] == str(value), name


def test_it_is_express_traced_and_logs_every_event_with_data(each_env: Synthesized) -> None:
    machine = render(_machine(each_env))
    assert machine["StateMachineType"] == "EXPRESS"
    assert machine["TracingConfiguration"] == {"Enabled": True}
    logging = machine["LoggingConfiguration"]
    assert logging["Level"] == "ALL"
    assert logging["IncludeExecutionData"] is True
    (destination,) = logging["Destinations"]
    group_id = destination["CloudWatchLogsLogGroup"]["LogGroupArn"].strip("<>").split(".")[0]
    group = each_env.props(group_id)
    assert group["RetentionInDays"] == each_env.config.log_retention_days
    assert group["LogGroupName"].startswith("/aws/vendedlogs/states/")


def test_the_state_machine_times_out_before_the_api_does() -> None:
    asl = json.loads(statemachine.read_definition())
    assert asl["TimeoutSeconds"] == 28
    assert asl["TimeoutSeconds"] < API_GATEWAY_LIMIT_S


def _statelint(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(STATELINT), *args], capture_output=True, text=True, check=False, timeout=120
    )


def test_statelint_accepts_the_asl_file() -> None:
    result = _statelint(*STATELINT_ARGS, str(statemachine.ASL_PATH))
    assert result.stderr == "" and _unexpected_findings(result) == [], result.stdout


@pytest.mark.parametrize("env", ["dev", "prod"])
def test_statelint_accepts_the_substituted_definition(env: str, tmp_path: Path) -> None:
    # The placeholders sit inside JSONata expressions ("{% ... ${MaxToolRounds} %}");
    # filled in as CloudFormation would, the definition must still be valid.
    from infra.config import load_config, read_cdk_json_context

    config = load_config(read_cdk_json_context(), env, {"CDK_DEFAULT_REGION": "us-east-1"})
    values: dict[str, object] = {
        placeholder: f"arn:aws:lambda:us-east-1:123456789012:function:{key}"
        for placeholder, key in names.FUNCTION_PLACEHOLDERS.items()
    }
    values[names.SESSIONS_TABLE_PLACEHOLDER] = "storechat-sessions"
    values.update(config.state_machine_tuning)
    path = tmp_path / "substituted.asl.json"
    path.write_text(statemachine.substitute(statemachine.read_definition(), values), "utf-8")
    result = _statelint(*STATELINT_ARGS, str(path))
    assert result.stderr == "" and _unexpected_findings(result) == [], result.stdout
