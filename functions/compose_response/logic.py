"""Turn the end of a conversation turn into the body ``POST /query`` returns.

Products come only from the ledger: the full records the tools returned in this
execution, and those of earlier turns of the session that the answer cites again,
read fresh (:mod:`compose_response.earlier`). The model's text decides which of them
to show, by citing ``[productId]`` (recognised by identity, whatever the id looks like:
:mod:`compose_response.known`); a citation of anything the tools did not return
is removed together with the clause, sentence or bullet that makes the claim
(:mod:`compose_response.citations`). What the remaining
sentences state about a cited product is then checked against its record
(:mod:`compose_response.facts`): a wrong fact is corrected, or its sentence removed.
"""

from __future__ import annotations

import time
from typing import Annotated, Any, NamedTuple

from pydantic import BaseModel, Field, model_validator

from compose_response import earlier, money
from compose_response.citations import drop_claims
from compose_response.facts import Correction, trace_line
from compose_response.known import KnownProducts, Marked
from compose_response.screen import left_out_line, screen
from shared.api.contract import Usage
from shared.api.vocabulary import FALLBACK_REASONS, Outcome
from shared.catalog.specs import AUTHOR
from shared.products.ledger import LedgerIndex, LedgerProduct, LedgerProducts, sort_records
from shared.products.weight import DEFAULT_WEIGHT_UNIT
from shared.store.settings import Store
from shared.store.store_links import links
from shared.text.contacts import NO_CONTACTS, OwnContacts
from shared.text.shown import unsplit, visible

MAX_ANSWER_CHARS = 4000
MAX_CORRECTIONS = 50
"""Corrections listed in a body: more than any honest answer needs, and a bound on the
body's size under Step Functions' 256 KiB. The answer is corrected either way."""
FALLBACK_PRODUCTS = 3

REFUSAL = (
    "Sorry, I can't help with that request. I'm happy to help you find computers, phones "
    "and books in our store."
)
TRUNCATED_NOTE = "(This answer was cut short. Ask me to continue or to be more specific.)"


class ComposeInput(BaseModel):
    sessionId: Annotated[str, Field(min_length=1)]
    outcome: Outcome
    fallbackReason: str | None = None
    answer: str = ""
    products: Annotated[
        LedgerProducts,
        Field(description="The ledger: the products the tools found in this turn, oldest first"),
    ] = Field(default_factory=list)
    earlier: Annotated[
        list[str],
        Field(
            description="Ids of the products shown in the earlier turns the model read, "
            "oldest first: citable again (compose_response.earlier)"
        ),
    ] = Field(default_factory=list)
    trace: list[dict[str, Any]] = Field(default_factory=list)
    usage: Usage = Field(default_factory=Usage)
    toolRounds: int = 0
    modelCalls: int = 0
    executionId: str | None = None
    steps: Annotated[Any, Field(description="The turn's live trace (shared.trace.steps.Turn)")] = (
        None
    )
    refusedRecords: Annotated[
        int, Field(ge=0, description="Records of the ledger that were not products: left out")
    ] = 0

    @model_validator(mode="before")
    @classmethod
    def _count_refused(cls, data: Any) -> Any:
        # Sorted here, once, so that the records refused are counted as well as dropped.
        if isinstance(data, dict) and isinstance(data.get("products"), list):
            found = sort_records(data["products"])
            return {**data, "products": found.products, "refusedRecords": found.refused}
        return data


class ResponseBody(BaseModel):
    sessionId: str
    answer: str
    outcome: Outcome
    fallbackReason: str | None
    products: list[LedgerProduct]
    toolRounds: int
    modelCalls: int
    usage: Usage
    trace: list[dict[str, Any]]
    unverifiedCitations: list[str]
    corrections: list[Correction]
    """Facts in the answer that the ledger contradicted: each corrected in ``answer``
    (``start`` says where) or removed with its sentence."""
    refusedRecords: Annotated[int, Field(exclude=True)] = 0
    """Records of this turn's ledger and of earlier turns' products read again that were
    not products (:func:`shared.products.ledger.sort_records`): for the metric, not the body."""


def _ledger_index(products: list[LedgerProduct]) -> LedgerIndex:
    # The first record of each id: the ledger holds each product once, a test's may not.
    index: LedgerIndex = {}
    for product in products:
        index.setdefault(product.productId, product)
    return index


def cited_products(
    answer: str, ledger: list[LedgerProduct]
) -> tuple[str, list[LedgerProduct], list[str]]:
    """The answer without unverifiable claims, the cited records in order, the dropped ids."""
    index = _ledger_index(ledger)
    marked = KnownProducts(index).read(answer).marked()
    text, keyed, unknown = _without_claims(marked, index)
    shown, _ = marked.render(text)
    return shown, _cited(marked, text, keyed), unknown


def _without_claims(marked: Marked, index: LedgerIndex) -> tuple[str, LedgerIndex, list[str]]:
    """The marked answer without the claims of products ``index`` lacks, its records by
    mark, and the ids of those products as the answer wrote them."""
    keyed = {m: index[n.product_id] for m, n in marked.marks.items() if n.product_id in index}
    unknown = {m: n.product_id or n.written for m, n in marked.marks.items() if m not in keyed}
    text = drop_claims(marked.text, set(unknown)) if unknown else marked.text.strip()
    return text, keyed, list(dict.fromkeys(unknown.values()))


def _cited(marked: Marked, text: str, keyed: LedgerIndex) -> list[LedgerProduct]:
    # Cards only for what the text still cites: the words and the cards agree.
    return [keyed[mark] for mark in marked.cited(text) if mark in keyed]


def _product_line(product: LedgerProduct, currency: str) -> str:
    price = "" if product.price is None else f", {money.amount(product.price, currency)}"
    return f"- {product.name} ({product.brand}{price}) [{product.productId}]"


class FoundWords(NamedTuple):
    """What a fallback says around the products it shows, or instead of them."""

    heading: str
    closing: str
    nothing: str


FOUND_SO_FAR = FoundWords(
    "Here is what I found so far:",
    "You could try again, or ask a narrower question.",
    "Please try again in a moment, or ask a narrower question.",
)
FOUND_WORDS: dict[str, FoundWords] = {
    # No model call at all: the products are a plain catalog search on the shopper's words.
    "budget_exhausted": FoundWords(
        "Here is what the catalog has for your words:",
        "Ask me again later if you would like advice on these.",
        "I could not find anything in the catalog for those words right now. Try other words, "
        "or ask me again later.",
    ),
}
"""The words of a fallback whose products are not "what I found so far"; by reason."""


class Checked(NamedTuple):
    """The model's answer as the shopper reads it, and what the checks found."""

    answer: str
    products: list[LedgerProduct]
    corrections: list[Correction]
    unverified: list[str]
    refused: int
    check_ms: int
    left_out: list[str]


def _checked(
    event: ComposeInput,
    currency: str,
    weight_unit: str,
    catalog: earlier.Catalog | None,
    deadline_s: float | None,
    own: OwnContacts,
    terms: str = "",
) -> Checked:
    """The model's answer checked: its citations recognised (:mod:`compose_response.known`),
    the claims no tool vouches for removed, its facts checked."""
    index = _ledger_index(event.products)
    answer = unsplit(visible(event.answer))
    reading = KnownProducts([*index, *event.earlier[-earlier.MAX_EARLIER :]]).read(answer)
    again = [pid for pid in reading.product_ids() if pid not in index]
    recalled = earlier.recall(again, catalog, deadline_s=deadline_s)
    index = _ledger_index([*event.products, *recalled.products])
    marked = reading.marked()
    text, keyed, unverified = _without_claims(marked, index)
    started = time.perf_counter()
    text, corrections, left_out = screen(
        marked,
        text,
        keyed,
        index,
        own=own,
        currency=currency,
        weight_unit=weight_unit,
        terms=terms,
    )
    check_ms = int((time.perf_counter() - started) * 1000)
    products = _cited(marked, text, keyed)
    answer, where = marked.render(text)
    for correction in corrections:
        if correction.start is not None:
            correction.start = where(correction.start)
    if not answer:
        answer = "Sorry, I couldn't find a product I can vouch for. Could you rephrase?"
    refused = event.refusedRecords + recalled.refused
    return Checked(answer, products, corrections, unverified, refused, check_ms, left_out)


def fallback_answer(
    reason: str | None, found: list[LedgerProduct], currency: str = money.DEFAULT_CURRENCY
) -> str:
    why = FALLBACK_REASONS.get(reason or "", "something went wrong while I was working on it")
    words = FOUND_WORDS.get(reason or "", FOUND_SO_FAR)
    parts = [f"Sorry, I couldn't finish answering: {why}."]
    if found:
        parts.append(words.heading)
        parts.extend(_product_line(p, currency) for p in found)
        parts.append(words.closing)
    else:
        parts.append(words.nothing)
    return "\n".join(parts)


def _said_alike(one: str, other: str) -> bool:
    """Whether two names are the same but for case and spacing: "Frank  Herbert",
    "frank herbert"."""
    return " ".join(one.split()).casefold() == " ".join(other.split()).casefold()


def _brand_is_the_author(record: dict[str, Any]) -> bool:
    """Whether the card would name the product's maker twice: a book of no brand takes its
    author's name as its brand (``shared.platform.draft``), and its card shows the
    author's chip too (``shared.catalog.specs.AUTHOR``, a chip of the product's category).
    A publisher that is not the author, or authors the card shows no chip of (a list of
    them), leaves the brand where it is."""
    brand, author = record.get("brand"), (record.get("specs") or {}).get(AUTHOR.key)
    if not isinstance(brand, str) or not isinstance(author, str) or not author.strip():
        return False
    shown = any(chip.category == record.get("category") for chip in AUTHOR.chips)
    return shown and _said_alike(brand, author)


def with_links(product: LedgerProduct, store: Store | None) -> LedgerProduct:
    """The product as the response shows it: its page (``url``) only when it is a safe
    address on the storefront, and its ``cartUrl`` when it can be added to the cart
    (``shared.store.store_links``); with no ``brand`` when that is its author's name, which
    its author's chip says (the page, the widget and ``storechat ask`` show it once)."""
    record = product.model_dump()
    if _brand_is_the_author(record):
        del record["brand"]
    page, cart = links(record, store)
    record.pop("url", None)
    record.pop("cartUrl", None)
    if page:
        record["url"] = page
    if cart:
        record["cartUrl"] = cart
    return LedgerProduct.model_validate(record)


def store_contacts(store: Store) -> OwnContacts:
    """The store's own addresses and contacts, from its settings: its storefront, the
    contact shoppers are given, and a custom cart link's host."""
    return OwnContacts.of([store.url, store.contact, store.cartUrlTemplate or ""])


def compose(
    event: ComposeInput,
    *,
    currency: str = money.DEFAULT_CURRENCY,
    weight_unit: str = DEFAULT_WEIGHT_UNIT,
    catalog: earlier.Catalog | None = None,
    deadline_s: float | None = None,
    store: Store | None = None,
    own: OwnContacts = NO_CONTACTS,
    terms: str = "",
) -> ResponseBody:
    """The body for ``event``. ``currency`` is the store's, the currency of its prices;
    ``weight_unit`` the store's, which a corrected weight is said in;
    ``catalog`` reads the earlier turns' products the answer cites again (none without
    it), before ``deadline_s`` (monotonic); ``store`` makes the products' links, and its
    storefront and contact are its own, as ``own`` is (links and contacts the answer may
    hold, :mod:`shared.text.contacts`); ``terms`` is the store's own words (its policies), whose
    prices the answer may repeat."""
    unverified: list[str] = []
    corrections: list[Correction] = []
    check_ms = 0
    left_out: list[str] = []
    refused = event.refusedRecords
    products: list[LedgerProduct]
    if event.outcome == "refused":
        answer, products = REFUSAL, []
    elif event.outcome == "fallback":
        products = list(_ledger_index(event.products).values())[:FALLBACK_PRODUCTS]
        answer = fallback_answer(event.fallbackReason, products, currency)
    else:
        if store is not None:
            own = own | store_contacts(store)
        answer, products, corrections, unverified, refused, check_ms, left_out = _checked(
            event, currency, weight_unit, catalog, deadline_s, own, terms
        )
    room = MAX_ANSWER_CHARS - (len(TRUNCATED_NOTE) + 2 if event.outcome == "truncated" else 0)
    if len(answer) > room:
        answer = answer[: room - 1].rstrip() + "…"
    for correction in corrections:
        # A corrected value cut off with the end of the answer is no longer there to mark.
        if correction.start is not None and not answer.startswith(
            correction.text or "", correction.start
        ):
            correction.start = None
    if event.outcome == "truncated":
        # After the cap, so a long cut-off answer still says it was cut off.
        answer = f"{answer}\n\n{TRUNCATED_NOTE}"
    return ResponseBody(
        sessionId=event.sessionId,
        answer=answer,
        outcome=event.outcome,
        fallbackReason=event.fallbackReason if event.outcome == "fallback" else None,
        products=[with_links(product, store) for product in products],
        toolRounds=event.toolRounds,
        modelCalls=event.modelCalls,
        usage=event.usage,
        trace=[
            *event.trace,
            *([trace_line(corrections, check_ms)] if corrections else []),
            *([left_out_line(left_out)] if left_out else []),
        ],
        unverifiedCitations=unverified,
        corrections=corrections[:MAX_CORRECTIONS],
        refusedRecords=refused,
    )
