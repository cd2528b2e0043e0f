"""Facts listed under a heading that names one product are that product's: "### Dell XPS
13 [..]" then "RAM: 32 GB", or "- **HP 14 [..]**" then "- Battery: 15 hours", checked
against its record as a sentence citing it would be."""

from __future__ import annotations

from typing import Any

import pytest

from compose_response.logic import ComposeInput, ResponseBody, compose
from tests.unit.test_answer_bold import IMAC as SOLD_OUT
from tests.unit.test_answer_bold import XPS as IN_STOCK

XPS: dict[str, Any] = {
    **IN_STOCK,
    "specs": {**IN_STOCK["specs"], "storageGb": 512, "weightKg": 1.19, "batteryHours": 14},
}
IMAC: dict[str, Any] = {**SOLD_OUT, "specs": {**SOLD_OUT["specs"], "storageGb": 256}}
HP: dict[str, Any] = {
    **XPS,
    "productId": "CMP-023",
    "name": "HP 14 Laptop (14-ep0000)",
    "brand": "HP",
    "price": 349.0,
    "stock": 5,
    "specs": {**XPS["specs"], "ramGb": 8, "storageGb": 256, "weightKg": 1.4, "batteryHours": 11},
}


def shown(answer: str) -> ResponseBody:
    event = ComposeInput(
        sessionId="s-1", outcome="answered", answer=answer, products=[XPS, IMAC, HP]
    )
    return compose(event)


@pytest.mark.parametrize(
    ("said", "now", "fields"),
    [
        # a Markdown heading, then a value under a label on each line
        (
            "### Dell XPS 13 [CMP-005]\nRAM: 32 GB\nStorage: 1 TB",
            "### Dell XPS 13 [CMP-005]\nRAM: 16 GB\nStorage: 512 GB",
            ["ramGb", "storageGb"],
        ),
        # named in words, no id; bullets under it, a label in bold
        (
            "## Dell XPS 13\n- **Weight:** 0.98 kg\n- 14 hours of battery",
            "## Dell XPS 13\n- **Weight:** 1.19 kg\n- 14 hours of battery",
            ["weightKg"],
        ),
        # a bold name as a bullet, its facts indented under it
        (
            "- **HP 14 Laptop [CMP-023]**\n  - Battery: 15 hours\n  - Weight: 1.1 kg",
            "- **HP 14 Laptop [CMP-023]**\n  - Battery: 11 hours\n  - Weight: 1.4 kg",
            ["batteryHours", "weightKg"],
        ),
        # ... or at its own level, each under a label
        (
            "- **HP 14 Laptop [CMP-023]**\n- RAM: 16 GB\n- **Dell XPS 13 [CMP-005]**\n- RAM: 8 GB",
            "- **HP 14 Laptop [CMP-023]**\n- RAM: 8 GB\n- **Dell XPS 13 [CMP-005]**\n- RAM: 16 GB",
            ["ramGb", "ramGb"],
        ),
        # a bold name with a description after it, its specs indented under it
        (
            "- **HP 14 [CMP-023]** — best budget pick\n  - RAM: 32 GB\n  - Battery: 20 hours",
            "- **HP 14 [CMP-023]** — best budget pick\n  - RAM: 8 GB\n  - Battery: 11 hours",
            ["ramGb", "batteryHours"],
        ),
        # a heading over its specs within the product's section
        (
            "### Dell XPS 13 [CMP-005]\n**Key specs:**\n- RAM: 32 GB\n- Battery: 20 hours",
            "### Dell XPS 13 [CMP-005]\n**Key specs:**\n- RAM: 16 GB\n- Battery: 14 hours",
            ["ramGb", "batteryHours"],
        ),
        # a line that leads into its specs
        (
            "Here are the specs of the HP 14 [CMP-023]:\n- RAM: 32 GB",
            "Here are the specs of the HP 14 [CMP-023]:\n- RAM: 8 GB",
            ["ramGb"],
        ),
        # a table of its specs under its heading
        (
            "### HP 14 [CMP-023]\n| Spec | Value |\n|---|---|\n| RAM | 32 GB |",
            "### HP 14 [CMP-023]\n| Spec | Value |\n|---|---|\n| RAM | 8 GB |",
            ["ramGb"],
        ),
        # a bold line of its own is a heading too
        (
            "**Dell XPS 13** [CMP-005]\n- 32 GB RAM\n- 1 TB SSD",
            "**Dell XPS 13** [CMP-005]\n- 16 GB RAM\n- 512 GB SSD",
            ["ramGb", "storageGb"],
        ),
    ],
)
def test_a_wrong_fact_under_a_products_heading_is_corrected(
    said: str, now: str, fields: list[str]
) -> None:
    # Given an answer that names a product in a heading and lists wrong facts under it
    body = shown(said)
    # Then the shopper reads the catalog's values, each marked as corrected
    assert body.answer == now
    assert [c.field for c in body.corrections] == fields


def test_a_sold_out_product_listed_in_stock_under_its_heading_loses_the_line() -> None:
    # Given a sold-out product's heading with a stock line under it
    body = shown("### Apple iMac 24 [CMP-014]\n- RAM: 8 GB\n- Stock: in stock, ships today")
    # Then the stock line goes; the true one stays
    assert body.answer == "### Apple iMac 24 [CMP-014]\n- RAM: 8 GB"
    assert [(c.productId, c.dropped) for c in body.corrections] == [("CMP-014", True)]


@pytest.mark.parametrize(
    "answer",
    [
        # true facts stay
        "### Dell XPS 13 [CMP-005]\nRAM: 16 GB\nStorage: 512 GB\nWeight: 1.19 kg",
        # prose under the heading is not a listed fact: it may be about anything
        "### Dell XPS 13 [CMP-005]\nA fine pick. It beats the 8 GB most laptops have.",
        # the next heading ends the section: what follows is not the XPS's
        "### Dell XPS 13 [CMP-005]\nRAM: 16 GB\n\n### What to look for\n- RAM: 8 GB is enough",
        # a line of prose citing another product ends it too
        "### Dell XPS 13 [CMP-005]\nRAM: 16 GB\nThe HP 14 [CMP-023] is cheaper:\n- RAM: 8 GB",
        # a heading naming two products is no one product's
        "### Dell XPS 13 [CMP-005] or HP 14 [CMP-023]\n- RAM: 8 GB or 16 GB",
        # advice after the product's section: a lead-in, a rule, a label that is no spec's
        "## Dell XPS 13 [CMP-005]\n- RAM: 16 GB\n\nRecommended minimum specs:\n- RAM: 8 GB",
        "## Dell XPS 13 [CMP-005]\n- RAM: 16 GB\n\n---\n\n- RAM: 8 GB is enough for school",
        "### Dell XPS 13 [CMP-005]\n- RAM: 16 GB\n- Tip: for browsing, 8 GB of RAM is plenty",
        "## Dell XPS 13 [CMP-005]\n- RAM: 16 GB\n\nBudget tip: 8 GB RAM is fine for browsing.",
        "Compared with the HP 14 [CMP-023], look for:\n- 16 GB RAM\n- a 512 GB SSD",
        # a bullet after a bold name that gives no value under a label is another item
        "- **Dell XPS 13 [CMP-005]**\n- 8 GB laptops are slower",
    ],
)
def test_what_is_not_listed_under_one_products_heading_is_left_alone(answer: str) -> None:
    # Given facts that are true, or not listed under a heading naming one product
    body = shown(answer)
    # Then the answer is the model's, with nothing corrected
    assert body.answer == answer
    assert body.corrections == []
