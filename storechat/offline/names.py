"""Product models in a shopper's words, read as the catalog search reads them
(:func:`shared.search.named.named_in`, against the names of the catalog served)."""

from __future__ import annotations

from dataclasses import dataclass

from shared.search.named import Named, line_words, named_in
from shared.search.series import name_words
from storechat.offline.product import Listed
from storechat.offline.store import store
from storechat.offline.vocabulary import COMPUTERS, MOBILE


@dataclass(frozen=True)
class ModelName:
    """A specific product the shopper named, such as "Dell XPS 13"."""

    text: str
    brand: str | None
    category: str
    """Its kind; "" when the store's words cannot tell ("the Nokia 3310")."""

    @property
    def full_name(self) -> str:
        if self.brand and not self.text.casefold().startswith(self.brand.casefold()):
            return f"{self.brand} {self.text}"
        return self.text


def find_models(text: str) -> list[ModelName]:
    """Every product model named in ``text``, in order, the store's or not ("the iPhone
    14"), each with the brand and kind of the products of its name, else of its line."""
    return [_model(each) for each in _named_in(text)]


def models_carried(text: str) -> list[str]:
    """The names of the store's own models in ``text``, as the search reads them."""
    return [each.said for each in _named_in(text) if each.carried]


def _named_in(text: str) -> list[Named]:
    shop = store()
    return named_in(text, shop.has_name, shop.is_brand, shop.knows, names_with=shop.names_with)


def _model(named: Named) -> ModelName:
    shop = store()
    title = shop.titled(named.said)
    if title is not None:
        return ModelName(named.said, title.brand, title.category)
    if not named.line:
        return ModelName(named.said, None, "")  # a name the store has no word of
    # A model the store lacks of a line it carries: the line's brand and most usual kind.
    words = line_words(named.said)
    line = next((shop.lines[w] for w in words if w in shop.lines), None)
    title = shop.titled(" ".join(sorted(words)))
    brand = next((b for b in shop.brand_categories if b.casefold() in words), None)
    brand = brand or (line[0] if line else title.brand if title else None)
    kind = line[1] if line else title.category if title else ""
    # "Galaxy Book3" is a laptop of a line of phones, "ROG Phone 7" a phone of gaming laptops.
    said = [w.casefold() for w in named.said.split()[1:]]
    if any(w.startswith("book") for w in said):
        kind = COMPUTERS
    elif "phone" in said:
        kind = MOBILE
    return ModelName(named.said, brand, kind)


# -- a catalog name against the one the shopper wrote -------------------------------------


def extra_words(asked: ModelName, name: str) -> int | None:
    """How many words ``name`` has beyond the asked model's; None if it lacks one of them.

    A part number in brackets must match when the shopper wrote one ("Zenbook 14 OLED
    (UX3405)"), and is no extra word when they did not ("HP 14 Laptop")."""
    brand = (asked.brand or "").casefold()

    def words(text: str, *, brackets: bool = False) -> list[str]:
        return [t for t in name_words(text, brackets=brackets) if t != brand]

    if any(t not in words(name, brackets=True) for t in words(asked.text, brackets=True)):
        return None
    return len(words(name)) - len(words(asked.text))


def matches(model: ModelName, products: list[Listed]) -> list[Listed]:
    """The products that are ``model``: every word of its name, the fewest words besides."""
    scored = [(extra, p) for p in products if (extra := extra_words(model, p.name)) is not None]
    fewest = min((extra for extra, _ in scored), default=0)
    return [p for extra, p in scored if extra == fewest]
