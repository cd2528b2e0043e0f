"""What the model may ask ``get_store_policies`` for: the tool's input, declared once.

The model's tool spec is generated from this model (``registry``); its ``step`` and
``found`` are the tool's words in the live trace.
"""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import BaseModel, ConfigDict, Field, StringConstraints

from shared.products.currency import DEFAULT_CURRENCY

DESCRIPTION = (
    "Read the store's own policies (returns, refunds, shipping and delivery, payment, "
    "order status and tracking, warranty, contact) and get the sections that answer the "
    "shopper's question, in the store's words. Use it for every question about the store "
    "itself, never the catalog; what these sections do not say, the store has not said."
)
MAX_STEP_QUESTION = 60


class PoliciesInput(BaseModel):
    model_config = ConfigDict(extra="forbid")

    question: Annotated[
        str,
        StringConstraints(strip_whitespace=True, min_length=2, max_length=300),
        Field(description="The shopper's question about the store, in their words"),
    ]

    def step(self, currency: str = DEFAULT_CURRENCY) -> str:
        del currency  # a policy question names no amount
        asked = self.question
        if len(asked) > MAX_STEP_QUESTION:
            asked = asked[: MAX_STEP_QUESTION - 1].rstrip() + "…"
        return f"Reading the store's policies for “{asked}”"

    @classmethod
    def found(cls, result: dict[str, Any]) -> str:
        count = len(result.get("sections") or [])
        if count == 0:
            return "they don't say"
        return "1 section found" if count == 1 else f"{count} sections found"
