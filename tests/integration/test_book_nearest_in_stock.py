"""A store's own export names a book's author and genre its own way ("Writer", "Book
Genre"): asked for such a book out of stock, the shopper is offered the same author's
books in stock, else the same genre's, not told that nothing close is in stock.
"""

from __future__ import annotations

from typing import Any

from storechat.local import LocalStorechat
from tests.integration.test_named_book_out_of_stock import asked, book


def exported(pid: str, title: str, author: str, genre: str, stock: int, about: str) -> Any:
    """A book as a store's export writes it: its own spec names."""
    record = book(pid, title, author, genre, stock, about)
    return record | {"specs": {"Writer": author, "Book Genre": genre, "Binding": "Paperback"}}


HAIL_MARY = exported(
    "BK-950", "Project Hail Mary", "Andy Weir", "Science Fiction", 0,
    "A lone astronaut wakes on a ship with no memory and must save Earth.",
)  # fmt: skip
SAME_GENRE = exported(
    "BK-951", "The Long Way to a Small, Angry Planet", "Becky Chambers", "Science Fiction", 9,
    "A tunnelling crew travels the galaxy together.",
)  # fmt: skip
SAME_AUTHOR = exported(
    "BK-952", "The Martian", "Andy Weir", "Science Fiction", 4,
    "An astronaut stranded on Mars grows potatoes to survive.",
)  # fmt: skip
OTHER_GENRE = exported(
    "BK-953", "Gardening Through the Year", "Ruth Hale", "Home and Garden", 7,
    "Month by month, what to sow and prune.",
)  # fmt: skip


def test_the_same_genre_in_stock_is_offered_for_an_exported_book() -> None:
    # Given a store's own books: Project Hail Mary sold out, another science fiction
    # book and a gardening book in stock
    with LocalStorechat(catalog=[HAIL_MARY, SAME_GENRE, OTHER_GENRE], search_first=False) as local:
        # When a shopper asks for it by its title
        text, shown, _ = asked(local, "Do you have Project Hail Mary?")

    # Then it is out of stock, and the science fiction book is offered, not "nothing"
    assert text.startswith("We carry Project Hail Mary [BK-950]: out of stock right now")
    assert "Nothing close to it is in stock" not in text
    # (its export names the genre "Book Genre": the heading has no empty "()" for it)
    assert "The nearest we have in stock, in the same genre:\n1. " in text
    assert shown == ["BK-950", "BK-951"]


def test_the_same_author_in_stock_comes_first_for_an_exported_book() -> None:
    # Given the same, and Andy Weir's other book in stock
    catalog = [HAIL_MARY, SAME_GENRE, OTHER_GENRE, SAME_AUTHOR]
    with LocalStorechat(catalog=catalog, search_first=False) as local:
        text, shown, _ = asked(local, "Do you have Project Hail Mary?")

    # Then his book is offered, by the same author
    assert "The nearest we have in stock, by the same author:\n1. The Martian [BK-952]" in text
    assert shown == ["BK-950", "BK-952"]
