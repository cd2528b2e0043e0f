"""What the other tools said (reviews, book facts), which tools failed, and fitting it all
into one short answer."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Final

from shared.catalog.specs import PAGES, YEAR
from shared.runtime.errors import FailureKind
from shared.runtime.tool_errors import failed_in_words
from storechat.offline.messages import ToolOutcome, plain
from storechat.offline.product import to_number
from storechat.offline.vocabulary import BOOK_INFO, LOOKUP, REVIEWS


@dataclass(frozen=True)
class Line:
    """One line of an answer; a droppable one goes first when the answer is too long."""

    text: str
    droppable: bool = False


def _quote(value: Any, limit: int = 70) -> str:
    return f"“{plain(value, limit)}”"


def reviews_line(outcome: ToolOutcome) -> str:
    data = outcome.data or {}
    query = plain(data.get("query") or outcome.tool_input.get("query") or "that computer", 60)
    titles = [
        r["title"]
        for r in data.get("results", [])
        if isinstance(r, dict) and isinstance(r.get("title"), str) and r["title"].strip()
    ]
    if not titles:
        return f"I found no reviews for {query}."
    return f"What reviewers say about {query}: " + "; ".join(_quote(t) for t in titles[:3]) + "."


def _authors(value: Any) -> str:
    if isinstance(value, list):
        names = [plain(v, 40) for v in value if isinstance(v, str) and v.strip()]
        return " and ".join(names[:2])
    return plain(value, 60) if isinstance(value, str) else ""


def book_line(outcome: ToolOutcome) -> str:
    data = outcome.data or {}
    query = plain(data.get("query") or outcome.tool_input.get("query") or "that book", 60)
    books = [r for r in data.get("results", []) if isinstance(r, dict) and r.get("title")]
    if not books:
        return f"I couldn't find book details for “{query}”."
    book = books[0]
    head = _quote(book["title"], 80)
    if authors := _authors(book.get("authors")):
        head += f" by {authors}"
    if year := to_number(book.get(YEAR.key)):
        head += f" ({year:.0f})"
    details = []
    rating, count = to_number(book.get("avgRating")), to_number(book.get("ratingsCount"))
    if rating:
        votes = f" from {count:,.0f} ratings" if count else ""
        details.append(f"rated {rating:.1f}/5{votes}")
    if pages := to_number(book.get(PAGES.key)):
        details.append(f"{pages:.0f} pages")
    if subjects := [plain(s, 30) for s in book.get("subjects") or [] if isinstance(s, str)][:2]:
        details.append("about " + " and ".join(subjects))
    return head + (": " + ", ".join(details) if details else "") + "."


# Each web tool as an answer names it, and what it needs, for a store whose tool could
# not answer (docs/cli.md, "Reviews and book facts", says the same).
_WEB_TOOLS: Final = {
    REVIEWS: (
        "review service",
        "Reviews need a Brave Search API key: BRAVE_API_KEY in the environment on a laptop, "
        "the stack's Brave secret on AWS.",
    ),
    BOOK_INFO: (
        "book information service",
        "Book facts come from Open Library, which must be reachable over the internet.",
    ),
}


def failure_line(outcome: ToolOutcome, catalog_ok: bool) -> str:
    kind = outcome.failure or FailureKind.TOOL_FAILED
    if kind == FailureKind.UNKNOWN_TOOL:
        label = plain(outcome.name, 40) if outcome.name else "a tool I did not ask for"
        return f"I got a result from {label} that I can't use, so I left it out."
    said = failed_in_words(kind)
    if outcome.name == LOOKUP:
        return f"The catalog {said}, so I can't confirm prices or stock."
    label, to_configure = _WEB_TOOLS[outcome.name or REVIEWS]
    line = f"The {label} {said}"
    line += ", so this is based on the catalog only." if catalog_ok else "."
    # The service answered and its text was kept out: no key or network to blame.
    told = kind in (FailureKind.WITHHELD, FailureKind.SCREENING_FAILED, FailureKind.MALFORMED)
    return line if told else f"{line} {to_configure}"


def fit(lines: list[Line], limit: int) -> str:
    """Join lines, dropping optional ones from the end until the answer fits."""
    kept = list(lines)
    while len("\n".join(line.text for line in kept)) > limit:
        droppable = [i for i, line in enumerate(kept) if line.droppable]
        if not droppable:
            break
        del kept[droppable[-1]]
    text = "\n".join(line.text for line in kept)
    if len(text) > limit:
        text = text[: limit - 1].rsplit(" ", 1)[0]
        # Never leave half a citation behind.
        if text.rfind("[") > text.rfind("]"):
            text = text[: text.rfind("[")].rstrip()
        text += "…"
    return text
