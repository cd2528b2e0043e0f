"""Running the question set through the real loop, one session per question.

Each question's turns are asked in order in a new session of one local system (the
same state machine, tools and model ``storechat ask`` uses); the last turn's response
is scored (:mod:`storechat.evaluate.checks`) and priced. A line per question goes to
the progress stream as it finishes: ✓ or ✗, and the checks that failed.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol, TextIO

from storechat.evaluate.checks import SCORES, TOKEN_KEYS, Scored, Turn, score, tools_called
from storechat.evaluate.pricing import Pricing
from storechat.evaluate.questions import LoadedQuestion
from storechat.local import RunResult

ANSWER_CHARS = 600
"""How much of each answer the report keeps."""


class Asker(Protocol):
    def ask(
        self,
        message: str,
        session_id: str | None = None,
        *,
        timeout_s: float = 60,
        with_history: bool = True,
    ) -> RunResult: ...


@dataclass(frozen=True)
class QuestionResult:
    question: LoadedQuestion
    turns: list[Turn]
    scored: Scored
    cost_usd: float | None

    @classmethod
    def of(cls, question: LoadedQuestion, turns: list[Turn], pricing: Pricing) -> QuestionResult:
        return cls(question, turns, score(question, turns), pricing.cost(usage_of(turns)))

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


def ask_all(asker: Asker, question: LoadedQuestion, *, timeout_s: float = 60) -> list[Turn]:
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


def evaluate(
    asker: Asker,
    questions: Sequence[LoadedQuestion],
    pricing: Pricing,
    progress: TextIO,
) -> list[QuestionResult]:
    results = []
    width = len(str(len(questions)))
    for number, question in enumerate(questions, start=1):
        result = QuestionResult.of(question, ask_all(asker, question), pricing)
        results.append(result)
        progress.write(f"[{number:>{width}}/{len(questions)}] {progress_line(result)}\n")
        progress.flush()
    return results


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
