"""The model's own words (replies with no tool, what the store does not do), what the
other tools said (reviews, book facts, policies), which tools failed, and fitting it all
into one short answer."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Final

from shared.catalog.specs import PAGES, YEAR
from shared.runtime.errors import FailureKind
from shared.runtime.tool_errors import failed_in_words
from storechat.offline.intent import PRIVATE, Intent
from storechat.offline.messages import ToolOutcome, plain
from storechat.offline.product import to_number
from storechat.offline.store import BOOK_INFO, LOOKUP, POLICIES, REVIEWS


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


# Replies that end turn 1 without a tool call.
GREETING: Final = (
    "Hi! I'm the store's shopping assistant. I can find computers, phones and books in our "
    "catalog, compare them for what you need (budget, operating system, school, gaming or "
    "travel), summarise what reviewers say about a computer and look up facts about a book. "
    "What are you looking for?"
)
THANKS_REPLY: Final = (
    "You're welcome! Tell me if you'd like help with anything else: a computer, a phone or a book."
)
NO_TOOLS_REPLY: Final = (
    "I'd like to check the catalog for that, but my tools aren't available right now. "
    "Please try again in a moment."
)
OFFER: Final = "I can help you find and compare computers, phones and books in our catalog."
ASK_REPLY: Final = (
    "I'm not sure what you're looking for. Is it a computer, a phone or a book? Tell me what "
    "it's for or your budget, and I'll look in the catalog."
)
DECLINE: Final = f"Sorry, I can't help with that here. {OFFER}"


def service_line(topic: str) -> str:
    return f"Sorry, I can't help with {topic} here."


def service_reply(topic: str) -> str:
    if topic == PRIVATE:
        return f"{service_line(topic)} {OFFER}"  # nobody at the store gives them out either
    return f"{service_line(topic)} {OFFER} The store's customer service can answer them."


def outside_reply(intent: Intent) -> str:
    """The reply to a kind the store does not sell, when there is nothing to show."""
    assert intent.not_carried is not None
    return f"Sorry, we don't carry {intent.not_carried.name}. {OFFER}"


MAX_QUOTE: Final = 700
MAX_SECTIONS: Final = 2


def asks_policies(intent: Intent, available: frozenset[str]) -> bool:
    """Whether the message is a question about the store that its policies may answer."""
    return (
        POLICIES in available
        and intent.service is not None
        and intent.service != PRIVATE
        and not intent.names_subject()
    )


def policy_call(question: str) -> list[dict[str, Any]]:
    use = {"toolUseId": "tooluse_off_policies", "name": POLICIES, "input": {"question": question}}
    return [{"text": "Let me check the store's policies."}, {"toolUse": use}]


def policy_answer(rounds: list[list[ToolOutcome]]) -> str | None:
    """The answer to this turn's policies lookup, if the last round (of ``rounds``, the
    turn's: the latest message's results are the last) was one."""
    outcome = next((o for o in rounds[-1] if o.name == POLICIES), None)
    if outcome is None:
        return None
    if outcome.failure:
        return (
            f"I couldn't read the store's policies just now: the policies tool "
            f"{failed_in_words(outcome.failure)}. Please try again in a moment."
        )
    data = outcome.data or {}
    contact = plain(data.get("contact") or "", 300)
    sections = [s for s in data.get("sections") or [] if isinstance(s, dict)]
    if not sections:
        reach = f" You can reach the store at {contact}." if contact else ""
        return f"I don't know: the store's policies don't say.{reach}"
    store = plain(data.get("store") or "the store", 80)
    lines = [f"Here is what {store} says:"]
    room = MAX_QUOTE
    for section in sections[:MAX_SECTIONS]:
        heading = plain(section.get("heading") or "", 80)
        text = str(section.get("text") or "").strip()
        if room <= 0 or not text:
            break
        if len(text) > room:
            text = text[: room - 1].rstrip() + "…"
        room -= len(text)
        lines.append(f"**{heading}**\n{text}" if heading else text)
    if contact:
        lines.append(f"For anything else, you can reach the store at {contact}.")
    return "\n\n".join(lines)
