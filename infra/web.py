"""The chat host: ``web/`` in a private bucket, served by CloudFront through OAC.

It serves two things from one set of modules (no build step): the hosted chat page
(``index.html``, for a link in an e-mail) and the widget a store puts on its own pages
with one tag (``widget.js``). Both learn where the API is and what the store is called
from ``config.json``, written at deploy time next to the files.

The widget runs on the store's pages, another origin: its modules, stylesheet and
``config.json`` are fetched from there across origins, so every file is served with
``Access-Control-Allow-Origin: *`` (public files, no credentials; what a page may then
do with the API is the API's own CORS, which allows only the store's origins). A page
on an origin the store did not allow still loads the widget, which then says why it
cannot answer there.
"""

from __future__ import annotations

import jsii
from aws_cdk import DefaultStackSynthesizer, Duration, IStableStringProducer, Lazy, Stack, Token
from aws_cdk import aws_certificatemanager as acm
from aws_cdk import aws_cloudfront as cloudfront
from aws_cdk import aws_cloudfront_origins as origins
from aws_cdk import aws_s3 as s3
from aws_cdk import aws_s3_deployment as s3deploy
from constructs import Construct

from infra import names
from infra.config import EnvironmentConfig
from infra.nag import BASIC_EXECUTION_POLICY, acknowledge, logical_id, stack_singleton
from infra.runtime import log_group, removal_policy
from shared.api.page_policy import content_security_policy
from shared.api.vocabulary import PAGE_NAMES_FILE, page_names
from shared.config.time_budget import CLIENT_WAIT_MS
from shared.store.settings import page_settings

WIDGET_FILE = "widget.js"


def _nag(value: str, pseudo: str) -> str:
    """How cdk-nag spells a value in a finding id: a pseudo parameter as ``<AWS::Name>``."""
    return f"<{pseudo}>" if Token.is_unresolved(value) else value


@jsii.implements(IStableStringProducer)
class _PagePolicy:
    """The page's CSP, made when the API it talks to is known (after the distribution)."""

    def __init__(self, images: list[str]) -> None:
        self.images = images
        self.api_url: str | None = None

    def produce(self) -> str:
        if self.api_url is None:
            raise RuntimeError("WebHosting.publish(api_url=...) was never called")
        # A source ending in "/" covers every path below it: /query and any later route.
        return content_security_policy(images=self.images, connect=[f"{self.api_url}/"])


class WebHosting(Construct):
    def __init__(self, scope: Construct, id: str, *, config: EnvironmentConfig) -> None:
        super().__init__(scope, id)
        self._config = config
        self._policy = _PagePolicy(config.image_hosts)
        # The managed SecurityHeadersPolicy's headers, with the page's own CSP added.
        headers = cloudfront.ResponseHeadersPolicy(
            self,
            "Headers",
            comment=f"{config.stack_name} chat page: security headers and CSP",
            cors_behavior=cloudfront.ResponseHeadersCorsBehavior(
                access_control_allow_origins=["*"],
                access_control_allow_methods=["GET", "HEAD"],
                access_control_allow_headers=["*"],
                access_control_allow_credentials=False,
                access_control_max_age=Duration.hours(1),
                origin_override=True,
            ),
            security_headers_behavior=cloudfront.ResponseSecurityHeadersBehavior(
                content_security_policy=cloudfront.ResponseHeadersContentSecurityPolicy(
                    content_security_policy=Lazy.string(self._policy), override=True
                ),
                content_type_options=cloudfront.ResponseHeadersContentTypeOptions(override=True),
                frame_options=cloudfront.ResponseHeadersFrameOptions(
                    frame_option=cloudfront.HeadersFrameOption.DENY, override=True
                ),
                referrer_policy=cloudfront.ResponseHeadersReferrerPolicy(
                    referrer_policy=cloudfront.HeadersReferrerPolicy.STRICT_ORIGIN_WHEN_CROSS_ORIGIN,
                    override=True,
                ),
                strict_transport_security=cloudfront.ResponseHeadersStrictTransportSecurity(
                    access_control_max_age=Duration.days(365),
                    include_subdomains=False,
                    override=True,
                ),
                xss_protection=cloudfront.ResponseHeadersXSSProtection(
                    protection=True, mode_block=True, override=True
                ),
            ),
        )
        self.bucket = s3.Bucket(
            self,
            "Site",
            block_public_access=s3.BlockPublicAccess.BLOCK_ALL,
            encryption=s3.BucketEncryption.S3_MANAGED,
            enforce_ssl=True,
            object_ownership=s3.ObjectOwnership.BUCKET_OWNER_ENFORCED,
            removal_policy=removal_policy(config),
        )
        domain = config.store.settings.domain
        self.distribution = cloudfront.Distribution(
            self,
            "Cdn",
            comment=f"{config.stack_name} chat page and widget",
            domain_names=[domain.name] if domain else None,
            certificate=acm.Certificate.from_certificate_arn(
                self, "Certificate", domain.certificateArn
            )
            if domain
            else None,
            minimum_protocol_version=cloudfront.SecurityPolicyProtocol.TLS_V1_2_2021
            if domain
            else None,
            default_root_object="index.html",
            default_behavior=cloudfront.BehaviorOptions(
                origin=origins.S3BucketOrigin.with_origin_access_control(self.bucket),
                viewer_protocol_policy=cloudfront.ViewerProtocolPolicy.REDIRECT_TO_HTTPS,
                cache_policy=cloudfront.CachePolicy.CACHING_OPTIMIZED,
                response_headers_policy=headers,
                compress=True,
            ),
            http_version=cloudfront.HttpVersion.HTTP2_AND_3,
            price_class=cloudfront.PriceClass.PRICE_CLASS_100,
        )
        host = domain.name if domain else self.distribution.distribution_domain_name
        self.url = f"https://{host}"
        """The page's origin (no trailing slash), which the API's CORS allows."""
        self.widget_url = f"{self.url}/{WIDGET_FILE}"
        """What a store puts in its one tag."""

        acknowledge(
            self.bucket,
            {
                "AwsSolutions-S1": (
                    "The bucket holds only the public page's static files, read solely by "
                    "CloudFront through OAC; server access logs would record nothing of value."
                )
            },
        )
        tls = (
            {}
            if domain
            else {
                "AwsSolutions-CFR4": (
                    "The default *.cloudfront.net certificate cannot pin a minimum TLS "
                    "version; a custom domain (store.domain) sets TLSv1.2_2021."
                ),
            }
        )
        acknowledge(
            self.distribution,
            {
                **tls,
                "AwsSolutions-CFR1": "A public store page: no country is to be excluded.",
                "AwsSolutions-CFR2": (
                    "The page is static files; the API behind it has its own throttling and "
                    "validation. Attach the store's WAF web ACL here if it has one."
                ),
                "AwsSolutions-CFR3": (
                    "Static public files: API access logs already record every conversation "
                    "request, so CloudFront standard logs are not kept."
                ),
            },
        )

    def publish(self, *, api_url: str) -> s3deploy.BucketDeployment:
        """Upload ``web/``, ``config.json`` and ``names.json``; invalidate the CDN's copies.

        ``api_url`` is also the one address besides its own the page's CSP lets it call.
        """
        self._policy.api_url = api_url
        if not names.WEB_DIR.is_dir():
            raise FileNotFoundError(
                f"{names.WEB_DIR} is missing: the chat page's files (index.html, app.js, "
                "styles.css) live there"
            )
        deployment = s3deploy.BucketDeployment(
            self,
            "Publish",
            destination_bucket=self.bucket,
            sources=[
                s3deploy.Source.asset(str(names.WEB_DIR)),
                s3deploy.Source.json_data(
                    names.WEB_CONFIG_FILE,
                    {
                        "apiUrl": api_url,
                        "currency": self._config.store_currency,
                        "weightUnit": self._config.store_weight_unit,
                        "store": page_settings(self._config.store.settings),
                        "requestTimeoutMs": CLIENT_WAIT_MS,
                    },
                ),
                s3deploy.Source.json_data(PAGE_NAMES_FILE, page_names()),
            ],
            distribution=self.distribution,
            distribution_paths=["/*"],
            # Short browser caching: a deploy is visible within a minute.
            cache_control=[s3deploy.CacheControl.max_age(Duration.minutes(1))],
            retain_on_delete=self._config.removal_policy == "retain",
            log_group=log_group(self, "PublishLogs", self._config),
        )
        self._acknowledge_handler()
        return deployment

    def _acknowledge_handler(self) -> None:
        # BucketDeployment's handler is one function per stack, created at the stack's root.
        handler = stack_singleton(self, "Custom::CDKBucketDeployment", "BucketDeployment handler")
        stack = Stack.of(self)
        bucket_id = logical_id(self.bucket)
        qualifier = DefaultStackSynthesizer.DEFAULT_QUALIFIER
        why_s3 = (
            "CDK's BucketDeployment handler copies the page from the CDK asset bucket into "
            "the site bucket and prunes old files: its S3 grants are CDK's fixed read/write "
            "sets on those two buckets' objects."
        )
        acknowledge(
            handler,
            {
                BASIC_EXECUTION_POLICY: (
                    "CDK's BucketDeployment handler writes only its own logs with the AWS "
                    "managed basic execution policy."
                ),
                "AwsSolutions-IAM5[Action::s3:GetBucket*]": why_s3,
                "AwsSolutions-IAM5[Action::s3:GetObject*]": why_s3,
                "AwsSolutions-IAM5[Action::s3:List*]": why_s3,
                "AwsSolutions-IAM5[Action::s3:Abort*]": why_s3,
                "AwsSolutions-IAM5[Action::s3:DeleteObject*]": why_s3,
                f"AwsSolutions-IAM5[Resource::<{bucket_id}.Arn>/*]": why_s3,
                f"AwsSolutions-IAM5[Resource::arn:{_nag(stack.partition, 'AWS::Partition')}:s3:::"
                f"cdk-{qualifier}-assets-{_nag(stack.account, 'AWS::AccountId')}-"
                f"{_nag(stack.region, 'AWS::Region')}/*]": why_s3,
                "AwsSolutions-IAM5[Resource::*]": (
                    "cloudfront:CreateInvalidation/GetInvalidation (to refresh the page after "
                    "a deploy) support no resource-level scoping in CDK's grant."
                ),
                "AwsSolutions-L1": (
                    "The BucketDeployment handler's runtime is set by aws-cdk-lib; it runs "
                    "only during deployments."
                ),
            },
        )
