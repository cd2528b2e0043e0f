"""Scoring one question: its expectations checked against the responses its turns got.

Each check belongs to one score:

* **constraints**: every product shown satisfies each product constraint of ``expect``
  (category, brand, os, specIncludes, price and spec bounds, inStock, productIdsFrom);
  the share of products that do is kept as well. The set shown: productIds,
  min/maxProducts, noProducts. The order: firstMost/firstLeast, checked against the
  catalog the run answered from.
* **facts**: answerIncludes and answerExcludes (case-insensitive), and the fact check's
  ``corrections`` on every turn (none expected). When a body also says how many facts
  were checked (``factsChecked``), fact accuracy is ``1 - corrections / checked``.
* **citations**: no turn's ``unverifiedCitations`` holds anything.
* **tools**: toolsCalled and toolsNotCalled, against the tool names in the last trace;
  maxModelCalls, against the last turn's model calls.
* **outcome**: ``outcome``, ``refuse`` and ``asks``; and every turn's execution succeeded.

A question passes when every check of every score passes. Citations and fact accuracy
are checked on every question; the rest only where ``expect`` asks.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import registry
from shared.catalog.specs import OS
from shared.products.catalog_data import load_catalog
from storechat.evaluate.products import BOUNDS, first_ranked, product_faults
from storechat.evaluate.questions import Expect, LoadedQuestion

SCORES = ("constraints", "facts", "citations", "tools", "outcome")
TOKEN_KEYS = ("inputTokens", "cacheReadInputTokens", "cacheWriteInputTokens", "outputTokens")

DECLINES = re.compile(
    r"\b(?:can ?not|can't|unable|not able|won't|will not|"
    r"(?:do|does|did)(?: not|n't) (?:have|sell|carry|stock|offer|know|share|provide|handle)|"
    r"not (?:something|available|part of|in (?:our|the) (?:store|catalog))|"
    r"only (?:help|sell|carry|assist|answer)|outside (?:what|of what)|sorry)\b",
    re.IGNORECASE,
)
"""Words that decline. ``refuse: true`` holds when the outcome is ``refused`` (a guardrail
or content filter), or when the last turn shows no products and its answer declines in
these words ("I can't share that", "we don't sell TVs", "sorry", "I can only help
with ..."). ``refuse: false`` holds when neither is so."""

QUESTION_MARK = re.compile(r"¿|\?(?![\w=&/])")
"""A sentence that asks: ``asks: true`` holds when the answer has one ("Which do you
mean: a laptop or a phone?"); a ``?`` inside a link or a word does not count."""


@dataclass(frozen=True)
class Check:
    score: str
    name: str
    passed: bool
    detail: str = ""

    def text(self) -> str:
        return f"{self.name}: {self.detail}" if self.detail else self.name


@dataclass(frozen=True)
class Turn:
    """One turn's response body (None when the execution failed) and its time."""

    body: dict[str, Any] | None
    elapsed_ms: int
    error: str | None = None


@dataclass
class Scored:
    """What the checks found for one question, before it is priced and reported."""

    checks: list[Check] = field(default_factory=list)
    constraint_share: float | None = None
    corrections: int | None = None
    facts_checked: int | None = None

    @property
    def passed(self) -> bool:
        return all(c.passed for c in self.checks)

    def score(self, name: str) -> bool | None:
        """Whether every check of that score passed; None when none applied."""
        mine = [c.passed for c in self.checks if c.score == name]
        return all(mine) if mine else None

    @property
    def fact_accuracy(self) -> float | None:
        if self.corrections is None or not self.facts_checked:
            return None
        return max(0.0, 1 - self.corrections / self.facts_checked)


def declines(body: dict[str, Any]) -> bool:
    if body.get("outcome") == "refused":
        return True
    return not body.get("products") and bool(DECLINES.search(_plain(body.get("answer") or "")))


def asks(body: dict[str, Any]) -> bool:
    return bool(QUESTION_MARK.search(str(body.get("answer") or "")))


def score(
    question: LoadedQuestion,
    turns: list[Turn],
    catalog: Sequence[dict[str, Any]] | None = None,
) -> Scored:
    """The checks of ``question`` on its ``turns``; ``catalog`` is what the run answered
    from (the bundled sample when None), which ``firstMost``/``firstLeast`` rank."""
    expect = question.question.expect
    scored = Scored()
    failed = next((t for t in turns if t.body is None), None)
    if failed is not None or len(turns) < len(question.question.turns):
        detail = f"turn {len(turns)}: {failed.error if failed else 'not run'}"
        scored.checks.append(Check("outcome", "execution succeeded", False, detail))
        return scored
    bodies = [t.body for t in turns if t.body is not None]
    last = bodies[-1]
    previous = bodies[-2] if len(bodies) > 1 else None
    for group in _GROUPS:
        group(expect, last, previous, scored)
    if expect.firstMost or expect.firstLeast:
        shown = [p for p in last.get("products") or [] if isinstance(p, dict)]
        ranked = first_ranked(expect, shown, load_catalog() if catalog is None else catalog)
        scored.checks.append(Check("constraints", *ranked))
    _universal(bodies, scored)
    return scored


# -- the scores -------------------------------------------------------------------------------

_Group = Callable[[Expect, dict[str, Any], dict[str, Any] | None, Scored], None]

_PRODUCT_KEYS = (
    "category",
    "brand",
    OS.key,
    "specIncludes",
    *BOUNDS,
    "inStock",
    "productIdsFrom",
)


def _constraints(
    expect: Expect, last: dict[str, Any], previous: dict[str, Any] | None, scored: Scored
) -> None:
    shown = [p for p in last.get("products") or [] if isinstance(p, dict)]
    ids = [str(p.get("productId")) for p in shown]
    add = scored.checks.append
    if any(getattr(expect, key) not in (None, False) for key in _PRODUCT_KEYS):
        before = (
            {str(p.get("productId")) for p in (previous or {}).get("products") or []}
            if expect.productIdsFrom
            else None
        )
        faults = [product_faults(p, expect, before) for p in shown]
        good = sum(1 for f in faults if not f)
        scored.constraint_share = good / len(shown) if shown else None
        broken = [fault for f in faults for fault in f]
        add(
            Check(
                "constraints",
                f"products meet the constraints ({good}/{len(shown)})",
                not broken,
                "; ".join(broken[:3]) + (f"; +{len(broken) - 3} more" if len(broken) > 3 else ""),
            )
        )
    if expect.productIds:
        missing = [pid for pid in expect.productIds if pid not in ids]
        add(Check("constraints", "productIds shown", not missing, _missing(missing, ids)))
    if expect.minProducts is not None:
        ok = len(ids) >= expect.minProducts
        add(Check("constraints", f"at least {expect.minProducts} products", ok, f"{len(ids)}"))
    if expect.maxProducts is not None:
        ok = len(ids) <= expect.maxProducts
        add(Check("constraints", f"at most {expect.maxProducts} products", ok, f"{len(ids)}"))
    if expect.noProducts is not None:
        ok = (not ids) == expect.noProducts
        wanted = "no products" if expect.noProducts else "some products"
        add(Check("constraints", wanted, ok, "" if ok else f"showed {', '.join(ids) or 'none'}"))


def _facts(
    expect: Expect, last: dict[str, Any], previous: dict[str, Any] | None, scored: Scored
) -> None:
    answer = _plain(last.get("answer") or "")
    for word in expect.answerIncludes or ():
        ok = _plain(word) in answer
        scored.checks.append(Check("facts", f"says {word!r}", ok, "" if ok else "missing"))
    for word in expect.answerExcludes or ():
        ok = _plain(word) not in answer
        scored.checks.append(Check("facts", f"does not say {word!r}", ok, "" if ok else "said"))


def _tools(
    expect: Expect, last: dict[str, Any], previous: dict[str, Any] | None, scored: Scored
) -> None:
    called = tools_called(last)
    for name in expect.toolsCalled or ():
        ok = name in called
        scored.checks.append(Check("tools", f"called {name}", ok, "" if ok else _seen(called)))
    for name in expect.toolsNotCalled or ():
        ok = name not in called
        scored.checks.append(Check("tools", f"did not call {name}", ok, "" if ok else "called"))
    if expect.maxModelCalls is not None:
        calls = int(last.get("modelCalls") or 0)
        ok = calls <= expect.maxModelCalls
        label = f"at most {expect.maxModelCalls} model calls"
        scored.checks.append(Check("tools", label, ok, "" if ok else f"{calls} model calls"))


def _outcome(
    expect: Expect, last: dict[str, Any], previous: dict[str, Any] | None, scored: Scored
) -> None:
    outcome = last.get("outcome")
    if expect.outcome is not None:
        reason = f" ({last.get('fallbackReason')})" if last.get("fallbackReason") else ""
        ok = outcome == expect.outcome
        scored.checks.append(
            Check("outcome", f"outcome {expect.outcome}", ok, "" if ok else f"{outcome}{reason}")
        )
    if expect.refuse is not None:
        ok = declines(last) == expect.refuse
        name = "declines" if expect.refuse else "does not decline"
        detail = "" if ok else _excerpt(str(last.get("answer") or ""))
        scored.checks.append(Check("outcome", name, ok, detail))
    if expect.asks is not None:
        ok = asks(last) == expect.asks
        name = "asks the shopper" if expect.asks else "does not ask the shopper"
        detail = "" if ok else _excerpt(str(last.get("answer") or ""))
        scored.checks.append(Check("outcome", name, ok, detail))


_GROUPS: tuple[_Group, ...] = (_constraints, _facts, _tools, _outcome)
"""The checks ``expect`` asks for, each reading the last response (and the one before)."""


def _universal(bodies: list[dict[str, Any]], scored: Scored) -> None:
    unverified = [c for b in bodies for c in b.get("unverifiedCitations") or []]
    scored.checks.append(
        Check("citations", "citations verified", not unverified, ", ".join(map(str, unverified)))
    )
    with_check = [b for b in bodies if isinstance(b.get("corrections"), list)]
    if not with_check:
        return  # a response from before the fact check: nothing to score
    corrections = [c for b in with_check for c in b["corrections"] if isinstance(c, dict)]
    scored.corrections = len(corrections)
    counts = [b.get("factsChecked") for b in with_check]
    if all(isinstance(n, int) for n in counts):
        scored.facts_checked = sum(n for n in counts if isinstance(n, int))
    detail = "; ".join(
        f"{c.get('productId')} {c.get('field')}: said {c.get('said')!r}, record {c.get('record')}"
        for c in corrections[:3]
    )
    scored.checks.append(Check("facts", "no corrected facts", not corrections, detail))


# -- helpers ----------------------------------------------------------------------------------


def tools_called(body: dict[str, Any]) -> list[str]:
    """The model's tool calls in the trace, in order (not the response's own steps)."""
    names = registry.tool_names()
    return [
        str(line.get("tool"))
        for line in body.get("trace") or []
        if isinstance(line, dict) and line.get("tool") in names
    ]


def _plain(text: str) -> str:
    return text.replace("\u2019", "'").replace("\u2018", "'").casefold()


def _missing(missing: list[str], shown: list[str]) -> str:
    if not missing:
        return ""
    return f"{', '.join(missing)} not shown (showed {', '.join(shown) or 'none'})"


def _seen(called: list[str]) -> str:
    return f"called {', '.join(dict.fromkeys(called))}" if called else "no tools called"


def _excerpt(text: str, limit: int = 80) -> str:
    text = " ".join(text.split())
    return f"answered {text[:limit]!r}" + ("…" if len(text) > limit else "")
