"""What the model may ask ``get_book_info`` for: the tool's input, declared once.

The model's tool spec is generated from this model (``registry``).
"""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import BaseModel, ConfigDict, Field

from shared.web_tool import Query, WebSearch

DESCRIPTION = (
    "Look up facts about a book (authors, year, rating, subjects) in Open Library. "
    "Use when the shopper asks about a book."
)
OPEN_LIBRARY = WebSearch("The book information service", "book details", "book")


class BookInput(BaseModel):
    model_config = ConfigDict(extra="forbid")

    query: Annotated[Query, Field(description="Book title or author")]

    # -- the live trace ----------------------------------------------------------------------

    def step(self) -> str:
        return f"Looking up “{self.query}” at Open Library"

    @classmethod
    def found(cls, result: dict[str, Any]) -> str:
        count = OPEN_LIBRARY.found(result)
        return "not found" if not count else "found" if count == 1 else f"{count} books found"
