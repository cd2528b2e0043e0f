"""Running the question set through the real loop, one session per question.

Each question's turns are asked in order in a new session of a local system (the
same state machine, tools and model ``storechat ask`` uses) seeded with the catalog
that question is answered from (:mod:`storechat.evaluate.catalogs`): one system per
served catalog. The last turn's response is scored (:mod:`storechat.evaluate.checks`)
and priced. A line per question goes to the progress stream as it finishes: ✓ or ✗,
and the checks that failed.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from contextlib import AbstractContextManager
from dataclasses import dataclass
from typing import Any, TextIO

from storechat.evaluate.catalogs import ServedCatalog
from storechat.evaluate.checks import SCORES, TOKEN_KEYS, Scored, Turn, score, tools_called
from storechat.evaluate.pricing import Pricing
from storechat.evaluate.questions import LoadedQuestion
from storechat.local import LocalStorechat

ANSWER_CHARS = 600
"""How much of each answer the report keeps."""


@dataclass(frozen=True)
class QuestionResult:
    question: LoadedQuestion
    turns: list[Turn]
    scored: Scored
    cost_usd: float | None

    @classmethod
    def of(
        cls,
        question: LoadedQuestion,
        turns: list[Turn],
        pricing: Pricing,
        catalog: Sequence[dict[str, Any]] | None = None,
    ) -> QuestionResult:
        scored = score(question, turns, catalog)
        return cls(question, turns, scored, pricing.cost(usage_of(turns)))

    @property
    def passed(self) -> bool:
        return self.scored.passed

    @property
    def failures(self) -> list[str]:
        return [f"{c.score}: {c.text()}" for c in self.scored.checks if not c.passed]

    def as_json(self) -> dict[str, Any]:
        q = self.question.question
        bodies = [t.body for t in self.turns if t.body is not None]
        last = bodies[-1] if len(bodies) == len(self.turns) and bodies else {}
        return {
            "id": q.id,
            "kind": q.kind,
            "set": self.question.set,
            "source": self.question.source,
            "turns": q.turns,
            "passed": self.passed,
            "scores": {name: self.scored.score(name) for name in SCORES},
            "constraintShare": self.scored.constraint_share,
            "corrections": self.scored.corrections,
            "factsChecked": self.scored.facts_checked,
            "factAccuracy": self.scored.fact_accuracy,
            "failures": self.failures,
            "checks": [
                {"score": c.score, "name": c.name, "passed": c.passed, "detail": c.detail}
                for c in self.scored.checks
            ],
            "outcome": last.get("outcome"),
            "fallbackReason": last.get("fallbackReason"),
            "products": [p.get("productId") for p in last.get("products") or []],
            "tools": tools_called(last) if last else [],
            "answer": str(last.get("answer") or "")[:ANSWER_CHARS],
            "usage": usage_of(self.turns),
            "modelCalls": sum(int(b.get("modelCalls") or 0) for b in bodies),
            "toolRounds": sum(int(b.get("toolRounds") or 0) for b in bodies),
            "latencyMs": sum(t.elapsed_ms for t in self.turns),
            "costUsd": self.cost_usd,
        }


def ask_all(
    asker: LocalStorechat, question: LoadedQuestion, *, timeout_s: float = 60
) -> list[Turn]:
    """Ask the question's turns in one new session; stop at the first that fails."""
    turns: list[Turn] = []
    session: str | None = None
    for text in question.question.turns:
        try:
            result = asker.ask(text, session, timeout_s=timeout_s, with_history=False)
        except TimeoutError as exc:
            turns.append(Turn(None, int(timeout_s * 1000), f"timed out: {exc}"))
            break
        if result.status != "SUCCEEDED" or result.body is None:
            error = f"the execution {result.status}: {result.error}: {result.cause}"
            turns.append(Turn(None, result.elapsed_ms, error))
            break
        turns.append(Turn(result.body, result.elapsed_ms))
        session = result.body.get("sessionId")
    return turns


OpenSystem = Callable[[ServedCatalog], AbstractContextManager[LocalStorechat]]
"""Starts a local system seeded with a served catalog's products."""


def evaluate(
    open_system: OpenSystem,
    questions: Sequence[LoadedQuestion],
    served: Sequence[ServedCatalog],
    pricing: Pricing,
    progress: TextIO,
) -> list[QuestionResult]:
    """Every question asked on a system of its own catalog; the results in question order."""
    results: dict[int, QuestionResult] = {}
    width = len(str(len(questions)))
    for catalog in served:
        with open_system(catalog) as asker:
            for position in catalog.positions:
                question = questions[position]
                turns = ask_all(asker, question)
                result = QuestionResult.of(question, turns, pricing, catalog.products)
                results[position] = result
                number = f"{len(results):>{width}}/{len(questions)}"
                progress.write(f"[{number}] {progress_line(result)}\n")
                progress.flush()
    return [results[position] for position in range(len(questions))]


def usage_of(turns: Iterable[Turn]) -> dict[str, int]:
    """Tokens summed over the turns that answered."""
    bodies = [t.body for t in turns if t.body is not None]
    return {
        key: sum(int((b.get("usage") or {}).get(key) or 0) for b in bodies) for key in TOKEN_KEYS
    }


def progress_line(result: QuestionResult) -> str:
    q = result.question.question
    seconds = sum(t.elapsed_ms for t in result.turns) / 1000
    head = f"{'✓' if result.passed else '✗'} {q.id} ({q.kind}, {seconds:.1f} s)"
    return head if result.passed else f"{head}: {'; '.join(_short(result.failures))}"


def _short(failures: Iterable[str], limit: int = 160) -> list[str]:
    return [f if len(f) <= limit else f[: limit - 1] + "…" for f in failures]
