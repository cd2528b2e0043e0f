"""Turn 2: the final answer, written only from what the tools returned."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Final

from storechat.offline.facts import facts_of, highlights, money
from storechat.offline.intent import Intent
from storechat.offline.messages import ToolOutcome, plain
from storechat.offline.plan import GREETING
from storechat.offline.rank import Constraints, Product, rank, sift, to_number
from storechat.offline.vocabulary import (
    BOOK_INFO,
    BOOKS,
    COMPUTERS,
    LOOKUP,
    MOBILE,
    OS_CATEGORY,
    OS_LABEL,
    REVIEWS,
    SORT_PHRASE,
    USE_PHRASE,
    unique,
)

MAX_ANSWER_CHARS: Final = 900


def _describe(c: Constraints) -> str:
    noun = {COMPUTERS: "computers", MOBILE: "phones", BOOKS: "books"}.get(
        c.category or "", "products"
    )
    if c.category == BOOKS and c.brand:
        noun = "titles"  # not "Penguin Books books"
    parts = [c.brand or "", "/".join(OS_LABEL[s] for s in c.systems), noun]
    description = " ".join(p for p in parts if p)
    if c.product_name:
        description += f" matching “{plain(c.product_name, 60)}”"
    if c.use and c.category != BOOKS:
        description += f" {USE_PHRASE[c.use]}"
    if c.max_price is not None:
        description += f" under {money(c.max_price)}"
    return description


def _relax(c: Constraints) -> str:
    options = []
    if c.max_price is not None:
        options.append(f"raising the budget above {money(c.max_price)}")
    if c.systems:
        options.append("another operating system")
    if c.brand:
        options.append("another brand")
    if c.product_name:
        options.append("a broader search")
    if not options:
        return "Try describing what you need in other words."
    joined = options[0] if len(options) == 1 else ", ".join(options[:-1]) + " or " + options[-1]
    return f"Try {joined}."


@dataclass(frozen=True)
class _Line:
    text: str
    droppable: bool = False


def _product_section(products: list[Product], c: Constraints, limit: int) -> list[_Line]:
    sifted = sift(products, c)
    description = _describe(c)
    lines: list[_Line] = []
    if not sifted.fits:
        lines.append(_Line(f"I couldn't find any {description} in stock. {_relax(c)}"))
    else:
        ranked = rank(sifted.fits, c)[:limit]
        order = f" ({SORT_PHRASE[c.sort_by]})" if c.sort_by in SORT_PHRASE else ""
        lead = "Our" if c.category == BOOKS else "Best"
        lines.append(_Line(f"{lead} {description}{order}:"))
        for number, p in enumerate(ranked, start=1):
            facts = ", ".join(facts_of(p, c))
            lines.append(
                _Line(
                    f"{number}. {p.name} [{p.product_id}]: {highlights(p, sifted.fits, c)}{facts}.",
                    droppable=number > 1,
                )
            )
    if sifted.out_of_stock:
        names = " and ".join(p.name for p in sifted.out_of_stock[:2])
        verb = "is" if len(sifted.out_of_stock) == 1 else "are"
        lines.append(_Line(f"{names} would also fit but {verb} out of stock.", droppable=True))
    if sifted.wrong_os and sifted.fits:
        label = "/".join(OS_LABEL[s] for s in c.systems)
        lines.append(_Line(f"I left out {sifted.wrong_os} that don't run {label}.", droppable=True))
    return lines


def _constraints_for(outcome: ToolOutcome, intent: Intent) -> Constraints:
    request = outcome.tool_input
    category = (
        request.get("category") if request.get("category") in (COMPUTERS, MOBILE, BOOKS) else None
    )
    keywords = str(request.get("keywords") or "").lower().split()
    systems = [s for s in OS_LABEL if s in keywords]
    systems += [s for s in intent.systems if category in (None, OS_CATEGORY[s])]
    max_price = to_number(request.get("maxPrice"))
    brand = request.get("brandId")
    name = request.get("productName")
    return Constraints(
        category=category,
        systems=unique(systems) if category != BOOKS else (),
        max_price=max_price if max_price is not None else intent.max_price,
        use=intent.use,
        sort_by=intent.sort_by,
        cheap=intent.cheap,
        brand=plain(brand, 40) if isinstance(brand, str) else None,
        product_name=name if isinstance(name, str) else None,
    )


def _products(outcome: ToolOutcome, seen: set[str]) -> list[Product]:
    raw = (outcome.data or {}).get("products") or []
    products = []
    for position, item in enumerate(raw):
        product = Product.parse(item, position)
        if product and product.product_id not in seen:
            seen.add(product.product_id)
            products.append(product)
    return products


def _quote(value: Any, limit: int = 70) -> str:
    return f"“{plain(value, limit)}”"


def _reviews_line(outcome: ToolOutcome) -> str:
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


def _book_line(outcome: ToolOutcome) -> str:
    data = outcome.data or {}
    query = plain(data.get("query") or outcome.tool_input.get("query") or "that book", 60)
    books = [r for r in data.get("results", []) if isinstance(r, dict) and r.get("title")]
    if not books:
        return f"I couldn't find book details for “{query}”."
    book = books[0]
    head = _quote(book["title"], 80)
    authors = _authors(book.get("authors"))
    if authors:
        head += f" by {authors}"
    year = to_number(book.get("year"))
    if year:
        head += f" ({year:.0f})"
    details = []
    rating, count = to_number(book.get("avgRating")), to_number(book.get("ratingsCount"))
    if rating:
        votes = f" from {count:,.0f} ratings" if count else ""
        details.append(f"rated {rating:.1f}/5{votes}")
    pages = to_number(book.get("pages"))
    if pages:
        details.append(f"{pages:.0f} pages")
    subjects = [plain(s, 30) for s in book.get("subjects") or [] if isinstance(s, str)][:2]
    if subjects:
        details.append("about " + " and ".join(subjects))
    return head + (": " + ", ".join(details) if details else "") + "."


_TOOL_LABEL: Final = {
    LOOKUP: "catalog",
    REVIEWS: "review service",
    BOOK_INFO: "book information service",
}


def _failure_line(outcome: ToolOutcome, catalog_ok: bool) -> str:
    reason = outcome.failure or "an unknown error"
    fallback = ", so this is based on the catalog only." if catalog_ok else "."
    if reason == "unknown tool":
        label = plain(outcome.name, 40) if outcome.name else "a tool I did not ask for"
        return f"I got a result from {label} that I can't use, so I left it out."
    if reason == "malformed":
        return f"The {_TOOL_LABEL[outcome.name or LOOKUP]} sent back data I couldn't read{fallback}"
    if outcome.name == LOOKUP:
        return f"I couldn't check the catalog ({reason}), so I can't confirm prices or stock."
    return f"I couldn't reach the {_TOOL_LABEL[outcome.name or REVIEWS]} ({reason}){fallback}"


def _fit(lines: list[_Line], limit: int) -> str:
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


def compose_answer(intent: Intent, outcomes: list[ToolOutcome]) -> str:
    """The final answer, built only from what the tools returned."""
    lookups = [o for o in outcomes if o.name == LOOKUP and o.data is not None]
    lines: list[_Line] = []
    seen: set[str] = set()
    for index, outcome in enumerate(lookups):
        constraints = _constraints_for(outcome, intent)
        products = _products(outcome, seen)
        lines += _product_section(products, constraints, limit=3 if index == 0 else 2)
    for outcome in outcomes:
        if outcome.failure is None and outcome.name == REVIEWS:
            lines.append(_Line(_reviews_line(outcome)))
        elif outcome.failure is None and outcome.name == BOOK_INFO:
            lines.append(_Line(_book_line(outcome)))
    for outcome in outcomes:
        if outcome.failure is not None:
            lines.append(_Line(_failure_line(outcome, catalog_ok=bool(lookups))))
    if not lines:
        lines.append(_Line("I have nothing from my tools to answer with. " + GREETING))
    return _fit(lines, MAX_ANSWER_CHARS)
