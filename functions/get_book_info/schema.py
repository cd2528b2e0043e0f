"""What the model may ask ``get_book_info`` for: the tool's input, declared once.

The model's tool spec is generated from this model (``registry``).
"""

from __future__ import annotations

from typing import Annotated

from pydantic import Field

from shared.tools.web_tool import Query, WebQuery, WebSearch

DESCRIPTION = (
    "Look up facts about a book (authors, year, rating, subjects) in Open Library. "
    "Use when the shopper asks about a book."
)


class BookInput(WebQuery):
    search = WebSearch(
        "The book information service",
        "book details",
        "book",
        step="Looking up “{query}” at Open Library",
        found=("not found", "found", "{} books found"),
    )

    query: Annotated[Query, Field(description="Book title or author")]
