"""Turn the end of a conversation turn into the body ``POST /query`` returns.

Products come only from the ledger: the full records the tools returned in this
execution. The model's text decides which of them to show, by citing
``[productId]``; a citation of anything the tools did not return is removed
together with the sentence or bullet that makes the claim.
"""

from __future__ import annotations

import re
from typing import Annotated, Any

from pydantic import BaseModel, Field

from shared.vocabulary import FALLBACK_REASONS, Outcome

OUTCOME_METRICS: dict[str, str] = {
    "answered": "Answered",
    "truncated": "Truncated",
    "refused": "Refused",
    "fallback": "Fallbacks",
}
"""One count metric per outcome, without dimensions, so alarms can divide by Conversations."""

# An id inside square brackets that is not a Markdown link and holds a digit.
CITATION = re.compile(r"\[([A-Za-z][A-Za-z0-9_-]{0,62}[0-9][A-Za-z0-9_-]{0,62})\](?!\()")
MAX_ANSWER_CHARS = 4000
FALLBACK_PRODUCTS = 3

REFUSAL = (
    "Sorry, I can't help with that request. I'm happy to help you find computers, phones "
    "and books in our store."
)
TRUNCATED_NOTE = "(This answer was cut short. Ask me to continue or to be more specific.)"


class UsageIn(BaseModel):
    inputTokens: int = 0
    outputTokens: int = 0
    cacheReadInputTokens: int = 0
    cacheWriteInputTokens: int = 0


class ComposeInput(BaseModel):
    sessionId: Annotated[str, Field(min_length=1)]
    outcome: Outcome
    fallbackReason: str | None = None
    answer: str = ""
    products: list[dict[str, Any]] = Field(default_factory=list)
    trace: list[dict[str, Any]] = Field(default_factory=list)
    usage: UsageIn = Field(default_factory=UsageIn)
    toolRounds: int = 0
    modelCalls: int = 0
    executionId: str | None = None


class ResponseBody(BaseModel):
    sessionId: str
    answer: str
    outcome: Outcome
    fallbackReason: str | None
    products: list[dict[str, Any]]
    toolRounds: int
    modelCalls: int
    usage: UsageIn
    trace: list[dict[str, Any]]
    unverifiedCitations: list[str]


def _ledger_index(products: list[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    index: dict[str, dict[str, Any]] = {}
    for product in products:
        pid = product.get("productId")
        if isinstance(pid, str) and pid not in index:
            index[pid] = product
    return index


# A sentence ends at . ! ? followed by a space, or at a full stop of a script that
# uses no spaces between sentences (Chinese, Japanese: 。！？; also ．｡ and the
# Devanagari, Arabic, Armenian, Ethiopic and Myanmar full stops), closing quotes
# and brackets included.
_SENTENCE_END = re.compile(
    r"(?<=[.!?])[\"'\u201d\u2019)\]]*\s+"
    r"|(?<=[\u3002\uff01\uff1f\uff0e\uff61\u0964\u06d4\u061f\u0589\u1362\u104b])"
    r"[\u300d\u300f\uff09\u3011\"'\u201d\u2019)\]]*\s*"
)


def sentences(line: str) -> list[str]:
    """``line`` cut into sentences; joined with "" they give ``line`` back."""
    pieces: list[str] = []
    start = 0
    for match in _SENTENCE_END.finditer(line):
        if match.end() > start and match.end() < len(line):
            pieces.append(line[start : match.end()])
            start = match.end()
    pieces.append(line[start:])
    return [p for p in pieces if p]


def _drop_claims(text: str, unknown: set[str]) -> str:
    """Remove each bullet or sentence that cites an id no tool returned."""

    def cites_unknown(fragment: str) -> bool:
        return any(m.group(1) in unknown for m in CITATION.finditer(fragment))

    kept_lines: list[str] = []
    for line in text.split("\n"):
        if not cites_unknown(line):
            kept_lines.append(line)
            continue
        if re.match(r"\s*([-*•]|\d+[.)])\s", line):
            continue
        kept = [s for s in sentences(line) if not cites_unknown(s)]
        if kept:
            kept_lines.append("".join(kept).rstrip())
    cleaned = "\n".join(kept_lines)
    # Anything left (an id the sentence splitter missed) goes too.
    cleaned = CITATION.sub(lambda m: "" if m.group(1) in unknown else m.group(0), cleaned)
    return re.sub(r"\n{3,}", "\n\n", re.sub(r"[ \t]+([.,;:!?])", r"\1", cleaned)).strip()


def cited_products(
    answer: str, ledger: list[dict[str, Any]]
) -> tuple[str, list[dict[str, Any]], list[str]]:
    """The answer without unverifiable claims, the cited records in order, the dropped ids."""
    index = _ledger_index(ledger)
    unknown: list[str] = []
    for match in CITATION.finditer(answer):
        if match.group(1) not in index and match.group(1) not in unknown:
            unknown.append(match.group(1))
    text = _drop_claims(answer, set(unknown)) if unknown else answer.strip()
    # Cards only for what the remaining text still cites: the words and the cards agree.
    cited: list[str] = []
    for match in CITATION.finditer(text):
        if match.group(1) in index and match.group(1) not in cited:
            cited.append(match.group(1))
    return text, [index[pid] for pid in cited], unknown


def _product_line(product: dict[str, Any]) -> str:
    price = product.get("price")
    price_text = f", ${price:,.2f}" if isinstance(price, int | float) else ""
    return (
        f"- {product.get('name')} ({product.get('brand')}{price_text}) [{product.get('productId')}]"
    )


def fallback_answer(reason: str | None, found: list[dict[str, Any]]) -> str:
    why = FALLBACK_REASONS.get(reason or "", "something went wrong while I was working on it")
    parts = [f"Sorry, I couldn't finish answering: {why}."]
    if found:
        parts.append("Here is what I found so far:")
        parts.extend(_product_line(p) for p in found)
        parts.append("You could try again, or ask a narrower question.")
    else:
        parts.append("Please try again in a moment, or ask a narrower question.")
    return "\n".join(parts)


def compose(event: ComposeInput) -> ResponseBody:
    unverified: list[str] = []
    if event.outcome == "refused":
        answer, products = REFUSAL, []
    elif event.outcome == "fallback":
        products = list(_ledger_index(event.products).values())[:FALLBACK_PRODUCTS]
        answer = fallback_answer(event.fallbackReason, products)
    else:
        answer, products, unverified = cited_products(event.answer, event.products)
        if not answer:
            answer = "Sorry, I couldn't find a product I can vouch for. Could you rephrase?"
    room = MAX_ANSWER_CHARS - (len(TRUNCATED_NOTE) + 2 if event.outcome == "truncated" else 0)
    if len(answer) > room:
        answer = answer[: room - 1].rstrip() + "…"
    if event.outcome == "truncated":
        # After the cap, so a long cut-off answer still says it was cut off.
        answer = f"{answer}\n\n{TRUNCATED_NOTE}"
    return ResponseBody(
        sessionId=event.sessionId,
        answer=answer,
        outcome=event.outcome,
        fallbackReason=event.fallbackReason if event.outcome == "fallback" else None,
        products=products,
        toolRounds=event.toolRounds,
        modelCalls=event.modelCalls,
        usage=event.usage,
        trace=event.trace,
        unverifiedCitations=unverified,
    )
