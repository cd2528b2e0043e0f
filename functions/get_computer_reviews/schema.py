"""What the model may ask ``get_computer_reviews`` for: the tool's input, declared once.

The model's tool spec is generated from this model (``registry``).
"""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import BaseModel, ConfigDict, Field

from shared.web_tool import Query, WebSearch

DESCRIPTION = (
    "Search the web for reviews of a specific computer or laptop. "
    "Use when the shopper asks what people think of a computer."
)
REVIEW_SEARCH = WebSearch("The review service", "reviews", "review")


class ReviewsInput(BaseModel):
    model_config = ConfigDict(extra="forbid")

    query: Annotated[Query, Field(description="Computer or laptop name and model")]

    # -- the live trace ----------------------------------------------------------------------

    def step(self) -> str:
        return f"Reading reviews of the {self.query}"

    @classmethod
    def found(cls, result: dict[str, Any]) -> str:
        count = REVIEW_SEARCH.found(result)
        return f"{count} review{'' if count == 1 else 's'} found" if count else "no reviews found"
