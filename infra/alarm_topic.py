"""The SNS topic every alarm notifies, who it reaches, and who may publish to it.

``enforce_ssl`` gives the topic a policy of its own (deny any request without TLS),
and a topic with a policy no longer has SNS's default one, which is what lets
CloudWatch publish. So the policy says it again: CloudWatch alarms of this account
and Region may publish, over TLS like everybody else. The subscribers are the
environment's ``alarms.emails`` and ``alarms.https_endpoints``; an environment with
``alarms.require_destination`` cannot be synthesized without one
(``infra.config``). ``storechat doctor`` checks that a subscription is confirmed.
"""

from __future__ import annotations

from typing import Final

from aws_cdk import Aws
from aws_cdk import aws_iam as iam
from aws_cdk import aws_sns as sns
from aws_cdk import aws_sns_subscriptions as subscriptions
from constructs import Construct

from infra.config import EnvironmentConfig

CLOUDWATCH_PUBLISHES_SID: Final = "CloudWatchAlarmsPublish"


def alarm_topic(scope: Construct, config: EnvironmentConfig) -> sns.Topic:
    """The topic, as ``AlarmTopic`` in ``scope`` (its logical id, and so its ARN and its
    confirmed subscriptions, stay what they were before this module)."""
    topic = sns.Topic(
        scope, "AlarmTopic", display_name=f"{config.stack_name} alarms", enforce_ssl=True
    )
    topic.add_to_resource_policy(
        iam.PolicyStatement(
            sid=CLOUDWATCH_PUBLISHES_SID,
            principals=[iam.ServicePrincipal("cloudwatch.amazonaws.com")],
            actions=["sns:Publish"],
            resources=[topic.topic_arn],
            # Only this account's alarms in this Region (no confused deputy).
            conditions={
                "ArnLike": {
                    "aws:SourceArn": (
                        f"arn:{Aws.PARTITION}:cloudwatch:{Aws.REGION}:{Aws.ACCOUNT_ID}:alarm:*"
                    )
                },
                "StringEquals": {"aws:SourceAccount": Aws.ACCOUNT_ID},
            },
        )
    )
    settings = config.alarms
    for email in settings.emails:
        topic.add_subscription(subscriptions.EmailSubscription(email))
    for url in settings.https_endpoints:
        topic.add_subscription(
            subscriptions.UrlSubscription(url, protocol=sns.SubscriptionProtocol.HTTPS)
        )
    return topic
