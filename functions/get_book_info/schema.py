"""What the model may ask ``get_book_info`` for: the tool's input, declared once.

The model's tool spec is generated from this model (``registry``).
"""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import BaseModel, ConfigDict, Field, StringConstraints

DESCRIPTION = (
    "Look up facts about a book (authors, year, rating, subjects) in Open Library. "
    "Use when the shopper asks about a book."
)


class BookInput(BaseModel):
    model_config = ConfigDict(extra="forbid")

    query: Annotated[
        str,
        StringConstraints(strip_whitespace=True, min_length=2, max_length=200),
        Field(description="Book title or author"),
    ]

    # -- the live trace ----------------------------------------------------------------------

    def step(self) -> str:
        return f"Looking up “{self.query}” at Open Library"

    @classmethod
    def found(cls, result: dict[str, Any]) -> str:
        count = len(result.get("results") or [])
        return "not found" if not count else "found" if count == 1 else f"{count} books found"
