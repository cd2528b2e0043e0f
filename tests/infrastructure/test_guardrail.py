"""A guardrail in cdk.json: Converse applies it, the web tools screen with it, nothing else can."""

from __future__ import annotations

import copy
from collections.abc import Iterator
from typing import Any

import pytest
from aws_cdk.assertions import Template

import registry
from infra import names
from infra.app import create_app
from infra.config import ConfigError, load_config, read_cdk_json_context
from tests.infrastructure.conftest import SYNTH_CONTEXT, Synthesized, render

ENVIRON = {"CDK_DEFAULT_ACCOUNT": "123456789012", "CDK_DEFAULT_REGION": "us-east-1"}
GUARDRAIL = {"id": "gr7x2k9q", "version": "4"}
SCREENING = {"converse", "get_computer_reviews", "get_book_info"}
GUARDRAIL_ARN = "arn:<AWS::Partition>:bedrock:us-east-1:123456789012:guardrail/gr7x2k9q"


def _context(env: str, **changes: Any) -> dict[str, Any]:
    # prod needs someone to receive its alarms, as its synth names one
    context = {**copy.deepcopy(read_cdk_json_context()), **SYNTH_CONTEXT[env]}
    context[names.CONTEXT_CONFIG]["environments"][env].update(changes)
    return context


@pytest.fixture(scope="module")
def with_guardrail(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Any]]:
    """dev's template with a guardrail (one synth for the module)."""
    context = _context("dev", guardrail=GUARDRAIL)
    _, stack = create_app(
        overrides={names.CONTEXT_CONFIG: context[names.CONTEXT_CONFIG]},
        outdir=str(tmp_path_factory.mktemp("cdk-guardrail")),
        environ=ENVIRON,
    )
    yield Template.from_stack(stack).to_json()


def _functions(template: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """Function key -> its properties, for the loop's functions."""
    handlers = {f.handler: f.key for f in registry.FUNCTIONS}
    return {
        handlers[r["Properties"]["Handler"]]: r["Properties"]
        for r in template["Resources"].values()
        if r["Type"] == "AWS::Lambda::Function" and r["Properties"].get("Handler") in handlers
    }


def _guardrail_grants(template: dict[str, Any], role: Any) -> list[Any]:
    grants = []
    for resource in template["Resources"].values():
        if resource["Type"] != "AWS::IAM::Policy":
            continue
        props = render(resource["Properties"])
        if f"<{render(role).strip('<>').removesuffix('.Arn')}>" not in props["Roles"]:
            continue
        for statement in props["PolicyDocument"]["Statement"]:
            actions = statement["Action"]
            if "bedrock:ApplyGuardrail" in ([actions] if isinstance(actions, str) else actions):
                grants.append(statement["Resource"])
    return grants


def test_with_a_guardrail_converse_and_the_web_tools_get_it_and_may_apply_only_it(
    with_guardrail: dict[str, Any],
) -> None:
    functions = _functions(with_guardrail)
    assert set(functions) == {f.key for f in registry.FUNCTIONS}
    for key, props in functions.items():
        variables = props["Environment"]["Variables"]
        grants = _guardrail_grants(with_guardrail, props["Role"])
        if key in SCREENING:
            # Then each function that applies it knows which guardrail, and where
            assert variables["BEDROCK_GUARDRAIL_ID"] == "gr7x2k9q", key
            assert variables["BEDROCK_GUARDRAIL_VERSION"] == "4", key
            assert render(variables["BEDROCK_REGION"]) == "us-east-1", key
            # And may apply that guardrail and no other
            assert grants == [GUARDRAIL_ARN], key
        else:
            # And the others neither know it nor may apply it
            assert "BEDROCK_GUARDRAIL_ID" not in variables, key
            assert grants == [], key


def test_without_a_guardrail_no_function_may_apply_one(dev: Synthesized) -> None:
    assert dev.config.guardrail is None
    for key, props in _functions(dev.template).items():
        assert "BEDROCK_GUARDRAIL_ID" not in props["Environment"]["Variables"], key
        assert _guardrail_grants(dev.template, props["Role"]) == [], key


def test_a_kept_environment_needs_a_numbered_guardrail_version() -> None:
    # Given prod (kept: removal_policy retain) with a draft guardrail, Then it is refused
    with pytest.raises(ConfigError, match=r"guardrail\.version: a kept \(retain\) environment"):
        load_config(_context("prod", guardrail={"id": "gr7x2k9q"}), "prod", ENVIRON)
    kept = load_config(_context("prod", guardrail=GUARDRAIL), "prod", ENVIRON)
    assert kept.guardrail is not None and kept.guardrail.version == "4"
    # And dev may try a draft
    draft = load_config(_context("dev", guardrail={"id": "gr7x2k9q"}), "dev", ENVIRON)
    assert draft.guardrail is not None and draft.guardrail.version == "DRAFT"
