"""The agentic loop: ``statemachine/storechat.asl.json`` as an Express state machine.

The definition is deployed as written; only its ``${...}`` placeholders are filled,
by CloudFormation's DefinitionSubstitutions, with exactly the names
``statemachine.placeholders()`` finds. It stays inline in the template, so
cfn-lint checks it too.
"""

from __future__ import annotations

from collections.abc import Mapping

from aws_cdk import Stack
from aws_cdk import aws_dynamodb as dynamodb
from aws_cdk import aws_iam as iam
from aws_cdk import aws_lambda as lambda_
from aws_cdk import aws_stepfunctions as sfn
from constructs import Construct

import statemachine
from infra import names
from infra.config import EnvironmentConfig
from infra.runtime import acknowledge, log_group


def substitutions(
    functions: Mapping[str, lambda_.IFunction],
    sessions_table: dynamodb.ITable,
    tuning: Mapping[str, int],
    definition: str,
) -> dict[str, str]:
    """The DefinitionSubstitutions: one value for each placeholder, and no others."""
    values = {
        placeholder: functions[key].function_arn
        for placeholder, key in names.FUNCTION_PLACEHOLDERS.items()
    }
    values[names.SESSIONS_TABLE_PLACEHOLDER] = sessions_table.table_name
    values.update({name: str(value) for name, value in tuning.items()})
    wanted = statemachine.placeholders(definition)
    if set(values) != wanted:
        raise ValueError(
            "substitutions do not match the ASL's placeholders: "
            f"missing {sorted(wanted - set(values))}, unused {sorted(set(values) - wanted)}"
        )
    return values


class Loop(Construct):
    def __init__(
        self,
        scope: Construct,
        id: str,
        *,
        config: EnvironmentConfig,
        functions: Mapping[str, lambda_.IFunction],
        sessions_table: dynamodb.ITable,
    ) -> None:
        super().__init__(scope, id)
        definition = statemachine.read_definition()
        # Step Functions' docs recommend the /aws/vendedlogs/ prefix: it keeps the log
        # group's resource policy from growing with every state machine.
        self.log_group = log_group(
            self,
            "ExecutionLogs",
            config,
            name=f"/aws/vendedlogs/states/{Stack.of(self).stack_name}-conversations",
        )
        self.state_machine = sfn.StateMachine(
            self,
            "StateMachine",
            state_machine_type=sfn.StateMachineType.EXPRESS,
            definition_body=sfn.DefinitionBody.from_string(definition),
            definition_substitutions=substitutions(
                functions, sessions_table, config.state_machine_tuning, definition
            ),
            # Level ALL with execution data is what lets the console show an Express
            # execution's events: every model call and tool call of a conversation.
            logs=sfn.LogOptions(
                destination=self.log_group, level=sfn.LogLevel.ALL, include_execution_data=True
            ),
            tracing_enabled=True,
        )
        # A definition from a string tells CDK nothing about what it calls: grant
        # exactly the five functions and the two session-table calls the ASL makes.
        self.state_machine.add_to_role_policy(
            iam.PolicyStatement(
                actions=["lambda:InvokeFunction"],
                resources=[functions[key].function_arn for key in names.HANDLERS],
            )
        )
        self.state_machine.add_to_role_policy(
            iam.PolicyStatement(
                actions=["dynamodb:Query", "dynamodb:PutItem"],
                resources=[sessions_table.table_arn],
            )
        )
        acknowledge(
            self.state_machine,
            {
                "AwsSolutions-IAM5[Resource::*]": (
                    "Log delivery (logs:CreateLogDelivery and related) and X-Ray "
                    "(xray:PutTraceSegments and related) accept only Resource '*'; the "
                    "function and table grants are exact ARNs."
                )
            },
        )
