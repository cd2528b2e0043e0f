"""What the model may ask ``get_book_info`` for: the tool's input, declared once.

The model's tool spec is generated from this model (``shared.registry``).
"""

from __future__ import annotations

from typing import Annotated

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
