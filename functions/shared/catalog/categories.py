"""What the store sells: :class:`Category`, and the words that stand for each category.

No AWS and no search imports: the Converse function reads this for the tool spec.
"""

from __future__ import annotations

from enum import StrEnum
from typing import TYPE_CHECKING, Final, Literal


class Category(StrEnum):
    """A catalog category. A member is its own name as text (``"MOBILE"``), so records,
    tool input and JSON hold the plain name."""

    BOOKS = "BOOKS"
    COMPUTERS = "COMPUTERS"
    MOBILE = "MOBILE"


CATEGORIES: Final[tuple[str, ...]] = tuple(category.value for category in Category)
"""Every category's name as plain text, in the enum's order (for messages and schemas)."""

if TYPE_CHECKING:
    CategoryName = str
else:
    CategoryName = Literal[CATEGORIES]
"""A category as a pydantic field takes it: one of :class:`Category`'s names as plain text.
A ``Literal`` rather than the enum, so that strict validation takes JSON's text, the
schema lists the names alone, and a dump holds plain strings."""

PLURALS: Final[dict[Category, str]] = {
    Category.BOOKS: "books",
    Category.COMPUTERS: "computers",
    Category.MOBILE: "phones",
}
"""How a shopper names a category's products in a sentence ("Searching the catalog for
phones")."""

INDEX_WORDS: Final[dict[Category, str]] = {
    Category.COMPUTERS: "computer",
    Category.MOBILE: "phone mobile smartphone",
    Category.BOOKS: "book",
}
"""Words the search index adds to every product of a category, so that "phone" finds a
phone whose name and description never say it."""
