"""The agentic loop: ``statemachine/storechat.asl.json`` as an Express state machine.

The definition is deployed as written; only its ``${...}`` placeholders are filled,
by CloudFormation's DefinitionSubstitutions, with exactly the names
``statemachine.placeholders()`` finds. It stays inline in the template, so
cfn-lint checks it too.

Its execution log is where an operator reads a conversation, and so it holds what
shoppers type, the loaded history, the model's replies and the tool results: it is
encrypted with its own KMS key, kept no longer than the sessions it mirrors, and
masks e-mail addresses, phone numbers and card numbers.
"""

from __future__ import annotations

from collections.abc import Mapping

from aws_cdk import ArnFormat, Aws, Fn, Stack
from aws_cdk import aws_dynamodb as dynamodb
from aws_cdk import aws_iam as iam
from aws_cdk import aws_kms as kms
from aws_cdk import aws_lambda as lambda_
from aws_cdk import aws_logs as logs
from aws_cdk import aws_stepfunctions as sfn
from constructs import Construct

import registry
import statemachine
from converse.prompt import system_prompt
from infra.config import EnvironmentConfig
from infra.nag import acknowledge
from infra.runtime import log_group, removal_policy
from infra.trace import LiveTrace

MASKED_DATA: tuple[logs.DataIdentifier, ...] = (
    logs.DataIdentifier.EMAILADDRESS,
    # CloudWatch Logs recognises phone numbers per country; these are all it offers.
    logs.DataIdentifier.PHONENUMBER_US,
    logs.DataIdentifier.PHONENUMBER_GB,
    logs.DataIdentifier.PHONENUMBER_DE,
    logs.DataIdentifier.PHONENUMBER_ES,
    logs.DataIdentifier.PHONENUMBER_FR,
    logs.DataIdentifier.PHONENUMBER_IT,
    logs.DataIdentifier.PHONENUMBER_BR,
    logs.DataIdentifier.CREDITCARDNUMBER,
)
"""What the conversation log masks: what a shopper may type about themselves."""


def substitutions(
    functions: Mapping[str, lambda_.IFunction],
    sessions_table: dynamodb.ITable,
    steps_table: dynamodb.ITable,
    spend_table: dynamodb.ITable,
    config: EnvironmentConfig,
    definition: str,
) -> dict[str, str]:
    """The DefinitionSubstitutions: one value for each placeholder, and no others."""
    arns = {key: function.function_arn for key, function in functions.items()}
    values = statemachine.resource_substitutions(
        arns, sessions_table.table_name, steps_table.table_name, spend_table.table_name
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
    values.update({name: str(value) for name, value in config.state_machine_tuning.items()})
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
        trace: LiveTrace,
        spend_table: dynamodb.ITable,
    ) -> None:
        super().__init__(scope, id)
        definition = statemachine.read_definition()
        stack = Stack.of(self)
        # Step Functions' docs recommend the /aws/vendedlogs/ prefix: it keeps the log
        # group's resource policy from growing with every state machine. The name ends
        # with the first part of the stack's id: a kept (prod) log group of a deleted
        # stack would otherwise block creating the stack again under the same name.
        stack_id = Fn.select(0, Fn.split("-", Fn.select(2, Fn.split("/", Aws.STACK_ID))))
        log_group_name = f"/aws/vendedlogs/states/{stack.stack_name}-conversations-{stack_id}"
        self.log_key = self._log_key(
            config,
            stack.format_arn(
                service="logs",
                resource="log-group",
                resource_name=log_group_name,
                arn_format=ArnFormat.COLON_RESOURCE_NAME,
            ),
        )
        self.log_group = log_group(
            self,
            "ExecutionLogs",
            config,
            name=log_group_name,
            retention_days=config.conversation_retention_days,
            encryption_key=self.log_key,
            # Masked for every reader without logs:Unmask, the console included; the
            # events themselves are kept whole, so an operator allowed to unmask can.
            data_protection_policy=logs.DataProtectionPolicy(
                name=f"{stack.stack_name}-conversations",
                description="Masks e-mail addresses, phone numbers and card numbers shoppers type",
                identifiers=list(MASKED_DATA),
            ),
        )
        self.state_machine = sfn.StateMachine(
            self,
            "StateMachine",
            state_machine_type=sfn.StateMachineType.EXPRESS,
            definition_body=sfn.DefinitionBody.from_string(definition),
            definition_substitutions=substitutions(
                functions, sessions_table, trace.table, spend_table, config, definition
            ),
            # Level ALL with execution data is what lets the console show an Express
            # execution's events: every model call and tool call of a conversation.
            logs=sfn.LogOptions(
                destination=self.log_group, level=sfn.LogLevel.ALL, include_execution_data=True
            ),
            tracing_enabled=True,
        )
        # A definition from a string tells CDK nothing about what it calls: grant
        # exactly the five functions, the two session-table calls the ASL makes, the
        # live trace's one write (ShowToolFailure) and the day's spend counter's one
        # (UpdateItem: reserve, settle and release a model call's spend).
        self.state_machine.add_to_role_policy(
            iam.PolicyStatement(
                actions=["lambda:InvokeFunction"],
                resources=[functions[f.key].function_arn for f in registry.FUNCTIONS],
            )
        )
        self.state_machine.add_to_role_policy(
            iam.PolicyStatement(
                actions=["dynamodb:Query", "dynamodb:PutItem"],
                resources=[sessions_table.table_arn],
            )
        )
        trace.grant_write(self.state_machine)
        self.state_machine.add_to_role_policy(
            iam.PolicyStatement(
                actions=["dynamodb:UpdateItem"],
                resources=[spend_table.table_arn],
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

    def _log_key(self, config: EnvironmentConfig, log_group_arn: str) -> kms.Key:
        """A key only CloudWatch Logs in this Region may use, and only for this log group.

        The log group's ARN is spelled out from its name, not taken from the log group:
        the log group needs the key first.
        """
        key = kms.Key(
            self,
            "ExecutionLogsKey",
            description=f"{Stack.of(self).stack_name}: encrypts the conversation execution log",
            enable_key_rotation=True,
            removal_policy=removal_policy(config),
        )
        key.add_to_resource_policy(
            iam.PolicyStatement(
                sid="CloudWatchLogsUseForTheConversationLog",
                principals=[iam.ServicePrincipal(f"logs.{Stack.of(self).region}.amazonaws.com")],
                actions=[
                    "kms:Encrypt*",
                    "kms:Decrypt*",
                    "kms:ReEncrypt*",
                    "kms:GenerateDataKey*",
                    "kms:Describe*",
                ],
                resources=["*"],
                conditions={"ArnEquals": {"kms:EncryptionContext:aws:logs:arn": log_group_arn}},
            )
        )
        return key
