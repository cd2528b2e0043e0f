"""What 1,000 questions cost as ``prod`` deploys them, from what the bench measured.

The infrastructure and token figures of ``bench.cost`` leave out three things a deployed
stack pays for, each measured or counted here:

* the conversation log at level ALL with execution data (every state's input and output,
  which is what lets an operator read a conversation in the console), for a one-round
  question and a five-round turn, and what one console view of it costs: the console
  reads Express executions from the log group with a Logs Insights query, billed per GB
  scanned;
* the WAF web ACL in front of the API (with ``client_rate_limit``), which inspects every
  request: the question's POST and each live-trace poll;
* the tokens at the price of what is called: a geographic inference profile (``us.``)
  costs the model's regional premium over the listed (global) price
  (``shared.config.pricing.token_prices``).
"""

from __future__ import annotations

import statistics
from collections.abc import Sequence
from typing import Any

from bench.fmt import kib, usd
from bench.fmt import table as fmt_table
from shared.config.pricing import USAGE_PRICE_FIELDS, token_prices

QUESTIONS = 1000
DAILY_VOLUMES = (1_000, 10_000, 100_000)
"""Questions a day at which the conversation log's monthly cost and a console view are shown."""
DAYS_A_MONTH = 30

_PER_QUESTION = {
    "inputTokens": "input_per_question",
    "outputTokens": "output_per_question",
    "cacheReadInputTokens": "cache_read_per_question",
    "cacheWriteInputTokens": "cache_write_per_question",
}


def logging(one_round: Sequence[Any], five_rounds: Sequence[Any], prices: dict[str, Any]) -> dict:
    """The conversation log per 1,000 questions, one round and five rounds (``bench.scenarios.
    Asked`` with the bytes their executions would log), and a console view at each volume."""
    logs = prices["cloudwatch_logs"]
    per_gb = logs["per_gb_ingested"] + logs["per_gb_data_protection_scanned"]

    def kept(asked: Sequence[Any]) -> dict[str, float]:
        size = statistics.fmean(a.log_bytes for a in asked)
        return {
            "questions": len(asked),
            "bytes_per_question": size,
            "usd": QUESTIONS * size / logs["bytes_per_gb"] * per_gb,
        }

    one, five = kept(one_round), kept(five_rounds)
    by_volume = {}
    for daily in DAILY_VOLUMES:
        day_gb = daily * one["bytes_per_question"] / logs["bytes_per_gb"]
        by_volume[str(daily)] = {
            "month_usd": DAYS_A_MONTH * day_gb * per_gb,
            "console_view_of_a_day_usd": day_gb * logs["per_gb_insights_scanned"],
        }
    return {"one_round": one, "five_rounds": five, "by_daily_volume": by_volume}


def waf(live_trace: dict[str, Any], prices: dict[str, Any]) -> dict[str, Any]:
    """WAF's requests per 1,000 questions: the POST and the polls, for each turn length."""
    price = prices["waf"]
    by_turn = {
        seconds: {
            "requests_per_question": 1 + t["polls_per_question"],
            "usd": QUESTIONS * (1 + t["polls_per_question"]) * price["per_request"],
        }
        for seconds, t in live_trace["by_turn_seconds"].items()
    }
    return {
        "by_turn_seconds": by_turn,
        "month_usd": price["per_web_acl_month"] + price["rules"] * price["per_rule_month"],
        "rules": price["rules"],
    }


def tokens_as_called(tokens: dict[str, Any], stack: dict[str, Any]) -> dict[str, Any]:
    """The deployed mode's tokens per 1,000 questions at the price of the deployed model id."""
    mode = "cached" if stack["prompt_caching"] else "compact"
    prices = token_prices(stack["model_id"])
    figures = tokens[mode]
    usd_ = QUESTIONS * sum(
        figures[_PER_QUESTION[kind]] / 1000 * prices.per_1k[kind] for kind in USAGE_PRICE_FIELDS
    )
    listed = token_prices(prices.model_id)  # the listed (global) price, for comparison
    listed_usd = QUESTIONS * sum(
        figures[_PER_QUESTION[kind]] / 1000 * listed.per_1k[kind] for kind in USAGE_PRICE_FIELDS
    )
    return {
        "model_id": stack["model_id"],
        "name": prices.name,
        "mode": mode,
        "usd": usd_,
        "listed_usd": listed_usd,
    }


def as_deployed(cost: dict[str, Any], live_trace: dict[str, Any]) -> dict[str, Any]:
    """Per 1,000 questions of the live trace's headline length, everything prod pays per
    question: infrastructure (its conversation log included), live-trace polls, WAF and
    the tokens as called."""
    stack = cost["deployed"]
    infra = cost["infrastructure"]["by_architecture"][stack["architecture"]]["total_usd"]
    headline = str(live_trace["headline_seconds"])
    polls = live_trace["by_turn_seconds"][headline]
    trace_usd = polls["api_gateway_usd"] + polls["dynamodb_read_usd"]  # writes are in infra
    waf_usd = cost["waf"]["by_turn_seconds"][headline]["usd"] if stack["waf"] else 0.0
    tokens = cost["tokens_as_called"]
    return {
        "turn_seconds": live_trace["headline_seconds"],
        "infrastructure_usd": infra,
        "live_trace_usd": trace_usd,
        "waf_usd": waf_usd,
        "tokens_usd": tokens["usd"],
        "usd": infra + trace_usd + waf_usd + tokens["usd"],
    }


def table(c: dict[str, Any]) -> list[str]:
    """The section's Markdown, from ``results['cost']`` (when it has these figures)."""
    if "as_deployed" not in c:
        return []
    log, waf_, tokens, total = c["logging"], c["waf"], c["tokens_as_called"], c["as_deployed"]
    one, five = log["one_round"], log["five_rounds"]
    lines = [
        f"**As `{c['deployed']['environment']}` deploys it**, per 1,000 questions of "
        f"{total['turn_seconds']} s on Bedrock: the infrastructure above (the conversation log "
        "included), the live trace's polls, the WAF's requests and the tokens at the price of "
        f"{tokens['model_id']} ({tokens['name']}; {usd(tokens['listed_usd'])} at the listed "
        "global price).",
        "",
    ]
    lines += fmt_table(
        ["Infrastructure", "Live-trace polls", "WAF requests", "Tokens as called", "All in"],
        [
            [
                usd(total["infrastructure_usd"]),
                usd(total["live_trace_usd"]),
                usd(total["waf_usd"]),
                f"{usd(total['tokens_usd'])} ({tokens['mode']})",
                f"**{usd(total['usd'])}**",
            ]
        ],
    )
    lines += [
        "**The conversation log** (level ALL with execution data, which the console needs to "
        "show a conversation; ingestion plus the data protection scan, per 1,000 questions):",
        "",
    ]
    lines += fmt_table(
        ["Turn", "Logged per question (measured)", "Per 1,000 questions"],
        [
            [
                f"one round ({one['questions']} questions)",
                kib(one["bytes_per_question"]),
                usd(one["usd"]),
            ],
            [
                "five rounds x 3 tools (replay model)",
                kib(five["bytes_per_question"]),
                usd(five["usd"]),
            ],
        ],
    )
    lines += fmt_table(
        ["Questions a day (one round)", "Conversation log a month", "One console view of a day"],
        [
            [f"{int(daily):,}", usd(v["month_usd"]), usd(v["console_view_of_a_day_usd"])]
            for daily, v in log["by_daily_volume"].items()
        ],
    )
    waf_rows = [
        [f"{seconds} s", str(t["requests_per_question"]), usd(t["usd"])]
        for seconds, t in waf_["by_turn_seconds"].items()
    ]
    lines += [
        f"**The WAF** inspects every request to the stage, each live-trace poll too; its "
        f"{waf_['rules']} rules and the web ACL cost {usd(waf_['month_usd'])} a month besides:",
        "",
    ]
    return lines + fmt_table(["Turn on Bedrock", "Requests a question", "Per 1,000"], waf_rows)
