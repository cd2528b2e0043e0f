"""``python -m bench [--quick] [--out DIR]``: every figure, into results.md and results.json."""

from __future__ import annotations

import argparse
import contextlib
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

from bench import report
from bench.profile import FULL, QUICK
from bench.run import collect

DEFAULT_OUT = Path(__file__).with_name("results")


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m bench",
        description="Reproducible local benchmarks of storechat (see docs/bench.md).",
    )
    parser.add_argument(
        "--quick", action="store_true", help="a tiny smoke run: every figure, minimal sizes"
    )
    parser.add_argument(
        "--out",
        type=Path,
        help=f"output folder (default {DEFAULT_OUT}; with --quick, a new temporary folder)",
    )
    args = parser.parse_args(argv)
    # The smoke run's figures mean nothing: never let it overwrite the committed ones.
    out: Path = args.out or (
        Path(tempfile.mkdtemp(prefix="storechat-bench-quick-")) if args.quick else DEFAULT_OUT
    )
    started = time.perf_counter()
    # stdout carries the table alone. With metrics disabled, Powertools still
    # prints its buffer as EMF once a metric holds 100 values, and a long run
    # of in-process handlers gets there: send that to stderr.
    with contextlib.redirect_stdout(sys.stderr):
        results = collect(QUICK if args.quick else FULL)
    md_path, json_path = report.write(results, out)
    print(report.markdown(results))
    print(
        f"bench: wrote {md_path} and {json_path}; whole run {time.perf_counter() - started:.1f} s",
        file=sys.stderr,
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
