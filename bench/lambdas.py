"""Figure 4: the Lambda handlers on their own: warm latency, cold import, memory."""

from __future__ import annotations

import gc
import json
import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator, Mapping
from contextlib import ExitStack, contextmanager
from pathlib import Path
from typing import Any

from bench import probe
from bench.asset import asset_copy
from bench.catalog import Catalogs, publish_index
from bench.profile import LatencyPlan, Profile
from bench.stats import summary
from bench.tools import canned_web
from registry import functions_by_key
from shared.runtime.observability import metrics
from storechat.local import LocalStorechat
from storechat.local.lambdas import FakeContext
from storechat.local.runner import CATALOG_TABLE, OFFLINE_MODEL_ID, REGION

REPO_ROOT = Path(__file__).resolve().parents[1]
LOOKUP = "lookup_inventory"
LOOKUP_CATEGORY = "COMPUTERS"
METRICS_NAMESPACE = "Storechat"
"""The namespace the handlers' metrics carry in the bench (deployed: ``Storechat/<env>``)."""


# --------------------------------------------------------------------------- warm latency


@contextmanager
def _metrics_namespace() -> Iterator[None]:
    """Give the shared ``Metrics`` a namespace while the bench calls handlers itself.

    Powertools reads ``POWERTOOLS_METRICS_NAMESPACE`` once, when ``shared.runtime.observability``
    builds ``metrics``, and the bench imports that module before any ``LocalStorechat``
    sets its environment. Without a namespace, the hundredth buffered value of one metric
    raises ``SchemaValidationError``. The namespace is set on the object for this block,
    not in ``os.environ`` for the whole process; a deployed Lambda still takes it from its
    environment.
    """
    previous = metrics.namespace
    metrics.namespace = previous or METRICS_NAMESPACE
    try:
        yield
    finally:
        metrics.clear_metrics()
        metrics.namespace = previous


def _timed_call(event: dict[str, Any], context: FakeContext) -> tuple[float, dict[str, Any]]:
    """One direct call of lookup_inventory's handler, in milliseconds."""
    from lookup_inventory import handler

    started = time.perf_counter()
    output: dict[str, Any] = handler.lambda_handler(event, context)
    elapsed_ms = (time.perf_counter() - started) * 1000
    # As the local runner's Dispatcher does: metrics are off locally, so Powertools never
    # flushes (and never clears) them, where a Lambda clears them after every invocation.
    metrics.clear_metrics()
    return elapsed_ms, output


def _measure(plan: LatencyPlan, server: str, category_items: int) -> dict[str, Any]:
    from lookup_inventory import handler

    function = functions_by_key()[LOOKUP]
    event = probe.event_for(LOOKUP)
    gc.collect()
    colds: list[float] = []
    output: dict[str, Any] = {}
    for _ in range(plan.cold_samples):
        handler.snapshot_holder.cache_clear()  # as a new container: no snapshot yet
        elapsed_ms, output = _timed_call(event, FakeContext(function))
        colds.append(elapsed_ms)
    warms: list[float] = []
    for _ in range(plan.warm_samples):  # the last cold call left the snapshot open
        warms.append(_timed_call(event, FakeContext(function))[0])
    status = output["toolResult"]["status"]
    if status != "success":
        raise RuntimeError(f"lookup_inventory answered {status}: {output['toolResult']}")
    matches = output["toolResult"]["content"][0]["json"].get("count", 0)
    return {
        "products": plan.products,
        "server": server,
        "category_items": category_items,
        "matches": matches,
        "cold_ms": summary(colds),
        "warm_ms": summary(warms),
        "timeout_ms": function.timeout_s * 1000,
    }


def warm_latency(profile: Profile, catalogs: Catalogs) -> list[dict[str, Any]]:
    """lookup_inventory, per catalog size: warm (its snapshot open) and cold (the snapshot
    fetched from the index bucket, checked and opened first, as at a cold start).

    The event is the first token question's lookup (COMPUTERS, keywords=windows). The
    snapshot is published to moto's S3; the fresh read of the products found is served
    by :class:`FastCatalog`; one reference row lets moto serve it, to show what that adds.
    """
    from lookup_inventory import handler

    rows = []
    with _metrics_namespace(), LocalStorechat(catalog=[]):
        for plan in profile.latency:
            fast = catalogs.fast(plan.products)
            publish_index(catalogs.products(plan.products))
            handler.catalog_source.cache_clear()  # a client made while FastCatalog serves
            handler.snapshot_holder.cache_clear()
            with fast.serving():
                rows.append(_measure(plan, "fast", fast.counts.get(LOOKUP_CATEGORY, 0)))
    reference = profile.moto_reference
    products = catalogs.products(reference.products)
    items = sum(1 for p in products if p["category"] == LOOKUP_CATEGORY)
    with _metrics_namespace(), LocalStorechat(catalog=products):
        rows.append(_measure(reference, "moto", items))
    return rows


# --------------------------------------------------------------------------- subprocesses


def probe_env(extra: Mapping[str, str] | None = None) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("AWS_", "POWERTOOLS_"))}
    env.update(
        {
            # Fake credentials: every AWS call the probe makes goes to 127.0.0.1.
            "AWS_ACCESS_KEY_ID": "bench",
            "AWS_SECRET_ACCESS_KEY": "bench",
            "AWS_DEFAULT_REGION": REGION,
            "CATALOG_TABLE_NAME": CATALOG_TABLE,
            "MODEL_PROVIDER": "offline",
            "MODEL_ID": OFFLINE_MODEL_ID,
            "POWERTOOLS_SERVICE_NAME": "storechat",
            "POWERTOOLS_TRACE_DISABLED": "true",
            "POWERTOOLS_METRICS_DISABLED": "true",
            "POWERTOOLS_METRICS_NAMESPACE": METRICS_NAMESPACE,
            "POWERTOOLS_LOG_LEVEL": "WARNING",
            "PYTHONPATH": os.pathsep.join(filter(None, [str(REPO_ROOT), env.get("PYTHONPATH")])),
        }
    )
    env.update(extra or {})
    return env


def _run_probe(
    key: str,
    *,
    invoke: bool = False,
    importtime: bool = False,
    env: Mapping[str, str] | None = None,
) -> tuple[dict[str, Any], str]:
    function = functions_by_key()[key]
    command = [sys.executable]
    if importtime:
        command += ["-X", "importtime"]
    command += ["-m", "bench.probe", function.module, key]
    if invoke:
        command += [
            "--invoke",
            f"--memory-mb={function.memory_mb}",
            f"--timeout-s={function.timeout_s}",
        ]
    done = subprocess.run(
        command,
        cwd=REPO_ROOT,
        env=probe_env(env),
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    if done.returncode != 0:
        raise RuntimeError(f"bench.probe {key} failed:\n{done.stderr[-2000:]}")
    result: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    return result, done.stderr


def import_breakdown(stderr: str, top: int = 4) -> list[dict[str, Any]]:
    """Where a handler's import time goes: ``-X importtime`` self time, by top-level package."""
    lines = stderr.splitlines()
    if probe.IMPORT_MARKER in lines:
        lines = lines[lines.index(probe.IMPORT_MARKER) + 1 :]
    by_package: dict[str, int] = {}
    for line in lines:
        if not line.startswith("import time:"):
            continue
        parts = line.split("|")
        if len(parts) != 3 or not parts[0].split(":")[-1].strip().isdigit():
            continue  # the header line
        root = parts[2].strip().split(".")[0]
        by_package[root] = by_package.get(root, 0) + int(parts[0].split(":")[-1])
    ranked = sorted(by_package.items(), key=lambda item: -item[1])[:top]
    return [{"package": name, "ms": round(us / 1000, 1)} for name, us in ranked]


def cold_imports(profile: Profile) -> dict[str, dict[str, Any]]:
    """Import time of each handler module in a fresh interpreter, and memory after it.

    One stated mode, the deployed one: the handlers are imported from a copy of the code
    asset with its bytecode (:func:`bench.asset.asset_copy`, compiled by the bench's
    Python), first on the path, with ``PYTHONDONTWRITEBYTECODE`` set as on Lambda's
    read-only ``/var/task``; not from the working tree with whatever ``__pycache__`` it has.
    """
    results: dict[str, dict[str, Any]] = {}
    with tempfile.TemporaryDirectory(prefix="bench-imports-") as folder:
        asset = asset_copy(Path(folder))
        env = {
            "PYTHONDONTWRITEBYTECODE": "1",
            "PYTHONPATH": os.pathsep.join([str(asset), str(REPO_ROOT)]),
        }
        for key in profile.handlers or tuple(functions_by_key()):
            runs = [_run_probe(key, env=env)[0] for _ in range(profile.import_repeats)]
            _, stderr = _run_probe(key, importtime=True, env=env)
            results[key] = {
                "import_ms": summary([r["import_s"] * 1000 for r in runs]),
                "rss_after_import_mb": max(r["rss_after_import_mb"] for r in runs),
                "heaviest_imports": import_breakdown(stderr),
            }
    return results


def memory(profile: Profile, catalogs: Catalogs) -> list[dict[str, Any]]:
    """Peak resident memory of each handler after import and three calls, in its own process.

    The first call is the container's first (cold: lookup_inventory downloads and
    opens its search snapshot); the next two are warm. lookup_inventory is measured
    at each catalog size, its snapshot and table served over 127.0.0.1.
    """
    rows: list[dict[str, Any]] = []
    with ExitStack() as stack:
        web = stack.enter_context(canned_web())
        scratch = Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="bench-store-")))
        for key in profile.handlers or tuple(functions_by_key()):
            function = functions_by_key()[key]
            sizes: tuple[int | None, ...] = profile.memory_catalogs if key == LOOKUP else (None,)
            for size in sizes:
                env = {**web, "STORE_FILE": store_file(scratch)}
                if size is not None:
                    endpoint = stack.enter_context(catalogs.fast(size).http())
                    env["AWS_ENDPOINT_URL_DYNAMODB"] = endpoint
                    downloads = stack.enter_context(tempfile.TemporaryDirectory(prefix="bench-"))
                    bucket = catalogs.bucket(size)
                    env.update(stack.enter_context(bucket.http(downloads)))
                result, _ = _run_probe(key, invoke=True, env=env)
                rows.append(
                    {
                        "function": key,
                        "products": size,
                        "memory_mb": function.memory_mb,
                        "rss_after_import_mb": result["rss_after_import_mb"],
                        "rss_peak_mb": result["rss_peak_mb"],
                        "first_call_ms": result["first_call_s"] * 1000,
                        "second_call_ms": result["second_call_s"] * 1000,
                        "third_call_ms": result["third_call_s"] * 1000,
                    }
                )
    return rows


def store_file(scratch: Path) -> str:
    """The sample store's settings, published as the stack's layer holds them (the
    Converse function reads them at its start)."""
    from shared.store.settings import load
    from storechat.settings import SAMPLE_STORE

    path = scratch / "store.json"
    if not path.is_file():
        path.write_text(load(SAMPLE_STORE).model_dump_json(), encoding="utf-8")
    return str(path)
