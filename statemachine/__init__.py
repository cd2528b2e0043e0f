"""The storechat state machine: one ASL file and the names of its placeholders.

The CDK stack and the local runner both load ``storechat.asl.json`` from here
and fill the same ``${Placeholder}`` names, so the deployed and the local loop
run one definition.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from pydantic import BaseModel

import registry
from converse.request import fixed_request_bytes
from shared.api import stop_reasons
from shared.config.pricing import USAGE_PRICE_FIELDS, TokenPrices
from shared.config.time_budget import DEADLINE_MS

ASL_PATH = Path(__file__).with_name("storechat.asl.json")

_PLACEHOLDER = re.compile(r"\$\{([A-Za-z][A-Za-z0-9]*)\}")


def resource_placeholders() -> tuple[str, ...]:
    """Placeholders filled with resource names or ARNs: the functions the loop calls by
    name, ``ToolFunctions`` (tool name -> function ARN, as a JSONata object) for the
    tools, the sessions table, the live trace's steps table and the table of daily
    spend counters."""
    tools = registry.tool_function_keys()
    return (
        *(f.placeholder for f in registry.FUNCTIONS if f.key not in tools),
        registry.TOOLS_PLACEHOLDER,
        "SessionsTableName",
        "StepsTableName",
        "SpendTableName",
    )


def resource_substitutions(
    arn_of: Mapping[str, str], sessions_table: str, steps_table: str, spend_table: str
) -> dict[str, str]:
    """The value of every resource placeholder, from each function's ARN by its key."""
    tools = registry.tool_function_keys()
    values = {f.placeholder: arn_of[f.key] for f in registry.FUNCTIONS if f.key not in tools}
    values[registry.TOOLS_PLACEHOLDER] = registry.tool_functions_object(dict(arn_of))
    values["SessionsTableName"] = sessions_table
    values["StepsTableName"] = steps_table
    values["SpendTableName"] = spend_table
    return values


SEARCH_FIRST_PLACEHOLDER = "SearchFirst"


def loop_substitutions(*, search_first: bool) -> dict[str, str]:
    """The loop's own vocabulary and settings, declared in Python: which stop reasons finish
    a reply (``FinishedStopReasons``, a JSONata array), and whether the catalog search on
    the shopper's words runs before the first model call (``SearchFirst``, ``true`` or
    ``false``: the environment's ``search_first``)."""
    return {
        stop_reasons.FINISHED_PLACEHOLDER: stop_reasons.jsonata_list(stop_reasons.FINISHED),
        SEARCH_FIRST_PLACEHOLDER: "true" if search_first else "false",
    }


CATALOG_SEARCH_TOOL = next(t for t in registry.TOOLS if t.function is registry.LOOKUP_INVENTORY)
"""The tool the state machine calls itself with the shopper's words: before the first model
call (``SearchCatalogFirst``) and, over budget, instead of it (``AnswerFromCatalog``)."""

SPEND_KEPT_DAYS = 31
"""How long a day's spend counter stays in its table after its last turn (then TTL)."""


def _max_chars(model: type[BaseModel], field: str) -> int:
    limits = [m.max_length for m in model.model_fields[field].metadata if hasattr(m, "max_length")]
    if not limits:
        raise ValueError(f"{model.__name__}.{field} has no max_length")
    return int(limits[0])


UNLIMITED_MICRO_USD = 10**15
"""The room a day has without a budget: a billion US dollars, which no day reaches."""

FRAMING_TOKENS = 1_000
"""Tokens a model may add around what a request sends: a provider's own tool-use
instructions (a few hundred for Claude) and the markers around each message."""


def fixed_input_tokens(system_prompt: str, currency: str) -> int:
    """At most how many input tokens a model call spends on what every call sends besides
    its messages: the store's system prompt and the tool specs, one token per UTF-8 byte
    (no model's tokenizer makes more tokens than bytes), and :data:`FRAMING_TOKENS`."""
    return fixed_request_bytes(system_prompt, currency) + FRAMING_TOKENS


def catalog_search_step() -> str:
    """A JSONata function: the live trace's key of the state machine's own search in round
    ``$round`` (``SearchCatalogFirst``'s is round 1's, ``AnswerFromCatalog``'s the next
    round's), the key the first tool of that round has (``shared.trace.steps.tool_key``)."""
    return "(function($round) { 'r' & $pad($string($round), -2, '0') & '.t00' })"


def budget_substitutions(
    daily_budget_usd: float | None,
    prices: TokenPrices,
    *,
    max_tokens: int,
    currency: str,
    system_prompt: str,
) -> dict[str, str]:
    """The daily model budget's placeholders.

    ``DailyBudgetMicroUsd`` is the budget in micro-dollars (without one,
    :data:`UNLIMITED_MICRO_USD`); ``ModelPricesPerMTok`` the model's US dollars per million
    tokens by ``usage`` key, as a JSONata object, so that tokens times price is
    micro-dollars. A model call's worst case is priced from ``FixedInputTokens``
    (:func:`fixed_input_tokens` of the store's ``system_prompt`` and ``currency``), the
    bytes of its messages, ``InputPricePerMTok`` (the dearest input price) and a whole reply of
    ``ModelMaxTokens`` (``max_tokens``, sent to the Converse function as the reply's cap).
    ``CatalogSearchTool`` and ``CatalogSearchChars`` are what ``SearchCatalogFirst`` and
    ``AnswerFromCatalog`` call and how much of the shopper's message they may send as the
    catalog tool's ``keywords``, and ``CatalogSearchStep`` the key of that search's line in
    the live trace (the tool writes the line in its own words).
    """
    if daily_budget_usd is not None and daily_budget_usd <= 0:
        raise ValueError(f"a daily budget must be above 0 US dollars, not {daily_budget_usd}")
    per_million = prices.per_million_usd()
    if set(per_million) != set(USAGE_PRICE_FIELDS):
        raise ValueError(f"{prices.model_id}: prices for {sorted(USAGE_PRICE_FIELDS)} needed")
    budget = UNLIMITED_MICRO_USD if daily_budget_usd is None else round(daily_budget_usd * 1e6)
    return {
        "DailyBudgetMicroUsd": str(budget),
        "ModelPricesPerMTok": "{"
        + ", ".join(f"'{key}': {price!r}" for key, price in sorted(per_million.items()))
        + "}",
        "InputPricePerMTok": repr(prices.dearest_input_per_million_usd()),
        "ModelMaxTokens": str(max_tokens),
        "FixedInputTokens": str(fixed_input_tokens(system_prompt, currency)),
        "CatalogSearchTool": CATALOG_SEARCH_TOOL.name,
        "CatalogSearchChars": str(_max_chars(CATALOG_SEARCH_TOOL.input_model, "keywords")),
        "CatalogSearchStep": catalog_search_step(),
        "SpendTtlSeconds": str(SPEND_KEPT_DAYS * 86_400),
    }


TUNING_DEFAULTS: dict[str, int] = {
    "MaxToolRounds": 5,
    "MaxToolsPerRound": 3,
    "MaxModelRetries": 2,
    "DeadlineMs": DEADLINE_MS,
    "ConverseReserveMs": 7_000,
    "ToolRoundReserveMs": 12_000,
    "HistoryTurns": 5,
    "HistoryChars": 6_000,
    "MaxStoredMessageChars": 1_000,
    "MaxStoredAnswerChars": 1_200,
    "MaxLedgerProducts": 40,
    "MaxLedgerChars": 32_000,
    "SessionTtlSeconds": 7 * 24 * 3600,
    "StepTtlSeconds": 300,
}
"""Placeholders filled with numbers, and their defaults.

``DeadlineMs`` is the turn's deadline (``shared.config.time_budget`` says how it fits between
the API's limit and the Lambdas' timeouts). ``ConverseReserveMs`` is the time a model
call is allowed to need: with less left before ``DeadlineMs`` the loop falls back
instead of calling the model.
``ToolRoundReserveMs`` covers a tool round (tools time out at 5 s) plus the
model call after it. ``HistoryTurns`` and ``HistoryChars`` bound the earlier
turns sent to the model; ``MaxLedgerProducts`` and ``MaxLedgerChars`` bound the ledger
(a product counts the characters of its JSON, as ``$string`` writes it on Step Functions
and, patched to match, locally: forty ordinary records fit, or about twelve of the
largest a catalog may hold, of which one lookup may add four). Together with
the tools' own size caps they keep every state's payload far below 256 KiB.
``StepTtlSeconds`` is how long a turn's live-trace steps can be read (``shared.trace.steps``).
"""


SPEND_STATES = ("ReserveSpend", "SettleSpend", "ReleaseSpend")
"""The states that write the day's spend counter, each within ``TimeoutSeconds`` (1 s): a
DynamoDB update takes milliseconds, and a reservation not written in time means no model
call (fail closed)."""


def with_function_seconds_at_least(definition: str, seconds: int) -> str:
    """``definition`` with every Lambda task (in a Map's states too) given at least
    ``seconds``: for a local engine that runs many executions at once under one
    interpreter, where Lambda would give each function its own CPU."""
    asl = json.loads(definition)

    def widen(states: dict[str, Any]) -> None:
        for state in states.values():
            timeout = state.get("TimeoutSeconds")
            if "lambda:invoke" in str(state.get("Resource", "")) and isinstance(timeout, int):
                state["TimeoutSeconds"] = max(timeout, seconds)
            for inner in ("ItemProcessor", "Iterator"):
                if isinstance(state.get(inner), dict):
                    widen(state[inner].get("States", {}))
            for branch in state.get("Branches", []):
                widen(branch.get("States", {}))

    widen(asl["States"])
    return json.dumps(asl, ensure_ascii=False)


def with_spend_check_seconds(definition: str, seconds: int) -> str:
    """``definition`` with its :data:`SPEND_STATES` given ``seconds`` each to write."""
    asl = json.loads(definition)
    for name in SPEND_STATES:
        asl["States"][name]["TimeoutSeconds"] = seconds
    return json.dumps(asl, ensure_ascii=False)


def read_definition() -> str:
    return ASL_PATH.read_text(encoding="utf-8")


def placeholders(definition: str | None = None) -> set[str]:
    """Every ``${Name}`` the definition uses."""
    return set(_PLACEHOLDER.findall(definition if definition is not None else read_definition()))


def substitute(definition: str, values: Mapping[str, object]) -> str:
    """Fill every placeholder as DefinitionSubstitutions would; none may be left."""
    missing = placeholders(definition) - set(values)
    if missing:
        raise KeyError(f"no value for placeholders: {sorted(missing)}")
    return _PLACEHOLDER.sub(lambda m: str(values[m.group(1)]), definition)
