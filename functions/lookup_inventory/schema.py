"""What the model may ask ``lookup_inventory`` for: the tool's input, declared once.

The model's tool spec is generated from this model (``shared.registry``), so the
descriptions below are what the model reads.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator

Category = Literal["BOOKS", "COMPUTERS", "MOBILE"]
SortBy = Literal[
    "price", "price_desc", "weight", "battery", "ram", "storage", "screen", "camera", "newest"
]
MAX_PRODUCT_IDS = 10

ProductId = Annotated[str, Field(pattern=r"^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$")]

DESCRIPTION = (
    "Search The Better Store catalog. Returns the number of matches and the best few products "
    "with id, name, brand, category, price, stock, key specs and a short summary."
)


class InventoryInput(BaseModel):
    """What the model may ask for. Unknown keys are refused, not ignored."""

    model_config = ConfigDict(extra="forbid", str_strip_whitespace=True)

    productName: Annotated[
        str | None,
        Field(
            min_length=1, max_length=120, description="Words that must appear in the product name"
        ),
    ] = None
    brandId: Annotated[
        str | None,
        Field(
            min_length=1,
            max_length=60,
            description=(
                "Brand to filter by (e.g. ASUS, Dell, Apple, Lenovo, HP, Samsung, Microsoft, "
                "Acer, Razer, MSI, Penguin Books, HarperCollins, Bloomsbury)"
            ),
        ),
    ] = None
    category: Annotated[Category | None, Field(description="Product category")] = None
    keywords: Annotated[
        str | None,
        Field(
            min_length=1,
            max_length=120,
            description=(
                "Words that must all appear in the name, description or specs, "
                "e.g. 'windows' or 'rtx'"
            ),
        ),
    ] = None
    maxPrice: Annotated[
        float | None, Field(gt=0, le=1_000_000, description="Highest price in US dollars")
    ] = None
    productIds: Annotated[
        list[ProductId] | None,
        Field(
            min_length=1,
            max_length=MAX_PRODUCT_IDS,
            description="Exact product ids to fetch, e.g. ones cited earlier in the conversation",
        ),
    ] = None
    sortBy: Annotated[
        SortBy | None,
        Field(
            description=(
                "Which matches to show first (in-stock always first): price (cheapest, the "
                "default), price_desc, weight (lightest), battery, ram, storage, screen, camera "
                "(largest first), newest (books)"
            )
        ),
    ] = None

    @field_validator("category", mode="before")
    @classmethod
    def _upper(cls, value: Any) -> Any:
        # Models write "computers" as often as "COMPUTERS"; both mean the same.
        return value.strip().upper() if isinstance(value, str) else value
