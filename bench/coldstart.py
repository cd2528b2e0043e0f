"""Every state machine function's cold invoke, on the CPU share its memory buys.

A cold invoke here is what the first request to a new Lambda container waits for,
less Lambda's own start (the microVM, the runtime's bootstrap): a fresh Python
process that imports the handler, initialises, and answers one realistic event.
The process:

* runs in a cgroup whose CPU quota is the function's share of one vCPU
  (:mod:`bench.cpulimit`: 1,769 MB is one vCPU, so 512 MB is 29 % of one);
* imports the code from a copy of ``functions/`` as the code asset deploys it
  (:mod:`bench.asset`): its sources and unchecked-hash bytecode, compiled by the
  bench's Python the way ``infra/code_asset.py`` compiles the asset's with the
  runtime's python3.13, writing none (Lambda's ``/var/task`` is read-only); the
  runtime's boto3 and the Powertools layer ship bytecode, and so does this
  virtualenv. ``run(bytecode=False)`` measures sources alone, as the asset was
  before it shipped bytecode;
* has the environment the stack gives the function (tracing where the registry
  says it pays, the key from a Secrets Manager), its AWS services and web APIs
  served on 127.0.0.1 by this process: Bedrock by the offline model behind
  Converse's wire format, the catalog table by :class:`~bench.catalog.FastCatalog`,
  the index bucket by :class:`~bench.catalog.LoopbackBucket` (the snapshot is
  downloaded over loopback, checked and opened), Brave and Open Library canned; the
  live trace's steps, which every function writes, are taken by the same DynamoDB
  stand-in.

Timed from before the process is started to the end of its first call (its
``time.monotonic()``, which is system-wide on Linux), and divided by the function's
Task timeout, which covers a cold start's init (the registry's ``timeout_s``, held
equal to the ASL's ``TimeoutSeconds`` by the infrastructure tests).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Iterator, Mapping
from concurrent.futures import ThreadPoolExecutor
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler
from pathlib import Path
from typing import Any

from bench.asset import asset_copy, describe
from bench.catalog import CATALOG_TABLE, Catalogs, FastCatalog
from bench.cpulimit import Limit, cpu_limit, share_of_vcpu
from bench.lambdas import REPO_ROOT, probe_env, store_file
from bench.loopback import send, serving
from bench.stats import summary
from registry import FUNCTIONS, Function
from shared.config.time_budget import DEADLINE_MS

SECRET_ARN = "arn:aws:secretsmanager:us-east-1:123456789012:secret:storechat-brave-key-AbCdEf"
TRACE_HEADER = "Root=1-5759e988-bd862e3fe1be46a994272793;Parent=53995c3f42cd8ad8;Sampled=1"
QUESTION = "What Windows laptop under $800 would you recommend for a college student?"
LOOKUP_INPUT = {
    "category": "COMPUTERS",
    "keywords": "windows laptop for a student",
    "maxPrice": 800,
}


@dataclass(frozen=True)
class Case:
    """One function's cold invoke: at one catalog size for the catalog tool."""

    function: Function
    products: int | None = None

    @property
    def key(self) -> str:
        """``converse``, or ``lookup_inventory:200000`` for the catalog tool at a size."""
        if self.products is None:
            return self.function.key
        return f"{self.function.key}:{self.products}"


# --------------------------------------------------------------------------- events


STEPS_TABLE = "storechat-steps"


def _turn() -> dict[str, Any]:
    """The live trace's turn, as the state machine passes it to every function."""
    return {"turnId": uuid.uuid4().hex, "expiresAt": int(time.time()) + 3600}


def _tool_use(name: str, tool_input: dict[str, Any]) -> dict[str, Any]:
    return {
        "toolUse": {"toolUseId": "tooluse_cold", "name": name, "input": tool_input},
        "executionId": "arn:aws:states:us-east-1:123456789012:express:storechat:cold:1",
        "steps": _turn(),
        "step": {"key": "r00.t00", "line": f"Using the {name} tool"},
    }


def _compose_laptops() -> list[dict[str, Any]]:
    """Five Windows laptops of the bundled catalog: four this turn found, one an earlier
    turn did."""
    from shared.products.catalog_data import load_catalog

    return [
        p
        for p in load_catalog()
        if p["category"] == "COMPUTERS" and "Windows" in str(p.get("specs", {}).get("os", ""))
    ][:5]


def _compose_event() -> dict[str, Any]:
    """The end of a follow-up turn that found four laptops and recommends three, and
    also cites one an earlier turn of the session found: what ComposeResponse gets, so its
    fact check has prices and specs to read, and the earlier product is read fresh from
    the catalog table (boto3's import and a BatchGetItem: the slowest cold start)."""
    *laptops, earlier = _compose_laptops()
    lines = []
    for rank, p in enumerate([*laptops[:3], earlier], start=1):
        specs = p.get("specs") or {}
        lines.append(
            f"{rank}. {p['name']} [{p['productId']}]: ${p['price']:,.2f}, "
            f"{specs.get('ramGb', 8)} GB RAM, {specs.get('weightKg', 1.5)} kg."
        )
    answer = "Four good picks for a student:\n" + "\n".join(lines) + "\nAll run Windows 11."
    return {
        "earlier": [earlier["productId"]],
        "sessionId": "5b7c1f0e-3a7d-4c1e-9a55-0c7b9f1d2e3a",
        "outcome": "answered",
        "answer": answer,
        "products": laptops,
        "trace": [
            {
                "tool": "lookup_inventory",
                "input": LOOKUP_INPUT,
                "status": "success",
                "summary": "31 products; showed 4",
                "ms": 40,
                "round": 1,
            }
        ],
        "usage": {"inputTokens": 2349, "outputTokens": 136, "cacheReadInputTokens": 1130},
        "toolRounds": 1,
        "modelCalls": 2,
        "executionId": "arn:aws:states:us-east-1:123456789012:express:storechat:cold:1",
        "steps": _turn(),
    }


def event(key: str) -> dict[str, Any]:
    """A realistic first event for each function of the state machine."""
    if key == "converse":
        return {
            "messages": [{"role": "user", "content": [{"text": QUESTION}]}],
            "deadlineMs": int(time.time() * 1000) + DEADLINE_MS,
            "executionId": "arn:aws:states:us-east-1:123456789012:express:storechat:cold:1",
            "steps": _turn(),
        }
    if key == "lookup_inventory":
        return _tool_use(key, LOOKUP_INPUT)
    if key == "get_computer_reviews":
        return _tool_use(key, {"query": "Dell XPS 13"})
    if key == "get_book_info":
        return _tool_use(key, {"query": "Dune"})
    if key == "get_store_policies":
        return _tool_use(key, {"question": "What is your return policy?"})
    if key == "compose_response":
        return _compose_event()
    raise ValueError(f"no cold event for {key}")


# --------------------------------------------------------------------------- services


@contextmanager
def _secrets_manager(secret: str) -> Iterator[str]:
    """Secrets Manager's GetSecretValue for one secret, on 127.0.0.1."""

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            self.rfile.read(int(self.headers.get("Content-Length") or 0))
            body = json.dumps(
                {"ARN": SECRET_ARN, "Name": "storechat-brave-key", "SecretString": secret}
            ).encode()
            send(self, body, content_type="application/x-amz-json-1.1")

        def log_message(self, format: str, *args: Any) -> None:
            return None

    with serving(Handler) as url:
        yield url


@contextmanager
def _steps_table() -> Iterator[str]:
    """DynamoDB's PutItem on 127.0.0.1, for the live trace's steps: taken, not kept."""

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            self.rfile.read(int(self.headers.get("Content-Length") or 0))
            send(self, b"{}", content_type="application/x-amz-json-1.0")

        def log_message(self, format: str, *args: Any) -> None:
            return None

    with serving(Handler) as url:
        yield url


def deployed_env(function: Function, asset: Path) -> dict[str, str]:
    """What a deployed container of ``function`` runs with that the probe's base lacks:
    Lambda's own variables (so the X-Ray SDK starts as in Lambda) and tracing on where
    the registry says subsegments pay, as ``infra/runtime.py`` sets it."""
    return {
        "LAMBDA_TASK_ROOT": str(asset),
        "AWS_LAMBDA_FUNCTION_NAME": f"storechat-{function.key.replace('_', '-')}",
        "AWS_LAMBDA_FUNCTION_MEMORY_SIZE": str(function.memory_mb),
        "AWS_REGION": "us-east-1",
        "_X_AMZN_TRACE_ID": TRACE_HEADER,
        "AWS_XRAY_DAEMON_ADDRESS": "127.0.0.1:2000",
        "AWS_XRAY_CONTEXT_MISSING": "IGNORE_ERROR",
        "POWERTOOLS_TRACE_DISABLED": "false" if function.subsegments else "true",
        "POWERTOOLS_METRICS_DISABLED": "false",
        "PYTHONDONTWRITEBYTECODE": "1",
        "PYTHONPATH": os.pathsep.join([str(asset), str(REPO_ROOT)]),
    }


@contextmanager
def services(
    case: Case, catalogs: Catalogs, web: Mapping[str, str], scratch: Path
) -> Iterator[dict[str, str]]:
    """The stand-ins ``case`` talks to, and the variables that point it at them."""
    from bench.standin import OfflineBedrock
    from storechat.local.runner import OFFLINE_MODEL_ID

    key = case.function.key
    with ExitStack() as stack:
        # Every function writes its live-trace steps; the catalog's stand-in takes them too.
        # The store's settings are where a deployed function finds its layer's file.
        env: dict[str, str] = {"STEPS_TABLE_NAME": STEPS_TABLE, "STORE_FILE": store_file(scratch)}
        if key == "lookup_inventory":
            size = case.products or 0
            env["AWS_ENDPOINT_URL_DYNAMODB"] = stack.enter_context(catalogs.fast(size).http())
        elif key == "compose_response":
            # The earlier turn's product is read fresh from the catalog table.
            table = FastCatalog(_compose_laptops())
            env["AWS_ENDPOINT_URL_DYNAMODB"] = stack.enter_context(table.http())
            env["CATALOG_TABLE_NAME"] = CATALOG_TABLE
        else:
            env["AWS_ENDPOINT_URL_DYNAMODB"] = stack.enter_context(_steps_table())
        if key == "converse":
            bedrock = stack.enter_context(OfflineBedrock().serve())
            env |= {
                "MODEL_PROVIDER": "bedrock",
                "MODEL_ID": OFFLINE_MODEL_ID,
                "BEDROCK_REGION": "us-east-1",
                "AWS_ENDPOINT_URL_BEDROCK_RUNTIME": bedrock.url,
            }
        elif key == "lookup_inventory":
            size = case.products or 0
            downloads = scratch / f"tmp-{size}"
            downloads.mkdir(exist_ok=True)
            env |= stack.enter_context(catalogs.bucket(size).http(str(downloads)))
        elif key == "get_computer_reviews":
            env |= {k: v for k, v in web.items() if k != "BRAVE_API_KEY"}
            env["BRAVE_API_KEY_SECRET_ARN"] = SECRET_ARN
            env["AWS_ENDPOINT_URL_SECRETS_MANAGER"] = stack.enter_context(
                _secrets_manager(web["BRAVE_API_KEY"])
            )
        elif key == "get_book_info":
            env |= dict(web)
        yield env


# --------------------------------------------------------------------------- one run


def run_once(case: Case, env: Mapping[str, str], event_file: Path) -> dict[str, Any]:
    """One cold invoke in a fresh, CPU-limited process."""
    function = case.function
    command = [
        sys.executable,
        "-m",
        "bench.probe",
        function.module,
        function.key,
        "--cold",
        f"--event={event_file}",
        f"--memory-mb={function.memory_mb}",
        f"--timeout-s={function.timeout_s}",
    ]
    with (
        cpu_limit(share_of_vcpu(function.memory_mb)) as limit,
        tempfile.TemporaryFile() as out,
        tempfile.TemporaryFile() as err,
    ):
        started = time.monotonic()
        child = subprocess.Popen(
            command, cwd=REPO_ROOT, env=dict(env), stdout=out, stderr=err, preexec_fn=limit.preexec
        )
        _, status, usage = os.wait4(child.pid, 0)
        child.returncode = os.waitstatus_to_exitcode(status)
        out.seek(0)
        err.seek(0)
        stdout, stderr = out.read().decode(), err.read().decode()
    if child.returncode != 0:
        raise RuntimeError(f"cold invoke of {case.key} failed:\n{stderr[-2000:]}")
    result: dict[str, Any] = json.loads(stdout.strip().splitlines()[-1])
    return {
        "cold_invoke_ms": (result["done_monotonic"] - started) * 1000,
        "import_ms": result["import_s"] * 1000,
        "first_call_ms": result["first_call_s"] * 1000,
        "cpu_ms": (usage.ru_utime + usage.ru_stime) * 1000,
        "status": result["status"],
        "limit": limit,
    }


def _measure(
    case: Case, runs: int, catalogs: Catalogs, web: Mapping[str, str], scratch: Path, asset: Path
) -> dict[str, Any]:
    event_file = scratch / f"{case.key.replace(':', '-')}.json"
    event_file.write_text(json.dumps(event(case.function.key)))
    samples = []
    with services(case, catalogs, web, scratch) as extra:
        env = probe_env({**extra, **deployed_env(case.function, asset)})
        for _ in range(runs):
            samples.append(run_once(case, env, event_file))
    bad = {s["status"] for s in samples} - {"success", "answered", "end_turn", "tool_use"}
    if bad:
        raise RuntimeError(f"cold invoke of {case.key} answered {sorted(bad)}")
    limits: list[Limit] = [s["limit"] for s in samples]
    cold = summary([s["cold_invoke_ms"] for s in samples])
    timeout_ms = case.function.timeout_s * 1000
    return {
        "case": case.key,
        "function": case.function.key,
        "products": case.products,
        "memory_mb": case.function.memory_mb,
        "share": share_of_vcpu(case.function.memory_mb),
        "timeout_ms": timeout_ms,
        "status": samples[0]["status"],
        "cold_invoke_ms": cold,
        "import_ms": summary([s["import_ms"] for s in samples]),
        "first_call_ms": summary([s["first_call_ms"] for s in samples]),
        "cpu_ms": summary([s["cpu_ms"] for s in samples]),
        "throttled_ms": max(lim.throttled_ms for lim in limits),
        "limited": all(lim.limited for lim in limits),
        "how": limits[0].how,
        "share_of_timeout": cold["p50"] / timeout_ms,
    }


def cases(lookup_sizes: tuple[int, ...]) -> list[Case]:
    """Every function the state machine invokes; the catalog tool at each size."""
    out: list[Case] = []
    for function in FUNCTIONS:
        if function.key == "lookup_inventory":
            out += [Case(function, size) for size in lookup_sizes]
        else:
            out.append(Case(function))
    return out


def run(
    lookup_sizes: tuple[int, ...],
    runs: int,
    catalogs: Catalogs,
    web: Mapping[str, str],
    *,
    parallel: bool = False,
    bytecode: bool = True,
) -> dict[str, Any]:
    """Cold invokes of every case, ``runs`` times each: one at a time, or (the smoke
    profile, whose figures mean nothing) all at once; from an asset copy with bytecode
    (as deployed) or, with ``bytecode=False``, its sources alone."""
    with tempfile.TemporaryDirectory(prefix="bench-cold-") as folder:
        scratch = Path(folder)
        asset = asset_copy(scratch, bytecode=bytecode)
        todo = cases(lookup_sizes)
        for size in lookup_sizes:  # made before any timing starts
            catalogs.fast(size)
            catalogs.bucket(size)
        if parallel:
            with ThreadPoolExecutor(max_workers=len(todo)) as pool:
                rows = list(
                    pool.map(lambda c: _measure(c, runs, catalogs, web, scratch, asset), todo)
                )
        else:
            rows = [_measure(c, runs, catalogs, web, scratch, asset) for c in todo]
    limited = all(r["limited"] for r in rows)
    how = (
        "a cgroup v1 CPU quota per function (its share of one CPU in every 100 ms), "
        "at the top weight against other load on this machine"
        if limited
        else next(r["how"] for r in rows if not r["limited"])
    )
    return {
        "rows": rows,
        "runs": runs,
        "parallel": parallel,
        "code": describe(bytecode),
        "cpu_limited": limited,
        "how": how,
        "load_average": os.getloadavg()[0],
    }


def shares_of_timeout(cold: dict[str, Any]) -> dict[str, float]:
    """``cold_invoke_share_of_timeout``: per case, cold invoke (median) ÷ Task timeout."""
    return {r["case"]: round(r["share_of_timeout"], 4) for r in cold["rows"]}


def table(cold: dict[str, Any]) -> list[str]:
    """The report's lines for this section."""
    from bench.fmt import ms
    from bench.fmt import table as md_table

    limited = (
        f"CPU limited by {cold['how']}"
        if cold["cpu_limited"]
        else f"**NOT CPU LIMITED** ({cold['how']}): these are whole-core figures"
    )
    lines = [
        "Each function's cold invoke in a fresh process: import, init, and a first call with "
        "a realistic event (lookup_inventory: the snapshot downloaded from the index bucket "
        "on 127.0.0.1, checked and opened, then a search and a fresh read), with "
        + cold.get("code", describe(bytecode=False))  # results from before it was said
        + ", at the CPU share its memory buys "
        f"(1,769 MB = one vCPU). {limited}. Median of {cold['runs']} run(s)"
        + (", all at once (smoke run)." if cold["parallel"] else ", one at a time."),
        "",
    ]
    rows = [
        [
            r["function"] + (f" ({r['products']:,} products)" if r["products"] else ""),
            f"{r['memory_mb']:,} MB",
            f"{r['share']:.0%}",
            f"{ms(r['cold_invoke_ms']['p50'])} ({ms(r['cold_invoke_ms']['min'])}"
            f" to {ms(r['cold_invoke_ms']['max'])})",
            f"{ms(r['import_ms']['p50'])} / {ms(r['first_call_ms']['p50'])}",
            ms(r["cpu_ms"]["p50"]),
            ms(r["timeout_ms"]),
            f"{r['share_of_timeout']:.2f}",
        ]
        for r in cold["rows"]
    ]
    lines += md_table(
        [
            "Function",
            "Memory",
            "CPU share",
            "Cold invoke (min to max)",
            "Import / first call",
            "CPU time",
            "Task timeout",
            "÷ timeout",
        ],
        rows,
    )
    return [
        *lines,
        "Not in these figures: Lambda's own start (the microVM and the runtime's bootstrap) "
        "and real network time (S3's download, TLS, Bedrock, the web APIs); the snapshot and "
        "every service are served on 127.0.0.1.",
        "",
    ]
