"""What a shopper's message asks for, and what a follow-up carries over from earlier turns."""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from typing import Final

from shared.search.languages import in_english
from shared.search.words import parse
from storechat.offline.names import ModelName, find_models
from storechat.offline.refer import Reference, reference_in
from storechat.offline.scope import Kind, brand_not_carried, kind_not_carried, service_topic
from storechat.offline.store import store
from storechat.offline.subjects import BookAsk, book_ask, review_ask, title_in, topic_in
from storechat.offline.vocabulary import (
    BOOKS,
    COMPUTERS,
    MOBILE,
    OS_CATEGORY,
    SORT_RES,
    USE_RES,
    brands_in,
    categories_in,
    first_match,
    forms_in,
    genres_in,
    line_brands_in,
    said_as,
    systems_in,
    unique,
)

# Regexes run on the shopper's text; a pasted essay should not make them slow.
MAX_TEXT_CHARS: Final = 2000

_I = re.IGNORECASE

_CHEAP = said_as("cheap|cheaper|cheapest|affordable|inexpensive|low[- ]cost|budget")
_ON_SALE = said_as("on sale|discount(?:ed|s)?|deals?|reduced|clearance|marked down|markdowns?")
_REVIEW_CUE = said_as(
    "reviews?|reviewers?",
    "what do (?:people|users|customers|critics|reviewers|others) (?:say|think)",
    "what are people saying|opinions?|rated|ratings?|worth it|worth (?:the money|buying|the price)",
)
_SHOPPING_CUE = said_as(
    "do you (?:have|sell|stock|carry)|in stock|available|buy|purchase|order|price|cost",
    "how much|sell|want|need|looking for|a copy of",
)
_FOLLOW_UP_CUE = said_as(
    "those|these|them|they|it|that one|which one|which of|ones?|what about|how about",
    "instead|else|another|other",
)
_COMPARE = said_as(
    r"compare|comparison|compared|versus|vs\.?|difference|differences|better|which|or"
)
_BOOK_FACT_CUE = said_as(
    "who wrote|written by|author|published|publication|how many pages",
    "what is it about|what's it about",
)
_ABOUT_AUTHOR = said_as(
    "who (?:is|was)",
    "tell me (?:more )?about|know about|(?:best )?known for|famous for",
    "good|any good|worth (?:reading|it)|like his|like her|style",
)
"""Words that ask about an author or their books, not only what the store has by them."""
_THANKS = re.compile(r"^\W*(?:thanks?|thank you|cheers|ok(?:ay)?|great|cool|perfect|bye)\b", _I)
_GREETING = re.compile(
    r"^\W*(?:hi|hello|hey|hiya|howdy|greetings|good (?:morning|afternoon|evening|day))\b|"
    r"\b(?:what can you do|who are you|what do you (?:do|sell|have)|can you help|help me)\b|"
    r"^\W*(?:help|start|menu)\W*$",
    _I,
)
_CLAUSE_SPLIT = re.compile(
    r"(?<!\b[A-Za-z])[.!;]+(?:\s+|$)|\?+\s*|,\s*(?:and\s+|but\s+)?|"
    r"\s+(?:and|also|plus|but)\s+(?=(?:what|how|tell|do|does|is|are|can|could|show|find|give|"
    r"which|who|i|also)\b)",
    _I,
)


@dataclass(frozen=True)
class Intent:
    """What a shopper's message asks for, as far as a few regexes can tell."""

    # The subject: what to search the catalog for.
    categories: tuple[str, ...] = ()
    brands: tuple[str, ...] = ()
    products: tuple[ModelName, ...] = ()
    genres: tuple[str, ...] = ()
    book_title: str | None = None
    book_author: str | None = None
    topic: str | None = None
    """What a book is to be about: searched in descriptions and genres."""
    # Constraints: how to narrow and rank what the catalog returns.
    systems: tuple[str, ...] = ()
    forms: tuple[str, ...] = ()
    bounds: dict[str, float] = field(default_factory=dict)
    """Numeric limits by ``lookup_inventory`` field: ``{"minRamGb": 16, "maxPrice": 800}``."""
    cheap: bool = False
    on_sale: bool = False
    """Only what is on sale: the search reads the words "on sale" as that filter."""
    use: str | None = None
    sort_by: str | None = None
    # What kind of answer: a comparison, or about the products shown before.
    compare: bool = False
    reference: Reference | None = None
    # What the store does not do.
    service: str | None = None
    not_carried: Kind | None = None
    other_brand: str | None = None
    # Asks for the other tools, which only the current message can make.
    wants_reviews: bool = False
    review_subject: ModelName | None = None
    review_query: str | None = None
    book_query: str | None = None
    book_shopping: bool = False
    follow_up: bool = False
    thanks: bool = False
    greets: bool = False
    text: str = ""
    """The shopper's words, as the last message that set them wrote them: what the
    search reads itself when the model cannot tell what they ask for."""
    asks: str = ""
    """The words that ask the catalog for a kind of product: the message without its
    review, book-fact and store clauses and the products and titles it names."""

    @property
    def product(self) -> ModelName | None:
        return self.products[0] if self.products else None

    @property
    def max_price(self) -> float | None:
        return self.bounds.get("maxPrice")

    def names_subject(self) -> bool:
        return bool(
            self.categories
            or self.brands
            or self.products
            or self.book_title
            or self.book_author
            or self.review_subject
            or self.review_query
        )

    def names_only_a_brand(self) -> bool:
        """ "A Samsung one": a brand, with no kind of product or product of its own."""
        return bool(self.brands) and not (self.categories or self.forms or self.products)

    def has_constraints(self) -> bool:
        return bool(
            self.systems or self.forms or self.bounds or self.cheap or self.use or self.sort_by
        )

    def outside_store(self) -> bool:
        return bool(self.service or self.not_carried)

    def is_empty(self) -> bool:
        return not (
            self.names_subject()
            or self.has_constraints()
            or self.wants_reviews
            or self.book_query
            or self.outside_store()
        )

    def as_context(self) -> Intent:
        """This turn's subject and constraints, without the one-off tool asks."""
        subject = self.products or ((self.review_subject,) if self.review_subject else ())
        return replace(
            self,
            products=subject,
            compare=False,
            categories=self.categories
            or ((self.review_subject.category,) if self.review_subject else ()),
            wants_reviews=False,
            review_query=None,
            book_query=None,
            follow_up=False,
            thanks=False,
        )

    def refined_by(self, newer: Intent) -> Intent:
        """Carry this subject into a follow-up; the follow-up's constraints win."""
        return replace(
            self,
            systems=newer.systems or self.systems,
            forms=newer.forms or self.forms,
            bounds={**self.bounds, **newer.bounds},
            cheap=newer.cheap or self.cheap,
            use=newer.use or self.use,
            sort_by=newer.sort_by or self.sort_by,
            genres=newer.genres or self.genres,
            wants_reviews=newer.wants_reviews,
            review_query=newer.review_query,
            book_query=newer.book_query,
            book_shopping=newer.book_shopping or self.book_shopping or bool(self.book_title),
            reference=newer.reference,
            other_brand=newer.other_brand,
            follow_up=True,
            thanks=False,
            text=newer.text,
        )


def _normalise(text: str) -> str:
    # German, Spanish and French read as the search reads them: one language layer.
    text = in_english(text[:MAX_TEXT_CHARS].replace("\u2019", "'"))
    # A slip of one of the catalog's or the search's words is read as that word.
    text = store().respelled(text)
    # "$1,299" must stay one number when clauses split on commas.
    return re.sub(r"(?<=\d),(?=\d{3}\b)", "", text)


def _split_clauses(text: str) -> list[str]:
    return [c.strip() for c in _CLAUSE_SPLIT.split(text) if c and c.strip()]


def _without(text: str, products: list[ModelName]) -> str:
    # "the iPhone 15" names a product, not a wish for iOS.
    for product in products:
        text = text.replace(product.text, " ")
    return text


def _wants_cheap(text: str, max_price: float | None) -> bool:
    words = [w.lower() for w in _CHEAP.findall(text)]
    # "a budget of 700" states a limit, not a wish for the cheapest.
    return any(w != "budget" for w in words) or (bool(words) and max_price is None)


def parse_text(text: str) -> Intent:
    """Read one user message."""
    text = _normalise(text)
    categories: list[str] = []
    brands: list[str] = []
    product_systems: list[str] = []
    products: list[ModelName] = []
    book: BookAsk | None = None
    book_shopping = False
    wants_reviews = False
    review_subject: ModelName | None = None
    review_query: str | None = None
    topic: str | None = None
    asking: list[str] = []
    for clause in _split_clauses(text):
        if service_topic(clause):
            continue  # "can I return my iPhone 15?" asks about returns, not the iPhone
        listed = store().titles_in(clause, BOOKS)
        if listed and not _REVIEW_CUE.search(clause):
            # The catalog's own titles, as written: "Circe by Madeline Miller" is Circe.
            # Each is looked up by its name, so its card shows even when it is out of stock.
            listed.sort(key=lambda t: clause.casefold().find(t.name.casefold()))
            book = book or BookAsk(title=listed[0].name)
            products += [ModelName(t.name, None, BOOKS) for t in listed]
            book_shopping = book_shopping or bool(_SHOPPING_CUE.search(clause))
            # The rest of the clause may ask for more ("a laptop and a copy of 1984").
            for t in listed:
                clause = re.sub(re.escape(t.name), " ", clause, flags=re.I)
        authors = [] if book else store().authors_in(clause)
        asks_about = bool(_ABOUT_AUTHOR.search(clause) or _BOOK_FACT_CUE.search(clause))
        if (
            authors
            and (BOOKS in categories_in(clause) or asks_about)
            and not _REVIEW_CUE.search(clause)
        ):
            # An author of the catalog's, in any language's way of saying "by": their
            # facts when asked about, else what the store has by them.
            book = BookAsk(author=authors[0], facts=asks_about)
            book_shopping = book_shopping or bool(_SHOPPING_CUE.search(clause))
            categories.append(BOOKS)
            asking.append(clause)
            continue
        if about := topic_in(clause):
            topic = topic or about
            categories.append(BOOKS)
            asking.append(clause)
            continue
        ask = book_ask(clause)
        if ask is None and _REVIEW_CUE.search(clause):
            subject, query, ask = review_ask(clause)
            if ask is None:
                wants_reviews = True
                review_subject = review_subject or subject
                review_query = review_query or query
                continue
        if ask is not None:
            if not ask.title:
                ask = replace(ask, facts=asks_about)  # "something by Tolkien": the catalog
            book = book or ask
            book_shopping = book_shopping or bool(_SHOPPING_CUE.search(clause))
            continue
        models = [m for m in find_models(clause) if m not in products]
        title = None if book else title_in(_without(clause, models))
        if title and not (kind_not_carried(title, False) or brand_not_carried(title)):
            by = re.search(r"\bby\s+([A-Z][\w.'-]+(?:\s+[A-Z][\w.'-]+){0,2})", clause)
            book = BookAsk(title=title, author=by.group(1) if by else None)
            book_shopping = book_shopping or bool(_SHOPPING_CUE.search(clause))
            clause = clause.replace(by.group(0) if by else title, " ").replace(title, " ")
        # "the ROG Phone 8" is a phone, though most of the ROG line are laptops.
        asking.append(_without(clause, models))
        categories += categories_in(asking[-1])
        brands += brands_in(clause) + line_brands_in(_without(clause, models))
        product_systems += systems_in(clause)
        products += models
    if wants_reviews and review_subject and not (products or categories or brands):
        # The catalog's facts about it too: the answer stands if the reviews cannot come.
        products.append(review_subject)
    for product in products:
        categories.append(product.category)
        if product.brand and product.brand not in brands:
            brands.append(product.brand)
    if not categories:
        categories = [OS_CATEGORY[name] for name in product_systems]
    use = first_match(USE_RES, text)
    if not (categories or products or book) and use == "basic":
        categories = [COMPUTERS]  # email and the web, as simply and cheaply as can be
    genres = genres_in(text)
    if BOOKS not in categories and not book:
        genres = []
    bounds = parse(text).limits
    carried = bool(categories or products)
    return Intent(
        categories=unique(categories),
        brands=unique(brands),
        products=tuple(products[:3]),
        genres=unique(genres),
        book_title=book.title if book else None,
        book_author=book.author if book else None,
        systems=unique(systems_in(_without(text, products))),
        forms=unique(forms_in(text)),
        bounds=bounds,
        cheap=_wants_cheap(text, bounds.get("maxPrice")),
        on_sale=bool(_ON_SALE.search(text)),
        use=use,
        sort_by=first_match(SORT_RES, text),
        compare=len(products) > 1 and bool(_COMPARE.search(text)),
        reference=reference_in(text),
        service=service_topic(text),
        not_carried=kind_not_carried(text, carried),
        other_brand=brand_not_carried(text),
        wants_reviews=wants_reviews,
        review_subject=review_subject,
        review_query=review_query,
        book_query=book.query if book and book.facts else None,
        book_shopping=book_shopping,
        follow_up=bool(_FOLLOW_UP_CUE.search(text)),
        text=text,
        asks=" ".join(" ".join(asking).split()),
        topic=topic,
        thanks=bool(_THANKS.search(text)),
        greets=bool(_GREETING.search(text)),
    )


def _context(user_texts: list[str]) -> Intent | None:
    """The subject of the latest earlier message that names one, refined by those after it."""
    for index in range(len(user_texts) - 2, -1, -1):
        earlier = parse_text(user_texts[index])
        if earlier.names_subject():
            if earlier.names_only_a_brand():
                # "A Samsung one": the brand of the kind asked before it, read as it was
                earlier = conversation_intent(user_texts[: index + 1])
            merged = earlier.as_context()
            for later in user_texts[index + 1 : -1]:
                merged = merged.refined_by(_standing(parse_text(later)))
            return merged
    return None


def _standing(later: Intent) -> Intent:
    """What an earlier follow-up leaves standing for the ones after it: an order asked
    among the products then shown ("which of those is the lightest?") was a question about
    them, not the order of every search after it."""
    return replace(later, sort_by=None) if later.reference is not None else later


def _switched(current: Intent, context: Intent) -> Intent:
    """ "What about a Mac?": a new subject, under the earlier limits it does not restate.
    A brand named without a kind ("a Samsung one" after phones) is that brand's of the
    kind asked before, when it makes that kind."""
    if current.names_only_a_brand():
        made = set().union(*(store().brand_categories.get(b, ()) for b in current.brands))
        if kinds := tuple(c for c in context.categories if c in made):
            current = replace(current, categories=kinds, forms=context.forms)
    computers = COMPUTERS in current.categories and COMPUTERS in context.categories
    return replace(
        current,
        bounds={**context.bounds, **current.bounds},
        use=current.use or context.use,
        forms=current.forms or (context.forms if computers else ()),
        cheap=current.cheap or context.cheap,
        follow_up=True,
    )


def conversation_intent(user_texts: list[str]) -> Intent:
    """Read the latest user text, carrying over the subject of an earlier one."""
    if not user_texts:
        return Intent()
    current = parse_text(user_texts[-1])
    context = None if current.outside_store() else _context(user_texts)
    if context is None:
        return current
    if current.names_subject():
        if current.follow_up and not (current.products or current.book_query):
            return _switched(current, context)
        return current
    if not (current.has_constraints() or current.follow_up or current.wants_reviews):
        return current
    if current.wants_reviews and not current.has_constraints():
        # "What do reviewers say about it?" wants reviews of the earlier
        # subject, not the same catalog search again.
        specific = context.product or any(b not in store().publishers for b in context.brands)
        return replace(current, review_query=review_query(context) if specific else None)
    merged = context.refined_by(current)
    if context.book_title and not current.book_query and _BOOK_FACT_CUE.search(user_texts[-1]):
        # "Who wrote it?" after a book: its facts, from the book tool.
        merged = replace(merged, book_query=context.book_title)
    return merged


def review_query(intent: Intent) -> str:
    """What to ask the review service about: the named product, else brand and kind."""
    if intent.review_query:
        return intent.review_query
    if intent.product:
        return intent.product.full_name
    brand = next((b for b in intent.brands if b not in store().publishers), None)
    noun = "phone" if intent.categories[:1] == (MOBILE,) else "laptop"
    gaming = "gaming" if intent.use == "gaming" else None
    return " ".join(part for part in (brand, gaming, noun) if part)
