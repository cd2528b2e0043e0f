"""What the model may ask ``get_computer_reviews`` for: the tool's input, declared once.

The model's tool spec is generated from this model (``registry``).
"""

from __future__ import annotations

from typing import Annotated

from pydantic import Field

from shared.tools.web_tool import Query, WebQuery, WebSearch

DESCRIPTION = (
    "Search the web for reviews of a specific computer or laptop. "
    "Use when the shopper asks what people think of a computer."
)


class ReviewsInput(WebQuery):
    search = WebSearch(
        "The review service",
        "reviews",
        "review",
        step="Reading reviews of the {query}",
        found=("no reviews found", "1 review found", "{} reviews found"),
    )

    query: Annotated[Query, Field(description="Computer or laptop name and model")]
