"""cdk-nag acknowledgements: each beside the construct it concerns, with its reason.

The helpers here name what the acknowledgements point at: the plugin's finding ids,
a resource's logical id as cdk-nag prints it, and the one handler CDK creates per stack
for a kind of custom resource.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import cast

from aws_cdk import Acknowledgment, CfnElement, Stack, Validations
from constructs import Construct, IConstruct

NAG_PLUGIN = "AwsSolutions"


def acknowledge(scope: IConstruct, findings: Mapping[str, str]) -> None:
    """Acknowledge cdk-nag findings on ``scope`` (and below): finding id -> why it is acceptable.

    Ids are the rule ids cdk-nag prints (``AwsSolutions-IAM5[Resource::*]``); the
    plugin prefix that CDK's validation framework keys them by is added here.
    """
    Validations.of(scope).acknowledge(
        *(
            Acknowledgment(id=f"{NAG_PLUGIN}::{finding}", reason=reason)
            for finding, reason in findings.items()
        )
    )


BASIC_EXECUTION_POLICY = (
    "AwsSolutions-IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/"
    "AWSLambdaBasicExecutionRole]"
)
"""cdk-nag's finding on a function with the AWS managed basic execution policy (its logs)."""


def stack_singleton(scope: IConstruct, id_prefix: str, what: str) -> IConstruct:
    """The one construct CDK puts at the root of ``scope``'s stack for a kind of custom
    resource (its handler function, whose id starts with ``id_prefix``): where that
    handler's findings are acknowledged. Raises if there is not exactly one."""
    children = Stack.of(scope).node.children
    found = [child for child in children if child.node.id.startswith(id_prefix)]
    if len(found) != 1:
        raise RuntimeError(f"expected one {what}, found {len(found)}")
    return found[0]


def logical_id(construct: Construct) -> str:
    """The CloudFormation logical id of an L2 construct's resource (as cdk-nag names it)."""
    return Stack.of(construct).get_logical_id(cast(CfnElement, construct.node.default_child))
