#!/usr/bin/env python3
"""storechat's CDK app: ``npx cdk synth -c env=dev`` or ``python app.py [-c env=prod]``."""

from __future__ import annotations

import argparse
import os
import sys

from infra.app import create_app
from infra.code_asset import BytecodeError
from infra.config import ConfigError
from infra.layers import LayerBuildError


def _context(pairs: list[str]) -> dict[str, str]:
    values = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key:
            raise SystemExit(f"app.py: -c expects KEY=VALUE, got {pair!r}")
        values[key] = value
    return values


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument(
        "-c",
        "--context",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="context value, as with the CDK CLI (e.g. -c env=prod)",
    )
    args = parser.parse_args(argv)
    try:
        app, stack = create_app(overrides=_context(args.context))
        assembly = app.synth()
    except ConfigError as exc:
        print(f"storechat: {exc}", file=sys.stderr)
        return 2
    except (LayerBuildError, BytecodeError) as exc:
        print(f"storechat: {exc}", file=sys.stderr)
        return 1
    if not os.environ.get("CDK_OUTDIR"):  # run by hand, not by the CDK CLI
        print(f"synthesized {stack.stack_name} into {assembly.directory}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
