"""A catalog that changes all day: stock and price changes, a warm lookup container, an indexer.

A busy store sells and restocks all day. This scenario runs, on a simulated clock,
``CHANGES_PER_S`` changes a second to a large catalog (nine in ten to a stock
level, a sale or a restock, some down to zero; one in ten to a price) while:

* the indexer gets the stream's batches, one per batching window (``cdk.json``'s
  ``catalog_index.batching_window_seconds``), each with both images of every
  change, and decides as the deployed one does (``index_catalog.events``); a batch
  that needs a rebuild is published into the bucket;
* one warm lookup container answers ``LOOKUPS_PER_S`` searches a second with the
  real code (``lookup_inventory.logic.run``, its snapshot holder checking the
  pointer every 30 simulated seconds after a call, as after a response), reading
  fresh records from :class:`~bench.catalog.FastCatalog`, which every change is
  written to, and the index bucket from :class:`~bench.catalog.LoopbackBucket`
  over 127.0.0.1, which counts the bytes it serves.

Simulated time runs faster than real time: only the clock that decides windows and
checks is simulated; every lookup is timed for real. Every product a lookup shows
is compared with the table at that moment: its price and stock must be the
table's, and it must pass the search's ``inStockOnly`` and ``maxPrice`` on them.
"""

from __future__ import annotations

import json
import random
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from bench.catalog import Catalogs, wire
from bench.lambdas import REPO_ROOT
from bench.search import query_mix
from bench.stats import summary
from storechat.local.index import INDEX_BUCKET, INDEX_PREFIX
from storechat.local.runner import CATALOG_TABLE, REGION

CHANGES_PER_S = 10
LOOKUPS_PER_S = 2
CHECK_EVERY_S = 30.0
PRICE_SHARE = 0.1
"""Of the changes, the share that changes a price (the rest change a stock level)."""
CDK_JSON = REPO_ROOT / "cdk.json"


def batching_window_s() -> int:
    """The stream's batching window the stack deploys (``cdk.json``, defaults)."""
    context = json.loads(CDK_JSON.read_text(encoding="utf-8"))["context"]["storechat"]
    window: int = context["defaults"].get("catalog_index", {}).get("batching_window_seconds", 30)
    return window


class SimulatedClock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def _change(rng: random.Random, product: dict[str, Any]) -> dict[str, Any]:
    """One write to the table: a sale, a restock or a new price."""
    changed = dict(product)
    if rng.random() < PRICE_SHARE and isinstance(product.get("price"), int | float):
        changed["price"] = round(max(1.0, product["price"] * rng.uniform(0.85, 1.15)), 2)
    elif rng.random() < 0.3:
        changed["stock"] = int(product.get("stock") or 0) + rng.randint(5, 40)  # restock
    else:
        changed["stock"] = max(0, int(product.get("stock") or 0) - rng.randint(1, 12))  # sales
    return changed


def _record(i: int, old: dict[str, Any], new: dict[str, Any]) -> dict[str, Any]:
    """The stream record of one write, both images in DynamoDB's attribute values."""
    return {
        "eventID": f"churn-{i}",
        "eventName": "MODIFY",
        "eventSource": "aws:dynamodb",
        "dynamodb": {
            "Keys": {"productId": {"S": new["productId"]}},
            "SequenceNumber": str(10_000 + i),
            "OldImage": {k: wire(v) for k, v in old.items()},
            "NewImage": {k: wire(v) for k, v in new.items()},
            "StreamViewType": "NEW_AND_OLD_IMAGES",
        },
    }


def _violations(tool_input: dict[str, Any], shown: list[dict[str, Any]], table: Any) -> int:
    """Products shown with another price or stock than the table's now, or that fail the
    search's stock and price filters on the table's values."""
    bad = 0
    for product in shown:
        now = table[product["productId"]]
        stale = (product.get("price"), product.get("stock")) != (now.get("price"), now.get("stock"))
        sold_out = bool(tool_input.get("inStockOnly")) and not now.get("stock")
        dearer = "maxPrice" in tool_input and now.get("price", 0) > tool_input["maxPrice"]
        bad += stale or sold_out or dearer
    return bad


def run(size: int, seconds: int, catalogs: Catalogs, *, seed: int = 7) -> dict[str, Any]:
    """The churn at ``size`` products for ``seconds`` simulated seconds."""
    import boto3
    from botocore.config import Config
    from moto import mock_aws

    from index_catalog.events import parse_trigger
    from lookup_inventory.logic import run as lookup
    from lookup_inventory.snapshots import S3Snapshots
    from shared.api.contract import ToolUse
    from shared.products.catalog_table import DynamoCatalog
    from shared.search import SearchIndex, SnapshotFile, SnapshotHolder, open_snapshot
    from shared.search.publish import pointer_key

    rng = random.Random(seed)
    products = catalogs.products(size)
    table = {p["productId"]: p for p in products}  # the truth; changed records replace
    ids = list(table)
    fast, bucket = catalogs.fast(size), catalogs.bucket(size)
    window = batching_window_s()
    mix = [q for q in query_mix(seconds * LOOKUPS_PER_S + 50, seed=seed) if q]
    clock = SimulatedClock()
    times: list[float] = []
    statuses: dict[str, int] = {}
    violations = published = rebuilds = batches = fresh_only = 0
    pending: list[dict[str, Any]] = []
    refreshes: list[Callable[[float | None], bool]] = []
    with (
        tempfile.TemporaryDirectory(prefix="bench-churn-") as folder,
        bucket.http(folder) as env,
        mock_aws(),
        fast.serving(),
    ):
        s3 = boto3.client(
            "s3",
            endpoint_url=env["AWS_ENDPOINT_URL_S3"],
            region_name=REGION,
            config=Config(s3={"addressing_style": "path"}),
        )
        source = DynamoCatalog(CATALOG_TABLE, client=boto3.client("dynamodb", region_name=REGION))
        snapshots = S3Snapshots(
            lambda: s3, INDEX_BUCKET, pointer_key(INDEX_PREFIX), Path(folder), clock=clock
        )
        downloads = Path(folder)
        tmp_peak = [0]

        def opened(snapshot: SnapshotFile) -> SearchIndex:
            # What /tmp holds when a download is complete: the most it ever holds.
            tmp_peak[0] = max(tmp_peak[0], sum(f.stat().st_size for f in downloads.iterdir()))
            return open_snapshot(snapshot)

        holder = SnapshotHolder(
            snapshots.fetch_latest,
            check_every_s=CHECK_EVERY_S,
            clock=clock,
            opener=opened,
            schedule=refreshes.append,  # run after each call, as after a response
        )

        def ask(tool_input: dict[str, Any]) -> tuple[float, Any]:
            use = ToolUse.model_validate(
                {"toolUseId": "churn", "name": "lookup_inventory", "input": tool_input}
            )
            started = time.perf_counter()
            with holder.lease() as leased:
                out = lookup(
                    use,
                    index=lambda: leased,
                    source=source,
                    max_results=4,
                    deadline_s=time.monotonic() + 4.5,
                )
            return (time.perf_counter() - started) * 1000, out

        # The container is warm when the churn starts: snapshot open, clients made.
        for tool_input in mix[:5]:
            ask(tool_input)
        cold_version = holder.version
        served_before = sum(bucket.served.values())
        for second in range(seconds):
            clock.now = float(second)
            for _ in range(CHANGES_PER_S):
                pid = rng.choice(ids)
                changed = _change(rng, table[pid])
                pending.append(_record(len(pending), table[pid], changed))
                table[pid] = changed
                fast.update(changed)
            for _ in range(LOOKUPS_PER_S):
                tool_input = mix[(5 + len(times)) % len(mix)]
                elapsed_ms, out = ask(tool_input)
                times.append(elapsed_ms)
                while refreshes:
                    refreshes.pop()(None)
                statuses[out.trace.status] = statuses.get(out.trace.status, 0) + 1
                if out.trace.status == "success":
                    shown = [p.model_dump() for p in out.ledger.products]
                    violations += _violations(tool_input, shown, table)
            if (second + 1) % window == 0 and pending:
                batches += 1
                trigger = parse_trigger({"Records": pending})
                fresh_only += trigger.fresh_only_changes
                pending = []
                if trigger.needs_rebuild:
                    rebuilds += 1
                    published += bucket.publish(list(table.values()))
        final_version = holder.version
        downloaded = sum(bucket.served.values()) - served_before
        renamed = _rename(ids[0], table, fast, bucket, clock, ask, refreshes, downloads)
        renamed["tmp_peak_bytes"] = tmp_peak[0]
        holder.close()
    return {
        "products": size,
        "simulated_s": seconds,
        "changes": seconds * CHANGES_PER_S,
        "changes_per_s": CHANGES_PER_S,
        "batching_window_s": window,
        "stream_batches": batches,
        "fresh_only_changes": fresh_only,
        "rebuilds": rebuilds,
        "snapshots_published": published,
        "snapshot_version_kept": final_version == cold_version,
        "lookups": len(times),
        "statuses": statuses,
        "lookup_ms": summary(times),
        "shown_stale_or_failing_filters": violations,
        "downloaded_bytes": downloaded,
        "downloaded_bytes_per_hour": downloaded * 3600 / seconds,
        "snapshot_gz_bytes": bucket.snapshot_bytes(),
        # What one new snapshot per batching window would make this container download.
        "per_window_rebuild_bytes_per_hour": bucket.snapshot_bytes() * 3600 / window,
        "renamed": renamed,
    }


RENAMED = "Zephyrine Skylark 14"


def _rename(
    pid: str,
    table: dict[str, dict[str, Any]],
    fast: Any,
    bucket: Any,
    clock: SimulatedClock,
    ask: Callable[[dict[str, Any]], tuple[float, Any]],
    refreshes: list[Callable[[float | None], bool]],
    downloads: Path,
) -> dict[str, Any]:
    """After the churn, a change to what is searched: one product renamed. It is rebuilt
    and published; the call that finds the check due is answered from the snapshot in
    use, the new one is loaded after it, and the next call finds the new name."""
    from index_catalog.events import parse_trigger

    old, new = table[pid], table[pid] | {"name": RENAMED}
    table[pid] = new
    fast.update(new)
    needs = parse_trigger({"Records": [_record(0, old, new)]}).needs_rebuild
    started = time.perf_counter()
    published = bucket.publish(list(table.values())) if needs else False
    publish_s = time.perf_counter() - started
    clock.now += CHECK_EVERY_S
    due_ms, due = ask({"productName": RENAMED})
    started = time.perf_counter()
    while refreshes:
        refreshes.pop()(None)
    refresh_ms = (time.perf_counter() - started) * 1000
    _, after = ask({"productName": RENAMED})
    found = [p.productId for p in after.ledger.products]
    return {
        "rebuilt": needs,
        "published": bool(published),
        "publish_s": publish_s,
        "due_call_ms": due_ms,
        "due_call_found": len(due.ledger.products),
        "refresh_after_response_ms": refresh_ms,
        "found_after": pid in found,
        "tmp_after_bytes": sum(f.stat().st_size for f in downloads.iterdir()),
    }


def table(rows: list[dict[str, Any]]) -> list[str]:
    """The report's lines for this scenario."""
    from bench.fmt import table as md_table

    lines = md_table(
        [
            "products",
            "simulated",
            "changes",
            "stream batches (price/stock only)",
            "rebuilds / snapshots published",
            "lookups",
            "lookup p50 / p99",
            "downloaded per hour",
            "one snapshot per window would download",
            "shown stale or failing filters",
        ],
        [
            [
                f"{r['products']:,}",
                f"{r['simulated_s']} s",
                f"{r['changes']:,} ({r['changes_per_s']}/s)",
                f"{r['stream_batches']} ({r['fresh_only_changes']:,} changes)",
                f"{r['rebuilds']} / {r['snapshots_published']}",
                f"{r['lookups']:,}",
                f"{r['lookup_ms']['p50']:.1f} / {r['lookup_ms']['p99']:.1f} ms",
                f"{r['downloaded_bytes_per_hour'] / 1e6:,.3f} MB",
                f"{r['per_window_rebuild_bytes_per_hour'] / 1e6:,.0f} MB",
                str(r["shown_stale_or_failing_filters"]),
            ]
            for r in rows
        ],
    )
    for r in rows:
        n = r["renamed"]
        lines += [
            f"**Then one product renamed** ({r['products']:,} products): "
            f"{'rebuilt and published' if n['published'] else 'NOT published'} in "
            f"{n['publish_s']:.1f} s; the call that found the check due took "
            f"{n['due_call_ms']:.1f} ms, answered from the snapshot in use; the new one was "
            f"loaded after that response in {n['refresh_after_response_ms']:,.0f} ms; the next "
            f"call {'found' if n['found_after'] else 'did NOT find'} the new name. /tmp held "
            f"at most {n['tmp_peak_bytes'] / 1e6:,.1f} MB (the snapshot in use and the one "
            f"downloaded), {n['tmp_after_bytes'] / 1e6:,.1f} MB after the swap.",
            "",
        ]
    return [
        *lines,
        "Simulated time: the stream's batching windows and the lookup container's 30 s "
        "pointer checks follow a simulated clock; each lookup is timed for real. "
        "*Downloaded* is what the lookup container fetched from the index bucket (pointer "
        "checks, and any new snapshot). The last column is computed, not measured: one "
        "snapshot object per batching window, what a rebuild for every price or stock "
        "change made each warm container download.",
        "",
    ]
