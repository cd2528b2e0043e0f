"""Prices, discounts, "free" and codes that no product the tools returned vouches for.

The fact check corrects what a sentence says about the products it names
(:mod:`compose_response.facts`). What a sentence says about no product it names is
vouched for here, or removed with its sentence (its bullet, in a list):

* **a price** stated as one (not "under $500", "your budget of $400", "$20 shipping":
  :mod:`compose_response.context`) that is the price, or the price before a sale, of no
  product the tools returned ("HP UltraBook X is $1 too", "today only: $1"), in any
  notation (:mod:`compose_response.units`, :mod:`compose_response.amounts`);
* **a price beside a product-like name the catalog does not hold**: capitalised words
  with a digit or an inner capital, or after a brand of the products returned ("HP
  UltraBook X is $349"), even at a real product's price; in a sentence that also names
  a real product, only such a name after a brand counts, since "Windows 11" is not a
  product of the shop;
* **"free"** (also "gratis", "kostenlos", "at no cost", a price of zero) said of a product
  that has a price, or of no product at all; the store's own terms ("free shipping",
  "free returns") are its policies' to state, and stay;
* **a discount** ("30% off", "save 30%") that is not the sale of the product it is said
  of (its price against its ``compareAtPrice``, within one point), or of any product
  when it names none;
* **a discount code** ("code PIXEL1", "coupon: SAVE90"): no tool returns one, so every one
  goes.

The store's own words (its policies, which its policies tool returns) vouch for the
prices they state, of no product ("express delivery costs $12.99"), and for a sentence
of theirs repeated as they write it ("free on orders over $50").
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Final

from compose_response import money
from compose_response.amounts import other_prices
from compose_response.compare import Claim, agrees
from compose_response.facts import stated
from compose_response.text import CITATION, drop_segments
from compose_response.units import Quantity, halfwidth, quantities
from shared.products.ledger import LedgerIndex, LedgerProduct

_CODE: Final = re.compile(
    r"(?i:\b(?:promo(?:tional)?\s*code|discount\s*code|coupon(?:\s*code)?|voucher(?:\s*code)?|"
    r"code|gutschein(?:code)?|rabattcode|c[oó]digo|cup[oó]n|code\s*promo)\b)"
    r"[\s:\"'\u201c\u201d\u2018\u2019«»`*]*(?P<code>[A-Z0-9][A-Z0-9_-]{2,})\b"
)
_FREE: Final = re.compile(
    r"(?<![\w-])(?:free(?:\s+of\s+charge)?|gratis|kostenlos|umsonst|gratuit|gratuito|"
    r"at\s+no\s+(?:extra\s+)?cost|for\s+nothing|no\s+charge)(?![\w-])"
    r"(?!\s+(?:shipping|delivery|returns?|exchanges?|standard\s+shipping|of\s+(?:ads|bloatware)|"
    r"space|storage|from|trial|to\s+(?:choose|ask|use|return)|versand|lieferung|r[üu]cksendung))",
    re.IGNORECASE,
)
_PERCENT: Final = re.compile(
    r"(?P<pct>\d{1,3}(?:[.,]\d+)?)\s?%\s?(?:off\b|discount|rabatt|reduction|de\s+descuento|"
    r"de\s+r[ée]duction|günstiger|cheaper)"
    r"|(?:discount|save|saving|rabatt|reduced\s+by|spare)\s+(?:of\s+|von\s+)?"
    r"(?P<pct2>\d{1,3}(?:[.,]\d+)?)\s?%",
    re.IGNORECASE,
)
_RUN: Final = re.compile(r"\b[A-Z][\w-]*(?:[ \u00a0]+[A-Z0-9][\w-]*)+")
_INNER: Final = re.compile(r"\d|[a-z][A-Z]")


def _percent_off(product: LedgerProduct) -> float | None:
    if not product.on_sale or product.price is None or not product.compareAtPrice:
        return None
    return 100 * (product.compareAtPrice - product.price) / product.compareAtPrice


def _price_claims(view: str, store: str) -> list[Claim]:
    found = sorted(
        [*quantities(view), *other_prices(view, store)], key=lambda q: (q.start, q.start - q.end)
    )
    claims: list[Claim] = []
    for quantity in found:
        if quantity.kind != "price" or (claims and quantity.start < claims[-1].end):
            continue
        claims.append(Claim("price", quantity.start, quantity.end, quantity=quantity))
    return [claim for claim in claims if stated(claim, view)]


def _price_claims_in(text: str, store: str) -> list[Quantity]:
    """Every price ``text`` writes, in any notation."""
    view = halfwidth(text)
    return [q for q in [*quantities(view), *other_prices(view, store)] if q.kind == "price"]


def _vouched_price(claim: Claim, products: Iterable[LedgerProduct], store: str) -> bool:
    return any(
        value is not None and agrees(claim, "price", value, store)
        for product in products
        for value in (product.price, product.compareAtPrice)
    )


def _vouched_percent(said: float, products: Iterable[LedgerProduct]) -> bool:
    return any(
        (off := _percent_off(product)) is not None and abs(off - said) <= 1.0
        for product in products
    )


def _product_like(view: str, brands: set[str], *, owned: bool) -> list[re.Match[str]]:
    """Capitalised runs of words that look like a product's name (rules above)."""
    runs: list[re.Match[str]] = []
    for run in _RUN.finditer(view):
        words = run.group().split()
        branded = words[0].casefold() in brands and len(words) > 1
        if branded or (not owned and any(_INNER.search(w) for w in words)):
            runs.append(run)
    return runs


class Offers:
    """What the products a turn's tools returned vouch for, read against each sentence."""

    def __init__(
        self, keyed: LedgerIndex, store: str = money.DEFAULT_CURRENCY, terms: str = ""
    ) -> None:
        self._keyed = keyed
        self._store = store
        self._terms = [q.value for q in _price_claims_in(terms, store)]
        self._terms_text = " ".join(halfwidth(terms).casefold().split())
        self._known = list({p.productId: p for p in keyed.values()}.values())
        self._brands = {p.brand.casefold() for p in self._known if p.brand}
        self.removed: list[str] = []
        """What each removed sentence held that nothing vouched for, for the trace."""

    def drop(self, text: str) -> str:
        """``text`` without the sentences that state an offer no product vouches for."""
        return drop_segments(text, self._doomed)

    def _doomed(self, segment: str) -> bool:
        problem = self.problem(segment)
        if problem:
            self.removed.append(problem)
        return problem is not None

    def problem(self, segment: str) -> str | None:
        """What in ``segment`` nothing vouches for, or None."""
        view = halfwidth(segment)
        owners = [self._keyed[m[1]] for m in CITATION.finditer(segment) if m[1] in self._keyed]
        code = _CODE.search(view)
        if code:
            return f"code {code['code']}"
        if self._terms_text and " ".join(view.casefold().split()) in self._terms_text:
            return None  # the store's own words, as its policies write them
        free = _FREE.search(view)
        if free and not (owners and all(p.price == 0 for p in owners)):
            return free.group()
        for percent in _PERCENT.finditer(view):
            said = float((percent["pct"] or percent["pct2"]).replace(",", "."))
            if not _vouched_percent(said, owners or self._known):
                return percent.group()
        prices = _price_claims(view, self._store)
        if not prices:
            return None
        blank = CITATION.sub(lambda m: " " * len(m.group()), view)
        runs = _product_like(blank, self._brands, owned=bool(owners))
        for claim in prices:
            named = [run for run in runs if run.end() <= claim.start]
            if named and (not owners or named[-1].start() > _last_citation(view, claim.start)):
                return f"{named[-1].group()} at {view[claim.start : claim.end]}"
            if not owners and not (
                _vouched_price(claim, self._known, self._store)
                or any(agrees(claim, "price", value, self._store) for value in self._terms)
            ):
                return view[claim.start : claim.end]
        return None


def _last_citation(view: str, before: int) -> int:
    starts = [m.start() for m in CITATION.finditer(view) if m.start() < before]
    return starts[-1] if starts else -1
