"""The Express state machine: the ASL file as written, its substitutions, logs and tracing."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

import registry
import statemachine
from converse.prompt import system_prompt
from infra import names
from shared.config.time_budget import API_LIMIT_S
from tests.infrastructure.conftest import Synthesized, render

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
    assert set(statemachine.resource_placeholders()) <= set(substitutions)


def test_function_placeholders_name_the_right_functions(each_env: Synthesized) -> None:
    substitutions = render(_machine(each_env)["DefinitionSubstitutions"])
    tools = registry.tool_function_keys()
    for function in registry.FUNCTIONS:
        arn = f"<{each_env.function_id(function.key)}.Arn>"
        if function.key in tools:
            tool = next(t for t in registry.TOOLS if t.function.key == function.key)
            assert f"'{tool.name}': '{arn}'" in substitutions[registry.TOOLS_PLACEHOLDER]
        else:
            assert substitutions[function.placeholder] == arn, function.placeholder
    sessions = next(
        k
        for k, r in each_env.of_type("AWS::DynamoDB::Table").items()
        if r["Properties"]["KeySchema"][0]["AttributeName"] == names.SESSIONS_PARTITION_KEY
    )
    assert substitutions["SessionsTableName"] == f"<{sessions}>"


def test_tuning_comes_from_config_over_the_defaults(each_env: Synthesized) -> None:
    substitutions = _machine(each_env)["DefinitionSubstitutions"]
    assert isinstance(substitutions, dict)
    tuning = {**statemachine.TUNING_DEFAULTS, **each_env.config.tuning}
    for name, value in tuning.items():
        assert substitutions[name] == str(value), name


def test_search_first_is_filled_from_the_environments_setting(each_env: Synthesized) -> None:
    # cdk.json's search_first decides the definition's first choice: the search on the
    # shopper's words before the first model call, or the model first
    substitutions = render(_machine(each_env)["DefinitionSubstitutions"])
    assert substitutions["SearchFirst"] == ("true" if each_env.config.search_first else "false")
    assert each_env.config.search_first is True  # on by default
    (rule,) = json.loads(statemachine.read_definition())["States"]["ChooseFirstStep"]["Choices"]
    assert rule["Condition"] == "{% ${SearchFirst} %}" and rule["Next"] == "SearchCatalogFirst"


def _execution_log(synth: Synthesized) -> tuple[str, dict[str, Any]]:
    (destination,) = render(_machine(synth))["LoggingConfiguration"]["Destinations"]
    group_id = destination["CloudWatchLogsLogGroup"]["LogGroupArn"].strip("<>").split(".")[0]
    return group_id, synth.props(group_id)


def test_it_is_express_traced_and_logs_every_event_with_data(each_env: Synthesized) -> None:
    # What the console needs to show an Express execution's events.
    machine = render(_machine(each_env))
    assert machine["StateMachineType"] == "EXPRESS"
    assert machine["TracingConfiguration"] == {"Enabled": True}
    logging = machine["LoggingConfiguration"]
    assert logging["Level"] == "ALL"
    assert logging["IncludeExecutionData"] is True
    _, group = _execution_log(each_env)
    # Ending with the first part of the stack's id (arn:...:stack/NAME/UUID): a
    # re-created stack gets another name, so a kept log group of a deleted one is no
    # obstacle.
    assert render(group["LogGroupName"]) == (
        f"/aws/vendedlogs/states/{names.stack_name(each_env.env)}-conversations-"
        "split('-', split('/', <AWS::StackId>)[2])[0]"
    )


def test_the_execution_log_is_kept_no_longer_than_the_sessions(each_env: Synthesized) -> None:
    config = each_env.config
    _, group = _execution_log(each_env)
    ttl_seconds = config.state_machine_tuning["SessionTtlSeconds"]
    assert group["RetentionInDays"] == config.conversation_retention_days
    assert group["RetentionInDays"] * 86_400 <= ttl_seconds
    # The ASL's SaveTurn writes the same TTL the retention is measured against.
    substitutions = _machine(each_env)["DefinitionSubstitutions"]
    assert isinstance(substitutions, dict)
    assert substitutions["SessionTtlSeconds"] == str(ttl_seconds)


def test_the_execution_log_is_encrypted_with_its_own_rotated_key(each_env: Synthesized) -> None:
    # Given the execution log and the key it names
    _, group = _execution_log(each_env)
    key_id = render(group["KmsKeyId"]).strip("<>").removesuffix(".Arn")
    key = each_env.resources[key_id]
    assert key["Type"] == "AWS::KMS::Key"
    assert key["Properties"]["EnableKeyRotation"] is True
    retain = each_env.config.removal_policy == "retain"
    assert key["DeletionPolicy"] == ("Retain" if retain else "Delete")

    # Then only CloudWatch Logs of the stack's Region may use it, and only for this log group
    statements = render(key["Properties"]["KeyPolicy"]["Statement"])
    services = [s for s in statements if "Service" in s["Principal"]]
    (logs_use,) = services
    assert logs_use["Principal"]["Service"] in (
        "logs.<AWS::Region>.amazonaws.com",
        f"logs.{each_env.config.region}.amazonaws.com",
    )
    assert "kms:GenerateDataKey*" in logs_use["Action"]
    assert "kms:Decrypt*" in logs_use["Action"]
    arn = logs_use["Condition"]["ArnEquals"]["kms:EncryptionContext:aws:logs:arn"]
    assert arn.startswith("arn:")
    assert arn.endswith(f":log-group:{render(group['LogGroupName'])}")
    assert ":logs:" in arn
    # Besides, the key policy names only the account itself, whose IAM policies decide.
    for statement in statements:
        if statement is not logs_use:
            assert set(statement["Principal"]) == {"AWS"}
            assert statement["Principal"]["AWS"].endswith(":root")


def test_the_execution_log_masks_what_shoppers_may_type_about_themselves(
    each_env: Synthesized,
) -> None:
    _, group = _execution_log(each_env)
    policy = render(group["DataProtectionPolicy"])
    masking = [s for s in policy["Statement"] if "Deidentify" in s["Operation"]]
    (mask,) = masking
    assert mask["Operation"]["Deidentify"] == {"MaskConfig": {}}
    masked = {identifier.rsplit("/", 1)[-1] for identifier in mask["DataIdentifier"]}
    assert "EmailAddress" in masked
    assert "CreditCardNumber" in masked
    assert {"PhoneNumber-US", "PhoneNumber-GB"} <= masked
    for identifier in mask["DataIdentifier"]:
        assert re.fullmatch(
            r"arn:(aws|<AWS::Partition>):dataprotection::aws:data-identifier/[\w-]+", identifier
        )


def test_the_state_machine_times_out_before_the_api_does() -> None:
    asl = json.loads(statemachine.read_definition())
    assert asl["TimeoutSeconds"] == 28
    assert asl["TimeoutSeconds"] < API_LIMIT_S


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
    from tests.infrastructure.conftest import SYNTH_CONTEXT

    context = {**read_cdk_json_context(), **SYNTH_CONTEXT[env]}
    config = load_config(context, env, {"CDK_DEFAULT_REGION": "us-east-1"})
    arns = {
        f.key: f"arn:aws:lambda:us-east-1:123456789012:function:{f.key}" for f in registry.FUNCTIONS
    }
    values: dict[str, object] = dict(
        statemachine.resource_substitutions(
            arns, "storechat-sessions", "storechat-steps", "storechat-spend"
        )
    )
    values.update(
        statemachine.budget_substitutions(
            config.model_budget.daily_usd,
            config.token_prices,
            max_tokens=config.max_tokens,
            currency=config.store_currency,
            system_prompt=system_prompt(config.store),
        )
    )
    values.update(statemachine.loop_substitutions(search_first=config.search_first))
    values.update(config.state_machine_tuning)
    path = tmp_path / "substituted.asl.json"
    path.write_text(statemachine.substitute(statemachine.read_definition(), values), "utf-8")
    result = _statelint(*STATELINT_ARGS, str(path))
    assert result.stderr == "" and _unexpected_findings(result) == [], result.stdout
