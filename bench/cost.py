"""Figure 6: what 1,000 questions would cost on AWS, from measured quantities and list prices.

Infrastructure comes from the end-to-end run (execution durations from the
history, each Lambda call's measured handler time, the memory sizes the stack
gives each function); tokens from the token questions in each mode. Prices come
from ``bench/prices.json``, never from code.
"""

from __future__ import annotations

import json
import math
import statistics
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from shared.registry import functions_by_key

PRICES_PATH = Path(__file__).with_name("prices.json")
ARCHITECTURES = ("arm64", "x86_64")
QUESTIONS = 1000


def load_prices(path: Path = PRICES_PATH) -> dict[str, Any]:
    prices: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return prices


def _billed(value_ms: float, increment_ms: int) -> float:
    return math.ceil(value_ms / increment_ms) * increment_ms if value_ms > 0 else 0.0


def infrastructure(asked: Sequence[Any], prices: dict[str, Any]) -> dict[str, Any]:
    """Per 1,000 questions: Express requests and duration, Lambda requests and duration.

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
    lambda_gb_s = 0.0
    lambda_requests = 0.0
    for key, billed in sorted(calls.items()):
        per_question = len(billed) / len(asked)
        gb_s = sum(billed) / 1000 * functions_by_key()[key].memory_mb / 1024 / len(asked)
        functions[key] = {
            "memory_mb": functions_by_key()[key].memory_mb,
            "calls_per_question": per_question,
            "mean_billed_ms": statistics.fmean(billed),
            "gb_seconds_per_question": gb_s,
        }
        lambda_gb_s += gb_s
        lambda_requests += per_question
    transitions = statistics.fmean(a.states_entered for a in asked)
    model_calls = statistics.fmean(a.model_calls for a in asked)
    result: dict[str, Any] = {
        "questions": len(asked),
        "express_billed_ms_mean": statistics.fmean(express_ms),
        "express_request_usd": QUESTIONS * express["per_request"],
        "express_duration_usd": QUESTIONS * express_gb_s * express["per_gb_second"],
        "lambda_requests_per_question": lambda_requests,
        "lambda_request_usd": QUESTIONS * lambda_requests * lam["per_request"],
        "lambda_gb_seconds_per_question": lambda_gb_s,
        "functions": functions,
        "state_transitions_per_question": transitions,
        "standard_workflow_usd": QUESTIONS
        * transitions
        * prices["step_functions_standard"]["per_state_transition"],
        "model_calls_per_question": model_calls,
        "by_architecture": {},
    }
    for arch in ARCHITECTURES:
        duration = QUESTIONS * lambda_gb_s * lam["per_gb_second"][arch]
        total = (
            result["express_request_usd"]
            + result["express_duration_usd"]
            + result["lambda_request_usd"]
            + duration
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


def tokens(modes: dict[str, Sequence[Any]], prices: dict[str, Any]) -> dict[str, Any]:
    """Per 1,000 questions, for each token mode (compact, naive, compact with caching)."""
    model = prices["model"]
    out: dict[str, Any] = {}
    for mode, asked in modes.items():
        n = len(asked)
        uncached = sum(a.tokens("inputTokens") for a in asked) / n
        read = sum(a.tokens("cacheReadInputTokens") for a in asked) / n
        write = sum(a.tokens("cacheWriteInputTokens") for a in asked) / n
        output = sum(a.tokens("outputTokens") for a in asked) / n
        usd = QUESTIONS * (
            uncached / 1000 * model["per_1k_input"]
            + read / 1000 * model["per_1k_cache_read"]
            + write / 1000 * model["per_1k_cache_write"]
            + output / 1000 * model["per_1k_output"]
        )
        out[mode] = {
            "questions": n,
            "input_per_question": uncached,
            "cache_read_per_question": read,
            "cache_write_per_question": write,
            "output_per_question": output,
            "usd": usd,
        }
    return out


def express_memory_estimate_mb(
    definition_bytes: int, peak_state_bytes: int, map_items: int
) -> float:
    """AWS's published rule: 50 MB + definition size + data size x parallel/map steps."""
    return 50 + (definition_bytes + peak_state_bytes * map_items) / (1024 * 1024)
