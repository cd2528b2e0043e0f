"""``storechat doctor --stack NAME``: after ``cdk deploy``, is the stack ready for shoppers?

Every check prints one line (``ok``, ``FAIL`` or ``off``), a failed one with what to do.
Exit 0 when nothing failed, 1 when a check failed or the stack cannot be read.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, TextIO

from shared.store.settings import load as load_store
from storechat.doctor import checks
from storechat.doctor.checks import Finding
from storechat.doctor.deployed import DeployedStack, StackUnreadable, connect
from storechat.settings import SAMPLE_STORE

EXIT_FAILED = 1
STACK_PREFIX = "Storechat-"
"""Stack names are ``Storechat-<env>`` (``infra.names.stack_name``)."""

MARKS = {"ok": "ok  ", "fail": "FAIL", "off": "off "}


def add_doctor_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--stack", required=True, help="the deployed stack, e.g. Storechat-prod")
    parser.add_argument("--region", help="the stack's Region (default: your AWS configuration's)")
    parser.add_argument("--profile", help="the AWS profile to use")
    parser.add_argument(
        "--reviews-off",
        action="store_true",
        help="the store knowingly runs without the Brave key (reviews off): not a failure",
    )
    parser.add_argument(
        "--cdk-json",
        type=Path,
        default=Path("cdk.json"),
        metavar="PATH",
        help="where the stack's settings are read from (store.allowedOrigins; default: ./cdk.json)",
    )


def allowed_origins(cdk_json: Path, stack: str) -> list[str] | None:
    """``store.allowedOrigins`` of the stack's environment in ``cdk_json`` (its defaults
    merged with the environment's block), or None where there is no such setting."""
    try:
        context = json.loads(cdk_json.read_text(encoding="utf-8"))["context"]["storechat"]
    except (OSError, ValueError, KeyError, TypeError):
        return None
    env = stack.removeprefix(STACK_PREFIX)
    store: dict[str, Any] = {}
    for block in (context.get("defaults") or {}, (context.get("environments") or {}).get(env)):
        if isinstance(block, dict) and isinstance(block.get("store"), dict):
            store.update(block["store"])
    origins = store.get("allowedOrigins")
    return [str(o) for o in origins] if isinstance(origins, list) else None


def run_checks(
    stack: DeployedStack,
    *,
    reviews_off: bool = False,
    origins: Sequence[str] | None = None,
    today: str | None = None,
) -> list[Finding]:
    """Every check, in the order an operator would fix them."""
    day = today or datetime.now(UTC).date().isoformat()
    planned = [
        (checks.MODEL, lambda: checks.model_answers(stack, day)),
        (checks.REVIEWS, lambda: checks.brave_key(stack, reviews_off)),
        (checks.SNAPSHOT, lambda: checks.snapshot_published(stack)),
        (checks.ALARMS, lambda: checks.alarm_subscription(stack)),
        (checks.WAF, lambda: checks.waf_attached(stack)),
        (checks.SPEND, lambda: checks.spend_counter(stack, day)),
        (checks.PAGE, lambda: checks.page_config(stack)),
        (checks.STORE, lambda: checks.store_described(stack, load_store(SAMPLE_STORE).settings)),
        (checks.ORIGINS, lambda: checks.storefront_origins(stack, origins)),
    ]
    return [checks.guarded(name, check) for name, check in planned]


def print_findings(findings: Sequence[Finding], out: TextIO) -> None:
    for finding in findings:
        print(f"  {MARKS[finding.status]}  {finding.check}: {finding.said}", file=out)
        if finding.status == "fail" and finding.fix:
            print(f"        fix: {finding.fix}", file=out)
    failed = sum(f.status == "fail" for f in findings)
    verdict = (
        f"{failed} of {len(findings)} checks failed."
        if failed
        else f"All {len(findings)} checks passed."
    )
    print(verdict, file=out)


def run_doctor(args: argparse.Namespace, out: TextIO | None = None) -> int:
    out = out or sys.stdout
    try:
        stack = connect(args.stack, region=args.region, profile=args.profile)
    except StackUnreadable as exc:
        print(f"error: {exc}", file=sys.stderr)
        return EXIT_FAILED
    print(f"storechat doctor: {stack.name} in {stack.region}", file=out)
    findings = run_checks(
        stack,
        reviews_off=args.reviews_off,
        origins=allowed_origins(args.cdk_json, args.stack),
    )
    print_findings(findings, out)
    return EXIT_FAILED if any(f.status == "fail" for f in findings) else 0
