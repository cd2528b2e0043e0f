"""Figure 6: what 1,000 questions would cost on AWS, from measured quantities and list prices.

Infrastructure comes from the end-to-end run: execution durations from the
history, each Lambda call's measured handler time at the memory the stack gives
each function, one API Gateway request, the DynamoDB request units of the calls
each question made (``bench.dynamo``) and the bytes its execution logs to the
conversations log group (``bench.history.execution_log``). Tokens come from the
token questions in each mode, priced for each model in ``shared.config.pricing``'s list.
Prices come from that file, never from code; what the deployed stack runs
(architecture, prompt caching in ``prod``) from ``cdk.json``.
"""

from __future__ import annotations

import json
import math
import statistics
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from bench import as_deployed
from bench.fmt import kib, ms, n, usd
from bench.fmt import table as fmt_table
from registry import functions_by_key
from shared.config.pricing import price_list

PRICES_PATH = Path(__file__).with_name("prices.json")
CDK_JSON = Path(__file__).resolve().parents[1] / "cdk.json"
ARCHITECTURES = ("arm64", "x86_64")
QUESTIONS = 1000
DEPLOYED_ENVIRONMENT = "prod"


def load_prices(path: Path = PRICES_PATH) -> dict[str, Any]:
    """The AWS prices of ``prices.json``, with the models' token prices under ``models``
    from the one list the stack's budget and ``storechat eval`` read (``shared.config.pricing``)."""
    prices: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    prices["models"] = price_list()["models"]
    return prices


def deployed(environment: str = DEPLOYED_ENVIRONMENT) -> dict[str, Any]:
    """The Lambda architecture, prompt caching, model id and WAF ``environment`` deploys,
    from ``cdk.json``."""
    context = json.loads(CDK_JSON.read_text(encoding="utf-8"))["context"]["storechat"]
    settings = {**context["defaults"], **context["environments"].get(environment, {})}
    return {
        "environment": environment,
        "architecture": str(settings.get("lambda_architecture", "arm64")),
        "prompt_caching": bool(settings.get("prompt_caching", False)),
        "model_id": str(settings["model_id"]),
        "waf": settings.get("client_rate_limit") not in (None, False),
    }


def _billed(value_ms: float, increment_ms: int) -> float:
    return math.ceil(value_ms / increment_ms) * increment_ms if value_ms > 0 else 0.0


def infrastructure(asked: Sequence[Any], prices: dict[str, Any]) -> dict[str, Any]:
    """Per 1,000 questions: Express requests and duration, Lambda requests and duration,
    API Gateway requests, DynamoDB request units and the conversations log's bytes.

    ``asked`` are :class:`bench.scenarios.Asked` from the end-to-end run.
    """
    express = prices["step_functions_express"]
    lam = prices["lambda"]
    express_gb = express["assumed_memory_mb"] / 1024
    express_ms = [_billed(a.execution_ms, express["billing_duration_increment_ms"]) for a in asked]
    express_gb_s = statistics.fmean(express_ms) / 1000 * express_gb
    calls: dict[str, list[float]] = {}
    for a in asked:
        for key, seconds in a.lambda_calls:
            calls.setdefault(key, []).append(
                _billed(seconds * 1000, lam["billing_duration_increment_ms"])
            )
    functions: dict[str, Any] = {}
    lambda_gb_s = storage_gb_s = 0.0
    lambda_requests = 0.0
    for key, billed in sorted(calls.items()):
        function = functions_by_key()[key]
        per_question = len(billed) / len(asked)
        seconds = sum(billed) / 1000 / len(asked)
        gb_s = seconds * function.memory_mb / 1024
        extra_tmp_mb = max(0, function.ephemeral_storage_mb - lam["ephemeral_storage_free_mb"])
        functions[key] = {
            "memory_mb": function.memory_mb,
            "ephemeral_storage_mb": function.ephemeral_storage_mb,
            "calls_per_question": per_question,
            "mean_billed_ms": statistics.fmean(billed),
            "gb_seconds_per_question": gb_s,
        }
        lambda_gb_s += gb_s
        storage_gb_s += seconds * extra_tmp_mb / 1024
        lambda_requests += per_question
    transitions = statistics.fmean(a.states_entered for a in asked)
    model_calls = statistics.fmean(a.model_calls for a in asked)
    dynamo = prices["dynamodb_on_demand"]
    read_units = statistics.fmean(sum(c.read_units for c in a.dynamodb) for a in asked)
    write_units = statistics.fmean(sum(c.write_units for c in a.dynamodb) for a in asked)
    operations: dict[str, float] = {}
    for a in asked:
        for c in a.dynamodb:
            operations[c.operation] = operations.get(c.operation, 0) + 1 / len(asked)
    logs = prices["cloudwatch_logs"]
    log_bytes = statistics.fmean(a.log_bytes for a in asked)
    log_gb = QUESTIONS * log_bytes / logs["bytes_per_gb"]
    result: dict[str, Any] = {
        "questions": len(asked),
        "express_billed_ms_mean": statistics.fmean(express_ms),
        "express_request_usd": QUESTIONS * express["per_request"],
        "express_duration_usd": QUESTIONS * express_gb_s * express["per_gb_second"],
        "lambda_requests_per_question": lambda_requests,
        "lambda_request_usd": QUESTIONS * lambda_requests * lam["per_request"],
        "lambda_gb_seconds_per_question": lambda_gb_s,
        "lambda_storage_usd": QUESTIONS * storage_gb_s * lam["ephemeral_storage_per_gb_second"],
        "ephemeral_storage_free_mb": lam["ephemeral_storage_free_mb"],
        "functions": functions,
        "state_transitions_per_question": transitions,
        "standard_workflow_usd": QUESTIONS
        * transitions
        * prices["step_functions_standard"]["per_state_transition"],
        "model_calls_per_question": model_calls,
        "api_gateway_usd": QUESTIONS * prices["api_gateway_rest"]["per_request"],
        "dynamodb_calls_per_question": operations,
        "dynamodb_read_units_per_question": read_units,
        "dynamodb_write_units_per_question": write_units,
        "dynamodb_read_usd": QUESTIONS * read_units * dynamo["per_read_request_unit"],
        "dynamodb_write_usd": QUESTIONS * write_units * dynamo["per_write_request_unit"],
        "log_events_per_question": statistics.fmean(a.log_events for a in asked),
        "log_bytes_per_question": log_bytes,
        "logs_ingestion_usd": log_gb * logs["per_gb_ingested"],
        "logs_data_protection_usd": log_gb * logs["per_gb_data_protection_scanned"],
        "by_architecture": {},
    }
    result["services_usd"] = sum(
        result[k]
        for k in (
            "api_gateway_usd",
            "dynamodb_read_usd",
            "dynamodb_write_usd",
            "logs_ingestion_usd",
            "logs_data_protection_usd",
        )
    )
    for arch in ARCHITECTURES:
        duration = QUESTIONS * lambda_gb_s * lam["per_gb_second"][arch]
        total = (
            result["express_request_usd"]
            + result["express_duration_usd"]
            + result["lambda_request_usd"]
            + duration
            + result["lambda_storage_usd"]
            + result["services_usd"]
        )
        # Each second a model call takes keeps the Converse Lambda and the
        # execution running: the part of the bill the offline model cannot show.
        per_model_second = (
            QUESTIONS
            * model_calls
            * (
                functions_by_key()["converse"].memory_mb / 1024 * lam["per_gb_second"][arch]
                + express_gb * express["per_gb_second"]
            )
        )
        result["by_architecture"][arch] = {
            "lambda_duration_usd": duration,
            "total_usd": total,
            "per_second_of_model_latency_usd": per_model_second,
        }
    return result


def _usd(model: dict[str, Any], per_question: dict[str, float]) -> float:
    return QUESTIONS * (
        per_question["input_per_question"] / 1000 * model["per_1k_input"]
        + per_question["cache_read_per_question"] / 1000 * model["per_1k_cache_read"]
        + per_question["cache_write_per_question"] / 1000 * model["per_1k_cache_write"]
        + per_question["output_per_question"] / 1000 * model["per_1k_output"]
    )


def tokens(modes: dict[str, Sequence[Any]], prices: dict[str, Any]) -> dict[str, Any]:
    """Per 1,000 questions, for each token mode (compact, naive, compact with caching).

    The counts are the offline model's, as the runs reported them; ``usd`` prices
    them for each model of ``shared.config.pricing``'s list.
    """
    out: dict[str, Any] = {}
    for mode, asked in modes.items():
        n = len(asked)
        figures: dict[str, Any] = {
            "questions": n,
            "input_per_question": sum(a.tokens("inputTokens") for a in asked) / n,
            "cache_read_per_question": sum(a.tokens("cacheReadInputTokens") for a in asked) / n,
            "cache_write_per_question": sum(a.tokens("cacheWriteInputTokens") for a in asked) / n,
            "output_per_question": sum(a.tokens("outputTokens") for a in asked) / n,
        }
        figures["usd"] = {
            model_id: _usd(model, figures) for model_id, model in prices["models"].items()
        }
        out[mode] = figures
    return out


def per_1k_questions(
    infrastructure: dict[str, Any], tokens: dict[str, Any], stack: dict[str, Any]
) -> dict[str, dict[str, Any]]:
    """What 1,000 questions cost with each model, as the stack deploys: infrastructure
    on its architecture plus the tokens of the mode it runs (cached when ``prod`` turns
    prompt caching on). Model latency is not in it: see ``per_second_of_model_latency_usd``.
    """
    mode = "cached" if stack["prompt_caching"] else "compact"
    infra = infrastructure["by_architecture"][stack["architecture"]]["total_usd"]
    return {
        model_id: {
            "usd": infra + usd,
            "infrastructure_usd": infra,
            "tokens_usd": usd,
            "token_mode": mode,
        }
        for model_id, usd in tokens[mode]["usd"].items()
    }


def express_memory_estimate_mb(
    definition_bytes: int, peak_state_bytes: int, map_items: int
) -> float:
    """AWS's published rule: 50 MB + definition size + data size x parallel/map steps."""
    return 50 + (definition_bytes + peak_state_bytes * map_items) / (1024 * 1024)


def table(c: dict[str, Any]) -> list[str]:
    """The section's Markdown, from ``results['cost']``."""
    infra = c["infrastructure"]
    stack = c["deployed"]
    lines = [
        f"Prices: `bench/prices.json` and, for tokens, `functions/shared/data/model_prices.json`, "
        f"taken {c['prices_taken']} ({c['region']}), list prices "
        f"to be checked. Infrastructure from the {infra['questions']} end-to-end questions; "
        f"tokens from the {c['tokens']['compact']['questions']} token questions.",
        "",
        "**Infrastructure** (measured durations; each Lambda call billed per 1 ms at its "
        "configured memory, and /tmp beyond 512 MB by the same milliseconds; Express per "
        "100 ms at 64 MB). *Services*: API Gateway, DynamoDB and CloudWatch Logs, the same on "
        "both architectures (detail below):",
        "",
    ]
    rows = []
    for arch, a in infra["by_architecture"].items():
        rows.append(
            [
                arch,
                usd(infra["express_request_usd"]),
                usd(infra["express_duration_usd"]),
                usd(infra["lambda_request_usd"]),
                usd(a["lambda_duration_usd"]),
                usd(infra["lambda_storage_usd"]),
                usd(infra["services_usd"]),
                f"**{usd(a['total_usd'])}**",
                usd(a["per_second_of_model_latency_usd"]),
            ]
        )
    lines += fmt_table(
        [
            "Lambda",
            "Express requests",
            "Express duration",
            "Lambda requests",
            "Lambda duration",
            "Lambda /tmp",
            "Services",
            "Infrastructure",
            "+ per 1 s of model latency per call",
        ],
        rows,
    )
    calls = ", ".join(
        f"{op} {count:.2f}" for op, count in sorted(infra["dynamodb_calls_per_question"].items())
    )
    lines += fmt_table(
        ["Service", "Per question (measured)", "Per 1,000 questions"],
        [
            ["API Gateway REST", "1 request", usd(infra["api_gateway_usd"])],
            [
                "DynamoDB reads (on demand)",
                f"{infra['dynamodb_read_units_per_question']:.2f} read units",
                usd(infra["dynamodb_read_usd"]),
            ],
            [
                "DynamoDB writes (on demand)",
                f"{infra['dynamodb_write_units_per_question']:.2f} write units",
                usd(infra["dynamodb_write_usd"]),
            ],
            [
                "CloudWatch Logs ingestion (conversations log)",
                f"{kib(infra['log_bytes_per_question'])} in "
                f"{infra['log_events_per_question']:.0f} log events",
                usd(infra["logs_ingestion_usd"]),
            ],
            [
                "CloudWatch Logs data protection (same bytes scanned)",
                kib(infra["log_bytes_per_question"]),
                usd(infra["logs_data_protection_usd"]),
            ],
        ],
    )
    funcs = infra["functions"]
    lam_free_mb = infra["ephemeral_storage_free_mb"]
    lines += [
        f"DynamoDB calls per question: {calls or 'none'}; request units by DynamoDB's item-size "
        "rules (`bench/dynamo.py`). The conversations log is what the state machine writes at "
        "level `ALL` with execution data: one record per history event, in Step Functions' log "
        "format, plus CloudWatch's 26 bytes per event (`bench/history.py`). The functions' own "
        "logs and API Gateway's access log are not counted.",
        "",
        "Per question: "
        + "; ".join(
            f"{k} {f['calls_per_question']:.2f} calls x {ms(f['mean_billed_ms'])} at "
            f"{f['memory_mb']} MB"
            + (
                f" (/tmp {f['ephemeral_storage_mb']:,} MB)"
                if f["ephemeral_storage_mb"] > lam_free_mb
                else ""
            )
            for k, f in funcs.items()
        )
        + f"; Express {ms(infra['express_billed_ms_mean'])} billed, "
        f"{infra['state_transitions_per_question']:.1f} state transitions "
        f"(as a Standard workflow: {usd(infra['standard_workflow_usd'])} per 1,000).",
        "",
        f"Express memory by AWS's rule (50 MB + definition + peak state data x "
        f"{c['express_memory']['map_items']} Map items): "
        f"{c['express_memory']['estimate_mb']:.1f} MB, inside the 64 MB billed.",
        "",
        "**Tokens** per question (offline model's counts) and per 1,000 questions for each model:",
        "",
    ]
    models = c["models"]
    rows = [
        [
            mode,
            n(t["input_per_question"]),
            n(t["cache_read_per_question"]),
            n(t["cache_write_per_question"]),
            n(t["output_per_question"]),
            *(usd(t["usd"][model_id]) for model_id in models),
        ]
        for mode, t in c["tokens"].items()
    ]
    lines += fmt_table(
        ["Mode", "Input / question", "Cache read", "Cache write", "Output", *models.values()],
        rows,
    )
    lines += [
        f"**All in, per 1,000 questions, as `{stack['environment']}` deploys it** "
        f"({stack['architecture']}, prompt caching {'on' if stack['prompt_caching'] else 'off'}: "
        "infrastructure plus the tokens of that mode). Model latency is not in it: add the "
        "last column of the infrastructure table per second of model time per call.",
        "",
    ]
    trace = c.get("live_trace")
    if trace:
        at = trace["by_turn_seconds"][str(trace["headline_seconds"])]
        lines += [
            f"**Live trace** (section 9), not in the figures above but its step writes: "
            f"{usd(at['usd'])} per 1,000 questions of {trace['headline_seconds']} s on Bedrock "
            f"({at['polls_per_question']} polls a question: API Gateway "
            f"{usd(at['api_gateway_usd'])}, DynamoDB reads {usd(at['dynamodb_read_usd'])}; "
            f"step writes {usd(at['dynamodb_write_usd'])}, already in the DynamoDB writes).",
            "",
        ]
    rows = [
        [
            models[model_id],
            usd(v["infrastructure_usd"]),
            f"{usd(v['tokens_usd'])} ({v['token_mode']})",
            f"**{usd(v['usd'])}**",
        ]
        for model_id, v in c["per_1k_questions"].items()
    ]
    lines += fmt_table(["Model", "Infrastructure", "Tokens", "Per 1,000 questions"], rows)
    return lines + as_deployed.table(c)
