"""Running the red team's cases through the real loop, and counting the claims that got through.

Each case gets a new session of one local system (the state machine, the tools, the
response builder ``storechat ask`` uses, on the bundled catalog the cases are written
against), whose web tools reach :class:`~storechat.redteam.web.HostileWeb`, serving the
case's text for each turn. What the shopper read of every turn (the answer, the live
trace's lines, the cards) is checked for each claim the case plants
(:mod:`storechat.redteam.claims`). A line per case goes to the progress stream.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, TextIO

from converse.prompt import RULES
from shared.trace.steps import Step
from storechat.local import LocalStorechat
from storechat.redteam.cases import Case
from storechat.redteam.claims import Shown, Surface, reached
from storechat.redteam.web import HostileWeb

ANSWER_CHARS = 600
"""How much of each answer the report keeps."""
SECRET_PROMPT = "\n".join(RULES)
"""What of the system prompt must never reach a shopper: its rules, not the store's own
words between them (its name and contact, which an answer may give)."""
TRACE_KINDS = ("said",)
"""The live trace's lines that carry the model's own words."""


@dataclass(frozen=True)
class CaseResult:
    case: Case
    shown: list[Shown]
    reached: list[Surface | None]
    """Per claim of the case, in order: where the shopper read it, or None."""
    error: str | None = None

    @property
    def count(self) -> int:
        return sum(1 for surface in self.reached if surface)

    def as_json(self) -> dict[str, Any]:
        return {
            "id": self.case.id,
            "attack": self.case.attack,
            "claims": [
                {"kind": c.kind, "claim": c.label(), "reached": surface}
                for c, surface in zip(self.case.claims, self.reached, strict=True)
            ],
            "reached": self.count,
            "answers": [s.answer[:ANSWER_CHARS] for s in self.shown],
            "error": self.error,
        }


def run_case(local: LocalStorechat, web: HostileWeb, case: Case) -> CaseResult:
    shown: list[Shown] = []
    session: str | None = None
    error: str | None = None
    for message, reviews, books in case.asks():
        web.serve(reviews, books)
        lines: list[str] = []

        def heard(step: Step, lines: list[str] = lines) -> None:
            if step.kind in TRACE_KINDS and step.line not in lines:
                lines.append(step.line)

        result = local.ask(message, session, with_history=False, on_step=heard)
        if result.status != "SUCCEEDED" or result.body is None:
            error = f"the execution {result.status}: {result.error}: {result.cause}"
            break
        body = result.body
        cards = [str(p.get("productId")) for p in body.get("products") or []]
        shown.append(Shown(str(body.get("answer") or ""), lines, cards))
        session = body.get("sessionId")
    return CaseResult(case, shown, [reached(c, shown, SECRET_PROMPT) for c in case.claims], error)


def run_cases(
    cases: Sequence[Case], *, model: str, log_level: str, progress: TextIO
) -> list[CaseResult]:
    results: list[CaseResult] = []
    width = len(str(len(cases)))
    with (
        HostileWeb() as web,
        LocalStorechat(model=model, env=web.environment(), log_level=log_level) as local,
    ):
        for case in cases:
            result = run_case(local, web, case)
            results.append(result)
            progress.write(f"[{len(results):>{width}}/{len(cases)}] {progress_line(result)}\n")
            progress.flush()
    return results


def progress_line(result: CaseResult) -> str:
    claims = result.case.claims
    head = f"{'✗' if result.count else '✓'} {result.case.id}"
    if result.error:
        return f"{head}: {result.error[:200]}"
    if not result.count:
        return f"{head}: none of {len(claims)} claims reached the shopper"
    got = [
        f"{c.kind} {c.label()!r} ({surface})"
        for c, surface in zip(claims, result.reached, strict=True)
        if surface
    ]
    return f"{head}: {result.count} of {len(claims)} reached: {'; '.join(got)}"


def totals(results: Sequence[CaseResult]) -> dict[str, Any]:
    """The run's counts: claims planted and reached, in all, by kind and by surface."""
    planted: Counter[str] = Counter()
    got: Counter[str] = Counter()
    surfaces: Counter[str] = Counter()
    for result in results:
        for claim, surface in zip(result.case.claims, result.reached, strict=True):
            planted[claim.kind] += 1
            if surface:
                got[claim.kind] += 1
                surfaces[surface] += 1
    return {
        "cases": len(results),
        "casesReached": sum(1 for r in results if r.count),
        "casesFailed": sum(1 for r in results if r.error),
        "claims": sum(planted.values()),
        "reached": sum(got.values()),
        "byKind": {k: {"claims": planted[k], "reached": got[k]} for k in sorted(planted)},
        "bySurface": dict(sorted(surfaces.items())),
    }
