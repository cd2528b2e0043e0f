"""What ``storechat doctor`` checks on a deployed stack, one function each.

Each returns a :class:`Finding`: ``ok``, ``fail`` (with the fix in plain words) or
``off`` (knowingly not set up: not a failure). A check reads what the stack's outputs
name, with the operator's credentials; only the model check spends anything (one tiny
Converse call, added to the day's spend counter like a shopper's question).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Final, Literal
from urllib.parse import urlsplit

from botocore.exceptions import BotoCoreError, ClientError

import statemachine
from shared.config.pricing import PriceListError, token_prices
from shared.search import SnapshotPointer, SnapshotUnreadable
from shared.store.settings import Store as StoreSettings
from storechat.doctor.deployed import (
    NO_WEB_ACL,
    POINTER_KEY,
    DeployedStack,
    Output,
    StackUnreadable,
)

Status = Literal["ok", "fail", "off"]

PROMPT: Final = "This is a deployment check. Reply with the one word: ready."
MAX_TOKENS: Final = 16
PENDING: Final = ("PendingConfirmation", "Deleted")


@dataclass(frozen=True)
class Finding:
    check: str
    status: Status
    said: str
    fix: str = ""


def _error(exc: Exception) -> tuple[str, str]:
    if isinstance(exc, ClientError):
        error = exc.response.get("Error", {})
        return str(error.get("Code", "Error")), str(error.get("Message", ""))
    return type(exc).__name__, str(exc)


MODEL = "the model answers"


def model_answers(stack: DeployedStack, today: str) -> Finding:
    model_id, region = stack.output(Output.MODEL_ID), stack.output(Output.MODEL_REGION)
    try:
        reply = stack.client("bedrock-runtime", region).converse(
            modelId=model_id,
            messages=[{"role": "user", "content": [{"text": PROMPT}]}],
            inferenceConfig={"maxTokens": MAX_TOKENS},
        )
    except (ClientError, BotoCoreError) as exc:
        code, message = _error(exc)
        said = f"{model_id} in {region} refused: {code}: {message}"
        return Finding(MODEL, "fail", said, _model_fix(code, message, model_id, region))
    blocks = reply.get("output", {}).get("message", {}).get("content", [])
    text = " ".join(b["text"].strip() for b in blocks if isinstance(b.get("text"), str))
    usage = reply.get("usage") or {}
    return Finding(
        MODEL,
        "ok",
        f"{model_id} in {region} answered {text[:40]!r}; {_count(stack, model_id, usage, today)}",
    )


def _count(stack: DeployedStack, model_id: str, usage: dict[str, Any], today: str) -> str:
    """Add the call's cost to today's spend counter, as the state machine's AddToSpend does."""
    tokens = sum(int(usage.get(k) or 0) for k in ("inputTokens", "outputTokens"))
    try:
        micro_usd = round(token_prices(model_id).cost_usd(usage) * 1_000_000)
    except PriceListError as exc:
        return f"{tokens} tokens, not counted in the budget ({exc})"
    try:
        stack.client("dynamodb").update_item(
            TableName=stack.output(Output.SPEND_TABLE_NAME),
            Key={"day": {"S": today}},
            UpdateExpression="ADD spentMicroUsd :spent SET expiresAt = if_not_exists("
            "expiresAt, :expires)",
            ExpressionAttributeValues={
                ":spent": {"N": str(micro_usd)},
                ":expires": {"N": str(_expires(today))},
            },
        )
    except (ClientError, BotoCoreError) as exc:
        return f"{tokens} tokens, not counted in the budget ({_error(exc)[0]})"
    return f"{tokens} tokens, ${micro_usd / 1_000_000:.6f} added to {today}'s spend"


def _expires(today: str) -> int:
    from datetime import UTC, datetime

    start = datetime.fromisoformat(today).replace(tzinfo=UTC)
    return int(start.timestamp()) + statemachine.SPEND_KEPT_DAYS * 86_400


def _model_fix(code: str, message: str, model_id: str, region: str) -> str:
    lowered = message.lower()
    if code == "AccessDeniedException" and "bedrock:invokemodel" in lowered:
        return (
            f"your own credentials may not call {model_id}: run doctor as an operator "
            "allowed bedrock:InvokeModel (the stack's Converse role has its own grant)"
        )
    if code == "AccessDeniedException":
        return (
            "the account has not enabled this model yet. Run doctor again as an operator "
            "allowed aws-marketplace:Subscribe, aws-marketplace:Unsubscribe and "
            "aws-marketplace:ViewSubscriptions: that first call starts the account's "
            "subscription (give it up to 15 minutes, then run doctor again). For an "
            "Anthropic model, submit the one-time use-case form first (Bedrock console, "
            f"{region}, Model catalog, open the model). The stack's own role never "
            "subscribes (docs/deploy.md, 'The first model call')."
        )
    if code in ("ValidationException", "ResourceNotFoundException"):
        return (
            f"{model_id} cannot be called in {region}: check model_id and bedrock_region in "
            "cdk.json (an inference profile must match the Region's geography), then deploy"
        )
    if code in ("ThrottlingException", "ServiceQuotaExceededException"):
        return (
            "Bedrock throttled a single call: raise the account's quota for this model "
            "(Service Quotas, Amazon Bedrock, on-demand requests and tokens per minute)"
        )
    return "try again in a minute; if it persists, see the Bedrock console's service health"


REVIEWS = "the Brave key is set"


def brave_key(stack: DeployedStack, reviews_off: bool) -> Finding:
    arn = stack.output(Output.BRAVE_SECRET_ARN)
    try:
        value = stack.client("secretsmanager").get_secret_value(SecretId=arn).get("SecretString")
    except (ClientError, BotoCoreError) as exc:
        code, _ = _error(exc)
        fix = "your credentials need secretsmanager:GetSecretValue on the secret"
        return Finding(REVIEWS, "fail", f"cannot read the secret ({code})", fix)
    if (value or "").strip():
        return Finding(REVIEWS, "ok", "the secret holds a key (not shown)")
    if reviews_off:
        return Finding(REVIEWS, "off", "blank: reviews are knowingly off (--reviews-off)")
    return Finding(
        REVIEWS,
        "fail",
        "the secret is blank: the reviews tool tells the model reviews are not configured",
        f"aws secretsmanager put-secret-value --secret-id {arn} --secret-string "
        "file://brave.key (docs/deploy.md, 'Setting the Brave key'); if the store runs "
        "without reviews, say so with --reviews-off",
    )


SNAPSHOT = "the search snapshot is published"


def snapshot_published(stack: DeployedStack) -> Finding:
    bucket = stack.output(Output.CATALOG_INDEX_BUCKET)
    s3 = stack.client("s3")
    rebuild = (
        "the deploy's first rebuild takes a few minutes after the stack is created; if it "
        "is still missing after 15 minutes, read the indexer's log (the CatalogIndexerErrors "
        "alarm) and rebuild by hand (docs/deploy.md, 'The catalog search index')"
    )
    try:
        pointer = SnapshotPointer.from_json(
            s3.get_object(Bucket=bucket, Key=POINTER_KEY)["Body"].read()
        )
        s3.head_object(Bucket=bucket, Key=pointer.key)
    except SnapshotUnreadable as exc:
        return Finding(SNAPSHOT, "fail", f"the pointer is unreadable ({exc})", rebuild)
    except (ClientError, BotoCoreError) as exc:
        code, _ = _error(exc)
        if code in ("NoSuchKey", "404", "NotFound"):
            said = "no snapshot yet: shoppers are told the catalog is being indexed"
            return Finding(SNAPSHOT, "fail", said, rebuild)
        fix = "your credentials need s3:GetObject and s3:ListBucket on the index bucket"
        return Finding(SNAPSHOT, "fail", f"cannot read the index bucket ({code})", fix)
    said = f"{pointer.product_count:,} products, built {pointer.built_at}"
    return Finding(SNAPSHOT, "ok", said)


ALARMS = "someone receives the alarms"


def alarm_subscription(stack: DeployedStack) -> Finding:
    topic = stack.output(Output.ALARM_TOPIC_ARN)
    try:
        pages = stack.client("sns").get_paginator("list_subscriptions_by_topic")
        subscriptions = [
            s for page in pages.paginate(TopicArn=topic) for s in page.get("Subscriptions", [])
        ]
    except (ClientError, BotoCoreError) as exc:
        fix = "your credentials need sns:ListSubscriptionsByTopic on the alarm topic"
        return Finding(ALARMS, "fail", f"cannot list the subscriptions ({_error(exc)[0]})", fix)
    confirmed = [s for s in subscriptions if s.get("SubscriptionArn") not in PENDING]
    if confirmed:
        who = ", ".join(f"{s['Protocol']} {s['Endpoint']}" for s in confirmed)
        return Finding(ALARMS, "ok", f"confirmed: {who}")
    pending = [s for s in subscriptions if s.get("SubscriptionArn") == "PendingConfirmation"]
    if pending:
        who = ", ".join(s["Endpoint"] for s in pending)
        return Finding(
            ALARMS,
            "fail",
            f"not confirmed yet: {who}; no alarm reaches anyone until one is",
            "follow the link in the 'AWS Notification - Subscription Confirmation' e-mail "
            "(it expires after 3 days; to send a new one: aws sns subscribe --topic-arn "
            f"{topic} --protocol email --notification-endpoint ADDRESS)",
        )
    return Finding(
        ALARMS,
        "fail",
        "nobody is subscribed: the alarms reach no one",
        "set alarms.emails or alarms.https_endpoints in cdk.json (or deploy with "
        "-c alarm_emails=you@example.com) and deploy",
    )


WAF = "the WAF is attached"


def stage_arn(api_url: str, region: str) -> str:
    """The API stage's ARN, from its URL (``https://ID.execute-api.REGION.../STAGE``)."""
    parts = urlsplit(api_url)
    api_id = (parts.hostname or "").split(".")[0]
    stage = parts.path.strip("/").split("/")[0]
    return f"arn:aws:apigateway:{region}::/restapis/{api_id}/stages/{stage}"


def waf_attached(stack: DeployedStack) -> Finding:
    acl = stack.output(Output.WEB_ACL_ARN)
    if acl == NO_WEB_ACL:
        return Finding(WAF, "off", "this environment has no client_rate_limit, so no web ACL")
    stage = stage_arn(stack.output(Output.API_URL), stack.region)
    try:
        found = stack.client("wafv2").get_web_acl_for_resource(ResourceArn=stage)
    except (ClientError, BotoCoreError) as exc:
        fix = "your credentials need wafv2:GetWebACLForResource"
        return Finding(WAF, "fail", f"cannot ask WAF ({_error(exc)[0]})", fix)
    attached = (found.get("WebACL") or {}).get("ARN")
    if attached == acl:
        where = stage.split("/restapis/", 1)[1].replace("/stages/", "/")
        return Finding(WAF, "ok", f"web ACL {acl.rsplit('/', 2)[-2]} is attached to {where}")
    said = f"the API's stage has {'another web ACL' if attached else 'no web ACL'}"
    return Finding(
        WAF,
        "fail",
        said,
        f"deploy again, or: aws wafv2 associate-web-acl --web-acl-arn {acl} --resource-arn {stage}",
    )


SPEND = "the spend counter is readable"


def spend_counter(stack: DeployedStack, today: str) -> Finding:
    table = stack.output(Output.SPEND_TABLE_NAME)
    try:
        item = stack.client("dynamodb").get_item(
            TableName=table, Key={"day": {"S": today}}, ConsistentRead=True
        )
    except (ClientError, BotoCoreError) as exc:
        code, _ = _error(exc)
        fix = (
            "the spend table is gone: deploy again (the budget does not limit meanwhile)"
            if code == "ResourceNotFoundException"
            else "your credentials need dynamodb:GetItem on the spend table"
        )
        return Finding(SPEND, "fail", f"cannot read {today}'s counter ({code})", fix)
    spent = int((item.get("Item") or {}).get("spentMicroUsd", {}).get("N") or 0)
    return Finding(SPEND, "ok", f"{today}: ${spent / 1_000_000:.4f} spent so far")


PAGE = "the page's config points at this API"
_REDEPLOY = (
    "deploy again (the deploy writes config.json and invalidates CloudFront's copy; "
    "allow a few minutes); a new account's first CloudFront distribution may wait for "
    "AWS to verify the account (docs/deploy.md)"
)


def _page_json(stack: DeployedStack) -> tuple[dict[str, Any] | None, str]:
    """The page's ``config.json`` as deployed, or None and why it cannot be read."""
    url = f"{stack.output(Output.WEB_URL).rstrip('/')}/config.json"
    try:
        answer = stack.http("GET", url, {"Accept": "application/json"})
    except OSError as exc:
        return None, f"{url} cannot be fetched ({exc})"
    if answer.status != 200:
        return None, f"{url} answered {answer.status}"
    try:
        config = json.loads(answer.body)
    except ValueError:
        config = None
    if not isinstance(config, dict):
        return None, f"{url} is not the page's JSON config"
    return config, url


def page_config(stack: DeployedStack) -> Finding:
    api_url = stack.output(Output.API_URL)
    config, said = _page_json(stack)
    if config is None:
        return Finding(PAGE, "fail", said, _REDEPLOY)
    told = config.get("apiUrl")
    if told != api_url:
        return Finding(PAGE, "fail", f"the page calls {told!r}, not {api_url}", _REDEPLOY)
    return Finding(PAGE, "ok", f"{said} names {api_url}")


STORE = "the assistant speaks for this store"


def store_described(stack: DeployedStack, sample: StoreSettings) -> Finding:
    """The store the page and the answers name is not the bundled sample store: a stack
    deployed with cdk.json's ``store`` block as it ships greets shoppers as the sample
    store, links its pages and answers with its policies and contact."""
    config, said = _page_json(stack)
    store = config.get("store") if config is not None else None
    if not isinstance(store, dict):
        why = said if config is None else f"{said} names no store"
        return Finding(STORE, "fail", why, _REDEPLOY)
    name, url = str(store.get("name") or ""), str(store.get("url") or "")
    alike = [
        f"{what} {value!r}"
        for what, value, theirs in (("name", name, sample.name), ("url", url, sample.url))
        if value and value.rstrip("/").casefold() == theirs.rstrip("/").casefold()
    ]
    if alike:
        return Finding(
            STORE,
            "fail",
            f"the sample store's {' and '.join(alike)}: shoppers are greeted as it, and "
            "answered with its policies, contact and links",
            "describe your store in cdk.json's store block for this environment (name, url, "
            "policies, contact, assistant; docs/widget.md); deploy",
        )
    return Finding(STORE, "ok", f"{name} at {url}")


ORIGINS = "the storefront origins are allowed"


def storefront_origins(stack: DeployedStack, origins: Sequence[str] | None) -> Finding:
    if origins is None:
        return Finding(
            ORIGINS, "off", "not configured: cdk.json has no store.allowedOrigins for this stack"
        )
    if not origins:
        return Finding(
            ORIGINS,
            "fail",
            "store.allowedOrigins is empty: the chat on the store's own pages cannot call the API",
            "list the store's origins (https://shop.example.com) in store.allowedOrigins; deploy",
        )
    query_url = stack.output(Output.QUERY_URL)
    refused = []
    for origin in origins:
        try:
            answer = stack.http("OPTIONS", query_url, _preflight(origin))
        except OSError as exc:
            return Finding(ORIGINS, "fail", f"{query_url} cannot be reached ({exc})", "")
        allowed = {k.lower(): v for k, v in answer.headers.items()}.get(
            "access-control-allow-origin"
        )
        if allowed != origin:
            refused.append(origin)
    if refused:
        return Finding(
            ORIGINS,
            "fail",
            f"the API refuses {', '.join(refused)}",
            "deploy again: the API allows the origins cdk.json lists when it is deployed",
        )
    return Finding(ORIGINS, "ok", f"the API allows {', '.join(origins)}")


def _preflight(origin: str) -> dict[str, str]:
    return {
        "Origin": origin,
        "Access-Control-Request-Method": "POST",
        "Access-Control-Request-Headers": "content-type",
    }


Check = Callable[[], Finding]


def guarded(name: str, check: Check) -> Finding:
    """``check``'s finding; a missing output or an unexpected failure is a failed check."""
    try:
        return check()
    except StackUnreadable as exc:
        return Finding(name, "fail", "cannot check", str(exc))
