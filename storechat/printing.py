"""How the CLI shows an answer, its live steps and its trace in a terminal."""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from typing import Any, TextIO

from shared.catalog.categories import Category
from shared.catalog.specs import (
    AUTHOR,
    BATTERY_HOURS,
    GENRE,
    OS,
    RAM_GB,
    SCREEN_INCHES,
    STORAGE_GB,
    WEIGHT_KG,
    YEAR,
)
from shared.products.currency import DEFAULT_CURRENCY, amount
from shared.products.weight import DEFAULT_WEIGHT_UNIT, shown
from shared.trace.steps import Step
from storechat.local import RunResult

MODEL_LABELS = {
    "offline": "offline model: a deterministic stand-in for the LLM, no AWS needed",
    "obedient": "obedient model: a stand-in that does what tool results tell it (red team)",
    "replay": "replay model: recorded Converse responses played back in order",
    "bedrock": "Amazon Bedrock",
}


def model_label(model: str) -> str:
    kind = model.split(":", 1)[0]
    label = MODEL_LABELS.get(kind, model)
    if kind == "bedrock" and ":" in model:
        label += f" ({model.split(':', 1)[1]})"
    return label


def _spec_line(product: dict[str, Any], weight_unit: str = DEFAULT_WEIGHT_UNIT) -> str:
    specs = product.get("specs") or {}
    # A shorter line than a card's chips: what tells one product from the next in a list.
    shown: dict[str, tuple[tuple[str, str], ...]] = {
        Category.COMPUTERS: (
            (OS.key, "{}"),
            (RAM_GB.key, "{} GB RAM"),
            (WEIGHT_KG.key, "{weight}"),
            (BATTERY_HOURS.key, "{} h battery"),
        ),
        Category.MOBILE: (
            (OS.key, "{}"),
            (STORAGE_GB.key, "{} GB"),
            (SCREEN_INCHES.key, '{}"'),
        ),
    }
    line = shown.get(str(product.get("category")))
    if line is None:
        year = str(specs.get(YEAR.key) or "") or None
        bits = [specs.get(AUTHOR.key), year, specs.get(GENRE.key)]
    else:
        bits = [
            _said(label, specs[key], weight_unit) if specs.get(key) else None for key, label in line
        ]
    return ", ".join(_one(b) for b in bits if b)


def _one(value: Any) -> str:
    """A spec's value in a line of them: a list (a book's two authors) as its items
    joined with " & ", so it reads as one entry, not as Python's ``['A', 'B']``."""
    if isinstance(value, list):
        return " & ".join(str(v) for v in value if v)
    return str(value)


def _said(label: str, value: Any, weight_unit: str) -> str:
    if label == "{weight}" and isinstance(value, int | float):
        return shown(value, weight_unit)
    return label.format(_one(value))


def print_answer(
    result: RunResult,
    model: str,
    out: TextIO,
    currency: str = DEFAULT_CURRENCY,
    weight_unit: str = DEFAULT_WEIGHT_UNIT,
) -> None:
    """The answer, its products with prices in the store's ``currency`` (and the price
    before a sale) and weights in its ``weight_unit``, and its figures."""
    body = result.body or {}
    print(f"storechat · {model_label(model)}", file=out)
    print("", file=out)
    print(body.get("answer", ""), file=out)
    products = body.get("products") or []
    if products:
        print("\nProducts:", file=out)
        for p in products:
            price = p.get("price")
            price_text = amount(price, currency) if isinstance(price, int | float) else "?"
            before = p.get("compareAtPrice")
            if (
                isinstance(price, int | float)
                and isinstance(before, int | float)
                and before > price
            ):
                price_text += f" (was {amount(before, currency)})"
            # A product of no brand (a book whose author is its brand has none in the
            # response: its spec line names the author) shows none, not "None".
            line = [p.get("name"), p.get("brand"), price_text, _spec_line(p, weight_unit)]
            print(
                f"  [{p.get('productId')}] " + " · ".join(str(bit) for bit in line if bit),
                file=out,
            )
            # The links the page shows, made by the response (shared.store.store_links).
            for label, key in (("page", "url"), ("add to cart", "cartUrl")):
                if isinstance(p.get(key), str):
                    print(f"      {label}: {p[key]}", file=out)
    usage = body.get("usage") or {}
    outcome = body.get("outcome")
    if outcome == "fallback":
        outcome = f"fallback ({body.get('fallbackReason')})"
    rounds = body.get("toolRounds", 0)
    cached = ""
    if usage.get("cacheReadInputTokens") or usage.get("cacheWriteInputTokens"):
        cached = (
            f" (cache: {usage.get('cacheReadInputTokens', 0):,} read, "
            f"{usage.get('cacheWriteInputTokens', 0):,} written)"
        )
    print(
        f"\noutcome: {outcome} · {body.get('modelCalls', 0)} model calls · {rounds} tool "
        f"round{'s' if rounds != 1 else ''} · {usage.get('inputTokens', 0):,} input / "
        f"{usage.get('outputTokens', 0):,} output tokens{cached} · "
        f"{result.elapsed_ms / 1000:.2f} s",
        file=out,
    )
    if body.get("historySaved") is False:
        print("note: this turn could not be saved to the session history", file=out)
    print(
        f"session: {body.get('sessionId')}  (continue with --session {body.get('sessionId')})",
        file=out,
    )


_MARKS = {"running": "…", "done": "✓", "failed": "✗"}


def step_printer(out: TextIO) -> Callable[[Step], None]:
    """Print each live step as it happens (a step that changes is printed again)."""
    started = time.time() * 1000

    def show(step: Step) -> None:
        line = f"“{step.line}”" if step.kind == "said" else step.line
        outcome = f" · {step.outcome}" if step.outcome else ""
        at = max(0.0, (step.at - started) / 1000)
        print(f"  {at:5.2f} s {_MARKS[step.status]} {line}{outcome}", file=out, flush=True)

    return show


def print_trace(result: RunResult, out: TextIO) -> None:
    print("\nTrace: states entered (ms since start)", file=out)
    for name, ms in result.states_entered:
        print(f"  {ms:>6} ms  {name}", file=out)
    lines = (result.body or {}).get("trace") or []
    print("\nTrace: tool calls", file=out)
    if not lines:
        print("  (no tools were called)", file=out)
    for line in lines:
        if "round" not in line:
            # A step after the model answered (the fact check), not a tool call.
            print(f"  after the answer  {line.get('tool')}: {line.get('summary')}", file=out)
            continue
        print(
            f"  round {line.get('round')}  {line.get('tool')}  "
            f"input={json.dumps(line.get('input'), ensure_ascii=False)}  "
            f"status={line.get('status')}  {line.get('ms')} ms",
            file=out,
        )
        print(f"      told the model: {line.get('summary')}", file=out)
