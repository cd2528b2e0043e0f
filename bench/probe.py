"""One Lambda handler in a fresh interpreter, as a new Lambda container would hold it.

``python -m bench.probe MODULE KEY [--invoke]`` imports ``MODULE`` and prints one
JSON object: the import time and the peak resident memory after it. With
``--invoke`` it then calls the handler three times with a typical event (the
first call is the cold one: for ``lookup_inventory`` it downloads and opens the
catalog's search snapshot; the next two are warm) and adds each call's time and
the peak memory. ``--cold`` calls it once, with the event of ``--event FILE`` if
given, and adds when that call ended (``time.monotonic()``, which is system-wide,
so the parent can time the whole cold invoke from before it started this process)
and what it answered (``status``), so a cold start that failed is never timed as
one that worked. The process imports nothing else of the project or the benchmark
(no moto): what it holds is what the Lambda would. The catalog table, the index
bucket and the two web APIs are served from the parent process over 127.0.0.1
(see ``bench.lambdas``).
"""

from __future__ import annotations

import argparse
import importlib
import json
import resource
import sys
import time
import uuid
from pathlib import Path
from typing import Any

IMPORT_MARKER = "bench.probe: importing the handler"
QUESTION = "What Windows laptop would you recommend for a college student?"


class Context:
    """The fields Powertools reads from a Lambda context."""

    def __init__(self, key: str, memory_mb: int, timeout_s: int) -> None:
        self.function_name = f"storechat-{key.replace('_', '-')}"
        self.function_version = "$LATEST"
        self.memory_limit_in_mb = memory_mb
        self.invoked_function_arn = f"arn:aws:lambda:us-east-1:123456789012:function:{key}"
        self.aws_request_id = str(uuid.uuid4())
        self._deadline = time.monotonic() + timeout_s

    def get_remaining_time_in_millis(self) -> int:
        return max(0, int((self._deadline - time.monotonic()) * 1000))


def _tool_use(name: str, tool_input: dict[str, Any]) -> dict[str, Any]:
    return {
        "toolUse": {"toolUseId": "tooluse_probe", "name": name, "input": tool_input},
        "executionId": "bench-probe",
    }


def event_for(key: str) -> dict[str, Any]:
    """A typical event for each function (the first question of the token set)."""
    if key == "converse":
        return {
            "messages": [{"role": "user", "content": [{"text": QUESTION}]}],
            "executionId": "bench-probe",
        }
    if key == "lookup_inventory":
        return _tool_use(key, {"category": "COMPUTERS", "keywords": "windows"})
    if key == "get_computer_reviews":
        return _tool_use(key, {"query": "Dell XPS 13"})
    if key == "get_book_info":
        return _tool_use(key, {"query": "Dune"})
    if key == "get_store_policies":
        return _tool_use(key, {"question": "What is your return policy?"})
    if key == "compose_response":
        product = {
            "productId": "CMP-023",
            "name": "HP 14 Laptop (14-ep0000)",
            "brand": "HP",
            "category": "COMPUTERS",
            "price": 349,
            "description": "An entry-level 14-inch laptop for web, email and documents.",
            "stock": 52,
            "specs": {"os": "Windows 11 Home", "ramGb": 8, "weightKg": 1.4},
        }
        return {
            "sessionId": "bench-session",
            "outcome": "answered",
            "answer": "1. HP 14 Laptop [CMP-023]: cheapest here; Windows 11 Home, $349.",
            "products": [product],
            "trace": [],
            "usage": {"inputTokens": 2349, "outputTokens": 136, "cacheReadInputTokens": 0},
            "toolRounds": 1,
            "modelCalls": 2,
            "executionId": "bench-probe",
        }
    raise ValueError(f"no probe event for {key}")


def answer_status(key: str, output: dict[str, Any]) -> str:
    """What a handler's output says about the call: a tool's ``toolResult`` status, the
    response's ``outcome``, the model's ``stopReason``."""
    if "toolResult" in output:
        return str(output["toolResult"].get("status"))
    if key == "converse":
        return str(output.get("stopReason"))
    unverified = len(output.get("unverifiedCitations") or [])
    # A cited product that could not be read (an earlier turn's, say) is not vouched for.
    return str(output.get("outcome")) + (f", {unverified} unverified" if unverified else "")


def _peak_rss_mb() -> float:
    """This process's peak resident memory, in MiB.

    VmHWM, not ``ru_maxrss``: Linux carries ``ru_maxrss`` over ``execve``, so a
    child of a large parent would report the parent's peak.
    """
    try:
        with open("/proc/self/status", encoding="ascii") as status:
            for line in status:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1]) / 1024
    except OSError:
        pass
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # KiB on Linux


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.probe")
    parser.add_argument("module")
    parser.add_argument("key")
    parser.add_argument("--invoke", action="store_true")
    parser.add_argument("--memory-mb", type=int, default=512)
    parser.add_argument("--timeout-s", type=int, default=5)
    parser.add_argument("--cold", action="store_true", help="one call, then stop")
    parser.add_argument("--event", help="a JSON file with the event (default: a typical one)")
    args = parser.parse_args(argv)

    # With -X importtime, the lines after this marker are the handler's imports.
    print(IMPORT_MARKER, file=sys.stderr, flush=True)
    started = time.perf_counter()
    module = importlib.import_module(args.module)
    result: dict[str, Any] = {
        "import_s": time.perf_counter() - started,
        "rss_after_import_mb": _peak_rss_mb(),
    }
    if args.invoke:
        handler = module.lambda_handler
        event = event_for(args.key)
        if args.key == "converse":
            # As the local runner does: the offline model is installed, never deployed.
            from storechat.offline import OfflineProvider

            module.use_provider(OfflineProvider())
        for label in ("first_call_s", "second_call_s", "third_call_s"):
            context = Context(args.key, args.memory_mb, args.timeout_s)
            started = time.perf_counter()
            handler(event, context)
            result[label] = time.perf_counter() - started
        result["rss_peak_mb"] = _peak_rss_mb()
    if args.cold:
        event = json.loads(Path(args.event).read_text()) if args.event else event_for(args.key)
        context = Context(args.key, args.memory_mb, args.timeout_s)
        started = time.perf_counter()
        output = module.lambda_handler(event, context)
        result["first_call_s"] = time.perf_counter() - started
        result["done_monotonic"] = time.monotonic()
        result["status"] = answer_status(args.key, output)
    # Last line: a deployed function's metrics (EMF) may have been printed before it.
    print(json.dumps(result), flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
