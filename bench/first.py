"""Searching first against the model going first: model calls, the shopper's wait, cost.

The same questions go through the state machine twice in one run, once with the
environment's ``search_first`` on (the catalog searched on the shopper's words before the
first model call, its result handed over as the model's own ``lookup_inventory`` call)
and once with it off (the model asks for every tool itself). Both runs have prompt
caching on, as prod deploys it, and every real handler, timed.

The wait is *modelled*, not measured: the offline model answers in milliseconds, so
each model call is given the latency of Claude Sonnet 4.5 on Bedrock
(:data:`SONNET_45_LATENCY`: the time to its first token plus its output tokens at its
output rate), and to that sum are added the run times of every function the question
invoked, measured here (tools of one round are counted one after the other, which
overstates a parallel round). The wall time with moto's engine is reported beside it; it
is mostly the local engine's own time (section 5), the same for both loops.
"""

from __future__ import annotations

import statistics
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from bench import cost
from bench.fmt import ms, usd
from bench.questions import SESSION_TURNS, TOKEN_QUESTIONS
from bench.scenarios import Asked, ask, local_system
from bench.stats import percentile
from bench.stats import summary as stats
from bench.tools import Timed, real_handler
from registry import functions_by_key

LOOPS = ("search_first", "model_first")
LABELS = {"search_first": "search first", "model_first": "model first"}


@dataclass(frozen=True)
class ModelLatency:
    """How long a model call takes: its first token, then its output at a steady rate."""

    first_token_s: float
    output_tokens_per_s: float
    source: str

    def call_seconds(self, output_tokens: int) -> float:
        return self.first_token_s + output_tokens / self.output_tokens_per_s


SONNET_45_LATENCY = ModelLatency(
    first_token_s=1.8,
    output_tokens_per_s=63.0,
    source=(
        "Claude Sonnet 4.5 on Amazon Bedrock as independent API measurements published in "
        "late 2025 put it: about 1.8 s to the first token and about 63 output tokens a second"
    ),
)


def _questions(token_questions: int, follow_ups: int) -> list[tuple[str, bool]]:
    """Single questions (a fresh session each), then one shopper's turns in one session
    (``True``: the turn continues the previous one)."""
    single = [(q, False) for q in TOKEN_QUESTIONS[:token_questions]]
    turns = [(q, i > 0) for i, q in enumerate(SESSION_TURNS[:follow_ups])]
    return single + turns


def _modelled_seconds(asked: Asked, latency: ModelLatency) -> float:
    model = sum(latency.call_seconds(u.get("outputTokens", 0)) for u in asked.usages)
    functions = sum(seconds for _, seconds in asked.lambda_calls)
    return model + functions


def _loop(
    search_first: bool,
    questions: list[tuple[str, bool]],
    web_env: Mapping[str, str],
    latency: ModelLatency,
) -> list[dict[str, Any]]:
    timed = Timed()
    overrides = {key: timed.wrap(key, real_handler(key)) for key in functions_by_key()}
    rows: list[dict[str, Any]] = []
    with local_system(
        web_env, env={"PROMPT_CACHING": "true"}, overrides=overrides, search_first=search_first
    ) as local:
        ask(local, "Hello")  # imports and caches warm, as on a warm Lambda; not counted
        timed.drain()
        session: str | None = None
        for question, follows in questions:
            asked = ask(local, question, session_id=session if follows else None, timed=timed)
            session = asked.session_id
            rows.append(
                {
                    "question": question,
                    "follow_up": follows,
                    "outcome": asked.outcome,
                    "model_calls": asked.model_calls,
                    "tools": asked.tools,
                    "modelled_s": _modelled_seconds(asked, latency),
                    "wall_ms": asked.wall_ms,
                    "asked": asked,
                }
            )
    return rows


def run(
    token_questions: int, follow_ups: int, web_env: Mapping[str, str], prices: dict[str, Any]
) -> dict[str, Any]:
    """Each question through both loops; per loop its means, percentiles and cost."""
    questions = _questions(token_questions, follow_ups)
    by_loop = {
        loop: _loop(loop == "search_first", questions, web_env, SONNET_45_LATENCY) for loop in LOOPS
    }
    tokens = cost.tokens(
        {loop: [r["asked"] for r in rows] for loop, rows in by_loop.items()}, prices
    )
    loops: dict[str, Any] = {}
    for loop, rows in by_loop.items():
        modelled = [r["modelled_s"] for r in rows]
        loops[loop] = {
            "model_calls_per_question": statistics.fmean(r["model_calls"] for r in rows),
            "modelled_s": stats(modelled) | {"p95": percentile(modelled, 95)},
            "wall_ms": stats([r["wall_ms"] for r in rows]),
            "tokens": {k: v for k, v in tokens[loop].items() if k != "usd"},
            "tokens_usd_per_1k": tokens[loop]["usd"],
        }
    return {
        "latency": {
            "first_token_s": SONNET_45_LATENCY.first_token_s,
            "output_tokens_per_s": SONNET_45_LATENCY.output_tokens_per_s,
            "source": SONNET_45_LATENCY.source,
        },
        "questions": [
            {
                "question": q,
                "follow_up": follows,
                "loops": {
                    loop: {k: v for k, v in by_loop[loop][i].items() if k != "asked"}
                    for loop in LOOPS
                },
            }
            for i, (q, follows) in enumerate(questions)
        ],
        "loops": loops,
    }


def all_in_usd(first: dict[str, Any], infrastructure_usd: float, model_id: str) -> dict[str, float]:
    """Per 1,000 questions with ``model_id``, each loop: its tokens (cached, as prod runs)
    plus the infrastructure the main section measured (one more tool invoke and one fewer
    model invoke on the search-first side are within its rounding)."""
    return {
        loop: infrastructure_usd + figures["tokens_usd_per_1k"][model_id]
        for loop, figures in first["loops"].items()
    }


def table(first: dict[str, Any], all_in: Mapping[str, float]) -> list[str]:
    """The section's Markdown."""
    latency = first["latency"]
    loops = first["loops"]
    lines = [
        "The same questions through the state machine with `search_first` on and off, in one "
        "run, prompt caching on, every real handler. The wait is modelled: each model call "
        f"takes {latency['first_token_s']} s to its first token plus its output tokens at "
        f"{latency['output_tokens_per_s']:g} a second ({latency['source']}), plus the measured "
        "run time of every function the question invoked. Wall time is moto's engine and "
        "the offline model, for reference.",
        "",
        "| Question | " + " | ".join(LABELS[loop] for loop in LOOPS) + " |",
        "|---|" + "---|" * len(LOOPS),
    ]
    for row in first["questions"]:
        cells = [
            f"{row['loops'][loop]['model_calls']} calls · {row['loops'][loop]['modelled_s']:.2f} s"
            for loop in LOOPS
        ]
        name = ("↳ " if row["follow_up"] else "") + row["question"]
        lines.append(f"| {name} | " + " | ".join(cells) + " |")
    lines += [
        "",
        "| Figure | " + " | ".join(LABELS[loop] for loop in LOOPS) + " |",
        "|---|" + "---|" * len(LOOPS),
        "| model calls per question | "
        + " | ".join(f"{loops[loop]['model_calls_per_question']:.2f}" for loop in LOOPS)
        + " |",
        "| modelled wait p50 / p95 | "
        + " | ".join(
            f"{loops[loop]['modelled_s']['p50']:.2f} s / {loops[loop]['modelled_s']['p95']:.2f} s"
            for loop in LOOPS
        )
        + " |",
        "| wall time p50 (moto) | "
        + " | ".join(ms(loops[loop]["wall_ms"]["p50"]) for loop in LOOPS)
        + " |",
        "| input tokens sent per question | "
        + " | ".join(f"{_sent(loops[loop]['tokens']):,.0f}" for loop in LOOPS)
        + " |",
        "| per 1,000 questions, all in | " + " | ".join(usd(all_in[loop]) for loop in LOOPS) + " |",
        "",
    ]
    return lines


def _sent(tokens: Mapping[str, float]) -> float:
    return (
        tokens["input_per_question"]
        + tokens["cache_read_per_question"]
        + tokens["cache_write_per_question"]
    )
