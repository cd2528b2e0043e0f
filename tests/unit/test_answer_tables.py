"""A table's cells are facts of the product of their row or column: "| RAM | 32 GB | 8 GB |"
under a header that names a product a column, or "| Dell XPS 13 [..] | 899 |" under
"Price (USD)", checked against the record as a sentence would be."""

from __future__ import annotations

import pytest

from compose_response.logic import ComposeInput, ResponseBody, compose
from tests.unit.test_answer_under_heading import HP, IMAC, XPS

COLUMNS = "| | Dell XPS 13 [CMP-005] | HP 14 [CMP-023] |\n|---|---|---|\n"
"""A header with the products as columns."""


def shown(answer: str) -> ResponseBody:
    event = ComposeInput(
        sessionId="s-1", outcome="answered", answer=answer, products=[XPS, IMAC, HP]
    )
    return compose(event)


@pytest.mark.parametrize(
    ("said", "now", "corrected"),
    [
        # the products as columns: each cell is its column's product's
        (
            COLUMNS + "| RAM | 32 GB | 16 GB |\n| Weight | 0.98 kg | 1.4 kg |",
            COLUMNS + "| RAM | 16 GB | 8 GB |\n| Weight | 1.19 kg | 1.4 kg |",
            [("CMP-005", "32 GB"), ("CMP-023", "16 GB"), ("CMP-005", "0.98 kg")],
        ),
        # the unit in the row's label
        (
            COLUMNS + "| **Battery (hours)** | 20 | 11 |",
            COLUMNS + "| **Battery (hours)** | 14 | 11 |",
            [("CMP-005", "20")],
        ),
        # a citation in the cell, a column of notes or the winner beside them
        (
            COLUMNS + "| RAM | 32 GB [CMP-005] | 8 GB [CMP-023] |",
            COLUMNS + "| RAM | 16 GB [CMP-005] | 8 GB [CMP-023] |",
            [("CMP-005", "32 GB")],
        ),
        (
            "| | Dell XPS 13 [CMP-005] | HP 14 [CMP-023] | Winner |\n|---|---|---|---|\n"
            "| Weight | 0.98 kg | 1.4 kg | Dell XPS 13 |",
            "| | Dell XPS 13 [CMP-005] | HP 14 [CMP-023] | Winner |\n|---|---|---|---|\n"
            "| Weight | 1.19 kg | 1.4 kg | Dell XPS 13 |",
            [("CMP-005", "0.98 kg")],
        ),
        # a product a row, a number alone under a header that gives its unit
        (
            "| Model | Price (USD) | RAM (GB) |\n|:--|--:|--:|\n"
            "| Dell XPS 13 [CMP-005] | 899 | 32 |\n| HP 14 [CMP-023] | 349 | 8 |",
            "| Model | Price (USD) | RAM (GB) |\n|:--|--:|--:|\n"
            "| Dell XPS 13 [CMP-005] | 1,299 | 16 |\n| HP 14 [CMP-023] | 349 | 8 |",
            [("CMP-005", "899"), ("CMP-005", "32")],
        ),
    ],
)
def test_a_wrong_cell_is_corrected_in_place(
    said: str, now: str, corrected: list[tuple[str, str]]
) -> None:
    # Given a table with wrong values in some cells
    body = shown(said)
    # Then the shopper reads the catalog's values in those cells, the table kept
    assert body.answer == now
    assert [(c.productId, c.said) for c in body.corrections] == corrected


@pytest.mark.parametrize("said", ["In stock | In stock", "✅ | ✅"])
def test_a_sold_out_product_said_in_stock_in_a_table_loses_the_row(said: str) -> None:
    # Given a table that says a sold-out product is in stock, in words or with a tick
    header = "| | Dell XPS 13 [CMP-005] | Apple iMac 24 [CMP-014] |\n|---|---|---|\n"
    body = shown(header + f"| Price | $1,299 | $1,299 |\n| Availability | {said} |")
    # Then the row goes (one cell cannot be taken out of it); the prices stay
    assert body.answer == header + "| Price | $1,299 | $1,299 |"
    assert [(c.productId, c.dropped) for c in body.corrections] == [("CMP-014", True)]


@pytest.mark.parametrize(
    "answer",
    [
        COLUMNS + "| **Price** | $1,299 | $349 |\n| Best for | Students | Budget buyers |",
        COLUMNS + "| Price ($) | 1,299 | 349 |\n| Weight | 1.19 kg | 1.4 kg |",
        "| Laptop | Price ($) | Stock |\n| --- | --- | --- |\n"
        "| Apple iMac 24 [CMP-014] | 1,299 | Sold out |\n"
        "| Dell XPS 13 [CMP-005] | 1,299 | In stock |",
        # a true row beside the winner's name: not every cell is the winner's
        "| | Dell XPS 13 [CMP-005] | HP 14 [CMP-023] | Winner |\n|---|---|---|---|\n"
        "| RAM | 16 GB | 8 GB | Dell XPS 13 |",
        # columns and rows that are no spec of the product's own
        "| Model | RAM | Ideal RAM for you |\n|---|---|---|\n| HP 14 [CMP-023] | 8 GB | 16 GB |",
        COLUMNS + "| RAM | 16 GB | 8 GB |\n| Max RAM (upgradeable) | 16 GB | 16 GB |",
        # a row naming no product, under a header naming none a column
        "| Spec | What to look for |\n|---|---|\n| RAM | 32 GB for video editing |",
    ],
)
def test_a_true_table_is_left_alone(answer: str) -> None:
    # Given a table whose cells agree with the records, or are about no one product
    body = shown(answer)
    # Then it reaches the shopper as the model wrote it
    assert body.answer == answer
    assert body.corrections == []
