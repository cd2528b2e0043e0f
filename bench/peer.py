"""Three loops side by side: storechat, a Strands Agents loop and the seed's naive tool.

The same questions (``questions.TOKEN_QUESTIONS``), the same system prompt, the same
three tool specs and the same model answer all three; only the loop differs:

* **storechat**: the state machine (``LocalStorechat``), its Converse Lambda calling
  the model through its real ``BedrockProvider``;
* **strands**: a Strands ``Agent`` with a ``BedrockModel`` (streaming off), its three
  tools ``@tool`` functions that call storechat's tool handlers in-process;
* **naive**: the state machine with the bench's naive ``lookup_inventory`` (every
  product of the category, every field, as the first seed article's tool sends it).

Every loop talks to one :class:`bench.standin.OfflineBedrock` on 127.0.0.1, which
serves the offline model in Bedrock's wire format and records each request's size
and usage. This compares loops, not models: the token counts are the offline
model's approximation, the same for all three.
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable, Mapping
from typing import Any

import boto3
from botocore.config import Config
from strands import Agent, ToolContext, tool
from strands.models.bedrock import BedrockModel

import registry
from bench.first import SONNET_45_LATENCY
from bench.fmt import kib, ms
from bench.scenarios import ask, local_system
from bench.standin import FAKE_CREDENTIALS, Call, OfflineBedrock
from bench.tools import Handler, naive_lookup, real_handler
from shared.config.environment import environ, overriding
from shared.runtime.observability import metrics
from storechat.local.lambdas import FakeContext
from storechat.local.runner import OFFLINE_MODEL_ID, REGION

LOOPS = ("storechat", "strands", "naive")
LABELS = {"storechat": "storechat", "strands": "Strands Agents", "naive": "naive (seed's tool)"}


def _row(
    calls: list[Call], wall_ms: float, tools: list[str], tool_errors: int, outcome: str
) -> dict[str, Any]:
    return {
        "input_tokens": sum(
            c.usage.get(k, 0)
            for c in calls
            for k in ("inputTokens", "cacheReadInputTokens", "cacheWriteInputTokens")
        ),
        "output_tokens": sum(c.usage.get("outputTokens", 0) for c in calls),
        "model_calls": len(calls),
        # The model's share of the shopper's wait at Claude Sonnet 4.5's latency (bench.first)
        "modelled_model_s": sum(
            SONNET_45_LATENCY.call_seconds(c.usage.get("outputTokens", 0)) for c in calls
        ),
        "wall_ms": wall_ms,
        "largest_request_bytes": max((c.request_bytes for c in calls), default=0),
        "tools": tools,
        "tool_errors": tool_errors,
        "outcome": outcome,
    }


# --------------------------------------------------------------------------- storechat


def _bedrock_provider(url: str) -> Any:
    """The Converse Lambda's own Bedrock provider, its client pointed at the stand-in."""
    from converse.providers import CONNECT_TIMEOUT_S, BedrockProvider

    def build(read_timeout_s: int) -> Any:
        return boto3.client(
            "bedrock-runtime",
            region_name=REGION,
            endpoint_url=url,
            config=Config(
                retries={"max_attempts": 1},
                read_timeout=read_timeout_s,
                connect_timeout=CONNECT_TIMEOUT_S,
            ),
            **FAKE_CREDENTIALS,
        )

    return BedrockProvider(region=None, client_factory=build)


def _state_machine(
    questions: tuple[str, ...],
    web_env: Mapping[str, str],
    standin: OfflineBedrock,
    overrides: Mapping[str, Handler] | None = None,
) -> list[dict[str, Any]]:
    from converse.handler import use_provider

    rows = []
    with local_system(web_env, overrides=overrides) as local:
        use_provider(_bedrock_provider(standin.url))
        ask(local, questions[0])  # warm-up, not counted
        for question in questions:
            standin.drain()
            asked = ask(local, question, keep=True)
            trace = (asked.result.body or {}).get("trace", []) if asked.result else []
            errors = sum(1 for t in trace if t.get("status") != "success")
            outcome = asked.outcome or asked.status
            rows.append(_row(standin.drain(), asked.wall_ms, asked.tools, errors, outcome))
    return rows


# --------------------------------------------------------------------------- strands


def _in_process(key: str, env: Mapping[str, str]) -> Callable[[dict[str, Any]], dict[str, Any]]:
    """Storechat's handler for ``key``, called as the local runner calls it, from any thread."""
    handler = real_handler(key)
    function = registry.functions_by_key()[key]

    def call(event: dict[str, Any]) -> dict[str, Any]:
        try:
            with overriding(env):
                output: dict[str, Any] = handler(event, FakeContext(function))
                return output
        finally:
            metrics.clear_metrics()  # as a Lambda does after each invocation

    return call


def _strands_tool(spec_tool: registry.Tool, env: Mapping[str, str]) -> Any:
    """One tool as a Strands ``@tool`` function, with storechat's exact spec.

    It passes the model's raw input to storechat's handler and hands back only what
    storechat's loop gives the model (the ``toolResult`` status and content); the
    ledger and the trace stay behind, as they do in the state machine.
    """
    spec = spec_tool.spec()["toolSpec"]
    call = _in_process(spec_tool.function.key, env)

    # Strands reads the annotations of this signature to inject the context.
    def run(tool_context: ToolContext) -> dict[str, Any]:
        use = tool_context.tool_use
        tool_use = {"toolUseId": use["toolUseId"], "name": use["name"], "input": use["input"]}
        result = call({"toolUse": tool_use, "executionId": "bench-strands"})["toolResult"]
        return {"status": result.get("status", "success"), "content": result["content"]}

    return tool(
        name=spec["name"],
        description=spec["description"],
        inputSchema=spec["inputSchema"],
        context=True,
    )(run)


def _strands(
    questions: tuple[str, ...], web_env: Mapping[str, str], standin: OfflineBedrock
) -> list[dict[str, Any]]:
    from converse.prompt import prompt_of
    from converse.settings import get_settings

    rows = []
    with local_system(web_env):  # the catalog table, the canned web APIs, the handlers' settings
        env = dict(environ())
        settings = get_settings()
        model = BedrockModel(
            boto_session=boto3.Session(region_name=REGION, **FAKE_CREDENTIALS),
            boto_client_config=Config(retries={"max_attempts": 1}, read_timeout=20),
            endpoint_url=standin.url,
            model_id=OFFLINE_MODEL_ID,
            streaming=False,
            max_tokens=settings.max_tokens,
            temperature=settings.temperature,
            # What Strands does for a Claude model id: keep each toolResult's status.
            include_tool_result_status=True,
        )
        tools = [_strands_tool(t, env) for t in registry.TOOLS]

        def agent() -> Any:
            return Agent(
                model=model,
                system_prompt=prompt_of(settings.store_file),
                tools=tools,
                callback_handler=None,
            )

        agent()(questions[0])  # warm-up, not counted
        for question in questions:
            standin.drain()
            fresh = agent()  # a new conversation per question, as the state machine starts one
            started = time.perf_counter()
            result = fresh(question)
            wall_ms = (time.perf_counter() - started) * 1000
            blocks = [block for message in fresh.messages for block in message["content"]]
            used = [str(b["toolUse"]["name"]) for b in blocks if "toolUse" in b]
            errors = sum(1 for b in blocks if b.get("toolResult", {}).get("status") == "error")
            rows.append(_row(standin.drain(), wall_ms, used, errors, str(result.stop_reason)))
    return rows


# --------------------------------------------------------------------------- the figure


def run(questions: tuple[str, ...], web_env: Mapping[str, str]) -> dict[str, Any]:
    """Each question through each loop; per question and loop, the stand-in's figures."""
    with OfflineBedrock().serve() as standin:
        by_loop = {
            "storechat": _state_machine(questions, web_env, standin),
            "strands": _strands(questions, web_env, standin),
            "naive": _state_machine(
                questions, web_env, standin, overrides={"lookup_inventory": naive_lookup}
            ),
        }
    rows = [
        {"question": q, "loops": {loop: by_loop[loop][i] for loop in LOOPS}}
        for i, q in enumerate(questions)
    ]
    means = {
        loop: {
            key: statistics.fmean(r[key] for r in by_loop[loop])
            for key in (
                "input_tokens",
                "output_tokens",
                "model_calls",
                "modelled_model_s",
                "wall_ms",
            )
        }
        | {"largest_request_bytes": max(r["largest_request_bytes"] for r in by_loop[loop])}
        for loop in LOOPS
    }
    return {"model_id": OFFLINE_MODEL_ID, "questions": rows, "means": means}


def table(peer: dict[str, Any]) -> list[str]:
    """The section's Markdown: one row per question, one column per loop."""

    def cell(f: dict[str, Any]) -> str:
        return (
            f"{f['input_tokens']:,.0f} in / {f['output_tokens']:,.0f} out · "
            f"{f['model_calls']:g} calls ({f['modelled_model_s']:.1f} s at Sonnet 4.5) · "
            f"{ms(f['wall_ms'])} · {kib(f['largest_request_bytes'])}"
        )

    lines = [
        "**This compares loops, not models.** The same offline model (`OfflineModel`, served in "
        "Bedrock's Converse wire format on 127.0.0.1) answers all three loops, with the same "
        "system prompt and the same three tool specs; its token counts are its own approximation "
        "(one token per four characters), the same for all three. Per question: input and output "
        "tokens summed over the question's model calls, model calls (and the seconds they would "
        "take at Claude Sonnet 4.5's latency, section 14), wall time, and the largest request "
        "body the stand-in received.",
        "",
        "*storechat*: the state machine in moto's interpreter, its Converse Lambda's real "
        "Bedrock provider; wall time from `StartExecution` until the runner's polling sees the "
        "end, so it includes the local engine (moto's interpreter and JSONata in Python, see "
        "section 5), not what Step Functions would take. *Strands Agents*: an `Agent` with a "
        "`BedrockModel` (streaming off), its tools `@tool` functions calling storechat's own "
        "handlers in-process; wall time around the agent's call. *naive*: storechat's state "
        "machine with the first seed article's `lookup_inventory` (every product of the "
        "category, every field).",
        "",
        "| Question | " + " | ".join(LABELS[loop] for loop in LOOPS) + " |",
        "|---|" + "---|" * len(LOOPS),
    ]
    for row in peer["questions"]:
        cells = [cell(row["loops"][loop]) for loop in LOOPS]
        lines.append(f"| {row['question']} | " + " | ".join(cells) + " |")
    means = [cell(peer["means"][loop]) for loop in LOOPS]
    lines.append("| **Mean (largest request: the largest of all)** | " + " | ".join(means) + " |")
    lines.append("")
    odd = [
        f"{LABELS[loop]}: {row['question']!r} had {row['loops'][loop]['tool_errors']} failed "
        f"tool call(s), outcome {row['loops'][loop]['outcome']}"
        for row in peer["questions"]
        for loop in LOOPS
        if row["loops"][loop]["tool_errors"]
    ]
    if odd:
        lines += ["Tool failures (their figures are not comparable): " + "; ".join(odd) + ".", ""]
    return lines
