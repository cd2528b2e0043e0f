"""One storechat environment: the constructs, wired together, and its outputs."""

from __future__ import annotations

from aws_cdk import CfnOutput, Environment, Stack
from constructs import Construct

from infra import names
from infra.api import QueryApi
from infra.api_templates import cors_override
from infra.catalog_sync import CatalogSyncSchedule
from infra.config import EnvironmentConfig
from infra.data import Data
from infra.edge import ClientRateLimitAcl
from infra.feedback import FeedbackRoute
from infra.loop import Loop
from infra.monitoring import Monitoring
from infra.names import NO_WEB_ACL
from infra.runtime import LambdaFactory
from infra.search import CatalogSearch
from infra.tools import Tools
from infra.trace import LiveTrace
from infra.web import WebHosting
from infra.webhooks import CatalogWebhooks, deployed


class StorechatStack(Stack):
    def __init__(self, scope: Construct, *, config: EnvironmentConfig) -> None:
        super().__init__(
            scope,
            config.stack_name,
            stack_name=config.stack_name,
            description=f"storechat shopping assistant ({config.name})",
            env=Environment(account=config.account, region=config.region),
            termination_protection=config.termination_protection,
            tags={"project": names.PROJECT, "environment": config.name},
        )
        self.config = config
        lambdas = LambdaFactory(self, config)
        self.data = Data(self, "Data", config=config, lambdas=lambdas)
        self.search = CatalogSearch(
            self,
            "Search",
            config=config,
            lambdas=lambdas,
            catalog=self.data.catalog,
            seed=self.data.seed,
        )
        self.trace = LiveTrace(self, "LiveTrace", config=config)
        self.tools = Tools(
            self,
            "Tools",
            config=config,
            lambdas=lambdas,
            catalog=self.data.catalog,
            search=self.search,
            trace=self.trace,
        )
        self.loop = Loop(
            self,
            "Loop",
            config=config,
            functions=self.tools.functions,
            sessions_table=self.data.sessions,
            trace=self.trace,
            spend_table=self.data.spend,
        )
        # The page's origin must exist before the API (its CORS allows it), and the
        # API before the page's files (config.json holds the API's URL).
        self.web = WebHosting(self, "Web", config=config)
        self.api = QueryApi(
            self,
            "Api",
            config=config,
            state_machine=self.loop.state_machine,
            allowed_origins=[self.web.url, *config.store.settings.allowedOrigins],
        )
        self.trace.serve(self.api.query, self.api.origins, cors_override(self.api.origins))
        self.feedback = FeedbackRoute(
            self,
            "Feedback",
            lambdas=lambdas,
            sessions=self.data.sessions,
            query=self.api.query,
            origins=self.api.origins,
        )
        self.webhooks: CatalogWebhooks | None = None
        if self.data.catalog is not None and deployed(config):
            self.webhooks = CatalogWebhooks(
                self,
                "Webhooks",
                config=config,
                lambdas=lambdas,
                catalog=self.data.catalog,
                api=self.api.api,
            )
        self.catalog_sync: CatalogSyncSchedule | None = None
        if self.data.catalog is not None and config.catalog_sync is not None:
            self.catalog_sync = CatalogSyncSchedule(
                self,
                "CatalogSync",
                config=config,
                settings=config.catalog_sync,
                lambdas=lambdas,
                catalog=self.data.catalog,
            )
        self.web.publish(api_url=self.api.url)
        self.edge: ClientRateLimitAcl | None = None
        if config.client_rate_limit is not None:
            self.edge = ClientRateLimitAcl(
                self,
                "Edge",
                limit=config.client_rate_limit,
                stage=self.api.api.deployment_stage,
                # The one origin a fixed header can name: the store's own pages, where
                # most shoppers chat (the widget), else the hosted page.
                page_origin=[*config.store.settings.allowedOrigins, self.web.url][0],
            )
        self.monitoring = Monitoring(
            self,
            "Monitoring",
            config=config,
            state_machine=self.loop.state_machine,
            functions=self.tools.functions,
            search=self.search,
            api_name=self.api.api.rest_api_name,
            api_stage=self.api.stage_name,
            execution_logs=self.loop.log_group,
            access_logs=self.api.access_logs,
            catalog_sync=self.catalog_sync.function if self.catalog_sync else None,
        )

        outputs = {
            names.Outputs.API_URL: self.api.url,
            names.Outputs.QUERY_URL: self.api.query_url,
            names.Outputs.WEB_URL: self.web.url,
            names.Outputs.WIDGET_URL: self.web.widget_url,
            names.Outputs.STATE_MACHINE_ARN: self.loop.state_machine.state_machine_arn,
            names.Outputs.CONVERSATION_LOG_GROUP: self.loop.log_group.log_group_name,
            names.Outputs.SESSIONS_TABLE_NAME: self.data.sessions.table_name,
            names.Outputs.STEPS_TABLE_NAME: self.trace.table.table_name,
            names.Outputs.SPEND_TABLE_NAME: self.data.spend.table_name,
            names.Outputs.BRAVE_SECRET_ARN: self.tools.brave_secret.secret_arn,
            names.Outputs.CATALOG_INDEX_BUCKET: self.search.bucket.bucket_name,
            names.Outputs.ALARM_TOPIC_ARN: self.monitoring.topic.topic_arn,
            names.Outputs.MODEL_ID: config.model_id,
            names.Outputs.MODEL_REGION: config.bedrock_region or self.region,
            names.Outputs.WEB_ACL_ARN: self.edge.acl.attr_arn if self.edge else NO_WEB_ACL,
            names.Outputs.DASHBOARD_URL: self.monitoring.dashboard_url,
        }
        if self.data.catalog is not None:
            outputs[names.Outputs.CATALOG_TABLE_NAME] = self.data.catalog.table_name
        if self.webhooks is not None:
            outputs[names.Outputs.SHOPIFY_WEBHOOK_SECRET_ARN] = self.webhooks.secrets[
                "shopify"
            ].secret_arn
            outputs[names.Outputs.WOOCOMMERCE_WEBHOOK_SECRET_ARN] = self.webhooks.secrets[
                "woocommerce"
            ].secret_arn
            outputs[names.Outputs.WEBHOOKS_URL] = f"{self.api.url}/webhooks"
        if self.catalog_sync is not None:
            outputs[names.Outputs.CATALOG_SYNC_SECRET_ARN] = self.catalog_sync.secret.secret_arn
            outputs[names.Outputs.CATALOG_SYNC_FUNCTION] = self.catalog_sync.function.function_name
        for key, value in outputs.items():
            CfnOutput(self, key, value=value, description=key.description)
