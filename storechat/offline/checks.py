"""Whether a product meets what the shopper stated, and what differs when it does not.

Every explicit constraint is checked on the products a tool returned, whatever the
tool was asked: a search may have dropped the shopper's words or the price limit to
find anything, and an operating system is only a search word. A product that breaks
one is never recommended; the nearest are offered instead, each with what differs.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from shared.catalog.specs import FORM_FACTOR, OS
from storechat.offline.bounds import Miss, misses
from storechat.offline.product import Listed
from storechat.offline.vocabulary import BOOKS, OS_LABEL, form_heads

NEAREST_SHOWN = 2


@dataclass(frozen=True)
class Constraints:
    """What one catalog search's results are filtered and ranked by."""

    category: str | None
    systems: tuple[str, ...]
    use: str | None
    sort_by: str | None
    favours: str | None = None
    """The order the search ranked toward, not by ("a big screen": screen)."""
    brand: str | None = None
    product_name: str | None = None
    forms: tuple[str, ...] = ()
    bounds: dict[str, float] = field(default_factory=dict)
    cheaper_than: float | None = None
    """A "cheaper ones" follow-up: the price the products shown before started at."""
    on_sale: bool = False
    """The search kept only products on sale."""
    without: tuple[str, ...] = ()
    """What the search left out as the shopper wrote it ("Dell", "a Chromebook")."""


def runs(system: str, product: Listed) -> bool:
    value = product.text(OS.key).lower().replace(" ", "")
    if system == "macos":
        return "macos" in value or "osx" in value
    if system == "ios":
        return value.startswith("ios")
    return system in value


def shortfalls(product: Listed, c: Constraints) -> list[Miss]:
    """Each stated constraint ``product`` breaks, said as the answer says it."""
    found: list[Miss] = []
    if c.brand and c.brand.casefold() not in product.brand.casefold():
        found.append(Miss(f"by {product.brand or 'another brand'}, not {c.brand}", "brand"))
    if (
        c.systems
        and product.text(OS.key)  # none listed: the search found the system in its text
        and product.category != BOOKS
        and not any(runs(s, product) for s in c.systems)
    ):
        runs_on = next((name for s, name in OS_LABEL.items() if runs(s, product)), "another system")
        wanted = "/".join(OS_LABEL[s] for s in c.systems)
        found.append(Miss(f"runs {runs_on}, not {wanted}", OS.key))
    factor = product.text(FORM_FACTOR.key).lower()
    if c.forms and factor and factor not in c.forms:
        article = "an" if factor[0] in "aeiou" else "a"
        wanted = " or ".join(form_heads(c.forms))
        found.append(Miss(f"{article} {factor}, not a {wanted}", "form"))
    bounds = dict(c.bounds)
    if c.cheaper_than is not None:
        bounds.pop("maxPrice", None)
        if product.price is None or product.price >= c.cheaper_than:
            found.append(Miss("not cheaper", "price"))
    return found + misses(product, bounds)


@dataclass(frozen=True)
class Sifted:
    fits: list[Listed]
    out_of_stock: list[Listed]
    wrong_os: int
    near: list[tuple[Listed, list[Miss]]]
    """In-stock products that break a constraint, in the catalog tool's order (a search
    gives the nearest to limits none meets first)."""


def sift(products: list[Listed], c: Constraints) -> Sifted:
    fits, out, near = [], [], []
    wrong_os = 0
    for product in products:
        missed = shortfalls(product, c)
        if any(m.what == OS.key for m in missed):
            wrong_os += 1
        if missed and product.in_stock:
            near.append((product, missed))
        elif not missed and product.in_stock:
            fits.append(product)
        elif not missed:
            out.append(product)
    return Sifted(fits, out, wrong_os, near)
