"""What the model may ask ``get_computer_reviews`` for: the tool's input, declared once.

The model's tool spec is generated from this model (``registry``).
"""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import BaseModel, ConfigDict, Field, StringConstraints

DESCRIPTION = (
    "Search the web for reviews of a specific computer or laptop. "
    "Use when the shopper asks what people think of a computer."
)


class ReviewsInput(BaseModel):
    model_config = ConfigDict(extra="forbid")

    query: Annotated[
        str,
        StringConstraints(strip_whitespace=True, min_length=2, max_length=200),
        Field(description="Computer or laptop name and model"),
    ]

    # -- the live trace ----------------------------------------------------------------------

    def step(self) -> str:
        return f"Reading reviews of the {self.query}"

    @classmethod
    def found(cls, result: dict[str, Any]) -> str:
        count = len(result.get("results") or [])
        return f"{count} review{'' if count == 1 else 's'} found" if count else "no reviews found"
